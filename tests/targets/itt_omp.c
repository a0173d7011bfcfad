// SPDX-License-Identifier: MIT
/*
 * An OpenMP program built with clang against LLVM's libomp, which carries its own ITT
 * static part: with INTEL_LIBITTNOTIFY64 set it loads uprof's collector by itself and
 * names its threads ("OMP Primary Thread #0", "OMP Worker Thread #<n>") and its parallel
 * regions (frames). No ITT call of its own. Three threads spin ~0.25 s each, twice.
 */
#include <omp.h>
#include <stdio.h>

static double spin(double secs)
{
	double end = omp_get_wtime() + secs, x = 0;

	while (omp_get_wtime() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

int main(void)
{
	double sum = 0;

	for (int round = 0; round < 2; round++) {
#pragma omp parallel num_threads(3) reduction(+ : sum)
		sum += spin(0.125);
	}
	printf("itt_omp: %d threads, %g\n", 3, sum > 0 ? 1.0 : 0.0);
	return 0;
}
