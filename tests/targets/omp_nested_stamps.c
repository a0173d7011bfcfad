// SPDX-License-Identifier: MIT
/*
 * An OMPT tool of the test program's own, for tests/e2e/omp_nested.sh: loaded through
 * OMP_TOOL_LIBRARIES behind uprof's (which chains to it), it stamps the program's clock
 * at the callbacks uprof's tool stamps its own: parallel_begin and parallel_end on the
 * thread that encountered the region, and counts the process's live threads
 * (thread_begin, thread_end), as uprof's tool does. tests/targets/omp_nested.c asks it
 * (omp_nested_stamps_last) for the region its thread just ended, so that the program's
 * figures are times between the same two events as uprof's. Its own clock reads around
 * the pragma also hold the runtime's work before parallel_begin and after parallel_end,
 * and any time the thread lost its CPU there: beside two CPU hogs, 5 to 54 ms more over 8
 * instances of the outer region (one run: 150 ms, 0.3 s of the 2x2 idle), none of it the
 * region's by OMPT's definition, which uprof's is.
 */
#include <omp-tools.h>
#include <time.h>

#define DEPTH 8

static int live;
static __thread double begun[DEPTH], last_ms;
static __thread int depth, last_live;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void on_thread_begin(ompt_thread_t type, ompt_data_t *d)
{
	(void)type, (void)d;
	__atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
}

static void on_thread_end(ompt_data_t *d)
{
	(void)d;
	__atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *pdata,
			      unsigned int req, int flags, const void *code)
{
	(void)task, (void)frame, (void)pdata, (void)req, (void)flags, (void)code;
	if (depth < DEPTH)
		begun[depth] = now_ms();
	depth++;
}

static void on_parallel_end(ompt_data_t *pdata, ompt_data_t *task, int flags, const void *code)
{
	(void)pdata, (void)task, (void)flags, (void)code;
	if (depth > 0 && --depth < DEPTH) {
		last_ms = now_ms() - begun[depth];
		last_live = __atomic_load_n(&live, __ATOMIC_RELAXED);
	}
}

/* The elapsed ms of the region this thread ended last (from parallel_begin to
 * parallel_end), and in *@threads the live threads at its end; -1 before any. */
double omp_nested_stamps_last(int *threads)
{
	if (threads)
		*threads = last_live;
	return last_ms > 0 ? last_ms : -1;
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
	ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");

	(void)dev, (void)data;
	set(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
	set(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
	set(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
	set(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
	return 1;
}

static void fini(ompt_data_t *data)
{
	(void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
	static ompt_start_tool_result_t r = { init, fini, { 0 } };

	(void)version, (void)runtime;
	return &r;
}
