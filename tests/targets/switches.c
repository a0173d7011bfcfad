// SPDX-License-Identifier: MIT
/*
 * A known number of context switches: two threads hand a byte back and forth over two
 * pipes N times (argv[1], default 2000), each blocking read a switch away from the
 * reader. It counts its own switches with getrusage (nvcsw + nivcsw: the kernel's
 * per-task counts, of every thread, the ones it bumps where perf's context-switches
 * event counts) and prints "switches <n>" on stdout (tests/e2e/switch_count.sh).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static int ping[2], pong[2];
static long rounds;

static void *echo(void *arg)
{
	char c;

	(void)arg;
	for (long i = 0; i < rounds; i++)
		if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
			exit(2);
	return NULL;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	pthread_t t;
	char c = 'x';

	rounds = argc > 1 ? atol(argv[1]) : 2000;
	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, echo, NULL))
		return 2;
	for (long i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 2;
	pthread_join(t, NULL);
	if (getrusage(RUSAGE_SELF, &ru))
		return 2;
	printf("switches %ld\n", ru.ru_nvcsw + ru.ru_nivcsw);
	return 0;
}
