// SPDX-License-Identifier: MIT
/*
 * Process shapes and binaries the other targets do not have (tests/e2e/unusual.sh).
 *   unusual spin [s]   hot_two_thirds then hot_one_third, s seconds of CPU time in all (default 0.3)
 *   unusual daemon [s] daemonizes (fork, setsid, fork; the parent reaps the first child) and the
 *                      grandchild works s seconds (default 1) in daemon_work
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

static double clock_s(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The split between the spin functions is in the thread's own CPU time, so it is 2:1 in
 * samples however the scheduler shares the CPU (a wall-clock split moves with the load). */
static double cpu_now(void)
{
	return clock_s(CLOCK_THREAD_CPUTIME_ID);
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* Each function spins on its own arithmetic, so the samples land in it. */
__attribute__((noinline)) void hot_two_thirds(double secs)
{
	double t0 = cpu_now(), x = sink;

	while (cpu_now() - t0 < secs)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void hot_one_third(double secs)
{
	double t0 = cpu_now(), x = sink;

	while (cpu_now() - t0 < secs)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000002 + 2e-9;
	sink = x;
}

__attribute__((noinline)) void daemon_work(double secs)
{
	double t0 = now(), x = sink;

	while (now() - t0 < secs)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000003 + 3e-9;
	sink = x;
}

/* a name longer than the terminal table's function column (C++ templates get there) */
__attribute__((noinline)) void
a_function_whose_name_goes_on_and_on_well_past_any_column_a_terminal_table_would_give_it(double secs)
{
	double t0 = now(), x = sink;

	while (now() - t0 < secs)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000004 + 4e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "spin";
	double secs = argc > 2 ? atof(argv[2]) : -1;

	if (!strcmp(mode, "spin")) {
		secs = secs < 0 ? 0.3 : secs;
		hot_two_thirds(secs * 2 / 3);
		hot_one_third(secs / 3);
		return 0;
	}
	if (!strcmp(mode, "longname")) {
		a_function_whose_name_goes_on_and_on_well_past_any_column_a_terminal_table_would_give_it(
			secs < 0 ? 0.2 : secs);
		return 0;
	}
	if (!strcmp(mode, "daemon")) {
		pid_t first = fork();

		/* the parent waits for the first child, which forks the daemon and exits: when
		 * the target exits, exactly one process (the daemon) is left, whatever the
		 * scheduler ran first (returning at once sometimes left both) */
		if (first > 0) {
			waitpid(first, NULL, 0);
			return 0;
		}
		setsid();
		if (fork())
			_exit(0);
		daemon_work(secs < 0 ? 1 : secs);
		return 0;
	}
	fprintf(stderr, "usage: unusual spin|daemon|longname [seconds]\n");
	return 2;
}
