// SPDX-License-Identifier: MIT
/*
 * A known answer for hot functions per OpenMP state and for the late thread
 * (tests/e2e/omp_hot.sh). R rounds (default 8) of two regions of 2 threads:
 *   region 1  thread 0 runs slow_part() for 3 U of its CPU time, thread 1 fast_part() for
 *             U (U = 20 ms), then an explicit barrier: thread 1 waits there for thread 0
 *   region 2  both threads run even_part() for U
 * The program measures itself and prints, for the test to hold the report against:
 *   cpu_ms slow=<ms> fast=<ms> even=<ms> barrier0=<ms> barrier1=<ms>
 *       each function's CPU time, summed over threads and rounds, and each thread's CPU
 *       time inside the explicit barrier (the runtime spins there: KMP_BLOCKTIME)
 *   late last0=<n> last1=<n> late_ms=<ms> slow_in_window=<fraction>
 *       how often each thread arrived last at the explicit barrier (its own wall clock
 *       just before it), the summed wall time by which the last one arrived after the
 *       other, and the share of that time thread 0 spent inside slow_part()
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_ms(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Each function spins inline: a shared helper would be the hot function of all three.
 * The clock is read every ~0.1 ms, so that its own cost (the kernel's, in a VM) stays a
 * small part of each function's time. */
#define SPIN(ms)                                                                  \
	do {                                                                      \
		double end_ = clock_ms(CLOCK_THREAD_CPUTIME_ID) + (ms), x_ = 1;   \
		while (clock_ms(CLOCK_THREAD_CPUTIME_ID) < end_)                  \
			for (int i_ = 0; i_ < 50000; i_++)                         \
				x_ = x_ * 1.0000001 + 1e-9;                       \
		sink += x_;                                                       \
	} while (0)

static volatile double sink;

static __attribute__((noinline)) void slow_part(double ms)
{
	SPIN(ms);
}

static __attribute__((noinline)) void fast_part(double ms)
{
	SPIN(ms);
}

static __attribute__((noinline)) void even_part(double ms)
{
	SPIN(ms);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 8;
	double u = 20, cpu[3] = { 0, 0, 0 }, bar[2] = { 0, 0 }, late = 0, inside = 0;
	int last[2] = { 0, 0 };

	for (int r = 0; r < rounds; r++) {
		double arrive[2] = { 0, 0 }, s0b = 0, s0e = 0;

#pragma omp parallel num_threads(2)
		{
			int me = omp_get_thread_num();
			double c = clock_ms(CLOCK_THREAD_CPUTIME_ID), w = clock_ms(CLOCK_MONOTONIC), d;

			if (me == 0)
				slow_part(3 * u);
			else
				fast_part(u);
			d = clock_ms(CLOCK_THREAD_CPUTIME_ID);
			arrive[me] = clock_ms(CLOCK_MONOTONIC);
			if (me == 0) {
				s0b = w;
				s0e = arrive[0];
			}
#pragma omp atomic
			cpu[me == 0 ? 0 : 1] += d - c;
#pragma omp barrier
			d = clock_ms(CLOCK_THREAD_CPUTIME_ID) - d;
#pragma omp atomic
			bar[me] += d;
		}
		{
			int l = arrive[0] >= arrive[1] ? 0 : 1;
			double first = arrive[1 - l];
			double lo = s0b > first ? s0b : first, hi = s0e < arrive[l] ? s0e : arrive[l];

			last[l]++;
			late += arrive[l] - first;
			if (l == 0 && hi > lo)
				inside += hi - lo;
		}
#pragma omp parallel num_threads(2)
		{
			double c = clock_ms(CLOCK_THREAD_CPUTIME_ID);

			even_part(u);
#pragma omp atomic
			cpu[2] += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c;
		}
	}
	printf("cpu_ms slow=%.3f fast=%.3f even=%.3f barrier0=%.3f barrier1=%.3f\n", cpu[0], cpu[1],
	       cpu[2], bar[0], bar[1]);
	printf("late last0=%d last1=%d late_ms=%.3f slow_in_window=%.4f\n", last[0], last[1], late,
	       late > 0 ? inside / late : 0);
	return 0;
}
