// SPDX-License-Identifier: MIT
/*
 * uprof pcm --html: report.html beside the CSV. One self-contained page (inline CSS and
 * SVG, no script, nothing fetched): the run's header facts (the CSV's metadata lines), one
 * time-series chart per metric and aggregation level with a series per unit (all cores of a
 * metric on one chart), a point per interval with its value as the point's <title> (shown
 * on hover), a heat map of a level's units by interval where it has several, and the
 * cumulative table. Every number
 * is one the CSV writer computed and wrote (pcm_out.c hands its values over as it writes
 * them), formatted by the same pmc_value_format(), so the page cannot disagree with the CSV.
 */
#include "cli/pcm.h"
#include "util/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 760
#define CHART_H 220
#define PAD_L 70
#define PAD_R 16
#define PAD_T 12
#define PAD_B 34

int pcm_html_new(struct pcm_state *st)
{
	struct pcm_series *s = calloc(1, sizeof(*s));
	size_t ncum = (size_t)st->mg.nmetrics * (size_t)(st->ncomps ? st->ncomps : 1);

	if (!s)
		return -ENOMEM;
	s->ncols = pcm_ncols(st) + 1; /* and the multiplex scale, last as in the CSV */
	s->cum = malloc((ncum + (size_t)(st->ncomps ? st->ncomps : 1)) * sizeof(*s->cum));
	st->rowbuf = calloc((size_t)(s->ncols ? s->ncols : 1), sizeof(*st->rowbuf));
	if (!s->cum || !st->rowbuf) {
		free(s->cum);
		free(s);
		free(st->rowbuf);
		st->rowbuf = NULL;
		return -ENOMEM;
	}
	for (size_t i = 0; i < ncum + (size_t)(st->ncomps ? st->ncomps : 1); i++)
		s->cum[i] = NAN;
	s->cum_scale = s->cum + ncum;
	st->series = s;
	return 0;
}

void pcm_html_free(struct pcm_state *st)
{
	if (!st->series)
		return;
	free(st->series->vals);
	free(st->series->stamps);
	free(st->series->cum);
	free(st->series->meta);
	free(st->series);
	st->series = NULL;
	free(st->rowbuf);
	st->rowbuf = NULL;
}

/* Room for one more row; false past the cap or without memory (the row is then counted
 * only, and the page says how many it does not draw). */
static bool grow(struct pcm_series *s)
{
	size_t ncols = (size_t)(s->ncols ? s->ncols : 1);
	int cap;
	double *v;
	char(*t)[16];

	if (s->rows < s->cap)
		return true;
	cap = s->cap ? s->cap * 2 : 64;
	if ((size_t)cap * ncols > PCM_HTML_MAX_VALUES)
		cap = (int)(PCM_HTML_MAX_VALUES / ncols);
	if (cap <= s->rows)
		return false;
	v = realloc(s->vals, (size_t)cap * ncols * sizeof(*v));
	if (!v)
		return false;
	s->vals = v;
	t = realloc(s->stamps, (size_t)cap * sizeof(*t));
	if (!t)
		return false;
	s->stamps = t;
	s->cap = cap;
	return true;
}

void pcm_html_keep_row(struct pcm_series *s, const char *stamp, const double *vals)
{
	s->rows_total++;
	if (s->rows_total != s->rows + 1 || !grow(s))
		return; /* once a row is dropped, later ones are too: the charts stay contiguous */
	memcpy(s->vals + (size_t)s->rows * (size_t)s->ncols, vals,
	       (size_t)s->ncols * sizeof(*vals));
	snprintf(s->stamps[s->rows], sizeof(s->stamps[0]), "%s", stamp);
	s->rows++;
}

/* @n bytes of @p, escaped for HTML text and attribute values. */
static void esc_n(FILE *f, const char *p, size_t n)
{
	util_put_escaped_n(f, p, n, UTIL_ESC_HTML_PLAIN);
}

void pcm_html_esc(FILE *f, const char *s)
{
	esc_n(f, s, strlen(s));
}

static const char *fmt(double v, int decimals, char *buf, size_t len)
{
	pmc_value_format(v, decimals, buf, len);
	return buf;
}

/* The page's start: doctype, title, the shared style (plus @css, may be ""), <h1>. */
void pcm_html_head(FILE *f, const char *title, const char *css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
	pcm_html_esc(f, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:16px;color:#222;background:#fff}\n"
	      "table{border-collapse:collapse;margin:8px 0}\n"
	      "td,th{border:1px solid #bbb;padding:2px 8px;text-align:left}\n"
	      "td.num{text-align:right}\n"
	      ".chart{margin:8px 0 20px 0}\n"
	      "svg{background:#fafafa;border:1px solid #ccc}\n"
	      /* a series' colour is its elements' own (stroke, fill) */
	      "polyline{fill:none;stroke-width:1.5}\n"
	      "circle.pt:hover{fill:#d2381f}\n"
	      ".legend span{margin-right:12px;font-size:12px;white-space:nowrap}\n"
	      ".legend i{display:inline-block;width:10px;height:10px;margin-right:4px}\n"
	      "table.heat td{height:14px;padding:0;border:0}\n"
	      "table.heat th{font-weight:normal;font-size:12px;padding:0 6px 0 0;border:0}\n"
	      "line.axis{stroke:#666}\nline.grid{stroke:#e2e2e2}\n"
	      "text{font-size:11px;fill:#444}\n",
	      f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>", f);
	pcm_html_esc(f, title);
	fputs("</h1>\n", f);
}

/* One CSV line [p, nl) as table cells: split at commas outside quotes, "" unquoted. */
static void csv_cells(FILE *f, const char *p, const char *nl)
{
	bool quoted = false;
	int cellno = 0;

	fputs("<tr><th>", f);
	for (; p < nl; p++) {
		if (*p == '"' && quoted && p + 1 < nl && p[1] == '"') {
			fputs("&quot;", f);
			p++;
		} else if (*p == '"') {
			quoted = !quoted;
		} else if (*p == ',' && !quoted) {
			fputs(cellno++ ? "</td><td>" : "</th><td>", f);
		} else {
			esc_n(f, p, 1);
		}
	}
	fputs(cellno ? "</td></tr>\n" : "</th></tr>\n", f);
}

/* The metadata lines as a table, cell for cell as in the CSV. */
static void facts(const struct pcm_state *st, FILE *f)
{
	const char *p = st->series->meta, *end = p ? p + st->series->meta_len : NULL;

	fputs("<h2>Run</h2>\n<table class=\"facts\">\n", f);
	while (p && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		csv_cells(f, p, nl);
		p = nl + 1;
	}
	if (st->prog_argv) {
		fputs("<tr><th>Program:</th><td>", f);
		for (char **a = st->prog_argv; *a; a++) {
			pcm_html_esc(f, *a);
			if (a[1])
				fputc(' ', f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The y axis's ticks: a grid line and a label at each multiple of a round step (1, 2 or 5
 * times a power of ten, never finer than the metric's decimals show) from @lo to @hi,
 * about four of them, so a value can be read off the chart without hovering. */
static void y_ticks(FILE *f, double lo, double hi, double span, int decimals, int plot_w,
		    int plot_h)
{
	double step = pow(10, floor(log10(span / 4))), finest = pow(10, -decimals);
	char buf[64];

	if (span / step > 10)
		step *= 5;
	else if (span / step > 5)
		step *= 2;
	if (step < finest)
		step = finest;
	for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
		double y = PAD_T + plot_h - plot_h * (v - lo) / span;

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PAD_L, y, PAD_L + plot_w, y, PAD_L - 4, y + 4,
			fmt(fabs(v) < step * 1e-9 ? 0 : v, decimals, buf, sizeof(buf)));
	}
}

/* A series' colour: the first ten of Tableau's palette, then again. */
static const char *const COLOURS[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
				       "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf" };
#define NCOLOURS (sizeof(COLOURS) / sizeof(COLOURS[0]))

static double value(const struct pcm_series *s, int r, int col)
{
	return s->vals[(size_t)r * (size_t)s->ncols + (size_t)col];
}

/* One series of a chart: @name of @unit, column @col, in colour @k: a line through the
 * finite values and a point per row (a row whose value is empty in the CSV gets an
 * invisible point, so the points still count the rows). */
static void series(const struct pcm_state *st, FILE *f, const char *name, const char *unit,
		   int decimals, int col, size_t k, double lo, double span)
{
	const struct pcm_series *s = st->series;
	int plot_w = CHART_W - PAD_L - PAD_R, plot_h = CHART_H - PAD_T - PAD_B;
	char b1[64];

	fputs("<g class=\"series\" data-metric=\"", f);
	pcm_html_esc(f, name);
	fputs("\" data-unit=\"", f);
	pcm_html_esc(f, unit);
	fprintf(f, "\" style=\"color:%s\">\n<polyline stroke=\"%s\" points=\"",
		COLOURS[k % NCOLOURS], COLOURS[k % NCOLOURS]);
	for (int r = 0; r < s->rows; r++) {
		double v = value(s, r, col);
		double x = PAD_L +
			   (s->rows > 1 ? plot_w * (double)r / (s->rows - 1) : plot_w / 2.0);

		if (isfinite(v))
			fprintf(f, "%.1f,%.1f ", x, PAD_T + plot_h - plot_h * (v - lo) / span);
	}
	fputs("\"/>\n", f);
	for (int r = 0; r < s->rows; r++) {
		double v = value(s, r, col);
		double x = PAD_L +
			   (s->rows > 1 ? plot_w * (double)r / (s->rows - 1) : plot_w / 2.0);
		double y = isfinite(v) ? PAD_T + plot_h - plot_h * (v - lo) / span : PAD_T + plot_h;

		fmt(v, decimals, b1, sizeof(b1));
		fprintf(f,
			"<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" "
			"data-row=\"%d\" data-value=\"%s\"><title>%s: %s</title></circle>\n",
			x, y, isfinite(v) ? "3" : "0", COLOURS[k % NCOLOURS], r, b1, s->stamps[r],
			b1[0] ? b1 : "not computable");
	}
	fputs("</g>\n", f);
}

/* A chart of metric @name (@decimals) with a series per unit: @ncols columns @cols of
 * units @units, on one y axis from 0 (or the least value) to the greatest. */
static void chart(const struct pcm_state *st, FILE *f, const char *name, int decimals,
		  const int *cols, const char *const *units, size_t ncols)
{
	const struct pcm_series *s = st->series;
	double lo = 0, hi = 0, span;
	bool any = false;
	int plot_w = CHART_W - PAD_L - PAD_R, plot_h = CHART_H - PAD_T - PAD_B;

	for (size_t c = 0; c < ncols; c++)
		for (int r = 0; r < s->rows; r++) {
			double v = value(s, r, cols[c]);

			if (!isfinite(v))
				continue;
			lo = any && lo < v ? lo : v;
			hi = any && hi > v ? hi : v;
			any = true;
		}
	if (lo > 0)
		lo = 0;
	span = hi > lo ? hi - lo : 1;
	fputs("<div class=\"chart\"><h3>", f);
	pcm_html_esc(f, name);
	fputs(" &mdash; ", f);
	pcm_html_esc(f, ncols == 1 ? units[0] : "");
	if (ncols > 1)
		fprintf(f, "%zu units", ncols);
	fputs("</h3>\n", f);
	if (ncols > 1) { /* the legend: each unit's colour */
		fputs("<div class=\"legend\">", f);
		for (size_t c = 0; c < ncols; c++) {
			fprintf(f, "<span><i style=\"background:%s\"></i>", COLOURS[c % NCOLOURS]);
			pcm_html_esc(f, units[c]);
			fputs("</span>", f);
		}
		fputs("</div>\n", f);
	}
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"role=\"img\" data-metric=\"",
		CHART_W, CHART_H);
	pcm_html_esc(f, name);
	fprintf(f,
		"\">\n<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		PAD_L, PAD_T, PAD_L, PAD_T + plot_h, PAD_L, PAD_T + plot_h, PAD_L + plot_w,
		PAD_T + plot_h);
	y_ticks(f, lo, any ? hi : lo, span, decimals, plot_w, plot_h);
	if (s->rows)
		fprintf(f,
			"<text x=\"%d\" y=\"%d\">%s</text><text x=\"%d\" y=\"%d\" "
			"text-anchor=\"end\">%s</text>\n",
			PAD_L, CHART_H - 10, s->stamps[0], PAD_L + plot_w, CHART_H - 10,
			s->stamps[s->rows - 1]);
	for (size_t c = 0; c < ncols; c++)
		series(st, f, name, units[c], decimals, cols[c], c, lo, span);
	fputs("</svg></div>\n", f);
}

/* A heat map of metric @name over @ncols units (rows) and the intervals (columns): each
 * cell's shade its share of the greatest value, its text (on hover) the CSV's value. */
static void heat(const struct pcm_state *st, FILE *f, const char *name, int decimals,
		 const int *cols, const char *const *units, size_t ncols)
{
	const struct pcm_series *s = st->series;
	double hi = 0;
	char b1[64];
	/* about a chart's width whatever the intervals, each cell 3 to 40 px */
	int cw = s->rows ? (CHART_W - PAD_L) / s->rows : 40;

	cw = cw < 3 ? 3 : cw > 40 ? 40 : cw;
	for (size_t c = 0; c < ncols; c++)
		for (int r = 0; r < s->rows; r++)
			if (isfinite(value(s, r, cols[c])) && value(s, r, cols[c]) > hi)
				hi = value(s, r, cols[c]);
	fputs("<div class=\"chart\"><h3>", f);
	pcm_html_esc(f, name);
	fputs(" &mdash; per unit and interval</h3>\n<table class=\"heat\" data-metric=\"", f);
	pcm_html_esc(f, name);
	fputs("\">\n", f);
	for (size_t c = 0; c < ncols; c++) {
		fputs("<tr><th>", f);
		pcm_html_esc(f, units[c]);
		fputs("</th>", f);
		for (int r = 0; r < s->rows; r++) {
			double v = value(s, r, cols[c]);
			double a = isfinite(v) && hi > 0 ? (v > 0 ? v / hi : 0) : 0;

			fmt(v, decimals, b1, sizeof(b1));
			fprintf(f,
				"<td data-row=\"%d\" data-value=\"%s\" "
				"style=\"width:%dpx;background:rgba(31,95,168,%.3f)\" title=\"",
				r, b1, cw, isfinite(v) ? 0.05 + 0.95 * a : 0.0);
			pcm_html_esc(f, units[c]);
			fprintf(f, " %s: %s\"></td>", s->stamps[r], b1[0] ? b1 : "not computable");
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

/* Each metric of the components @first.. of one group and level: a chart with a series per
 * component (all cores of one metric), and a heat map when there are several. */
static int level_charts(const struct pcm_state *st, FILE *f, const int *colstart, int first,
			int end)
{
	const struct pmc_group *g = &st->mg.groups[st->comps[first].group];
	size_t n = (size_t)(end - first);
	int *cols = calloc(n + 1, sizeof(*cols));
	const char **units = calloc(n + 1, sizeof(*units));

	if (!cols || !units) {
		free(cols);
		free(units);
		return -ENOMEM;
	}
	for (size_t c = 0; c < n; c++)
		units[c] = st->comps[first + (int)c].label;
	for (int m = 0; m < g->nmetrics; m++) {
		const char *name = st->mg.metrics[g->first_metric + m].name;
		int decimals = pcm_metric_decimals(st, g->first_metric + m);

		for (size_t c = 0; c < n; c++)
			cols[c] = colstart[first + (int)c] + m;
		chart(st, f, name, decimals, cols, units, n);
		if (n > 1)
			heat(st, f, name, decimals, cols, units, n);
	}
	free(cols);
	free(units);
	return 0;
}

static int charts(const struct pcm_state *st, FILE *f)
{
	const struct pcm_series *s = st->series;
	int col = 0, last_group = -1, ret = 0;
	int *colstart = calloc((size_t)st->ncomps + 1, sizeof(*colstart));
	const char *mux = PCM_MUX_SCALE_UNIT;

	if (!colstart)
		return -ENOMEM;
	if (!s->rows_total)
		goto out;
	fprintf(f, "<h2>Timeseries</h2>\n<p>%d intervals of %u ms", s->rows_total, st->interval_ms);
	if (s->rows < s->rows_total)
		fprintf(f,
			"; the charts draw the first %d (at most %u values are kept for the page); "
			"the CSV has them all",
			s->rows, PCM_HTML_MAX_VALUES);
	fputs(". A chart per metric with a line per unit; hover over a point or a heat map's "
	      "cell for its value.</p>\n",
	      f);
	/* each component's first column, in the CSV's order */
	for (int c = 0; c < st->ncomps; c++) {
		colstart[c] = col;
		col += st->mg.groups[st->comps[c].group].nmetrics;
	}
	for (int c = 0, end; c < st->ncomps && !ret; c = end) {
		const struct pmc_group *g = &st->mg.groups[st->comps[c].group];

		if (st->comps[c].group != last_group) {
			fputs("<h2 class=\"group\">", f);
			pcm_html_esc(f, g->title);
			fputs("</h2>\n", f);
		}
		last_group = st->comps[c].group;
		/* the components of this group at this level (consecutive, as the CSV has them) */
		for (end = c + 1; end < st->ncomps && st->comps[end].group == st->comps[c].group &&
				  st->comps[end].level == st->comps[c].level;
		     end++)
			;
		ret = level_charts(st, f, colstart, c, end);
	}
	fputs("<h2 class=\"group\">Multiplexing</h2>\n", f);
	chart(st, f, PCM_MUX_SCALE_NAME, 2, &col, &mux, 1);
out:
	free(colstart);
	return ret;
}

/* The cumulative table, laid out as the CSV's. */
static void cumulative(const struct pcm_state *st, FILE *f)
{
	char buf[64];

	if (!st->series->have_cum)
		return;
	fputs("<h2>Cumulative</h2>\n<table class=\"cumulative\">\n<tr><th>Metric</th>", f);
	for (int c = 0; c < st->ncomps; c++)
		if (pcm_label_index(st, c) == c) {
			fputs("<th>", f);
			pcm_html_esc(f, st->comps[c].label);
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (int g = 0; g < st->mg.ngroups; g++) {
		const struct pmc_group *gr = &st->mg.groups[g];

		for (int m = gr->first_metric; m < gr->first_metric + gr->nmetrics; m++) {
			fputs("<tr><th>", f);
			pcm_html_esc(f, st->mg.metrics[m].name);
			fputs("</th>", f);
			for (int c = 0; c < st->ncomps; c++)
				if (pcm_label_index(st, c) == c)
					fprintf(f, "<td class=\"num\">%s</td>",
						fmt(st->series->cum[(size_t)m * (size_t)st->ncomps +
								    (size_t)c],
						    pcm_metric_decimals(st, m), buf, sizeof(buf)));
			fputs("</tr>\n", f);
		}
	}
	fputs("<tr><th>" PCM_MUX_SCALE_NAME "</th>", f);
	for (int c = 0; c < st->ncomps; c++)
		if (pcm_label_index(st, c) == c)
			fprintf(f, "<td class=\"num\">%s</td>",
				fmt(st->series->cum_scale[c], 2, buf, sizeof(buf)));
	fputs("</tr>\n</table>\n", f);
}

int pcm_html_write(const struct pcm_state *st, const char *name)
{
	FILE *f = cli_output_fopen_at(st->out_dfd, name);
	int ret = 0;

	if (!f)
		return -errno;
	pcm_html_head(f, "uprof pcm report", "");
	/* the charts above the fold, the run's facts (a screenful of lines) after them */
	ret = charts(st, f);
	cumulative(st, f);
	facts(st, f);
	fputs("</body>\n</html>\n", f);
	if (fflush(f) || ferror(f))
		ret = errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = errno ? -errno : -EIO;
	return ret;
}
