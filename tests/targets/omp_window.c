// SPDX-License-Identifier: MIT
/*
 * A program that lives in parallel regions, for tests/e2e/omp_window.sh: it appends to
 * the file <log> one line per region it completed, "<mode> <pid> <count> <CLOCK_MONOTONIC
 * ns>", written whole with one write() as soon as the region ended, so the test knows how
 * many regions had completed at any moment (a partial window can never report more).
 * Each region is 2 threads burning U ms of their own CPU time (U = 5).
 *
 *   omp_window <log> loop <s>       back-to-back regions for <s> seconds of wall time
 *   omp_window <log> fork <P> <C>   P regions, a system() (a child that execs at once:
 *                                   no OpenMP process), then fork(): the child runs C
 *                                   regions of another construct and exits; the parent
 *                                   waits for it and runs P more
 *   omp_window <log> exit <N>       N regions, then one in which thread 0 calls exit(0)
 *                                   while thread 1 is still working: the last line is
 *                                   "exit <pid> <N+1> <ns>", written just before exit()
 *   omp_window <log> window <A> <B> <C>  A regions, amdProfileResume(), B regions,
 *                                   amdProfilePause(), C regions: run under
 *                                   --start-paused, the one window holds B, exactly
 * Built with clang -fopenmp (LLVM libomp, OMPT) and gcc -fopenmp (libgomp, traced through
 * --openmp-impl omplib).
 */
#include "AMDProfileController.h"

#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define UNIT_MS 5.0

static int log_fd = -1;

static double clock_ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Burn @ms of this thread's CPU time. */
static double work(double ms)
{
	double end = clock_ms(CLOCK_THREAD_CPUTIME_ID) + ms, x = 1;

	while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

static void say(const char *mode, long count)
{
	char line[128];
	int n = snprintf(line, sizeof(line), "%s %d %ld %.0f\n", mode, (int)getpid(), count,
			 clock_ms(CLOCK_MONOTONIC) * 1e6);

	if (write(log_fd, line, (size_t)n) != n)
		_exit(3);
}

static double region_a(void)
{
	double x = 0;

#pragma omp parallel num_threads(2) reduction(+ : x)
	x += work(UNIT_MS);
	return x;
}

static double region_child(void)
{
	double x = 0;

#pragma omp parallel num_threads(2) reduction(+ : x)
	x += work(UNIT_MS);
	return x;
}

static double loop(double seconds)
{
	double end = clock_ms(CLOCK_MONOTONIC) + seconds * 1e3, x = 0;

	for (long n = 1; clock_ms(CLOCK_MONOTONIC) < end; n++) {
		x += region_a();
		say("loop", n);
	}
	return x;
}

static int fork_run(long parent, long child)
{
	double x = 0;
	int status;
	pid_t pid;

	for (long n = 1; n <= parent; n++) {
		x += region_a();
		say("parent", n);
	}
	if (system("exit 0") != 0)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (long n = 1; n <= child; n++) {
			x += region_child();
			say("child", n);
		}
		exit(x > 0 ? 0 : 4);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	for (long n = parent + 1; n <= 2 * parent; n++) {
		x += region_a();
		say("parent", n);
	}
	return x > 0 ? 0 : 4;
}

static int exit_run(long n)
{
	double x = 0;

	for (long i = 1; i <= n; i++) {
		x += region_a();
		say("exit", i);
	}
#pragma omp parallel num_threads(2) reduction(+ : x)
	{
		x += work(UNIT_MS);
		if (omp_get_thread_num() == 0) {
			say("exit", n + 1);
			exit(0);
		}
		x += work(20 * UNIT_MS);
	}
	return x > 0 ? 5 : 4; /* never reached */
}

static int window_run(long a, long b, long c)
{
	double x = 0;
	long n = 0;

	for (long i = 0; i < a + b + c; i++) {
		if (i == a)
			amdProfileResume();
		if (i == a + b)
			amdProfilePause();
		x += region_a();
		say("window", ++n);
	}
	return x > 0 ? 0 : 4;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		goto usage;
	log_fd = open(argv[1], O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		perror(argv[1]);
		return 2;
	}
	if (!strcmp(argv[2], "loop"))
		return loop(atof(argv[3])) > 0 ? 0 : 4;
	if (!strcmp(argv[2], "fork") && argc == 5)
		return fork_run(atol(argv[3]), atol(argv[4]));
	if (!strcmp(argv[2], "exit"))
		return exit_run(atol(argv[3]));
	if (!strcmp(argv[2], "window") && argc == 6)
		return window_run(atol(argv[3]), atol(argv[4]), atol(argv[5]));
usage:
	fprintf(stderr,
		"usage: omp_window <log> loop <s> | fork <P> <C> | exit <N> | window <A> <B> <C>\n");
	return 2;
}
