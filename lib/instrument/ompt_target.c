// SPDX-License-Identifier: MIT
/*
 * The OMPT tool's target-offload part (docs/DESIGN.md §9; ompt.c is the host part).
 *
 * Host side: the EMI callbacks of OpenMP 5.1 (target_emi, target_data_op_emi,
 * target_submit_emi), as LLVM 19's libomptarget delivers them: each op once at its begin
 * and once at its end, on the thread that encountered the construct. A target region's
 * site (its codeptr_ra in ompt.c's site table) is kept in the runtime's target_data slot,
 * so its data ops and submits name it. Records go to the task ring in the thread's own
 * order (ctlpage.h 2.3): collect and report pair an op's records per thread.
 *
 * Device side: the tracing interface of OpenMP 5.x §4.2.5. At device_initialize the tool
 * asks the device's lookup for ompt_set_trace_ompt, ompt_start_trace,
 * ompt_advance_buffer_cursor and ompt_get_record_ompt; with all four it enables OMPT
 * records of target regions, data ops and kernels and starts tracing with its buffer
 * request and complete callbacks. Where a device gives no lookup or lacks an entry point
 * (every upstream LLVM runtime up to 19), a record says which, and report says so for
 * that device. Device times become the host's CLOCK_MONOTONIC through one anchor taken at
 * initialize: the device's clock read once (ompt_get_device_time) beside
 * CLOCK_MONOTONIC, then mono(t) = mono0 + (translate(t) - translate(t0)) s, so only
 * ompt_translate_time's rate and the anchor are used, never the base of omp_get_wtime.
 *
 * Cost: an op is a clock read and one to three ring slots; buffers are allocated by
 * malloc only in the buffer-request callback, which the runtime calls per buffer, never
 * per event.
 */
#include "instrument/internal.h"
#include "instrument/ompt_tool.h"

#include <errno.h>
#include <stdlib.h>

#define MAX_DEVICES 16
#define BUFFER_BYTES (64 * 1024)
#define TLS __thread __attribute__((tls_model("initial-exec")))

struct device {
	ompt_device_t *dev;
	ompt_advance_buffer_cursor_t advance;
	ompt_get_record_ompt_t get;
	ompt_translate_time_t translate;
	ompt_stop_trace_t stop;
	double host0;	/* translate(t0) */
	uint64_t mono0; /* CLOCK_MONOTONIC ns beside t0 */
	int timed, tracing;
	uint64_t lost; /* records not sent (atomic) */
};

static struct device devices[MAX_DEVICES];
static TLS uint32_t data_site; /* the site of the thread's running data op */

static struct device *device_of(int num)
{
	return num >= 0 && num < MAX_DEVICES ? &devices[num] : NULL;
}

static uint32_t site_in(const ompt_data_t *target_data)
{
	return target_data ? (uint32_t)target_data->value : 0;
}

static void on_target(int kind, int endpoint, int device, ompt_data_t *task,
		      ompt_data_t *target_task, ompt_data_t *target_data, const void *codeptr)
{
	int saved = errno;
	uint32_t site = site_in(target_data);

	if (endpoint == ompt_scope_begin) {
		site = ompt_site(codeptr, UPROF_OMP_SITE_TARGET);
		if (target_data)
			target_data->value = site;
	}
	ins_emit_raw(endpoint == ompt_scope_begin ? UPROF_REC_OMP_TARGET_BEGIN
						  : UPROF_REC_OMP_TARGET_END,
		     (uint16_t)kind, 0, site, (uint32_t)device, ins_stamp());
	errno = saved;
	OMPT_NEXT(
		ompt_callback_target_emi,
		void (*)(int, int, int, ompt_data_t *, ompt_data_t *, ompt_data_t *, const void *),
		kind, endpoint, device, task, target_task, target_data, codeptr);
}

static void on_data_op(int endpoint, ompt_data_t *target_task, ompt_data_t *target_data,
		       ompt_id_t *host_op_id, int optype, void *src, int src_device, void *dest,
		       int dest_device, size_t bytes, const void *codeptr)
{
	int saved = errno;
	uint32_t devs = UPROF_OMP_DEVPAIR(src_device, dest_device);

	if (endpoint == ompt_scope_begin) {
		/* an enter/exit data op outside a target region: its own site */
		data_site = target_data ? site_in(target_data)
					: ompt_site(codeptr, UPROF_OMP_SITE_TARGET);
		ins_emit_raw(UPROF_REC_OMP_DATA_BEGIN, (uint16_t)optype, 0, data_site, devs,
			     ins_stamp());
		ins_emit_raw(UPROF_REC_OMP_DATA_BYTES, (uint16_t)optype, 0, data_site, devs, bytes);
	} else {
		ins_emit_raw(UPROF_REC_OMP_DATA_END, (uint16_t)optype, 0,
			     target_data ? site_in(target_data) : data_site, devs, ins_stamp());
	}
	errno = saved;
	OMPT_NEXT(ompt_callback_target_data_op_emi,
		  void (*)(int, ompt_data_t *, ompt_data_t *, ompt_id_t *, int, void *, int, void *,
			   int, size_t, const void *),
		  endpoint, target_task, target_data, host_op_id, optype, src, src_device, dest,
		  dest_device, bytes, codeptr);
}

static void on_submit(int endpoint, ompt_data_t *target_data, ompt_id_t *host_op_id,
		      unsigned int teams)
{
	int saved = errno;

	ins_emit_raw(endpoint == ompt_scope_begin ? UPROF_REC_OMP_SUBMIT_BEGIN
						  : UPROF_REC_OMP_SUBMIT_END,
		     0, 0, site_in(target_data), teams, ins_stamp());
	errno = saved;
	OMPT_NEXT(ompt_callback_target_submit_emi,
		  void (*)(int, ompt_data_t *, ompt_id_t *, unsigned int), endpoint, target_data,
		  host_op_id, teams);
}

static void device_event(int num, uint16_t what, uint32_t name, uint64_t ns)
{
	ins_emit_raw(UPROF_REC_OMP_DEVICE, what, 0, (uint32_t)num, name, ns);
}

/* ---- device tracing ---- */

static void on_buffer_request(int num, ompt_buffer_t **buffer, size_t *bytes)
{
	(void)num;
	*buffer = malloc(BUFFER_BYTES);
	*bytes = *buffer ? BUFFER_BYTES : 0;
}

static uint64_t host_ns(const struct device *d, ompt_device_time_t t)
{
	double s;

	if (!d->timed)
		return 0;
	s = (d->translate(d->dev, t) - d->host0) * 1e9; /* to the nearest ns */
	return (uint64_t)((int64_t)d->mono0 + (int64_t)(s < 0 ? s - 0.5 : s + 0.5));
}

static void send(struct device *d, uint16_t kind, uint16_t type, int num, uint64_t op,
		 uint64_t value)
{
	if (!ins_emit_raw(kind, type, 0, (uint32_t)num, (uint32_t)op, value))
		__atomic_add_fetch(&d->lost, 1, __ATOMIC_RELAXED);
}

/* One OMPT record: its begin, its bytes or teams, its end (where the type has them). */
static void take(struct device *d, int num, const ompt_record_ompt_t *r)
{
	uint16_t type = (uint16_t)r->type;

	switch (r->type) {
	case ompt_callback_target:
	case ompt_callback_target_emi:
		send(d,
		     r->record.target.endpoint == ompt_scope_end ? UPROF_REC_OMP_DEV_END
								 : UPROF_REC_OMP_DEV_BEGIN,
		     type, num, r->target_id, host_ns(d, r->time));
		break;
	case ompt_callback_target_data_op:
	case ompt_callback_target_data_op_emi:
		send(d, UPROF_REC_OMP_DEV_BEGIN, type, num, r->record.target_data_op.host_op_id,
		     host_ns(d, r->time));
		send(d, UPROF_REC_OMP_DEV_BYTES, type, num, r->record.target_data_op.host_op_id,
		     r->record.target_data_op.bytes);
		send(d, UPROF_REC_OMP_DEV_END, type, num, r->record.target_data_op.host_op_id,
		     host_ns(d, r->record.target_data_op.end_time));
		break;
	case ompt_callback_target_submit:
	case ompt_callback_target_submit_emi:
		send(d, UPROF_REC_OMP_DEV_BEGIN, type, num, r->record.target_kernel.host_op_id,
		     host_ns(d, r->time));
		send(d, UPROF_REC_OMP_DEV_BYTES, type, num, r->record.target_kernel.host_op_id,
		     r->record.target_kernel.granted_num_teams);
		send(d, UPROF_REC_OMP_DEV_END, type, num, r->record.target_kernel.host_op_id,
		     host_ns(d, r->record.target_kernel.end_time));
		break;
	default: /* a record of a kind we did not ask for: its time only */
		send(d, UPROF_REC_OMP_DEV_BEGIN, type, num, r->target_id, host_ns(d, r->time));
		break;
	}
}

/* Walk the buffer from @begin: each record, then the cursor advanced, until the runtime
 * says there is no next one. Bounded by the bytes (a record is at least 8 of them), so a
 * cursor that never ends cannot hold the runtime's thread here. */
static void on_buffer_complete(int num, ompt_buffer_t *buffer, size_t bytes,
			       ompt_buffer_cursor_t begin, int owned)
{
	struct device *d = device_of(num);
	ompt_buffer_cursor_t cur = begin;
	int saved = errno;

	if (!d || !d->tracing || !buffer) {
		if (d)
			__atomic_add_fetch(&d->lost, 1, __ATOMIC_RELAXED);
		goto out;
	}
	for (size_t n = 0; bytes && n <= bytes / 8; n++) {
		ompt_buffer_cursor_t next;
		const ompt_record_ompt_t *r = d->get(buffer, cur);

		if (!r) {
			__atomic_add_fetch(&d->lost, 1, __ATOMIC_RELAXED);
			break;
		}
		take(d, num, r);
		if (!d->advance(d->dev, buffer, bytes, cur, &next))
			break;
		cur = next;
	}
out:
	if (owned)
		free(buffer);
	errno = saved;
}

/* Start tracing @num if its lookup offers it; a record says what came of it. */
static void start_tracing(int num, ompt_device_t *dev, ompt_function_lookup_t lookup)
{
	struct device *d = device_of(num);
	ompt_set_trace_ompt_t set;
	ompt_start_trace_t start;
	ompt_get_device_time_t now;
	int enabled = 0;

	if (!lookup) {
		device_event(num, UPROF_OMP_DEV_NO_LOOKUP, 0, ins_now_ns());
		return;
	}
	set = (ompt_set_trace_ompt_t)lookup("ompt_set_trace_ompt");
	start = (ompt_start_trace_t)lookup("ompt_start_trace");
	if (!d || !set || !start ||
	    !(d->advance = (ompt_advance_buffer_cursor_t)lookup("ompt_advance_buffer_cursor")) ||
	    !(d->get = (ompt_get_record_ompt_t)lookup("ompt_get_record_ompt"))) {
		device_event(num, UPROF_OMP_DEV_NO_ENTRY, 0, ins_now_ns());
		return;
	}
	d->dev = dev;
	d->stop = (ompt_stop_trace_t)lookup("ompt_stop_trace");
	d->translate = (ompt_translate_time_t)lookup("ompt_translate_time");
	now = (ompt_get_device_time_t)lookup("ompt_get_device_time");
	if (d->translate && now) {
		ompt_device_time_t t0 = now(dev);

		d->mono0 = ins_now_ns();
		d->host0 = d->translate(dev, t0);
		d->timed = 1;
	}
	enabled += set(dev, 1, ompt_callback_target) > ompt_set_never;
	enabled += set(dev, 1, ompt_callback_target_data_op) > ompt_set_never;
	enabled += set(dev, 1, ompt_callback_target_submit) > ompt_set_never;
	d->tracing = 1; /* before start: a runtime may complete a buffer at once */
	if (!enabled || !start(dev, on_buffer_request, on_buffer_complete)) {
		d->tracing = 0;
		device_event(num, UPROF_OMP_DEV_REFUSED, 0, ins_now_ns());
		return;
	}
	device_event(num, UPROF_OMP_DEV_TRACING, 0, d->timed ? d->mono0 : ins_now_ns());
	if (!d->timed)
		device_event(num, UPROF_OMP_DEV_NO_TIME, 0, ins_now_ns());
}

static void on_device_initialize(int num, const char *type, ompt_device_t *dev,
				 ompt_function_lookup_t lookup, const char *doc)
{
	int saved = errno;

	device_event(num, UPROF_OMP_DEV_INIT, ins_intern(type ? type : ""), ins_now_ns());
	start_tracing(num, dev, lookup);
	errno = saved;
	OMPT_NEXT(
		ompt_callback_device_initialize,
		void (*)(int, const char *, ompt_device_t *, ompt_function_lookup_t, const char *),
		num, type, dev, lookup, doc);
}

static void say_lost(int num, struct device *d)
{
	uint64_t lost = d ? __atomic_exchange_n(&d->lost, 0, __ATOMIC_RELAXED) : 0;

	if (lost)
		device_event(num, UPROF_OMP_DEV_LOST, 0, lost);
}

/* The runtime has flushed the device's traces before this (§4.2.5). */
static void on_device_finalize(int num)
{
	int saved = errno;
	struct device *d = device_of(num);

	if (d)
		d->tracing = 0;
	say_lost(num, d);
	device_event(num, UPROF_OMP_DEV_FINI, 0, ins_now_ns());
	errno = saved;
	OMPT_NEXT(ompt_callback_device_finalize, void (*)(int), num);
}

static void on_device_load(int num, const char *file, int64_t off, void *vma, size_t bytes,
			   void *host, void *dev, uint64_t module)
{
	int saved = errno;

	device_event(num, UPROF_OMP_DEV_LOAD, ins_intern(file ? file : ""), ins_now_ns());
	errno = saved;
	OMPT_NEXT(ompt_callback_device_load,
		  void (*)(int, const char *, int64_t, void *, size_t, void *, void *, uint64_t),
		  num, file, off, vma, bytes, host, dev, module);
}

static void on_device_unload(int num, uint64_t module)
{
	device_event(num, UPROF_OMP_DEV_UNLOAD, 0, ins_now_ns());
	OMPT_NEXT(ompt_callback_device_unload, void (*)(int, uint64_t), num, module);
}

void ompt_target_init(void)
{
	ompt_reg(ompt_callback_target_emi, (ompt_callback_t)on_target);
	ompt_reg(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op);
	ompt_reg(ompt_callback_target_submit_emi, (ompt_callback_t)on_submit);
	ompt_reg(ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize);
	ompt_reg(ompt_callback_device_finalize, (ompt_callback_t)on_device_finalize);
	ompt_reg(ompt_callback_device_load, (ompt_callback_t)on_device_load);
	ompt_reg(ompt_callback_device_unload, (ompt_callback_t)on_device_unload);
}

/* Tracing still on at the end (the runtime finalizes devices after us): stop it, which
 * hands the tool what the device still holds (§4.2.5), and say what was lost. */
void ompt_target_flush(void)
{
	for (int i = 0; i < MAX_DEVICES; i++) {
		struct device *d = &devices[i];

		if (d->tracing && d->stop)
			d->stop(d->dev);
		say_lost(i, d);
	}
}
