/* SPDX-License-Identifier: MIT */
/*
 * docs/DESIGN.md §6's task, event and pause semantics as pure functions: records in, instances
 * out; no clock, no files, no report state. lib/report/tasks.c feeds them one process's
 * instrument/<pid>.tasks at a time; tests/unit/test_semantics.c feeds them synthetic ones.
 *
 * The rules, in the order they are applied to a process's records:
 *  1. Records are taken in time order; equal stamps keep their order in the file (the
 *     target's ring hands a thread's records out in the order it made them).
 *  2. A record flagged SES_TASK_GAP (records of its thread were dropped just before it)
 *     first forgets everything its thread has open, tasks and events: what was open can
 *     no longer be paired with certainty, so it is dropped, never mismatched. This holds
 *     whatever happens to the flagged record itself (paused, unknown kind, bad name).
 *  3. A record stamped in a paused interval is dropped: a task whose begin or end fell in
 *     a paused state is unmatched. Paused intervals are [paused_at, resumed_at): a stamp
 *     equal to paused_at is paused, one equal to resumed_at is not.
 *  4. Stacks are per thread: per (tid, domain) for tasks, per (tid, event name) for
 *     events. A begin (start) pushes; an end closes the most recent open one of its
 *     domain (name) on the same thread; an end with nothing open is ignored. Other
 *     threads, and other processes (each process is matched on its own), never close it.
 *  5. A closed pair with a paused interval between its begin and end is dropped (its
 *     time is not what was profiled).
 *  6. A task begun and never ended is ignored. An event started and never ended is one
 *     instance of 0 ns at its start.
 *  7. A task whose name was refused stays on its stack (so that its end closes it, not
 *     the task around it) but is never counted. A task in the domain reserved for events
 *     is ignored.
 *  8. CPU time of an instance: the samples of its own thread in [begin, end], both
 *     bounds included (nested tasks' samples count for the outer one too), times the
 *     sampling interval.
 */
#ifndef UPROF_REPORT_TASKMATCH_H
#define UPROF_REPORT_TASKMATCH_H

#include "report/internal.h"

/* What an id of the .tasks file's string table means, for the resolver. */
enum rpt_tk_role { RPT_TK_DOMAIN, RPT_TK_TASK_NAME, RPT_TK_EVENT_NAME };

struct rpt_tk_names {
	/* The name @id stands for, as a pointer equal names share (interned), or NULL when
	 * it is unknown or refused. Called only for records that reach matching (rule 3),
	 * once per id field used, in record order: a counting resolver counts each use. */
	const void *(*resolve)(void *arg, uint32_t id, enum rpt_tk_role role);
	void *arg;
	const void *reserved; /* the events' domain ("User"): refused as a task's domain */
};

/* One matched instance. @key is the domain of a task, the name of an event. */
struct rpt_tk_inst {
	uint32_t tid;
	bool event;
	const void *key, *name;
	uint64_t begin, end; /* end == begin: an event never ended */
};

/* Why records did not become instances, per rule. */
struct rpt_tk_counts {
	uint64_t records;	 /* task/event records seen */
	uint64_t paused;	 /* rule 3: stamped in a paused interval */
	uint64_t unnamed;	 /* a key that did not resolve (record ignored) */
	uint64_t reserved;	 /* rule 7: a task in the events' domain */
	uint64_t unbegun;	 /* rule 4: an end with nothing open */
	uint64_t spanned;	 /* rule 5: a pair across a paused interval */
	uint64_t refused;	 /* rule 7: a pair whose begin's name was refused */
	uint64_t unended;	 /* rule 6: tasks never ended */
	uint64_t unended_events; /* rule 6: events never ended (they are instances) */
	uint64_t forgotten;	 /* rule 2: open tasks and events dropped at a gap */
};

/* Instances in the order they closed, then events never ended (by thread and name, in
 * the order each was first seen, oldest start first). */
struct rpt_tk_result {
	struct rpt_tk_inst *v;
	size_t n, cap;
	struct rpt_tk_counts counts;
};

/*
 * Match the @n records of one process (@recs, borrowed, any order) against the paused
 * intervals @pauses (@npauses, sorted and disjoint: see rpt_spans_merge()). Records of
 * kinds other than SES_TASK_BEGIN/END and SES_EVENT_START/END only carry their gap flag.
 * Fills @out (zeroed first; release with rpt_tk_result_release()). 0 or -ENOMEM (then
 * @out is empty). A thread with 16 M tasks open at once keeps no more begins.
 */
int rpt_tk_match(const struct ses_task_record *recs, size_t n, const struct rpt_span *pauses,
		 size_t npauses, const struct rpt_tk_names *names, struct rpt_tk_result *out);
void rpt_tk_result_release(struct rpt_tk_result *out);

/* Sort (tid, time) entries for rpt_tk_samples(). */
void rpt_tk_sort_samples(struct rpt_sample_time *s, size_t n);
/* Samples of @tid in [@begin, @end], both included (rule 8), in @s sorted by
 * rpt_tk_sort_samples(). 0 when end < begin. */
uint64_t rpt_tk_samples(const struct rpt_sample_time *s, size_t n, uint32_t tid, uint64_t begin,
			uint64_t end);

/* ---- paused intervals (lib/report/pauses.c) ---- */

/* Sort @v by start and merge overlapping or touching spans in place (the session's
 * state: paused if any interval says so); returns how many are left. */
size_t rpt_spans_merge(struct rpt_span *v, size_t n);
/* Does [from, to] meet a span [a, b) of @v (sorted, disjoint)? */
bool rpt_spans_meet(const struct rpt_span *v, size_t n, uint64_t from, uint64_t to);

#endif
