// SPDX-License-Identifier: MIT
/* Works for a while, then dies of SIGSEGV: the session must still be complete. */
#include <signal.h>
#include <stdio.h>

static volatile double sink;

__attribute__((noinline)) void work_before_crash(void)
{
	double x = sink;

	for (long i = 0; i < 150000000L; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(void)
{
	volatile int *p = (int *)16;

	work_before_crash();
	fflush(stdout);
	*p = 1;
	return 0;
}
