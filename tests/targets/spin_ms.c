// SPDX-License-Identifier: MIT
/* spin_ms MS: burns MS ms of CPU time in spin_ms_work, then exits 0. */
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void spin_ms_work(double ms)
{
	double end = cpu_ms() + ms, x = sink;

	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	spin_ms_work(argc > 1 ? atof(argv[1]) : 100);
	return 0;
}
