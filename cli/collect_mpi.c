// SPDX-License-Identifier: MIT
/*
 * uprof collect --mpi (docs/DESIGN.md §10): this collect is one rank of a job that a launcher
 * started (`mpirun -np N uprof collect --mpi ... ./app`). Which rank, of how many, and
 * which job come from the launcher's environment; the rank's session goes into the job
 * directory that every rank of the job shares (lib/session/job.c).
 *
 * What the launchers set, as checked on this project's machines:
 *   Open MPI 4.1 (ORTE + PMIx): OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK, PMIX_RANK,
 *     PMIX_NAMESPACE (the job id, also OMPI_MCA_ess_base_jobid)
 *   MPICH 4.0 (Hydra): PMI_RANK, PMI_SIZE, MPI_LOCALRANKID and PMI_FD, a socket to the
 *     local proxy; no job id in the environment: the PMI-1 wire protocol's
 *     get_my_kvsname answers one (kvs_<mpiexec pid>_<pgid>_<random>_<host>), the same
 *     on every host of the job
 *   Slurm (srun): SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_JOB_ID.SLURM_STEP_ID
 */
#include "cli/collect.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

#define PMI_TIMEOUT_MS 3000 /* the proxy answers at once; a dead one must not hang a rank */

/* The first of @names that is set to a number in [0, @max], into *@out; its name, or NULL. */
static const char *env_int(const char *const *names, int max, int *out)
{
	for (; *names; names++) {
		const char *v = getenv(*names);
		char *end;
		long n;

		if (!v || !*v)
			continue;
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || *end || n < 0 || n > max)
			continue;
		*out = (int)n;
		return *names;
	}
	return NULL;
}

/* @src as a job id: the characters a directory name may hold (job.c's alphabet), any
 * other as '_' (PRRTE's namespaces hold '@'), at most SES_JOB_ID_MAX. */
static void put_job_id(char *dst, const char *src)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._-";
	size_t i = 0;

	for (; src[i] && i < SES_JOB_ID_MAX; i++)
		dst[i] = strchr(ok, src[i]) ? src[i] : '_';
	dst[i] = 0;
}

/* One PMI-1 reply line into @buf, read a byte at a time: the socket is the program's
 * after us, and not one byte of what follows may be taken from it. 0 or -errno. */
static int pmi_line(int fd, char *buf, size_t size)
{
	size_t n = 0;

	while (n + 1 < size) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, PMI_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
		r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -ECONNRESET;
		if (buf[n] == '\n') {
			buf[n] = 0;
			return 0;
		}
		n++;
	}
	return -E2BIG;
}

static int pmi_ask(int fd, const char *cmd, char *reply, size_t size)
{
	size_t len = strlen(cmd);

	if (write(fd, cmd, len) != (ssize_t)len)
		return -EIO;
	return pmi_line(fd, reply, size);
}

/* MPICH's Hydra: the job's KVS name through the PMI-1 socket in PMI_FD, asked before the
 * program starts (its MPI_Init says init again on the same socket: Hydra answers each). */
static int pmi_kvsname(char *out, size_t size)
{
	const char *v = getenv("PMI_FD"), *k;
	char reply[512];
	char *end;
	long fd;
	int ret;

	if (!v)
		return -ENOENT;
	fd = strtol(v, &end, 10);
	if (*end || end == v || fd < 0 || fd > 65535 || fcntl((int)fd, F_GETFD) < 0)
		return -EBADF;
	ret = pmi_ask((int)fd, "cmd=init pmi_version=1 pmi_subversion=1\n", reply, sizeof(reply));
	if (!ret && (!strstr(reply, "cmd=response_to_init") || !strstr(reply, "rc=0")))
		ret = -EPROTO;
	if (!ret)
		ret = pmi_ask((int)fd, "cmd=get_my_kvsname\n", reply, sizeof(reply));
	if (ret)
		return ret;
	k = strstr(reply, "kvsname=");
	if (!k || !k[8])
		return -EPROTO;
	k += 8;
	snprintf(out, size, "%.*s", (int)strcspn(k, " \t\r"), k);
	return 0;
}

/* The launcher's job id into st->mpi.job: -1 to go on, or an exit code. */
static int find_job(struct collect_state *st)
{
	static const char *const direct[] = { "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid",
					      "PMI_KVSNAME", NULL };
	const char *job = getenv("UPROF_MPI_JOB"), *step;
	char buf[256];
	int ret;

	for (int i = 0; direct[i] && !(job && *job); i++)
		job = getenv(direct[i]);
	if (!(job && *job) && getenv("SLURM_JOB_ID")) {
		step = getenv("SLURM_STEP_ID");
		snprintf(buf, sizeof(buf), "slurm.%s.%s", getenv("SLURM_JOB_ID"), step ? step : "0");
		job = buf;
	}
	if (!(job && *job)) {
		ret = pmi_kvsname(buf, sizeof(buf));
		if (ret)
			return cli_error(1, CMD,
					 "--mpi: rank %d has no job id from its launcher (no "
					 "PMIX_NAMESPACE, SLURM_JOB_ID or PMI_KVSNAME, %s); set "
					 "UPROF_MPI_JOB to one name for all ranks",
					 st->mpi.rank,
					 ret == -ENOENT ? "no PMI_FD to ask"
							: "and PMI_FD did not answer get_my_kvsname");
		job = buf;
	}
	put_job_id(st->mpi.job, job);
	return -1;
}

int collect_mpi_detect(struct collect_state *st)
{
	static const char *const ranks[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
					     "SLURM_PROCID", NULL };
	static const char *const sizes[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
					     NULL };
	static const char *const locals[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
					      "SLURM_LOCALID", NULL };

	if (!st->mpi.on)
		return -1;
	if (st->attach)
		return cli_usage_error(CMD, "--mpi profiles a rank that the launcher starts "
					    "(mpirun -np N uprof collect --mpi ./app), not -p/-a");
	st->mpi.size = st->mpi.local_rank = -1;
	st->mpi.from = env_int(ranks, SES_JOB_MAX_RANKS - 1, &st->mpi.rank);
	if (!st->mpi.from)
		return cli_error(EXIT_USAGE, CMD,
				 "--mpi: not started by an MPI launcher (none of "
				 "OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID is set); "
				 "run 'mpirun -np N uprof collect --mpi ... ./app'");
	/* the launcher ends a job by signalling us: the rank gets it too (collect_run.c),
	 * and one that outlives the collection is ended, not left running */
	st->terminate = true;
	env_int(sizes, SES_JOB_MAX_RANKS, &st->mpi.size);
	env_int(locals, SES_JOB_MAX_RANKS - 1, &st->mpi.local_rank);
	if (st->mpi.size == 0 || (st->mpi.size > 0 && st->mpi.rank >= st->mpi.size))
		return cli_error(1, CMD, "--mpi: the launcher says rank %d of %d ranks (%s)",
				 st->mpi.rank, st->mpi.size, st->mpi.from);
	return find_job(st);
}

int collect_mpi_make_dir(struct collect_state *st, const char *absout)
{
	struct ses_job_rank r;
	char *slash;
	int ret;

	ses_job_rank_init(&r, st->mpi.rank);
	r.size = st->mpi.size > 0 ? st->mpi.size : 0;
	r.local_rank = st->mpi.local_rank;
	ret = ses_job_join(absout, st->prog_path, st->mpi.job, &r, st->session_dir,
			   sizeof(st->session_dir));
	if (ret == -EEXIST)
		return cli_error(1, CMD, "--mpi: job %s has a rank %d already (in %s): two ranks "
					 "with one number, or the job id of an earlier job",
				 st->mpi.job, st->mpi.rank, absout);
	if (ret == -ENOTDIR || ret == -EPERM)
		return cli_error(1, CMD, "--mpi: the job directory for job %s in '%s' is not a "
					 "private directory of this user (a link, or another user's)",
				 st->mpi.job, absout);
	if (ret)
		return cli_error(1, CMD, "--mpi: cannot join job %s in '%s': %s", st->mpi.job,
				 absout, strerror(-ret));
	snprintf(st->mpi.job_dir, sizeof(st->mpi.job_dir), "%s", st->session_dir);
	slash = strrchr(st->mpi.job_dir, '/');
	if (slash)
		*slash = 0;
	return -1;
}

const char *collect_mpi_data_path(const struct collect_state *st)
{
	return st->mpi.on ? st->mpi.job_dir : st->session_dir;
}

/* ---- --trace mpi: the interposer of the program's family ---- */

static const char *family_name(int f)
{
	return f == SES_MPI_OPENMPI ? "openmpi" : f == SES_MPI_MPICH ? "mpich" : "?";
}

static int family_of(const char *s, size_t len)
{
	if (len == 7 && !memcmp(s, "openmpi", 7))
		return SES_MPI_OPENMPI;
	if (len == 5 && !memcmp(s, "mpich", 5))
		return SES_MPI_MPICH;
	return 0;
}

static int set_family(struct collect_state *st, int f, const char *from)
{
	if (st->mpi.family && st->mpi.family != f)
		return cli_error(EXIT_USAGE, CMD, "%s asks for %s, %s for %s: give one MPI family",
				 st->mpi.family_from, family_name(st->mpi.family), from,
				 family_name(f));
	st->mpi.family = f;
	st->mpi.family_from = from;
	return -1;
}

int collect_mpi_trace_parse(struct collect_state *st, const char *arg)
{
	const char *p = *arg == '=' ? arg + 1 : arg;

	st->mpi.trace = st->mpi.on = true; /* --trace mpi implies --mpi (uProf) */
	while (*p) {
		size_t n = strcspn(p, ",");
		int f = family_of(p, n);
		int ret;

		if (f) {
			ret = set_family(st, f, "--trace mpi");
			if (ret >= 0)
				return ret;
		} else if (n == 3 && !memcmp(p, "lwt", 3)) {
			st->mpi.full = false;
		} else if (n == 4 && !memcmp(p, "full", 4)) {
			st->mpi.full = true;
		} else {
			return cli_error(EXIT_USAGE, CMD, "--trace mpi='%.*s': use openmpi or mpich, "
							  "and lwt or full (e.g. --trace mpi=mpich,lwt)",
					 (int)n, p);
		}
		p += n + (p[n] == ',');
	}
	return -1;
}

int collect_mpi_impl_parse(struct collect_state *st, const char *arg)
{
	int f = family_of(arg, strlen(arg));

	if (!f)
		return cli_error(EXIT_USAGE, CMD, "--mpi-impl '%s': use openmpi or mpich (mpich also "
						  "covers Intel MPI)",
				 arg);
	return set_family(st, f, "--mpi-impl");
}

/* The MPI family the program is linked with, from the libraries the loader would map
 * for it (ldd: the libmpi may come in through another library); 0 when none is. @lib
 * gets the library's name. */
static int program_family(const char *prog, char *lib, size_t len)
{
	static const struct {
		const char *soname;
		int family;
	} known[] = { { "libmpi.so.40", SES_MPI_OPENMPI }, { "libmpi_mpifh.so.40", SES_MPI_OPENMPI },
		      { "libmpich.so.12", SES_MPI_MPICH }, { "libmpi.so.12", SES_MPI_MPICH },
		      { "libmpichfort.so.12", SES_MPI_MPICH } };
	char line[1024];
	int fds[2], status, family = 0;
	pid_t pid;
	FILE *f;

	if (pipe2(fds, O_CLOEXEC))
		return 0;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		execlp("ldd", "ldd", prog, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = pid > 0 ? fdopen(fds[0], "r") : NULL;
	if (!f)
		close(fds[0]);
	while (f && fgets(line, sizeof(line), f)) {
		const char *name = line + strspn(line, " \t");

		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]) && !family; i++)
			if (!strncmp(name, known[i].soname, strlen(known[i].soname)) &&
			    strchr(" \t", name[strlen(known[i].soname)])) {
				family = known[i].family;
				snprintf(lib, len, "%s", known[i].soname);
			}
	}
	if (f)
		fclose(f);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return family;
}

int collect_mpi_prepare(struct collect_state *st)
{
	char rel[64], linked[64] = "", lib[PATH_MAX];
	int prog;

	if (!st->mpi.trace) {
		if (st->mpi.family)
			return cli_usage_error(CMD, "--mpi-impl applies to --trace mpi");
		return -1;
	}
	prog = program_family(st->prog_path, linked, sizeof(linked));
	if (st->mpi.family && prog && prog != st->mpi.family)
		return cli_error(1, CMD, "%s=%s: '%s' is linked with %s (%s); an interposer of "
					 "one MPI family aborts under the other: use %s, or leave "
					 "it out",
				 st->mpi.family_from, family_name(st->mpi.family), st->prog_path,
				 prog == SES_MPI_OPENMPI ? "Open MPI" : "MPICH", linked,
				 family_name(prog));
	if (!st->mpi.family && !prog)
		return cli_error(1, CMD, "--trace mpi: cannot tell the MPI family of '%s' (no "
					 "libmpi among the libraries it loads): give --mpi-impl "
					 "openmpi or mpich",
				 st->prog_path);
	if (!st->mpi.family)
		st->mpi.family = prog;
	snprintf(rel, sizeof(rel), "../lib/libuprof_mpi_%s.so", family_name(st->mpi.family));
	if (!cli_beside_exe(rel, lib, sizeof(lib)) || !realpath(lib, st->mpi.lib) ||
	    access(st->mpi.lib, R_OK))
		return cli_error(1, CMD, "--trace mpi: no %s interposer (%s beside uprof); it is "
					 "built when the family's mpicc is installed "
					 "(scripts/install-deps.sh)",
				 family_name(st->mpi.family), rel + 3);
	return -1;
}

void collect_mpi_env(const struct collect_state *st)
{
	char dir[PATH_MAX + 8], preload[2 * PATH_MAX + 2];
	const char *old = getenv("LD_PRELOAD");
	int ret;

	if (!st->mpi.trace)
		return;
	snprintf(dir, sizeof(dir), "%s/" SES_MPI_DIR, st->session_dir);
	ret = ses_private_mkdir(dir);
	if (ret && ret != -EEXIST) {
		cli_warn(CMD, "--trace mpi: cannot create %s: %s; no MPI data", dir, strerror(-ret));
		return;
	}
	setenv(SES_MPI_ENV_DIR, dir, 1);
	snprintf(preload, sizeof(preload), "%s%s%s", st->mpi.lib, old && *old ? ":" : "",
		 old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
}
