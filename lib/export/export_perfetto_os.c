// SPDX-License-Identifier: MIT
/*
 * trace.json's OS trace (--trace os, docs/DESIGN.md §12): per traced thread, a track of
 * its states ("Running", "Runnable", "Blocked: sleep|I/O|lock|other" slices, back to back
 * over its life as THREAD STATES sums them) and a track of its system calls (a slice per
 * call, named after it, its result in args). Both are extra tracks of the thread's
 * process named after the thread: "NAME (states)", "NAME (system calls)".
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

/* Spans sorted by thread, then track (states before calls), then time. */
struct os_ev {
	uint32_t tid;
	bool call;
	uint64_t begin;
	uint32_t idx;
};

static int cmp_os_ev(const void *a, const void *b)
{
	const struct os_ev *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->call != y->call)
		return x->call ? 1 : -1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void os_label(const struct rpt *r, uint32_t tid, char *buf, size_t len)
{
	struct rpt_thread_view t;

	if (!rpt_thread_of(r, tid, &t))
		snprintf(buf, len, "Thread-%u", tid);
	else if (t.name)
		snprintf(buf, len, "%s", t.name);
	else if (t.tid == t.pid || t.renamed)
		snprintf(buf, len, "%s", t.comm);
	else
		snprintf(buf, len, "Thread-%u", tid);
}

static void put_span(struct rpt_pf *w, uint32_t pid, uint32_t track,
		     const struct rpt_os_span_view *s)
{
	static const char *const STATE[] = { "Running", "Runnable", "Blocked" };

	rpt_pf_sep(w);
	fprintf(w->f, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":",
		s->kind == RPT_OS_CALL ? "syscall" : "state", pid, track);
	rpt_pf_ts(w, s->begin);
	fprintf(w->f, ",\"dur\":%.3f,\"name\":\"", (double)(s->end - s->begin) / 1e3);
	if (s->kind == RPT_OS_CALL) {
		util_put_escaped(w->f, s->call, UTIL_ESC_JSON);
		fprintf(w->f, "\",\"args\":{\"ret\":%" PRId64 "}}", s->ret);
	} else if (s->kind == RPT_OS_BLOCKED) {
		fprintf(w->f, "Blocked: %s\"}", s->wait);
	} else {
		fprintf(w->f, "%s\"}", STATE[s->kind]);
	}
}

int rpt_pf_os(struct rpt_pf *w, const struct rpt *r, uint32_t *vtid)
{
	uint64_t left_out;
	size_t n = rpt_os_span_count(r, &left_out);
	struct os_ev *ev = malloc(sizeof(*ev) * (n ? n : 1));
	uint32_t track = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct rpt_os_span_view s;

		rpt_os_span_at(r, i, &s);
		ev[i] = (struct os_ev){ (uint32_t)s.tid, s.kind == RPT_OS_CALL, s.begin,
					(uint32_t)i };
	}
	util_qsort(ev, n, sizeof(*ev), cmp_os_ev);
	for (size_t i = 0; i < n; i++) {
		struct rpt_os_span_view s;

		rpt_os_span_at(r, ev[i].idx, &s);
		if (!i || ev[i].tid != ev[i - 1].tid || ev[i].call != ev[i - 1].call) {
			char label[96];

			track = (*vtid)++;
			os_label(r, ev[i].tid, label, sizeof(label));
			rpt_pf_meta(w, "thread_name", (uint32_t)s.pid, track, label,
				    ev[i].call ? " (system calls)" : " (states)");
		}
		put_span(w, (uint32_t)s.pid, track, &s);
	}
	free(ev);
	return 0;
}

uint64_t rpt_pf_os_base(const struct rpt *r, uint64_t base)
{
	uint64_t left_out;
	size_t n = rpt_os_span_count(r, &left_out);

	for (size_t i = 0; i < n; i++) {
		struct rpt_os_span_view s;

		rpt_os_span_at(r, i, &s);
		if (!base || s.begin < base)
			base = s.begin;
	}
	return base;
}

void rpt_pf_os_other(struct rpt_pf *w, const struct rpt *r)
{
	uint64_t left_out;
	size_t n = rpt_os_span_count(r, &left_out);

	if (n || left_out)
		fprintf(w->f, ",\"os_trace\":{\"slices\":%zu,\"left_out\":%" PRIu64 "}", n,
			left_out);
}
