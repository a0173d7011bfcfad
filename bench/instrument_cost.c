// SPDX-License-Identifier: MIT
/*
 * instrument_cost: what the instrumentation API costs the program that calls it (quoted in
 * the NOTES of AMDProfileController(3)). With clock_gettime(CLOCK_MONOTONIC) it times, as
 * a yardstick, N (default 10 million) pairs of calls to an empty function, then N
 * amdTaskBegin+amdTaskEnd pairs twice: "paced" (domain "Paced"), in batches of 30000 pairs
 * separated by untimed 25 ms sleeps so that a profiler can drain the 64Ki-record ring and
 * keep every record, and "burst" (domain "Burst"), back to back, where under a profiler
 * the ring overflows and the records that do not fit are dropped and counted (cheaper than
 * keeping them); last, 200 group-1 pause+resume pairs and 50 strict (group-2) pairs.
 * Build it from the repository root after `make` with
 *     mkdir -p build/bench && cc -O2 -o build/bench/instrument_cost \
 *       bench/instrument_cost.c -Iinclude -Lbuild/lib -Wl,-rpath,$PWD/build/lib \
 *       -Wl,-z,now -lAMDProfileController -lrt -pthread
 * (-z now keeps lazy symbol binding out of the short loops) and run it (a) as is, without
 * a profiler, (b) as `AMDUPROF_INSTRUMENT_ENABLE=0 build/bench/instrument_cost`, and (c) as
 * `build/bin/uprof collect -o /tmp/x build/bench/instrument_cost`; `uprof report -i
 * /tmp/x/uprof-*` then shows the dropped records as "Lost Task Records" (nearly all from
 * the burst; the paced pairs lose some only when the collector falls behind). An optional
 * argument sets N. Nothing passes or fails. In case (c) the times include the cost of the
 * 1 kHz sampling timer and of sharing the CPUs with the collector; on a busy machine, run
 * each case a few times.
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCH 30000	     /* pairs: 60000 records fit the 65536-record ring */
#define BATCH_GAP_NS 25000000 /* the collector drains every 10 ms at the latest */
#define TOGGLES 200	     /* 400 records fit the 1024-record pause ring */
#define STRICT_TOGGLES 50

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* the yardstick: two calls of an empty function the compiler cannot inline */
__attribute__((noinline)) static void empty(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static void (*volatile empty_fn)(void *) = empty;

static void gap(void)
{
	struct timespec ts = { 0, BATCH_GAP_NS };

	nanosleep(&ts, NULL);
}

/* ns spent in @pairs begin+end pairs, in batches of @batch (0: one batch) */
static double time_pairs(amdDomainHandle dom, amdStringHandle name, long pairs, long batch)
{
	double spent = 0;

	if (!batch)
		batch = pairs;
	for (long done = 0; done < pairs;) {
		long n = pairs - done < batch ? pairs - done : batch;
		double t0;

		if (done)
			gap();
		t0 = now_ns();
		for (long i = 0; i < n; i++) {
			amdTaskBegin(dom, 0, 0, name);
			amdTaskEnd(dom);
		}
		spent += now_ns() - t0;
		done += n;
	}
	return spent;
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? atol(argv[1]) : 10000000;
	/* two domains, so that records the burst drops cannot unbalance the paced pairs */
	amdDomainHandle dom_burst = amdDomainCreate("Burst"), dom_paced = amdDomainCreate("Paced");
	amdStringHandle name = amdStringHandleCreate("Pair");
	double t, burst, paced;
	int acked = 0;

	if (pairs <= 0) {
		fprintf(stderr, "usage: %s [pairs]\n", argv[0]);
		return 2;
	}
	time_pairs(dom_paced, name, 1000, 0); /* first use: setup, string registration */
	time_pairs(dom_burst, name, 1, 0);
	gap();
	paced = time_pairs(dom_paced, name, pairs, BATCH);
	gap();
	burst = time_pairs(dom_burst, name, pairs, 0);
	t = now_ns();
	for (long i = 0; i < pairs; i++) {
		empty_fn(dom_paced);
		empty_fn(dom_paced);
	}
	t = now_ns() - t;
	printf("baseline, two empty calls: %.1f ns per pair\n", t / pairs);
	printf("task begin+end, paced: %ld pairs in %.3f s: %.1f ns per pair\n", pairs,
	       paced / 1e9, paced / pairs);
	printf("task begin+end, burst: %ld pairs in %.3f s: %.1f ns per pair\n", pairs,
	       burst / 1e9, burst / pairs);

	gap();
	t = now_ns();
	for (int i = 0; i < TOGGLES; i++) {
		amdProfilePause();
		amdProfileResume();
	}
	t = now_ns() - t;
	printf("amdProfilePause/Resume (group 1): %.1f ns per call\n", t / (2 * TOGGLES));

	gap();
	t = now_ns();
	for (int i = 0; i < STRICT_TOGGLES; i++)
		acked += amdProfileStrictPause() + amdProfileStrictResume();
	t = now_ns() - t;
	printf("amdProfileStrictPause/Resume (group 2): %.2f us per call, %d of %d acknowledged\n",
	       t / 1e3 / (2 * STRICT_TOGGLES), acked, 2 * STRICT_TOGGLES);
	return 0;
}
