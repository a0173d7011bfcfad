// SPDX-License-Identifier: MIT
/*
 * report.html: the whole report as one self-contained page (docs/DESIGN.md §13): its
 * style and script inline (lib/export/html/, embedded at build time), nothing fetched,
 * so one file copied off the cluster opens from file:// anywhere. The data is one JSON
 * object in the page, aggregated (report.csv's tables, the stacks merged into a tree, a
 * timeline binned), never raw samples: its size follows the session's functions and
 * threads, not its length. Its numbers are report.csv's: the tables are the CSV's own
 * text (html_csv.c), written by the same code with more rows.
 */
#include "export/html.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One member of a JSON object the page reads: its key and its value, of one kind. */
enum jkind { J_STR, J_U64, J_NUM, J_BOOL, J_INT };
struct jfield {
	const char *key;
	enum jkind kind;
	union {
		const char *s; /* NULL is "" */
		uint64_t u;
		double d; /* NaN is 0: JSON has no NaN */
		bool b;
		int i;
	} v;
};
/* clang-format off */
#define JS(k, x) { k, J_STR, { .s = (x) } }
#define JU(k, x) { k, J_U64, { .u = (x) } }
#define JN(k, x) { k, J_NUM, { .d = (x) } }
#define JB(k, x) { k, J_BOOL, { .b = (x) } }
#define JI(k, x) { k, J_INT, { .i = (x) } }
/* clang-format on */

/* @n members, each after a comma unless @first (the object's braces are the caller's). */
static void put_fields(FILE *f, const struct jfield *v, size_t n, bool first)
{
	for (size_t i = 0; i < n; i++, first = false) {
		fprintf(f, "%s\"%s\":", first ? "" : ",", v[i].key);
		switch (v[i].kind) {
		case J_STR:
			fputc('"', f);
			util_put_escaped(f, v[i].v.s ? v[i].v.s : "", UTIL_ESC_JSON_HTML);
			fputc('"', f);
			break;
		case J_U64:
			fprintf(f, "%" PRIu64, v[i].v.u);
			break;
		case J_NUM:
			fprintf(f, "%.6g", v[i].v.d == v[i].v.d ? v[i].v.d : 0.0);
			break;
		case J_BOOL:
			fputs(v[i].v.b ? "true" : "false", f);
			break;
		case J_INT:
			fprintf(f, "%d", v[i].v.i);
			break;
		}
	}
}

/* "summary": the run's facts and its accounting, the numbers the Summary page shows
 * beside report.csv's header blocks (the same rpt_summary() the terminal prints). */
static void put_summary(FILE *f, const struct rpt *r)
{
	struct rpt_summary s;
	struct rpt_stack_summary st;
	const struct ses_info *in;

	rpt_summary(r, &s);
	rpt_stack_summary(r, &st);
	in = s.info;
	const struct jfield v[] = {
		JS("target", in->target_path),
		JS("args", in->target_args),
		JS("command", in->command),
		JS("host", in->host),
		JS("event", in->nevents ? in->events[0].name : "CPU_TIME"),
		JS("status", in->status == SES_STATUS_COMPLETE ? "complete"
			     : in->status == SES_STATUS_INTERRUPTED
				     ? "interrupted"
				     : "running (or collect was killed)"),
		JN("duration_s", (double)(in->end_mono_ns - in->start_mono_ns) / 1e9),
		JU("samples", s.samples),
		JU("sample_records", s.sample_records),
		JU("lost", s.lost),
		JU("damaged_at", s.damaged_at),
		JS("damage", s.damage),
		JU("unparsable", s.unparsable),
		JB("count_damage", s.count_damage),
		JB("rate_damage", s.rate_damage),
		JN("requested_hz", s.requested_hz),
		JN("achieved_hz", s.achieved_hz),
		JN("cpu_time_s", s.cpu_time_s),
		JU("throttles", s.throttles),
		JB("interrupted", s.interrupted),
		JI("processes", s.nprocesses),
		JI("threads", s.nthreads),
		JN("pause_s", s.pause_s),
		JU("pauses", s.npauses),
		JU("paused_samples", s.paused_samples),
		JU("lost_pause_records", s.lost_pause_records),
		JU("unknown_pauses", s.unknown_rows),
		JB("filtered", s.filtered),
		JU("filtered_samples", s.filtered_samples),
		JU("task_instances", s.task_instances),
		JU("task_lost", s.task_lost),
		JU("task_malformed", s.task_malformed),
		JI("missing_modules", s.missing_modules),
		JI("changed_modules", s.changed_modules),
		JU("missing_samples", s.missing_samples + s.changed_samples),
		JB("stacks", st.collected),
		JU("stacks_truncated", st.truncated),
		JU("stacks_unwind_failed", st.unwind_failed),
		JU("file_notes", s.nfile_notes),
	};

	fputc('{', f);
	put_fields(f, v, sizeof(v) / sizeof(v[0]), true);
	fputc('}', f);
}

void rpt_html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      /* nothing may be fetched: the page must open offline, from file:// */
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<title>",
	      f);
	util_put_escaped(f, title, UTIL_ESC_XML);
	fputs(" - uprof report</title>\n<style>\n", f);
	fputs(rpt_html_css, f);
	fputs("</style>\n</head>\n<body>\n<noscript>This report draws its pages with JavaScript; "
	      "report.csv beside it has the same tables.</noscript>\n"
	      "<script type=\"application/json\" id=\"data\">",
	      f);
}

void rpt_html_tail(FILE *f)
{
	fputs("</script>\n<script>\n", f);
	fputs(rpt_html_js, f);
	fputs("</script>\n</body>\n</html>\n", f);
}

/* report.csv's text with @cutoff rows per table, into *@csv (owned by the caller). */
static int csv_text(const struct rpt *r, char **csv, size_t *len)
{
	FILE *m = open_memstream(csv, len);
	int ret;

	if (!m)
		return -ENOMEM;
	/* every row (the JSON keeps RPT_HTML_ROWS of each table, and counts the rest) */
	ret = rpt_write_csv_cutoff(r, 0, m);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	return ret;
}

int rpt_export_html(const struct rpt *r, FILE *f)
{
	const struct rpt_html_limits lim = { RPT_HTML_ROWS, RPT_HTML_ALL_ROWS };
	struct rpt_stacks_facts facts;
	char *csv = NULL;
	size_t len = 0;
	int ret;

	rpt_stacks_facts(r, &facts);
	ret = csv_text(r, &csv, &len);
	if (ret)
		goto out;
	rpt_html_head(f, facts.info->target_path[0] ? facts.info->target_path : facts.dir);
	fputs("{\"uprof\":1", f);
	put_fields(f, (const struct jfield[]){ JS("kind", "session"), JS("dir", facts.dir) }, 2,
		   false);
	fputs(",\"summary\":", f);
	put_summary(f, r);
	fputs(",\n\"csv\":", f);
	ret = rpt_html_csv_sections(f, csv, len, &lim);
	if (ret)
		goto out;
	fputs(",\n\"flame\":", f);
	ret = rpt_html_flame(f, r);
	if (ret)
		goto out;
	fputs(",\n\"timeline\":", f);
	ret = rpt_html_timeline(f, r);
	if (ret)
		goto out;
	fputs(",\n\"source\":", f);
	ret = rpt_html_source(f, r);
	if (ret)
		goto out;
	fputs("}", f);
	rpt_html_tail(f);
out:
	free(csv);
	return ret;
}

/* A page of report.csv's text alone, and a job's ranks' MPI calls when @ranks. */
static int html_csv(FILE *f, const char *kind, const char *title, const char *csv, size_t len,
		    const struct rpt_mpi_rank *ranks, size_t nranks)
{
	const struct rpt_html_limits lim = { RPT_HTML_ROWS, RPT_HTML_ALL_ROWS };
	int ret;

	rpt_html_head(f, title);
	fputs("{\"uprof\":1", f);
	put_fields(f, (const struct jfield[]){ JS("kind", kind), JS("dir", title) }, 2, false);
	fputs(",\n\"csv\":", f);
	ret = rpt_html_csv_sections(f, csv, len, &lim);
	if (!ret && ranks) {
		fputs(",\n\"mpi_timeline\":", f);
		ret = rpt_html_mpi_timeline(f, ranks, nranks);
	}
	fputs("}", f);
	rpt_html_tail(f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}

int rpt_export_html_csv(FILE *f, const char *kind, const char *title, const char *csv, size_t len)
{
	return html_csv(f, kind, title, csv, len, NULL, 0);
}

int rpt_export_html_job(FILE *f, const char *title, const char *csv, size_t len,
			const struct rpt_mpi_rank *ranks, size_t nranks)
{
	return html_csv(f, "job", title, csv, len, ranks, nranks);
}
