// SPDX-License-Identifier: MIT
/*
 * The bundled example for `make demo` and the 1:3 test: two hot functions doing work in
 * the ratio 1:3, so CPU_TIME should split about 25% / 75%.
 *   demo [units]   (default 2000: about 1.5 s on this project's machines)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

/* Each function does its own arithmetic (no shared helper) so the samples land in it. */
__attribute__((noinline)) void light_work(long units)
{
	double x = sink;

	for (long i = 0; i < units * 100000; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void heavy_work(long units)
{
	double x = sink;

	for (long i = 0; i < 3 * units * 100000; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 2000;

	for (long i = 0; i < 10; i++) {
		light_work(units / 10);
		heavy_work(units / 10);
	}
	printf("demo done: %g\n", sink);
	return 0;
}
