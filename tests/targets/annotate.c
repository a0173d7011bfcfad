// SPDX-License-Identifier: MIT
/*
 * Target of tests/e2e/annotate.sh: functions whose samples have a known place inside.
 *   hot_loop      one hot loop line (ANNOT_HOT) and one cold line (ANNOT_COLD), run once
 *   inl_caller    the loop of an always-inlined function (inl_step): its samples must land
 *                 on inl_step's own lines
 *   lib_hot       in libannot_lib.so, linked (a shared library with DWARF)
 *   strip_hot     in libannot_strip.so, stripped, dlopened (assembly only)
 * Usage: annotate SECONDS_PER_PHASE (default 0.5); each phase runs for that much CPU time.
 * The line markers ANNOT_* are what the test greps for: keep each on its own line.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

double lib_hot(long n);

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) double hot_loop(long n, double seed)
{
	double s = seed;

	for (long i = 0; i < n; i++) s = s / (1.0 + (double)(i & 7) * 1e-9) + 1e-7; /* ANNOT_HOT */
	s = s * 3.0 + seed; /* ANNOT_COLD */
	return s;
}

static inline __attribute__((always_inline)) double inl_step(double s, long i)
{
	s = s / (1.0 + (double)(i & 3) * 1e-9); /* ANNOT_INL1 */
	return s + 1e-7; /* ANNOT_INL2 */
}

__attribute__((noinline)) double inl_caller(long n, double seed)
{
	double s = seed;

	for (long i = 0; i < n; i++)
		s = inl_step(s, i);
	return s;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5, sink = 0, t;
	double (*strip_hot)(long) = NULL;
	void *h = dlopen("libannot_strip.so", RTLD_NOW);

	if (h)
		*(void **)&strip_hot = dlsym(h, "strip_hot");
	if (!strip_hot) {
		fprintf(stderr, "annotate: cannot load libannot_strip.so: %s\n", dlerror());
		return 1;
	}
	for (t = cpu_s() + secs; cpu_s() < t;)
		sink += hot_loop(2000000, sink);
	for (t = cpu_s() + secs; cpu_s() < t;)
		sink += inl_caller(2000000, sink);
	for (t = cpu_s() + secs; cpu_s() < t;)
		sink += lib_hot(2000000);
	for (t = cpu_s() + secs; cpu_s() < t;)
		sink += strip_hot(2000000);
	printf("%g\n", sink);
	return 0;
}
