// SPDX-License-Identifier: MIT
/*
 * Two phases one after the other, for report --time-filter: phase_one spins for 0.4 s of
 * wall time, then phase_two for 0.4 s, each inside a task (domain "Phases", tasks "one"
 * and "two") so that the clipping of task instances to the window can be checked too.
 *   phases [seconds-per-phase]   (default 0.4)
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) static void phase_one(double secs)
{
	double end = now() + secs, x = sink;

	while (now() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) static void phase_two(double secs)
{
	double end = now() + secs, x = sink;

	while (now() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 0.9999999 + 2e-9; /* not phase_one's code: no folding */
	sink = x;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.4;
	amdDomainHandle dom = amdDomainCreate("Phases");

	amdTaskBegin(dom, 0, 0, amdStringHandleCreate("one"));
	phase_one(secs);
	amdTaskEnd(dom);
	amdTaskBegin(dom, 0, 0, amdStringHandleCreate("two"));
	phase_two(secs);
	amdTaskEnd(dom);
	printf("phases done: %g\n", sink);
	return 0;
}
