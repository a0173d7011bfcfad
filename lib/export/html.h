/* SPDX-License-Identifier: MIT */
/*
 * lib/export's HTML report (report.html), what its files share; no other module includes
 * it. The page is one file: the style and script (lib/export/html/report.css, report.js,
 * made C strings at build time by lib/export/html/embed.sh) and the data, one JSON object
 * in a <script type="application/json" id="data"> element:
 *   export_html.c       the page, the summary's numbers, rpt_export_html()
 *   html_csv.c          report.csv's sections as tables (the numbers as report.csv has them)
 *   html_flame.c        the tree of stacks for the flame graph
 *   html_timeline.c     a track per thread: sample density, tasks, pauses, OpenMP slices
 *   html_source.c       the hottest functions' source and assembly, as annotate's
 *   html_mpi.c          a job's MPI timeline: a track per rank with its calls
 * and in the script: html/report_calls.js the Callers/callees page, from "flame"'s tree,
 * html/report_source.js the Source/assembly page, from "source",
 * html/report_mpi_timeline.js a job's MPI timeline page, from "mpi_timeline"
 */
#ifndef UPROF_EXPORT_HTML_H
#define UPROF_EXPORT_HTML_H

#include "export/internal.h"

#include <stddef.h>

/* How much of report.csv goes into the page: rows per section (its header row
 * included), and rows in all; the rest of each section is counted in its "more". */
struct rpt_html_limits {
	size_t rows, all_rows;
};
/* A session's page: 500 rows of a table is more than anyone reads, and 20,000 rows
 * of names keep the page within a few MB whatever --detail adds. */
#define RPT_HTML_ROWS 500
#define RPT_HTML_ALL_ROWS 20000

/* The sections of report.csv's text @csv (@len bytes, or up to a NUL) as a JSON array
 * on @f. 0 or -ENOMEM. */
int rpt_html_csv_sections(FILE *f, const char *csv, size_t len, const struct rpt_html_limits *lim);

/* "flame": the merged stacks as a tree, pruned to what a flame graph can show. 0 or
 * -ENOMEM. */
int rpt_html_flame(FILE *f, const struct rpt *r);

/* "timeline": a track per thread. 0 or -ENOMEM. */
int rpt_html_timeline(FILE *f, const struct rpt *r);

/* "mpi_timeline" of a job's page: @n ranks' MPI calls (html_mpi.c), at most
 * RPT_HTML_MPI_CALLS (the earliest, as trace.json cuts them; the rest counted). 0 or
 * -ENOMEM. */
int rpt_html_mpi_timeline(FILE *f, const struct rpt_mpi_rank *ranks, size_t n);
/* 100,000 calls are about 3 MB of the page */
#define RPT_HTML_MPI_CALLS 100000u

/* "source": the hottest functions' source lines and instructions with their samples
 * (rpt_annots(); none unless opened with opts.annotate_export). 0 or -ENOMEM. */
int rpt_html_source(FILE *f, const struct rpt *r);

/* The page around the data: everything up to the data element's text, then after it.
 * @title is the page's title (escaped here). */
void rpt_html_head(FILE *f, const char *title);
void rpt_html_tail(FILE *f);

/* lib/export/html/report.css and report.js (the generated html_assets.c). */
extern const char rpt_html_css[];
extern const char rpt_html_js[];

#endif
