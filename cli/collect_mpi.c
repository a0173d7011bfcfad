// SPDX-License-Identifier: MIT
/*
 * uprof collect --mpi (DESIGN.md §10): this collect is one rank of a job that a launcher
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
#include <poll.h>
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
