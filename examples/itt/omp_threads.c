// SPDX-License-Identifier: MIT
/*
 * omp_threads: an OpenMP program with no instrumentation of its own. Built with clang
 * against LLVM's libomp, it carries ITT's static part inside libomp, which loads uprof's
 * collector when run under `uprof collect` (INTEL_LIBITTNOTIFY64) and names every thread
 * of the team: the report's thread sections show "OMP Primary Thread #0" and
 * "OMP Worker Thread #<n>" instead of "Thread-<tid>". See uprof-itt(7) and README.md.
 */
#include <omp.h>
#include <stdio.h>

/* Some arithmetic per thread, more for the higher thread numbers. */
static double work(int n)
{
	double x = 0;

	for (long i = 0; i < 20000000L * (n + 1); i++)
		x = x * 0.999999 + (double)(i & 7);
	return x;
}

int main(void)
{
	double sum = 0;

#pragma omp parallel num_threads(4) reduction(+ : sum)
	sum += work(omp_get_thread_num());
	printf("omp_threads: %d threads, checksum %.3g\n", 4, sum);
	return 0;
}
