// SPDX-License-Identifier: MIT
/*
 * Two phases one after the other, for report --time-filter: phase_one spins for 0.4 s of
 * wall time, then phase_two for 0.4 s, each inside a task (domain "Phases", tasks "one"
 * and "two") so that the clipping of task instances to the window can be checked too.
 * It prints when each task began and ended (CLOCK_MONOTONIC ns, the clock of the samples
 * and of session.ini's start_mono_ns): a test sets its windows from these, not from how
 * long the start took on a loaded machine.
 *   phases [seconds-per-phase]   (default 0.4)
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

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
	amdStringHandle one = amdStringHandleCreate("one"), two = amdStringHandleCreate("two");
	long long t[4];

	/* read inside each task: the first amdTaskBegin sets the library up (milliseconds
	 * on a loaded machine) before it takes its own time */
	amdTaskBegin(dom, 0, 0, one);
	t[0] = now_ns();
	phase_one(secs);
	t[1] = now_ns();
	amdTaskEnd(dom);
	amdTaskBegin(dom, 0, 0, two);
	t[2] = now_ns();
	phase_two(secs);
	t[3] = now_ns();
	amdTaskEnd(dom);
	printf("phases done: %g\none %lld %lld two %lld %lld\n", sink, t[0], t[1], t[2], t[3]);
	return 0;
}
