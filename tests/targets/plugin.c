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
