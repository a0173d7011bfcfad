// SPDX-License-Identifier: MIT
/*
 * uprof collect, from the open gate to the end: the poll loop that moves ring bytes into
 * samples.data, stop conditions (program exit, -d, SIGINT/SIGTERM), and the final
 * session.ini. Signals arrive through a signalfd, so the handler-free loop sees them in
 * order with ring data and nothing is written from a signal context.
 */
#include "cli/collect.h"
#include "symbols/symbols.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "collect";

#define POLL_MS 100
#define MAX_POLLFDS 4097

/* Move every ring's bytes to the file; a FINISHED_ROUND after each round lets perf's
 * reader sort what came from different CPUs (perf record does the same). */
static void drain(struct collect_state *st)
{
	long n;

	if (st->write_failed)
		return;
	n = smp_drain(st->smp, collect_sink, st);
	if (n > 0)
		ses_writer_finished_round(st->writer);
	if (n < 0 || ses_writer_flush(st->writer)) {
		int err = n < 0 ? (int)-n : -ses_writer_flush(st->writer);

		cli_error(1, CMD, "writing samples.data failed (%s); stopping, data so far kept",
			  strerror(err ? err : EIO));
		st->write_failed = true;
	}
}

static int block_signals(struct collect_state *st)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGHUP);
	if (st->wait_for_signal)
		sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -errno;
	st->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return st->sigfd < 0 ? -errno : 0;
}

static int64_t rusage_ns(const struct rusage *ru)
{
	return ((int64_t)ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1000;
}

static void reap_child(struct collect_state *st, int flags)
{
	struct rusage ru;
	int status;
	pid_t p;

	if (st->child_exited)
		return;
	p = wait4(st->child.pid, &status, flags, &ru);
	if (p == st->child.pid) {
		st->child_exited = true;
		st->child_status = status;
		st->child_cpu_ns = rusage_ns(&ru);
		st->child_user_ns = ((int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec) *
				    1000;
		st->child_sys_ns = ((int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec) *
				   1000;
		st->child_vcsw = (uint64_t)ru.ru_nvcsw;
		st->child_ivcsw = (uint64_t)ru.ru_nivcsw;
	}
}

/* Reap the target, and the orphans it left, which are our children (we are their
 * subreaper, collect.c), as they end: a zombie still answers kill(pid, 0), and a dead
 * process must not look alive (collect_pages.c removes the control pages of the dead). */
static void reap_children(struct collect_state *st)
{
	siginfo_t si;

	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) || !si.si_pid)
			return;
		if (si.si_pid == st->child.pid) {
			reap_child(st, WNOHANG); /* for its status and rusage */
			if (!st->child_exited)
				return;
		} else {
			waitpid(si.si_pid, NULL, WNOHANG);
		}
	}
}

/* CPU time so far of a target still running, all its threads, to the nanosecond: the
 * achieved rate divides by a difference of two readings, and /proc's utime and stime are
 * each cut to a 10 ms tick (up to 20 ms short at the start against wait4's microseconds at
 * the end: 0.1 s of CPU under load read as 0.12 s, a rate 17 % low). /proc is the fallback
 * where the process clock is refused. */
int64_t collect_cpu_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clk;
	int64_t ns;

	if (!clock_getcpuclockid(pid, &clk) && !clock_gettime(clk, &ts))
		return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	ns = smp_proc_cpu_ns(pid);
	return ns > 0 ? ns : 0;
}

/* Processes other than the target whose parent is now uprof: what a daemonizing target
 * left running (uprof is their subreaper). Counted from /proc, zombies excluded; *@first
 * gets one of them. */
static int count_orphans(const struct collect_state *st, pid_t *first)
{
	struct dirent *e;
	DIR *d = opendir("/proc");
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], buf[512], state;
		int ppid;
		char *p;
		FILE *f;

		if (!isdigit((unsigned char)e->d_name[0]) || atoi(e->d_name) == st->child.pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
		    sscanf(p + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() &&
		    state != 'Z' && state != 'X' && !n++)
			*first = (pid_t)atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return n;
}

static void handle_signals(struct collect_state *st)
{
	struct signalfd_siginfo si;
	int stopped = 0;

	while (read(st->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			reap_children(st);
		else if (si.ssi_signo == SIGUSR1 && st->wait_for_signal) {
			st->resume_signal = true; /* the start, not a stop; once is enough */
			continue;
		} else if (!st->stop_signal)
			st->stop_signal = stopped = (int)si.ssi_signo;
		/* an MPI rank: the launcher ends the job through us; the rank's interposer
		 * flushes what it recorded when it gets the signal (collect_mpi.c) */
		if (si.ssi_signo != SIGCHLD && st->mpi.on && !st->attach && !st->child_exited)
			kill(st->child.pid, (int)si.ssi_signo);
		if (stopped == (int)si.ssi_signo)
			collect_note_stop(st); /* after the signal is passed on: it waits less */
		stopped = 0;
	}
}

/* The status line of -d and -a: elapsed, what -d leaves, samples, lost, and the achieved
 * rate (samples per elapsed second, over all the targets and CPUs sampled). */
static void show_status(struct collect_state *st, struct cli_progress *p, int64_t now,
			int64_t start_mono, int64_t deadline)
{
	struct smp_stats s;
	double el = (double)(now - start_mono) / 1e9;
	char left[48] = "";

	smp_get_stats(st->smp, &s);
	if (deadline && deadline != INT64_MAX)
		snprintf(left, sizeof(left), ", %.0f s remaining",
			 deadline > now ? (double)(deadline - now) / 1e9 : 0);
	cli_progress_show(p, now, "Profiling: %.1f s%s, %llu samples, %llu lost, %.0f samples/s",
			  el, left, (unsigned long long)s.samples, (unsigned long long)s.lost,
			  el > 0 ? (double)s.samples / el : 0);
}

static const char *stacks_desc(const struct collect_state *st, char *buf, size_t len);
static const char *sampling_desc(const struct collect_state *st, char *buf, size_t len);

/* @s seconds after @from, or INT64_MAX when that is past what the clock can say (-d
 * takes any finite duration: -d 1e12 is a deadline that never comes). */
static int64_t deadline_after(int64_t from, double s)
{
	double ns = s * 1e9;

	return ns >= (double)(INT64_MAX - from) ? INT64_MAX : from + (int64_t)ns;
}

/* --start-delay is over: the profile starts now, and -d counts from here. */
static void end_delay(struct collect_state *st, int64_t now, int64_t *start_mono, int64_t *deadline)
{
	char cg[128], what[160];

	st->info.start_mono_ns = *start_mono = now;
	st->info.start_epoch_ns = cli_now_ns(CLOCK_REALTIME);
	ses_info_write(st->session_fd, &st->info);
	/* the achieved rate is over the CPU time the targets used while we sampled */
	if (st->attach) {
		for (int i = 0; i < st->nattach; i++) {
			st->cpu_start[i] = st->cpu_last[i] = collect_cpu_ns(st->attach_pids[i]);
			collect_cpu_split_ns(st->attach_pids[i], &st->user_start[i],
					     &st->sys_start[i]);
		}
	} else {
		st->cpu_before_start_ns = collect_cpu_ns(st->child.pid);
		collect_cpu_split_ns(st->child.pid, &st->user_start[0], &st->sys_start[0]);
	}
	collect_pages_release_hold(st);
	if (st->duration_s > 0)
		*deadline = deadline_after(now, st->duration_s);
	fprintf(stderr, "Profiling started after %.3g s%s: %s%s\n", st->start_delay_s,
		st->start_paused ? " (paused until the program resumes it)" : "",
		sampling_desc(st, what, sizeof(what)), stacks_desc(st, cg, sizeof(cg)));
}

static void loop(struct collect_state *st, int64_t start_mono)
{
	struct pollfd fds[MAX_POLLFDS];
	struct cli_progress prog;
	int64_t hold = st->start_delay_s > 0 ? start_mono + (int64_t)(st->start_delay_s * 1e9) : 0;
	int64_t deadline = st->duration_s > 0 && !hold ? deadline_after(start_mono, st->duration_s)
						       : 0;
	int n;

	cli_progress_init(&prog,
			  (st->duration_s > 0 || st->system_wide) && cli_progress_wanted(st->quiet),
			  0);

	n = smp_pollfds(st->smp, fds, MAX_POLLFDS - 2);
	fds[n++] = (struct pollfd){ .fd = st->sigfd, .events = POLLIN };
	if (collect_pages_fd(st) >= 0)
		fds[n++] = (struct pollfd){ .fd = collect_pages_fd(st), .events = POLLIN };
	for (;;) {
		int64_t now = cli_now_ns(CLOCK_MONOTONIC);
		/* a control page being published is retried soon, not in 100 ms */
		int timeout = collect_pages_busy(st) ? 2 : POLL_MS;

		if (hold && (now >= hold || st->resume_signal)) {
			if (st->wait_for_signal) /* the delay it turned out to be */
				st->start_delay_s = (double)(now - start_mono) / 1e9;
			end_delay(st, now, &start_mono, &deadline);
			hold = 0;
		}
		if (hold && (hold - now) / 1000000 < timeout)
			timeout = (int)((hold - now) / 1000000) + 1;
		if (deadline) {
			if (now >= deadline)
				break;
			if ((deadline - now) / 1000000 < timeout)
				timeout = (int)((deadline - now) / 1000000) + 1;
		}
		if (!hold && cli_progress_due(&prog, now))
			show_status(st, &prog, now, start_mono, deadline);
		if (poll(fds, n, timeout) < 0 && errno != EINTR)
			break;
		handle_signals(st);
		collect_pages_poll(st);
		drain(st);
		if (st->attach) {
			collect_attach_cpu(st);
			if (!collect_attach_alive(st))
				st->attached_gone = true;
		}
		if (st->child_exited || st->attached_gone || st->stop_signal || st->write_failed)
			break;
		/* --limit-data ends the collection as -d's deadline does; what the rings still
		 * hold is drained by finish(), so the file ends a ring's worth past it */
		if (st->limit_data_bytes && !hold &&
		    ses_writer_bytes(st->writer) >= st->limit_data_bytes) {
			st->info.limit_data_reached = true;
			break;
		}
	}
	cli_progress_clear(&prog);
}

static const char *sig_name(int sig)
{
	const char *d = sigdescr_np(sig);

	return d ? d : "unknown signal";
}

/* After a stop by signal: give a target that got the same Ctrl-C a moment to exit, so its
 * status can be reported; with -b, make sure it is gone. */
static void settle_child(struct collect_state *st)
{
	for (int i = 0; i < 20 && !st->child_exited; i++) {
		usleep(10000);
		reap_child(st, WNOHANG);
	}
	if (!st->child_exited && st->terminate) {
		kill(st->child.pid, SIGTERM);
		for (int i = 0; i < 100 && !st->child_exited; i++) {
			usleep(10000);
			reap_child(st, WNOHANG);
		}
		if (!st->child_exited) {
			kill(st->child.pid, SIGKILL);
			reap_child(st, 0);
		}
	}
}

/* collect.h */
int collect_cpu_split_ns(pid_t pid, int64_t *user, int64_t *sys)
{
	long tck = sysconf(_SC_CLK_TCK);
	int64_t u, s;
	int ret = smp_proc_cpu_split(pid, &u, &s);

	if (ret || tck <= 0)
		return ret ? ret : -EINVAL;
	*user = u * (1000000000 / tck);
	*sys = s * (1000000000 / tck);
	return 0;
}

/*
 * Split the target's CPU time into user and system time, for the achieved rate of a
 * session that samples one mode only (hotspots: user mode; dividing by both made 758 Hz
 * of 1000). The kernel keeps one precise sum (what target_cpu_ns is made of) and splits
 * it by the ticks each mode got; that proportion is applied to the sum: wait4's rusage
 * for a target that ended, /proc's ticks of each target still running; in each case what
 * each mode gained since sampling started.
 */
static void split_cpu(const struct collect_state *st, struct ses_info *in)
{
	int64_t user = 0, sys = 0, u, s;

	if (!st->attach && st->cpu_at_end_taken) {
		user = st->user_at_end_ns - st->user_start[0];
		sys = st->sys_at_end_ns - st->sys_start[0];
	} else if (!st->attach && st->child_exited) {
		user = st->child_user_ns - st->user_start[0];
		sys = st->child_sys_ns - st->sys_start[0];
	} else if (!st->attach) {
		if (!collect_cpu_split_ns(st->child.pid, &u, &s))
			user = u - st->user_start[0], sys = s - st->sys_start[0];
	} else if (!st->system_wide) {
		for (int i = 0; i < st->nattach; i++)
			if (!collect_cpu_split_ns(st->attach_pids[i], &u, &s))
				user += u - st->user_start[i], sys += s - st->sys_start[i];
	}
	if (user < 0 || sys < 0)
		return; /* readings of different precision crossed: no split */
	if (user + sys <= 0 || in->target_cpu_ns <= 0)
		return; /* nothing to split by: the rate stays over the whole CPU time */
	in->target_user_ns = (int64_t)((double)in->target_cpu_ns * (double)user /
					       (double)(user + sys) +
				       0.5);
	in->target_sys_ns = in->target_cpu_ns - in->target_user_ns;
}

/* The binaries the session mapped, into the build-id cache (perf's ~/.debug), so that
 * report and perf name them after they move or are rebuilt. A cache that cannot be
 * written costs the session nothing: it is said once. */
static void cache_build_ids(const struct collect_state *st)
{
	struct rpt_cache_stats cs;
	char dir[PATH_MAX], session[64];
	int ret;

	if (st->no_buildid_cache || !rpt_buildid_default_dir(dir, sizeof(dir)))
		return;
	/* the session read through the fd held (docs/DESIGN.md §4), not its path, which
	 * another user may have swapped by now */
	snprintf(session, sizeof(session), "/proc/self/fd/%d", st->session_fd);
	ret = rpt_buildid_cache_fill(session, dir, &cs);
	if (ret)
		cli_warn(CMD, "the build-id cache %s was not filled: %s", dir, strerror(-ret));
	else if (cs.failed)
		cli_warn(CMD,
			 "%d of the profiled files could not be copied into the build-id cache "
			 "%s: %s (--no-buildid-cache leaves it alone)",
			 cs.failed, dir, strerror(-cs.first_error));
}

/* A signal cut the profile short: a launched program was still being profiled, or -d had
 * not run out. Ctrl-C is how an attached or system-wide collection without -d ends. */
static bool cut_by_signal(const struct collect_state *st)
{
	return st->stop_signal && (!st->attach || st->duration_s > 0);
}

/* How the collection ended, for the terminal line: "completed", or "INTERRUPTED by
 * SIGINT" (never "completed" for a session whose status says otherwise). */
static const char *end_words(const struct collect_state *st, const struct ses_info *in, char *buf,
			     size_t len)
{
	const char *abbrev = st->stop_signal ? sigabbrev_np(st->stop_signal) : NULL;

	if (in->status == SES_STATUS_COMPLETE)
		return "completed";
	if (!cut_by_signal(st))
		return "INTERRUPTED (samples.data could not be written)";
	snprintf(buf, len, "INTERRUPTED by SIG%s", abbrev ? abbrev : "?");
	return buf;
}

static int finish(struct collect_state *st)
{
	struct ses_info *in = &st->info;
	char why[64];
	struct smp_stats stats;
	int code = 0, ret;
	pid_t orphan = 0;

	drain(st);
	smp_get_stats(st->smp, &stats);
	in->samples = stats.samples;
	in->lost_samples = stats.lost;
	in->target_cpu_ns = st->attach		  ? collect_attach_cpu_ns(st)
			    : st->cpu_at_end_taken ? st->cpu_at_end_ns - st->cpu_before_start_ns
			    : st->child_exited
				    ? st->child_cpu_ns - st->cpu_before_start_ns
				    : collect_cpu_ns(st->child.pid) - st->cpu_before_start_ns;
	split_cpu(st, in);
	if (!st->attach && st->child_exited) { /* what costs a cpu-clock timer samples */
		in->target_voluntary_switches = st->child_vcsw;
		in->target_involuntary_switches = st->child_ivcsw;
	}
	collect_setid_at_end(st);
	in->status = st->write_failed || cut_by_signal(st) ? SES_STATUS_INTERRUPTED
							   : SES_STATUS_COMPLETE;
	in->stop_signal = st->stop_signal;
	in->limit_data_bytes = st->limit_data_bytes;
	if (st->child_exited && WIFEXITED(st->child_status)) {
		in->exit_code = WEXITSTATUS(st->child_status);
		code = in->exit_code;
	} else if (st->child_exited && WIFSIGNALED(st->child_status)) {
		in->exit_signal = WTERMSIG(st->child_status);
		code = 128 + in->exit_signal;
	} else if (st->stop_signal && !st->attach) {
		code = 128 + st->stop_signal; /* attach: Ctrl-C is the normal way to end */
	}
	if (st->child_exited)
		in->orphans = count_orphans(st, &orphan);
	ret = collect_leaf_close(st);
	if (ret && !st->write_failed) /* report goes on without it, and says so */
		cli_warn(CMD, "closing %s: %s", SES_LEAF_FILE, strerror(-ret));
	ret = ses_writer_close(st->writer);
	st->writer = NULL;
	if (ret && !st->write_failed) {
		cli_error(1, CMD, "closing samples.data: %s", strerror(-ret));
		in->status = SES_STATUS_INTERRUPTED;
	}
	ret = ses_info_write(st->session_fd, in);
	if (ret)
		cli_error(1, CMD, "cannot rewrite session.ini: %s", strerror(-ret));
	cache_build_ids(st);

	fprintf(stderr, "Profiling (data collection) %s: %.3f s, %llu samples, %llu lost\n",
		end_words(st, in, why, sizeof(why)),
		(double)(in->end_mono_ns - in->start_mono_ns) / 1e9,
		(unsigned long long)in->samples, (unsigned long long)in->lost_samples);
	if (stats.lost)
		cli_warn(CMD, "%llu samples were lost (ring buffer full); raise -m or the interval",
			 (unsigned long long)stats.lost);
	if (st->stop_signal)
		fprintf(stderr, "Collection stopped by %s\n", sig_name(st->stop_signal));
	else if (in->limit_data_reached)
		fprintf(stderr,
			"Collection stopped: samples.data reached --limit-data %.4g MiB; the rest "
			"of the run is not profiled\n",
			(double)in->limit_data_bytes / (1 << 20));
	if (st->system_wide)
		; /* nothing was attached to, nothing to say about it */
	else if (st->attach)
		fprintf(stderr,
			st->attached_gone ? "The attached process%s exited\n"
					  : "Detached; the process%s run%s on\n",
			st->nattach > 1 ? "es" : "", st->nattach > 1 ? "" : "s");
	else if (st->child_exited && WIFEXITED(st->child_status))
		fprintf(stderr, "Target %d exited with status %d\n", st->child.pid, in->exit_code);
	else if (st->child_exited)
		fprintf(stderr, "Target %d was killed by signal %d (%s)\n", st->child.pid,
			in->exit_signal, sig_name(in->exit_signal));
	else
		fprintf(stderr, "Target %d is still running (collection ended first)\n",
			st->child.pid);
	if (in->orphans)
		cli_warn(CMD,
			 "the target left %d process%s running (pid %d%s); %s not profiled "
			 "after the target exited",
			 in->orphans, in->orphans > 1 ? "es" : "", (int)orphan,
			 in->orphans > 1 ? " and others" : "",
			 in->orphans > 1 ? "they are" : "it is");
	/* stderr as every other line of ours: stdout is the program's (gzip -c > out.gz) */
	fprintf(stderr, "Generated data files path: %s\n", collect_mpi_data_path(st));
	if (st->write_failed || ret)
		return 1;
	return code;
}

/* Attach mode: the processes are running already; turn the events on. */
/* ", with call stacks (...)" for the start line, or "". */
static const char *stacks_desc(const struct collect_state *st, char *buf, size_t len)
{
	if (st->cg.mode == PMC_CG_NONE)
		return "";
	if (st->cg.mode == PMC_CG_DWARF)
		snprintf(buf, len,
			 ", with call stacks (dwarf: %u bytes of stack per sample, "
			 "depth %d)",
			 st->cg.stack_bytes, st->cg.depth);
	else
		snprintf(buf, len, ", with call stacks (frame pointers%s, depth %d)",
			 st->split ? " and a leaf copy for frameless leaves" : "",
			 (int)st->attrs[COLLECT_TIMER].sample_max_stack);
	return buf;
}

/* What the first (sorting) event samples. st->period_ns is the timer's period only: a
 * PMC or software event from -e or a config has its own interval, counted in events. */
static const char *sampling_desc(const struct collect_state *st, char *buf, size_t len)
{
	const struct perf_event_attr *a = &st->attrs[COLLECT_TIMER];
	const char *name = st->event_names[COLLECT_TIMER];
	int more = st->nattrs - COLLECT_TIMER - 1;
	size_t n;

	if (a->freq)
		snprintf(buf, len, "%s at %llu Hz", name, (unsigned long long)a->sample_freq);
	else if (!strcmp(name, "CPU_TIME"))
		snprintf(buf, len, "%s every %.3g ms", name, (double)a->sample_period / 1e6);
	else
		snprintf(buf, len, "%s every %llu events", name,
			 (unsigned long long)a->sample_period);
	n = strlen(buf);
	if (more > 0 && n < len)
		snprintf(buf + n, len - n, " (and %d more event%s)", more, more == 1 ? "" : "s");
	return buf;
}

static int start_attached(struct collect_state *st)
{
	char cg[128], who[64], what[160];

	st->info.npids = st->nattach;
	memcpy(st->info.pids, st->attach_pids, sizeof(pid_t) * st->nattach);
	ses_info_write(st->session_fd, &st->info);
	smp_set_enabled(st->smp, COLLECT_TRACKING, true);
	if (!st->start_paused && !(st->start_delay_s > 0))
		collect_events_enable(st, true);
	collect_pages_adopt_attached(st);
	if (st->system_wide)
		snprintf(who, sizeof(who), "system-wide on %s%s", st->nsample_cpus ? "CPUs " : "",
			 st->nsample_cpus ? st->sample_cpu_list : "every CPU");
	else
		snprintf(who, sizeof(who), "attached to pid %d%s", (int)st->attach_pids[0],
			 st->nattach > 1 ? " and others" : "");
	if (st->wait_for_signal) {
		fprintf(stderr, "Profiling starts at SIGUSR1 (kill -USR1 %d): %s\n", (int)getpid(),
			who);
		return 0;
	}
	if (st->start_delay_s > 0) {
		fprintf(stderr, "Profiling starts in %.3g s: %s\n", st->start_delay_s, who);
		return 0;
	}
	fprintf(stderr, "Profiling started%s: %s%s, %s\n",
		st->start_paused ? " (paused until the program resumes it)" : "",
		sampling_desc(st, what, sizeof(what)), stacks_desc(st, cg, sizeof(cg)), who);
	return 0;
}

int collect_run(struct collect_state *st)
{
	const char *what;
	int64_t start_mono;
	char cg[128], desc[160];
	int ret;

	ret = block_signals(st);
	if (ret) {
		if (!st->attach)
			smp_child_abort(&st->child);
		return cli_error(1, CMD, "cannot set up signal handling: %s", strerror(-ret));
	}
	st->info.start_mono_ns = start_mono = cli_now_ns(CLOCK_MONOTONIC);
	st->info.start_epoch_ns = cli_now_ns(CLOCK_REALTIME);
	if (st->attach) {
		start_attached(st);
		goto run;
	}
	st->info.npids = 1;
	st->info.pids[0] = st->child.pid;
	collect_setid_at_start(st);
	ses_info_write(st->session_fd, &st->info);
	ret = smp_child_release(&st->child, &what);
	if (ret) {
		reap_child(st, 0);
		char why[320];
		bool chdir_failed = !strcmp(what ? what : "", "chdir");

		cli_error(1, CMD, "cannot %s '%s': %s", what ? what : "start",
			  chdir_failed ? st->workdir : st->prog_path,
			  chdir_failed ? strerror(-ret)
				       : cli_exec_error(st->prog_path, -ret, why, sizeof(why)));
		st->never_started = true;
		return 1;
	}
	if (st->wait_for_signal)
		fprintf(stderr, "Profiling starts at SIGUSR1 (kill -USR1 %d): target pid %d\n",
			(int)getpid(), st->child.pid);
	else if (st->start_delay_s > 0)
		fprintf(stderr, "Profiling starts in %.3g s: target pid %d\n", st->start_delay_s,
			st->child.pid);
	else
		fprintf(stderr, "Profiling started%s: %s%s, target pid %d\n",
			st->start_paused ? " (paused until the program resumes it)" : "",
			sampling_desc(st, desc, sizeof(desc)), stacks_desc(st, cg, sizeof(cg)),
			st->child.pid);
run:
	loop(st, start_mono);
	/* the collection ends here: what happens while the target is wound down is not
	 * part of the profile */
	smp_disable(st->smp);
	st->info.end_mono_ns = cli_now_ns(CLOCK_MONOTONIC);
	st->info.end_epoch_ns = cli_now_ns(CLOCK_REALTIME);
	if (!st->attach && !st->child_exited) {
		st->cpu_at_end_ns = collect_cpu_ns(st->child.pid);
		st->cpu_at_end_taken =
			st->cpu_at_end_ns > 0 &&
			!collect_cpu_split_ns(st->child.pid, &st->user_at_end_ns, &st->sys_at_end_ns);
	}
	if (!st->attach && (st->stop_signal || (!st->child_exited && st->terminate)))
		settle_child(st);
	if (!st->attach)
		reap_children(st);
	collect_pages_stop(st, st->info.end_mono_ns);
	return finish(st);
}
