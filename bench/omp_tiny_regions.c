// SPDX-License-Identifier: MIT
/*
 * Many tiny parallel regions, for bench/omp_real_cost.sh: the OMPT tool's cost in a real
 * program, where its callbacks run on every thread of every team, with the runtime's own
 * barriers and wake-ups around them (bench/ompt_cost.c times one warm thread alone).
 *
 *   omp_tiny_regions empty <threads> <regions>   empty parallel regions
 *   omp_tiny_regions loop <threads> <regions>    each region: a static for of 4 iterations
 *                                                per thread, then an explicit barrier
 *
 * Prints "regions=<N> threads=<T> sum=<s>" on stdout (sum keeps the loop from being
 * optimised away, and lets a reader see that every iteration ran: 4 T per region), and
 * "omp_tiny_regions cpu_ns=<n>" on stderr: the process's own CPU time (user + sys, all its
 * threads), so that a run under uprof splits into the target's part and collect's.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int main(int argc, char **argv)
{
	long n, sum = 0;
	struct rusage ru;
	int threads, loop;

	if (argc != 4 || (strcmp(argv[1], "empty") && strcmp(argv[1], "loop")) ||
	    (threads = atoi(argv[2])) < 1 || (n = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: omp_tiny_regions empty|loop <threads> <regions>\n");
		return 2;
	}
	loop = !strcmp(argv[1], "loop");
	for (long r = 0; r < n; r++) {
		if (!loop) {
#pragma omp parallel num_threads(threads)
			{
				__asm__ volatile("" ::: "memory");
			}
			continue;
		}
#pragma omp parallel num_threads(threads) reduction(+ : sum)
		{
#pragma omp for schedule(static)
			for (int i = 0; i < 4 * threads; i++)
				sum += 1;
#pragma omp barrier
		}
	}
	printf("regions=%ld threads=%d sum=%ld\n", n, threads, sum);
	fflush(stdout);
	/* after the last region: the runtime's threads sleep or spin, their CPU is in */
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "omp_tiny_regions cpu_ns=%lld\n",
		(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	return sum == (loop ? 4L * threads * n : 0) ? 0 : 1;
}
