// SPDX-License-Identifier: MIT
/*
 * An "ITT-instrumented application" for uprof's collector, with two ITT static parts of
 * our own (itt_static.h): part a is the application's libittnotify.a, part b the older
 * copy inside an OpenMP runtime. Every call below goes through their pointer slots, as
 * the ittnotify.h macros do. Known answers under uprof (tests/e2e/itt.sh):
 *   IttEarly/Before   domain and string made by part a before the collector was loaded;
 *                     the first task_begin loads it                 1 x ~0.05 s
 *   IttDom/After      handles made by the collector                  1 x ~0.05 s
 *   IttDom/Outer      nests IttDom/Inner                             1 x ~0.08 s, 1 x ~0.04 s
 *   IttDom/itt_fn_task  task_begin_fn, named by the function          1 x ~0.03 s
 *   IttDom/Overlapped task_begin/end_overlapped                      1 x ~0.03 s
 *   IttDom/Frame      frame_begin/end_v3                             1 x ~0.03 s
 *   User/IttEvent     event_create/start/end                         1 x ~0.03 s
 *   IttDom/Paused     inside __itt_pause (part a) .. __itt_resume (part b): absent, and so
 *                     are the samples of paused_work()
 *   OmpLike/Region    part b's own early domain, after its own __itt_api_init  1 x ~0.05 s
 *   Stranger/Foreign  a domain and string no one created (a static part's layout)  1 x
 *   thread "itt harness worker #1" (__itt_thread_set_name through part b) spins 0.15 s
 * Bad handles (NULL, flags 0, no name, unknown event ids) are ignored, not fatal.
 * Prints what it checked of the ABI itself; exits non-zero if any of that failed.
 */
#include "itt_static.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

ITT_PART_DECLS(a);
ITT_PART_DECLS(b);

static volatile double sink;
static int failures;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* inlined, so that the samples of paused_work() and named_thread_work() are theirs */
static inline __attribute__((always_inline)) void spin(double secs)
{
	double end = now() + secs, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void expect(int ok, const char *what)
{
	printf("harness: %s: %s\n", ok ? "ok" : "FAILED", what);
	failures += !ok;
}

/* named by dladdr: exported with -rdynamic */
void itt_fn_task(void)
{
	spin(0.03);
}

__attribute__((noinline)) void paused_work(void)
{
	spin(0.15);
}

__attribute__((noinline)) void named_thread_work(void)
{
	spin(0.15);
}

static void *worker(void *arg)
{
	(void)arg;
	ITT_CALLV(b, thread_set_name, "itt harness worker #1");
	named_thread_work();
	return NULL;
}

static int loaded(const char *lib)
{
	void *h = lib ? dlopen(lib, RTLD_LAZY | RTLD_NOLOAD) : NULL;

	if (h)
		dlclose(h);
	return h != NULL;
}

int main(void)
{
	const char *lib = getenv("INTEL_LIBITTNOTIFY64");
	itt_domain *early, *dom, *blike, stranger = { 1, "Stranger", NULL, 0, NULL, NULL };
	itt_domain off = { 0, "Off", NULL, 0, NULL, NULL }, nameless = { 1, NULL, NULL, 0, NULL, NULL };
	itt_string_handle *before, *breg, foreign = { "Foreign", NULL, 0, NULL, NULL };
	itt_id oid = { 7, 0, 0 };
	pthread_t t;
	int ev;

	/* 1. before any generic call: the static part keeps its own objects, loads nothing */
	early = a_domain_create_ptr("IttEarly");
	before = a_string_handle_create_ptr("Before");
	blike = b_domain_create_ptr("OmpLike");
	breg = b_string_handle_create_ptr("Region");
	if (lib) {
		expect(early && early->flags && before, "early domain and string made by part a");
		expect(!loaded(lib) && a_state() == 0, "the collector is not loaded by create calls");
	}

	/* 2. the first generic call loads the collector and calls __itt_api_init(&a) */
	ITT_TASK_BEGIN(a, early, before);
	spin(0.05);
	ITT_TASK_END(a, early);
	if (lib) {
		expect(loaded(lib) && a_state() == 4, "first task_begin loaded the collector");
		expect(a_unbound() == 0, "part a: every table entry bound or set to null_func");
		printf("harness: part a bound %d entries\n", a_bound());
		expect(b_state() == 0, "part b is still uninitialized");
	}

	/* 3. handles made by the collector */
	dom = a_domain_create_ptr("IttDom");
	if (lib)
		expect(dom && dom->flags && dom != early, "domain_create after init reaches the collector");
	ITT_TASK_BEGIN(a, dom, a_string_handle_create_ptr("After"));
	spin(0.05);
	ITT_TASK_END(a, dom);
	ITT_TASK_BEGIN(a, dom, a_string_handle_create_ptr("Outer"));
	spin(0.04);
	ITT_TASK_BEGIN(a, dom, a_string_handle_create_ptr("Inner"));
	spin(0.04);
	ITT_TASK_END(a, dom);
	ITT_TASK_END(a, dom);
	ITT_TASK_BEGIN_FN(a, dom, itt_fn_task);
	itt_fn_task();
	ITT_TASK_END(a, dom);
	ITT_TASK_BEGIN_OVERLAPPED(a, dom, oid, a_string_handle_create_ptr("Overlapped"));
	spin(0.03);
	ITT_TASK_END_OVERLAPPED(a, dom, oid);
	ITT_FRAME_BEGIN(a, dom);
	spin(0.03);
	ITT_FRAME_END(a, dom);
	ev = ITT_CALL(a, event_create, "IttEventXYZ", 8); /* namelen: "IttEvent" */
	ITT_CALL(a, event_start, ev);
	spin(0.03);
	ITT_CALL(a, event_end, ev);
	ITT_CALLV(a, sync_create, NULL, "x", "y", 0); /* not implemented: a no-op */

	/* 4. pause through part a; resume through part b, whose first call makes the
	 * collector's second __itt_api_init, with part b's own global */
	/* the window the pause lies in, for a test that checks it without knowing how fast
	 * this machine ran (CLOCK_MONOTONIC ns, pauses.csv's clock) */
	long long t0 = (long long)(now() * 1e9) - 1000;
	ITT_CALLV(a, pause);
	ITT_TASK_BEGIN(a, dom, a_string_handle_create_ptr("Paused"));
	paused_work();
	ITT_TASK_END(a, dom);
	ITT_CALLV(b, resume);
	printf("harness: pause window %lld %lld\n", t0, (long long)(now() * 1e9) + 1000);
	if (lib) {
		expect(b_state() == 4 && b_unbound() == 0, "part b: its own __itt_api_init filled its table");
		printf("harness: part b bound %d entries\n", b_bound());
	}
	ITT_TASK_BEGIN(b, blike, breg);
	spin(0.05);
	ITT_TASK_END(b, blike);

	/* 5. a thread named through part b (libomp names its threads this way) */
	if (!pthread_create(&t, NULL, worker, NULL))
		pthread_join(t, NULL);

	/* 6. handles the collector never made, and bad ones: read, or ignored, never fatal */
	early = &stranger; /* through a variable, as an application would hold it */
	ITT_TASK_BEGIN(a, early, &foreign);
	spin(0.02);
	ITT_TASK_END(a, early);
	if (lib) {
		a_task_begin_ptr(NULL, itt_null, itt_null, before);
		a_task_begin_ptr(dom, itt_null, itt_null, NULL);
		a_task_begin_ptr(&off, itt_null, itt_null, before);
		a_task_begin_ptr(&nameless, itt_null, itt_null, before);
		a_task_end_ptr(NULL);
		a_task_end_ptr(&off);
		a_task_end_ptr(&nameless);
		a_task_begin_fn_ptr(dom, itt_null, itt_null, NULL);
		a_task_end_ptr(dom); /* an end without a begin */
		a_event_start_ptr(-3);
		a_event_end_ptr(12345);
		a_thread_set_name_ptr(NULL);
		a_frame_begin_v3_ptr(NULL, NULL);
		expect(a_domain_create_ptr(NULL) == NULL, "domain_create(NULL) is NULL");
		expect(a_event_create_ptr(NULL, 0) < 0, "event_create(NULL) fails");
	}
	printf("harness: done, %d failed\n", failures);
	return failures != 0;
}
