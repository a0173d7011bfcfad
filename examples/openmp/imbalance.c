// SPDX-License-Identifier: MIT
/*
 * An OpenMP program with one imbalanced region (thread 0 works three times as long as
 * thread 1, which waits in the closing barrier), one balanced worksharing loop and a
 * contended critical section: what `uprof collect --trace openmp` reports on each.
 */
#include <omp.h>
#include <stdio.h>

static double spin(double secs)
{
	double end = omp_get_wtime() + secs, x = 1;

	while (omp_get_wtime() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

int main(void)
{
	double sum = 0;

	for (int round = 0; round < 5; round++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
		sum += spin(omp_get_thread_num() == 0 ? 0.06 : 0.02);

#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : sum)
		for (int i = 0; i < 40; i++)
			sum += spin(0.001);

#pragma omp parallel num_threads(2)
		{
#pragma omp critical
			sum += spin(0.01);
		}
	}
	printf("imbalance: %s\n", sum > 0 ? "done" : "?");
	return 0;
}
