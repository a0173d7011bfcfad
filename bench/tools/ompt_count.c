// SPDX-License-Identifier: MIT
/*
 * An OMPT tool that only counts: it registers the host callbacks uprof's tool registers
 * (lib/instrument/ompt.c on_initialize) and, at finalize, prints on stderr
 * "ompt_count callbacks=<n> parallel_begin=<n> implicit_task=<n> sync_region_wait=<n>"
 * with n the calls the runtime made. bench/omp_real_cost.sh runs a program once under it
 * (OMP_TOOL_LIBRARIES) to learn how many callbacks uprof's tool took in the same program.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

typedef union {
	uint64_t value;
	void *ptr;
} data_t;
typedef void (*cb_t)(void);
typedef cb_t (*lookup_t)(const char *);
typedef int (*set_t)(int, cb_t);
typedef struct {
	int (*initialize)(lookup_t, int, data_t *);
	void (*finalize)(data_t *);
	data_t tool_data;
} result_t;

/* the event numbers of omp-tools.h (OpenMP 5.0) that uprof's tool registers */
enum {
	THREAD_BEGIN = 1,
	THREAD_END = 2,
	PARALLEL_BEGIN = 3,
	PARALLEL_END = 4,
	TASK_CREATE = 5,
	TASK_SCHEDULE = 6,
	IMPLICIT_TASK = 7,
	SYNC_REGION_WAIT = 16,
	WORK = 20,
	MUTEX_ACQUIRE = 26,
	MUTEX_ACQUIRED = 27,
	NEST_LOCK = 28,
	EVENTS = 32
};

static _Atomic unsigned long counts[EVENTS];

#define COUNTER(ev) (atomic_fetch_add_explicit(&counts[ev], 1, memory_order_relaxed))
static void c_thread_begin(int t, data_t *d)
{
	(void)t, (void)d, COUNTER(THREAD_BEGIN);
}
static void c_thread_end(data_t *d)
{
	(void)d, COUNTER(THREAD_END);
}
static void c_pbegin(data_t *e, const void *f, data_t *p, unsigned n, int fl, const void *c)
{
	(void)e, (void)f, (void)p, (void)n, (void)fl, (void)c, COUNTER(PARALLEL_BEGIN);
}
static void c_pend(data_t *p, data_t *e, int fl, const void *c)
{
	(void)p, (void)e, (void)fl, (void)c, COUNTER(PARALLEL_END);
}
static void c_itask(int ep, data_t *p, data_t *t, unsigned n, unsigned i, int fl)
{
	(void)ep, (void)p, (void)t, (void)n, (void)i, (void)fl, COUNTER(IMPLICIT_TASK);
}
static void c_wait(int k, int ep, data_t *p, data_t *t, const void *c)
{
	(void)k, (void)ep, (void)p, (void)t, (void)c, COUNTER(SYNC_REGION_WAIT);
}
static void c_tcreate(data_t *a, const void *b, data_t *c, int d, int e, const void *f)
{
	(void)a, (void)b, (void)c, (void)d, (void)e, (void)f, COUNTER(TASK_CREATE);
}
static void c_tsched(data_t *a, int b, data_t *c)
{
	(void)a, (void)b, (void)c, COUNTER(TASK_SCHEDULE);
}
static void c_work(int a, int b, data_t *c, data_t *d, uint64_t e, const void *f)
{
	(void)a, (void)b, (void)c, (void)d, (void)e, (void)f, COUNTER(WORK);
}
static void c_macq(int a, unsigned b, unsigned c, uint64_t d, const void *e)
{
	(void)a, (void)b, (void)c, (void)d, (void)e, COUNTER(MUTEX_ACQUIRE);
}
static void c_macqd(int a, uint64_t b, const void *c)
{
	(void)a, (void)b, (void)c, COUNTER(MUTEX_ACQUIRED);
}
static void c_nest(int a, uint64_t b, const void *c)
{
	(void)a, (void)b, (void)c, COUNTER(NEST_LOCK);
}

static int init(lookup_t lookup, int dev, data_t *d)
{
	set_t set = (set_t)lookup("ompt_set_callback");

	(void)dev, (void)d;
	if (!set)
		return 0;
	set(THREAD_BEGIN, (cb_t)c_thread_begin);
	set(THREAD_END, (cb_t)c_thread_end);
	set(PARALLEL_BEGIN, (cb_t)c_pbegin);
	set(PARALLEL_END, (cb_t)c_pend);
	set(IMPLICIT_TASK, (cb_t)c_itask);
	set(SYNC_REGION_WAIT, (cb_t)c_wait);
	set(TASK_CREATE, (cb_t)c_tcreate);
	set(TASK_SCHEDULE, (cb_t)c_tsched);
	set(WORK, (cb_t)c_work);
	set(MUTEX_ACQUIRE, (cb_t)c_macq);
	set(MUTEX_ACQUIRED, (cb_t)c_macqd);
	set(NEST_LOCK, (cb_t)c_nest);
	return 1;
}

static void fini(data_t *d)
{
	unsigned long all = 0;

	(void)d;
	for (int i = 0; i < EVENTS; i++)
		all += counts[i];
	fprintf(stderr,
		"ompt_count callbacks=%lu parallel_begin=%lu implicit_task=%lu "
		"sync_region_wait=%lu work=%lu\n",
		all, counts[PARALLEL_BEGIN], counts[IMPLICIT_TASK], counts[SYNC_REGION_WAIT],
		counts[WORK]);
}

__attribute__((visibility("default"))) result_t *ompt_start_tool(unsigned v, const char *rt)
{
	static result_t r = { init, fini, { 0 } };

	(void)v, (void)rt;
	return &r;
}
