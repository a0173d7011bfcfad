// SPDX-License-Identifier: MIT
/*
 * Workloads for bench/ostrace.sh: "sys N" makes N getppid calls (syscall-heavy); "lock N"
 * has two threads take one mutex N times each, holding it across a short spin, so that
 * about half the acquisitions wait in futex (lock-heavy). Prints "calls N" / "locks N".
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long n;

static void *locker(void *arg)
{
	volatile long x = 0;

	(void)arg;
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		for (int k = 0; k < 2000; k++)
			x++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc < 3)
		return 2;
	n = atol(argv[2]);
	if (!strcmp(argv[1], "sys")) {
		for (long i = 0; i < n; i++)
			getppid();
		printf("calls %ld\n", n);
		return 0;
	}
	if (pthread_create(&a, NULL, locker, NULL) || pthread_create(&b, NULL, locker, NULL))
		return 3;
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("locks %ld\n", 2 * n);
	return 0;
}
