// SPDX-License-Identifier: MIT
/*
 * Task names report must survive, and a string table that fills up, all inside one
 * task that must come out whole:
 *   Names/Outer     a 0.05 s spin around everything below     count 1, elapsed >= 0.05
 *   "a,b"           refused (comma): one warning; its end must not close Outer
 *   odd names       a quote, a newline, bytes that are not UTF-8, 2000 bytes long
 *   Fill_NNNN       4000 distinct names of 32 bytes: the 64 KiB table fills and the
 *                   rest are dropped, counted, and their ends close only themselves
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
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double s)
{
	double end = now() + s, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void task(amdDomainHandle d, const char *name)
{
	amdTaskBegin(d, 0, 0, amdStringHandleCreate(name));
	amdTaskEnd(d);
}

int main(void)
{
	amdDomainHandle d = amdDomainCreate("Names");
	char name[2001], fill[64];

	amdTaskBegin(d, 0, 0, amdStringHandleCreate("Outer"));
	task(d, "a,b");
	task(d, "a \"quoted\" name");
	task(d, "two\nlines");
	task(d, "not utf-8: \xff\xfe\xc3");
	memset(name, 'L', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	task(d, name);
	for (int i = 0; i < 4000; i++) {
		snprintf(fill, sizeof(fill), "Fill_%04d_xxxxxxxxxxxxxxxxxxxxxx", i);
		task(d, fill);
	}
	spin(0.05);
	amdTaskEnd(d);
	puts("odd_names done");
	return 0;
}
