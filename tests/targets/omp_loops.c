// SPDX-License-Identifier: MIT
/*
 * Worksharing loops with known counts (tests/e2e/omp_loops.sh), 2 threads, each region run
 * R times (argv[1]):
 *   mixed     one parallel region with a static loop of 100 iterations and a dynamic loop
 *             of 50: 150 iterations per instance, not 75
 *   guided    a parallel for, schedule(guided), 64 iterations
 *   tasks     a taskloop of N iterations (argv[2]) in a single
 *   first, second  two plain parallel regions on adjacent lines (gcc: two rows)
 * The program counts the iterations each loop ran and prints them: the report must give
 * the same numbers.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

static long ran_static, ran_dynamic, ran_guided, ran_taskloop, ran_first, ran_second;

/* Each function reads a counter after its region: a region call in tail position would be
 * a jump, and the runtime's return address would be in main. */
__attribute__((noinline)) static long mixed(void)
{
#pragma omp parallel num_threads(2)
	{
#pragma omp for schedule(static)
		for (int i = 0; i < 100; i++) {
#pragma omp atomic
			ran_static++;
		}
#pragma omp for schedule(dynamic, 5)
		for (int i = 0; i < 50; i++) {
#pragma omp atomic
			ran_dynamic++;
		}
	}
	return ran_dynamic;
}

__attribute__((noinline)) static long guided(void)
{
#pragma omp parallel for schedule(guided) num_threads(2)
	for (int i = 0; i < 64; i++) {
#pragma omp atomic
		ran_guided++;
	}
	return ran_guided;
}

__attribute__((noinline)) static long tasks(long n)
{
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskloop grainsize(4)
	for (long i = 0; i < n; i++) {
#pragma omp atomic
		ran_taskloop++;
	}
	return ran_taskloop;
}

__attribute__((noinline)) static long adjacent(void)
{
#pragma omp parallel num_threads(2)
	__atomic_add_fetch(&ran_first, 1, __ATOMIC_RELAXED);
#pragma omp parallel num_threads(2)
	__atomic_add_fetch(&ran_second, 1, __ATOMIC_RELAXED);
	return ran_second;
}

int main(int argc, char **argv)
{
	int r = argc > 1 ? atoi(argv[1]) : 3;
	long n = argc > 2 ? atol(argv[2]) : 40;

	long last = 0;

	for (int k = 0; k < r; k++)
		last += mixed() + guided() + tasks(n) + adjacent();
	printf("static=%ld dynamic=%ld guided=%ld taskloop=%ld first=%ld second=%ld (%ld)\n",
	       ran_static, ran_dynamic, ran_guided, ran_taskloop, ran_first, ran_second, last);
	return !(ran_static == 100L * r && ran_dynamic == 50L * r && ran_guided == 64L * r &&
		 ran_taskloop == n * r && ran_first == 2L * r && ran_second == 2L * r);
}
