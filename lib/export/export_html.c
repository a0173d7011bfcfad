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

/* "key":"value" with a leading comma unless @first. */
static void put_str(FILE *f, const char *key, const char *value, bool first)
{
	fprintf(f, "%s\"%s\":\"", first ? "" : ",", key);
	util_put_escaped(f, value ? value : "", UTIL_ESC_JSON_HTML);
	fputc('"', f);
}

static void put_u64(FILE *f, const char *key, uint64_t v)
{
	fprintf(f, ",\"%s\":%" PRIu64, key, v);
}

static void put_num(FILE *f, const char *key, double v)
{
	fprintf(f, ",\"%s\":%.6g", key, v == v ? v : 0.0);
}

static void put_bool(FILE *f, const char *key, bool v)
{
	fprintf(f, ",\"%s\":%s", key, v ? "true" : "false");
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
	fputc('{', f);
	put_str(f, "target", in->target_path, true);
	put_str(f, "args", in->target_args, false);
	put_str(f, "command", in->command, false);
	put_str(f, "host", in->host, false);
	put_str(f, "event", in->nevents ? in->events[0].name : "CPU_TIME", false);
	put_str(f, "status",
		in->status == SES_STATUS_COMPLETE      ? "complete"
		: in->status == SES_STATUS_INTERRUPTED ? "interrupted"
						       : "running (or collect was killed)",
		false);
	put_num(f, "duration_s", (double)(in->end_mono_ns - in->start_mono_ns) / 1e9);
	put_u64(f, "samples", s.samples);
	put_u64(f, "sample_records", s.sample_records);
	put_u64(f, "lost", s.lost);
	put_u64(f, "damaged_at", s.damaged_at);
	put_str(f, "damage", s.damage, false);
	put_u64(f, "unparsable", s.unparsable);
	put_bool(f, "count_damage", s.count_damage);
	put_bool(f, "rate_damage", s.rate_damage);
	put_num(f, "requested_hz", s.requested_hz);
	put_num(f, "achieved_hz", s.achieved_hz);
	put_num(f, "cpu_time_s", s.cpu_time_s);
	put_u64(f, "throttles", s.throttles);
	put_bool(f, "interrupted", s.interrupted);
	fprintf(f, ",\"processes\":%d,\"threads\":%d", s.nprocesses, s.nthreads);
	put_num(f, "pause_s", s.pause_s);
	put_u64(f, "pauses", s.npauses);
	put_u64(f, "paused_samples", s.paused_samples);
	put_u64(f, "lost_pause_records", s.lost_pause_records);
	put_u64(f, "unknown_pauses", s.unknown_rows);
	put_bool(f, "filtered", s.filtered);
	put_u64(f, "filtered_samples", s.filtered_samples);
	put_u64(f, "task_instances", s.task_instances);
	put_u64(f, "task_lost", s.task_lost);
	put_u64(f, "task_malformed", s.task_malformed);
	fprintf(f, ",\"missing_modules\":%d,\"changed_modules\":%d", s.missing_modules,
		s.changed_modules);
	put_u64(f, "missing_samples", s.missing_samples + s.changed_samples);
	put_bool(f, "stacks", st.collected);
	put_u64(f, "stacks_truncated", st.truncated);
	put_u64(f, "stacks_unwind_failed", st.unwind_failed);
	put_u64(f, "file_notes", s.nfile_notes);
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
	put_str(f, "kind", "session", false);
	put_str(f, "dir", facts.dir, false);
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

int rpt_export_html_csv(FILE *f, const char *kind, const char *title, const char *csv, size_t len)
{
	const struct rpt_html_limits lim = { RPT_HTML_ROWS, RPT_HTML_ALL_ROWS };
	int ret;

	rpt_html_head(f, title);
	fputs("{\"uprof\":1", f);
	put_str(f, "kind", kind, false);
	put_str(f, "dir", title, false);
	fputs(",\n\"csv\":", f);
	ret = rpt_html_csv_sections(f, csv, len, &lim);
	fputs("}", f);
	rpt_html_tail(f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}
