// SPDX-License-Identifier: MIT
/*
 * An OpenMP program with known waits for trace.json's OpenMP slices (tests/e2e/omp_trace.sh).
 *
 *   omp_trace [N [T [U]]]   N parallel regions (default 6) of T threads (default 3); in
 *                           region r, thread r % T works U ms of its CPU (default 20) and
 *                           the others only reach the explicit barrier, where they wait
 *                           for it; then every thread works U / 4 ms and the region ends.
 *
 * Each thread measures its own wall time from just before the barrier to just after it
 * and prints it per region: "barrier r=<r> t=<thread num> ms=<ms>", after the smallest
 * team it was given ("team=<threads>"). The OMPT wait lies
 * between those two instants on any schedule. Work is thread CPU time, so the figures hold
 * on a loaded machine.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_T 64
#define MAX_N 1000

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Burn @ms of this thread's CPU time (not inlined: its samples are named "work"). */
__attribute__((noinline)) static double work(double ms)
{
	double end = clock_ms(CLOCK_THREAD_CPUTIME_ID) + ms, x = 1;

	while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

static double waited[MAX_N][MAX_T];
static int team = MAX_T + 1; /* the smallest team the runtime gave */

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 6, t = argc > 2 ? atoi(argv[2]) : 3;
	double u = argc > 3 ? atof(argv[3]) : 20, sum = 0;

	if (n < 1 || n > MAX_N || t < 1 || t > MAX_T || u < 0) {
		fprintf(stderr, "usage: omp_trace [N (1..%d) [T (1..%d) [U ms]]]\n", MAX_N, MAX_T);
		return 2;
	}
	for (int r = 0; r < n; r++) {
#pragma omp parallel num_threads(t) reduction(+ : sum)
		{
			int me = omp_get_thread_num();
			double before;

			if (me == 0 && omp_get_num_threads() < team)
				team = omp_get_num_threads();
			if (me == r % t)
				sum += work(u);
			before = clock_ms(CLOCK_MONOTONIC);
#pragma omp barrier
			waited[r][me] = clock_ms(CLOCK_MONOTONIC) - before;
			sum += work(u / 4);
		}
	}
	printf("team=%d\n", team);
	for (int r = 0; r < n; r++)
		for (int k = 0; k < t && k < team; k++)
			printf("barrier r=%d t=%d ms=%.3f\n", r, k, waited[r][k]);
	printf("omp_trace: %s\n", sum > 0 ? "done" : "?");
	return 0;
}
