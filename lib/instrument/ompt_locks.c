// SPDX-License-Identifier: MIT
/*
 * The OMPT tool's lock callbacks (docs/DESIGN.md §9): omp locks and nest locks, critical,
 * ordered and atomic, each an acquire of its call site, with its wait time from
 * mutex_acquire to mutex_acquired (or nest_lock). ompt.c has the regions they happen in.
 */
#include "instrument/ompt_host.h"
#include "instrument/ompt_waits.h"

static uint32_t lock_kind(int kind)
{
	switch (kind) {
	case ompt_mutex_nest_lock:
	case ompt_mutex_test_nest_lock:
		return UPROF_OMP_SITE_NEST_LOCK;
	case ompt_mutex_critical:
		return UPROF_OMP_SITE_CRITICAL;
	case ompt_mutex_ordered:
		return UPROF_OMP_SITE_ORDERED;
	case ompt_mutex_atomic:
		return UPROF_OMP_SITE_ATOMIC;
	default:
		return UPROF_OMP_SITE_LOCK;
	}
}

/*
 * Lock waits and tests. omp_test_lock and omp_test_nest_lock never suspend the thread
 * (OpenMP 5.2, omp_test_lock): a test is no wait. The spec's runtime says so by the
 * mutex kind (ompt_mutex_test_lock, _test_nest_lock): no wait time, no wait record, and
 * an acquire of its site when it succeeds. libomp (14 and 19) calls mutex_acquire for a
 * test with the kind of a set (ompt_mutex_lock, _nest_lock), then mutex_acquired (or
 * nest_lock) only when the test took the lock, and nothing after one that failed. So at
 * mutex_acquire a wait is not yet known to be one: its full-scope records are written
 * when it ends in an acquire, the begin stamped as it was (mutex_wait_records); a failed
 * test writes none. Closing a wait at the thread's next event instead would count the
 * time after a failed test as waiting. Nothing else runs on the thread between the two
 * callbacks, so its records stay in order.
 */
static inline bool is_test(int kind)
{
	return kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock;
}

static void mutex_wait_records(uint64_t now)
{
	if (ompt_full_scope && !ompt_me->lock_test) {
		ins_emit_lane(UPROF_REC_OMP_WAIT_BEGIN, UPROF_OMP_WAIT_MUTEX, ompt_me->tid,
			      ompt_me->lock_site, 0, ompt_me->lock_begin);
		ins_emit_lane(UPROF_REC_OMP_WAIT_END, UPROF_OMP_WAIT_MUTEX, ompt_me->tid,
			      ompt_me->lock_site, 0, now);
	}
}

static void on_mutex_acquire(int kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wid,
			     const void *codeptr)
{
	if (on()) {
		ompt_me->lock_site = site_of(codeptr, lock_kind(kind));
		ompt_me->lock_begin = stamp();
		ompt_me->lock_test = is_test(kind);
	}
	OMPT_NEXT(ompt_callback_mutex_acquire,
		  void (*)(int, unsigned, unsigned, ompt_wait_id_t, const void *), kind, hint, impl,
		  wid, codeptr);
}

static void on_mutex_acquired(int kind, ompt_wait_id_t wid, const void *codeptr)
{
	if (on() && ompt_me->lock_begin) {
		uint64_t now = stamp(), w = ompt_me->lock_test ? 0 : now - ompt_me->lock_begin;
		uint64_t *a = ompt_me->agg[ompt_me->lock_site];
		struct frame *f = top();

		a[UPROF_OMP_F_ACQUIRES]++;
		a[UPROF_OMP_F_ACQ_WAIT] += w;
		if (f) /* by the mutex's type: LOCKWAIT is rebuilt from them when sent */
			ompt_me->agg[f->site][ompt_mutex_field(kind)] += w;
		mutex_wait_records(now);
		ompt_me->lock_begin = 0;
	}
	OMPT_NEXT(ompt_callback_mutex_acquired, void (*)(int, ompt_wait_id_t, const void *), kind,
		  wid, codeptr);
}

/* A nestable lock taken again by the thread holding it: libomp calls mutex_acquire, then
 * nest_lock (scope begin) in place of mutex_acquired. Each omp_set_nest_lock is an acquire
 * of its own call site all the same (LLVM's ompt/synchronization/nest_lock test sees it
 * as acquired_nest_lock_next); without this the site counted none and a full-scope wait
 * of the acquire was never written. The holder does not wait for its own lock: the few
 * ns go to the site's wait only, not to the region's lock wait. A scope end is a release
 * to a lower level, no acquire. */
static void on_nest_lock(int endpoint, ompt_wait_id_t wid, const void *codeptr)
{
	if (on() && ompt_me->lock_begin && endpoint == ompt_scope_begin) {
		uint64_t now = stamp();
		uint64_t *a = ompt_me->agg[ompt_me->lock_site];

		a[UPROF_OMP_F_ACQUIRES]++;
		a[UPROF_OMP_F_ACQ_WAIT] += ompt_me->lock_test ? 0 : now - ompt_me->lock_begin;
		mutex_wait_records(now);
		ompt_me->lock_begin = 0;
	}
	OMPT_NEXT(ompt_callback_nest_lock, void (*)(int, ompt_wait_id_t, const void *), endpoint,
		  wid, codeptr);
}

void ompt_locks_init(void)
{
	ompt_reg(ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire);
	ompt_reg(ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired);
	ompt_reg(ompt_callback_nest_lock, (ompt_callback_t)on_nest_lock);
}
