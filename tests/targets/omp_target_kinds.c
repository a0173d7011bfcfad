// SPDX-License-Identifier: MIT
/*
 * Target constructs on consecutive lines (tests/e2e/openmp_names.sh): R rounds (argv[1],
 * default 3) of a target enter data, a target update and a target exit data written one
 * under the other, then a target teams region, then a target data region with a target
 * teams and a target update in it; each construct must be its own row of TARGET REGIONS
 * with its own kind and line, R instances each (the data region two: its begin is an
 * enter, its end an exit). Built by clang-19 for the x86_64 host device, as omp_offload.c.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 512

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	double *a = malloc(N * sizeof(*a)), sum = 0;

	if (!a)
		return 1;
	for (int r = 0; r < rounds; r++) {
		for (int i = 0; i < N; i++)
			a[i] = i + r;
#pragma omp target enter data map(alloc : a[0:N])
#pragma omp target update to(a[0:N])
#pragma omp target exit data map(from : a[0:N])
#pragma omp target teams distribute parallel for map(tofrom : a[0:N]) reduction(+ : sum)
		for (int i = 0; i < N; i++)
			sum += a[i];
#pragma omp target data map(tofrom : a[0:N])
		{
#pragma omp target teams distribute parallel for reduction(+ : sum)
			for (int i = 0; i < N; i++)
				sum += a[i];
#pragma omp target update from(a[0:N])
		}
	}
	printf("sum=%.0f\n", sum);
	free(a);
	return 0;
}
