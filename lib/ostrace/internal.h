/* SPDX-License-Identifier: MIT */
/* lib/ostrace internal: the model's state, shared by model.c and calls.c. */
#ifndef UPROF_OSTRACE_INTERNAL_H
#define UPROF_OSTRACE_INTERNAL_H

#include "ostrace/ostrace.h"
#include "util/util.h"

/* Where a thread is now, as its records tell. */
enum thr_state {
	S_UNKNOWN, /* begun, no switch yet: the first switch says what it was */
	S_RUNNING,
	S_RUNNABLE,
	S_BLOCKED,
	S_GONE,
};

struct thr {
	struct ost_thread pub;
	bool started;
	enum thr_state cur;
	uint64_t since; /* when @cur began */
	/* blocked: what for, at which stack, and the wakeup that ended it (if seen) */
	enum ost_wait wait;
	uint32_t block_stack;
	bool woken;
	uint64_t woken_at;
	int waker_pid, waker_tid;
	uint32_t waker_stack;
	/* the last sched_switch tracepoint of this thread, for its next switch-out record */
	bool have_switch_tp;
	int64_t switch_prev_state;
	uint32_t switch_stack;
	/* the system call it is in */
	bool in_call;
	int64_t call_nr;
	uint64_t call_start;
	uint32_t call_stack;
};

struct ost_model {
	struct ost_formats fm;
	struct thr *thr;
	size_t nthr, capthr;
	struct util_hash thr_index; /* tid -> thr + 1 */
	struct ost_thread *pub;	    /* ost_model_threads' copy */
	struct ost_call_stat *calls;
	size_t ncalls, capcalls;
	struct util_hash call_index; /* (tid, nr) -> call + 1 */
	struct ost_slow_call slow[OST_SLOW_MAX];
	size_t nslow;
	struct ost_offcpu *off;
	size_t noff, capoff;
	struct util_hash off_index; /* (tid, stack, wait) -> off + 1 */
	struct ost_wake *wakes;
	size_t nwakes, capwakes;
	struct util_hash wake_index; /* (tid, stack, waker tid << 32 | waker stack) */
	struct ost_counts counts;
	bool finished;
	struct thr skip;		    /* what get() gives for a thread past fm.max_threads */
	struct ost_span *spans;		    /* timeline.c */
	size_t nspans, capspans, spans_max; /* spans_max 0: none kept (ost_model_keep_spans) */
	uint64_t spans_left_out;
	struct ost_func_count *fcounts; /* funcs.c */
	size_t nfcounts, capfcounts;
	struct util_hash fcount_index; /* (func, tid) -> fcounts + 1 */
	struct ost_func_slice *fslices;
	size_t nfslices, capfslices;
	struct util_hash fslice_index; /* (func, slice, 1) -> fslices + 1 */
	uint64_t slice_origin, slice_ns;
};

/* Grow *@p (@cap elements of @elem bytes) to hold @need. 0 or -ENOMEM. */
int ost_grow(void **p, size_t *cap, size_t need, size_t elem);
/* calls.c: a system call of @t ended at @end with @ret. 0 or -ENOMEM. */
int ost_calls_end(struct ost_model *m, struct thr *t, uint64_t end, int64_t ret);
/* timeline.c: @t was @kind (a blocked one: waiting for @wait) over [@begin, @end); a call
 * of @t ([@t->call_start, @end), result @ret). 0 or -ENOMEM; an empty span is none. */
int ost_timeline_state(struct ost_model *m, const struct thr *t, enum ost_span_kind kind,
		       enum ost_wait wait, uint64_t begin, uint64_t end);
int ost_timeline_call(struct ost_model *m, const struct thr *t, uint64_t end, int64_t ret);

#endif
