// SPDX-License-Identifier: MIT
/*
 * Profile control: outside() ~0.3 s, resume, inside() ~0.3 s, pause, outside_again()
 * ~0.3 s. Run under `uprof collect --start-paused`: only inside() may be sampled.
 *   pause strict    amdProfileStrictResume/StrictPause (group 2)
 *   pause async     amdProfileResume/Pause (group 1)
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define SPIN_FOR(secs)                                               \
	do {                                                         \
		double end = now() + (secs), x = sink;               \
		while (now() < end)                                  \
			for (int i = 0; i < 1000; i++)               \
				x = x * 1.0000001 + 1e-9;            \
		sink = x;                                            \
	} while (0)

__attribute__((noinline)) void outside(void) { SPIN_FOR(0.3); }
__attribute__((noinline)) void inside(void) { SPIN_FOR(0.3); }
__attribute__((noinline)) void outside_again(void) { SPIN_FOR(0.3); }

int main(int argc, char **argv)
{
	int strict = argc < 2 || strcmp(argv[1], "async");

	outside();
	if (strict ? !amdProfileStrictResume() : !amdProfileResume())
		fprintf(stderr, "resume was not acknowledged\n");
	inside();
	if (strict ? !amdProfileStrictPause() : !amdProfilePause())
		fprintf(stderr, "pause was not acknowledged\n");
	outside_again();
	return 0;
}
