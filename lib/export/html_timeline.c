// SPDX-License-Identifier: MIT
/*
 * The HTML report's timeline: a track per thread with its sample density (samples per
 * bin, BINS bins over the profile), its task and event instances and its OpenMP
 * regions and waits, and the paused intervals, written as
 *   "timeline":{"t0":NS,"span":US,"bins":B,"stride":S,"threads":[{"tid":..,"pid":..,
 *     "name":"..","samples":N,"d":[...]},...],"tasks":[[track,begin,end,"domain","name"]],
 *     "omp":[[track,begin,end,kind,depth,"what","site"]],"mpi":[[track,begin,end,"function"]],
 *     "pauses":[[begin,end]],"left_out":{"threads":..,"tasks":..,"omp":..,"mpi":..,
 *     "pauses":..,"os_spans":..}}
 * and for a --trace os session each thread's states: "os":[running,runnable,blocked] its
 * nanoseconds in each (THREAD STATES' numbers) and "s":[...] per bin the permille of the
 * bin it spent running, runnable and blocked (3 numbers a bin). "mpi" is an MPI rank's
 * calls (a --trace mpi=full rank's own session: mpi/<pid>.mpiev, read as its trace.json
 * reads it, rpt_pf_mpi_session), on their threads' tracks.
 * With report --agg-interval the density is report's own buckets (rpt_agg_cell_at: the
 * sort event's units, every sample, not a stride of them): t0 is the profile start, a
 * bin one bucket (or the fewest whole buckets that keep them within AGG_BINS, the whole
 * run one bin), and "agg":{"ms":..,"per_bin":..,"unit":"samples"|"events"} says so.
 * times in microseconds from t0 (the earliest of them all, samples' clock). Bounded: the
 * TRACKS threads with the most samples, and per track the earliest SLICES task
 * instances and OpenMP slices; what is left out is counted.
 */
#include "export/html.h"
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define BINS 300 /* a bin is 4 px of the page's 1200 px plot: a few samples each */
/* --agg-interval's buckets drawn at most (2 a px); more: a bin is the fewest whole
 * buckets that fit */
#define AGG_BINS 2400
#define TRACKS 64    /* more threads than fit on a screen twice over */
#define SLICES 1000  /* per track and kind: what one can tell apart on a 1200 px row */
#define PAUSES 10000 /* pause rectangles of the ruler */

struct track {
	uint32_t tid;
	uint64_t samples; /* kept samples, times the stride */
	uint64_t tasks, omp, mpi;
	int index; /* its place on the page, -1: left out */
};

struct tl {
	size_t nos; /* --trace os: thread states over time (rpt_os_span_at()) */
	uint64_t os_lost;
	struct track *v;
	size_t n, cap;
	struct util_hash by_tid; /* tid -> track + 1 */
	uint64_t t0, t1;
	size_t nbins;	/* the density's bins over [t0, t0 + nbins * width) */
	double width;	/* ns */
	size_t per_bin; /* --agg-interval: buckets a bin (0: even bins, no buckets) */
};

static struct track *track_of(struct tl *t, uint32_t tid)
{
	uint64_t *slot = util_hash_slot(&t->by_tid, tid, 0, 0);

	if (!slot)
		return NULL;
	if (*slot)
		return &t->v[*slot - 1];
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct track *g = realloc(t->v, cap * sizeof(*g));

		if (!g)
			return NULL;
		t->v = g;
		t->cap = cap;
	}
	t->v[t->n] = (struct track){ tid, 0, 0, 0, 0, -1 };
	*slot = ++t->n;
	return &t->v[t->n - 1];
}

static void span(struct tl *t, uint64_t begin, uint64_t end)
{
	if (begin && (!t->t0 || begin < t->t0))
		t->t0 = begin;
	if (end > t->t1)
		t->t1 = end;
}

static int cmp_track(const void *a, const void *b)
{
	const struct track *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* The @k-th call of the rank's MPI events, if a slice the timeline shows: the calls kept
 * (the earliest RPT_MPI_SLICES_MAX), not the messages of an MPI_Startall (PARTs). */
static const struct ses_mpiev_call *mpi_call(const struct rpt_pf_mpi *m, size_t k)
{
	const struct ses_mpiev_call *c = &m->ranks[0].ev->calls[k];

	return rpt_pf_mpi_kept(m, 0, k) && !(c->flags & SES_MPIEV_PART) && c->begin_ns > 0 &&
			       c->end_ns >= c->begin_ns
		       ? c
		       : NULL;
}

static size_t mpi_ncalls(const struct rpt_pf_mpi *m)
{
	return m && m->nranks && m->ranks[0].ev ? m->ranks[0].ev->ncalls : 0;
}

/* Every thread with samples, tasks, OpenMP slices or MPI calls, and the time they cover. */
static int gather(const struct rpt *r, struct tl *t, const struct rpt_stacks_facts *facts,
		  const struct rpt_omp_trace_facts *omp, const struct rpt_pf_mpi *mpi)
{
	struct track *k;

	for (size_t i = 0; i < mpi_ncalls(mpi); i++) {
		const struct ses_mpiev_call *c = mpi_call(mpi, i);

		if (!c)
			continue;
		if (!(k = track_of(t, (uint32_t)c->tid)))
			return -ENOMEM;
		k->mpi++;
		span(t, (uint64_t)c->begin_ns, (uint64_t)c->end_ns);
	}

	for (size_t i = 0; i < facts->nsamples; i++) {
		struct rpt_stack_sample s;

		rpt_stack_sample_at(r, i, &s);
		k = track_of(t, s.tid);
		if (!k)
			return -ENOMEM;
		k->samples += facts->stride;
		span(t, s.time, s.time);
	}
	for (size_t i = 0; i < facts->nspans; i++) {
		struct rpt_task_span_view s;

		rpt_task_span_at(r, i, &s);
		if (!(k = track_of(t, s.tid)))
			return -ENOMEM;
		k->tasks++;
		span(t, s.begin, s.end);
	}
	for (size_t i = 0; i < omp->nthread; i++) {
		struct rpt_omp_slice_view s;

		rpt_omp_thread_slice_at(r, i, &s);
		if (!(k = track_of(t, s.tid)))
			return -ENOMEM;
		k->omp++;
		span(t, s.begin, s.end);
	}
	for (size_t i = 0; i < facts->npauses; i++) {
		int64_t from, to;

		rpt_pause_at(r, i, &from, &to);
		if (from > 0 && to > from)
			span(t, (uint64_t)from, (uint64_t)to);
	}
	t->nos = rpt_os_span_count(r, &t->os_lost);
	for (size_t i = 0; i < t->nos; i++) {
		struct rpt_os_span_view s;

		rpt_os_span_at(r, i, &s);
		if (!track_of(t, (uint32_t)s.tid))
			return -ENOMEM;
		span(t, s.begin, s.end);
	}
	return 0;
}

/* Each kept track's time in each state, in all (@sum, 3 a track: running, runnable,
 * blocked, rpt_os_span_kind's order) and per bin (@bins, 3 * nbins a track, nanoseconds):
 * a span's time goes to the bins it overlaps. */
static void os_states(const struct rpt *r, const struct tl *t, uint64_t *sum, double *bins)
{
	double width = t->width;
	size_t nbins = t->nbins;

	for (size_t i = 0; i < t->nos; i++) {
		struct rpt_os_span_view s;
		const struct track *k;
		double b, e;

		rpt_os_span_at(r, i, &s);
		k = &t->v[*util_hash_find(&t->by_tid, (uint32_t)s.tid, 0, 0) - 1];
		/* signed: --agg-interval's t0 is the profile start, a span may begin before */
		b = (double)(int64_t)(s.begin - t->t0), e = (double)(int64_t)(s.end - t->t0);
		if (k->index < 0 || s.kind == RPT_OS_CALL) /* a call's span: not a state */
			continue;
		sum[(size_t)k->index * 3 + s.kind] += s.end - s.begin;
		for (size_t x = b > 0 ? (size_t)(b / width) : 0; x < nbins && x * width < e; x++) {
			double lo = x * width > b ? x * width : b;
			double hi = (x + 1) * width < e ? (x + 1) * width : e;

			bins[((size_t)k->index * nbins + x) * 3 + s.kind] += hi - lo;
		}
	}
}

static double us(const struct tl *t, uint64_t ns)
{
	return ns > t->t0 ? (double)(ns - t->t0) / 1e3 : 0;
}

/* --agg-interval: the sort event's units of each kept track per bin, report's own
 * buckets (rpt_agg_cell_at, @per_bin a bin): SAMPLES PER INTERVAL's numbers, exact. */
static void agg_density(const struct rpt *r, const struct tl *t, uint64_t *bins)
{
	struct rpt_agg_facts a;

	rpt_agg_facts(r, &a);
	for (size_t i = 0; i < a.ncells; i++) {
		struct rpt_agg_cell c;
		const uint64_t *slot;
		const struct track *k;

		rpt_agg_cell_at(r, i, &c);
		slot = util_hash_find(&t->by_tid, c.tid, 0, 0);
		if (c.ev || !slot || (k = &t->v[*slot - 1])->index < 0)
			continue;
		bins[(size_t)k->index * t->nbins + c.bucket / t->per_bin] += c.units;
	}
}

/* Each kept track's entry, its sample density counted from the (tid, time) order, or
 * with --agg-interval report's buckets. */
static int put_threads(FILE *f, const struct rpt *r, struct tl *t,
		       const struct rpt_stacks_facts *facts, size_t ntracks)
{
	size_t nbins = t->nbins;
	uint64_t *bins = calloc(ntracks * nbins, sizeof(*bins));
	uint64_t *os_sum = calloc(ntracks * 3 + 1, sizeof(*os_sum));
	double *os_bins = calloc(ntracks * nbins * 3 + 1, sizeof(*os_bins));
	double width = t->width;

	if (!bins || !os_sum || !os_bins) {
		free(bins);
		free(os_sum);
		free(os_bins);
		return -ENOMEM;
	}
	os_states(r, t, os_sum, os_bins);
	if (t->per_bin)
		agg_density(r, t, bins);
	for (size_t i = 0; !t->per_bin && i < facts->nsamples; i++) {
		struct rpt_stack_sample s;
		struct track *k;
		size_t b;

		rpt_stack_sample_at(r, i, &s);
		k = &t->v[*util_hash_find(&t->by_tid, s.tid, 0, 0) - 1];
		if (k->index < 0)
			continue;
		b = (size_t)((double)(s.time - t->t0) / width);
		bins[(size_t)k->index * nbins + (b < nbins ? b : nbins - 1)] += facts->stride;
	}
	fputs("\"threads\":[", f);
	for (size_t i = 0; i < ntracks; i++) {
		struct rpt_thread_view v;
		bool known = rpt_thread_of(r, t->v[i].tid, &v);

		fprintf(f, "%s{\"tid\":%" PRIu32 ",\"pid\":%d,\"name\":\"", i ? ",\n" : "",
			t->v[i].tid, known ? v.pid : 0);
		util_put_escaped(f, known ? (v.name ? v.name : v.comm) : "", UTIL_ESC_JSON_HTML);
		fprintf(f, "\",\"samples\":%" PRIu64 ",\"d\":[", t->v[i].samples);
		for (size_t b = 0; b < nbins; b++)
			fprintf(f, b ? ",%" PRIu64 : "%" PRIu64, bins[i * nbins + b]);
		fputc(']', f);
		if (t->nos) {
			fprintf(f, ",\"os\":[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "],\"s\":[",
				os_sum[i * 3], os_sum[i * 3 + 1], os_sum[i * 3 + 2]);
			for (size_t b = 0; b < nbins * 3; b++)
				fprintf(f, b ? ",%.0f" : "%.0f",
					1000 * os_bins[i * nbins * 3 + b] / width);
			fputc(']', f);
		}
		fputc('}', f);
	}
	fputs("]", f);
	free(bins);
	free(os_sum);
	free(os_bins);
	return 0;
}

/* The task instances of kept tracks, the first SLICES of each; returns those left out. */
static uint64_t put_tasks(FILE *f, const struct rpt *r, struct tl *t,
			  const struct rpt_stacks_facts *facts, size_t *shown)
{
	uint64_t left = 0;
	size_t n = 0;

	fputs(",\"tasks\":[", f);
	for (size_t i = 0; i < facts->nspans; i++) {
		struct rpt_task_span_view s;
		struct track *k;

		rpt_task_span_at(r, i, &s);
		k = &t->v[*util_hash_find(&t->by_tid, s.tid, 0, 0) - 1];
		if (k->index < 0 || shown[k->index]++ >= SLICES) {
			left++;
			continue;
		}
		fprintf(f, "%s[%d,%.1f,%.1f,\"", n++ ? "," : "", k->index, us(t, s.begin),
			us(t, s.end));
		util_put_escaped(f, s.domain, UTIL_ESC_JSON_HTML);
		fputs("\",\"", f);
		util_put_escaped(f, s.name, UTIL_ESC_JSON_HTML);
		fputs("\"]", f);
	}
	fputs("]", f);
	return left;
}

static uint64_t put_omp(FILE *f, const struct rpt *r, struct tl *t,
			const struct rpt_omp_trace_facts *omp, size_t *shown)
{
	uint64_t left = 0;
	size_t n = 0;

	fputs(",\"omp\":[", f);
	for (size_t i = 0; i < omp->nthread; i++) {
		struct rpt_omp_slice_view s;
		struct track *k;

		rpt_omp_thread_slice_at(r, i, &s);
		k = &t->v[*util_hash_find(&t->by_tid, s.tid, 0, 0) - 1];
		if (k->index < 0 || shown[k->index]++ >= SLICES) {
			left++;
			continue;
		}
		fprintf(f, "%s[%d,%.1f,%.1f,%d,%u,\"", n++ ? "," : "", k->index, us(t, s.begin),
			us(t, s.end), s.kind == RPT_OMP_SLICE_REGION ? 0 : 1, s.depth);
		util_put_escaped(f, s.what ? s.what : "", UTIL_ESC_JSON_HTML);
		fputs("\",\"", f);
		util_put_escaped(f, s.site ? s.site : "", UTIL_ESC_JSON_HTML);
		fputs("\"]", f);
	}
	fputs("]", f);
	return left;
}

/* The MPI calls of kept tracks, the first SLICES of each; returns those left out. */
static uint64_t put_mpi(FILE *f, struct tl *t, const struct rpt_pf_mpi *m, size_t *shown)
{
	uint64_t left = 0;
	size_t n = 0;

	fputs(",\"mpi\":[", f);
	for (size_t i = 0; i < mpi_ncalls(m); i++) {
		const struct ses_mpiev_call *c = mpi_call(m, i);
		struct track *k;

		if (!c)
			continue;
		k = &t->v[*util_hash_find(&t->by_tid, (uint32_t)c->tid, 0, 0) - 1];
		if (k->index < 0 || shown[k->index]++ >= SLICES) {
			left++;
			continue;
		}
		fprintf(f, "%s[%d,%.1f,%.1f,\"", n++ ? "," : "", k->index,
			us(t, (uint64_t)c->begin_ns), us(t, (uint64_t)c->end_ns));
		util_put_escaped(f, m->ranks[0].ev->names[c->func], UTIL_ESC_JSON_HTML);
		fputs("\"]", f);
	}
	fputs("]", f);
	return left;
}

/* The density's bins: BINS even ones over the timeline; or with --agg-interval report's
 * buckets from the profile start (t0 then), each bin the fewest whole buckets that keep
 * them within AGG_BINS, to past everything shown; the whole run: one bin to its end. */
static void bins_of(const struct rpt *r, struct tl *t)
{
	struct rpt_agg_facts a;
	uint64_t end = t->t1;
	size_t n;

	rpt_agg_facts(r, &a);
	t->nbins = BINS;
	t->width = (double)(t->t1 - t->t0 + 1) / BINS;
	t->per_bin = 0;
	if (!a.on || a.start_ns <= 0)
		return;
	t->t0 = (uint64_t)a.start_ns;
	if (end < t->t0)
		end = t->t0;
	if (!a.step_ns) {
		if (a.end_ns > 0 && (uint64_t)a.end_ns > end)
			end = (uint64_t)a.end_ns;
		t->nbins = t->per_bin = 1;
		t->width = (double)(end - t->t0 + 1);
		t->t1 = end + 1;
		return;
	}
	n = (size_t)((end - t->t0) / (uint64_t)a.step_ns) + 1; /* up to t1's bucket */
	if (n < a.nbuckets)
		n = a.nbuckets;
	t->per_bin = (n + AGG_BINS - 1) / AGG_BINS;
	t->nbins = (n + t->per_bin - 1) / t->per_bin;
	t->width = (double)a.step_ns * (double)t->per_bin;
	t->t1 = t->t0 + (uint64_t)a.step_ns * t->per_bin * t->nbins;
}

/* The unit of the sort event's numbers ("samples", "events" of a weighted event). */
static const char *unit_of(const struct rpt_stacks_facts *facts)
{
	const struct ses_info *info = facts->info;

	return info && info->nevents && info->events[0].weighted ? "events" : "samples";
}

int rpt_html_timeline(FILE *f, const struct rpt *r)
{
	struct rpt_stacks_facts facts;
	struct rpt_omp_trace_facts omp;
	struct rpt_pf_mpi *mpi = NULL;
	struct tl t = { 0 };
	size_t ntracks, *shown = NULL;
	uint64_t left_tasks, left_omp, left_mpi, left_pauses = 0;
	int ret;

	rpt_stacks_facts(r, &facts);
	rpt_omp_trace_facts(r, &omp);
	if (!facts.timeline)
		facts.nsamples = 0; /* opened without one: only tasks, slices and pauses */
	ret = rpt_pf_mpi_session(r, &mpi);
	if (!ret)
		ret = gather(r, &t, &facts, &omp, mpi);
	if (ret)
		goto out;
	if (t.t1 < t.t0)
		t.t1 = t.t0;
	bins_of(r, &t);
	/* the busiest first; the hash keeps pointing at each thread through its index */
	qsort(t.v, t.n, sizeof(*t.v), cmp_track);
	util_hash_release(&t.by_tid);
	for (size_t i = 0; i < t.n; i++) {
		uint64_t *slot = util_hash_slot(&t.by_tid, t.v[i].tid, 0, 0);

		if (!slot) {
			ret = -ENOMEM;
			goto out;
		}
		*slot = i + 1;
		t.v[i].index = i < TRACKS ? (int)i : -1;
	}
	ntracks = t.n < TRACKS ? t.n : TRACKS;
	shown = calloc(ntracks ? ntracks : 1, sizeof(*shown));
	if (!shown) {
		ret = -ENOMEM;
		goto out;
	}
	fprintf(f, "{\"t0\":%" PRIu64 ",\"span\":%.1f,\"bins\":%zu,\"stride\":%" PRIu64 ",", t.t0,
		us(&t, t.t1), t.nbins, facts.stride ? facts.stride : 1);
	if (t.per_bin) /* the density is report's buckets: the sort event's units, every one */
		fprintf(f, "\"agg\":{\"ms\":%.3f,\"per_bin\":%zu,\"unit\":\"%s\"},",
			t.nbins > 1 ? t.width / t.per_bin / 1e6 : 0.0, t.per_bin, unit_of(&facts));
	ret = put_threads(f, r, &t, &facts, ntracks);
	if (ret)
		goto out;
	left_tasks = put_tasks(f, r, &t, &facts, shown);
	memset(shown, 0, ntracks * sizeof(*shown));
	left_omp = put_omp(f, r, &t, &omp, shown);
	memset(shown, 0, ntracks * sizeof(*shown));
	left_mpi = put_mpi(f, &t, mpi, shown);
	fputs(",\"pauses\":[", f);
	for (size_t i = 0; i < facts.npauses; i++) {
		int64_t from, to;

		rpt_pause_at(r, i, &from, &to);
		if (i >= PAUSES) {
			left_pauses++;
			continue;
		}
		fprintf(f, "%s[%.1f,%.1f]", i ? "," : "", us(&t, (uint64_t)(from > 0 ? from : 0)),
			us(&t, (uint64_t)(to > 0 ? to : 0)));
	}
	fprintf(f,
		"],\"left_out\":{\"threads\":%zu,\"samples\":%" PRIu64 ",\"tasks\":%" PRIu64
		",\"omp\":%" PRIu64 ",\"omp_report\":%" PRIu64 ",\"mpi\":%" PRIu64
		",\"pauses\":%" PRIu64 ",\"os_spans\":%" PRIu64 "}}",
		t.n - ntracks, facts.left_out, left_tasks, left_omp, omp.left_out, left_mpi,
		left_pauses, t.os_lost);
out:
	rpt_pf_mpi_session_free(mpi);
	free(shown);
	free(t.v);
	util_hash_release(&t.by_tid);
	return ret;
}
