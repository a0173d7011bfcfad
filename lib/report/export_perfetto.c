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
#include "report/export.h"

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
	uint32_t idx;	/* sample or span index */
	bool span;
};

struct out {
	const struct rpt *r;
	FILE *f;
	uint64_t base;
	bool first;
	uint32_t *sf;	      /* symstack -> its stackFrames id */
	struct util_hash frames; /* (parent id, fid) -> id */
	uint32_t nframes;
	struct frame_def {
		uint32_t parent;
		uint32_t fid;
	} *defs;
	uint32_t capdefs;
};

static void sep(struct out *o)
{
	fputs(o->first ? "\n" : ",\n", o->f);
	o->first = false;
}

static void ts(struct out *o, uint64_t t)
{
	fprintf(o->f, "%.3f", t >= o->base ? (double)(t - o->base) / 1e3 : -(double)(o->base - t) / 1e3);
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
	const struct rpt_stacks *st = o->r->stacks;
	const struct rpt_symstack *s = &st->syms[sym];
	uint32_t parent = 0;

	if (o->sf[sym]) {
		*id = o->sf[sym];
		return 0;
	}
	for (uint32_t k = s->n; k-- > 0;) {
		uint32_t fid = st->fids[s->first + k];
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

static int put_sample(struct out *o, uint32_t pid, uint32_t tid, const struct rpt_ssample *smp)
{
	const struct rpt_stacks *st = o->r->stacks;
	uint32_t sym = st->stacks[smp->stack].sym, id;
	const struct rpt_symstack *s = &st->syms[sym];
	const struct rpt_cfunc *leaf = s->n ? &st->funcs[st->fids[s->first]] : NULL;
	int ret = frame_id(o, sym, &id);

	if (ret)
		return ret;
	sep(o);
	fprintf(o->f, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"sample\",\"pid\":%u,\"tid\":%u,\"ts\":",
		pid, tid);
	ts(o, smp->time);
	fputs(",\"name\":\"", o->f);
	util_put_escaped(o->f, leaf ? leaf->name : "?", UTIL_ESC_JSON);
	fprintf(o->f, "\",\"sf\":\"%u\",\"args\":{\"stack\":\"", id);
	for (uint32_t k = s->n; k-- > 0;) {
		util_put_escaped(o->f, st->funcs[st->fids[s->first + k]].name, UTIL_ESC_JSON_FRAME);
		if (k)
			fputc(';', o->f);
	}
	fputs("\",\"module\":\"", o->f);
	util_put_escaped(o->f, leaf ? rpt_callgraph_module(o->r, leaf) : "", UTIL_ESC_JSON);
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
	const struct rpt_task_span *x = a, *y = b;

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
	uint64_t *slot = util_hash_find(&r->world.tid_index, tid, 0, 0);
	const struct rpt_thread *t = slot ? &r->world.threads[*slot - 1] : NULL;

	if (t && t->name)
		snprintf(buf, len, "%s", t->name);
	else if (t && (t->tid == t->pid || t->renamed))
		snprintf(buf, len, "%s", t->comm);
	else
		snprintf(buf, len, "Thread-%u", tid);
}

/* Everything of thread @tid: samples [s0, s1), spans [p0, p1) of the sorted copy. */
static int put_thread(struct out *o, uint32_t pid, uint32_t tid, size_t s0, size_t s1,
		      const struct rpt_task_span *spans, size_t p0, size_t p1, uint32_t *vtid)
{
	const struct rpt_stacks *st = o->r->stacks;
	uint64_t open[MAX_TRACKS][64];
	int depth[MAX_TRACKS] = { 0 }, ntracks = 1;
	struct ev *ev = malloc(sizeof(*ev) * (s1 - s0 + p1 - p0 + 1));
	uint32_t tids[MAX_TRACKS];
	char label[96];
	int ret = 0;
	size_t n = 0;

	if (!ev)
		return -ENOMEM;
	for (size_t i = s0; i < s1; i++)
		ev[n++] = (struct ev){ st->samples[i].time, 0, 0, (uint32_t)i, false };
	for (size_t i = p0; i < p1; i++) {
		const struct rpt_task_span *sp = &spans[i];
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
		ev[n++] = (struct ev){ sp->begin, sp->end - sp->begin, (uint32_t)k, (uint32_t)i, true };
	}
	qsort(ev, n, sizeof(*ev), cmp_ev);
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
			ret = put_sample(o, pid, tid, &st->samples[ev[i].idx]);
			continue;
		}
		const struct rpt_task_span *sp = &spans[ev[i].idx];
		const struct rpt_task_item *it = &o->r->items[sp->item];
		bool event = !strcmp(it->domain, "User");

		put_slice(o, pid, tids[ev[i].track], sp->begin, ev[i].dur, it->name,
			  event ? "event" : "task", event ? NULL : it->domain);
	}
	free(ev);
	return ret;
}

static uint32_t pid_of(const struct rpt *r, uint32_t tid, uint32_t fallback)
{
	uint64_t *slot = util_hash_find(&r->world.tid_index, tid, 0, 0);

	return slot ? (uint32_t)r->world.threads[*slot - 1].pid : fallback;
}

static int put_threads(struct out *o, const struct rpt_task_span *spans, size_t nspans)
{
	const struct rpt_stacks *st = o->r->stacks;
	size_t si = 0, pi = 0;
	uint32_t vtid = VTID_BASE;
	int ret = 0;

	while (!ret && (si < st->nsamples || pi < nspans)) {
		uint32_t tid = si < st->nsamples ? st->samples[si].tid : UINT32_MAX;
		size_t s1 = si, p1 = pi;

		if (pi < nspans && spans[pi].tid < tid)
			tid = spans[pi].tid;
		while (s1 < st->nsamples && st->samples[s1].tid == tid)
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
	const struct rpt *r = o->r;
	uint64_t from = (uint64_t)r->info.start_mono_ns, to = (uint64_t)r->info.end_mono_ns;

	for (int p = 0; p < r->world.nprocs; p++) {
		const struct rpt_process *proc = &r->world.procs[p];
		uint32_t ptid = VTID_BASE - 1 - (uint32_t)p;

		if (!proc->samples)
			continue;
		meta(o, "process_name", (uint32_t)proc->pid, (uint32_t)proc->pid, proc->comm, "");
		if (!r->npauses)
			continue;
		meta(o, "thread_name", (uint32_t)proc->pid, ptid, "paused", "");
		for (size_t i = 0; i < r->npauses; i++) {
			uint64_t a = (uint64_t)r->pauses[i].from, b = (uint64_t)r->pauses[i].to;

			if (to > from) { /* clip to the collection: an open pause ends with it */
				a = a < from ? from : a > to ? to : a;
				b = b < a ? a : b > to ? to : b;
			}
			put_slice(o, (uint32_t)proc->pid, ptid, a, b - a, "paused", "pause", NULL);
		}
	}
}

static void put_frames(struct out *o)
{
	const struct rpt_stacks *st = o->r->stacks;

	fputs("\"stackFrames\":{", o->f);
	for (uint32_t i = 0; i < o->nframes; i++) {
		const struct rpt_cfunc *fn = &st->funcs[o->defs[i].fid];
		const char *mod = rpt_callgraph_module(o->r, fn), *slash = strrchr(mod, '/');

		fprintf(o->f, "%s\n\"%u\":{\"name\":\"", i ? "," : "", i + 1);
		util_put_escaped(o->f, fn->name, UTIL_ESC_JSON);
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
	const struct rpt_stacks *st = r->stacks;
	struct out o = { r, f, (uint64_t)r->info.start_mono_ns, true, NULL, { 0 }, 0, NULL, 0 };
	struct rpt_task_span *spans = malloc(sizeof(*spans) * (st->nspans ? st->nspans : 1));
	int ret = -ENOMEM;

	o.sf = calloc(st->nsyms ? st->nsyms : 1, sizeof(*o.sf));
	if (!spans || !o.sf)
		goto out;
	if (st->nspans) {
		memcpy(spans, st->spans, sizeof(*spans) * st->nspans);
		qsort(spans, st->nspans, sizeof(*spans), cmp_span);
	}
	for (size_t i = 0; i < st->nsamples; i++) /* no negative times: start at the first */
		if (st->samples[i].time < o.base || !o.base)
			o.base = st->samples[i].time;
	for (size_t i = 0; i < st->nspans; i++)
		if (spans[i].begin < o.base)
			o.base = spans[i].begin;
	fputs("{\"traceEvents\":[", f);
	put_processes(&o);
	ret = put_threads(&o, spans, st->nspans);
	if (ret)
		goto out;
	fputs("\n],\n\"displayTimeUnit\":\"ms\",\n", f);
	put_frames(&o);
	fprintf(f, "\"otherData\":{\"tool\":\"uprof %s\",\"session\":\"", UPROF_VERSION);
	util_put_escaped(f, r->dir, UTIL_ESC_JSON);
	fprintf(f, "\",\"samples\":%" PRIu64 ",\"period_ns\":%" PRIu64 ",\"call_stacks\":\"%s\"}}\n",
		r->samples, r->info.nevents ? r->info.events[0].period : 0,
		st->collected ? (r->info.callgraph_mode[0] ? r->info.callgraph_mode : "yes") : "none");
out:
	free(spans);
	free(o.sf);
	free(o.defs);
	util_hash_release(&o.frames);
	return ret;
}
