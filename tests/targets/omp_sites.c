// SPDX-License-Identifier: MIT
/*
 * Parallel regions on nearby lines (tests/e2e/openmp_names.sh): three parallel loops of
 * 1000 iterations (dynamic, guided, runtime schedules) and a parallel sections, one under
 * the other, each run once, 2 threads. Built by gcc -O2, which schedules the calls into
 * the runtime so that the line table gives the guided loop's call the dynamic loop's
 * line: each region must still be its own row, on its own pragma's line (the outlined
 * function gcc passes to the runtime tells them apart).
 */
#include <omp.h>
#include <stdio.h>

int main(void)
{
	double a = 0, b = 0, c = 0;

#pragma omp parallel for schedule(dynamic, 4) reduction(+ : a) num_threads(2)
	for (int i = 0; i < 1000; i++)
		a += i;
#pragma omp parallel for schedule(guided) reduction(+ : b) num_threads(2)
	for (int i = 0; i < 1000; i++)
		b += i;
#pragma omp parallel for schedule(runtime) reduction(+ : c) num_threads(2)
	for (int i = 0; i < 1000; i++)
		c += i;
#pragma omp parallel sections num_threads(2)
	{
#pragma omp section
		a += 1;
#pragma omp section
		b += 1;
	}
	printf("a=%.0f b=%.0f c=%.0f\n", a, b, c);
	return !(a == 499501 && b == 499501 && c == 499500);
}
