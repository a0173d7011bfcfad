// SPDX-License-Identifier: MIT
/*
 * uprof collect --mpi (docs/DESIGN.md §10): this collect is one rank of a job that a launcher
 * started (`mpirun -np N uprof collect --mpi ... ./app`). Which rank, of how many, and
 * which job come from the launcher (lib/launcher); the rank's session goes into the job
 * directory that every rank of the job shares (lib/session/job.c).
 */
#include "cli/collect.h"
#include "launcher/launcher.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

#define STR_(x) #x
#define STR(x) STR_(x)

/* The launcher's job id into st->mpi.job: -1 to go on, or an exit code. */
static int find_job(struct collect_state *st)
{
	int ret = launcher_job_id(st->mpi.job, sizeof(st->mpi.job));

	if (ret)
		return cli_error(1, CMD,
				 "--mpi: rank %d has no job id from its launcher (no "
				 "PMIX_NAMESPACE, SLURM_JOB_ID or PMI_KVSNAME, %s); set "
				 "UPROF_MPI_JOB to one name for all ranks",
				 st->mpi.rank,
				 ret == -ENOENT ? "no PMI_FD to ask"
						: "and PMI_FD did not answer get_my_kvsname");
	return -1;
}

/* --trace mpi=full: the user's UPROF_MPI_EVENTS, when set, is a count of events a rank
 * records (1..SES_MPIEV_CAP_MAX, decimal digits alone); the interposer would take
 * anything else for "no events" or cap it, silently: refused here, before the program
 * runs. */
static int check_events_cap(void)
{
	const char *s = getenv(SES_MPIEV_ENV_CAP);
	unsigned long long v = 0;

	if (!s)
		return -1;
	for (const char *p = s; *p && v <= SES_MPIEV_CAP_MAX; p++)
		v = *p >= '0' && *p <= '9' ? v * 10 + (unsigned)(*p - '0') : ~0ULL;
	if (*s && v >= 1 && v <= SES_MPIEV_CAP_MAX)
		return -1;
	return cli_error(EXIT_USAGE, CMD,
			 "%s='%s' is not a count of MPI events a rank records (1 to %u); "
			 "unset it for the default, %u",
			 SES_MPIEV_ENV_CAP, s, SES_MPIEV_CAP_MAX, SES_MPIEV_CAP_DEFAULT);
}

int collect_mpi_detect(struct collect_state *st)
{
	struct launcher_rank r;
	int ret;

	if (!st->mpi.on)
		return -1;
	if (st->attach)
		return cli_usage_error(CMD, "--mpi profiles a rank that the launcher starts "
					    "(mpirun -np N uprof collect --mpi ./app), not -p/-a");
	if (st->mpi.full && (ret = check_events_cap()) >= 0)
		return ret;
	ret = launcher_rank_detect(&r);
	st->mpi.rank = r.rank;
	st->mpi.size = r.size;
	st->mpi.local_rank = r.local_rank;
	st->mpi.from = r.from;
	if (ret == -ENOENT)
		return cli_error(EXIT_USAGE, CMD,
				 "--mpi: not started by an MPI launcher (none of "
				 "OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID is set); "
				 "run 'mpirun -np N uprof collect --mpi ... ./app'");
	/* the launcher ends a job by signalling us: the rank gets it too (collect_run.c),
	 * and one that outlives the collection is ended, not left running */
	st->terminate = true;
	if (ret)
		return cli_error(1, CMD, "--mpi: the launcher says rank %d of %d ranks (%s)",
				 st->mpi.rank, st->mpi.size, st->mpi.from);
	return find_job(st);
}

int collect_mpi_make_dir(struct collect_state *st, const char *absout)
{
	struct ses_job_rank r;
	char jobname[NAME_MAX + 1];
	int ret;

	ses_job_rank_init(&r, st->mpi.rank);
	r.size = st->mpi.size > 0 ? st->mpi.size : 0;
	r.local_rank = st->mpi.local_rank;
	ret = ses_job_join(st->out_fd, st->prog_path, st->mpi.job, &r, jobname, sizeof(jobname));
	if (ret == -EEXIST)
		return cli_error(1, CMD,
				 "--mpi: job %s has a rank %d already (in %s): two ranks "
				 "with one number, or the job id of an earlier job",
				 st->mpi.job, st->mpi.rank, absout);
	if (ret == -ENOTDIR || ret == -EPERM)
		return cli_error(1, CMD,
				 "--mpi: the job directory for job %s in '%s' is not a "
				 "private directory of this user (a link, or another user's)",
				 st->mpi.job, absout);
	if (ret < 0)
		return cli_error(1, CMD, "--mpi: cannot join job %s in '%s': %s", st->mpi.job,
				 absout, strerror(-ret));
	st->session_fd = ret;
	snprintf(st->session_name, sizeof(st->session_name), "%s/rank-%d", jobname, r.rank);
	if (snprintf(st->mpi.job_dir, sizeof(st->mpi.job_dir), "%s/%s", absout, jobname) >=
		    (int)sizeof(st->mpi.job_dir) ||
	    snprintf(st->session_dir, sizeof(st->session_dir), "%s/%s", absout, st->session_name) >=
		    (int)sizeof(st->session_dir))
		return cli_error(1, CMD, "output path too long");
	if (st->mpi.trace) {
		/* mpi/, held open for the run: the interposer in the program writes beneath it */
		st->mpi.dir_fd = util_at_mkdir(st->session_fd, SES_MPI_DIR, SES_DIR_MODE, true);
		if (st->mpi.dir_fd < 0)
			cli_warn(CMD,
				 "--trace mpi: cannot create %s/" SES_MPI_DIR ": %s; no MPI data",
				 st->session_dir, strerror(-st->mpi.dir_fd));
	}
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
			return cli_error(EXIT_USAGE, CMD,
					 "--trace mpi='%.*s': use openmpi or mpich, "
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
		return cli_error(EXIT_USAGE, CMD,
				 "--mpi-impl '%s': use openmpi or mpich (mpich also "
				 "covers Intel MPI)",
				 arg);
	return set_family(st, f, "--mpi-impl");
}

static bool is_python(const char *path)
{
	const char *base = strrchr(path, '/');

	return !strncmp(base ? base + 1 : path, "python", 6);
}

int collect_mpi_prepare(struct collect_state *st)
{
	char rel[64], linked[64] = "", lib[PATH_MAX], module[PATH_MAX] = "";
	char what[2 * PATH_MAX + 32];
	int prog;

	if (!st->mpi.trace) {
		if (st->mpi.family)
			return cli_usage_error(CMD, "--mpi-impl applies to --trace mpi");
		return -1;
	}
	prog = launcher_mpi_family(st->prog_path, linked, sizeof(linked));
	/* an interpreter: the MPI of the module it would import (mpi4py), asked of it by the
	 * path that runs (a venv's python3 is a link whose name finds the venv's modules) */
	if (!prog && (is_python(st->prog_path) || is_python(st->exec_path)))
		prog = launcher_mpi_family_interp(st->exec_path, linked, sizeof(linked), module,
						  sizeof(module));
	if (module[0]) /* a Python: what tells is the module it imports */
		snprintf(what, sizeof(what), "'%s' imports '%s', which", st->prog_path, module);
	else
		snprintf(what, sizeof(what), "'%s'", st->prog_path);
	if (st->mpi.family && prog && prog != st->mpi.family)
		return cli_error(1, CMD,
				 "%s=%s: %s is linked with %s (%s); an interposer of one MPI "
				 "family aborts under the other: use %s, or leave it out",
				 st->mpi.family_from, family_name(st->mpi.family), what,
				 prog == SES_MPI_OPENMPI ? "Open MPI" : "MPICH", linked,
				 family_name(prog));
	if (!st->mpi.family && !prog)
		return cli_error(1, CMD,
				 "--trace mpi: cannot tell the MPI family of '%s' (no "
				 "libmpi among the libraries it loads%s): give "
				 "--trace mpi=openmpi or --trace mpi=mpich",
				 st->prog_path,
				 is_python(st->prog_path) || is_python(st->exec_path)
					 ? ", and no mpi4py.MPI it would import"
					 : "");
	if (!st->mpi.family)
		st->mpi.family = prog;
	snprintf(rel, sizeof(rel), "../lib/libuprof_mpi_%s.so", family_name(st->mpi.family));
	if (!cli_beside_exe(rel, lib, sizeof(lib)) || !realpath(lib, st->mpi.lib) ||
	    access(st->mpi.lib, R_OK))
		return cli_error(1, CMD,
				 "--trace mpi: no %s interposer (%s beside uprof); it is "
				 "built when the family's mpicc is installed "
				 "(scripts/install-deps.sh)",
				 family_name(st->mpi.family), rel + 3);
	return -1;
}

void collect_mpi_env(const struct collect_state *st)
{
	char dir[64], preload[2 * PATH_MAX + 2];
	const char *old = getenv("LD_PRELOAD");

	if (!st->mpi.trace || st->mpi.dir_fd < 0)
		return;
	/* the interposer opens the directory by our fd of it: a name the kernel resolves to
	 * the directory made, whatever another user renamed in -o since (lib/mpi) */
	snprintf(dir, sizeof(dir), "/proc/%d/fd/%d", (int)getpid(), st->mpi.dir_fd);
	setenv(SES_MPI_ENV_DIR, dir, 1);
	/* -g: each MPI call site keeps its callers too (lib/mpi/sites.h) */
	if (st->cg.mode != PMC_CG_NONE)
		setenv(SES_MPI_ENV_CHAIN, "3", 1);
	else
		unsetenv(SES_MPI_ENV_CHAIN);
	/* full: an event per call too (mpi/<pid>.mpiev), at most the cap the user's
	 * environment names, else SES_MPIEV_CAP_DEFAULT */
	if (st->mpi.full)
		setenv(SES_MPIEV_ENV_CAP, STR(SES_MPIEV_CAP_DEFAULT), 0);
	else
		unsetenv(SES_MPIEV_ENV_CAP); /* lwt: the aggregates alone */
	snprintf(preload, sizeof(preload), "%s%s%s", st->mpi.lib, old && *old ? ":" : "",
		 old ? old : "");
	setenv("LD_PRELOAD", preload, 1);
}
