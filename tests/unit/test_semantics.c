// SPDX-License-Identifier: MIT
/*
 * docs/DESIGN.md §6 on synthetic records: lib/report/taskmatch.c's pure functions (pairing,
 * pauses, unmatched and dropped records, CPU time) and pauses.c's span rules. Every test
 * states the records, the paused intervals and the samples, and asserts the exact
 * instances (thread, name, begin and end in ns) and the exact count of each rule that
 * dropped something. The rule numbers are taskmatch.h's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/taskmatch.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The file's string table: id -> name. Id 8 has a comma (refused), id 9 repeats id 1's
 * name (one interned pointer for both). */
enum { D1 = 1, D2, OUTER, INNER, WORK, EV, USER, BAD, D1_AGAIN };
static const char *const table[] = {
	[D1] = "D1",	   [D2] = "D2", [OUTER] = "outer", [INNER] = "inner",
	[WORK] = "work",   [EV] = "ev", [USER] = "User",   [BAD] = "bad,name",
	[D1_AGAIN] = "D1",
};

static unsigned resolved; /* resolver calls, to check rule 3 runs before names */

/* Interned: the pointer of the first table entry with that name. */
static const void *resolve(void *arg, uint32_t id, enum rpt_tk_role role)
{
	(void)arg;
	(void)role;
	resolved++;
	if (!id || id >= ARRAY_SIZE(table) || !table[id] || strchr(table[id], ','))
		return NULL;
	for (uint32_t i = 1; i < ARRAY_SIZE(table); i++)
		if (table[i] && !strcmp(table[i], table[id]))
			return table[i];
	return NULL;
}

static const struct rpt_tk_names names = { resolve, NULL, "User" };

/* "User" above is a literal; the reserved pointer must be the resolver's own. */
static struct rpt_tk_names names_reserved(void)
{
	struct rpt_tk_names n = names;

	n.reserved = table[USER];
	return n;
}

#define B(t, tid, d, n) { (t), (tid), SES_TASK_BEGIN, 0, (d), (n) }
#define E(t, tid, d) { (t), (tid), SES_TASK_END, 0, (d), 0 }
#define ES(t, tid, n) { (t), (tid), SES_EVENT_START, 0, 0, (n) }
#define EE(t, tid, n) { (t), (tid), SES_EVENT_END, 0, 0, (n) }
#define GAP(rec) (rec).how = SES_TASK_GAP

static struct rpt_tk_result run(const struct ses_task_record *r, size_t n,
				const struct rpt_span *p, size_t np)
{
	struct rpt_tk_names nm = names_reserved();
	struct rpt_tk_result out;

	assert_int_equal(rpt_tk_match(r, n, p, np, &nm, &out), 0);
	return out;
}

/* Instance @i is (@tid, @name) over [@begin, @end]. */
static void inst_is(const struct rpt_tk_result *m, size_t i, uint32_t tid, int key, int name,
		    uint64_t begin, uint64_t end)
{
	assert_true(i < m->n);
	assert_int_equal(m->v[i].tid, tid);
	assert_string_equal((const char *)m->v[i].key, table[key]);
	assert_string_equal((const char *)m->v[i].name, table[name]);
	assert_int_equal(m->v[i].begin, begin);
	assert_int_equal(m->v[i].end, end);
}

/* Rule 4: an end closes the most recent open task of its domain. */
static void nested_tasks(void **state)
{
	const struct ses_task_record r[] = {
		B(100, 1, D1, OUTER), B(200, 1, D1, INNER), E(300, 1, D1), E(1000, 1, D1),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 1, D1, INNER, 200, 300);
	inst_is(&m, 1, 1, D1, OUTER, 100, 1000);
	assert_int_equal(m.counts.records, 4);
	assert_int_equal(m.counts.unbegun + m.counts.unended + m.counts.spanned, 0);
	rpt_tk_result_release(&m);
}

/* Rule 4: one stack per domain, so tasks of two domains may overlap without nesting. */
static void overlapping_domains(void **state)
{
	const struct ses_task_record r[] = {
		B(100, 1, D1, OUTER), B(200, 1, D2, INNER), E(300, 1, D1), E(450, 1, D2),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 1, D1, OUTER, 100, 300);
	inst_is(&m, 1, 1, D2, INNER, 200, 450);
	rpt_tk_result_release(&m);
}

/* Equal names are one domain (the key is the name, not the id). */
static void domain_by_name_not_id(void **state)
{
	const struct ses_task_record r[] = { B(100, 1, D1, WORK), E(200, 1, D1_AGAIN) };
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 1, D1, WORK, 100, 200);
	rpt_tk_result_release(&m);
}

/* A task nested in a task of the same name: two instances, 50 + 400 ns. */
static void same_name_nesting(void **state)
{
	const struct ses_task_record r[] = {
		B(100, 1, D1, WORK), B(150, 1, D1, WORK), E(200, 1, D1), E(500, 1, D1),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 1, D1, WORK, 150, 200);
	inst_is(&m, 1, 1, D1, WORK, 100, 500);
	assert_int_equal(m.v[0].end - m.v[0].begin + m.v[1].end - m.v[1].begin, 450);
	rpt_tk_result_release(&m);
}

/* Rule 4: an end with nothing open is ignored and does not disturb what follows. */
static void end_without_begin(void **state)
{
	const struct ses_task_record r[] = {
		E(50, 1, D1), B(100, 1, D1, WORK), E(200, 1, D1), E(250, 1, D1),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 1, D1, WORK, 100, 200);
	assert_int_equal(m.counts.unbegun, 2);
	rpt_tk_result_release(&m);
}

/* Rule 6: a task begun and never ended is no instance. */
static void begin_never_ended(void **state)
{
	const struct ses_task_record r[] = { B(100, 1, D1, OUTER), B(200, 1, D1, WORK),
					     E(300, 1, D1) };
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 1, D1, WORK, 200, 300);
	assert_int_equal(m.counts.unended, 1);
	assert_int_equal(m.counts.unended_events, 0);
	rpt_tk_result_release(&m);
}

/* Rule 6: an event never ended is one instance of 0 ns at its start; an event end with
 * no start is ignored; events nest per name like tasks. */
static void events(void **state)
{
	const struct ses_task_record r[] = {
		EE(50, 1, EV), ES(100, 1, EV), ES(120, 1, EV), EE(250, 1, EV), ES(400, 2, EV),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 3);
	inst_is(&m, 0, 1, EV, EV, 120, 250);
	assert_true(m.v[0].event);
	inst_is(&m, 1, 1, EV, EV, 100, 100); /* unended, oldest first */
	inst_is(&m, 2, 2, EV, EV, 400, 400);
	assert_true(m.v[1].event && m.v[2].event);
	assert_int_equal(m.counts.unbegun, 1);
	assert_int_equal(m.counts.unended_events, 2);
	rpt_tk_result_release(&m);
}

/* Rule 5: a pair with a pause between begin and end is dropped; the tasks on either
 * side of it are kept. Rule 3's bounds: resumed_at itself is running again. */
static void task_spanning_pause(void **state)
{
	const struct rpt_span p[] = { { 150, 250 } };
	const struct ses_task_record r[] = {
		B(10, 1, D1, WORK),  E(149, 1, D1), B(100, 1, D2, OUTER), E(300, 1, D2),
		B(250, 1, D1, WORK), E(260, 1, D1),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), p, ARRAY_SIZE(p));

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 1, D1, WORK, 10, 149);
	inst_is(&m, 1, 1, D1, WORK, 250, 260);
	assert_int_equal(m.counts.spanned, 1);
	assert_int_equal(m.counts.paused, 0);
	rpt_tk_result_release(&m);
}

/* Rule 3: a begin in a paused state (paused_at itself is paused) leaves its end without a
 * begin; an end in a paused state leaves its begin open; neither record is resolved. */
static void begin_or_end_paused(void **state)
{
	const struct rpt_span p[] = { { 100, 200 }, { 500, 600 } };
	const struct ses_task_record r[] = {
		B(100, 1, D1, WORK), E(300, 1, D1),	/* begin at paused_at */
		B(400, 1, D2, OUTER), E(599, 1, D2),	/* end paused */
		B(700, 1, D1, INNER), E(800, 1, D1),	/* untouched */
	};
	struct rpt_tk_result m;

	(void)state;
	resolved = 0;
	m = run(r, ARRAY_SIZE(r), p, ARRAY_SIZE(p));
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 1, D1, INNER, 700, 800);
	assert_int_equal(m.counts.paused, 2);
	assert_int_equal(m.counts.unbegun, 1);
	assert_int_equal(m.counts.unended, 1);
	/* begins resolve domain and name, ends their domain; paused records nothing:
	 * E(300) 1, B(400) 2, B(700) 2, E(800) 1 */
	assert_int_equal(resolved, 6);
	rpt_tk_result_release(&m);
}

/* Rule 2: after a gap, the thread's open tasks and events are forgotten, not paired with
 * a later end; other threads keep theirs. The flag counts even on a record that is itself
 * dropped for a pause. */
static void dropped_records(void **state)
{
	const struct rpt_span p[] = { { 1000, 1100 } };
	struct ses_task_record r[] = {
		B(100, 1, D1, OUTER), B(200, 1, D1, INNER), ES(210, 1, EV), B(150, 2, D1, WORK),
		E(400, 1, D1) /* gap */, E(450, 2, D1), E(500, 1, D1),
		B(900, 1, D1, WORK), B(1050, 1, D2, OUTER) /* gap, paused */, E(1200, 1, D1),
	};
	struct rpt_tk_result m;

	(void)state;
	GAP(r[4]);
	GAP(r[8]);
	m = run(r, ARRAY_SIZE(r), p, ARRAY_SIZE(p));
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 2, D1, WORK, 150, 450);
	assert_int_equal(m.counts.forgotten, 4); /* outer, inner, ev; then work at 1050 */
	assert_int_equal(m.counts.unbegun, 3);	 /* 400, 500, 1200 */
	assert_int_equal(m.counts.paused, 1);
	assert_int_equal(m.counts.unended_events, 0);
	rpt_tk_result_release(&m);
}

/* Rule 4: stacks per thread: another thread's end closes nothing of this one. */
static void per_thread_stacks(void **state)
{
	const struct ses_task_record r[] = {
		B(100, 1, D1, WORK), E(200, 2, D1), B(300, 2, D1, INNER), E(400, 2, D1),
		E(500, 1, D1),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 2, D1, INNER, 300, 400);
	inst_is(&m, 1, 1, D1, WORK, 100, 500);
	assert_int_equal(m.counts.unbegun, 1);
	rpt_tk_result_release(&m);
}

/* Each process is matched on its own: a forked child's end does not close the task its
 * parent had open at the fork, even when a pid (and so a tid) was reused. */
static void child_process_tasks_are_its_own(void **state)
{
	const struct ses_task_record parent[] = { B(100, 10, D1, WORK), E(500, 10, D1) };
	const struct ses_task_record child[] = { E(200, 10, D1), B(300, 10, D1, INNER),
						 E(400, 10, D1) };
	struct rpt_tk_result mp = run(parent, ARRAY_SIZE(parent), NULL, 0);
	struct rpt_tk_result mc = run(child, ARRAY_SIZE(child), NULL, 0);

	(void)state;
	assert_int_equal(mp.n, 1);
	inst_is(&mp, 0, 10, D1, WORK, 100, 500);
	assert_int_equal(mc.n, 1);
	inst_is(&mc, 0, 10, D1, INNER, 300, 400);
	assert_int_equal(mc.counts.unbegun, 1);
	rpt_tk_result_release(&mp);
	rpt_tk_result_release(&mc);
}

/* Rule 1: records are taken in time order whatever the file's order, and equal stamps in
 * the file's order. */
static void time_order(void **state)
{
	const struct ses_task_record r[] = {
		E(300, 1, D1), B(100, 1, D1, WORK), B(500, 1, D2, INNER), E(500, 1, D2),
		E(600, 1, D2), B(600, 1, D2, OUTER),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 2);
	inst_is(&m, 0, 1, D1, WORK, 100, 300);
	inst_is(&m, 1, 1, D2, INNER, 500, 500);
	assert_int_equal(m.counts.unbegun, 1); /* the end at 600 came before its begin */
	assert_int_equal(m.counts.unended, 1);
	rpt_tk_result_release(&m);
}

/* Rule 7: a task with a refused name holds its place; a task in "User" is ignored; an id
 * that does not resolve drops its record. */
static void refused_names(void **state)
{
	const struct ses_task_record r[] = {
		B(100, 1, D1, BAD),  B(200, 1, D1, WORK), E(300, 1, D1), E(400, 1, D1),
		B(500, 1, USER, WORK), E(600, 1, USER), B(700, 1, 99, WORK), E(800, 1, 99),
		ES(900, 1, BAD),
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), NULL, 0);

	(void)state;
	assert_int_equal(m.n, 1);
	inst_is(&m, 0, 1, D1, WORK, 200, 300);
	assert_int_equal(m.counts.refused, 1);
	assert_int_equal(m.counts.reserved, 2);
	assert_int_equal(m.counts.unnamed, 3); /* domain 99 twice, the event's name */
	assert_int_equal(m.counts.unended_events, 0);
	rpt_tk_result_release(&m);
}

/* Rule 8: CPU samples of the instance's own thread in [begin, end], both bounds in. */
static void samples_inclusive_own_thread(void **state)
{
	struct rpt_sample_time s[] = {
		{ 1, 200 }, { 2, 150 }, { 1, 100 }, { 1, 99 }, { 1, 150 }, { 1, 201 }, { 3, 150 },
	};
	size_t n = ARRAY_SIZE(s);

	(void)state;
	rpt_tk_sort_samples(s, n);
	assert_int_equal(rpt_tk_samples(s, n, 1, 100, 200), 3);
	assert_int_equal(rpt_tk_samples(s, n, 1, 101, 199), 1);
	assert_int_equal(rpt_tk_samples(s, n, 1, 100, 100), 1);
	assert_int_equal(rpt_tk_samples(s, n, 2, 100, 200), 1);
	assert_int_equal(rpt_tk_samples(s, n, 4, 0, UINT64_MAX), 0);
	assert_int_equal(rpt_tk_samples(s, n, 1, 150, UINT64_MAX), 3);
	assert_int_equal(rpt_tk_samples(s, n, 1, 200, 100), 0);
}

/* The whole chain for one item, as report tallies it: count, elapsed and CPU time
 * (samples x a 1 ms interval), nested tasks' samples counting for the outer one too. */
static void tally_count_elapsed_cpu(void **state)
{
	const uint64_t interval = 1000000;
	const struct rpt_span p[] = { { 5000000, 6000000 } };
	const struct ses_task_record r[] = {
		B(1000000, 1, D1, WORK), B(1500000, 1, D1, WORK), E(2000000, 1, D1),
		E(3000000, 1, D1), B(1000000, 2, D1, WORK), E(4000000, 2, D1),
		B(4500000, 2, D1, WORK), E(6500000, 2, D1), /* spans the pause */
	};
	struct rpt_sample_time s[] = {
		{ 1, 1000000 }, { 1, 1500000 }, { 1, 2000000 }, { 1, 2500000 }, { 1, 3000000 },
		{ 1, 3000001 }, { 2, 2000000 }, { 2, 4000000 }, { 2, 4600000 },
	};
	struct rpt_tk_result m = run(r, ARRAY_SIZE(r), p, ARRAY_SIZE(p));
	uint64_t count = 0, elapsed = 0, samples = 0;

	(void)state;
	rpt_tk_sort_samples(s, ARRAY_SIZE(s));
	for (size_t i = 0; i < m.n; i++) {
		count++;
		elapsed += m.v[i].end - m.v[i].begin;
		samples += rpt_tk_samples(s, ARRAY_SIZE(s), m.v[i].tid, m.v[i].begin, m.v[i].end);
	}
	assert_int_equal(count, 3);
	assert_int_equal(elapsed, 500000 + 2000000 + 3000000);
	/* inner [1.5, 2]: 2; outer [1, 3]: 5; thread 2's [1, 4]: 2 */
	assert_int_equal(samples, 9);
	assert_int_equal(samples * interval, 9000000);
	assert_int_equal(m.counts.spanned, 1);
	rpt_tk_result_release(&m);
}

/* Paused intervals: [a, b), touching or overlapping ones are one pause (the session's). */
static void spans_merge_and_bounds(void **state)
{
	struct rpt_span v[] = { { 300, 400 }, { 100, 200 }, { 200, 250 }, { 350, 500 }, { 700, 700 } };
	size_t n;

	(void)state;
	n = rpt_spans_merge(v, ARRAY_SIZE(v));
	assert_int_equal(n, 3);
	assert_int_equal(v[0].from, 100);
	assert_int_equal(v[0].to, 250);
	assert_int_equal(v[1].from, 300);
	assert_int_equal(v[1].to, 500);
	assert_true(rpt_spans_meet(v, n, 100, 100));
	assert_true(rpt_spans_meet(v, n, 249, 249));
	assert_false(rpt_spans_meet(v, n, 250, 250));
	assert_false(rpt_spans_meet(v, n, 250, 299));
	assert_true(rpt_spans_meet(v, n, 250, 300));
	assert_true(rpt_spans_meet(v, n, 0, 1000));
	assert_false(rpt_spans_meet(v, n, 700, 700)); /* an empty pause pauses nothing */
	assert_false(rpt_spans_meet(v, 0, 0, 1000));
}

/* The .tasks codes are what version 1 files hold (tests/fixtures/release-0.1.0): a
 * renumbering would change what every old session means. */
static void file_codes_fixed(void **state)
{
	(void)state;
	assert_int_equal(SES_TASK_BEGIN, 1);
	assert_int_equal(SES_TASK_END, 2);
	assert_int_equal(SES_EVENT_START, 3);
	assert_int_equal(SES_EVENT_END, 4);
	assert_int_equal(SES_THREAD_NAME, 7);
	assert_int_equal(SES_TASK_GAP, 0x8000);
}

/* ---- the 0.1.0 session (tests/fixtures/release-0.1.0): tests/targets/tasks.c's known
 * answers, through the matcher, from the files as 0.1.0 wrote them ---- */

#define FIXTURE "tests/fixtures/release-0.1.0/session"

static void *slurp(const char *path, size_t *len)
{
	struct stat sb;
	void *b;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	b = malloc(sb.st_size + 1);
	assert_non_null(b);
	assert_int_equal(read(fd, b, sb.st_size), sb.st_size);
	close(fd);
	*len = (size_t)sb.st_size;
	return b;
}

struct pool {
	const struct ses_tasks *t;
	const char *v[64];
	size_t n;
};

static const void *resolve_file(void *arg, uint32_t id, enum rpt_tk_role role)
{
	struct pool *p = arg;
	const char *s = ses_tasks_string(p->t, id);

	(void)role;
	if (!s)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->v[i], s))
			return p->v[i];
	assert_true(p->n < 64);
	return p->v[p->n++] = s;
}

static size_t count_of(const struct rpt_tk_result *m, const char *name, uint64_t *elapsed)
{
	size_t n = 0;

	*elapsed = 0;
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			n++, *elapsed += m->v[i].end - m->v[i].begin;
	return n;
}

static void release_0_1_0(void **state)
{
	static const struct {
		const char *pid, *name;
		size_t count;
	} want[] = {
		{ "13686", "Twice", 2 },    { "13686", "Outer", 1 },	 { "13686", "Inner", 1 },
		{ "13686", "Over1", 1 },    { "13686", "Over2", 1 },	 { "13686", "Sleep", 1 },
		{ "13686", "Threaded", 2 }, { "13686", "Ev", 1 },	 { "13686", "Unended", 1 },
		{ "13686", "Spanning", 0 }, { "13686", "PausedEnd", 0 }, { "13686", "Never", 0 },
		{ "13745", "Child", 1 },    { "13745", "Threaded", 1 },
	};
	struct ses_pause *p;
	struct rpt_span spans[8];
	size_t len, n;
	char *csv = slurp(FIXTURE "/pauses.csv", &len), err[128];

	(void)state;
	assert_int_equal(ses_pauses_parse(csv, len, &p, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++)
		spans[i] = (struct rpt_span){ p[i].paused_at, p[i].resumed_at };
	n = rpt_spans_merge(spans, n);
	for (int f = 0; f < 2; f++) {
		const char *pid = f ? "13745" : "13686";
		char path[128];
		struct ses_tasks t;
		struct pool pool = { &t, { 0 }, 0 };
		struct rpt_tk_names names = { resolve_file, &pool, NULL };
		struct rpt_tk_result m;
		void *b;
		uint64_t elapsed;

		snprintf(path, sizeof(path), FIXTURE "/instrument/%s.tasks", pid);
		b = slurp(path, &len);
		assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
		assert_int_equal(rpt_tk_match(t.records, t.nrecords, spans, n, &names, &m), 0);
		for (size_t i = 0; i < ARRAY_SIZE(want); i++)
			if (!strcmp(want[i].pid, pid) &&
			    count_of(&m, want[i].name, &elapsed) != want[i].count)
				fail_msg("%s/%s: %zu, not %zu", pid, want[i].name,
					 count_of(&m, want[i].name, &elapsed), want[i].count);
		if (!f) {
			assert_int_equal(count_of(&m, "Unended", &elapsed), 1);
			assert_int_equal(elapsed, 0);
			/* an end without a begin and an event end without a start */
			assert_int_equal(m.counts.unbegun, 2);
			assert_int_equal(m.counts.spanned + m.counts.paused, 2);
		}
		rpt_tk_result_release(&m);
		ses_tasks_release(&t);
		free(b);
	}
	free(p);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nested_tasks),
		cmocka_unit_test(overlapping_domains),
		cmocka_unit_test(domain_by_name_not_id),
		cmocka_unit_test(same_name_nesting),
		cmocka_unit_test(end_without_begin),
		cmocka_unit_test(begin_never_ended),
		cmocka_unit_test(events),
		cmocka_unit_test(task_spanning_pause),
		cmocka_unit_test(begin_or_end_paused),
		cmocka_unit_test(dropped_records),
		cmocka_unit_test(per_thread_stacks),
		cmocka_unit_test(child_process_tasks_are_its_own),
		cmocka_unit_test(time_order),
		cmocka_unit_test(refused_names),
		cmocka_unit_test(samples_inclusive_own_thread),
		cmocka_unit_test(tally_count_elapsed_cpu),
		cmocka_unit_test(spans_merge_and_bounds),
		cmocka_unit_test(file_codes_fixed),
		cmocka_unit_test(release_0_1_0),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
