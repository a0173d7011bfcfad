// SPDX-License-Identifier: MIT
/*
 * ring_share [ROUNDS]: what a record on the control page's task ring costs when two
 * threads write it at once (the ring's head, claimed by CAS, and its 32-byte slots, two to
 * a cache line, move between the CPUs) against one thread alone: the OMPT tool's records
 * in a real program are written by every thread of a team at about the same time, which
 * bench/ompt_cost.c's one warm thread never sees (bench/README.md, "OpenMP in a real
 * program"). ROUNDS (default 400) batches of B amdTaskBegin+amdTaskEnd pairs, timed with
 * the TSC; one thread alone (pinned to CPU 0), then two (pinned to CPUs 0 and 1) starting
 * each batch together, of which only the batches whose two runs overlapped by 90 % or more
 * count (on a loaded machine one of them is often descheduled). Prints the median and
 * 10th percentile ns per record, 4 times. Every 10th round sleeps 20 ms so that collect
 * drains the ring (a full ring drops records, which is cheaper, not dearer). Build from
 * the repository root after `make`:
 *     cc -O2 -o build/bench/ring_share bench/tools/ring_share.c -Iinclude -Lbuild/lib \
 *        -Wl,-rpath,$PWD/build/lib -Wl,-z,now -lAMDProfileController -lrt -pthread
 * and run it as `build/bin/uprof collect -o /tmp/rs build/bench/ring_share`.
 */
#define _GNU_SOURCE
#include <AMDProfileController.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>
#define B 2000
#define MAXR 4000
static amdDomainHandle dom;
static amdStringHandle nm;
static pthread_barrier_t bar;
static int nthr, rounds;
static uint64_t t0[2][MAXR], t1[2][MAXR];
static double ghz;
static void *work(void *arg)
{
	long me = (long)arg;
	cpu_set_t c;
	CPU_ZERO(&c);
	CPU_SET(me, &c);
	sched_setaffinity(0, sizeof c, &c);
	for (int r = 0; r < rounds; r++) {
		pthread_barrier_wait(&bar);
		t0[me][r] = __rdtsc();
		for (int i = 0; i < B; i++) {
			amdTaskBegin(dom, 0, 0, nm);
			amdTaskEnd(dom);
		}
		t1[me][r] = __rdtsc();
		pthread_barrier_wait(&bar);
		if (me == 0 && r % 10 == 9) {
			struct timespec s = { 0, 20000000 };
			nanosleep(&s, 0);
		} /* let collect drain */
	}
	return 0;
}
static int cmpd(const void *a, const void *b)
{
	double x = *(double *)a, y = *(double *)b;
	return x < y ? -1 : x > y;
}
static void run(int n, double *med, double *p10, int *kept)
{
	pthread_t t[2];
	static double v[2 * MAXR];
	int k = 0;
	nthr = n;
	pthread_barrier_init(&bar, 0, n);
	for (long i = 0; i < n; i++)
		pthread_create(&t[i], 0, work, (void *)i);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], 0);
	pthread_barrier_destroy(&bar);
	for (int r = 0; r < rounds; r++) {
		if (n == 2) {
			uint64_t lo = t0[0][r] > t0[1][r] ? t0[0][r] : t0[1][r],
				 hi = t1[0][r] < t1[1][r] ? t1[0][r] : t1[1][r];
			uint64_t l0 = t1[0][r] - t0[0][r], l1 = t1[1][r] - t0[1][r],
				 mx = l0 > l1 ? l0 : l1;
			if (hi <= lo || (hi - lo) * 10 < mx * 9)
				continue;
			v[k++] = l0 / ghz / (2 * B);
			v[k++] = l1 / ghz / (2 * B);
		} else
			v[k++] = (t1[0][r] - t0[0][r]) / ghz / (2 * B);
	}
	qsort(v, k, sizeof *v, cmpd);
	*med = k ? v[k / 2] : 0;
	*p10 = k ? v[k / 10] : 0;
	*kept = k;
}
int main(int argc, char **argv)
{
	struct timespec a, b;
	uint64_t x, y;
	rounds = argc > 1 ? atoi(argv[1]) : 400;
	if (rounds > MAXR)
		rounds = MAXR;
	clock_gettime(CLOCK_MONOTONIC, &a);
	x = __rdtsc();
	struct timespec s = { 0, 200000000 };
	nanosleep(&s, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	y = __rdtsc();
	ghz = (y - x) / ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec));
	dom = amdDomainCreate("ring");
	nm = amdStringHandleCreate("pair");
	if (ghz <= 0)
		return fprintf(stderr, "ring_share: no TSC rate\n"), 1;
	for (int k = 0; k < 4; k++) {
		double m1, p1, m2, p2;
		int k1, k2;
		run(1, &m1, &p1, &k1);
		run(2, &m2, &p2, &k2);
		printf("ns per record: one thread %.1f (p10 %.1f, %d batches); two at once %.1f (p10 %.1f, %d thread-batches)\n",
		       m1, p1, k1, m2, p2, k2);
	}
}
