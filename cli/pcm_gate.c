// SPDX-License-Identifier: MIT
/* uprof pcm --start-delay / --wait-for-signal (uProf's PcM options): the program runs from
 * the start, the counting starts later: after the delay (ms, as PcM takes it) or at the
 * first SIGUSR1, whichever the options ask (both: the signal, then the delay). The
 * counters are opened, enabled and the program released as usual; at the start a reading
 * of them becomes the baseline, so the rows and the cumulative table hold only what was
 * counted from then on (with their enabled and running times: multiplexing scales stay
 * right). */
#include "cli/pcm.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "pcm";

int pcm_gate_parse_delay(struct pcm_state *st, const char *arg)
{
	char *end;
	unsigned long v;

	/* 0 is PcM's "no delay"; at most a day */
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!errno && *arg && !*end && *arg != '-' && v <= 86400000) {
		st->start_delay_ms = (unsigned)v;
		return 0;
	}
	return cli_error(EXIT_USAGE, CMD,
			 "--start-delay '%s': milliseconds, 0 .. 86400000 (0: none)", arg);
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Wait on the signalfd until SIGUSR1 (@want_usr1) or @deadline_ns (0: none). 1 when the
 * run ended first (the program exited, or SIGINT/SIGTERM/SIGHUP), else 0. */
static int wait_for(struct pcm_state *st, bool want_usr1, int64_t deadline_ns)
{
	for (;;) {
		struct pollfd p = { .fd = st->sigfd, .events = POLLIN };
		int64_t left = deadline_ns ? deadline_ns - now_ns() : -1;
		struct signalfd_siginfo si;
		int status;

		if (deadline_ns && left <= 0)
			return 0;
		if (poll(&p, 1, left < 0 ? -1 : (int)((left + 999999) / 1000000)) < 0 &&
		    errno != EINTR)
			return 1;
		while (read(st->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			if (si.ssi_signo == SIGUSR1 && want_usr1)
				return 0;
			if (si.ssi_signo == SIGUSR1)
				continue; /* a second SIGUSR1: counting is on already */
			if (si.ssi_signo != SIGCHLD) {
				st->stop_signal = (int)si.ssi_signo;
				return 1;
			}
			if (st->have_child && !st->child_exited &&
			    waitpid(st->child.pid, &status, WNOHANG) == st->child.pid) {
				st->child_exited = true;
				st->child_status = status;
				return 1;
			}
		}
		if (pcm_attach_gone(st))
			return 1;
	}
}

int pcm_gate_wait(struct pcm_state *st)
{
	int ended = 0;

	if (!st->wait_for_signal && !st->start_delay_ms)
		return 0;
	if (st->wait_for_signal) {
		fprintf(stderr,
			"uprof pcm: waiting for SIGUSR1 (kill -USR1 %d) to start "
			"counting; SIGINT ends the run\n",
			(int)getpid());
		ended = wait_for(st, true, 0);
	}
	if (!ended && st->start_delay_ms)
		ended = wait_for(st, false, now_ns() + (int64_t)st->start_delay_ms * 1000000);
	if (ended) {
		fprintf(stderr, "uprof pcm: the run ended before counting started: nothing was "
				"counted\n");
		return 1;
	}
	if (pmc_counting_rebase(st->counting))
		return cli_error(1, CMD, "reading the counters failed");
	fprintf(stderr, "uprof pcm: counting started\n");
	return 0;
}
