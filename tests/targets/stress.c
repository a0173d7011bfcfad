// SPDX-License-Identifier: MIT
/* 8 threads x 125000 amdTaskBegin/amdTaskEnd pairs: 1e6 task instances in all. */
#include <AMDProfileController.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define THREADS 8

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
	pthread_t t[THREADS];

	if (argc > 1)
		pairs = atol(argv[1]);
	dom = amdDomainCreate("Stress");
	name = amdStringHandleCreate("Pair");
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("%ld pairs\n", pairs * THREADS);
	return 0;
}
