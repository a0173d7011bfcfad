// SPDX-License-Identifier: MIT
/*
 * A Chrome/Perfetto trace (JSON Trace Event Format) of the session, for ui.perfetto.dev
 * and chrome://tracing:
 *   - process_name / thread_name metadata for every process and thread seen;
 *   - one track per thread: its samples as instant events named after the leaf function,
 *     the stack (outermost first, ';'-separated, ';' in names as ':' like the folded
 *     file) in args and as "sf" into stackFrames (names as they are);
 *     its task and event instances as complete ("X") slices, which nest by containment;
 *     an instance that overlaps another without nesting goes to an extra track of that
 *     thread ("name (overlapping tasks 1)"), so every track nests properly;
 *   - a "paused" track per process with the paused intervals.
 * Timestamps are microseconds since the start of the collection, in order on each track.
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define VTID_BASE 0x40000000 /* extra tracks: above any kernel pid */
#define MAX_TRACKS 8	     /* task tracks per thread; deeper overlaps share the last */

struct ev {
	uint64_t ts;
	uint64_t dur;
	uint32_t track; /* 0: the thread itself */
	uint32_t idx;	/* sample (rpt_stack_sample_at) or span (the sorted copy) index */
	bool span;
};

struct out {
	const struct rpt *r;
	struct rpt_stacks_facts facts;
	FILE *f;
	uint64_t base;
	bool first;
	uint32_t *sf;		 /* symstack -> its stackFrames id */
	struct util_hash frames; /* (parent id, fid) -> id */
	uint32_t nframes;
	struct frame_def {
		uint32_t parent;
		uint32_t fid;
	} * defs;
	uint32_t capdefs;
};

static void sep(struct out *o)
{
	fputs(o->first ? "\n" : ",\n", o->f);
	o->first = false;
}

static void ts(struct out *o, uint64_t t)
{
	fprintf(o->f, "%.3f",
		t >= o->base ? (double)(t - o->base) / 1e3 : -(double)(o->base - t) / 1e3);
}

static void meta(struct out *o, const char *what, uint32_t pid, uint32_t tid, const char *name,
		 const char *suffix)
{
	sep(o);
	fprintf(o->f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\",\"args\":{\"name\":\"",
		pid, tid, what);
	util_put_escaped(o->f, name, UTIL_ESC_JSON);
	fprintf(o->f, "%s\"}}", suffix);
}

/* The stackFrames id of symbolized stack @sym (0: none), made on first use. */
static int frame_id(struct out *o, uint32_t sym, uint32_t *id)
{
	struct rpt_stack_view s;
	uint32_t parent = 0;

	if (o->sf[sym]) {
		*id = o->sf[sym];
		return 0;
	}
	rpt_stack_at(o->r, sym, &s);
	for (uint32_t k = s.nfuncs; k-- > 0;) {
		uint32_t fid = s.funcs[k];
		uint64_t *slot = util_hash_slot(&o->frames, parent, fid, 0);

		if (!slot)
			return -ENOMEM;
		if (!*slot) {
			if (o->nframes == o->capdefs) {
				uint32_t cap = o->capdefs ? o->capdefs * 2 : 1024;
				struct frame_def *g = realloc(o->defs, sizeof(*g) * cap);

				if (!g)
					return -ENOMEM;
				o->defs = g;
				o->capdefs = cap;
			}
			o->defs[o->nframes] = (struct frame_def){ parent, fid };
			*slot = ++o->nframes;
		}
		parent = (uint32_t)*slot;
	}
	o->sf[sym] = parent;
	*id = parent;
	return 0;
}

static int put_sample(struct out *o, uint32_t pid, uint32_t tid, size_t sample)
{
	struct rpt_stack_sample smp;
	struct rpt_stack_view s;
	struct rpt_stack_fn leaf = { "?", "", RPT_FN_FUNCTION }; /* a stack of no frame */
	uint32_t id;
	int ret;

	rpt_stack_sample_at(o->r, sample, &smp);
	rpt_stack_at(o->r, smp.stack, &s);
	if (s.nfuncs)
		rpt_stack_func(o->r, s.funcs[0], &leaf);
	ret = frame_id(o, smp.stack, &id);
	if (ret)
		return ret;
	sep(o);
	fprintf(o->f,
		"{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"sample\",\"pid\":%u,\"tid\":%u,\"ts\":", pid,
		tid);
	ts(o, smp.time);
	fputs(",\"name\":\"", o->f);
	util_put_escaped(o->f, leaf.name, UTIL_ESC_JSON);
	fprintf(o->f, "\",\"sf\":\"%u\",\"args\":{\"stack\":\"", id);
	for (uint32_t k = s.nfuncs; k-- > 0;) {
		struct rpt_stack_fn fn;

		rpt_stack_func(o->r, s.funcs[k], &fn);
		util_put_escaped(o->f, fn.name, UTIL_ESC_JSON_FRAME);
		if (k)
			fputc(';', o->f);
	}
	fputs("\",\"module\":\"", o->f);
	util_put_escaped(o->f, leaf.module, UTIL_ESC_JSON);
	fputs("\"}}", o->f);
	return 0;
}

static void put_slice(struct out *o, uint32_t pid, uint32_t tid, uint64_t from, uint64_t dur,
		      const char *name, const char *cat, const char *domain)
{
	sep(o);
	fprintf(o->f, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":", cat, pid, tid);
	ts(o, from);
	fprintf(o->f, ",\"dur\":%.3f,\"name\":\"", (double)dur / 1e3);
	util_put_escaped(o->f, name, UTIL_ESC_JSON);
	fputs("\"", o->f);
	if (domain) {
		fputs(",\"args\":{\"domain\":\"", o->f);
		util_put_escaped(o->f, domain, UTIL_ESC_JSON);
		fputs("\"}", o->f);
	}
	fputs("}", o->f);
}

static int cmp_span(const void *a, const void *b)
{
	const struct rpt_task_span_view *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->begin != y->begin)
		return x->begin < y->begin ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end; /* the enclosing one first */
}

static int cmp_ev(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->track != y->track)
		return x->track < y->track ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->span != y->span)
		return x->span ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

static void thread_label(const struct rpt *r, uint32_t tid, char *buf, size_t len)
{
	struct rpt_thread_view tv;
	const struct rpt_thread_view *t = rpt_thread_of(r, tid, &tv) ? &tv : NULL;

	if (t && t->name)
		snprintf(buf, len, "%s", t->name);
	else if (t && (t->tid == t->pid || t->renamed))
		snprintf(buf, len, "%s", t->comm);
	else
		snprintf(buf, len, "Thread-%u", tid);
}

/* Everything of thread @tid: samples [s0, s1), spans [p0, p1) of the sorted copy. */
static int put_thread(struct out *o, uint32_t pid, uint32_t tid, size_t s0, size_t s1,
		      const struct rpt_task_span_view *spans, size_t p0, size_t p1, uint32_t *vtid)
{
	uint64_t open[MAX_TRACKS][64];
	int depth[MAX_TRACKS] = { 0 }, ntracks = 1;
	struct ev *ev = malloc(sizeof(*ev) * (s1 - s0 + p1 - p0 + 1));
	uint32_t tids[MAX_TRACKS];
	char label[96];
	int ret = 0;
	size_t n = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = s0; i < s1; i++) {
		struct rpt_stack_sample smp;

		rpt_stack_sample_at(o->r, i, &smp);
		ev[n++] = (struct ev){ smp.time, 0, 0, (uint32_t)i, false };
	}
	for (size_t i = p0; i < p1; i++) {
		const struct rpt_task_span_view *sp = &spans[i];
		int k;

		/* the first track where it nests inside what is open (or nothing is) */
		for (k = 0; k < MAX_TRACKS; k++) {
			while (depth[k] && open[k][depth[k] - 1] <= sp->begin)
				depth[k]--;
			if (!depth[k] || sp->end <= open[k][depth[k] - 1])
				break;
		}
		if (k == MAX_TRACKS)
			k = MAX_TRACKS - 1;
		if (depth[k] < 64)
			open[k][depth[k]++] = sp->end;
		if (k + 1 > ntracks)
			ntracks = k + 1;
		ev[n++] = (struct ev){ sp->begin, sp->end - sp->begin, (uint32_t)k, (uint32_t)i,
				       true };
	}
	util_qsort(ev, n, sizeof(*ev), cmp_ev);
	thread_label(o->r, tid, label, sizeof(label));
	tids[0] = tid;
	meta(o, "thread_name", pid, tid, label, "");
	for (int k = 1; k < ntracks; k++) {
		char suffix[32];

		tids[k] = (*vtid)++;
		snprintf(suffix, sizeof(suffix), " (overlapping tasks %d)", k);
		meta(o, "thread_name", pid, tids[k], label, suffix);
	}
	for (size_t i = 0; i < n && !ret; i++) {
		if (!ev[i].span) {
			ret = put_sample(o, pid, tid, ev[i].idx);
			continue;
		}
		const struct rpt_task_span_view *sp = &spans[ev[i].idx];
		bool event = !strcmp(sp->domain, "User");

		put_slice(o, pid, tids[ev[i].track], sp->begin, ev[i].dur, sp->name,
			  event ? "event" : "task", event ? NULL : sp->domain);
	}
	free(ev);
	return ret;
}

static uint32_t pid_of(const struct rpt *r, uint32_t tid, uint32_t fallback)
{
	struct rpt_thread_view t;

	return rpt_thread_of(r, tid, &t) ? (uint32_t)t.pid : fallback;
}

/* The tid of kept sample @i, UINT32_MAX past the last. */
static uint32_t sample_tid(const struct out *o, size_t i)
{
	struct rpt_stack_sample smp;

	if (i >= o->facts.nsamples)
		return UINT32_MAX;
	rpt_stack_sample_at(o->r, i, &smp);
	return smp.tid;
}

static int put_threads(struct out *o, const struct rpt_task_span_view *spans, size_t nspans)
{
	size_t si = 0, pi = 0, nsamples = o->facts.nsamples;
	uint32_t vtid = VTID_BASE;
	int ret = 0;

	while (!ret && (si < nsamples || pi < nspans)) {
		uint32_t tid = sample_tid(o, si);
		size_t s1 = si, p1 = pi;

		if (pi < nspans && spans[pi].tid < tid)
			tid = spans[pi].tid;
		while (s1 < nsamples && sample_tid(o, s1) == tid)
			s1++;
		while (p1 < nspans && spans[p1].tid == tid)
			p1++;
		ret = put_thread(o, pid_of(o->r, tid, pi < p1 ? spans[pi].pid : tid), tid, si, s1,
				 spans, pi, p1, &vtid);
		si = s1;
		pi = p1;
	}
	return ret;
}

static void put_processes(struct out *o)
{
	const struct ses_info *info = o->facts.info;
	uint64_t from = (uint64_t)info->start_mono_ns, to = (uint64_t)info->end_mono_ns;

	for (int p = 0; p < o->facts.nprocs; p++) {
		struct rpt_process_view proc;
		uint32_t ptid = VTID_BASE - 1 - (uint32_t)p;

		rpt_process_at(o->r, p, &proc);
		if (!proc.samples)
			continue;
		meta(o, "process_name", (uint32_t)proc.pid, (uint32_t)proc.pid, proc.comm, "");
		if (!o->facts.npauses)
			continue;
		meta(o, "thread_name", (uint32_t)proc.pid, ptid, "paused", "");
		for (size_t i = 0; i < o->facts.npauses; i++) {
			int64_t pause_from, pause_to;
			uint64_t a, b;

			rpt_pause_at(o->r, i, &pause_from, &pause_to);
			a = (uint64_t)pause_from;
			b = (uint64_t)pause_to;

			if (to > from) { /* clip to the collection: an open pause ends with it */
				a = a < from ? from : a > to ? to : a;
				b = b < a ? a : b > to ? to : b;
			}
			put_slice(o, (uint32_t)proc.pid, ptid, a, b - a, "paused", "pause", NULL);
		}
	}
}

static void put_frames(struct out *o)
{
	fputs("\"stackFrames\":{", o->f);
	for (uint32_t i = 0; i < o->nframes; i++) {
		struct rpt_stack_fn fn;
		const char *mod, *slash;

		rpt_stack_func(o->r, o->defs[i].fid, &fn);
		mod = fn.module;
		slash = strrchr(mod, '/');
		fprintf(o->f, "%s\n\"%u\":{\"name\":\"", i ? "," : "", i + 1);
		util_put_escaped(o->f, fn.name, UTIL_ESC_JSON);
		fputs("\",\"category\":\"", o->f);
		util_put_escaped(o->f, slash ? slash + 1 : mod, UTIL_ESC_JSON);
		fputc('"', o->f);
		if (o->defs[i].parent)
			fprintf(o->f, ",\"parent\":\"%u\"", o->defs[i].parent);
		fputc('}', o->f);
	}
	fputs("},\n", o->f);
}

int rpt_export_perfetto(const struct rpt *r, FILE *f)
{
	struct out o = { .r = r, .f = f, .first = true };
	const struct rpt_stacks_facts *facts = &o.facts;
	struct rpt_task_span_view *spans;
	int ret = -ENOMEM;

	rpt_stacks_facts(r, &o.facts);
	if (!facts->timeline) /* opened for exports without a trace: no sample kept */
		return -EINVAL;
	o.base = (uint64_t)facts->info->start_mono_ns;
	spans = malloc(sizeof(*spans) * (facts->nspans ? facts->nspans : 1));
	o.sf = calloc(facts->nstacks ? facts->nstacks : 1, sizeof(*o.sf));
	if (!spans || !o.sf)
		goto out;
	if (facts->nspans) {
		for (size_t i = 0; i < facts->nspans; i++)
			rpt_task_span_at(r, i, &spans[i]);
		util_qsort(spans, facts->nspans, sizeof(*spans), cmp_span);
	}
	for (size_t i = 0; i < facts->nsamples; i++) { /* no negative times: start at the first */
		struct rpt_stack_sample smp;

		rpt_stack_sample_at(r, i, &smp);
		if (smp.time < o.base || !o.base)
			o.base = smp.time;
	}
	for (size_t i = 0; i < facts->nspans; i++)
		if (spans[i].begin < o.base)
			o.base = spans[i].begin;
	fputs("{\"traceEvents\":[", f);
	put_processes(&o);
	ret = put_threads(&o, spans, facts->nspans);
	if (ret)
		goto out;
	fputs("\n],\n\"displayTimeUnit\":\"ms\",\n", f);
	put_frames(&o);
	fprintf(f, "\"otherData\":{\"tool\":\"uprof %s\",\"session\":\"", UPROF_VERSION);
	util_put_escaped(f, facts->dir, UTIL_ESC_JSON);
	fprintf(f, "\",\"samples\":%" PRIu64 ",\"period_ns\":%" PRIu64 ",\"call_stacks\":\"%s\"",
		facts->samples, facts->info->nevents ? facts->info->events[0].period : 0,
		facts->collected
			? (facts->info->callgraph_mode[0] ? facts->info->callgraph_mode : "yes")
			: "none");
	/* a long profile's sample tracks show every stride-th sample (report.h) */
	if (facts->left_out)
		fprintf(f,
			",\"sample_tracks\":{\"every\":%" PRIu64
			",\"shown\":%zu,\"left_out\":%" PRIu64 "}",
			facts->stride, facts->nsamples, facts->left_out);
	fputs("}}\n", f);
out:
	free(spans);
	free(o.sf);
	free(o.defs);
	util_hash_release(&o.frames);
	return ret;
}
