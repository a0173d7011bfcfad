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
 *   - a "paused" track per process with the paused intervals;
 *   - a --trace openmp session's implicit tasks and waits on each thread's track (placed
 *     with its task spans, so they nest too) and its device tracks (export_perfetto_omp.c);
 *   - a --trace mpi=full rank's MPI calls on its threads' tracks and its messages to
 *     itself as flows (export_perfetto_mpi.c);
 *   - a --trace os session's thread states and system calls, two tracks a thread
 *     (export_perfetto_os.c);
 *   - with report --agg-interval, counter tracks of each process's (and thread's)
 *     samples per time bucket (export_perfetto_agg.c).
 * Timestamps are microseconds since the start of the collection, in order on each track.
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define VTID_BASE 0x40000000 /* extra tracks: above any kernel pid */

enum ev_kind { EV_SPAN, EV_OMP, EV_SAMPLE };

struct ev {
	uint64_t ts;
	uint64_t dur;
	uint32_t track; /* 0: the thread itself */
	uint32_t idx;	/* sample (rpt_stack_sample_at), span (the sorted copy) or OpenMP
			 * slice (rpt_omp_thread_slice_at) index */
	enum ev_kind kind;
};

struct out {
	const struct rpt *r;
	struct rpt_stacks_facts facts;
	struct rpt_omp_trace_facts omp;
	struct rpt_pf w;
	uint32_t *sf;		 /* symstack -> its stackFrames id */
	struct util_hash frames; /* (parent id, fid) -> id */
	uint32_t nframes;
	struct frame_def {
		uint32_t parent;
		uint32_t fid;
	} * defs;
	uint32_t capdefs;
};

void rpt_pf_sep(struct rpt_pf *w)
{
	fputs(w->first ? "\n" : ",\n", w->f);
	w->first = false;
}

void rpt_pf_ts(struct rpt_pf *w, uint64_t t)
{
	fprintf(w->f, "%.3f",
		t >= w->base ? (double)(t - w->base) / 1e3 : -(double)(w->base - t) / 1e3);
}

void rpt_pf_meta(struct rpt_pf *w, const char *what, uint32_t pid, uint32_t tid, const char *name,
		 const char *suffix)
{
	rpt_pf_sep(w);
	fprintf(w->f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\",\"args\":{\"name\":\"",
		pid, tid, what);
	util_put_escaped(w->f, name, UTIL_ESC_JSON);
	fprintf(w->f, "%s\"}}", suffix);
}

int rpt_pf_lane(struct rpt_pf_lanes *l, uint64_t begin, uint64_t end)
{
	int k;

	/* the first lane where it nests inside what is open (or nothing is) */
	for (k = 0; k < RPT_PF_LANES; k++) {
		while (l->depth[k] && l->open[k][l->depth[k] - 1] <= begin)
			l->depth[k]--;
		if (!l->depth[k] || end <= l->open[k][l->depth[k] - 1])
			break;
	}
	if (k == RPT_PF_LANES)
		k = RPT_PF_LANES - 1;
	if (l->depth[k] < RPT_PF_DEPTH)
		l->open[k][l->depth[k]++] = end;
	if (k + 1 > l->n)
		l->n = k + 1;
	return k;
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
	rpt_pf_sep(&o->w);
	fprintf(o->w.f,
		"{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"sample\",\"pid\":%u,\"tid\":%u,\"ts\":", pid,
		tid);
	rpt_pf_ts(&o->w, smp.time);
	fputs(",\"name\":\"", o->w.f);
	util_put_escaped(o->w.f, leaf.name, UTIL_ESC_JSON);
	fprintf(o->w.f, "\",\"sf\":\"%u\",\"args\":{\"stack\":\"", id);
	for (uint32_t k = s.nfuncs; k-- > 0;) {
		struct rpt_stack_fn fn;

		rpt_stack_func(o->r, s.funcs[k], &fn);
		util_put_escaped(o->w.f, fn.name, UTIL_ESC_JSON_FRAME);
		if (k)
			fputc(';', o->w.f);
	}
	fputs("\",\"module\":\"", o->w.f);
	util_put_escaped(o->w.f, leaf.module, UTIL_ESC_JSON);
	fputs("\"}}", o->w.f);
	return 0;
}

static void put_slice(struct out *o, uint32_t pid, uint32_t tid, uint64_t from, uint64_t dur,
		      const char *name, const char *cat, const char *domain)
{
	rpt_pf_sep(&o->w);
	fprintf(o->w.f, "{\"ph\":\"X\",\"cat\":\"%s\",\"pid\":%u,\"tid\":%u,\"ts\":", cat, pid,
		tid);
	rpt_pf_ts(&o->w, from);
	fprintf(o->w.f, ",\"dur\":%.3f,\"name\":\"", (double)dur / 1e3);
	util_put_escaped(o->w.f, name, UTIL_ESC_JSON);
	fputs("\"", o->w.f);
	if (domain) {
		fputs(",\"args\":{\"domain\":\"", o->w.f);
		util_put_escaped(o->w.f, domain, UTIL_ESC_JSON);
		fputs("\"}", o->w.f);
	}
	fputs("}", o->w.f);
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
	if ((x->kind == EV_SAMPLE) != (y->kind == EV_SAMPLE))
		return x->kind == EV_SAMPLE ? 1 : -1; /* slices before samples */
	/* the enclosing slice first, whichever kind: a viewer nests slices of one start by
	 * the order they come in */
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
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

/* What one thread has: kept samples [s0, s1), task spans [p0, p1) of the sorted copy,
 * OpenMP slices [q0, q1) (rpt_omp_thread_slice_at). */
struct thread_range {
	size_t s0, s1, p0, p1, q0, q1;
};

/* The slices of @t (spans and OpenMP ones, each in (begin, longest first) order) merged
 * into @ev in that order, each on the first of the thread's tracks where it nests. */
static size_t put_lanes(struct out *o, const struct rpt_task_span_view *spans,
			const struct thread_range *t, struct rpt_pf_lanes *lanes, struct ev *ev)
{
	size_t p = t->p0, q = t->q0, n = 0;
	struct rpt_omp_slice_view sl = { 0 };

	if (q < t->q1)
		rpt_omp_thread_slice_at(o->r, q, &sl);
	while (p < t->p1 || q < t->q1) {
		bool span = q >= t->q1 ||
			    (p < t->p1 && (spans[p].begin < sl.begin ||
					   (spans[p].begin == sl.begin && spans[p].end >= sl.end)));
		uint64_t begin = span ? spans[p].begin : sl.begin;
		uint64_t end = span ? spans[p].end : sl.end;
		int k = rpt_pf_lane(lanes, begin, end);

		ev[n++] = (struct ev){ begin, end - begin, (uint32_t)k,
				       (uint32_t)(span ? p++ : q++), span ? EV_SPAN : EV_OMP };
		if (!span && q < t->q1)
			rpt_omp_thread_slice_at(o->r, q, &sl);
	}
	return n;
}

/* Everything of thread @tid (@t). */
static int put_thread(struct out *o, uint32_t pid, uint32_t tid, const struct thread_range *t,
		      const struct rpt_task_span_view *spans, uint32_t *vtid)
{
	struct rpt_pf_lanes *lanes = calloc(1, sizeof(*lanes));
	struct ev *ev = malloc(sizeof(*ev) * (t->s1 - t->s0 + t->p1 - t->p0 + t->q1 - t->q0 + 1));
	uint32_t tids[RPT_PF_LANES];
	char label[96];
	int ret = -ENOMEM;
	size_t n = 0;

	if (!ev || !lanes)
		goto out;
	lanes->n = 1;
	for (size_t i = t->s0; i < t->s1; i++) {
		struct rpt_stack_sample smp;

		rpt_stack_sample_at(o->r, i, &smp);
		ev[n++] = (struct ev){ smp.time, 0, 0, (uint32_t)i, EV_SAMPLE };
	}
	n += put_lanes(o, spans, t, lanes, ev + n);
	util_qsort(ev, n, sizeof(*ev), cmp_ev);
	thread_label(o->r, tid, label, sizeof(label));
	tids[0] = tid;
	rpt_pf_meta(&o->w, "thread_name", pid, tid, label, "");
	for (int k = 1; k < lanes->n; k++) {
		char suffix[32];

		tids[k] = (*vtid)++;
		snprintf(suffix, sizeof(suffix), " (overlapping tasks %d)", k);
		rpt_pf_meta(&o->w, "thread_name", pid, tids[k], label, suffix);
	}
	ret = 0;
	for (size_t i = 0; i < n && !ret; i++) {
		const struct rpt_task_span_view *sp = &spans[ev[i].idx];
		bool event;

		if (ev[i].kind == EV_SAMPLE) {
			ret = put_sample(o, pid, tid, ev[i].idx);
			continue;
		}
		if (ev[i].kind == EV_OMP) {
			rpt_pf_omp_slice(&o->w, o->r, tids[ev[i].track], ev[i].idx);
			continue;
		}
		event = !strcmp(sp->domain, "User");
		put_slice(o, pid, tids[ev[i].track], sp->begin, ev[i].dur, sp->name,
			  event ? "event" : "task", event ? NULL : sp->domain);
	}
out:
	free(ev);
	free(lanes);
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

/* The tid of OpenMP slice @i, UINT32_MAX past the last. */
static uint32_t omp_tid(const struct out *o, size_t i, int *pid)
{
	struct rpt_omp_slice_view sl;

	if (i >= o->omp.nthread)
		return UINT32_MAX;
	rpt_omp_thread_slice_at(o->r, i, &sl);
	*pid = sl.pid;
	return sl.tid;
}

static int put_threads(struct out *o, const struct rpt_task_span_view *spans, size_t nspans,
		       uint32_t *vtid)
{
	size_t si = 0, pi = 0, qi = 0, nsamples = o->facts.nsamples;
	int ret = 0, omp_pid = 0;

	while (!ret && (si < nsamples || pi < nspans || qi < o->omp.nthread)) {
		uint32_t tid = sample_tid(o, si), otid = omp_tid(o, qi, &omp_pid);
		struct thread_range t = { si, si, pi, pi, qi, qi };
		int pid_seen;

		if (pi < nspans && spans[pi].tid < tid)
			tid = spans[pi].tid;
		if (otid < tid)
			tid = otid;
		while (t.s1 < nsamples && sample_tid(o, t.s1) == tid)
			t.s1++;
		while (t.p1 < nspans && spans[t.p1].tid == tid)
			t.p1++;
		while (omp_tid(o, t.q1, &pid_seen) == tid)
			t.q1++;
		ret = put_thread(o,
				 pid_of(o->r, tid,
					pi < t.p1   ? spans[pi].pid
					: qi < t.q1 ? (uint32_t)omp_pid
						    : tid),
				 tid, &t, spans, vtid);
		si = t.s1;
		pi = t.p1;
		qi = t.q1;
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
		rpt_pf_meta(&o->w, "process_name", (uint32_t)proc.pid, (uint32_t)proc.pid,
			    proc.comm, "");
		if (!o->facts.npauses)
			continue;
		rpt_pf_meta(&o->w, "thread_name", (uint32_t)proc.pid, ptid, "paused", "");
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
	fputs("\"stackFrames\":{", o->w.f);
	for (uint32_t i = 0; i < o->nframes; i++) {
		struct rpt_stack_fn fn;
		const char *mod, *slash;

		rpt_stack_func(o->r, o->defs[i].fid, &fn);
		mod = fn.module;
		slash = strrchr(mod, '/');
		fprintf(o->w.f, "%s\n\"%u\":{\"name\":\"", i ? "," : "", i + 1);
		util_put_escaped(o->w.f, fn.name, UTIL_ESC_JSON);
		fputs("\",\"category\":\"", o->w.f);
		util_put_escaped(o->w.f, slash ? slash + 1 : mod, UTIL_ESC_JSON);
		fputc('"', o->w.f);
		if (o->defs[i].parent)
			fprintf(o->w.f, ",\"parent\":\"%u\"", o->defs[i].parent);
		fputc('}', o->w.f);
	}
	fputs("},\n", o->w.f);
}

int rpt_export_perfetto(const struct rpt *r, FILE *f)
{
	struct out o = { .r = r, .w = { .f = f, .first = true } };
	uint32_t vtid = VTID_BASE;
	const struct rpt_stacks_facts *facts = &o.facts;
	struct rpt_task_span_view *spans;
	struct rpt_pf_mpi *mpi = NULL; /* --trace mpi=full's calls and messages */
	int ret = -ENOMEM;

	rpt_stacks_facts(r, &o.facts);
	rpt_omp_trace_facts(r, &o.omp);
	if (!facts->timeline) /* opened for exports without a trace: no sample kept */
		return -EINVAL;
	o.w.base = (uint64_t)facts->info->start_mono_ns;
	spans = malloc(sizeof(*spans) * (facts->nspans ? facts->nspans : 1));
	o.sf = calloc(facts->nstacks ? facts->nstacks : 1, sizeof(*o.sf));
	if (!spans || !o.sf || rpt_pf_mpi_session(r, &mpi))
		goto out;
	if (facts->nspans) {
		for (size_t i = 0; i < facts->nspans; i++)
			rpt_task_span_at(r, i, &spans[i]);
		util_qsort(spans, facts->nspans, sizeof(*spans), cmp_span);
	}
	for (size_t i = 0; i < facts->nsamples; i++) { /* no negative times: start at the first */
		struct rpt_stack_sample smp;

		rpt_stack_sample_at(r, i, &smp);
		if (smp.time < o.w.base || !o.w.base)
			o.w.base = smp.time;
	}
	for (size_t i = 0; i < facts->nspans; i++)
		if (spans[i].begin < o.w.base)
			o.w.base = spans[i].begin;
	o.w.base = rpt_pf_omp_base(r, o.w.base);
	o.w.base = rpt_pf_mpi_base(mpi, o.w.base);
	o.w.base = rpt_pf_os_base(r, o.w.base);
	fputs("{\"traceEvents\":[", f);
	put_processes(&o);
	ret = put_threads(&o, spans, facts->nspans, &vtid);
	if (!ret)
		ret = rpt_pf_omp_devices(&o.w, r, &vtid);
	if (!ret)
		ret = rpt_pf_os(&o.w, r, &vtid);
	if (!ret)
		ret = rpt_pf_agg(&o.w, r, facts->info);
	if (ret)
		goto out;
	rpt_pf_mpi_put(&o.w, mpi, false);
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
	rpt_pf_omp_other(&o.w, r);
	rpt_pf_mpi_other(&o.w, mpi);
	rpt_pf_os_other(&o.w, r);
	rpt_pf_agg_other(&o.w, r);
	fputs("}}\n", f);
out:
	rpt_pf_mpi_session_free(mpi);
	free(spans);
	free(o.sf);
	free(o.defs);
	util_hash_release(&o.frames);
	return ret;
}
