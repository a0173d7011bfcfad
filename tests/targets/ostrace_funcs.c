// SPDX-License-Identifier: MIT
/*
 * collect --func's known answer (tests/e2e/ostrace_funcs.sh): count_alpha() called 1234
 * times by main, count_beta() 567 times by a second thread, other_gamma() 89 times by
 * main; each function counts its own calls, and the program writes those counts and the
 * threads' ids to the file named by argv[1] (never stdout, which a test compares).
 * "wait" as argv[2]: after its calls it sleeps up to 60 s (a collect to kill meanwhile).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long alpha_calls, beta_calls, gamma_calls;
static volatile unsigned long sink;
static volatile pid_t beta_tid;

/* noipa: no clone, no inlining: each call is one call of the symbol a probe names */
__attribute__((noipa)) void count_alpha(unsigned long x)
{
	alpha_calls++;
	sink += x;
}

__attribute__((noipa)) void count_beta(unsigned long x)
{
	beta_calls++;
	sink ^= x;
}

__attribute__((noipa)) void other_gamma(unsigned long x)
{
	gamma_calls++;
	sink -= x;
}

static void *beta_thread(void *arg)
{
	(void)arg;
	beta_tid = (pid_t)syscall(SYS_gettid);
	for (unsigned long i = 0; i < 567; i++)
		count_beta(i);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	FILE *f;

	if (argc < 2)
		return 2;
	if (pthread_create(&t, NULL, beta_thread, NULL))
		return 1;
	for (unsigned long i = 0; i < 1234; i++)
		count_alpha(i);
	for (unsigned long i = 0; i < 89; i++)
		other_gamma(i);
	pthread_join(t, NULL);
	f = fopen(argv[1], "w");
	if (!f)
		return 1;
	fprintf(f, "count_alpha %lu\ncount_beta %lu\nother_gamma %lu\nmain_tid %d\nbeta_tid %d\n",
		alpha_calls, beta_calls, gamma_calls, (int)syscall(SYS_gettid), (int)beta_tid);
	fclose(f);
	printf("ostrace_funcs done\n");
	if (argc > 2 && !strcmp(argv[2], "wait"))
		for (int i = 0; i < 600; i++)
			usleep(100000);
	return 0;
}
