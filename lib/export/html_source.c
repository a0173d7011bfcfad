// SPDX-License-Identifier: MIT
/*
 * The HTML report's Source/assembly data: `uprof annotate`'s details (lib/report's
 * annotate.c, opts.annotate_export) of the hottest functions, written as
 *   "source":[{"fn":"..","module":"..","samples":N,"start":A,"end":B,"notes":[".."],
 *     "lines":[[file,line,samples,share,"text","inlined"],...],
 *     "insns":[[addr,samples,share,line,"text"],...],"left_out":{"lines":L,"insns":I}},...]
 * an instruction's line the index of its line in "lines" (-1: none, or left out);
 * shares in % of the function's samples, as annotate prints them. Bounded: a short
 * function whole, a long one's lines and instructions with samples and CONTEXT around
 * each, at most MAX_LINES and MAX_INSNS of them; what is left out is counted.
 */
#include "export/html.h"

#include "annotate/annotate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WHOLE 120     /* a function of this many instructions is shown whole */
#define CONTEXT 3     /* rows kept before and after one with samples */
#define MAX_LINES 200 /* per function: a page of source around its hot lines */
#define MAX_INSNS 400

/* Mark in @keep (@n) the entries with samples and CONTEXT around each, at most @max;
 * all when @n <= @whole. Returns how many are kept. */
static size_t choose(bool *keep, size_t n, size_t whole, size_t max,
		     uint64_t (*samples)(const void *v, size_t i), const void *v)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++)
		keep[i] = n <= whole;
	if (n > whole)
		for (size_t i = 0; i < n; i++) {
			if (!samples(v, i))
				continue;
			for (size_t k = i > CONTEXT ? i - CONTEXT : 0; k < n && k <= i + CONTEXT;
			     k++)
				keep[k] = true;
		}
	for (size_t i = 0; i < n; i++) {
		if (keep[i] && kept == max)
			keep[i] = false; /* past the bound: the earliest are kept */
		kept += keep[i];
	}
	return kept;
}

static uint64_t line_samples(const void *v, size_t i)
{
	return ((const struct rpt_annot *)v)->lines[i].samples;
}

static uint64_t insn_samples(const void *v, size_t i)
{
	return ((const struct rpt_annot *)v)->insns[i].samples;
}

static void put_text(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	if (s)
		util_put_escaped_n(f, s, n, UTIL_ESC_JSON_HTML);
	fputc('"', f);
}

static int put_one(FILE *f, const struct rpt_annot *v)
{
	size_t n = v->nlines > v->ninsns ? v->nlines : v->ninsns;
	bool *keep = malloc(n ? n : 1);
	long *index = malloc(sizeof(*index) * (v->nlines ? v->nlines : 1));
	size_t nl, ni, out = 0;
	const char *why[3] = { v->no_source, v->no_text, v->no_disasm };
	bool first = true;

	if (!keep || !index) {
		free(keep);
		free(index);
		return -ENOMEM;
	}
	fputs("{\"fn\":", f);
	put_text(f, v->function, strlen(v->function));
	fputs(",\"module\":", f);
	put_text(f, v->module, strlen(v->module));
	fprintf(f, ",\"samples\":%" PRIu64 ",\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"notes\":[",
		v->samples, v->start, v->end);
	for (int k = 0; k < 3; k++)
		if (why[k]) {
			fputs(first ? "" : ",", f);
			put_text(f, why[k], strlen(why[k]));
			first = false;
		}
	fputs("],\"lines\":[", f);
	nl = choose(keep, v->nlines, WHOLE, MAX_LINES, line_samples, v);
	for (size_t i = 0; i < v->nlines; i++) {
		const struct rpt_annot_line *l = &v->lines[i];

		index[i] = keep[i] ? (long)out : -1;
		if (!keep[i])
			continue;
		fputc('[', f);
		out++;
		put_text(f, l->file, strlen(l->file));
		fprintf(f, ",%d,%" PRIu64 ",%.2f,", l->line, l->samples, l->share);
		put_text(f, l->text, l->text ? l->text_len : 0);
		fputc(',', f);
		put_text(f, l->inlined, l->inlined ? strlen(l->inlined) : 0);
		fputs(out < nl ? "]," : "]", f);
	}
	fputs("],\"insns\":[", f);
	ni = choose(keep, v->ninsns, WHOLE, MAX_INSNS, insn_samples, v);
	out = 0;
	for (size_t i = 0; i < v->ninsns; i++) {
		const struct rpt_annot_insn *in = &v->insns[i];

		if (!keep[i])
			continue;
		fprintf(f, "[%" PRIu64 ",%" PRIu64 ",%.2f,%ld,", in->addr, in->samples, in->share,
			in->line >= 0 && (size_t)in->line < v->nlines ? index[in->line] : -1L);
		put_text(f, in->text, in->len ? strnlen(in->text, sizeof(in->text)) : 0);
		fputs(++out < ni ? "]," : "]", f);
	}
	fprintf(f, "],\"left_out\":{\"lines\":%zu,\"insns\":%zu}}", v->nlines - nl, v->ninsns - ni);
	free(keep);
	free(index);
	return 0;
}

int rpt_html_source(FILE *f, const struct rpt *r)
{
	const struct rpt_annot *v;
	int n = rpt_annots(r, &v), ret = 0;

	fputc('[', f);
	for (int i = 0; i < n && i < RPT_ANNOT_EXPORT_FUNCS && !ret; i++) {
		if (i)
			fputc(',', f);
		ret = put_one(f, &v[i]);
	}
	fputc(']', f);
	return ret;
}
