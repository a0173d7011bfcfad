// SPDX-License-Identifier: MIT
/*
 * The target of bench/switch_cost.sh and e2e mpi_rates.sh:
 *   switch_yield SECONDS EVERY [PROCS]
 * PROCS processes (default 1; the first forks the others) each spin SECONDS of their own
 * CPU time, calling sched_yield() every EVERY iterations of the loop (0: never), as Open
 * MPI's progress loop does when ranks outnumber cores. Each prints on stderr
 * "switches <voluntary> <involuntary>" of its own rusage when it ends.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

volatile unsigned long sink;

int main(int argc, char **argv)
{
	double seconds, end;
	long every, procs;
	unsigned long x = 1;
	struct rusage ru;

	if (argc < 3)
		return fprintf(stderr, "usage: switch_yield SECONDS EVERY [PROCS]\n"), 2;
	seconds = atof(argv[1]);
	every = atol(argv[2]);
	procs = argc > 3 ? atol(argv[3]) : 1;
	for (long i = 1; i < procs; i++)
		if (!fork())
			break;
	end = cpu_s() + seconds;
	while (cpu_s() < end) {
		for (long i = 0; i < (every ? every : 100000); i++)
			x = x * 6364136223846793005UL + 1;
		if (every)
			sched_yield();
	}
	sink = x;
	while (wait(NULL) > 0)
		;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "switches %ld %ld\n", ru.ru_nvcsw, ru.ru_nivcsw);
	return 0;
}
