// SPDX-License-Identifier: MIT
/*
 * clock_cost: ns per clock read, back to back, of what the OMPT tool can stamp with:
 * clock_gettime(CLOCK_MONOTONIC) (the vDSO; on a kvm-clock guest, its pvclock read) and
 * the TSC (rdtsc, rdtscp). The tool stamps with the TSC only where the kernel keeps
 * CLOCK_MONOTONIC on it (lib/instrument/ctlpage.h), else with clock_gettime: once per
 * callback, so on a guest the clock is a fixed part of every callback's cost
 * (bench/README.md, "OpenMP in a real program"). 7 rounds of 1,000,000 reads each, timed
 * by the thread's CPU time (a loaded machine's preemptions are not in it).
 *     gcc -O2 -o build/bench/clock_cost bench/tools/clock_cost.c && build/bench/clock_cost
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

#define READS 1000000

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static uint64_t cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

int main(void)
{
	volatile uint64_t sink = 0;
	unsigned int aux;

	for (int round = 0; round < 7; round++) {
		uint64_t a = cpu_ns(), b, c, d;

		for (int i = 0; i < READS; i++)
			sink += mono_ns();
		b = cpu_ns();
		for (int i = 0; i < READS; i++)
			sink += __rdtsc();
		c = cpu_ns();
		for (int i = 0; i < READS; i++)
			sink += __rdtscp(&aux);
		d = cpu_ns();
		printf("ns per read: clock_gettime %.1f, rdtsc %.1f, rdtscp %.1f\n",
		       (double)(b - a) / READS, (double)(c - b) / READS, (double)(d - c) / READS);
	}
	return 0;
}
