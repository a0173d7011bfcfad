// SPDX-License-Identifier: MIT
/*
 * The C++ twin of omp_names.c (tests/e2e/openmp_names.sh): constructs in a member function
 * of a class in a namespace, defined out of its class, and in main, beside the header's
 * inline helpers (omp_names.h). grid::Solver::run has a parallel region with a static loop
 * of N iterations, a single that makes 4 tasks and a critical section; main a parallel
 * region with a critical section. Rows are named as the rest of report names C++
 * functions: demangled, with their parameters.
 */
#include "omp_names.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

namespace grid {
class Solver {
public:
	explicit Solver(int n) : n_(n) {}
	double run(long *tasks_sum) const;

private:
	int n_;
};

__attribute__((noinline)) double Solver::run(long *tasks_sum) const
{
	double total = 0;
	long tsum = 0;
	int n = n_, chunk = names_clamp(n / 2, 1, n);

	/* the trap of omp_names.h: the header's helpers' lines are past this function's
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
} // namespace grid

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	long odds = 0, tasks_sum = 0, top = 0;
	double squares = grid::Solver(n).run(&tasks_sum);

	/* ............................................................................ */
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
