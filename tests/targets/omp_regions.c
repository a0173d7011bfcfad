// SPDX-License-Identifier: MIT
/*
 * OpenMP programs with known answers for tests/e2e/openmp.sh. All work is CPU time of
 * the thread doing it (CLOCK_THREAD_CPUTIME_ID), so the ratios hold on a loaded machine;
 * waits are made by one thread holding what another needs for a known CPU time.
 *
 *   omp_regions balance [R]   R rounds (default 10) of: an imbalanced region (thread 0
 *                             works 3 U, thread 1 U; U = 20 ms), then a balanced
 *                             region with a static for (2 threads, 40 iterations of 1 ms)
 *   omp_regions mixed         nested regions (2 x 2), 9 tasks and two taskwaits (one
 *                             waiting 30 ms for a task), a lock and a critical section
 *                             each held 30 ms while the other thread waits, a
 *                             dynamic-schedule loop of 64 iterations; prints the wall
 *                             times of the holds ("hold_ms lock= critical= task="), of
 *                             the waits as the waiter saw them ("waited_ms ...") and
 *                             from the waiter's ask to the holder's letting go
 *                             ("after_ask_ms ...")
 *   omp_regions tiny [N]      N (default 100000) empty parallel regions of 2 threads
 * Built with clang -fopenmp (LLVM libomp) and with gcc -fopenmp (libgomp).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Burn @ms of this thread's CPU time. */
static double work(double ms)
{
	double end = cpu_ms() + ms, x = 1;

	while (cpu_ms() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

/* What the program itself measures is printed, for the test to hold the tool's figures
 * against: each thread's CPU time inside the two regions ("cpu_ms imbalanced=<ms>
 * balanced=<ms>"), and in the imbalanced one the wall time from before the region to after
 * it, each thread's wall time in its work, and thread 1's from the end of its work to the
 * end of the region ("wall_ms elapsed= work0= work1= wait1="); how much later than thread
 * 1 thread 0 ended its work (summed over the rounds: thread 1 waits at least that long in
 * the barrier), and thread 0's wall time from the end of its work to the end of the region
 * ("wall_ms end0_after_end1= wait0="); and each thread's wall time from its first balanced
 * iteration to the end of its last ("wall_ms balanced work0= work1="). On a loaded machine
 * the threads may not run at one rate, and the 3:1 of CPU time is then not 3:1 of wall
 * time. */
static double balance(int rounds)
{
	double sum = 0, cpu[2] = { 0, 0 }, el = 0, w[2] = { 0, 0 }, wait1 = 0, wb[2] = { 0, 0 };
	double wait0 = 0, lag = 0;

	for (int r = 0; r < rounds; r++) {
		double t0 = wall_ms(), done[2] = { 0, 0 }, t1;

#pragma omp parallel num_threads(2) reduction(+ : sum)
		{
			int me = omp_get_thread_num();
			double c0 = cpu_ms(), b = wall_ms(), d;

			sum += work(me == 0 ? 60 : 20);
			d = cpu_ms() - c0;
			w[me] += wall_ms() - b;
			done[me] = wall_ms();
#pragma omp atomic
			cpu[0] += d;
		}
		t1 = wall_ms();
		el += t1 - t0;
		wait1 += t1 - done[1];
		wait0 += t1 - done[0];
		lag += done[0] - done[1];
#pragma omp parallel num_threads(2) reduction(+ : sum)
		{
			int me = omp_get_thread_num();
			double c0 = cpu_ms(), d, first = 0, last = 0;

#pragma omp for schedule(static)
			for (int i = 0; i < 40; i++) {
				if (!first)
					first = wall_ms();
				sum += work(1);
				last = wall_ms();
			}
			d = cpu_ms() - c0;
			wb[me] += last - first;
#pragma omp atomic
			cpu[1] += d;
		}
	}
	printf("cpu_ms imbalanced=%.1f balanced=%.1f\n", cpu[0], cpu[1]);
	printf("wall_ms elapsed=%.1f work0=%.1f work1=%.1f wait1=%.1f\n", el, w[0], w[1], wait1);
	printf("wall_ms end0_after_end1=%.1f wait0=%.1f\n", lag, wait0);
	printf("wall_ms balanced work0=%.1f work1=%.1f\n", wb[0], wb[1]);
	return sum;
}

static double nested(void)
{
	double sum = 0;

	omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : sum)
	{
#pragma omp parallel num_threads(2) reduction(+ : sum)
		sum += work(5);
	}
	return sum;
}

/* wall ms of the lock, the critical section and the awaited task: how long each was held
 * (run), how long the other thread waited for it, as the waiter measures it from just
 * before its call to just after, and how long after the waiter's "before" the holder let
 * go (after_ask). The holder lets go only once the waiter has said it is asking, and then
 * after 30 ms of its own CPU, so the tool's wait lies between after_ask and waited
 * whatever the scheduler does: the waiter is asking before after_ask's start and is
 * still waiting when the holder lets go. */
static double hold[3], waited[3], after_ask[3];
/* file scope: gcc passes a task's shared local that the task only reads by value, which
 * would freeze the ask's time at the task's creation */
static double asked[3];
static int asking[3];

/* Spin until *flag is set (by the other thread). */
static void await_flag(int *flag)
{
	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		;
}

/* 8 tasks and a taskwait; then, in a second region, one task that thread 1 runs, once
 * the single thread has seen it start and said it is waiting, for 30 ms of CPU while the
 * single thread waits for it in a taskwait. */
static double tasks(void)
{
	double sum = 0;
	int started = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
		for (int i = 0; i < 8; i++) {
#pragma omp task shared(sum)
			{
				double v = work(2);
#pragma omp atomic
				sum += v;
			}
		}
#pragma omp taskwait
	}
	/* a region of its own: its taskwait time is this one wait */
#pragma omp parallel num_threads(2)
#pragma omp single
	{
#pragma omp task shared(sum, started)
		{
			double b = wall_ms(), e;

			__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
			await_flag(&asking[2]);
			sum += work(30);
			e = wall_ms();
			hold[2] = e - b;
			after_ask[2] = e - asked[2];
		}
		await_flag(&started);
		asked[2] = wall_ms();
		__atomic_store_n(&asking[2], 1, __ATOMIC_RELEASE);
#pragma omp taskwait
		waited[2] = wall_ms() - asked[2];
	}
	return sum;
}

/* Thread 0 takes the lock (then the critical section); thread 1 asks for it once thread
 * 0 has it and says so; thread 0 holds it from then on for 30 ms of its CPU. */
static double contended(void)
{
	omp_lock_t lock;
	int held = 0, in_critical = 0;
	double sum = 0;

	omp_init_lock(&lock);
#pragma omp parallel num_threads(2) reduction(+ : sum)
	{
		if (omp_get_thread_num() == 0) {
			double b;

			omp_set_lock(&lock);
			b = wall_ms();
			__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
			await_flag(&asking[0]);
			sum += work(30);
			hold[0] = wall_ms() - b;
			after_ask[0] = wall_ms() - asked[0];
			omp_unset_lock(&lock);
		} else {
			await_flag(&held);
			asked[0] = wall_ms();
			__atomic_store_n(&asking[0], 1, __ATOMIC_RELEASE);
			omp_set_lock(&lock);
			waited[0] = wall_ms() - asked[0];
			omp_unset_lock(&lock);
		}
#pragma omp barrier
		if (omp_get_thread_num() == 0) {
#pragma omp critical(held30)
			{
				double b = wall_ms();

				__atomic_store_n(&in_critical, 1, __ATOMIC_RELEASE);
				await_flag(&asking[1]);
				sum += work(30);
				hold[1] = wall_ms() - b;
				after_ask[1] = wall_ms() - asked[1];
			}
		} else {
			await_flag(&in_critical);
			asked[1] = wall_ms();
			__atomic_store_n(&asking[1], 1, __ATOMIC_RELEASE);
#pragma omp critical(held30)
			waited[1] = wall_ms() - asked[1];
		}
	}
	omp_destroy_lock(&lock);
	return sum;
}

static double dynamic(void)
{
	double sum = 0;

#pragma omp parallel for num_threads(2) schedule(dynamic, 4) reduction(+ : sum)
	for (int i = 0; i < 64; i++)
		sum += work(0.5);
	return sum;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "balance";
	double sum = 0;

	if (!strcmp(mode, "balance")) {
		sum = balance(argc > 2 ? atoi(argv[2]) : 10);
	} else if (!strcmp(mode, "mixed")) {
		sum = nested() + tasks() + contended() + dynamic();
		printf("hold_ms lock=%.1f critical=%.1f task=%.1f\n", hold[0], hold[1], hold[2]);
		printf("waited_ms lock=%.1f critical=%.1f taskwait=%.1f\n", waited[0], waited[1],
		       waited[2]);
		printf("after_ask_ms lock=%.1f critical=%.1f taskwait=%.1f\n", after_ask[0],
		       after_ask[1], after_ask[2]);
	} else if (!strcmp(mode, "tiny")) {
		long n = argc > 2 ? atol(argv[2]) : 100000;

		for (long i = 0; i < n; i++) {
#pragma omp parallel num_threads(2)
			__asm__ __volatile__("" ::: "memory");
		}
		sum = 1;
	} else {
		fprintf(stderr, "usage: omp_regions balance [R] | mixed | tiny [N]\n");
		return 2;
	}
	printf("omp_regions %s: %s\n", mode, sum > 0 ? "done" : "?");
	return 0;
}
