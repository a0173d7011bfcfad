// SPDX-License-Identifier: MIT
/*
 * uprof collect: the run in order (options, config, events, program, session directory,
 * start, sampling, cleanup). Each step's work is in its own file: collect_opts.c,
 * collect_prog.c, collect_events.c, collect_open.c, collect_info.c, collect_run.c.
 */
#include "cli/collect.h"

#include <errno.h>
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
	if (ret == -ENOENT) {
		char list[512] = "";

		n = mtr_config_list(cli_config_dir(), names, 32);
		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", names[i]);
		return cli_error(EXIT_USAGE, CMD, "unknown config '%s'; known configs: %s",
				 st->config_name ? st->config_name : "tbp",
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

/* <out>/uprof-<app>-<LABEL>_<Mon-DD-YYYY>_<HH-MM-SS>[-N] (lib/session names it). */
static int make_session_dir(struct collect_state *st)
{
	const char *out = st->outdir ? st->outdir : ".";
	const char *label = st->custom ? "Custom" : st->config.label; /* uProf's labels */
	char absout[PATH_MAX];
	int ret;

	ret = ses_mkdir_p(out);
	if (ret)
		return cli_error(1, CMD, "cannot create output directory '%s': %s", out,
				 strerror(-ret));
	if (!realpath(out, absout))
		return cli_error(1, CMD, "output directory '%s': %s", out, strerror(errno));
	if (access(absout, W_OK | X_OK))
		return cli_error(1, CMD, "output directory '%s' is not writable: %s", out,
				 strerror(errno));
	if (st->mpi.on)
		return collect_mpi_make_dir(st, absout);
	ret = ses_dir_create(absout, st->prog_path, label, time(NULL), st->session_dir,
			     sizeof(st->session_dir));
	if (ret == -ENAMETOOLONG)
		return cli_error(1, CMD, "output path too long");
	if (ret == -EEXIST)
		return cli_error(1, CMD, "too many sessions started this second in '%s'", absout);
	if (ret)
		return cli_error(1, CMD, "cannot create a session directory in '%s': %s", absout,
				 strerror(-ret));
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
	char vdso[PATH_MAX + 16];
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
	ret = ses_info_write(st->session_dir, &st->info);
	if (ret) {
		ret = cli_error(1, CMD, "cannot write %s/session.ini: %s", st->session_dir,
				strerror(-ret));
		goto fail;
	}
	st->writer = ses_writer_open(st->session_dir);
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
	snprintf(vdso, sizeof(vdso), "%s/vdso.so", st->session_dir);
	smp_vdso_save(vdso); /* best effort: without it report reads its own vDSO */
	return -1;
fail:
	if (!st->attach)
		smp_child_abort(&st->child);
	return ret;
}

/* A run that never started leaves nothing behind: no empty session to trip over. */
static void remove_session_dir(const struct collect_state *st)
{
	static const char *const files[] = { SES_INFO_FILE,
					     SES_DATA_FILE,
					     SES_LEAF_FILE,
					     "vdso.so",
					     SES_PAUSES_FILE,
					     "." SES_INFO_FILE ".tmp",
					     SES_OMPT_DIR "/omplib/libgomp.so.1",
					     SES_OMPT_DIR "/omplib",
					     SES_OMPT_DIR };
	char path[PATH_MAX + 32];

	if (!st->session_dir[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", st->session_dir, files[i]);
		if (unlink(path) && errno == EISDIR)
			rmdir(path);
	}
	rmdir(st->session_dir);
}

static char last_session[PATH_MAX];

const char *cli_collect_last_session(void)
{
	return last_session;
}

int cmd_collect(int argc, char **argv)
{
	struct collect_state st = { .sigfd = -1 };
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
	if (ret < 0 && st.workdir) {
		struct stat sb;

		if (stat(st.workdir, &sb) || !S_ISDIR(sb.st_mode))
			ret = cli_error(1, CMD, "working directory '%s' does not exist",
					st.workdir);
	}
	if (ret < 0)
		ret = st.attach ? collect_attach_prepare(&st) : collect_resolve_program(&st);
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
	if (!st.never_started)
		snprintf(last_session, sizeof(last_session), "%s", collect_mpi_data_path(&st));
	smp_close(st.smp);
	if (st.never_started)
		remove_session_dir(&st);
	for (int i = 0; i < st.nattach; i++)
		if (st.pidfds[i] >= 0)
			close(st.pidfds[i]);
	collect_launch_release(&st);
	collect_tools_release(&st);
	return ret;
}
