// SPDX-License-Identifier: MIT
/*
 * An OpenMP program that offloads (tests/e2e/openmp_offload.sh): N target regions (argv[1],
 * default 4), each mapping 1000 doubles to the device, 1000 back, and 250 both ways, so a
 * region moves 10000 bytes each way; its figures are compared with what libomptarget
 * itself says (LIBOMPTARGET_INFO). Built by clang-19 for the x86_64 host device.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define M 250

int main(int argc, char **argv)
{
	int regions = argc > 1 ? atoi(argv[1]) : 4;
	double *a = malloc(N * sizeof(*a)), *b = malloc(N * sizeof(*b)), *c = malloc(M * sizeof(*c));

	if (!a || !b || !c)
		return 1;
	for (int i = 0; i < N; i++)
		a[i] = i;
	for (int i = 0; i < M; i++)
		c[i] = 0;
	for (int r = 0; r < regions; r++) {
#pragma omp target map(to : a[0:N]) map(from : b[0:N]) map(tofrom : c[0:M])
		for (int i = 0; i < N; i++) {
			b[i] = 2 * a[i] + r;
			if (i < M)
				c[i] += 1;
		}
	}
	printf("b[10]=%g c[0]=%g\n", b[10], c[0]);
	free(a);
	free(b);
	free(c);
	return 0;
}
