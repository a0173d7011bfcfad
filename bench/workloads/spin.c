/*
 * spin: CPU-bound benchmark workload for bench/run.sh.
 *
 *   spin <threads> <work>
 *
 * Starts <threads> threads (1..8); each one runs <work> million iterations of a
 * dependent floating-point recurrence in its OWN noinline function (burn0 ..
 * burn7), so a profiler should attribute ~100/<threads> % of the samples to
 * each burnN.  The functions differ in their constants and are marked noipa,
 * so GCC can neither merge them (-fipa-icf) nor hoist or fold the loop: every
 * iteration depends on the previous one and on the loop counter, and the
 * result is stored to a volatile sink.  The main thread only waits.
 *
 * Built by bench/run.sh with: gcc -O2 -g -pthread -o build/bench/spin spin.c
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 8

static volatile double sink[MAX_THREADS];
static long work_iters; /* iterations per thread */

/* One recurrence per thread: x <- x*a + b/(1+x*x) + i*c, all loop-carried. */
#define BURN(N, A, B, C)                                                   \
	__attribute__((noinline, noipa)) static double burn##N(long iters)    \
	{                                                                      \
		double x = 0.5 + (N) * 0.01;                                   \
		for (long i = 0; i < iters; i++)                               \
			x = x * (A) + (B) / (1.0 + x * x) + (double)i * (C);    \
		return x;                                                      \
	}

BURN(0, 0.999991, 0.31, 1e-12)
BURN(1, 0.999992, 0.32, 2e-12)
BURN(2, 0.999993, 0.33, 3e-12)
BURN(3, 0.999994, 0.34, 4e-12)
BURN(4, 0.999995, 0.35, 5e-12)
BURN(5, 0.999996, 0.36, 6e-12)
BURN(6, 0.999997, 0.37, 7e-12)
BURN(7, 0.999998, 0.38, 8e-12)

static double (*const burners[MAX_THREADS])(long) = {
	burn0, burn1, burn2, burn3, burn4, burn5, burn6, burn7,
};

static void *thread_main(void *arg)
{
	long idx = (long)arg;
	sink[idx] = burners[idx](work_iters);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s <threads 1..%d> <work: million iterations per thread>\n",
			argv[0], MAX_THREADS);
		return 2;
	}
	char *end;
	long nthreads = strtol(argv[1], &end, 10);
	if (*end || nthreads < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "spin: threads must be 1..%d\n", MAX_THREADS);
		return 2;
	}
	double work = strtod(argv[2], &end);
	if (*end || !(work > 0) || work > 1e6) {
		fprintf(stderr, "spin: work must be a positive number of million iterations\n");
		return 2;
	}
	work_iters = (long)(work * 1e6);

	pthread_t tid[MAX_THREADS];
	for (long t = 0; t < nthreads; t++) {
		if (pthread_create(&tid[t], NULL, thread_main, (void *)t) != 0) {
			perror("spin: pthread_create");
			return 1;
		}
	}
	for (long t = 0; t < nthreads; t++)
		pthread_join(tid[t], NULL);
	return 0;
}
