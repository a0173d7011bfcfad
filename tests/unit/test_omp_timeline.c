// SPDX-License-Identifier: MIT
/*
 * lib/report/openmp_timeline.c: a process's OMPT records as its threads' OpenMP states
 * and its barriers' late threads. A hand-made run of two threads (pid 100, tid 100 the
 * initial thread, tid 101 a worker) gives each point's state and region exactly;
 * records that do not pair (an END without its BEGIN, a BEGIN of the wrong depth, a
 * wait never ended) are dropped, never guessed; basic scope tells only the runtime's
 * code from the rest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report/openmp_state.h"

#define PID 100
#define W 101 /* the worker */
#define R1 1  /* region sites */
#define R2 2
#define LOCK 7

#define BEGIN(t, tid, site, slot, depth) { t, tid, SES_OMPT_BEGIN, depth, site, slot }
#define END(t, tid, site, slot, depth) { t, tid, SES_OMPT_END, depth, site, slot }
#define WAIT(t, tid, kind, site, slot) { t, tid, SES_OMPT_WAIT_BEGIN, kind, site, slot }
#define WEND(t, tid, kind, site, slot) { t, tid, SES_OMPT_WAIT_END, kind, site, slot }
#define IMPL SES_OMPT_WAIT_BARRIER_IMPLICIT
#define EXPL SES_OMPT_WAIT_BARRIER_EXPLICIT

/*
 * Region R1, one instance: the initial thread's task runs [100, 420], the worker's
 * [110, 420]. The worker waits at an explicit barrier from 200, the initial thread from
 * 300, both released at 305. At the closing barrier the worker waits from 400, the
 * initial thread from 410. The initial thread waits for a lock [250, 260] in its task.
 * Then R2 at [500, 600] (the worker's task from 505), the initial thread's task of it
 * holding a nested region (site 3, depth 1) at [520, 540].
 */
static const struct ses_ompt_record run[] = {
	BEGIN(100, PID, R1, 0, 0),
	BEGIN(110, W, R1, 1, 0),
	WAIT(200, W, EXPL, R1, 1),
	WAIT(250, PID, SES_OMPT_WAIT_MUTEX, LOCK, 0),
	WEND(260, PID, SES_OMPT_WAIT_MUTEX, LOCK, 0),
	WAIT(300, PID, EXPL, R1, 0),
	WEND(305, PID, EXPL, R1, 0),
	WEND(305, W, EXPL, R1, 1),
	WAIT(400, W, IMPL, R1, 1),
	WAIT(410, PID, IMPL, R1, 0),
	WEND(420, PID, IMPL, R1, 0),
	END(420, PID, R1, 0, 0),
	/* the worker's end of its closing barrier comes with its task's end, both clamped
	 * to the instance's end */
	WEND(420, W, IMPL, R1, 1),
	END(420, W, R1, 1, 0),
	BEGIN(500, PID, R2, 0, 0),
	BEGIN(505, W, R2, 1, 0),
	BEGIN(520, PID, 3, 0, 1),
	END(540, PID, 3, 0, 1),
	END(600, PID, R2, 0, 0),
	END(600, W, R2, 1, 0),
};

static struct ses_ompt ompt_of(const struct ses_ompt_record *recs, size_t n)
{
	struct ses_ompt o;

	memset(&o, 0, sizeof(o));
	o.pid = PID;
	o.events = (struct ses_ompt_record *)recs;
	o.nevents = n;
	return o;
}

struct want {
	uint32_t tid;
	uint64_t time;
	int state;
	uint32_t site;
};

/* Label the points of @w (sorted by tid, time) and compare each. */
static void expect(const struct ses_ompt_record *recs, size_t nrecs, uint16_t scope,
		   const struct want *w, size_t n, bool in_runtime)
{
	struct ses_ompt o = ompt_of(recs, nrecs);
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);
	struct rpt_omp_point *pts = calloc(n, sizeof(*pts));

	assert_non_null(tl);
	assert_non_null(pts);
	for (size_t i = 0; i < n; i++)
		pts[i] = (struct rpt_omp_point){ .time = w[i].time,
						 .tid = w[i].tid,
						 .in_runtime = in_runtime };
	rpt_omp_timeline_label(tl, PID, scope, pts, n);
	for (size_t i = 0; i < n; i++) {
		if (pts[i].state != w[i].state || pts[i].site != w[i].site)
			fail_msg("tid %u at %llu: %s in site %u, want %s in site %u", w[i].tid,
				 (unsigned long long)w[i].time, rpt_omp_state_name(pts[i].state),
				 pts[i].site, rpt_omp_state_name(w[i].state), w[i].site);
	}
	free(pts);
	rpt_omp_timeline_free(tl);
}

/* Full scope: every state, each point's region. */
static void states_full(void **state)
{
	const struct want w[] = {
		{ PID, 50, RPT_OMP_SERIAL, 0 },	     /* before the first region */
		{ PID, 150, RPT_OMP_WORK, R1 },
		{ PID, 255, RPT_OMP_LOCK, R1 },	     /* a lock wait in the task: its region */
		{ PID, 302, RPT_OMP_BARRIER, R1 },
		{ PID, 310, RPT_OMP_WORK, R1 },	     /* released */
		{ PID, 415, RPT_OMP_BARRIER, R1 },
		{ PID, 450, RPT_OMP_SERIAL, 0 },     /* between the regions */
		{ PID, 530, RPT_OMP_WORK, 3 },	     /* the nested region's, not R2's */
		{ PID, 550, RPT_OMP_WORK, R2 },
		{ PID, 700, RPT_OMP_SERIAL, 0 },
		{ W, 50, RPT_OMP_IDLE, 0 },	     /* a worker outside regions */
		{ W, 105, RPT_OMP_OVERHEAD, R1 },    /* in the instance, before its task */
		{ W, 150, RPT_OMP_WORK, R1 },
		{ W, 200, RPT_OMP_BARRIER, R1 },     /* a wait's begin is in it */
		{ W, 305, RPT_OMP_BARRIER, R1 },     /* and its end */
		{ W, 306, RPT_OMP_WORK, R1 },
		{ W, 401, RPT_OMP_BARRIER, R1 },
		{ W, 450, RPT_OMP_IDLE, 0 },
		{ W, 502, RPT_OMP_OVERHEAD, R2 },
		{ W, 530, RPT_OMP_WORK, R2 },
	};

	struct ses_ompt o = ompt_of(run, sizeof(run) / sizeof(run[0]));
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);

	(void)state;
	expect(run, sizeof(run) / sizeof(run[0]), SES_OMPT_SCOPE_FULL, w, sizeof(w) / sizeof(w[0]),
	       false);
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_unpaired_waits(tl), 0);
	rpt_omp_timeline_free(tl);
}

/* A lock wait outside every region is a lock wait of no region. */
static void lock_outside_regions(void **state)
{
	const struct ses_ompt_record recs[] = {
		WAIT(10, PID, SES_OMPT_WAIT_MUTEX, LOCK, 0),
		WEND(20, PID, SES_OMPT_WAIT_MUTEX, LOCK, 0),
	};
	const struct want w[] = {
		{ PID, 15, RPT_OMP_LOCK, 0 },
		{ PID, 25, RPT_OMP_SERIAL, 0 },
	};

	(void)state;
	expect(recs, 2, SES_OMPT_SCOPE_FULL, w, 2, false);
}

/* Basic scope has no waits: inside a task, the runtime's code is "runtime", the rest
 * work; outside, as full scope. */
static void states_basic(void **state)
{
	const struct ses_ompt_record recs[] = {
		BEGIN(100, PID, R1, 0, 0),
		BEGIN(110, W, R1, 1, 0),
		END(420, PID, R1, 0, 0),
		END(420, W, R1, 1, 0),
	};
	const struct want rt[] = {
		{ PID, 50, RPT_OMP_SERIAL, 0 },
		{ PID, 302, RPT_OMP_RUNTIME, R1 },
		{ W, 105, RPT_OMP_OVERHEAD, R1 },
		{ W, 300, RPT_OMP_RUNTIME, R1 },
	};
	const struct want user[] = {
		{ PID, 302, RPT_OMP_WORK, R1 },
		{ W, 300, RPT_OMP_WORK, R1 },
	};

	(void)state;
	expect(recs, 4, SES_OMPT_SCOPE_BASIC, rt, 4, true);
	expect(recs, 4, SES_OMPT_SCOPE_BASIC, user, 2, false);
	/* full scope never says runtime: there the records tell waits from work */
	expect(recs, 4, SES_OMPT_SCOPE_FULL, user, 2, true);
}

/* Records that do not pair are dropped: an END without a BEGIN, a BEGIN at the wrong
 * depth, an END of another site, a WAIT_END of another kind. */
static void unpaired_dropped(void **state)
{
	const struct ses_ompt_record recs[] = {
		END(50, PID, R1, 0, 0),	   /* nothing open */
		BEGIN(100, PID, R1, 0, 1), /* depth 1 with nothing open */
		BEGIN(200, PID, R2, 0, 0),
		END(250, PID, R1, 0, 0),   /* not R2's end */
		WAIT(260, PID, IMPL, R2, 0),
		WEND(270, PID, SES_OMPT_WAIT_MUTEX, R2, 0), /* not its kind */
		END(300, PID, R2, 0, 0),		     /* closes the wait too */
	};
	const struct want w[] = {
		{ PID, 150, RPT_OMP_SERIAL, 0 },
		{ PID, 255, RPT_OMP_WORK, R2 },
		{ PID, 280, RPT_OMP_BARRIER, R2 },
		{ PID, 310, RPT_OMP_SERIAL, 0 },
	};
	struct ses_ompt o = ompt_of(recs, sizeof(recs) / sizeof(recs[0]));
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);

	(void)state;
	expect(recs, sizeof(recs) / sizeof(recs[0]), SES_OMPT_SCOPE_FULL, w, 4, false);
	/* the WAIT_END of another kind, counted; the wait its task's end closed is not */
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_unpaired_waits(tl), 1);
	rpt_omp_timeline_free(tl);
}

/* Waits left open when their thread's records end, and a ninth wait open at once on one
 * thread, are counted as unpaired. */
static void unpaired_waits_counted(void **state)
{
	struct ses_ompt_record recs[12];
	struct ses_ompt o;
	struct rpt_omp_timeline *tl;
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 9; i++) /* nine nested waits: one past the bound */
		recs[n++] = (struct ses_ompt_record)WAIT((uint64_t)10 + i, PID, SES_OMPT_WAIT_MUTEX,
							  LOCK, 0);
	recs[n++] = (struct ses_ompt_record)WAIT(10, W, IMPL, 0, 1); /* never ended */
	o = ompt_of(recs, n);
	tl = rpt_omp_timeline_new(&o);
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_unpaired_waits(tl), 10);
	rpt_omp_timeline_free(tl);
}

static const struct rpt_omp_episode *find(const struct rpt_omp_episode *e, size_t n,
					   uint16_t kind, uint32_t site)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].kind == kind && e[i].site == site)
			return &e[i];
	return NULL;
}

/* The run's two barriers of R1: the initial thread came last to both. */
static void late_threads(void **state)
{
	struct ses_ompt o = ompt_of(run, sizeof(run) / sizeof(run[0]));
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);
	struct rpt_omp_episode *e = NULL;
	const struct rpt_omp_episode *x;
	size_t n = 0;

	(void)state;
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_episodes(tl, &e, &n), 0);
	assert_int_equal(n, 2); /* R2 had no barrier wait: no episode */
	x = find(e, n, EXPL, R1);
	assert_non_null(x);
	assert_int_equal(x->late_tid, PID);
	assert_int_equal(x->late_slot, 0);
	assert_int_equal(x->arrivals, 2);
	assert_int_equal(x->first, 200);
	assert_int_equal(x->last, 300);
	assert_int_equal(x->late_ns, 100);
	assert_int_equal(x->blamed_ns, 100);
	x = find(e, n, IMPL, R1);
	assert_non_null(x);
	assert_int_equal(x->late_tid, PID);
	assert_int_equal(x->first, 400);
	assert_int_equal(x->last, 410);
	assert_int_equal(x->blamed_ns, 10);
	free(e);
	rpt_omp_timeline_free(tl);
}

/* Three members, two instances: each instance's k-th barrier is one episode; late by the
 * mean of the others' arrivals, blamed for their sum. */
static void three_members_two_instances(void **state)
{
	const struct ses_ompt_record recs[] = {
		BEGIN(0, PID, R1, 0, 0),	BEGIN(1, W, R1, 1, 0),	     BEGIN(2, 102, R1, 2, 0),
		WAIT(10, PID, EXPL, R1, 0),	WAIT(40, W, EXPL, R1, 1),    WAIT(20, 102, EXPL, R1, 2),
		WEND(41, PID, EXPL, R1, 0),	WEND(41, W, EXPL, R1, 1),    WEND(41, 102, EXPL, R1, 2),
		END(50, PID, R1, 0, 0),		END(50, W, R1, 1, 0),	     END(50, 102, R1, 2, 0),
		/* the second instance: thread 102 last */
		BEGIN(100, PID, R1, 0, 0),	BEGIN(101, W, R1, 1, 0),     BEGIN(102, 102, R1, 2, 0),
		WAIT(110, PID, EXPL, R1, 0),	WAIT(110, W, EXPL, R1, 1),   WAIT(170, 102, EXPL, R1, 2),
		WEND(171, PID, EXPL, R1, 0),	WEND(171, W, EXPL, R1, 1),   WEND(171, 102, EXPL, R1, 2),
		END(180, PID, R1, 0, 0),	END(180, W, R1, 1, 0),	     END(180, 102, R1, 2, 0),
	};
	struct ses_ompt o = ompt_of(recs, sizeof(recs) / sizeof(recs[0]));
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);
	struct rpt_omp_episode *e = NULL;
	size_t n = 0;

	(void)state;
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_episodes(tl, &e, &n), 0);
	assert_int_equal(n, 2);
	/* by instance: the first's late thread is W (40 after 10 and 20) */
	assert_int_equal(e[0].late_tid, W);
	assert_int_equal(e[0].late_slot, 1);
	assert_int_equal(e[0].arrivals, 3);
	assert_int_equal(e[0].blamed_ns, 30 + 20);
	assert_int_equal(e[0].late_ns, 25);
	assert_int_equal(e[0].first, 10);
	assert_int_equal(e[1].late_tid, 102);
	assert_int_equal(e[1].late_slot, 2);
	assert_int_equal(e[1].blamed_ns, 60 + 60);
	assert_int_equal(e[1].late_ns, 60);
	free(e);
	rpt_omp_timeline_free(tl);
}

/* No records at all: every point is serial (the initial thread) or idle; no episode. */
static void empty(void **state)
{
	const struct want w[] = {
		{ PID, 5, RPT_OMP_SERIAL, 0 },
		{ W, 5, RPT_OMP_IDLE, 0 },
	};
	struct ses_ompt o = ompt_of(NULL, 0);
	struct rpt_omp_timeline *tl = rpt_omp_timeline_new(&o);
	struct rpt_omp_episode *e = NULL;
	size_t n = 1;

	(void)state;
	expect(NULL, 0, SES_OMPT_SCOPE_FULL, w, 2, false);
	assert_non_null(tl);
	assert_int_equal(rpt_omp_timeline_episodes(tl, &e, &n), 0);
	assert_int_equal(n, 0);
	free(e);
	rpt_omp_timeline_free(tl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(states_full),
		cmocka_unit_test(lock_outside_regions),
		cmocka_unit_test(states_basic),
		cmocka_unit_test(unpaired_dropped),
		cmocka_unit_test(unpaired_waits_counted),
		cmocka_unit_test(late_threads),
		cmocka_unit_test(three_members_two_instances),
		cmocka_unit_test(empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
