// SPDX-License-Identifier: MIT
/* 8 threads x 125000 amdTaskBegin/amdTaskEnd pairs: 1e6 task instances in all.
 *   stress [pairs per thread] [threads, up to 256] */
#include <AMDProfileController.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_THREADS 256

static amdDomainHandle dom;
static amdStringHandle name;
static long pairs = 125000;

static void *worker(void *arg)
{
	(void)arg;
	for (long i = 0; i < pairs; i++) {
		amdTaskBegin(dom, 0, 0, name);
		amdTaskEnd(dom);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	int threads = 8;

	if (argc > 1)
		pairs = atol(argv[1]);
	if (argc > 2 && atoi(argv[2]) > 0)
		threads = atoi(argv[2]) < MAX_THREADS ? atoi(argv[2]) : MAX_THREADS;
	dom = amdDomainCreate("Stress");
	name = amdStringHandleCreate("Pair");
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("%ld pairs\n", pairs * threads);
	return 0;
}
