// SPDX-License-Identifier: MIT
/*
 * Paused intervals (pauses.csv). The collection state is the session's: an interval
 * paused by any process pauses every process, so intervals are merged into one sorted
 * union and a sample is dropped when its time falls inside it. This is what makes the
 * cut exact to the call for both API groups, whatever the kernel did meanwhile.
 */
#include "report/taskmatch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAUSES_MAX_BYTES (64 << 20)

static int cmp_span(const void *a, const void *b)
{
	const struct rpt_span *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

size_t rpt_spans_merge(struct rpt_span *v, size_t n)
{
	size_t k = 0;

	if (n)
		util_qsort(v, n, sizeof(*v), cmp_span);
	for (size_t i = 0; i < n; i++) {
		if (k && v[i].from <= v[k - 1].to) {
			if (v[i].to > v[k - 1].to)
				v[k - 1].to = v[i].to;
		} else {
			v[k++] = v[i];
		}
	}
	return k;
}

static int64_t spans_total(const struct rpt_span *v, size_t n)
{
	int64_t total = 0;

	for (size_t i = 0; i < n; i++)
		total += v[i].to - v[i].from;
	return total;
}

/* Paused rows into r->pauses, "unknown" rows into r->unknown, each a sorted union. A
 * hand-made file may overlap the two: paused wins (the samples are dropped, as a row
 * says), and the unknown total still counts the whole row. */
static void merge(struct rpt *r, const struct ses_pause *p, size_t n)
{
	size_t np = 0, nu = 0;

	for (size_t i = 0; i < n; i++) {
		struct rpt_span s = { p[i].paused_at, p[i].resumed_at };

		if (ses_pause_is_unknown(&p[i]))
			r->unknown[nu++] = s;
		else
			r->pauses[np++] = s;
	}
	r->pause_rows = np;
	r->unknown_rows = nu;
	r->npauses = rpt_spans_merge(r->pauses, np);
	r->nunknown = rpt_spans_merge(r->unknown, nu);
	r->pause_total_ns = spans_total(r->pauses, r->npauses);
	r->unknown_total_ns = spans_total(r->unknown, r->nunknown);
}

int rpt_pauses_load(struct rpt *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256];
	struct ses_pause *p = NULL;
	char *buf = NULL;
	size_t len = 0, n = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/" SES_PAUSES_FILE, r->dir); /* to name it */
	ret = ses_file_read_all_at(r->dfd, SES_PAUSES_FILE, PAUSES_MAX_BYTES, &buf, &len, why,
				   sizeof(why));
	if (ret == -ENOENT)
		return 0; /* no pauses: a session without instrumentation */
	if (!ret)
		ret = ses_pauses_parse(buf, len, &p, &n, why, sizeof(why));
	free(buf);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		/* without its pauses the report would count paused time as profiled: refused,
		 * and the user decides */
		snprintf(err, errlen,
			 "%s%s %s; remove it to report without pauses (samples in "
			 "paused time are then counted)",
			 path, ret == -SES_ENOTREG ? "" : ":", why);
		return ret;
	}
	r->pauses = malloc(sizeof(*r->pauses) * (n ? n : 1));
	r->unknown = malloc(sizeof(*r->unknown) * (n ? n : 1));
	if (!r->pauses || !r->unknown) {
		free(p);
		return -ENOMEM; /* rpt's release frees what was had */
	}
	r->file_pause_ns = ses_pauses_total(p, n); /* what collect summed into session.ini */
	merge(r, p, n);
	free(p);
	return 0;
}

bool rpt_paused_at(const struct rpt *r, uint64_t t)
{
	return rpt_paused_within(r, t, t);
}

bool rpt_pause_unknown_at(const struct rpt *r, uint64_t t)
{
	return rpt_spans_meet(r->unknown, r->nunknown, t, t);
}

bool rpt_paused_within(const struct rpt *r, uint64_t from, uint64_t to)
{
	return rpt_spans_meet(r->pauses, r->npauses, from, to);
}

bool rpt_spans_meet(const struct rpt_span *v, size_t n, uint64_t from, uint64_t to)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* first span that ends after from: [a, b) holds from if a <= from */
		size_t mid = lo + (hi - lo) / 2;

		if ((uint64_t)v[mid].to <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && (uint64_t)v[lo].from <= to;
}
