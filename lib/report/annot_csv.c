// SPDX-License-Identifier: MIT
/*
 * report.csv's "Function Detail Data" (uProf's name for its per-function source and
 * assembly attribution): for each annotated function a head line, what is missing and
 * why, its source lines in source order, then its instructions in address order. Values
 * in the sort event's unit (CPU_TIME seconds, or event counts), samples, and the share
 * of the function.
 */
#include "annotate/annotate.h"
#include "report/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A source line's text: any bytes, up to its length (no NUL of its own); tabs expanded
 * to 8 columns, as an editor shows them (the escaper would make them '?') */
static void quoted_n(FILE *f, const char *s, size_t len)
{
	char buf[1024];
	size_t o = 0;

	for (size_t i = 0; i < len && o < sizeof(buf) - 9; i++) {
		if (s[i] == '\t') {
			do
				buf[o++] = ' ';
			while (o % 8);
		} else {
			buf[o++] = s[i] ? s[i] : ' ';
		}
	}
	buf[o] = 0;
	util_csv_quoted(f, buf);
}

/* What one sample stands for in the sort event's unit. */
static double unit(const struct rpt *r, bool *timer)
{
	*timer = !r->info.nevents || ses_event_is_timer(&r->info.events[0]);
	return *timer ? rpt_sample_s(r) : (double)ses_event_unit(&r->info.events[0]);
}

static void write_one(const struct rpt *r, const struct rpt_annot *v, FILE *f)
{
	const char *ev = r->info.nevents ? r->info.events[0].name : "CPU_TIME";
	bool timer;
	double u = unit(r, &timer);

	fputs("\nFunction Detail Data\n", f);
	fputs("FUNCTION,", f);
	util_csv_quoted(f, v->function);
	fputs(",MODULE,", f);
	util_csv_quoted(f, v->module);
	fprintf(f, ",SAMPLES,%llu,RANGE,\"0x%llx-0x%llx\"\n", (unsigned long long)v->samples,
		(unsigned long long)v->start, (unsigned long long)v->end);
	for (int k = 0; k < 3; k++) {
		const char *why = (const char *[]){ v->no_source, v->no_text, v->no_disasm }[k];

		if (why) {
			fputs("Note,", f);
			util_csv_quoted(f, why);
			fputc('\n', f);
		}
	}
	if (v->nlines) {
		fprintf(f,
			"SOURCE FILE,LINE,\"%s\" (%s),SAMPLES,%% OF FUNCTION,INLINED FUNCTION,"
			"SOURCE\n",
			ev, timer ? "seconds" : "events");
		for (size_t i = 0; i < v->nlines; i++) {
			const struct rpt_annot_line *l = &v->lines[i];

			util_csv_quoted(f, l->file);
			fprintf(f, ",%d,%.4f,%llu,%.2f,", l->line, (double)l->samples * u,
				(unsigned long long)l->samples, l->share);
			util_csv_quoted(f, l->inlined ? l->inlined : "");
			fputc(',', f);
			if (l->text)
				quoted_n(f, l->text, l->text_len);
			fputc('\n', f);
		}
	}
	fprintf(f, "ADDRESS,\"%s\" (%s),SAMPLES,%% OF FUNCTION,SOURCE FILE,LINE,INSTRUCTION\n", ev,
		timer ? "seconds" : "events");
	for (size_t i = 0; i < v->ninsns; i++) {
		const struct rpt_annot_insn *in = &v->insns[i];
		const struct rpt_annot_line *l = in->line >= 0 ? &v->lines[in->line] : NULL;

		fprintf(f, "\"0x%llx\",%.4f,%llu,%.2f,", (unsigned long long)in->addr,
			(double)in->samples * u, (unsigned long long)in->samples, in->share);
		util_csv_quoted(f, l ? l->file : "");
		fprintf(f, ",%d,", l ? l->line : 0);
		util_csv_quoted(f, in->text);
		fputc('\n', f);
	}
}

int rpt_annot_write_csv(const struct rpt *r, FILE *f)
{
	const struct rpt_annot *v;
	int n = rpt_annots(r, &v);

	for (int i = 0; i < n; i++)
		write_one(r, &v[i], f);
	return ferror(f) ? -EIO : 0;
}
