// SPDX-License-Identifier: MIT
/*
 * OpenMP constructs in functions beside header-defined inline helpers (omp_names.h), for
 * tests/e2e/openmp_names.sh: each construct's region row must be named after the function
 * it is written in, on its pragma's line. solve() has a parallel region with a static
 * loop of N iterations, a single that makes 4 tasks and a critical section; main() a
 * parallel region with a critical section. 2 threads; prints the answers it computed.
 */
#include "omp_names.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double solve(int n, long *tasks_sum)
{
	double total = 0;
	long tsum = 0;
	int chunk = names_clamp(n / 2, 1, n);

	/* the lines below keep solve()'s constructs past the header's helpers' lines (the
	 * trap of omp_names.h): a function's body is longer than its first line; the next
	 * one is longer than 600 bytes, as generated code's can be: still one line
	 * ........................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................................
	 * ............................................................................
	 * ............................................................................
	 * ............................................................................
	 */
#pragma omp parallel num_threads(2)
	{
		double mine = 0;

#pragma omp for schedule(static, chunk)
		for (int i = 0; i < n; i++)
			mine += names_square(i);
#pragma omp single
		for (int t = 1; t <= 4; t++) {
#pragma omp task
			{
				long v = names_triangle(t);

#pragma omp atomic
				tsum += v;
			}
		}
#pragma omp critical
		total = names_add_capped(total, mine, 1e300);
	}
	*tasks_sum = tsum;
	return total;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	long odds = 0, tasks_sum = 0, top = 0;
	double squares;

	/* main's critical section is past names_sum_odds's line of the header, and main uses it
	 * ............................................................................
	 */
	squares = solve(n, &tasks_sum);
#pragma omp parallel num_threads(2)
	{
		int me = omp_get_thread_num();

#pragma omp critical
		{
			odds += names_odd(me);
			top = names_max(top, odds);
		}
	}
	printf("squares=%.0f expected=%.0f tasks=%ld expected=%ld odds=%ld expected=%ld top=%ld\n",
	       squares, names_sum_squares(n), tasks_sum, 1L + 3 + 6 + 10, odds, names_sum_odds(2),
	       top);
	return !(squares == names_sum_squares(n) && tasks_sum == 20 && odds == names_sum_odds(2));
}
