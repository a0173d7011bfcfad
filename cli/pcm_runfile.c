// SPDX-License-Identifier: MIT
/*
 * report-run.tsv beside -O's CSV: what `uprof pcm hreport` needs to draw the page again and
 * the CSV cannot say: the program's command line (the page's Program line), and each
 * metric's group and whether it is a count (shown without decimals: a column of empty
 * cells cannot tell). lib/metric's mtr_pcm_run_parse reads it back; its format is there.
 */
#include "cli/pcm.h"

#include <errno.h>
#include <stdio.h>

/* A field, with the bytes that would end it (tab, newline, CR) and \ escaped. */
static void field(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\t':
			fputs("\\t", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

int pcm_runfile_write(const struct pcm_state *st)
{
	FILE *f = cli_output_fopen_at(st->out_dfd, PCM_RUN_FILE);
	bool bad;

	if (!f)
		return -errno;
	fputs(MTR_PCM_RUN_MAGIC "\t1\n", f);
	if (st->prog_argv) {
		fputs("program", f);
		for (char **a = st->prog_argv; *a; a++) {
			fputc('\t', f);
			field(f, *a);
		}
		fputc('\n', f);
	}
	for (int g = 0; g < st->mg.ngroups; g++) {
		const struct pmc_group *gr = &st->mg.groups[g];

		for (int m = gr->first_metric; m < gr->first_metric + gr->nmetrics; m++) {
			fputs("metric\t", f);
			field(f, gr->name);
			fputs(pcm_metric_is_count(st, m) ? "\tcount\t" : "\tderived\t", f);
			field(f, st->mg.metrics[m].name);
			fputc('\n', f);
		}
	}
	bad = fflush(f) != 0 || ferror(f);
	bad = fclose(f) != 0 || bad;
	return bad ? (errno ? -errno : -EIO) : 0;
}
