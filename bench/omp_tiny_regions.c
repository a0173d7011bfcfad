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
 * optimised away, and lets a reader see that every iteration ran: 4 T per region).
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n, sum = 0;
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
	return sum == (loop ? 4L * threads * n : 0) ? 0 : 1;
}
