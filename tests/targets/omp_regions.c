// SPDX-License-Identifier: MIT
/*
 * OpenMP programs with known answers for tests/e2e/openmp.sh. All work is CPU time of
 * the thread doing it (CLOCK_THREAD_CPUTIME_ID), so the ratios hold on a loaded machine;
 * waits are made by one thread holding what another needs for a known CPU time.
 *
 *   omp_regions balance [R]   R rounds (default 10) of: an imbalanced region (thread 0
 *                             works 3 U, thread 1 U; U = 20 ms), then a balanced
 *                             region with a static for (2 threads, 40 iterations of 1 ms)
 *   omp_regions mixed         nested regions (2 x 2), 8 tasks and a taskwait, a lock and a
 *                             critical section each held 30 ms while the other thread
 *                             waits, a dynamic-schedule loop of 64 iterations
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

/* Burn @ms of this thread's CPU time. */
static double work(double ms)
{
	double end = cpu_ms() + ms, x = 1;

	while (cpu_ms() < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

/* Each thread's CPU time inside the two regions, as the program itself measures it, is
 * printed: "cpu_ms imbalanced=<ms> balanced=<ms>". */
static double balance(int rounds)
{
	double sum = 0, cpu[2] = { 0, 0 };

	for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(2) reduction(+ : sum)
		{
			double c0 = cpu_ms(), d;

			sum += work(omp_get_thread_num() == 0 ? 60 : 20);
			d = cpu_ms() - c0;
#pragma omp atomic
			cpu[0] += d;
		}
#pragma omp parallel num_threads(2) reduction(+ : sum)
		{
			double c0 = cpu_ms(), d;

#pragma omp for schedule(static)
			for (int i = 0; i < 40; i++)
				sum += work(1);
			d = cpu_ms() - c0;
#pragma omp atomic
			cpu[1] += d;
		}
	}
	printf("cpu_ms imbalanced=%.1f balanced=%.1f\n", cpu[0], cpu[1]);
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

static double tasks(void)
{
	double sum = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
		for (int i = 0; i < 8; i++) {
#pragma omp task shared(sum)
			{
				double v = work(5);
#pragma omp atomic
				sum += v;
			}
		}
#pragma omp taskwait
	}
	return sum;
}

/* Thread 0 holds the lock (then the critical section) for 30 ms of CPU; thread 1 asks
 * for it once thread 0 has it, and waits. */
static double contended(void)
{
	omp_lock_t lock;
	int held = 0, in_critical = 0;
	double sum = 0;

	omp_init_lock(&lock);
#pragma omp parallel num_threads(2) reduction(+ : sum)
	{
		if (omp_get_thread_num() == 0) {
			omp_set_lock(&lock);
			__atomic_store_n(&held, 1, __ATOMIC_RELEASE);
			sum += work(30);
			omp_unset_lock(&lock);
		} else {
			while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
				;
			omp_set_lock(&lock);
			omp_unset_lock(&lock);
		}
#pragma omp barrier
		if (omp_get_thread_num() == 0) {
#pragma omp critical(held30)
			{
				__atomic_store_n(&in_critical, 1, __ATOMIC_RELEASE);
				sum += work(30);
			}
		} else {
			while (!__atomic_load_n(&in_critical, __ATOMIC_ACQUIRE))
				;
#pragma omp critical(held30)
			sum += 1;
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
