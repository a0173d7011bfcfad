// SPDX-License-Identifier: MIT
/*
 * uprof pcm: one run. Launch the program (held at a gate), plan and open the counters,
 * release it, then let lib/pmc's pmc_counting read every -I ms until the program exits,
 * -d runs out, or a signal (SIGINT/SIGTERM/SIGHUP, through a signalfd polled by the loop)
 * arrives; the last row covers the partial interval. Each row is the delta of every
 * counter since the previous reading; the cumulative table is the delta since the
 * baseline. Here: the signals, the program, the messages and the output files.
 */
#include "cli/pcm.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const CMD = "pcm";

static int block_signals(struct pcm_state *st)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	if (st->wait_for_signal)
		sigaddset(&set, SIGUSR1); /* read by pcm_gate.c from the signalfd */
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	st->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return st->sigfd < 0 ? -errno : 0;
}

static void reap(struct pcm_state *st, int flags)
{
	int status;

	if (!st->have_child || st->child_exited)
		return;
	if (waitpid(st->child.pid, &status, flags) == st->child.pid) {
		st->child_exited = true;
		st->child_status = status;
	}
}

static void handle_signals(struct pcm_state *st)
{
	struct signalfd_siginfo si;

	while (read(st->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			reap(st, WNOHANG);
		else if (!st->stop_signal)
			st->stop_signal = (int)si.ssi_signo;
	}
}

/*
 * -t changes a system setting (each PMU's perf_event_mux_interval_ms) that outlives us:
 * it is put back on every way out. SIGINT, SIGTERM and SIGHUP are read from the signalfd
 * and end the run the normal way (pcm_run's out:); a signal that would end the process
 * at once (SIGPIPE when stdout's reader goes, SIGQUIT, a crash) runs put_back_and_die,
 * which writes the kept values through fds opened beforehand (write(2) only: safe in a
 * handler) and dies of the same signal. Only SIGKILL leaves the setting changed.
 */
static const struct pmc_mux_saved *fatal_mux;
static volatile sig_atomic_t fatal_nmux;
static const int fatal_signals[] = { SIGPIPE, SIGQUIT, SIGSEGV,	  SIGBUS,  SIGFPE,  SIGILL,
				     SIGABRT, SIGTRAP, SIGSYS,	  SIGXCPU, SIGXFSZ, SIGALRM,
				     SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF };

static void put_back_and_die(int sig)
{
	for (int i = 0; i < fatal_nmux; i++)
		pmc_mux_put_back(&fatal_mux[i]);
	raise(sig); /* SA_RESETHAND: the default action, once this handler returns */
}

static void catch_fatal(const struct pcm_state *st, bool on)
{
	struct sigaction sa = { .sa_handler = on ? put_back_and_die : SIG_DFL,
				.sa_flags = on ? SA_RESETHAND : 0 };

	fatal_mux = st->mux_saved;
	fatal_nmux = on ? st->nmux_saved : 0;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction old;

		/* a signal the caller ignores (nohup's SIGHUP, a shell's SIGPIPE) stays so */
		if (!sigaction(fatal_signals[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal_signals[i], &sa, NULL);
	}
}

/* Put every changed multiplexing interval back; said when one cannot be. */
static void restore_mux(struct pcm_state *st)
{
	fatal_nmux = 0; /* the handler no longer writes what is being closed */
	for (int i = 0; i < st->nmux_saved; i++) {
		int ret = pmc_mux_restore(&st->mux_saved[i]);

		if (ret)
			cli_warn(CMD, "-t: cannot put the multiplexing interval back (%.*s ms): %s",
				 st->mux_saved[i].len - 1, st->mux_saved[i].value, strerror(-ret));
	}
	if (st->nmux_saved)
		catch_fatal(st, false);
	st->nmux_saved = 0;
}

/* -t: the multiplexing interval of every PMU in use (root only), each old value kept. */
static void set_mux(struct pcm_state *st)
{
	for (size_t i = 0; st->mux_ms && i < pmc_evlist_nevents(st->mg.evl); i++) {
		const struct pmc_event *ev = pmc_evlist_event(st->mg.evl, i);
		const struct pmc_pmu *u = pmc_pmus_find(st->pmus, ev->pmu);
		bool seen = false;
		int ret;

		for (size_t k = 0; k < i; k++)
			seen |= !strcmp(pmc_evlist_event(st->mg.evl, k)->pmu, ev->pmu);
		if (!u || seen || st->nmux_saved == PCM_MAX_MUX)
			continue;
		ret = pmc_pmu_set_mux_interval(u, st->mux_ms, &st->mux_saved[st->nmux_saved]);
		if (!ret) {
			st->nmux_saved++;
			catch_fatal(st, true);
		} else
			cli_warn(
				CMD,
				"-t %u: cannot set the multiplexing interval of PMU %s (%s%s); the "
				"kernel's stays",
				st->mux_ms, ev->pmu, strerror(-ret),
				ret == -EACCES || ret == -EPERM ? ": needs root" : "");
	}
}

/* ---- the interval loop (lib/pmc's pmc_counting), its callbacks ---- */

static void on_signal_fd(void *arg)
{
	handle_signals(arg);
}

static bool stopped(void *arg)
{
	const struct pcm_state *st = arg;

	return st->stop_signal || st->child_exited || pcm_attach_gone(st);
}

/* One timeseries row. */
static void on_interval(void *arg, const struct pmc_interval *iv)
{
	struct pcm_state *st = arg;

	st->t_cur = iv->t_ns; /* the row's stamp */
	if (st->top)
		pcm_top_frame(st, st->out, iv->delta, iv->idle, iv->elapsed_ns);
	else if (!st->cumulative)
		pcm_out_row(st, st->out, iv->delta, iv->idle, iv->elapsed_ns);
	st->rows++;
}

static void loop(struct pcm_state *st)
{
	const struct pmc_interval_ops ops = { st->sigfd, on_signal_fd, stopped, on_interval, st };

	if (pmc_counting_loop(st->counting, (int64_t)st->interval_ms * 1000000,
			      st->duration_s > 0 ? (int64_t)(st->duration_s * 1e9) : 0, &ops))
		cli_error(1, CMD, "reading the counters failed; stopping");
}

/* Open the counters (the program is already spawned, held at its gate). */
static int open_counters(struct pcm_state *st)
{
	const struct pmc_event *ev;
	struct pmc_open_what what;
	char msg[512];
	int failed = -1, ret;

	set_mux(st);
	ret = pmc_evlist_open(st->mg.evl, &failed);
	if (!ret)
		return 0;
	ev = failed >= 0 ? pmc_evlist_event(st->mg.evl, (size_t)st->cinfo[failed].event) : NULL;
	/* a counter on a CPU (CPU mode, uncore) needs what -a needs */
	pmc_open_what_event(&what, ev,
			    failed >= 0 && st->cinfo[failed].cpu >= 0 && st->cinfo[failed].pid < 0
				    ? PMC_OPEN_CPU
				    : PMC_OPEN_TASK);
	pmc_open_strerror(ret, &what, msg, sizeof(msg));
	return cli_error(1, CMD, "%s", msg);
}

static int start(struct pcm_state *st)
{
	const char *what = "exec";
	int ret;

	if (st->target.pid <= 0 && pmc_evlist_enable(st->mg.evl))
		return cli_error(1, CMD, "cannot enable the counters");
	pmc_counting_baseline(st->counting);
	if (st->have_child) {
		ret = smp_child_release(&st->child, &what);
		if (ret) {
			reap(st, 0);
			st->have_child = false;
			char why[320];

			return cli_error(127, CMD, "cannot run '%s': %s failed: %s",
					 st->prog_argv[0], what,
					 strcmp(what, "exec") ? strerror(-ret)
							      : cli_exec_error(st->prog_path, -ret,
									       why, sizeof(why)));
		}
	}
	if (st->target.pid > 0 &&
	    pmc_evlist_enable(st->mg.evl)) /* uncore ones; task ones ran at exec */
		return cli_error(1, CMD, "cannot enable the counters");
	return 0;
}

/* The cumulative table to @summary, and to @copy too when not NULL (-O's
 * report-cumulative.csv beside the timeseries). */
static int finish(struct pcm_state *st, FILE *summary, FILE *copy)
{
	struct pmc_interval total;

	pmc_evlist_disable(st->mg.evl);
	restore_mux(st); /* counting is over; the program may run on for long */
	pmc_counting_total(st->counting, &total);
	if (summary) {
		if (summary == st->out && !st->cumulative)
			fputc('\n', summary);
		pcm_out_cumulative(st, summary, total.delta, total.idle, total.elapsed_ns);
	}
	if (copy)
		pcm_out_cumulative(st, copy, total.delta, total.idle, total.elapsed_ns);
	/* the counts are as counted: how much they miss is said, not folded in */
	if (isnan(st->mux_scale_max))
		fprintf(stderr, "uprof pcm: note: a counter was multiplexed out for a whole "
				"interval (never ran): its counts are empty cells\n");
	else if (st->mux_scale_max > 1)
		fprintf(stderr,
			"uprof pcm: note: the counters were multiplexed (up to x%.2f: time enabled "
			"over time running, the Multiplex Scale column): counts are as counted "
			"while they ran; derived metrics are over counts scaled by it\n",
			st->mux_scale_max);
	if (st->have_child && !st->child_exited) {
		if (!st->stop_signal)
			fprintf(stderr,
				"uprof pcm: collection ended (-d); waiting for the program\n");
		reap(st, 0);
	}
	if (!st->have_child)
		return 0;
	if (WIFEXITED(st->child_status))
		return WEXITSTATUS(st->child_status);
	return WIFSIGNALED(st->child_status) ? 128 + WTERMSIG(st->child_status) : 1;
}

static int open_output(struct pcm_state *st)
{
	st->out = stdout;
	/* the directory opened once, its files made beneath its fd (docs/DESIGN.md §4):
	 * pcm often runs as root, -O in a shared /tmp */
	if (st->out_dir) {
		st->out_dfd = cli_output_dir(st->out_dir);
		snprintf(st->out_name, sizeof(st->out_name), "%s",
			 st->profile ? PCM_PROFILE_TIMESERIES : "report.csv");
		if (st->out_dfd < 0)
			return cli_error(1, CMD, "cannot make or open '%s': %s", st->out_dir,
					 strerror(-st->out_dfd));
	} else if (st->out_path) {
		st->out_dfd = cli_open_parent(st->out_path, st->out_name, sizeof(st->out_name));
		if (st->out_dfd < 0)
			return cli_error(1, CMD, "cannot write '%s': %s", st->out_path,
					 strerror(-st->out_dfd));
	}
	if (st->html && pcm_html_new(st))
		return cli_error(1, CMD, "out of memory");
	if (st->out_path && !(st->out = cli_output_fopen_at(st->out_dfd, st->out_name)))
		return cli_error(1, CMD, "cannot write '%s': %s%s", st->out_path, strerror(errno),
				 errno == EPERM || errno == EMLINK
					 ? " (a file of another user, or a hard link, is there: "
					   "not written through)"
					 : "");
	return 0;
}

/* The metadata lines: to the CSV (timeseries) and, with --html, kept for the page: written
 * once and copied, so both show the same Profile Time. */
static void metadata(struct pcm_state *st)
{
	struct pcm_series *s = st->series;
	FILE *m = s ? open_memstream(&s->meta, &s->meta_len) : NULL;

	if (m) {
		pcm_out_metadata(st, m);
		if (fclose(m)) {
			free(s->meta);
			s->meta = NULL;
			s->meta_len = 0;
		}
	}
	if (st->cumulative && !st->out_dir)
		return; /* -C's table alone on stdout or -o's file; -O's report.csv starts with
			 * the run's facts, as every file of -O's directory (pcm hreport) */
	if (s && s->meta)
		fwrite(s->meta, 1, s->meta_len, st->out);
	else
		pcm_out_metadata(st, st->out);
}

/* report-run.tsv beside -O's CSV; a file that cannot be written fails the run like it. */
static int write_runfile(struct pcm_state *st, int ret)
{
	int err = pcm_runfile_write(st);

	if (err)
		return cli_error(1, CMD, "cannot write '%s/%s': %s", st->out_dir, PCM_RUN_FILE,
				 strerror(-err));
	return ret;
}

/* report.html, after the CSV; a page that cannot be written fails the run like the CSV. */
static int write_html(struct pcm_state *st, int ret)
{
	int err = pcm_html_write(st, "report.html");

	if (err)
		return cli_error(1, CMD, "cannot write '%s': %s", st->html_path, strerror(-err));
	fprintf(stderr, "Generated HTML report path: %s\n", st->html_path);
	return ret;
}

int pcm_run(struct pcm_state *st)
{
	int ret;

	st->sigfd = -1;
	ret = pmc_counting_new(&st->counting, st->mg.evl, st->target.pid <= 0)
		      ? cli_error(1, CMD, "out of memory")
		      : 0;
	if (!ret && block_signals(st))
		ret = cli_error(1, CMD, "cannot block signals: %s", strerror(errno));
	if (!ret)
		ret = open_counters(st);
	if (!ret)
		ret = open_output(st);
	if (!ret)
		ret = start(st);
	if (ret) {
		if (st->have_child)
			smp_child_abort(&st->child);
		goto out;
	}
	if (!ret)
		ret = pcm_gate_wait(st);
	if (ret) {
		/* ended before counting started: the program's own status, else 1 */
		if (ret == 1 && st->have_child) {
			if (!st->child_exited)
				smp_child_abort(&st->child);
			else if (WIFEXITED(st->child_status))
				ret = WEXITSTATUS(st->child_status);
		}
		goto out;
	}
	if (!st->top)
		metadata(st);
	if (!st->cumulative && !st->top)
		pcm_out_header(st, st->out);
	loop(st);
	if (st->profile) {
		FILE *cum = pcm_profile_open_cumulative(st);

		ret = finish(st, cum, NULL);
		if (!cum)
			ret = 1;
		else
			ret = pcm_profile_close_cumulative(st, cum, ret);
	} else if (st->out_dir && !st->cumulative) {
		/* -O keeps the table it shows on stdout beside the timeseries, for pcm hreport
		 * and pcm compare */
		FILE *cum = pcm_profile_open_cumulative(st);

		ret = finish(st, stdout, cum);
		if (!cum)
			ret = 1;
		else
			ret = pcm_profile_close_cumulative(st, cum, ret);
	} else {
		FILE *summary = st->top ? NULL : st->out_path && !st->cumulative ? stdout : st->out;

		ret = finish(st, summary, NULL);
	}
	if (st->out_path) {
		/* a full disk shows only when the buffered rows reach it: the file is the
		 * result, so losing it is an error whatever the program's own status */
		bool bad = fflush(st->out) != 0 || ferror(st->out);
		int err = errno;

		bad = fclose(st->out) != 0 || bad;
		if (!err)
			err = errno;
		st->out = NULL;
		if (bad)
			ret = cli_error(1, CMD, "cannot write '%s': %s", st->out_path,
					strerror(err ? err : EIO));
		else
			fprintf(stderr, "Generated data file path: %s\n", st->out_path);
		if (!bad && st->series)
			ret = write_html(st, ret);
		if (!bad && st->profile && st->series)
			ret = pcm_profile_write_json(st, ret);
		if (!bad && st->out_dir)
			ret = write_runfile(st, ret);
	}
out:
	restore_mux(st);
	pmc_evlist_close(st->mg.evl);
	if (st->out && st->out != stdout)
		fclose(st->out);
	if (st->sigfd >= 0)
		close(st->sigfd);
	if (st->out_dfd >= 0)
		close(st->out_dfd);
	st->out_dfd = -1;
	pmc_counting_free(st->counting);
	st->counting = NULL;
	pcm_html_free(st);
	return ret;
}
