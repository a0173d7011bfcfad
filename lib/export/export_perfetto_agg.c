// SPDX-License-Identifier: MIT
/*
 * trace.json's counter tracks of `report --agg-interval <ms>`: each process's samples
 * (or events, for a weighted event) per time bucket, an argument per session event
 * named as report.csv's SAMPLES PER INTERVAL column ("cpu-clock (samples)"), and, for a
 * process of several sampled threads, a track per thread too. The numbers are report's
 * own buckets (report.h's rpt_agg_cell_at): the counters of an event sum to its column,
 * exactly. A counter holds its value until the next one, so each series writes every
 * bucket from its first sampled one to its last (an empty one as 0, a run of them once)
 * and a 0 at the end of its last bucket.
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One series: @units (@ne per bucket) over buckets [@lo, @hi]. */
struct series {
	const struct rpt_agg_facts *a;
	const struct ses_info *info;
	const uint64_t *units;
	size_t lo, hi;
};

static uint64_t bucket_ns(const struct rpt_agg_facts *a, size_t b)
{
	return (uint64_t)a->start_ns + (uint64_t)a->step_ns * b;
}

/* The end of the last bucket: the next one's start, or the run's end for the whole run
 * (rpt_agg_facts: the profile end, or just past the last sample; a nanosecond past the
 * start when neither is known, so the closing 0 still comes after the value). */
static uint64_t end_ns(const struct rpt_agg_facts *a, size_t hi)
{
	if (a->step_ns)
		return bucket_ns(a, hi + 1);
	return a->end_ns > a->start_ns ? (uint64_t)a->end_ns : (uint64_t)a->start_ns + 1;
}

static void put_args(struct rpt_pf *w, const struct series *s, const uint64_t *v)
{
	fputs(",\"args\":{", w->f);
	for (int e = 0; e < s->a->nevents; e++) {
		const struct ses_event *ev = s->info->nevents ? &s->info->events[e] : NULL;

		fputs(e ? ",\"" : "\"", w->f);
		util_put_escaped(w->f, ev ? ev->name : "CPU_TIME", UTIL_ESC_JSON);
		fprintf(w->f, " (%s)\":%" PRIu64, ev && ev->weighted ? "events" : "samples",
			v ? v[e] : 0);
	}
	fputs("}}", w->f);
}

static void put_counter(struct rpt_pf *w, const struct series *s, uint32_t pid, const char *name,
			uint64_t ts, const uint64_t *v)
{
	rpt_pf_sep(w);
	fprintf(w->f, "{\"ph\":\"C\",\"cat\":\"agg_interval\",\"pid\":%u,\"tid\":%u,\"name\":\"",
		pid, pid);
	util_put_escaped(w->f, name, UTIL_ESC_JSON);
	fputs("\",\"ts\":", w->f);
	rpt_pf_ts(w, ts);
	put_args(w, s, v);
}

static bool empty(const struct series *s, size_t b)
{
	for (int e = 0; e < s->a->nevents; e++)
		if (s->units[b * (size_t)s->a->nevents + (size_t)e])
			return false;
	return true;
}

static void put_series(struct rpt_pf *w, const struct series *s, uint32_t pid, const char *name)
{
	bool was_empty = false;

	for (size_t b = s->lo; b <= s->hi; b++) {
		bool none = empty(s, b);

		if (!none || !was_empty)
			put_counter(w, s, pid, name, bucket_ns(s->a, b),
				    s->units + b * (size_t)s->a->nevents);
		was_empty = none;
	}
	put_counter(w, s, pid, name, end_ns(s->a, s->hi), NULL);
}

static void thread_name(const struct rpt *r, const char *what, uint32_t tid, char *buf, size_t len)
{
	struct rpt_thread_view t;
	bool known = rpt_thread_of(r, tid, &t);

	snprintf(buf, len, "%s, thread %s (%u)", what, known ? (t.name ? t.name : t.comm) : "?",
		 tid);
}

/* Cells [@i, @j) (one thread or one process) summed into @units (zeroed from @lo to
 * @hi, which they give). */
static void sum_cells(const struct rpt *r, size_t i, size_t j, struct series *s, uint64_t *units)
{
	struct rpt_agg_cell c;
	size_t ne = (size_t)s->a->nevents;

	rpt_agg_cell_at(r, i, &c);
	s->lo = c.bucket;
	rpt_agg_cell_at(r, j - 1, &c);
	s->hi = c.bucket;
	for (size_t k = i; k < j; k++) {
		rpt_agg_cell_at(r, k, &c);
		if (c.bucket < s->lo)
			s->lo = c.bucket;
		if (c.bucket > s->hi)
			s->hi = c.bucket;
	}
	memset(units + s->lo * ne, 0, (s->hi - s->lo + 1) * ne * sizeof(*units));
	for (size_t k = i; k < j; k++) {
		rpt_agg_cell_at(r, k, &c);
		if (c.ev < ne)
			units[c.bucket * ne + c.ev] += c.units;
	}
}

int rpt_pf_agg(struct rpt_pf *w, const struct rpt *r, const struct ses_info *info)
{
	struct rpt_agg_facts a;
	struct series s = { .a = &a, .info = info };
	char what[64], name[160];
	uint64_t *units;
	size_t i = 0;

	rpt_agg_facts(r, &a);
	if (!a.on || !a.ncells || !a.nbuckets)
		return 0;
	units = malloc(a.nbuckets * (size_t)a.nevents * sizeof(*units));
	if (!units)
		return -ENOMEM;
	s.units = units;
	if (a.step_ns)
		snprintf(what, sizeof(what), "samples per %.3g ms", (double)a.step_ns / 1e6);
	else
		snprintf(what, sizeof(what), "samples in the whole run");
	while (i < a.ncells) {
		struct rpt_agg_cell c, d;
		size_t j = i, threads = 0;

		rpt_agg_cell_at(r, i, &c);
		for (uint32_t tid = UINT32_MAX; j < a.ncells; j++) {
			rpt_agg_cell_at(r, j, &d);
			if (d.pid != c.pid)
				break;
			threads += d.tid != tid;
			tid = d.tid;
		}
		sum_cells(r, i, j, &s, units);
		put_series(w, &s, c.pid, what);
		for (size_t k = i; threads > 1 && k < j;) { /* and each thread's */
			size_t m = k;

			rpt_agg_cell_at(r, k, &c);
			while (m < j && (rpt_agg_cell_at(r, m, &d), d.tid == c.tid))
				m++;
			sum_cells(r, k, m, &s, units);
			thread_name(r, what, c.tid, name, sizeof(name));
			put_series(w, &s, c.pid, name);
			k = m;
		}
		i = j;
	}
	free(units);
	return 0;
}

void rpt_pf_agg_other(struct rpt_pf *w, const struct rpt *r)
{
	struct rpt_agg_facts a;

	rpt_agg_facts(r, &a);
	if (!a.on)
		return;
	/* "start": the trace time (us) of the first bucket's start, the profile start */
	fprintf(w->f, ",\"agg_interval\":{\"ms\":%.3f,\"start\":", (double)a.step_ns / 1e6);
	rpt_pf_ts(w, (uint64_t)a.start_ns);
	fprintf(w->f, ",\"buckets\":%zu,\"past_last_bucket\":%" PRIu64 "}", a.nbuckets, a.past);
}
