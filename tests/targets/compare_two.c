// SPDX-License-Identifier: MIT
/*
 * Two functions of fixed work for tests/e2e/compare.sh: steady() does one unit a round,
 * tunable() one, or two with "slow". Work is counted in loop iterations (CPU time), never
 * in sleeps, and the two take turns round by round, so that a burst of load on a busy
 * machine slows both alike: tunable's ratio between a slow and a normal run stays ~2,
 * steady's ~1.
 *   compare_two [slow] [rounds]   (rounds: default 120)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

/* one unit: ~5 ms of CPU on this project's machines; a macro, so that each function's
 * samples are its own (self time), not those of a shared helper */
#define UNIT(x)                                                                   \
	do {                                                                      \
		for (int k_ = 0; k_ < 4000000; k_++)                              \
			x = x * 6364136223846793005UL + 1442695040888963407UL;    \
	} while (0)

static __attribute__((noinline)) void steady(void)
{
	unsigned long x = sink;

	UNIT(x);
	sink = x;
}

static __attribute__((noinline)) void tunable(int units)
{
	unsigned long x = sink;

	for (int i = 0; i < units; i++) {
		UNIT(x);
		x ^= (unsigned long)i;
	}
	sink = x;
}

int main(int argc, char **argv)
{
	int slow = argc > 1 && !strcmp(argv[1], "slow");
	int rounds = argc > 2 ? atoi(argv[2]) : 120;

	for (int i = 0; i < rounds; i++) {
		steady();
		tunable(slow ? 2 : 1);
	}
#ifdef REBUILT /* compare.sh's second build: other code, so another build id */
	printf("rebuilt ");
#endif
	printf("%lu\n", (unsigned long)sink);
	return 0;
}
