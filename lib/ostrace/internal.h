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
	struct ost_span *spans; /* spans.c: the states over time, when kept */
	size_t nspans, capspans, spans_max;
	uint64_t spans_lost;
};

/* Grow *@p (@cap elements of @elem bytes) to hold @need. 0 or -ENOMEM. */
int ost_grow(void **p, size_t *cap, size_t need, size_t elem);
/* spans.c: @tid was in @state over [@begin, @end). 0 or -ENOMEM. */
int ost_span_add(struct ost_model *m, int tid, enum ost_state state, uint64_t begin, uint64_t end);
/* calls.c: a system call of @t ended at @end with @ret. 0 or -ENOMEM. */
int ost_calls_end(struct ost_model *m, struct thr *t, uint64_t end, int64_t ret);

#endif
