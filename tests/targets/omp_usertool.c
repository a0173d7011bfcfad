// SPDX-License-Identifier: MIT
/*
 * A user's own OMPT tool, for tests/e2e/openmp.sh (must show 5): loaded through
 * OMP_TOOL_LIBRARIES behind uprof's, it must still get its events. It counts them, keeps
 * its own value in parallel_data (checked at parallel_end, so a tool in front that used
 * the same slot would show) and prints the counts at finalize on stderr.
 */
#include <omp-tools.h>
#include <stdio.h>

static ompt_set_callback_t set_cb;
static int parallels, ends, mismatched, itasks, waits, threads;

static void on_thread_begin(ompt_thread_t type, ompt_data_t *d)
{
	(void)type;
	(void)d;
	__atomic_add_fetch(&threads, 1, __ATOMIC_RELAXED);
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *pdata,
			      unsigned int req, int flags, const void *code)
{
	(void)task, (void)frame, (void)req, (void)flags, (void)code;
	pdata->value = 0x5eed0000u + (unsigned)__atomic_add_fetch(&parallels, 1, __ATOMIC_RELAXED);
}

static void on_parallel_end(ompt_data_t *pdata, ompt_data_t *task, int flags, const void *code)
{
	(void)task, (void)flags, (void)code;
	__atomic_add_fetch(&ends, 1, __ATOMIC_RELAXED);
	if ((pdata->value & 0xffff0000u) != 0x5eed0000u)
		__atomic_add_fetch(&mismatched, 1, __ATOMIC_RELAXED);
}

static void on_implicit_task(ompt_scope_endpoint_t ep, ompt_data_t *pdata, ompt_data_t *task,
			     unsigned int n, unsigned int index, int flags)
{
	(void)pdata, (void)task, (void)n, (void)index;
	if (ep == ompt_scope_begin && (flags & ompt_task_implicit))
		__atomic_add_fetch(&itasks, 1, __ATOMIC_RELAXED);
}

static void on_sync_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *pdata,
			 ompt_data_t *task, const void *code)
{
	(void)kind, (void)pdata, (void)task, (void)code;
	if (ep == ompt_scope_begin)
		__atomic_add_fetch(&waits, 1, __ATOMIC_RELAXED);
}

static int init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
	(void)dev, (void)data;
	set_cb = (ompt_set_callback_t)lookup("ompt_set_callback");
	set_cb(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
	set_cb(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
	set_cb(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
	set_cb(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
	set_cb(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait);
	return 1;
}

static void fini(ompt_data_t *data)
{
	(void)data;
	fprintf(stderr, "usertool: threads=%d parallel_begin=%d parallel_end=%d mismatched=%d "
			"implicit_task=%d sync_wait=%d\n",
		threads, parallels, ends, mismatched, itasks, waits);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int version, const char *runtime)
{
	static ompt_start_tool_result_t r = { init, fini, { 0 } };

	(void)version, (void)runtime;
	return &r;
}
