// SPDX-License-Identifier: MIT
/*
 * The OMPT tool's cost per callback in the target (docs/DESIGN.md §7: <= 50 ns). The tool of
 * build/lib/libAMDProfileController.so is started as a runtime would start it (its
 * ompt_start_tool, then initialize with a lookup of our own that keeps the callbacks it
 * registers), with a launch-mode control page (UPROF_SESSION set, as under uprof
 * collect), and its callbacks are called in the order one region of a team of one makes
 * them: parallel_begin, implicit_task begin, sync_region_wait begin/end (the closing
 * barrier), implicit_task end, parallel_end: 6 callbacks. The ring has room for the
 * first 32768 regions' records; later ones find it full (no profiler drains it here) and
 * take the drop path, so both are timed. With THREADS > 1, that many threads run their
 * regions at once (each a team of one, as the members of one team enter and leave a
 * region together), started together, 5000 regions each with room: the cost of writing
 * the shared ring or (UPROF_CTL_LANES > 0, control page 2.6) each thread's lane at once.
 *   ompt_cost <libAMDProfileController.so> [regions] [threads]
 */
#include <pthread.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef union { uint64_t value; void *ptr; } data_t;
typedef void (*cb_t)(void);
typedef cb_t (*lookup_t)(const char *);
typedef struct {
	int (*initialize)(lookup_t, int, data_t *);
	void (*finalize)(data_t *);
	data_t tool_data;
} result_t;

static cb_t cbs[64];

static int set_callback(int ev, cb_t cb)
{
	if (ev > 0 && ev < 64)
		cbs[ev] = cb;
	return 5;
}

static cb_t lookup(const char *name)
{
	(void)name;
	return name && name[0] && !__builtin_strcmp(name, "ompt_set_callback") ? (cb_t)set_callback
									     : NULL;
}

/* this thread's CPU time: a loaded machine's preemptions are not the tool's cost */
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double run(long n)
{
	void (*thread_begin)(int, data_t *) = (void (*)(int, data_t *))cbs[1];
	void (*pbegin)(data_t *, const void *, data_t *, unsigned, int, const void *) =
		(void (*)(data_t *, const void *, data_t *, unsigned, int, const void *))cbs[3];
	void (*pend)(data_t *, data_t *, int, const void *) =
		(void (*)(data_t *, data_t *, int, const void *))cbs[4];
	void (*itask)(int, data_t *, data_t *, unsigned, unsigned, int) =
		(void (*)(int, data_t *, data_t *, unsigned, unsigned, int))cbs[7];
	void (*wait)(int, int, data_t *, data_t *, const void *) =
		(void (*)(int, int, data_t *, data_t *, const void *))cbs[16];
	data_t thr = { 0 }, par = { 0 }, task = { 0 }, enc = { 0 };
	const void *code = (const void *)run;
	double t0;
	static __thread int began;

	if (!began++)
		thread_begin(1, &thr);
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		pbegin(&enc, NULL, &par, 1, 1, code);
		itask(1, &par, &task, 1, 0, 2);
		wait(9, 1, &par, &task, code);
		wait(9, 2, &par, &task, code);
		itask(2, NULL, &task, 0, 0, 2);
		pend(&par, &enc, 1, code);
	}
	return (now_ns() - t0) / n / 6;
}

#define THREAD_REGIONS 5000 /* per thread: 10000 records, room in a lane and the ring */
static pthread_barrier_t go;
static double thread_ns[64];

static void *in_thread(void *arg)
{
	pthread_barrier_wait(&go);
	thread_ns[(long)arg] = run(THREAD_REGIONS);
	return NULL;
}

/* @t threads at once; the mean of their ns per callback */
static double run_threads(int t)
{
	pthread_t th[64];
	double sum = 0;

	pthread_barrier_init(&go, NULL, (unsigned)t);
	for (long i = 0; i < t; i++)
		pthread_create(&th[i], NULL, in_thread, (void *)i);
	for (int i = 0; i < t; i++) {
		pthread_join(th[i], NULL);
		sum += thread_ns[i];
	}
	pthread_barrier_destroy(&go);
	return sum / t;
}

int main(int argc, char **argv)
{
	int threads = argc > 3 ? atoi(argv[3]) : 1;
	void *h;
	result_t *(*start)(unsigned, const char *);
	result_t *r;
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	double room, full;

	if (argc < 2) {
		fprintf(stderr, "usage: ompt_cost <libAMDProfileController.so> [regions]\n");
		return 2;
	}
	setenv("UPROF_OMPT", "basic", 1);
	/* launch mode, records kept for a profiler; its launcher is no process, so the page
	 * is removed at exit (after the library's one-second wait for a profiler) */
	setenv("UPROF_SESSION", "2147483646.1", 1);
	h = dlopen(argv[1], RTLD_NOW);
	start = h ? (result_t * (*)(unsigned, const char *)) dlsym(h, "ompt_start_tool") : NULL;
	r = start ? start(201611, "bench") : NULL;
	if (!r || !r->initialize(lookup, 0, &r->tool_data) || !cbs[3]) {
		fprintf(stderr, "ompt_cost: the tool did not start\n");
		return 1;
	}
	if (threads > 1 && threads <= 64) {
		const char *lanes = getenv("UPROF_CTL_LANES");

		printf("ns per callback: %.1f, %d threads at once, %s (%d regions x 6 callbacks "
		       "each)\n",
		       run_threads(threads), threads,
		       lanes && atoi(lanes) > 0 ? "a lane each" : "the shared ring", THREAD_REGIONS);
		return 0;
	}
	room = run(10000); /* 60000 ring records: the ring (65536) has room */
	full = run(n);	   /* the ring is full: every record is dropped and counted */
	printf("ns per callback: %.1f with room in the ring, %.1f with the ring full "
	       "(%ld regions x 6 callbacks)\n", room, full, n);
	return 0;
}
