// SPDX-License-Identifier: MIT
/*
 * Waits of known types and lengths for tests/e2e/omp_waits.sh: five parallel regions of
 * NT threads, each made to wait in one way, one region per function:
 *   explicit_barrier   thread 0 sleeps HOLD ms, then all meet at #pragma omp barrier
 *   critical_wait      thread 0 holds a critical section HOLD ms; the others ask for it
 *                      once it is held
 *   lock_wait          the same with an omp_lock_t
 *   taskwait_wait      thread 0 makes a task sleeping HOLD ms, waits (outside OpenMP) for
 *                      another thread to start it, then waits in #pragma omp taskwait
 *   workshare_wait     a static for of NT iterations, one per thread, the first sleeping
 *                      HOLD ms: the others wait in the loop's closing implicit barrier;
 *                      "closing" bounds each thread's wait in the region's own closing
 *                      barrier from above
 *   taskgroup_wait     as taskwait_wait, thread 0 waiting at the end of a taskgroup
 *   ordered_wait       an ordered loop of NT iterations, one per thread, the first
 *                      holding its ordered section HOLD ms: the others wait their turn
 * The program measures each wait itself (omp_get_wtime around the construct) and prints,
 * per region, one line per thread:
 *   wait <type> line=<the region's pragma line> thread=<n> ms=<what it waited>
 * Sleeping, not spinning, so that the waits are wall time a loaded machine keeps. A wait
 * of thread 0 for a task it ran itself is no wait: "taskwait ran_by=<n>" says who ran it.
 */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NT 4
#define MAXT 64

static int hold_ms = 300;

static void sleep_ms(double ms)
{
	struct timespec ts = { (time_t)(ms / 1e3), (long)((ms - (time_t)(ms / 1e3) * 1e3) * 1e6) };

	while (nanosleep(&ts, &ts))
		;
}

static void put(const char *type, int line, const double *waited, int n)
{
	for (int i = 0; i < n; i++)
		printf("wait %s line=%d thread=%d ms=%.3f\n", type, line, i, waited[i] * 1e3);
}

static void explicit_barrier(void)
{
	double waited[MAXT] = { 0 };
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		int me = omp_get_thread_num();
		double t0;

		if (me == 0)
			sleep_ms(hold_ms);
		t0 = omp_get_wtime();
#pragma omp barrier
		waited[me] = omp_get_wtime() - t0;
	}
	put("explicit", line, waited, NT);
}

static void critical_wait(void)
{
	double waited[MAXT] = { 0 };
	atomic_int held = 0;
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		int me = omp_get_thread_num();
		double t0;

		while (me != 0 && !atomic_load(&held))
			sleep_ms(0.1);
		t0 = omp_get_wtime();
#pragma omp critical(waits_big)
		{
			waited[me] = omp_get_wtime() - t0;
			if (me == 0) {
				atomic_store(&held, 1);
				sleep_ms(hold_ms);
			}
		}
	}
	put("critical", line, waited, NT);
}

static void lock_wait(void)
{
	double waited[MAXT] = { 0 };
	atomic_int held = 0;
	omp_lock_t lock;

	omp_init_lock(&lock);
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		int me = omp_get_thread_num();
		double t0;

		while (me != 0 && !atomic_load(&held))
			sleep_ms(0.1);
		t0 = omp_get_wtime();
		omp_set_lock(&lock);
		waited[me] = omp_get_wtime() - t0;
		if (me == 0) {
			atomic_store(&held, 1);
			sleep_ms(hold_ms);
		}
		omp_unset_lock(&lock);
	}
	omp_destroy_lock(&lock);
	put("lock", line, waited, NT);
}

static void taskwait_wait(void)
{
	double waited[MAXT] = { 0 };
	atomic_int started = 0, ran_by = -1;
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		if (omp_get_thread_num() == 0) {
			double t0, give_up = omp_get_wtime() + 2.0;

#pragma omp task
			{
				atomic_store(&ran_by, omp_get_thread_num());
				atomic_store(&started, 1);
				sleep_ms(hold_ms);
			}
			/* let another thread take it (they wait at the region's end for tasks) */
			while (!atomic_load(&started) && omp_get_wtime() < give_up)
				sleep_ms(0.1);
			t0 = omp_get_wtime();
#pragma omp taskwait
			waited[0] = omp_get_wtime() - t0;
		}
	}
	printf("taskwait ran_by=%d\n", atomic_load(&ran_by));
	put("taskwait", line, waited, 1);
}

static void taskgroup_wait(void)
{
	double waited[MAXT] = { 0 };
	atomic_int started = 0, ran_by = -1;
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		if (omp_get_thread_num() == 0) {
			double t0, give_up = omp_get_wtime() + 2.0;

#pragma omp taskgroup
			{
#pragma omp task
				{
					atomic_store(&ran_by, omp_get_thread_num());
					atomic_store(&started, 1);
					sleep_ms(hold_ms);
				}
				while (!atomic_load(&started) && omp_get_wtime() < give_up)
					sleep_ms(0.1);
				t0 = omp_get_wtime();
			}
			waited[0] = omp_get_wtime() - t0;
		}
	}
	printf("taskgroup ran_by=%d\n", atomic_load(&ran_by));
	put("taskgroup", line, waited, 1);
}

static void ordered_wait(void)
{
	double waited[MAXT] = { 0 };
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
#pragma omp for ordered schedule(static, 1)
		for (int i = 0; i < NT; i++) {
			double t0 = omp_get_wtime();

#pragma omp ordered
			{
				waited[omp_get_thread_num()] = omp_get_wtime() - t0;
				if (i == 0)
					sleep_ms(hold_ms);
			}
		}
	}
	put("ordered", line, waited, NT);
}

static void workshare_wait(void)
{
	double waited[MAXT] = { 0 }, done[MAXT] = { 0 }, reach[MAXT] = { 0 }, after;
	int line = __LINE__ + 1;
#pragma omp parallel num_threads(NT)
	{
		int me = omp_get_thread_num();

#pragma omp for schedule(static, 1)
		for (int i = 0; i < NT; i++) {
			if (i == 0)
				sleep_ms(hold_ms);
			done[omp_get_thread_num()] = omp_get_wtime();
		}
		waited[me] = omp_get_wtime() - done[me];
		reach[me] = omp_get_wtime();
	}
	after = omp_get_wtime();
	put("workshare", line, waited, NT);
	/* the region's closing barrier, at most: from a thread's reaching it to the region's
	 * end (a preempted thread makes the others wait there; libomp 14 calls both
	 * barriers "implicit") */
	for (int i = 0; i < NT; i++)
		waited[i] = after - reach[i];
	put("closing", line, waited, NT);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		hold_ms = atoi(argv[1]);
	explicit_barrier();
	critical_wait();
	lock_wait();
	taskwait_wait();
	workshare_wait();
	taskgroup_wait();
	ordered_wait();
	printf("threads=%d hold_ms=%d\n", NT, hold_ms);
	return 0;
}
