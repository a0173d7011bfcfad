// SPDX-License-Identifier: MIT
/*
 * A stand-in OpenMP runtime, written from the OpenMP 5.1 specification (§4.2 tool
 * activation, §4.2.5 tracing activity on target devices, §4.6.2 the tracing entry
 * points), NOT a real runtime: no upstream runtime on this machine implements device
 * tracing (LLVM 19's device lookup returns NULL for every tracing entry point), so uprof's
 * consumer of it is tested against this. tests/e2e/openmp_offload.sh runs it under
 * collect --trace openmp and checks the report against the records delivered here.
 *
 * What it does, as a runtime would: loads the first tool of OMP_TOOL_LIBRARIES whose
 * ompt_start_tool answers, initializes it with a host lookup (ompt_set_callback), starts
 * the initial thread, and initializes three devices:
 *   0 "harness-traced": a lookup with the tracing entry points and a fake clock: device
 *     time is in ticks of 2.5 ns, ompt_get_device_time reads T0 at initialization and
 *     ompt_translate_time(t) = 1000 s + t * 2.5 ns (the host's omp_get_wtime scale, any
 *     base). It delivers three buffers of OMPT records (the third when the device is
 *     finalized, as §4.2.5 says shutdown does), whose times are T0 + known ticks;
 *   1 "harness-no-lookup": NULL lookup (tracing not supported);
 *   2 "harness-no-entry": a lookup that knows none of the tracing names.
 * On device 0 it also runs one target region through the host EMI callbacks (a
 * transfer of 8000 bytes to the device, a kernel submit, 8000 bytes back). It prints the
 * records it delivered, one line each: "record <type> <begin_ns> <end_ns> <bytes>", the
 * ns after T0 as the specification's translation gives them.
 */
#include "instrument/ompt_abi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T0 4000000ULL /* the device clock at initialization, ticks */
#define NS_PER_TICK 2.5
#define HOST_BASE 1000.0

static ompt_callback_t cbs[64];
static ompt_callback_buffer_request_t request;
static ompt_callback_buffer_complete_t complete;
static unsigned enabled[64];
static int started, stopped;
static char dev0, dev1, dev2; /* the devices' handles: their addresses */

static int set_callback(int event, ompt_callback_t cb)
{
	if (event <= 0 || event >= 64)
		return ompt_set_error;
	cbs[event] = cb;
	return ompt_set_always;
}

static ompt_interface_fn_t host_lookup(const char *name)
{
	if (!strcmp(name, "ompt_set_callback"))
		return (ompt_interface_fn_t)set_callback;
	return NULL;
}

/* ---- device 0's tracing interface ---- */

static ompt_device_time_t get_device_time(ompt_device_t *d)
{
	return d == &dev0 ? T0 : 0;
}

static double translate_time(ompt_device_t *d, ompt_device_time_t t)
{
	(void)d;
	return HOST_BASE + (double)t * NS_PER_TICK * 1e-9;
}

static int set_trace_ompt(ompt_device_t *d, unsigned int enable, unsigned int etype)
{
	if (d != &dev0 || etype >= 64)
		return ompt_set_error;
	enabled[etype] = enable;
	return ompt_set_always;
}

static int start_trace(ompt_device_t *d, ompt_callback_buffer_request_t req,
		       ompt_callback_buffer_complete_t done)
{
	if (d != &dev0 || !req || !done)
		return 0;
	request = req;
	complete = done;
	started = 1;
	return 1;
}

static void flush_pending(void);

static int stop_trace(ompt_device_t *d)
{
	if (d != &dev0 || !started)
		return 0;
	flush_pending();
	started = 0;
	stopped = 1;
	return 1;
}

/* The buffer is an array of records; a cursor is a byte offset into it. */
static int advance_cursor(ompt_device_t *d, ompt_buffer_t *b, size_t size,
			  ompt_buffer_cursor_t cur, ompt_buffer_cursor_t *next)
{
	(void)d;
	(void)b;
	if (cur + 2 * sizeof(ompt_record_ompt_t) > size)
		return 0; /* no record after this one */
	*next = cur + sizeof(ompt_record_ompt_t);
	return 1;
}

static ompt_record_ompt_t *get_record(ompt_buffer_t *b, ompt_buffer_cursor_t cur)
{
	return (ompt_record_ompt_t *)((char *)b + cur);
}

static ompt_interface_fn_t dev0_lookup(const char *name)
{
	static const struct {
		const char *name;
		ompt_interface_fn_t fn;
	} fns[] = {
		{ "ompt_get_device_time", (ompt_interface_fn_t)get_device_time },
		{ "ompt_translate_time", (ompt_interface_fn_t)translate_time },
		{ "ompt_set_trace_ompt", (ompt_interface_fn_t)set_trace_ompt },
		{ "ompt_start_trace", (ompt_interface_fn_t)start_trace },
		{ "ompt_stop_trace", (ompt_interface_fn_t)stop_trace },
		{ "ompt_advance_buffer_cursor", (ompt_interface_fn_t)advance_cursor },
		{ "ompt_get_record_ompt", (ompt_interface_fn_t)get_record },
	};

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		if (!strcmp(name, fns[i].name))
			return fns[i].fn;
	return NULL;
}

static ompt_interface_fn_t dev2_lookup(const char *name)
{
	(void)name;
	return NULL;
}

/* ---- the records ---- */

static double ns(uint64_t ticks)
{
	return (double)(ticks - T0) * NS_PER_TICK;
}

static void target_rec(ompt_record_ompt_t *r, int endpoint, uint64_t t)
{
	memset(r, 0, sizeof(*r));
	r->type = ompt_callback_target;
	r->time = t;
	r->thread_id = 1;
	r->target_id = 42;
	r->record.target.kind = ompt_target;
	r->record.target.endpoint = endpoint;
	r->record.target.device_num = 0;
	r->record.target.target_id = 42;
}

static void data_rec(ompt_record_ompt_t *r, int op, uint64_t t, uint64_t end, size_t bytes,
		     uint64_t host_op)
{
	memset(r, 0, sizeof(*r));
	r->type = ompt_callback_target_data_op;
	r->time = t;
	r->target_id = 42;
	r->record.target_data_op.host_op_id = host_op;
	r->record.target_data_op.optype = op;
	/* the host is device 3 (the initial device: the number of devices) */
	r->record.target_data_op.src_device_num = op == ompt_target_data_transfer_to_device ? 3 : 0;
	r->record.target_data_op.dest_device_num = op == ompt_target_data_transfer_to_device ? 0
											     : 3;
	r->record.target_data_op.bytes = bytes;
	r->record.target_data_op.end_time = end;
	printf("record data_op %.0f %.0f %zu\n", ns(t), ns(end), bytes);
}

static void kernel_rec(ompt_record_ompt_t *r, uint64_t t, uint64_t end, unsigned teams,
		       uint64_t host_op)
{
	memset(r, 0, sizeof(*r));
	r->type = ompt_callback_target_submit;
	r->time = t;
	r->target_id = 42;
	r->record.target_kernel.host_op_id = host_op;
	r->record.target_kernel.requested_num_teams = teams;
	r->record.target_kernel.granted_num_teams = teams;
	r->record.target_kernel.end_time = end;
	printf("record kernel %.0f %.0f %u\n", ns(t), ns(end), teams);
}

/* Ask the tool for a buffer, fill @n records with @fill, hand it back. */
static void deliver(void (*fill)(ompt_record_ompt_t *), int n)
{
	ompt_buffer_t *b = NULL;
	size_t size = 0;

	request(0, &b, &size);
	if (!b || size < (size_t)n * sizeof(ompt_record_ompt_t)) {
		fprintf(stderr, "harness: the tool's buffer is too small (%zu)\n", size);
		exit(2);
	}
	fill(b);
	complete(0, b, (size_t)n * sizeof(ompt_record_ompt_t), 0, 1);
}

static void fill1(ompt_record_ompt_t *r)
{
	target_rec(&r[0], ompt_scope_begin, T0 + 100);
	/* one row: its end comes with the end record of the next buffer */
	printf("record target %.0f %.0f 0\n", ns(T0 + 100), ns(T0 + 2300));
	data_rec(&r[1], ompt_target_data_transfer_to_device, T0 + 200, T0 + 600, 8000, 7);
	kernel_rec(&r[2], T0 + 700, T0 + 1700, 4, 8);
}

static void fill2(ompt_record_ompt_t *r)
{
	data_rec(&r[0], ompt_target_data_transfer_from_device, T0 + 1800, T0 + 2200, 8000, 9);
	target_rec(&r[1], ompt_scope_end, T0 + 2300);
}

static void fill3(ompt_record_ompt_t *r)
{
	kernel_rec(&r[0], T0 + 3000, T0 + 3400, 2, 10);
}

static int pending = 1;

static void flush_pending(void)
{
	if (pending && started) {
		pending = 0;
		deliver(fill3, 1);
	}
}

/* ---- the run ---- */

/* The tool of library @path, if it answers (OpenMP 5.1 §4.2.1: OMP_TOOL_LIBRARIES). */
static ompt_start_tool_result_t *try_tool(const char *path)
{
	void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	ompt_start_tool_t fn = h ? (ompt_start_tool_t)dlsym(h, "ompt_start_tool") : NULL;
	ompt_start_tool_result_t *r =
		fn ? fn(201811, "uprof OMPT harness (OpenMP 5.1 specification)") : NULL;

	if (h && !r)
		dlclose(h);
	return r;
}

static ompt_start_tool_result_t *find_tool(void)
{
	const char *list = getenv("OMP_TOOL_LIBRARIES");
	ompt_start_tool_result_t *r = NULL;
	char path[4096];

	while (!r && list && *list) {
		size_t n = strcspn(list, ":");

		if (n && n < sizeof(path)) {
			memcpy(path, list, n);
			path[n] = 0;
			r = try_tool(path);
		}
		list += n + (list[n] == ':');
	}
	return r;
}

typedef void (*thread_begin_t)(int, ompt_data_t *);
typedef void (*thread_end_t)(ompt_data_t *);
typedef void (*device_init_t)(int, const char *, ompt_device_t *, ompt_function_lookup_t,
			      const char *);
typedef void (*device_fini_t)(int);
typedef void (*target_emi_t)(int, int, int, ompt_data_t *, ompt_data_t *, ompt_data_t *,
			     const void *);
typedef void (*data_op_emi_t)(int, ompt_data_t *, ompt_data_t *, ompt_id_t *, int, void *, int,
			      void *, int, size_t, const void *);
typedef void (*submit_emi_t)(int, ompt_data_t *, ompt_id_t *, unsigned int);

/* One target region on device 0 through the host callbacks, as a runtime makes them
 * (its code address: main's call of it). */
__attribute__((noinline)) static void host_region(void)
{
	static double a[1000], b[1000];
	ompt_data_t task = { 0 }, target_task = { 0 }, target = { 0 };
	ompt_id_t op = 0;
	const void *code = __builtin_return_address(0);

	if (!cbs[ompt_callback_target_emi] || !cbs[ompt_callback_target_data_op_emi] ||
	    !cbs[ompt_callback_target_submit_emi])
		return;
	((target_emi_t)cbs[ompt_callback_target_emi])(ompt_target, ompt_scope_begin, 0, &task,
						      &target_task, &target, code);
	for (int ep = ompt_scope_begin; ep <= ompt_scope_end; ep++)
		((data_op_emi_t)cbs[ompt_callback_target_data_op_emi])(
			ep, &target_task, &target, &op, ompt_target_data_transfer_to_device, a, 3,
			a, 0, sizeof(a), code);
	for (int ep = ompt_scope_begin; ep <= ompt_scope_end; ep++)
		((submit_emi_t)cbs[ompt_callback_target_submit_emi])(ep, &target, &op, 1);
	for (int ep = ompt_scope_begin; ep <= ompt_scope_end; ep++)
		((data_op_emi_t)cbs[ompt_callback_target_data_op_emi])(
			ep, &target_task, &target, &op, ompt_target_data_transfer_from_device, b, 0,
			b, 3, sizeof(b), code);
	((target_emi_t)cbs[ompt_callback_target_emi])(ompt_target, ompt_scope_end, 0, &task,
						      &target_task, &target, code);
}

int main(void)
{
	ompt_start_tool_result_t *tool = find_tool();
	ompt_data_t thread = { 0 };

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!tool || !tool->initialize(host_lookup, 3, &tool->tool_data)) {
		printf("harness: no tool\n");
		return 0;
	}
	if (cbs[ompt_callback_thread_begin])
		((thread_begin_t)cbs[ompt_callback_thread_begin])(ompt_thread_initial, &thread);
	if (cbs[ompt_callback_device_initialize]) {
		device_init_t init = (device_init_t)cbs[ompt_callback_device_initialize];

		init(0, "harness-traced", &dev0, dev0_lookup, "the uprof test harness");
		init(1, "harness-no-lookup", &dev1, NULL, NULL);
		init(2, "harness-no-entry", &dev2, dev2_lookup, NULL);
	}
	printf("harness: tracing %s, records enabled: target %u data_op %u submit %u\n",
	       started ? "started" : "not started", enabled[ompt_callback_target],
	       enabled[ompt_callback_target_data_op], enabled[ompt_callback_target_submit]);
	host_region();
	if (started) {
		deliver(fill1, 3);
		deliver(fill2, 2);
	}
	/* shutdown (§4.2.5): halt tracing, flush what the device holds, finalize devices */
	flush_pending();
	if (cbs[ompt_callback_device_finalize])
		for (int d = 0; d < 3; d++)
			((device_fini_t)cbs[ompt_callback_device_finalize])(d);
	if (cbs[ompt_callback_thread_end])
		((thread_end_t)cbs[ompt_callback_thread_end])(&thread);
	if (tool->finalize)
		tool->finalize(&tool->tool_data);
	return 0;
}
