// SPDX-License-Identifier: MIT
/*
 * The OMPT tool (docs/DESIGN.md §9): libAMDProfileController exports ompt_start_tool, which
 * answers NULL unless `uprof collect --trace openmp` asked for it (UPROF_OMPT=basic|full
 * in the environment and a control page to send to), so instrumented programs pay
 * nothing otherwise.
 *
 * Model. Per (site, thread) the tool keeps aggregates (ctlpage.h's UPROF_OMP_F_*): a
 * region instance's elapsed E runs from parallel_begin to parallel_end on the thread that
 * encountered it; each team member's span runs over its implicit task; its Sync is the
 * time in sync_region_wait (barriers, taskwait, taskgroup) less the explicit tasks it ran
 * meanwhile; lock waits run from mutex_acquire to mutex_acquired. The report derives
 * Work = span - sync - lock wait and Overhead = joined - span (fork and join).
 *
 * libomp reports a worker's implicit-barrier end and implicit-task end only when the
 * worker wakes for the next region (or at shutdown), so a worker's late ends are clamped
 * to the end of the instance they belong to, which the encountering thread stamps at
 * parallel_end: a worker's span never covers time between regions.
 *
 * Hot path: no malloc, lock or syscall per callback. Per-thread state is our own TLS
 * (initial-exec: one %fs load), not ompt_get_thread_data, whose slot belongs to a user's
 * tool we chain to (below); the thread's table is mapped once at thread_begin. Shared
 * tables (sites, instances) take one CAS when a new site is first seen and one atomic
 * add per region instance. Times are the page's stamps (TSC ticks), turned into ns once,
 * when the aggregates are sent at finalize or exit.
 *
 * Nesting and host teams (ompt_nest.c): each instance knows the instance it was
 * encountered in, so that a thread of a nested team is not idle of the enclosing
 * region, and a teams construct's hidden per-team parallel is the teams' frames.
 *
 * Transport: records on the control page's task ring (ctlpage.h 2.2), the per-region ones
 * on the thread's lane where the page has one (2.6): OMP_BEGIN/END per
 * implicit task (the timeline the report labels samples with), OMP_WAIT_* with
 * --openmp-scope full, OMP_SITE when a site is first seen, and at the end OMP_SITE and
 * OMP_VALUE records for the aggregates. A window that ends before the process does gets
 * no aggregates: the report rebuilds what it can from the rest (lib/openmp/openmp_window.c).
 * A forked child starts its own page and aggregates (at_fork_child); exit() inside a
 * region ends its open instances at the flush, counted as cut by exit (cut_by_exit).
 *
 * The start (ompt_start_tool, initialize, finalize) and the chaining to another tool of
 * OMP_TOOL_LIBRARIES are ompt_chain.c's, the lock callbacks ompt_locks.c's (the state they
 * share is in ompt_host.h); this file is the other host callbacks and their end.
 */
#include "instrument/internal.h"
#include "instrument/ompt_abi.h"
#include "instrument/ompt_nest.h"
#include "instrument/ompt_host.h"
#include "instrument/ompt_tool.h"
#include "instrument/ompt_waits.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct site sites[MAX_SITES];
static struct othread *threads[MAX_THREADS];
static uint32_t nthreads;
static int live_threads;
TLS struct othread *ompt_me;
int ompt_full_scope, ompt_flushed, ompt_chained; /* together: every callback reads them */
static uint64_t lost_threads, lost_sites, lost_records;
static uint64_t t0_stamp, t0_ns;
bool ompt_stamp_tsc;		 /* the page's stamps are TSC ticks (ins_stamp_is_tsc) */
static const char *runtime_name; /* the runtime's version string, said again after fork */
static unsigned int runtime_omp;
static int fork_pending; /* a forked child whose first region has not come yet */

/* defined here, read by every callback: a local hidden array, no GOT load */
ompt_callback_t ompt_next_cb[ompt_callback_max];

#define NEXT OMPT_NEXT

static uint32_t site_lookup(uint64_t c, uint32_t kind)
{
	uint32_t h = (uint32_t)(((c >> 2) * 0x9E3779B97F4A7C15ULL) >> 40) % (MAX_SITES - 1);

	for (uint32_t i = 0; i < MAX_SITES - 1; i++) {
		struct site *s = &sites[1 + (h + i) % (MAX_SITES - 1)];
		uint64_t cur = __atomic_load_n(&s->code, __ATOMIC_ACQUIRE);

		if (!cur) {
			if (__atomic_compare_exchange_n(&s->code, &cur, c, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				__atomic_store_n(&s->kind, kind, __ATOMIC_RELEASE);
				/* named at once: a window that ends before the flush keeps it */
				ins_emit_raw(UPROF_REC_OMP_SITE, (uint16_t)kind, 0,
					     (uint32_t)(s - sites), 0, c);
				return (uint32_t)(s - sites);
			}
		}
		if (cur == c)
			return (uint32_t)(s - sites);
	}
	__atomic_add_fetch(&lost_sites, 1, __ATOMIC_RELAXED);
	return 0;
}

uint32_t ompt_site(const void *code, uint32_t kind)
{
	return site_lookup(code ? (uint64_t)(uintptr_t)code : 1, kind);
}

/* Instance ids are (slot of the encountering thread + 1) << 32 | its count: made
 * without a shared counter, found in that thread's table. */
HOT struct inst *inst_get(uint64_t id)
{
	uint64_t slot = id >> 32;
	struct othread *t;
	struct inst *in;

	if (!slot || slot > MAX_THREADS ||
	    !(t = __atomic_load_n(&threads[slot - 1], __ATOMIC_ACQUIRE)))
		return NULL;
	in = &t->insts[id & (INSTS - 1)];
	return __atomic_load_n(&in->id, __ATOMIC_ACQUIRE) == id ? in : NULL;
}

/* The instance whose id the runtime carries in @pdata (libomp copies the value from
 * parallel_begin's slot into the team, so the value, not the address, is what lasts). */
HOT struct inst *inst_of(const ompt_data_t *pdata)
{
	return pdata ? inst_get(pdata->value) : NULL;
}

struct ompt_nest *ompt_nest_of(uint64_t id)
{
	struct inst *in = inst_get(id);

	return in ? &in->nest : NULL;
}

/* What a chained tool sees as parallel_data: its own slot, kept beside our instance. */
static ompt_data_t *user_pdata(ompt_data_t *pdata)
{
	struct inst *in = inst_of(pdata);

	return in ? &in->user : pdata;
}

static void on_thread_begin(int type, ompt_data_t *data)
{
	uint32_t slot = __atomic_fetch_add(&nthreads, 1, __ATOMIC_RELAXED);
	int saved = errno;
	struct othread *t;

	if (slot >= MAX_THREADS) {
		__atomic_add_fetch(&lost_threads, 1, __ATOMIC_RELAXED);
		goto out;
	}
	/* once per thread, never per event: the thread's own table, zeroed */
	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		__atomic_add_fetch(&lost_threads, 1, __ATOMIC_RELAXED);
		goto out;
	}
	t->tid = (uint32_t)syscall(SYS_gettid);
	t->type = (uint32_t)type;
	t->slot = slot;
	t->born = stamp();
	__atomic_store_n(&threads[slot], t, __ATOMIC_RELEASE);
	__atomic_add_fetch(&live_threads, 1, __ATOMIC_RELAXED);
	ompt_me = t;
	if (type == ompt_thread_initial || type == ompt_thread_worker)
		ins_lane_ready(); /* threads that run regions; not the runtime's helpers */
out:
	errno = saved;
	NEXT(ompt_callback_thread_begin, void (*)(int, ompt_data_t *), type, data);
}

static void on_thread_end(ompt_data_t *data)
{
	if (ompt_me) {
		ompt_me->died = stamp();
		__atomic_sub_fetch(&live_threads, 1, __ATOMIC_RELAXED);
	}
	NEXT(ompt_callback_thread_end, void (*)(ompt_data_t *), data);
}

static void child_start(void);

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *pdata,
			      unsigned int requested, int flags, const void *codeptr)
{
	if (__builtin_expect(fork_pending, 0))
		child_start();
	if (on() && ompt_me->pdepth < MAX_DEPTH) {
		uint64_t id = ompt_nest_new_id(ompt_me->slot, &ompt_me->ninst, ompt_me->pinst,
					       ompt_me->pdepth, INSTS);
		struct inst *in = &ompt_me->insts[id & (INSTS - 1)];
		struct frame *up = top();

		__atomic_store_n(&in->id, 0, __ATOMIC_RELAXED);
		in->site = ompt_nest_begin(&in->nest, up ? up->inst : 0, up ? up->site : 0,
					   &ompt_me->nt, flags, codeptr);
		if (!in->site)
			in->site = site_of(codeptr, UPROF_OMP_SITE_PARALLEL);
		in->team = requested;
		in->user.value = 0;
		in->begin = stamp();
		__atomic_store_n(&in->end, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&in->id, id, __ATOMIC_RELEASE);
		/* the fork that follows orders these before the workers' implicit_task */
		if (pdata)
			pdata->value = id;
		ompt_me->pinst[ompt_me->pdepth++] = id;
	} else if (ompt_me) {
		ompt_me->pdepth++;
	}
	NEXT(ompt_callback_parallel_begin,
	     void (*)(ompt_data_t *, const ompt_frame_t *, ompt_data_t *, unsigned, int,
		      const void *),
	     task, frame, user_pdata(pdata), requested, flags, codeptr);
}

static void on_parallel_end(ompt_data_t *pdata, ompt_data_t *task, int flags, const void *codeptr)
{
	if (ompt_me && ompt_me->pdepth > 0 && ompt_me->pdepth-- <= MAX_DEPTH && on()) {
		struct inst *in = inst_get(ompt_me->pinst[ompt_me->pdepth]);

		if (in) {
			uint64_t now = stamp();
			struct frame *up = top();

			__atomic_store_n(&in->end, now, __ATOMIC_RELEASE);
			ompt_nest_end(&in->nest, ompt_me->agg[in->site],
				      up ? ompt_me->agg[up->site] : NULL, in->team, now - in->begin,
				      __atomic_load_n(&live_threads, __ATOMIC_RELAXED));
		}
	}
	NEXT(ompt_callback_parallel_end, void (*)(ompt_data_t *, ompt_data_t *, int, const void *),
	     user_pdata(pdata), task, flags, codeptr);
}

/* one add: SYNC and BARRIER are rebuilt from the types when sent (ompt_waits.h) */
static void add_wait(struct othread *t, struct frame *f, uint32_t kind, uint64_t w)
{
	t->agg[f->site][ompt_wait_field(kind)] += w;
}

/* @now, or @ie, the end of the instance, when that came first (a worker's late callback) */
HOT uint64_t clamp_to(uint64_t ie, uint64_t now)
{
	return ie && ie < now ? ie : now;
}

HOT uint64_t end_of(const struct inst *in)
{
	return in ? __atomic_load_n(&in->end, __ATOMIC_ACQUIRE) : 0;
}

/* The time a wait or implicit task of instance @in ends, seen now: the clock, clamped to
 * the instance's end. libomp reports a worker's implicit-barrier end and implicit-task
 * end late, at its next wake-up, after the instance ended: then the clock is not read,
 * its value would be clamped anyway. A clock read is 25 ns on kvm-clock, as much as a
 * callback's own work (bench/README.md); this saves two of the ten a two-thread region
 * makes. The end is loaded again after the clock, as before: an instance that ends
 * between the two clamps the interval to it. */
HOT uint64_t end_seen(const struct inst *in)
{
	uint64_t ie = end_of(in);

	return ie ? ie : clamp_to(end_of(in), stamp());
}

/* Close @f at @now (0: now, end_seen). */
static void close_frame(struct othread *t, struct frame *f, int depth, uint64_t now)
{
	struct inst *in = inst_get(f->inst);
	uint64_t end = now ? clamp_to(end_of(in), now) : end_seen(in);
	uint64_t ie = end_of(in);
	uint64_t *a = t->agg[f->site];

	if (f->wait_begin) {
		add_wait(t, f, f->wait_kind, end > f->wait_begin ? end - f->wait_begin : 0);
		f->wait_begin = 0;
	}
	a[UPROF_OMP_F_ITASKS]++;
	a[UPROF_OMP_F_SPAN] += end - f->begin;
	a[OMPT_AGG_TEAM_INDEX] = f->index; /* sent as UPROF_OMP_F_TEAM_INDEX (ompt_waits.h) */
	if (in && ie)
		a[UPROF_OMP_F_JOINED] += ie - in->begin;
	else if (in && f->index)
		a[UPROF_OMP_F_JOINED] += end - in->begin;
	/* member 0 before parallel_end: on_parallel_end adds its instance */
	if (depth == 0)
		t->in_regions += end - f->begin;
	/* this thread's own END on its lane; one the exit flush writes for another thread on
	 * the shared ring, which the profiler drains after the lanes (ctlpage.h, 2.6) */
	(t == ompt_me ? ins_emit_lane : ins_emit_raw)(UPROF_REC_OMP_END, (uint16_t)depth, t->tid,
						      f->site, f->index, end);
}

/* A team primary's initial task of a league (a teams construct): the team it runs
 * (ompt_nest.h), the league's size from its first. */
static void team_of_league(int endpoint, struct inst *league, unsigned int actual,
			   unsigned int index)
{
	if (endpoint != ompt_scope_begin) {
		ompt_me->nt.league = 0;
	} else if (league && league->nest.league) {
		if (index == 0)
			league->team = actual;
		ompt_me->nt = (struct ompt_nest_thread){ league->id, league->site, index };
	}
}

static void on_implicit_task(int endpoint, ompt_data_t *pdata, ompt_data_t *task,
			     unsigned int actual, unsigned int index, int flags)
{
	bool live = on();

	if (live && (flags & ompt_task_initial))
		team_of_league(endpoint, inst_of(pdata), actual, index);
	if (!live || (flags & ompt_task_initial))
		goto next;
	if (endpoint == ompt_scope_begin) {
		struct inst *in = inst_of(pdata);
		struct frame *f;

		if (ompt_me->depth++ >= MAX_DEPTH)
			goto next;
		f = &ompt_me->fr[ompt_me->depth - 1];
		f->inst = in ? in->id : 0;
		f->site = in ? in->site : 0;
		f->index = in && in->nest.hidden ? ompt_me->nt.team : index;
		f->wait_begin = 0;
		/* stored only when it changes: members reading the instance keep their copy */
		if (in && index == 0 && in->team != actual)
			in->team = actual;
		/* level 1 is sent for any site with ITASKS (ompt_waits_value): the row's line
		 * of NEST_LEVEL is touched only by nested teams */
		if (ompt_me->depth > 1 &&
		    ompt_me->agg[f->site][UPROF_OMP_F_NEST_LEVEL] < (uint64_t)ompt_me->depth)
			ompt_me->agg[f->site][UPROF_OMP_F_NEST_LEVEL] = (uint64_t)ompt_me->depth;
		f->begin = stamp();
		ins_emit_lane(UPROF_REC_OMP_BEGIN, (uint16_t)(ompt_me->depth - 1), ompt_me->tid,
			      f->site, index, f->begin);
	} else if (ompt_me->depth > 0 && ompt_me->depth-- <= MAX_DEPTH) {
		close_frame(ompt_me, &ompt_me->fr[ompt_me->depth], ompt_me->depth, 0);
	}
next:
	NEXT(ompt_callback_implicit_task,
	     void (*)(int, ompt_data_t *, ompt_data_t *, unsigned, unsigned, int), endpoint,
	     user_pdata(pdata), task, actual, index, flags);
}

static void on_sync_wait(int kind, int endpoint, ompt_data_t *pdata, ompt_data_t *task,
			 const void *codeptr)
{
	struct frame *f = on() ? top() : NULL;

	if (f && endpoint == ompt_scope_begin) {
		f->wait_kind = ompt_wait_kind(kind);
		f->wait_begin = stamp();
		if (ompt_full_scope)
			ins_emit_lane(UPROF_REC_OMP_WAIT_BEGIN, (uint16_t)f->wait_kind,
				      ompt_me->tid, f->site, f->index, f->wait_begin);
	} else if (f && f->wait_begin) {
		uint64_t end = end_seen(inst_get(f->inst));

		add_wait(ompt_me, f, f->wait_kind, end > f->wait_begin ? end - f->wait_begin : 0);
		f->wait_begin = 0;
		if (ompt_full_scope)
			ins_emit_lane(UPROF_REC_OMP_WAIT_END, (uint16_t)f->wait_kind, ompt_me->tid,
				      f->site, f->index, end);
	}
	NEXT(ompt_callback_sync_region_wait,
	     void (*)(int, int, ompt_data_t *, ompt_data_t *, const void *), kind, endpoint,
	     user_pdata(pdata), task, codeptr);
}

/* An explicit task runs inside a wait (a barrier or taskwait executing tasks): its time
 * is work, so the wait is paused while it runs and resumed when it completes. */
static void on_task_schedule(ompt_data_t *prior, int status, ompt_data_t *next)
{
	bool live = on();
	struct frame *f = live ? top() : NULL;
	uint64_t now;

	if (!live)
		goto next;
	now = stamp();
	if (status == ompt_task_complete || status == ompt_task_cancel ||
	    status == ompt_task_detach || status == ompt_task_late_fulfill) {
		if (ompt_me->tdepth > 0 && ompt_me->tdepth-- <= MAX_TASK_DEPTH) {
			uint32_t w = ompt_me->task_wait[ompt_me->tdepth];

			if (f) {
				ompt_me->agg[f->site][UPROF_OMP_F_TASK_TIME] +=
					now - ompt_me->task_begin[ompt_me->tdepth];
				if (w) {
					f->wait_kind = w;
					f->wait_begin = now;
					if (ompt_full_scope) /* the wait goes on after the task */
						ins_emit_lane(UPROF_REC_OMP_WAIT_BEGIN, (uint16_t)w,
							      ompt_me->tid, f->site, f->index, now);
				}
			}
		}
	} else if (ompt_me->tdepth++ < MAX_TASK_DEPTH) {
		ompt_me->task_begin[ompt_me->tdepth - 1] = now;
		ompt_me->task_wait[ompt_me->tdepth - 1] = 0;
		if (f && f->wait_begin) {
			add_wait(ompt_me, f, f->wait_kind, now - f->wait_begin);
			ompt_me->task_wait[ompt_me->tdepth - 1] = f->wait_kind;
			f->wait_begin = 0;
			if (ompt_full_scope) /* the task's time is work, not the wait's */
				ins_emit_lane(UPROF_REC_OMP_WAIT_END, (uint16_t)f->wait_kind,
					      ompt_me->tid, f->site, f->index, now);
		}
	}
next:
	NEXT(ompt_callback_task_schedule, void (*)(ompt_data_t *, int, ompt_data_t *), prior,
	     status, next);
}

static void on_task_create(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *newt,
			   int flags, int deps, const void *codeptr)
{
	struct frame *f = on() ? top() : NULL;

	if (f && (flags & ompt_task_explicit))
		ompt_me->agg[f->site][UPROF_OMP_F_TASKS]++;
	NEXT(ompt_callback_task_create,
	     void (*)(ompt_data_t *, const ompt_frame_t *, ompt_data_t *, int, int, const void *),
	     task, frame, newt, flags, deps, codeptr);
}

static void on_work(int wstype, int endpoint, ompt_data_t *pdata, ompt_data_t *task, uint64_t count,
		    const void *codeptr)
{
	struct frame *f = on() ? top() : NULL;

	if (f && endpoint == ompt_scope_begin &&
	    (wstype == ompt_work_loop ||
	     (wstype >= ompt_work_loop_static && wstype <= ompt_work_loop_other))) {
		uint64_t *a = ompt_me->agg[f->site];

		a[UPROF_OMP_F_LOOPS]++;
		a[UPROF_OMP_F_LOOP_ITERS] += count;
		a[UPROF_OMP_F_LOOP_KIND] = (uint64_t)wstype;
	}
	if (f && endpoint == ompt_scope_begin)
		ompt_loop_begin(ompt_me->agg, f->site, f->index, wstype, count, codeptr);
	NEXT(ompt_callback_work,
	     void (*)(int, int, ompt_data_t *, ompt_data_t *, uint64_t, const void *), wstype,
	     endpoint, user_pdata(pdata), task, count, codeptr);
}

/* ---- the end: aggregates to the ring ---- */

static bool is_time(int f)
{
	switch (f) {
	case UPROF_OMP_F_SPAN:
	case UPROF_OMP_F_JOINED:
	case UPROF_OMP_F_SYNC:
	case UPROF_OMP_F_BARRIER:
	case UPROF_OMP_F_TASKWAIT:
	case UPROF_OMP_F_TASKGROUP:
	case UPROF_OMP_F_LOCKWAIT:
	case UPROF_OMP_F_TASK_TIME:
	case UPROF_OMP_F_ELAPSED:
	case UPROF_OMP_F_IDLE:
	case UPROF_OMP_F_ACQ_WAIT:
	case UPROF_OMP_F_THREAD_LIFE:
	case UPROF_OMP_F_THREAD_IN:
	case UPROF_OMP_F_NESTED:
	case UPROF_OMP_F_WAIT_IMPLICIT ... UPROF_OMP_F_WAIT_ORDERED:
		return true;
	default:
		return false;
	}
}

/* At exit the ring may still be full of region records the profiler is draining: wait
 * for room (bounded), since these few records are the whole summary. */
static void put(uint16_t kind, uint16_t how, uint32_t tid, uint32_t domain, uint32_t name,
		uint64_t value)
{
	for (int tries = 0; !ins_emit_raw(kind, how, tid, domain, name, value); tries++) {
		if (tries >= 500) {
			lost_records++;
			return;
		}
		usleep(2000);
	}
}

/* exit() inside a region: an instance @t encountered that never ended is counted, its
 * elapsed up to @now, and marked as cut by exit (its members' frames, closed next, clamp to
 * that end). At a normal end no instance is open. */
static void cut_by_exit(struct othread *t, uint64_t now)
{
	for (int d = (t->pdepth < MAX_DEPTH ? t->pdepth : MAX_DEPTH) - 1; d >= 0; d--) {
		struct inst *in = inst_get(t->pinst[d]);
		uint64_t *a;

		if (!in || __atomic_load_n(&in->end, __ATOMIC_ACQUIRE))
			continue;
		__atomic_store_n(&in->end, now, __ATOMIC_RELEASE);
		a = t->agg[in->site];
		a[UPROF_OMP_F_REGIONS]++;
		a[UPROF_OMP_F_ELAPSED] += now - in->begin;
		a[UPROF_OMP_F_TEAM_SUM] += in->team;
		a[UPROF_OMP_F_CUT_EXIT]++;
	}
}

static void flush(void)
{
	int saved = errno;
	uint64_t now, nt;
	double ns_per_tick = 1.0;

	if (__atomic_exchange_n(&ompt_flushed, 1, __ATOMIC_ACQ_REL))
		return;
	ompt_target_flush();
	now = stamp();
	if (ompt_stamp_tsc) {
		uint64_t ns;

		ins_clock_pair(&now, &ns);
		if (now > t0_stamp && ns > t0_ns)
			ns_per_tick = (double)(ns - t0_ns) / (double)(now - t0_stamp);
	}
	nt = __atomic_load_n(&nthreads, __ATOMIC_ACQUIRE);
	if (nt > MAX_THREADS)
		nt = MAX_THREADS;
	for (uint32_t i = 0; i < nt; i++) /* before any frame is closed: they clamp to these */
		if (threads[i])
			cut_by_exit(threads[i], now);
	for (uint32_t s = 1; s < MAX_SITES; s++) {
		uint64_t code = __atomic_load_n(&sites[s].code, __ATOMIC_ACQUIRE);

		if (code)
			put(UPROF_REC_OMP_SITE, (uint16_t)sites[s].kind, 0, s, 0, code);
	}
	for (uint32_t i = 0; i < nt; i++) {
		struct othread *t = __atomic_load_n(&threads[i], __ATOMIC_ACQUIRE);

		if (!t)
			continue;
		/* a worker's last implicit task ends only at shutdown: close it here */
		for (int d = (t->depth < MAX_DEPTH ? t->depth : MAX_DEPTH) - 1; d >= 0; d--)
			close_frame(t, &t->fr[d], d, now);
		t->depth = 0;
		t->agg[0][UPROF_OMP_F_THREAD_LIFE] = (t->died ? t->died : now) - t->born;
		t->agg[0][UPROF_OMP_F_THREAD_IN] = t->in_regions;
		t->agg[0][UPROF_OMP_F_THREAD_TYPE] = t->type;
		for (uint32_t s = 0; s < MAX_SITES; s++)
			for (int f = 1; f < NF; f++) {
				uint64_t v = ompt_waits_value(t->agg[s], f);

				if (v)
					put(UPROF_REC_OMP_VALUE, (uint16_t)f, t->tid, s, i + 1,
					    is_time(f) ? (uint64_t)((double)v * ns_per_tick) : v);
			}
	}
	put(UPROF_REC_OMP_VALUE, UPROF_OMP_F_CALLBACKS, 0, 0, 0, ompt_callbacks_always);
	put(UPROF_REC_OMP_VALUE, UPROF_OMP_F_SCOPE, 0, 0, 0, ompt_full_scope ? 2 : 1);
	if (lost_threads)
		put(UPROF_REC_OMP_VALUE, UPROF_OMP_F_LOST_THREADS, 0, 0, 0, lost_threads);
	if (lost_sites)
		put(UPROF_REC_OMP_VALUE, UPROF_OMP_F_LOST_SITES, 0, 0, 0, lost_sites);
	if (lost_records) /* what could not be sent before: this one may still go */
		put(UPROF_REC_OMP_VALUE, UPROF_OMP_F_LOST_RECORDS, 0, 0, 0, lost_records);
	errno = saved;
}

/* A forked child is a process of its own to the profiler: its own page and .ompt file
 * (page.c's fork handler, registered before this one, dropped the parent's page). Of the
 * tool's state it keeps the forking thread, whose aggregates start from zero (the parent
 * sends what came before); its sites are learnt again, each named on the new page when
 * first seen, so the child's file has the sites it used. The page is made at the child's
 * first region (child_start), not here: a child that execs at once (system(), popen())
 * makes none, and is no OpenMP process of the run. */
static void at_fork_child(void)
{
	struct othread *keep = ompt_me;

	for (uint32_t i = 0; i < MAX_THREADS; i++) {
		if (threads[i] && threads[i] != keep)
			munmap(threads[i], sizeof(*threads[i]));
		if (threads[i] != keep)
			threads[i] = NULL;
	}
	live_threads = keep ? 1 : 0;
	lost_threads = lost_sites = lost_records = 0;
	if (keep) {
		memset(keep->agg, 0, sizeof(keep->agg));
		keep->tid = (uint32_t)syscall(SYS_gettid);
		keep->born = stamp();
		keep->died = keep->in_regions = 0;
		keep->last_code = 0;
	}
	memset(sites, 0, sizeof(sites));
	fork_pending = 1;
}

/* A forked child's first region: its page, named as the parent's was. */
static void child_start(void)
{
	fork_pending = 0;
	if (!ins_on()) {
		__atomic_store_n(&ompt_flushed, 1, __ATOMIC_RELEASE); /* nobody to send to */
		return;
	}
	ins_emit_raw(UPROF_REC_OMP_RUNTIME, 0, 0, 0, ins_intern(runtime_name), runtime_omp);
}

void ompt_flush(void)
{
	flush();
}

void ompt_host_start(bool full, const char *runtime_version, unsigned int omp_version)
{
	ompt_full_scope = full;
	runtime_name = runtime_version ? runtime_version : "";
	runtime_omp = omp_version;
	ins_emit_raw(UPROF_REC_OMP_RUNTIME, 0, 0, 0, ins_intern(runtime_name), omp_version);
}

void ompt_host_init(void)
{
	ompt_stamp_tsc = ins_stamp_is_tsc();
	if (ompt_stamp_tsc)
		ins_clock_pair(&t0_stamp, &t0_ns);
	else
		t0_stamp = t0_ns = ins_now_ns();
	ompt_reg(ompt_callback_thread_begin, (ompt_callback_t)on_thread_begin);
	ompt_reg(ompt_callback_thread_end, (ompt_callback_t)on_thread_end);
	ompt_reg(ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin);
	ompt_reg(ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end);
	ompt_reg(ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task);
	ompt_reg(ompt_callback_sync_region_wait, (ompt_callback_t)on_sync_wait);
	ompt_reg(ompt_callback_task_create, (ompt_callback_t)on_task_create);
	ompt_reg(ompt_callback_task_schedule, (ompt_callback_t)on_task_schedule);
	ompt_reg(ompt_callback_work, (ompt_callback_t)on_work);
	ompt_locks_init();
	ompt_target_init();
	ins_exit_hook = flush;
	pthread_atfork(NULL, NULL, at_fork_child);
}
