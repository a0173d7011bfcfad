// SPDX-License-Identifier: MIT
/*
 * uprof pcm profile's report.json: the run's facts (the CSV's metadata lines), every
 * timeseries row and the cumulative table, from the values the CSV writer kept
 * (struct pcm_series), so the JSON holds the CSV's own numbers. An empty cell (a metric
 * that could not be computed) is null.
 */
#include "cli/pcm.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static void str(FILE *f, const char *s)
{
	fputc('"', f);
	util_put_escaped(f, s, UTIL_ESC_JSON);
	fputc('"', f);
}

/* A value as the CSV writes it (0 or 2 decimals), null when empty. */
static void num(FILE *f, double v, int decimals)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.*f", decimals, v);
}

static void column(FILE *f, const char *comp, const char *group, const char *metric)
{
	fputs("{\"component\":", f);
	str(f, comp);
	fputs(",\"group\":", f);
	str(f, group);
	fputs(",\"metric\":", f);
	str(f, metric);
	fputc('}', f);
}

static void timeseries(const struct pcm_state *st, FILE *f)
{
	const struct pcm_series *s = st->series;
	int decimals[s->ncols ? s->ncols : 1], col = 0;

	fputs("\"timeseries\":{\"columns\":[", f);
	for (int c = 0; c < st->ncomps; c++) {
		const struct pmc_group *g = &st->mg.groups[st->comps[c].group];

		for (int m = 0; m < g->nmetrics && col < s->ncols; m++, col++) {
			fputs(col ? "," : "", f);
			column(f, st->comps[c].label, g->name,
			       st->mg.metrics[g->first_metric + m].name);
			decimals[col] = pcm_metric_decimals(st, g->first_metric + m);
		}
	}
	if (col < s->ncols) { /* the multiplex scale, last as in the CSV */
		fputs(col ? "," : "", f);
		column(f, PCM_MUX_SCALE_UNIT, "", PCM_MUX_SCALE_NAME);
		decimals[col++] = 2;
	}
	fputs("],\"rows\":[", f);
	for (int r = 0; r < s->rows; r++) {
		fputs(r ? ",{\"timestamp\":" : "{\"timestamp\":", f);
		str(f, s->stamps[r]);
		fputs(",\"values\":[", f);
		for (int k = 0; k < col; k++) {
			fputs(k ? "," : "", f);
			num(f, s->vals[(size_t)r * (size_t)s->ncols + (size_t)k], decimals[k]);
		}
		fputs("]}", f);
	}
	/* rows past what is kept are counted, and said */
	fprintf(f, "],\"rows_written\":%d,\"rows_in_json\":%d}", s->rows_total, s->rows);
}

static bool label_has_group(const struct pcm_state *st, int c, int g)
{
	for (int k = 0; k < st->ncomps; k++)
		if (st->comps[k].group == g && !strcmp(st->comps[k].label, st->comps[c].label))
			return true;
	return false;
}

static void cumulative(const struct pcm_state *st, FILE *f)
{
	const struct pcm_series *s = st->series;
	bool first = true;

	fputs("\"cumulative\":[", f);
	for (int g = 0; g < st->mg.ngroups; g++) {
		const struct pmc_group *gr = &st->mg.groups[g];

		for (int m = gr->first_metric; m < gr->first_metric + gr->nmetrics; m++) {
			bool one = false;

			fputs(first ? "{\"metric\":" : ",{\"metric\":", f);
			first = false;
			str(f, st->mg.metrics[m].name);
			fputs(",\"group\":", f);
			str(f, gr->name);
			fputs(",\"values\":{", f);
			for (int c = 0; c < st->ncomps; c++) {
				if (pcm_label_index(st, c) != c || !label_has_group(st, c, g))
					continue;
				fputs(one ? "," : "", f);
				one = true;
				str(f, st->comps[c].label);
				fputc(':', f);
				num(f, s->cum[(size_t)m * (size_t)st->ncomps + (size_t)c],
				    pcm_metric_decimals(st, m));
			}
			fputs("}}", f);
		}
	}
	fputs("],\"multiplex_scale\":{", f);
	first = true;
	for (int c = 0; c < st->ncomps; c++) {
		if (pcm_label_index(st, c) != c)
			continue;
		fputs(first ? "" : ",", f);
		first = false;
		str(f, st->comps[c].label);
		fputc(':', f);
		num(f, s->cum_scale[c], 2);
	}
	fputc('}', f);
}

int pcm_json_write(const struct pcm_state *st, const char *name)
{
	const struct pcm_series *s = st->series;
	FILE *f;
	bool bad;

	if (!s || !s->have_cum)
		return -EINVAL;
	f = cli_output_fopen_at(st->out_dfd, name);
	if (!f)
		return -errno;
	fputs("{\"tool\":\"uprof pcm profile\",\"version\":", f);
	str(f, UPROF_VERSION);
	fputs(",\"metadata\":", f);
	fputc('"', f);
	if (s->meta)
		util_put_escaped_n(f, s->meta, s->meta_len, UTIL_ESC_JSON);
	fputs("\",", f);
	timeseries(st, f);
	fputc(',', f);
	cumulative(st, f);
	fputs("}\n", f);
	bad = ferror(f) != 0;
	bad = fclose(f) != 0 || bad;
	return bad ? -EIO : 0;
}
