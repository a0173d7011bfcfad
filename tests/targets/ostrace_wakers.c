// SPDX-License-Identifier: MIT
/*
 * Known wakers for --trace os's LOCK WAKERS (tests/e2e/ostrace_wakers.sh): a thread in
 * hand_over_mutex() holds a mutex ~0.15 s and unlocks it while another thread waits for
 * it in wait_on_mutex(); then main, in send_signal(), signals a condition variable a
 * third thread has waited on ~0.1 s in wait_for_signal() (from when main saw it asleep
 * there). Each wait is timed here (CLOCK_MONOTONIC) and written with the threads' ids to
 * the file named by argv[1] ("key value" lines). stdout gets one fixed line.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static FILE *facts;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cond_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;
static pid_t cond_tid;	     /* the thread in wait_for_signal */
static long long asleep_at; /* when main saw it asleep in its condition wait */
static sem_t locked, waiting;
/* written after each waking call: it stays a call from its function, not a tail jump
 * that would leave the function out of the waker's stack */
static volatile int woken;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fact(const char *key, long long v)
{
	static pthread_mutex_t facts_lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&facts_lock);
	fprintf(facts, "%s %lld\n", key, v);
	pthread_mutex_unlock(&facts_lock);
}

static void pause_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) static void hand_over_mutex(void)
{
	pthread_mutex_lock(&held);
	sem_post(&locked);
	pause_ms(150);
	pthread_mutex_unlock(&held); /* wakes wait_on_mutex */
	woken++;
}

static void *holder(void *arg)
{
	(void)arg;
	fact("holder_tid", syscall(SYS_gettid));
	hand_over_mutex();
	return NULL;
}

__attribute__((noinline)) static void wait_on_mutex(void)
{
	long long t0 = now_ns();

	pthread_mutex_lock(&held);
	fact("mutex_ns", now_ns() - t0);
	pthread_mutex_unlock(&held);
}

static void *mutex_waiter(void *arg)
{
	(void)arg;
	fact("mutex_waiter_tid", syscall(SYS_gettid));
	wait_on_mutex();
	return NULL;
}

__attribute__((noinline)) static void wait_for_signal(void)
{
	pthread_mutex_lock(&cond_lock);
	sem_post(&waiting);
	while (!ready)
		pthread_cond_wait(&cond, &cond_lock);
	pthread_mutex_unlock(&cond_lock);
	/* from when main saw this thread asleep: a thread preempted between sem_post and
	 * its wait (a loaded machine) was not blocked then, and once never blocked at all
	 * (main's signal came first), which left the wait no waker to find */
	fact("cond_ns", now_ns() - asleep_at);
}

/* The state letter of thread @tid in /proc (S: asleep), or 0. */
static char thread_state(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

static void *cond_waiter(void *arg)
{
	(void)arg;
	cond_tid = (pid_t)syscall(SYS_gettid);
	fact("cond_waiter_tid", cond_tid);
	wait_for_signal();
	return NULL;
}

__attribute__((noinline)) static void send_signal(void)
{
	pthread_mutex_lock(&cond_lock);
	ready = 1;
	pthread_mutex_unlock(&cond_lock);
	pthread_cond_signal(&cond); /* wakes wait_for_signal, outside the lock */
	woken++;
}

int main(int argc, char **argv)
{
	pthread_t h, w, c;

	if (argc < 2 || !(facts = fopen(argv[1], "w")))
		return 2;
	fact("main_tid", syscall(SYS_gettid));
	sem_init(&locked, 0, 0);
	sem_init(&waiting, 0, 0);
	pthread_create(&h, NULL, holder, NULL);
	sem_wait(&locked);
	pthread_create(&w, NULL, mutex_waiter, NULL);
	pthread_join(h, NULL);
	pthread_join(w, NULL);
	pthread_create(&c, NULL, cond_waiter, NULL);
	sem_wait(&waiting); /* it holds cond_lock until it waits: send_signal comes after */
	/* and it is asleep in the condition wait before the 0.1 s start: its only sleep
	 * after sem_post (it holds cond_lock) */
	for (int i = 0; i < 10000 && thread_state(cond_tid) != 'S'; i++)
		pause_ms(1);
	asleep_at = now_ns();
	pause_ms(100);
	send_signal();
	pthread_join(c, NULL);
	fclose(facts);
	puts("ostrace_wakers done");
	return 0;
}
