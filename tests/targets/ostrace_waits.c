// SPDX-License-Identifier: MIT
/*
 * Known waits for --trace os (tests/e2e/ostrace.sh): sleep_in_nanosleep() sleeps 0.3 s in
 * nanosleep; wait_for_mutex() (its own thread) blocks ~0.2 s on a mutex main holds;
 * read_from_pipe() waits ~0.1 s for a byte another thread writes; call_getppid() makes
 * exactly 1000 getppid calls; spin_a_while() burns 0.2 s of wall time on the CPU (beside
 * CPU hogs it is preempted: runnable time). Each wait is timed here with
 * CLOCK_MONOTONIC, as is each thread's lifetime, and written to the file named by
 * argv[1] ("key value" lines) so the test compares uprof with what the program saw.
 * stdout gets one fixed line: the test checks it is untouched by uprof.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static FILE *facts;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t facts_lock = PTHREAD_MUTEX_INITIALIZER;
static int pipefd[2];

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fact(const char *key, long long v)
{
	pthread_mutex_lock(&facts_lock);
	fprintf(facts, "%s %lld\n", key, v);
	pthread_mutex_unlock(&facts_lock);
}

__attribute__((noinline)) static void sleep_in_nanosleep(void)
{
	struct timespec ts = { 0, 300000000 };
	long long t0 = now_ns();

	nanosleep(&ts, NULL);
	fact("sleep_ns", now_ns() - t0);
}

__attribute__((noinline)) static void wait_for_mutex(void)
{
	long long t0 = now_ns();

	pthread_mutex_lock(&held);
	fact("mutex_ns", now_ns() - t0);
	pthread_mutex_unlock(&held);
}

static void *locker(void *arg)
{
	long long t0 = now_ns();

	(void)arg;
	fact("locker_tid", syscall(SYS_gettid));
	wait_for_mutex();
	fact("locker_life_ns", now_ns() - t0);
	return NULL;
}

static void *writer(void *arg)
{
	struct timespec ts = { 0, 100000000 };
	long long t0 = now_ns();

	(void)arg;
	fact("writer_tid", syscall(SYS_gettid));
	nanosleep(&ts, NULL);
	if (write(pipefd[1], "x", 1) != 1)
		exit(3);
	fact("writer_life_ns", now_ns() - t0);
	return NULL;
}

__attribute__((noinline)) static void read_from_pipe(void)
{
	long long t0 = now_ns();
	char c;

	if (read(pipefd[0], &c, 1) != 1)
		exit(4);
	fact("read_ns", now_ns() - t0);
}

__attribute__((noinline)) static void call_getppid(void)
{
	volatile pid_t sink = 0;

	for (int i = 0; i < 1000; i++)
		sink += getppid();
	fact("getppid_calls", 1000);
}

__attribute__((noinline)) static void spin_a_while(void)
{
	long long end = now_ns() + 200000000;
	volatile unsigned long x = 0;

	while (now_ns() < end)
		x++;
}

int main(int argc, char **argv)
{
	long long t0 = now_ns();
	struct timespec hold = { 0, 200000000 };
	pthread_t lt, wt;

	if (argc < 2 || !(facts = fopen(argv[1], "w")))
		return 2;
	fact("main_tid", syscall(SYS_gettid));
	sleep_in_nanosleep();
	pthread_mutex_lock(&held);
	if (pthread_create(&lt, NULL, locker, NULL))
		return 5;
	nanosleep(&hold, NULL); /* the locker waits this long for the mutex */
	pthread_mutex_unlock(&held);
	pthread_join(lt, NULL);
	if (pipe(pipefd) || pthread_create(&wt, NULL, writer, NULL))
		return 6;
	read_from_pipe();
	pthread_join(wt, NULL);
	call_getppid();
	spin_a_while();
	printf("ostrace_waits: done\n");
	fact("main_life_ns", now_ns() - t0);
	fclose(facts);
	return 0;
}
