// SPDX-License-Identifier: MIT
/*
 * lib/openmp/openmp_window.c: a process the window ended before, its figures rebuilt
 * from the region records. Exact by construction: made-up BEGIN/END/WAIT records of two
 * threads give the implicit tasks, spans, instances and team sizes the tool would have
 * summed for the instances seen whole; an instance open at an edge counts as cut there
 * (team member 0's only: instances, not tasks), never as an instance; a thread's record
 * that pairs wrong is unpaired, not a cut; a file with its summary is left alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "openmp/openmp.h"
#include "util/util.h"

#define PID 100
#define WORKER 101
#define SITE 5
#define LOCK 7

#define B(t, tid, idx, depth) \
	{ \
		t, tid, SES_OMPT_BEGIN, depth, SITE, idx \
	}
#define E(t, tid, idx, depth) \
	{ \
		t, tid, SES_OMPT_END, depth, SITE, idx \
	}

static uint64_t value(const struct ses_ompt_record *v, size_t n, uint32_t site, uint32_t tid,
		      uint16_t field)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].site == site && v[i].tid == tid && v[i].how == field) {
			assert_int_equal(v[i].kind, SES_OMPT_VALUE);
			return v[i].value;
		}
	return 0;
}

static void rebuild(struct rpt_omp_proc *p, struct ses_ompt_record *ev, size_t n,
		    struct ses_ompt_record **vals, size_t *nvals)
{
	struct ses_ompt o;

	memset(&o, 0, sizeof(o));
	memset(p, 0, sizeof(*p));
	p->pid = PID;
	o.events = ev;
	o.nevents = n;
	o.scope = SES_OMPT_SCOPE_FULL;
	assert_int_equal(rpt_omp_window_rebuild(p, &o, NULL, vals, nvals), 0);
}

/* The window opens inside one instance and closes inside another: two whole ones. */
static void instances_seen_whole(void **state)
{
	struct ses_ompt_record ev[] = {
		E(5, PID, 0, 0),     E(6, WORKER, 1, 0), B(10, PID, 0, 0), B(11, WORKER, 1, 0),
		E(19, WORKER, 1, 0), E(20, PID, 0, 0),	 B(30, PID, 0, 0), B(31, WORKER, 1, 0),
		E(44, WORKER, 1, 0), E(45, PID, 0, 0),	 B(50, PID, 0, 0), B(51, WORKER, 1, 0),
	};
	struct ses_ompt_record *v;
	struct rpt_omp_proc p;
	size_t n;

	(void)state;
	rebuild(&p, ev, sizeof(ev) / sizeof(ev[0]), &v, &n);
	assert_true(p.rebuilt);
	assert_int_equal(p.cut_start, 1);
	assert_int_equal(p.cut_end, 1);
	assert_int_equal(p.window_unpaired, 0);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_REGIONS), 2);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_ELAPSED), 25);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_TEAM_SUM), 4);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_ITASKS), 2);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_SPAN), 25);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_REGIONS), 0);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_ITASKS), 2);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_SPAN), 21);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_JOINED), 21);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_TEAM_INDEX), 1);
	assert_int_equal(value(v, n, 0, PID, SES_OMPT_F_THREAD_IN), 25);
	assert_int_equal(value(v, n, 0, PID, SES_OMPT_F_THREAD_LIFE), 45);
	assert_int_equal(value(v, n, 0, PID, SES_OMPT_F_THREAD_TYPE), 1);
	assert_int_equal(value(v, n, 0, WORKER, SES_OMPT_F_THREAD_TYPE), 2);
	/* each thread's records carry one slot, distinct from the other's */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < n; k++)
			assert_true((v[i].tid == v[k].tid) == (v[i].slot == v[k].slot));
	free(v);
}

/* Waits (full scope) on the region's site; a lock's on the lock's. */
static void waits_of_the_window(void **state)
{
	struct ses_ompt_record ev[] = {
		B(10, WORKER, 1, 0),
		{ 12, WORKER, SES_OMPT_WAIT_BEGIN, SES_OMPT_WAIT_MUTEX, LOCK, 0 },
		{ 15, WORKER, SES_OMPT_WAIT_END, SES_OMPT_WAIT_MUTEX, LOCK, 0 },
		{ 16, WORKER, SES_OMPT_WAIT_BEGIN, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 1 },
		{ 20, WORKER, SES_OMPT_WAIT_END, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 1 },
		E(20, WORKER, 1, 0),
	};
	struct ses_ompt_record *v;
	struct rpt_omp_proc p;
	size_t n;

	(void)state;
	rebuild(&p, ev, sizeof(ev) / sizeof(ev[0]), &v, &n);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_SYNC), 4);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_BARRIER), 4);
	assert_int_equal(value(v, n, LOCK, WORKER, SES_OMPT_F_ACQUIRES), 1);
	assert_int_equal(value(v, n, LOCK, WORKER, SES_OMPT_F_ACQ_WAIT), 3);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_SPAN), 10);
	free(v);
}

/* A worker's late end is clamped to its instance's end, the next begin at that stamp:
 * in whatever order the file has them, the end closes the first task. Nested tasks pair
 * by depth; an end of another depth after a begin is unpaired, not a cut. */
static void ties_nesting_and_unpaired(void **state)
{
	struct ses_ompt_record ev[] = {
		B(10, WORKER, 1, 0), B(20, WORKER, 1, 0), E(20, WORKER, 1, 0), E(30, WORKER, 1, 0),
		B(40, PID, 0, 0),    B(41, PID, 0, 1),	  E(45, PID, 0, 1),    E(50, PID, 0, 0),
		B(60, PID, 0, 0),    E(61, PID, 0, 1),
	};
	struct ses_ompt_record *v;
	struct rpt_omp_proc p;
	size_t n;

	(void)state;
	rebuild(&p, ev, sizeof(ev) / sizeof(ev[0]), &v, &n);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_ITASKS), 2);
	assert_int_equal(value(v, n, SITE, WORKER, SES_OMPT_F_SPAN), 20);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_REGIONS), 2);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_ELAPSED), 14);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_NEST_LEVEL), 2);
	assert_int_equal(value(v, n, 0, PID, SES_OMPT_F_THREAD_IN), 10); /* depth 0 only */
	assert_int_equal(p.window_unpaired, 1);
	assert_int_equal(p.cut_start, 0);
	assert_int_equal(p.cut_end, 1); /* the begin at 60 */
	free(v);
}

/* Paused [100, 200) and [300, 400): the session's windows are before 100, 200..300 and
 * from 400 on. */
static const uint64_t spans[][2] = { { 100, 200 }, { 300, 400 } };

static bool within(const void *ctx, uint64_t from, uint64_t to)
{
	(void)ctx;
	for (size_t i = 0; i < 2; i++)
		if (from < spans[i][1] && to >= spans[i][0])
			return true;
	return false;
}

static bool at(const void *ctx, uint64_t t)
{
	return within(ctx, t, t);
}

/* With pauses the summary covers the whole run: the figures are rebuilt from the
 * instances the windows saw whole; a pause or resume inside one cuts it at that edge;
 * one inside a pause is outside, and so is its wait; the process's own values stay. */
static void pause_windows(void **state)
{
	struct ses_ompt_record ev[] = {
		B(10, PID, 0, 0),
		E(20, PID, 0, 0), /* window 1: counted */
		B(90, PID, 0, 0),
		E(110, PID, 0, 0), /* cut at window 1's end */
		B(120, PID, 0, 0),
		E(130, PID, 0, 0), /* inside the pause: outside */
		B(190, PID, 0, 0),
		E(210, PID, 0, 0), /* cut at window 2's start */
		B(220, PID, 0, 0),
		E(250, PID, 0, 0), /* window 2: counted */
		B(350, PID, 0, 0),
		E(360, PID, 0, 0), /* paused again: outside */
		B(390, PID, 0, 0), /* open from a pause: not cut, outside */
		{ 121, PID, SES_OMPT_WAIT_BEGIN, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 0 },
		{ 125, PID, SES_OMPT_WAIT_END, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 0 },
		{ 230, PID, SES_OMPT_WAIT_BEGIN, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 0 },
		{ 232, PID, SES_OMPT_WAIT_END, SES_OMPT_WAIT_BARRIER_IMPLICIT, SITE, 0 },
	};
	struct ses_ompt_record vals[] = {
		{ 1, 0, SES_OMPT_VALUE, SES_OMPT_F_SCOPE, 0, 0 },
		{ 3, 0, SES_OMPT_VALUE, SES_OMPT_F_LOST_SITES, 0, 0 },
		{ 99, PID, SES_OMPT_VALUE, SES_OMPT_F_REGIONS, SITE, 1 },
	};
	struct rpt_omp_pauses pz = { NULL, at, within };
	struct ses_ompt_record *v;
	struct rpt_omp_proc p;
	struct ses_ompt o;
	size_t n;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&p, 0, sizeof(p));
	p.pid = PID;
	o.events = ev;
	o.nevents = sizeof(ev) / sizeof(ev[0]);
	o.values = vals;
	o.nvalues = 3;
	assert_int_equal(rpt_omp_window_rebuild(&p, &o, &pz, &v, &n), 0);
	assert_true(p.rebuilt);
	assert_true(p.paused);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_REGIONS), 2);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_ELAPSED), 40);
	assert_int_equal(value(v, n, SITE, PID, SES_OMPT_F_SYNC), 2);
	assert_int_equal(value(v, n, 0, 0, SES_OMPT_F_LOST_SITES), 3);
	assert_int_equal(value(v, n, 0, 0, SES_OMPT_F_SCOPE), 1);
	assert_int_equal(p.cut_start, 1);
	assert_int_equal(p.cut_end, 1);
	assert_int_equal(p.window_unpaired, 0);
	free(v);
}

/* The process ended inside the window: its summary is the truth, nothing is rebuilt. */
static void summary_is_kept(void **state)
{
	struct ses_ompt_record ev[] = { B(10, PID, 0, 0), E(20, PID, 0, 0), B(30, PID, 0, 0) };
	struct ses_ompt_record vals[] = { { 1, 0, SES_OMPT_VALUE, SES_OMPT_F_SCOPE, 0, 0 } };
	struct ses_ompt_record *v = (void *)1;
	struct rpt_omp_proc p;
	struct ses_ompt o;
	size_t n = 7;

	(void)state;
	memset(&o, 0, sizeof(o));
	memset(&p, 0, sizeof(p));
	o.events = ev;
	o.nevents = 3;
	o.values = vals;
	o.nvalues = 1;
	assert_int_equal(rpt_omp_window_rebuild(&p, &o, NULL, &v, &n), 0);
	assert_null(v);
	assert_int_equal(n, 0);
	assert_false(p.rebuilt);
	assert_int_equal(p.cut_end, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(instances_seen_whole),
		cmocka_unit_test(waits_of_the_window),
		cmocka_unit_test(ties_nesting_and_unpaired),
		cmocka_unit_test(summary_is_kept),
		cmocka_unit_test(pause_windows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
