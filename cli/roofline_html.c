// SPDX-License-Identifier: MIT
/*
 * uprof pcm roofline --html: one self-contained page (inline CSS and SVG, no script,
 * nothing fetched; pcm_html.c's head and escaping) with the roofline chart, log-log:
 * FLOP per DRAM byte across, GFLOP/s up. Each memory ceiling is a slanted roof
 * (GFLOP/s = GB/s x intensity) up to the highest compute ceiling; each compute ceiling a
 * flat one from where it meets the highest memory roof; nominal peaks dashed. The point is
 * drawn where the recorded counts place it (mtr_rl_point), or the page says why there is
 * none. Tables: how each ceiling was measured, the counts, the facts.
 */
#include "cli/pcm.h"
#include "cli/roofline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 980
#define H 560
#define PL 80
#define PR 300
#define PT 20
#define PB 50

struct axes {
	double x0, x1, y0, y1; /* log10 of the ranges */
};

static double px(const struct axes *a, double x)
{
	return PL + (W - PL - PR) * (log10(x) - a->x0) / (a->x1 - a->x0);
}

static double py(const struct axes *a, double y)
{
	return H - PB - (H - PT - PB) * (log10(y) - a->y0) / (a->y1 - a->y0);
}

static bool usable(const struct mtr_rl_ceiling *c)
{
	return isfinite(c->value) && c->value > 0;
}

/* The ranges: intensity 1/16 .. 64 widened to the ridge points and the point; GFLOP/s
 * from the slowest roof at the left edge to twice the highest ceiling. */
static void ranges(const struct mtr_roofline *r, const struct mtr_rl_point *p, struct axes *a,
		   double *pmax, double *bmax)
{
	double xlo = 1.0 / 16, xhi = 64, ylo = INFINITY, yhi = 0;

	*pmax = 0;
	*bmax = 0;
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];

		if (!usable(c))
			continue;
		if (c->kind == MTR_RL_MEMORY)
			*bmax = c->value > *bmax ? c->value : *bmax;
		else
			*pmax = c->value > *pmax ? c->value : *pmax;
	}
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];

		if (usable(c) && c->kind == MTR_RL_MEMORY && *pmax > 0) {
			double ridge = *pmax / c->value;

			xhi = ridge * 4 > xhi ? ridge * 4 : xhi;
			xlo = ridge / 64 < xlo ? ridge / 64 : xlo;
		}
	}
	if (p->placed && p->intensity > 0 && p->gflops > 0) {
		xlo = p->intensity / 4 < xlo ? p->intensity / 4 : xlo;
		xhi = p->intensity * 4 > xhi ? p->intensity * 4 : xhi;
		ylo = p->gflops / 4;
		yhi = p->gflops * 4;
	}
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];
		double y = !usable(c) ? NAN : c->kind == MTR_RL_MEMORY ? c->value * xlo : c->value;

		if (isfinite(y)) {
			ylo = y < ylo ? y : ylo;
			yhi = y * 2 > yhi ? y * 2 : yhi;
		}
	}
	if (!isfinite(ylo) || yhi <= 0) {
		ylo = 0.1;
		yhi = 1000;
	}
	a->x0 = floor(log10(xlo));
	a->x1 = ceil(log10(xhi));
	a->y0 = floor(log10(ylo / 1.5));
	a->y1 = ceil(log10(yhi));
	if (a->y1 <= a->y0)
		a->y1 = a->y0 + 1;
}

static void grid(FILE *f, const struct axes *a)
{
	for (double e = a->x0; e <= a->x1; e++) {
		double x = px(a, pow(10, e));

		fprintf(f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n",
			x, PT, x, H - PB, x, H - PB + 16, pow(10, e));
	}
	for (double e = a->y0; e <= a->y1; e++) {
		double y = py(a, pow(10, e));

		fprintf(f,
			"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			PL, y, W - PR, y, PL - 6, y + 4, pow(10, e));
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">Arithmetic intensity "
		"(FLOP per DRAM byte)</text>\n",
		(PL + W - PR) / 2, H - 12);
	fprintf(f,
		"<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" "
		"text-anchor=\"middle\">GFLOP/s</text>\n",
		(PT + H - PB) / 2, (PT + H - PB) / 2);
}

/* A ceiling's name and value at (@x, @y), turned by @deg (a slanted roof's angle),
 * ending there when @end. */
static void label(FILE *f, const struct mtr_rl_ceiling *c, double x, double y, double deg, bool end)
{
	fprintf(f,
		"<text class=\"roof\" x=\"%.1f\" y=\"%.1f\" transform=\"rotate(%.1f %.1f %.1f)\"%s>",
		x, y, deg, x, y, end ? " text-anchor=\"end\"" : "");
	pcm_html_esc(f, c->name);
	fprintf(f, " %.4g %s</text>\n", c->value, c->kind == MTR_RL_MEMORY ? "GB/s" : "GFLOP/s");
}

/* A label's width in px at text.roof's 10 px (about 5.6 px a character, and the value). */
static double label_w(const struct mtr_rl_ceiling *c)
{
	return 5.6 * ((double)strlen(c->name) + 14);
}

/* Where each ceiling's label goes, so that none overprints another (a roofline of a
 * many-core machine has roofs a few px apart): a compute ceiling's in the right margin at
 * its height, pushed down below the one above it when closer than a line; a memory roof's
 * along its roof ending at its ridge, moved down the roof, past the labels of the roofs
 * beside it, where those would overlap. @at[i]: x, y of ceiling i's label. */
#define LINE_PX 12.0
static void place_labels(const struct mtr_roofline *r, const double (*end)[4], double angle,
			 double (*at)[2])
{
	double cosa = fabs(cos(angle));

	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];
		bool moved = true;

		if (!usable(c))
			continue;
		if (c->kind != MTR_RL_MEMORY) {
			at[i][0] = end[i][2] + 4;
			at[i][1] = end[i][3] + (c->kind == MTR_RL_NOMINAL ? -2 : 10);
		} else {
			at[i][0] = end[i][2] - 8;
			at[i][1] = end[i][3] - 4;
		}
		while (moved) {
			moved = false;
			for (int k = 0; k < i; k++) {
				const struct mtr_rl_ceiling *o = &r->ceilings[k];

				if (!usable(o) ||
				    (o->kind == MTR_RL_MEMORY) != (c->kind == MTR_RL_MEMORY))
					continue;
				if (c->kind != MTR_RL_MEMORY) {
					if (fabs(at[i][1] - at[k][1]) < LINE_PX) {
						at[i][1] = at[k][1] + LINE_PX;
						moved = true;
					}
					continue;
				}
				/* parallel roofs: apart by their vertical gap times cos(angle);
				 * labels overlap where their spans along x do too */
				double gap = fabs((at[i][1] - at[k][1]) -
						  (at[i][0] - at[k][0]) * tan(angle)) *
					     cosa;
				double wi = label_w(c) * cosa, wk = label_w(o) * cosa;

				if (gap < LINE_PX && at[i][0] > at[k][0] - wk &&
				    at[i][0] - wi < at[k][0]) {
					double dx = at[i][0] - (at[k][0] - wk - 6);

					at[i][0] -= dx;
					at[i][1] -= dx * tan(angle);
					moved = true;
				}
			}
		}
	}
}

static void roofs(FILE *f, const struct mtr_roofline *r, const struct axes *a, double pmax,
		  double bmax)
{
	double xl = pow(10, a->x0), xr = pow(10, a->x1), ytop = pow(10, a->y1), angle = 0;
	double(*end)[4] = calloc((size_t)(r->nceilings ? r->nceilings : 1), sizeof(*end));
	double(*at)[2] = calloc((size_t)(r->nceilings ? r->nceilings : 1), sizeof(*at));

	if (!end || !at)
		goto out;
	/* the roofs are drawn inside the plot only */
	fprintf(f,
		"<defs><clipPath id=\"plot\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
		"</clipPath></defs>\n",
		PL, PT, W - PL - PR, H - PT - PB);
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];
		double x0, x1, y0, y1;

		if (!usable(c))
			continue;
		if (c->kind == MTR_RL_MEMORY) {
			double cap = pmax > 0 ? pmax : ytop;

			x0 = xl;
			y0 = c->value * xl;
			x1 = cap / c->value < xr ? cap / c->value : xr;
			y1 = c->value * x1;
		} else {
			x0 = bmax > 0 && c->value / bmax > xl ? c->value / bmax : xl;
			x1 = xr;
			y0 = y1 = c->value;
		}
		end[i][0] = px(a, x0), end[i][1] = py(a, y0), end[i][2] = px(a, x1),
		end[i][3] = py(a, y1);
		if (c->kind == MTR_RL_MEMORY)
			angle = atan2(end[i][3] - end[i][1], end[i][2] - end[i][0]);
		fprintf(f, "<line class=\"roof %s\" clip-path=\"url(#plot)\" data-ceiling=\"",
			mtr_rl_kind_name(c->kind));
		pcm_html_esc(f, c->name);
		fprintf(f,
			"\" data-value=\"%.6g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>",
			c->value, end[i][0], end[i][1], end[i][2], end[i][3]);
		pcm_html_esc(f, c->name);
		fprintf(f, "</title></line>\n");
	}
	place_labels(r, (const double(*)[4])end, angle, at);
	for (int i = 0; i < r->nceilings; i++)
		if (usable(&r->ceilings[i]))
			label(f, &r->ceilings[i], at[i][0], at[i][1],
			      r->ceilings[i].kind == MTR_RL_MEMORY ? angle * 180 / M_PI : 0,
			      r->ceilings[i].kind == MTR_RL_MEMORY);
out:
	free(end);
	free(at);
}

static void chart(FILE *f, const struct mtr_roofline *r, const struct mtr_rl_point *p)
{
	struct axes a;
	double pmax, bmax;

	ranges(r, p, &a, &pmax, &bmax);
	fprintf(f,
		"<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" role=\"img\" id=\"roofline\">\n",
		W, H);
	grid(f, &a);
	roofs(f, r, &a, pmax, bmax);
	if (p->placed && p->intensity > 0 && p->gflops > 0)
		fprintf(f,
			"<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" "
			"data-intensity=\"%.17g\" data-gflops=\"%.17g\"><title>the program: %.4g "
			"FLOP/byte, %.4g GFLOP/s</title></circle>\n",
			px(&a, p->intensity), py(&a, p->gflops), p->intensity, p->gflops,
			p->intensity, p->gflops);
	else
		fprintf(f, "<text class=\"nopoint\" x=\"%d\" y=\"%d\">no point: see below</text>\n",
			PL + 10, PT + 16);
	fputs("</svg></div>\n", f);
}

static void point_text(FILE *f, const struct mtr_roofline *r, const struct mtr_rl_point *p)
{
	fputs("<h2>The program's point</h2>\n", f);
	if (p->placed) {
		fprintf(f,
			"<p class=\"point\">%.6g FLOP per DRAM byte, %.6g GFLOP/s (%.17g FLOPs, "
			"%.17g DRAM bytes over %.6g s).</p>\n",
			p->intensity, p->gflops, p->flops, p->dram_bytes,
			(double)r->elapsed_ns * 1e-9);
		return;
	}
	fputs("<p class=\"missing\">No point: ", f);
	pcm_html_esc(f, r->missing[0] ? r->missing : p->why);
	fputs("</p>\n", f);
}

static void tables(FILE *f, const struct mtr_roofline *r)
{
	static const char *const head[] = {
		"Kernel",      "ISA",	    "Vector bits", "Threads", "Work per repetition",
		"Repetitions", "Statistic", "Clock",	   "Note"
	};

	fputs("<h2>Ceilings and how they were measured</h2>\n<table class=\"ceilings\">\n"
	      "<tr><th>Kind</th><th>Ceiling</th><th>Value</th>",
	      f);
	for (int k = 0; k < MTR_RL_NDESC; k++)
		fprintf(f, "<th>%s</th>", head[k]);
	fputs("</tr>\n", f);
	for (int i = 0; i < r->nceilings; i++) {
		const struct mtr_rl_ceiling *c = &r->ceilings[i];

		fprintf(f, "<tr><td>%s</td><td>", mtr_rl_kind_name(c->kind));
		pcm_html_esc(f, c->name);
		if (isfinite(c->value))
			fprintf(f, "</td><td class=\"num\">%.4g %s</td>", c->value,
				c->kind == MTR_RL_MEMORY ? "GB/s" : "GFLOP/s");
		else
			fputs("</td><td>unknown</td>", f);
		for (int k = 0; k < MTR_RL_NDESC; k++) {
			fputs("<td>", f);
			pcm_html_esc(f, c->desc[k]);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<h2>Counts</h2>\n", f);
	if (r->ncounters) {
		fputs("<table class=\"counters\">\n<tr><th>Role</th><th>Event</th><th>Value</th>"
		      "<th>Time enabled (ns)</th><th>Time running (ns)</th></tr>\n",
		      f);
		for (int i = 0; i < r->ncounters; i++) {
			const struct mtr_rl_counter *c = &r->counters[i];

			fprintf(f, "<tr><td>%s</td><td>",
				c->role == MTR_RL_FLOPS ? "flops" : "dram");
			pcm_html_esc(f, c->event);
			fprintf(f,
				"</td><td class=\"num\">%llu</td><td class=\"num\">%llu</td>"
				"<td class=\"num\">%llu</td></tr>\n",
				(unsigned long long)c->value, (unsigned long long)c->enabled,
				(unsigned long long)c->running);
		}
		fputs("</table>\n", f);
	} else {
		fputs("<p>No counts were recorded.</p>\n", f);
	}
	fputs("<h2>Run</h2>\n<table class=\"facts\">\n", f);
	for (int i = 0; i < r->nfacts; i++) {
		fputs("<tr><th>", f);
		pcm_html_esc(f, r->fact_key[i]);
		fputs("</th><td>", f);
		pcm_html_esc(f, r->fact_val[i]);
		fputs("</td></tr>\n", f);
	}
	fprintf(f, "<tr><th>Elapsed (ns)</th><td>%llu</td></tr>\n</table>\n",
		(unsigned long long)r->elapsed_ns);
}

int rl_html_write(const struct mtr_roofline *r, int dfd)
{
	FILE *f = cli_output_fopen_at(dfd, "report.html");
	struct mtr_rl_point p;
	int ret = 0;

	if (!f)
		return -errno;
	mtr_rl_point(r, &p);
	pcm_html_head(f, "uprof pcm roofline",
		      "line.grid{stroke:#e2e2e2}\nline.roof{stroke-width:2}\n"
		      "line.memory{stroke:#1f5fa8}\nline.compute{stroke:#b8441f}\n"
		      "line.nominal{stroke:#777;stroke-dasharray:6 4}\n"
		      "circle.point{fill:#d2381f;stroke:#000}\ntext.roof{font-size:10px}\n"
		      "p.missing{color:#a00}\n"
		      /* the Note is the longest cell (how a nominal peak was worked out): a
		       * column wide enough to read it in a few lines, not a word a line, in a
		       * table as wide as the page, the Clock's long clock name (the one word
		       * that would widen it past 1400 px) broken where it must */
		      "table.ceilings{width:100%;font-size:13px}\n"
		      "table.ceilings td:nth-last-child(2){overflow-wrap:anywhere;min-width:10em}\n"
		      "table.ceilings td:last-child{min-width:13em}\n");
	chart(f, r, &p);
	point_text(f, r, &p);
	tables(f, r);
	fputs("</body>\n</html>\n", f);
	if (fflush(f) || ferror(f))
		ret = errno ? -errno : -EIO;
	if (fclose(f) && !ret)
		ret = errno ? -errno : -EIO;
	return ret;
}
