// SPDX-License-Identifier: MIT
/*
 * A known answer for a region's imbalance both ways (tests/e2e/omp_imbalance.sh):
 *
 *   omp_imbalance OUT [THREADS [UNIT_MS [ROUNDS]]]
 *
 * ROUNDS (default 3) instances of one parallel region of THREADS (default 2) threads, in
 * which thread k burns (k + 1) * UNIT_MS (default 100) ms of its own CPU time (1:2 with
 * two threads). Each thread measures itself: its CPU time in the work
 * (CLOCK_THREAD_CPUTIME_ID) and its wall time from entering the region's body to the end
 * of its work (omp_get_wtime), summed over the rounds. Written to OUT, not stdout (which
 * the test keeps to check that uprof writes nothing there):
 *
 *   threads N
 *   cpu_ms <thread 0> <thread 1> ...
 *   wall_ms <thread 0> <thread 1> ...
 *   cpu_imbalance <max/avg - 1 of cpu_ms>
 *   wall_imbalance <max/avg - 1 of wall_ms>
 *
 * The CPU imbalance is N / ((N + 1) / 2) - 1 = (N - 1) / (N + 1) by construction (1/3 for
 * two threads); the wall imbalance is that too on an idle machine, and beside CPU hogs
 * whatever the scheduler made of it. "threads" is the team the runtime gave (its
 * smallest over the rounds), which may be fewer than asked for.
 * Built with clang -fopenmp (LLVM libomp) and gcc -fopenmp (libgomp).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_THREADS 64

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Burn @ms of this thread's CPU time; the result keeps the loop from being optimised out. */
static double burn(double ms)
{
	double end = cpu_ms() + ms, x = 1;

	while (cpu_ms() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

/* max/avg - 1 of @n values, 0 when all are 0 */
static double imbalance(const double *v, int n)
{
	double sum = 0, max = 0;

	for (int k = 0; k < n; k++) {
		sum += v[k];
		max = v[k] > max ? v[k] : max;
	}
	return sum > 0 ? max / (sum / n) - 1 : 0;
}

int main(int argc, char **argv)
{
	double cpu[MAX_THREADS] = { 0 }, wall[MAX_THREADS] = { 0 }, sink = 0;
	int threads = argc > 2 ? atoi(argv[2]) : 2;
	double unit = argc > 3 ? atof(argv[3]) : 100;
	int rounds = argc > 4 ? atoi(argv[4]) : 3, team = MAX_THREADS;
	FILE *out;

	if (argc < 2 || threads < 1 || threads > MAX_THREADS || unit <= 0 || rounds < 1) {
		fprintf(stderr, "usage: omp_imbalance OUT [THREADS(1-%d) [UNIT_MS [ROUNDS]]]\n",
			MAX_THREADS);
		return 2;
	}
	for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(threads) reduction(+ : sink)
		{
			int me = omp_get_thread_num(), n = omp_get_num_threads();
			double w0 = omp_get_wtime(), c0 = cpu_ms();

			sink += burn((me + 1) * unit);
			/* each thread its own slot: no two threads write one */
			cpu[me] += cpu_ms() - c0;
			wall[me] += (omp_get_wtime() - w0) * 1e3;
			if (me == 0) /* no lock here: a critical would be a site of its own */
				team = n < team ? n : team;
		}
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "threads %d\ncpu_ms", team);
	for (int k = 0; k < team; k++)
		fprintf(out, " %.3f", cpu[k]);
	fprintf(out, "\nwall_ms");
	for (int k = 0; k < team; k++)
		fprintf(out, " %.3f", wall[k]);
	fprintf(out, "\ncpu_imbalance %.6f\nwall_imbalance %.6f\n", imbalance(cpu, team),
		imbalance(wall, team));
	fprintf(out, "sink %g\n", sink);
	return fclose(out) ? 1 : 0;
}
