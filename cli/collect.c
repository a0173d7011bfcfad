// SPDX-License-Identifier: MIT
/*
 * uprof collect: the run in order (options, config, events, program, session directory,
 * start, sampling, cleanup). Each step's work is in its own file: collect_opts.c,
 * collect_prog.c, collect_events.c, collect_open.c, collect_info.c, collect_run.c.
 */
#include "cli/collect.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "collect";

static int load_config(struct collect_state *st)
{
	char err[256], names[32][64];
	int ret, n;

	ret = mtr_config_load(cli_config_dir(), st->config_name ? st->config_name : "tbp",
			      &st->config, err, sizeof(err));
	if (ret == -ENOENT && cli_config_refusal(st->config_name))
		return cli_error(EXIT_USAGE, CMD, "--config %s: %s", st->config_name,
				 cli_config_refusal(st->config_name));
	if (ret == -ENOENT) {
		char list[512] = "", near[96];

		n = mtr_config_list(cli_config_dir(), names, 32);
		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", names[i]);
		cli_config_near(st->config_name, near, sizeof(near));
		return cli_error(EXIT_USAGE, CMD, "unknown config '%s'%s; known configs: %s",
				 st->config_name ? st->config_name : "tbp", near,
				 n ? list : "none (is the configs directory installed?)");
	}
	if (ret)
		return cli_error(1, CMD, "config '%s' is broken: %s", st->config.name, err);
	if (st->interval_arg) {
		ret = pmc_parse_interval_ms(st->interval_arg, &st->period_ns);
		if (ret == -ERANGE)
			return cli_error(EXIT_USAGE, CMD,
					 "--timer-interval %s is out of range (0.01 to 3600000 ms)",
					 st->interval_arg);
		if (ret)
			return cli_error(
				EXIT_USAGE, CMD,
				"--timer-interval '%s' is not a positive number of milliseconds",
				st->interval_arg);
	} else {
		st->period_ns = (uint64_t)(st->config.timer_interval_ms * 1e6 + 0.5);
	}
	return -1;
}

/* Open the -o directory once (st->out_fd) and name it in @absout: the path of what was
 * opened, for messages and for report, which reads the session next. -1 or an exit code. */
static int open_out_dir(struct collect_state *st, const char *out, char *absout, size_t len)
{
	char proc[64];
	struct stat sb;
	ssize_t n;

	st->out_fd = util_dir_open_nofollow(out);
	/* O_NOFOLLOW|O_DIRECTORY on a symlink: ENOTDIR (or ELOOP) */
	if ((st->out_fd == -ELOOP || st->out_fd == -ENOTDIR) && !lstat(out, &sb) &&
	    S_ISLNK(sb.st_mode)) {
		char *real = realpath(out, NULL);

		cli_error(1, CMD,
			  "output directory '%s' is a symbolic link: give the directory itself "
			  "(-o %s)",
			  out, real ? real : "its target");
		free(real);
		return 1;
	}
	if (st->out_fd < 0)
		return cli_error(1, CMD, "output directory '%s': %s", out, strerror(-st->out_fd));
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", st->out_fd);
	n = readlink(proc, absout, len - 1);
	if (n <= 0 || (size_t)n >= len - 1 || absout[0] != '/')
		return cli_error(1, CMD, "output directory '%s': cannot tell its path", out);
	absout[n] = 0;
	if (faccessat(st->out_fd, ".", W_OK | X_OK, 0))
		return cli_error(1, CMD, "output directory '%s' is not writable: %s", out,
				 strerror(errno));
	if (util_dir_others_can_write(st->out_fd))
		cli_warn(CMD,
			 "-o %s can be written by other users: they can rename or remove the "
			 "session made there, and what a later report reads by its name may be "
			 "theirs; collect itself writes only beneath the directory it made and "
			 "holds open, never through a name they changed",
			 out);
	return -1;
}

/* <out>/uprof-<app>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>[-N] (lib/session names it), made
 * beneath the -o directory's fd and held open (st->session_fd) to the end of the run. */
static int make_session_dir(struct collect_state *st)
{
	const char *out = st->outdir ? st->outdir : ".";
	const char *label = st->custom ? "Custom" : st->config.label; /* uProf's labels */
	char absout[PATH_MAX];
	int ret;

	/* parents are the user's own directories, named by the user (mkdir -p) */
	ret = ses_mkdir_p(out);
	if (ret)
		return cli_error(1, CMD, "cannot create output directory '%s': %s", out,
				 strerror(-ret));
	ret = open_out_dir(st, out, absout, sizeof(absout));
	if (ret >= 0)
		return ret;
	if (st->mpi.on)
		return collect_mpi_make_dir(st, absout);
	ret = ses_dir_create(st->out_fd, st->prog_path, label, time(NULL), st->session_name,
			     sizeof(st->session_name));
	if (ret == -ENAMETOOLONG)
		return cli_error(1, CMD, "output path too long");
	if (ret == -EEXIST)
		return cli_error(1, CMD, "too many sessions started this second in '%s'", absout);
	if (ret == -EPERM || ret == -ELOOP || ret == -ENOTDIR)
		return cli_error(1, CMD,
				 "the session directory made in '%s' was replaced by another "
				 "user's file or link before it could be opened: nothing written",
				 absout);
	if (ret < 0)
		return cli_error(1, CMD, "cannot create a session directory in '%s': %s", absout,
				 strerror(-ret));
	st->session_fd = ret;
	if (snprintf(st->session_dir, sizeof(st->session_dir), "%s/%s", absout, st->session_name) >=
	    (int)sizeof(st->session_dir))
		return cli_error(1, CMD, "output path too long");
	return -1;
}

static int sink_to_writer(void *arg, const void *records, size_t len)
{
	return ses_writer_write(arg, records, len);
}

/* perf's rule: descriptors up to the hard limit, once, at start: one per instrumented
 * process's files at a time (lib/sampler parks the rest until some close, and counts
 * what it could not keep). The target gets the limit it was given (restore_nofile). */
static void raise_nofile(struct rlimit *orig)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, orig)) {
		orig->rlim_cur = orig->rlim_max = RLIM_INFINITY;
		return;
	}
	r = *orig;
	r.rlim_cur = r.rlim_max;
	if (r.rlim_cur != orig->rlim_cur)
		setrlimit(RLIMIT_NOFILE, &r);
}

static void restore_nofile(const struct collect_state *st, pid_t child)
{
	struct rlimit now;

	if (!getrlimit(RLIMIT_NOFILE, &now) && now.rlim_cur != st->nofile.rlim_cur)
		prlimit(child, RLIMIT_NOFILE, &st->nofile, NULL);
}

static int start(struct collect_state *st, int argc, char **argv)
{
	size_t nids;
	const uint64_t *ids;
	int ret;

	raise_nofile(&st->nofile);
	/* every process of the run inherits the token; their control pages carry it */
	snprintf(st->token, sizeof(st->token), "%d.%lld", (int)getpid(),
		 (long long)cli_now_ns(CLOCK_MONOTONIC));
	setenv("UPROF_SESSION", st->token, 1);
	collect_launch_env(st); /* before the ITT default below sees what the user set */
	ret = collect_omp_env(st);
	if (ret >= 0)
		return ret;
	ret = collect_pages_start(st);
	if (ret)
		return cli_error(1, CMD, "cannot set up instrumentation: %s", strerror(-ret));
	if (st->attach) {
		ret = collect_attach_open(st);
		if (ret >= 0)
			return ret;
	} else {
		/* a daemonizing target's orphans become our children, so that the end of the
		 * run can tell whether the target left processes running (collect_run.c) */
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		ret = smp_child_spawn(&st->child, st->exec_path, st->prog_argv, st->workdir);
		if (ret)
			return cli_error(1, CMD, "cannot start '%s': %s", st->prog_path,
					 strerror(-ret));
		restore_nofile(st, st->child.pid); /* it waits at the gate until released */
		ret = collect_launch_affinity(st);
		if (ret) {
			ret = cli_error(1, CMD, "--affinity: cannot pin the program: %s",
					strerror(-ret));
			goto fail;
		}
		ret = collect_open_events(st);
		if (ret >= 0)
			goto fail;
	}
	collect_fill_info(st, argc, argv);
	ret = ses_info_write(st->session_fd, &st->info);
	if (ret) {
		ret = cli_error(1, CMD, "cannot write %s/session.ini: %s", st->session_dir,
				strerror(-ret));
		goto fail;
	}
	st->writer = ses_writer_open(st->session_fd);
	if (!st->writer) {
		ret = cli_error(1, CMD, "cannot create %s/samples.data: %s", st->session_dir,
				strerror(errno));
		goto fail;
	}
	ret = collect_leaf_open(st);
	if (ret >= 0)
		goto fail;
	for (int k = 0; k < st->nattrs; k++) {
		/* with stacks the sampling attrs go first: perf script sets up callchain
		 * handling from the first attr of each event type only */
		int i = st->cg.mode == PMC_CG_NONE ? k : k + 1 < st->nattrs ? k + 1 : 0;

		ids = smp_ids(st->smp, i, &nids);
		collect_write_attr(st, i, ids, nids);
	}
	ids = smp_ids(st->smp, COLLECT_TRACKING, &nids);
	/* perf report names kernel functions only with perf's kernel map record */
	smp_synth_kernel(&st->attrs[COLLECT_TRACKING], nids ? ids[0] : 0, 0, sink_to_writer,
			 st->writer);
	if (st->attach)
		collect_attach_synth(st);
	/* best effort: without it report reads its own vDSO */
	smp_vdso_save(st->session_fd, "vdso.so");
	ret = collect_ostrace_save(st);
	if (ret >= 0)
		goto fail;
	return -1;
fail:
	if (!st->attach)
		smp_child_abort(&st->child);
	return ret;
}

/* A run that never started leaves nothing behind: no empty session to trip over. All of
 * it removed beneath the fds held (the names in it are ours: the directory is 0700). */
static void remove_session_dir(const struct collect_state *st)
{
	if (st->session_fd < 0)
		return;
	ses_dir_remove_at(st->out_fd, st->session_name, st->session_fd);
}

static char last_session[PATH_MAX];
static int last_session_fd = -1;

const char *cli_collect_last_session(void)
{
	return last_session;
}

int cli_collect_take_session_fd(void)
{
	int fd = last_session_fd;

	last_session_fd = -1;
	return fd;
}

/* The fd of what profile reports next: the session, or an MPI rank's job directory (the
 * part of session_name before "/rank-N"), beneath the output directory's fd. */
static int session_fd_for_report(const struct collect_state *st)
{
	char job[sizeof(st->session_name)];
	const char *slash;

	if (!st->mpi.on)
		return st->session_fd < 0 ? -1 : fcntl(st->session_fd, F_DUPFD_CLOEXEC, 3);
	slash = strchr(st->session_name, '/');
	if (!slash || st->out_fd < 0)
		return -1;
	snprintf(job, sizeof(job), "%.*s", (int)(slash - st->session_name), st->session_name);
	return util_at_dir(st->out_fd, job);
}

int cmd_collect(int argc, char **argv)
{
	struct collect_state st = { .sigfd = -1,
				    .out_fd = -1,
				    .session_fd = -1,
				    .omp.omplib_fd = -1,
				    .mpi.dir_fd = -1 };
	int ret;

	for (int i = 0; i < SES_MAX_PIDS; i++)
		st.pidfds[i] = -1;
	pmc_callgraph_init(&st.cg);
	ret = collect_parse_options(&st, argc, argv);
	if (ret < 0)
		ret = collect_tools_apply(&st);
	if (ret < 0)
		ret = load_config(&st);
	if (ret < 0)
		ret = collect_mpi_detect(&st);
	if (ret < 0)
		ret = collect_events_prepare(&st);
	if (ret < 0)
		ret = collect_ostrace_prepare(&st);
	if (ret < 0 && st.workdir) {
		struct stat sb;

		if (stat(st.workdir, &sb) || !S_ISDIR(sb.st_mode))
			ret = cli_error(1, CMD, "working directory '%s' does not exist",
					st.workdir);
	}
	if (ret < 0)
		ret = st.attach ? collect_attach_prepare(&st) : collect_resolve_program(&st);
	if (ret < 0) /* the program known: --func's modules are found */
		ret = collect_ostrace_funcs_prepare(&st);
	if (ret < 0)
		ret = collect_mpi_prepare(&st);
	if (ret < 0)
		ret = make_session_dir(&st);
	if (ret < 0)
		ret = start(&st, argc, argv);
	if (ret < 0)
		ret = collect_run(&st);
	else
		st.never_started = true;
	collect_pages_stop(&st, 0);
	collect_leaf_close(&st);
	ses_writer_close(st.writer);
	/* for uprof profile, which reports the session next */
	if (last_session_fd >= 0)
		close(last_session_fd);
	last_session_fd = -1;
	if (!st.never_started) {
		snprintf(last_session, sizeof(last_session), "%s", collect_mpi_data_path(&st));
		last_session_fd = session_fd_for_report(&st);
		if (last_session_fd < 0)
			last_session_fd = -1;
	}
	smp_close(st.smp);
	/* every event of the probes closed: they can go */
	collect_ostrace_funcs_remove(&st);
	if (st.never_started)
		remove_session_dir(&st);
	for (int i = 0; i < st.nattach; i++)
		if (st.pidfds[i] >= 0)
			close(st.pidfds[i]);
	if (st.omp.omplib_fd >= 0)
		close(st.omp.omplib_fd);
	if (st.mpi.dir_fd >= 0)
		close(st.mpi.dir_fd);
	if (st.session_fd >= 0)
		close(st.session_fd);
	if (st.out_fd >= 0)
		close(st.out_fd);
	collect_launch_release(&st);
	collect_tools_release(&st);
	return ret;
}
