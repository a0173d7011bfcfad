// SPDX-License-Identifier: MIT
/* A shared library that multi.c loads with dlopen. */
static volatile double sink;

__attribute__((noinline)) void plugin_work(void)
{
	double x = sink;

	for (long i = 0; i < 120000000L; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

/* For server.c: burn in the library until its run ends (about 3 s by default). */
#include <time.h>
#include <unistd.h>

static double plugin_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void plugin_loop(void)
{
	double end = plugin_now() + 3.0, x = sink;

	while (plugin_now() < end) {
		for (int i = 0; i < 100000; i++)
			x = x * 1.0000001 + 1e-9;
		usleep(5000);
	}
	sink = x;
}
