// SPDX-License-Identifier: MIT
/*
 * "mpi_timeline" of a job's report.html: a track per rank with its `--trace mpi=full`
 * calls, from the same per-rank events and cut as the job's trace.json (mpi_match.c's
 * rpt_pf_mpi_new: the earliest RPT_HTML_MPI_CALLS kept, the rest counted) on the same
 * time line (each rank's clock offset, microseconds from the earliest call kept). A call
 * is [rank index, name index, begin, end]; the names are the ranks' function names,
 * merged (each rank's file numbers its own).
 */
#include "export/html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The index of @name in @names (*@n of them, room for one more), added when new. */
static size_t name_index(const char **names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return i;
	names[*n] = name;
	return (*n)++;
}

static void put_ranks(FILE *f, const struct rpt_pf_mpi *m, const size_t *kept)
{
	for (size_t i = 0; i < m->nranks; i++) {
		const struct rpt_mpi_rank *r = &m->ranks[i];

		fprintf(f, "%s{\"rank\":%d,\"pid\":%d,\"calls\":%zu,\"host\":\"", i ? "," : "",
			r->rank, r->pid, kept[i]);
		util_put_escaped(f, r->host ? r->host : "", UTIL_ESC_JSON_HTML);
		fputs("\",\"why\":\"", f);
		util_put_escaped(f, r->ev ? "" : r->why ? r->why : "", UTIL_ESC_JSON_HTML);
		fprintf(f, "\",\"dropped\":%" PRIu64 "}", r->ev ? r->ev->dropped : 0);
	}
}

int rpt_html_mpi_timeline(FILE *f, const struct rpt_mpi_rank *ranks, size_t n)
{
	struct rpt_pf_mpi *m;
	const char **names;
	size_t nnames = 0, total = 0, shown = 0, *kept, **idx;
	int64_t base, end;
	int ret = rpt_pf_mpi_new(&m, ranks, n, RPT_HTML_MPI_CALLS);

	if (ret)
		return ret;
	for (size_t i = 0; i < n; i++)
		total += ranks[i].ev ? ranks[i].ev->nnames : 0;
	names = calloc(total + 1, sizeof(*names));
	kept = calloc(n + 1, sizeof(*kept));
	idx = calloc(n + 1, sizeof(*idx));
	ret = names && kept && idx ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < n; i++) {
		const struct ses_mpiev *ev = ranks[i].ev;

		if (!ev)
			continue;
		idx[i] = calloc(ev->nnames + 1, sizeof(**idx));
		if (!idx[i]) {
			ret = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < ev->nnames; k++)
			idx[i][k] = name_index(names, &nnames, ev->names[k]);
	}
	if (ret)
		goto out;
	base = (int64_t)rpt_pf_mpi_base(m, 0);
	end = base;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; ranks[i].ev && k < ranks[i].ev->ncalls; k++)
			if (rpt_pf_mpi_kept(m, i, k) &&
			    ranks[i].ev->calls[k].func < ranks[i].ev->nnames) {
				int64_t e = ranks[i].ev->calls[k].end_ns + ranks[i].offset_ns;

				end = e > end ? e : end;
				kept[i]++;
				shown++;
			}
	fprintf(f, "{\"span\":%.3f,\"names\":[", (double)(end - base) / 1e3);
	for (size_t i = 0; i < nnames; i++) {
		fputs(i ? ",\"" : "\"", f);
		util_put_escaped(f, names[i], UTIL_ESC_JSON_HTML);
		fputc('"', f);
	}
	fputs("],\"ranks\":[", f);
	put_ranks(f, m, kept);
	fputs("],\"calls\":[", f);
	shown = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; ranks[i].ev && k < ranks[i].ev->ncalls; k++) {
			const struct ses_mpiev_call *c = &ranks[i].ev->calls[k];

			if (!rpt_pf_mpi_kept(m, i, k) || c->func >= ranks[i].ev->nnames)
				continue;
			fprintf(f, "%s[%zu,%zu,%.3f,%.3f]", shown++ ? "," : "\n", i, idx[i][c->func],
				(double)(c->begin_ns + ranks[i].offset_ns - base) / 1e3,
				(double)(c->end_ns + ranks[i].offset_ns - base) / 1e3);
		}
	fprintf(f, "],\"left_out\":%zu,\"kept_at_most\":%u}", m->ncalls - shown,
		RPT_HTML_MPI_CALLS);
out:
	for (size_t i = 0; idx && i < n; i++)
		free(idx[i]);
	free(idx);
	free(kept);
	free(names);
	rpt_pf_mpi_free(m);
	return ret;
}
