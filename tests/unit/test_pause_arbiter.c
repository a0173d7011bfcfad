// SPDX-License-Identifier: MIT
/*
 * The arbitration of pause and resume calls across processes (lib/session/pauses.c,
 * docs/DESIGN.md §5): synthetic calls in, the session's paused intervals out, exact to the ns.
 * The collection state is the session's, so a call from any process applies to all and
 * the newest stamp decides.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define P(t, pid) { (t), (pid), true, SES_PAUSE_API }
#define R(t, pid) { (t), (pid), false, SES_PAUSE_API }

struct got {
	struct ses_pause *v;
	size_t n;
	struct ses_pause_clamps c;
};

/* Calls collected at 2000 ns: anything stamped later is made up. */
#define NOW 2000

static struct got arbitrate(struct ses_pause_call *calls, size_t n, bool start_paused,
			    int64_t start, int64_t end)
{
	struct got g;

	assert_int_equal(ses_pauses_arbitrate(calls, n, start_paused, start, end, NOW, &g.v,
					      &g.n, &g.c),
			 0);
	return g;
}

static void interval_is(const struct got *g, size_t i, int pid, int64_t from, int64_t to,
			const char *how)
{
	assert_true(i < g->n);
	assert_int_equal(g->v[i].pid, pid);
	assert_int_equal(g->v[i].paused_at, from);
	assert_int_equal(g->v[i].resumed_at, to);
	assert_string_equal(g->v[i].how, how);
}

/* Two processes pause over each other: the session resumes at the first resume after
 * the newest pause, whoever made it; the later resume changes nothing. */
static void overlapping_pauses_two_processes(void **state)
{
	struct ses_pause_call c[] = { P(10, 100), P(15, 200), R(20, 100), R(25, 200),
				      P(40, 200), R(45, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), false, 0, 100);

	(void)state;
	assert_int_equal(g.n, 2);
	interval_is(&g, 0, 100, 10, 20, "api");
	interval_is(&g, 1, 200, 40, 45, "api");
	assert_int_equal(ses_pauses_total(g.v, g.n), 15);
	assert_int_equal(g.c.before_start + g.c.after_end, 0);
	free(g.v);
}

/* A resume while running and a pause while paused change nothing. */
static void resume_without_pause(void **state)
{
	struct ses_pause_call c[] = { R(5, 100), P(10, 100), P(12, 200), R(20, 100), R(30, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), false, 0, 100);

	(void)state;
	assert_int_equal(g.n, 1);
	interval_is(&g, 0, 100, 10, 20, "api");
	free(g.v);
}

/* --start-paused: the session itself is paused from its start until a program resumes;
 * never resumed, until its end. */
static void start_paused(void **state)
{
	struct ses_pause_call c[] = { R(30, 100), P(50, 100), R(60, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), true, 10, 100);
	struct got never = arbitrate(NULL, 0, true, 10, 100);

	(void)state;
	assert_int_equal(g.n, 2);
	interval_is(&g, 0, -1, 10, 30, "start-paused");
	interval_is(&g, 1, 100, 50, 60, "api");
	assert_int_equal(never.n, 1);
	interval_is(&never, 0, -1, 10, 100, "start-paused");
	free(g.v);
	free(never.v);
}

/* The interval is named by the call that opened it: strict (group 2), ITT or group 1. */
static void strict_and_group1(void **state)
{
	struct ses_pause_call c[] = {
		{ 10, 100, true, SES_PAUSE_API_STRICT }, { 20, 100, false, SES_PAUSE_API },
		{ 30, 200, true, SES_PAUSE_ITT },	 { 40, 100, false, SES_PAUSE_API_STRICT },
		{ 50, 100, true, SES_PAUSE_API },	 { 60, 100, false, SES_PAUSE_ITT },
	};
	struct got g = arbitrate(c, ARRAY_SIZE(c), false, 0, 100);

	(void)state;
	assert_int_equal(g.n, 3);
	interval_is(&g, 0, 100, 10, 20, "api-strict");
	interval_is(&g, 1, 200, 30, 40, "itt");
	interval_is(&g, 2, 100, 50, 60, "api");
	free(g.v);
}

/* Calls come in per process, not in time order: they are arbitrated by their stamps;
 * equal stamps in the order given (the live state let the later one win). */
static void order_of_stamps(void **state)
{
	struct ses_pause_call c[] = { R(40, 200), P(10, 100), R(20, 100), P(30, 200) };
	struct ses_pause_call tie[] = { R(20, 100), P(20, 200) };
	struct ses_pause_call tie2[] = { P(20, 200), R(20, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), false, 0, 100);
	struct got t = arbitrate(tie, ARRAY_SIZE(tie), false, 0, 100);
	struct got t2 = arbitrate(tie2, ARRAY_SIZE(tie2), false, 0, 100);

	(void)state;
	assert_int_equal(g.n, 2);
	interval_is(&g, 0, 100, 10, 20, "api");
	interval_is(&g, 1, 200, 30, 40, "api");
	assert_int_equal(t.n, 1);
	interval_is(&t, 0, 200, 20, 100, "api"); /* paused last: paused to the end */
	assert_int_equal(t2.n, 1);
	interval_is(&t2, 0, 200, 20, 20, "api"); /* resumed last: a pause of 0 ns */
	free(g.v);
	free(t.v);
	free(t2.v);
}

/* Stamps before the start (--start-delay) count from the start; an interval over by then
 * is dropped. Stamps after the end are clamped to it. Both are counted, and those later
 * than when the calls were collected (NOW) on their own. */
static void stamps_outside_the_session(void **state)
{
	struct ses_pause_call c[] = { P(50, 100), R(80, 100), P(90, 100), R(150, 100),
				      P(900, 100), R(5000, 100) };
	struct ses_pause_call open[] = { P(950, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), false, 100, 1000);
	struct got o = arbitrate(open, ARRAY_SIZE(open), false, 100, 1000);
	struct got late = arbitrate((struct ses_pause_call[]){ P(2000, 7), R(3000, 7) }, 2, false,
				    100, 1000);

	(void)state;
	assert_int_equal(g.n, 2);
	interval_is(&g, 0, 100, 100, 150, "api");
	interval_is(&g, 1, 100, 900, 1000, "api");
	assert_int_equal(g.c.before_start, 3);
	assert_int_equal(g.c.after_end, 1);
	assert_int_equal(g.c.future, 1); /* 5000 */
	assert_int_equal(ses_pauses_total(g.v, g.n), 150);
	/* still paused at the end: closed there */
	assert_int_equal(o.n, 1);
	interval_is(&o, 0, 100, 950, 1000, "api");
	/* a pause that begins after the end paused nothing of the session */
	assert_int_equal(late.n, 0);
	assert_int_equal(late.c.after_end, 2);
	assert_int_equal(late.c.future, 1); /* 3000; 2000 is NOW itself */
	free(g.v);
	free(o.v);
	free(late.v);
}

/* Start paused, resumed during --start-delay: the session starts running. */
static void resumed_before_start(void **state)
{
	struct ses_pause_call c[] = { R(50, 100) };
	struct got g = arbitrate(c, ARRAY_SIZE(c), true, 100, 1000);

	(void)state;
	assert_int_equal(g.n, 0);
	assert_int_equal(g.c.before_start, 1);
	free(g.v);
}

/* The live state (kernel on/off during the run): the newest stamp decides; an older call
 * that arrives late is recorded but does not undo a newer one. */
static void live_state(void **state)
{
	struct ses_pause_state s = { INT64_MIN, false };
	struct ses_pause_call p10 = P(10, 100), p15 = P(15, 200), r20 = R(20, 100),
			      r12 = R(12, 200), p20 = P(20, 200);

	(void)state;
	assert_true(ses_pause_state_feed(&s, &p10, 1000, NULL));
	assert_true(s.paused);
	assert_false(ses_pause_state_feed(&s, &p15, 1000, NULL));
	assert_true(ses_pause_state_feed(&s, &r20, 1000, NULL));
	assert_false(s.paused);
	assert_false(ses_pause_state_feed(&s, &r12, 1000, NULL)); /* older than the resume at 20 */
	assert_false(s.paused);
	assert_int_equal(s.last, 20);
	assert_true(ses_pause_state_feed(&s, &p20, 1000, NULL)); /* equal stamp, seen later: wins */
	assert_true(s.paused);
}

/* A pause stamped INT64_MAX (issue 12, item 6): applied as made when it was read (now =
 * 500), counted, and the call clamped in place, so the resume stamped 600 that follows
 * undoes it instead of losing to it for the rest of the run; the arbiter, given the
 * calls as they were recorded, pauses [500, 600] exactly. A stamp of now itself is not
 * clamped. */
static void live_future_clamped(void **state)
{
	struct ses_pause_state s = { INT64_MIN, false };
	struct ses_pause_call calls[] = { P(INT64_MAX, 300), R(600, 300), P(700, 300) };
	struct ses_pause *v;
	uint64_t future = 0;
	size_t n;

	(void)state;
	assert_true(ses_pause_state_feed(&s, &calls[0], 500, &future));
	assert_true(s.paused);
	assert_int_equal(calls[0].time, 500);
	assert_int_equal(future, 1);
	assert_true(ses_pause_state_feed(&s, &calls[1], 650, &future));
	assert_false(s.paused);
	assert_true(ses_pause_state_feed(&s, &calls[2], 700, &future)); /* == now: as is */
	assert_int_equal(calls[2].time, 700);
	assert_int_equal(future, 1);
	assert_int_equal(ses_pauses_arbitrate(calls, 2, false, 100, 1000, 1000, &v, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].paused_at, 500);
	assert_int_equal(v[0].resumed_at, 600);
	assert_int_equal(ses_pauses_total(v, n), 100);
	free(v);
}

/* The one time order both the arbiter and the task matcher use: by stamp, equal stamps
 * in index order (a qsort without the index breaks ties either way); signed stamps keep
 * their order through ses_time_key(). */
static void time_order(void **state)
{
	const uint64_t keys[] = { 5, 3, 5, 3, 0, UINT64_MAX, 5 };
	const size_t want[] = { 4, 1, 3, 0, 2, 6, 5 };
	size_t order[7];
	const int64_t stamps[] = { INT64_MAX, -1, 0, INT64_MIN, 1 };

	(void)state;
	assert_int_equal(ses_time_order(keys, 7, order), 0);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(order[i], want[i]);
	assert_int_equal(ses_time_order(NULL, 0, NULL), 0);
	assert_true(ses_time_key(INT64_MIN) == 0);
	assert_true(ses_time_key(INT64_MAX) == UINT64_MAX);
	for (size_t i = 0; i < 5; i++)
		for (size_t j = 0; j < 5; j++)
			assert_int_equal(stamps[i] < stamps[j],
					 ses_time_key(stamps[i]) < ses_time_key(stamps[j]));
}

static void how_names(void **state)
{
	(void)state;
	assert_string_equal(ses_pause_how_name(SES_PAUSE_START), "start-paused");
	assert_string_equal(ses_pause_how_name(SES_PAUSE_API), "api");
	assert_string_equal(ses_pause_how_name(SES_PAUSE_API_STRICT), "api-strict");
	assert_string_equal(ses_pause_how_name(SES_PAUSE_ITT), "itt");
	assert_string_equal(ses_pause_how_name(77), "api");
}

/* Rows as ses_pauses_arbitrate() makes them, malloc'ed (ses_pauses_add_unknown owns them). */
static struct ses_pause *rows_of(const struct ses_pause *src, size_t n)
{
	struct ses_pause *v = malloc((n ? n : 1) * sizeof(*v));

	assert_non_null(v);
	memcpy(v, src, n * sizeof(*v));
	return v;
}

/* An unknown stretch inside a pause splits it: paused before and after, unknown inside,
 * and the paused total no longer holds the unknown time. */
static void unknown_splits_a_pause(void **state)
{
	struct ses_pause src[] = { { 5, 10, 100, "api" }, { 5, 150, 160, "api" } };
	struct ses_pause_unknown u[] = { { 7, 30, 40, false } };
	struct got g = { rows_of(src, 2), 2, { 0, 0, 0 } };

	(void)state;
	assert_int_equal(ses_pauses_add_unknown(&g.v, &g.n, u, 1, 0, 200), 0);
	assert_int_equal(g.n, 4);
	interval_is(&g, 0, 5, 10, 30, "api");
	interval_is(&g, 1, 7, 30, 40, "unknown");
	interval_is(&g, 2, 5, 40, 100, "api");
	interval_is(&g, 3, 5, 150, 160, "api");
	assert_int_equal(ses_pauses_total(g.v, g.n), 90);
	assert_int_equal(ses_pauses_unknown_total(g.v, g.n), 10);
	free(g.v);
}

/* Open-ended stretches are clipped to the run, overlapping ones merged (the first's
 * pid), and one over a pause's start or end cuts only that side. */
static void unknown_clipped_and_merged(void **state)
{
	struct ses_pause src[] = { { 1, 20, 50, "itt" }, { 2, 60, 80, "api-strict" } };
	struct ses_pause_unknown u[] = { { 9, 70, INT64_MAX, false }, { 3, INT64_MIN, 25, false },
					 { 4, 22, 30, false }, { 5, 95, 99, false } };
	struct got g = { rows_of(src, 2), 2, { 0, 0, 0 } };

	(void)state;
	assert_int_equal(ses_pauses_add_unknown(&g.v, &g.n, u, 4, 10, 90), 0);
	assert_int_equal(g.n, 4);
	interval_is(&g, 0, 3, 10, 30, "unknown");
	interval_is(&g, 1, 1, 30, 50, "itt");
	interval_is(&g, 2, 2, 60, 70, "api-strict");
	interval_is(&g, 3, 9, 70, 90, "unknown");
	assert_int_equal(ses_pauses_total(g.v, g.n), 30);
	assert_int_equal(ses_pauses_unknown_total(g.v, g.n), 40);
	free(g.v);
}

/* No stretches: the rows as they were. A stretch that covers a whole pause removes it. */
static void unknown_covers_a_pause(void **state)
{
	struct ses_pause src[] = { { 1, 20, 30, "api" }, { 1, 40, 50, "api" } };
	struct ses_pause_unknown u[] = { { 1, 15, 35, false } };
	struct got g = { rows_of(src, 2), 2, { 0, 0, 0 } };

	(void)state;
	assert_int_equal(ses_pauses_add_unknown(&g.v, &g.n, NULL, 0, 0, 100), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(ses_pauses_add_unknown(&g.v, &g.n, u, 1, 0, 100), 0);
	assert_int_equal(g.n, 2);
	interval_is(&g, 0, 1, 15, 35, "unknown");
	interval_is(&g, 1, 1, 40, 50, "api");
	free(g.v);
}

/* A stretch ended by pid 1's state word at 50: with another process's call inside it,
 * it runs on to the next call after 50 (of anyone), or to the end; with only its own
 * calls inside, or ended by a call, it stays. */
static void widen_by_state(void **state)
{
	struct ses_pause_call c[] = { P(10, 1), R(30, 2), P(50, 1), R(70, 1), P(90, 2) };
	struct ses_pause_unknown u[] = { { 1, 20, 50, true }, { 1, 20, 50, false },
					 { 1, 45, 50, true }, { 2, 80, 95, true },
					 { 1, 85, 95, true } };

	(void)state;
	ses_pauses_widen_unknown(c, ARRAY_SIZE(c), u, ARRAY_SIZE(u));
	assert_int_equal(u[0].to, 70); /* pid 2's resume at 30 is inside */
	assert_int_equal(u[1].to, 50); /* ended by a call of its own: the call decides */
	assert_int_equal(u[2].to, 50); /* only its own pause at 50 inside */
	assert_int_equal(u[3].to, 95); /* pid 2's own call at 90 */
	assert_int_equal(u[4].to, INT64_MAX); /* pid 2's at 90 inside, no call after */
	assert_int_equal(u[0].from, 20);
}

/* Past the cap, the rest is one unknown row: nothing lost, nothing made a pause. */
static void cap_folds_the_rest(void **state)
{
	struct ses_pause v[] = { { 1, 10, 20, "api" }, { 1, 30, 40, "api" },
				 { 2, 50, 60, "itt" }, { 1, 70, 95, "unknown" },
				 { 1, 90, 91, "api" } };
	struct got g = { v, 5, { 0, 0, 0 } };

	(void)state;
	assert_int_equal(ses_pauses_cap(v, &g.n, 5), 0);
	assert_int_equal(g.n, 5);
	assert_int_equal(ses_pauses_cap(v, &g.n, 3), 3);
	assert_int_equal(g.n, 3);
	interval_is(&g, 1, 1, 30, 40, "api");
	interval_is(&g, 2, 2, 50, 95, "unknown");
	assert_int_equal(ses_pauses_total(v, g.n), 20);
	assert_int_equal(ses_pauses_unknown_total(v, g.n), 45);
}

/* pauses.csv reads "unknown" back; a how it does not know is still refused. */
static void unknown_rows_parse(void **state)
{
	const char ok[] = "pid,paused_at_ns,resumed_at_ns,how\n7,10,20,unknown\nall,0,5,start-paused\n";
	const char bad[] = "pid,paused_at_ns,resumed_at_ns,how\n7,10,20,unknowable\n";
	struct ses_pause *v;
	char err[128];
	size_t n;

	(void)state;
	assert_int_equal(ses_pauses_parse(ok, sizeof(ok) - 1, &v, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_true(ses_pause_is_unknown(&v[0]));
	assert_false(ses_pause_is_unknown(&v[1]));
	assert_int_equal(ses_pauses_total(v, n), 5);
	assert_int_equal(ses_pauses_unknown_total(v, n), 10);
	free(v);
	assert_int_equal(ses_pauses_parse(bad, sizeof(bad) - 1, &v, &n, err, sizeof(err)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overlapping_pauses_two_processes),
		cmocka_unit_test(resume_without_pause),
		cmocka_unit_test(start_paused),
		cmocka_unit_test(strict_and_group1),
		cmocka_unit_test(order_of_stamps),
		cmocka_unit_test(stamps_outside_the_session),
		cmocka_unit_test(resumed_before_start),
		cmocka_unit_test(live_state), cmocka_unit_test(live_future_clamped),
		cmocka_unit_test(how_names),
		cmocka_unit_test(time_order),
		cmocka_unit_test(unknown_splits_a_pause),
		cmocka_unit_test(unknown_clipped_and_merged),
		cmocka_unit_test(unknown_covers_a_pause),
		cmocka_unit_test(cap_folds_the_rest),
		cmocka_unit_test(widen_by_state),
		cmocka_unit_test(unknown_rows_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
