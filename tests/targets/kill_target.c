// SPDX-License-Identifier: MIT
/*
 * The target of tests/e2e/kill_points.sh (issue 12, Must show 4): an instrumented program
 * that keeps uprof busy (a strict pause/resume pair and a task every millisecond or so,
 * so a kill lands in strict calls, drains and task records) and measures its own strict
 * calls once uprof is gone.
 *   kill_target GO OUT N   until GO exists: the busy loop; then N strict pause/resume
 *                          pairs, each call timed with CLOCK_MONOTONIC and its thread's
 *                          context switches counted (getrusage): writes "calls C failed
 *                          F blocked B max_ns M" to OUT and exits (60 s at most).
 *                          blocked: calls that waited (a voluntary switch: the futex
 *                          wait for a profiler); max_ns: the longest call the scheduler
 *                          did not take the CPU from (on a loaded machine any call may
 *                          be preempted: that is no wait of ours)
 *   kill_target - MARK S   the busy loop for S seconds, with 20 amdProfilePause/Resume
 *                          pairs more each time round (calls for collect's end to write
 *                          out), then makes the file MARK and exits
 * The first form writes its pid to OUT.pid first.
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <AMDProfileController.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void work(int64_t ns)
{
	int64_t end = now_ns() + ns;
	double x = sink;

	while (now_ns() < end)
		for (int i = 0; i < 200; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	amdDomainHandle d = amdDomainCreate("Kill");
	amdStringHandle t = amdStringHandleCreate("Busy");
	bool timed = argc == 4 && strcmp(argv[1], "-");
	int64_t start = now_ns(), limit;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: kill_target GO OUT N | kill_target - MARK SECONDS\n");
		return 2;
	}
	limit = timed ? 60000000000LL : (int64_t)(atof(argv[3]) * 1e9);
	if (timed) {
		char name[4096];

		snprintf(name, sizeof(name), "%s.pid", argv[2]);
		f = fopen(name, "w");
		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	while (now_ns() - start < limit && !(timed && !access(argv[1], F_OK))) {
		amdTaskBegin(d, 0, 0, t);
		amdProfileStrictPause();
		work(200000);
		amdProfileStrictResume();
		work(800000);
		amdTaskEnd(d);
		for (int i = 0; !timed && i < 20; i++) {
			amdProfilePause();
			amdProfileResume();
		}
	}
	if (!timed) {
		f = fopen(argv[2], "w");
		if (f)
			fclose(f);
	}
	if (timed) {
		int n = atoi(argv[3]), failed = 0, blocked = 0;
		int64_t max = 0;

		for (int i = 0; i < 2 * n; i++) {
			struct rusage r0, r1;
			int64_t t0, dt;
			bool ok;

			getrusage(RUSAGE_THREAD, &r0);
			t0 = now_ns();
			ok = i % 2 ? amdProfileStrictResume() : amdProfileStrictPause();
			dt = now_ns() - t0;
			getrusage(RUSAGE_THREAD, &r1);
			failed += !ok;
			blocked += r1.ru_nvcsw != r0.ru_nvcsw;
			if (r1.ru_nivcsw == r0.ru_nivcsw && dt > max)
				max = dt;
		}
		f = fopen(argv[2], "w");
		if (!f)
			return 1;
		fprintf(f, "calls %d failed %d blocked %d max_ns %lld\n", 2 * n, failed, blocked,
			(long long)max);
		fclose(f);
	}
	return 0;
}
