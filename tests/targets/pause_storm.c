// SPDX-License-Identifier: MIT
/*
 * A pause storm (issue 12, item 5; tests/e2e/pause_storm.sh): ROUNDS rounds of
 *   storm       PAIRS amdProfilePause/amdProfileResume pairs back to back (far more than
 *               a control page's pause ring holds: records are dropped);
 *   quiet_work  QUIET_MS of work (of its CPU time), running;
 *   paused_work 100 ms of work (CPU time) between one pause and its resume.
 * Every pause is bracketed by CLOCK_MONOTONIC readings taken just before the pause call
 * and just after its resume: the real paused intervals lie inside those brackets. They
 * go to OUT (binary: int64 before, int64 after, in call order); stdout says how many.
 *   pause_storm OUT ROUNDS PAIRS QUIET_MS
 */
#include <AMDProfileController.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double sink;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* This thread's CPU time: the work is MS of it, not of wall time, so that its samples do not
 * depend on what else the machine runs (a loaded machine gave quiet_work 48 samples of a
 * wall-clock 600 ms). */
static int64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline __attribute__((always_inline)) void spin_ms(int ms)
{
	int64_t end = cpu_ns() + (int64_t)ms * 1000000;
	double x = sink;

	while (cpu_ns() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void quiet_work(int ms) { spin_ms(ms); }
__attribute__((noinline)) void paused_work(int ms) { spin_ms(ms); }

int main(int argc, char **argv)
{
	int rounds, quiet_ms;
	long pairs, n = 0;
	int64_t *log;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: pause_storm OUT ROUNDS PAIRS QUIET_MS\n");
		return 2;
	}
	rounds = atoi(argv[2]);
	pairs = atol(argv[3]);
	quiet_ms = atoi(argv[4]);
	log = malloc(sizeof(*log) * 2 * (size_t)rounds * (size_t)(pairs + 1));
	if (!log)
		return 1;
	for (int r = 0; r < rounds; r++) {
		for (long i = 0; i < pairs; i++) {
			log[2 * n] = now_ns();
			amdProfilePause();
			amdProfileResume();
			log[2 * n++ + 1] = now_ns();
		}
		quiet_work(quiet_ms);
		log[2 * n] = now_ns();
		amdProfilePause();
		paused_work(100);
		amdProfileResume();
		log[2 * n++ + 1] = now_ns();
	}
	out = fopen(argv[1], "wb");
	if (!out || fwrite(log, sizeof(*log) * 2, (size_t)n, out) != (size_t)n || fclose(out))
		return 1;
	printf("pauses %ld\n", n);
	free(log);
	return 0;
}
