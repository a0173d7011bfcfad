/* SPDX-License-Identifier: MIT */
/*
 * lib/export: what a report's call stacks can be turned into, each file from the same
 * model as report.csv and showing the same numbers. It reads the model only through
 * report.h's stack accessors (rpt_stacks_ready() and after).
 *
 *   export.c             the exporter table: names, files, --help lines, rpt_export()
 *   export_folded.c      folded stacks (flamegraph.pl, speedscope, inferno)
 *   export_flamegraph.c  a self-contained flame graph SVG
 *   export_perfetto.c    a Chrome/Perfetto trace (Trace Event Format JSON)
 *   export_perfetto_omp.c  its OpenMP tracks (report.h's rpt_omp_* slices)
 *   export_html.c        report.html: the report as one self-contained page (html.h)
 *   export_sqlite.c      a SQLite database in perf's export-to-sqlite.py schema, plus
 *                        uprof's tables (export_sqlite_schema.c); walks every sample
 *   export_pprof.c       Go's pprof profile (go tool pprof, Pyroscope, Parca); walks too
 */
#ifndef UPROF_EXPORT_H
#define UPROF_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

/* Indices of the exporter table (export.c), in --help order. */
enum rpt_export {
	RPT_EXPORT_FOLDED,     /* stacks.folded: "comm;root;...;leaf count" per line */
	RPT_EXPORT_FLAMEGRAPH, /* flamegraph.svg: self-contained, click to zoom, search */
	RPT_EXPORT_PERFETTO,   /* trace.json: Chrome/Perfetto trace, a track per thread */
	RPT_EXPORT_HTML,       /* report.html: every table, flame graph and timeline, one file */
	RPT_EXPORT_SQLITE,     /* report.db: SQLite in the schema of perf's exporter */
	RPT_EXPORT_PPROF,      /* profile.pb.gz: Go's pprof (profile.proto, gzip) */
	RPT_EXPORT_COUNT
};

/* One registered exporter (static: never freed). */
struct rpt_exporter {
	const char *name; /* what --export takes: "folded" */
	const char *file; /* the file it writes in the export directory: "stacks.folded" */
	const char *what; /* how report announces it: "Generated <what> file: <path>" */
	const char *help; /* what it is for, for --help */
	int (*write)(const struct rpt *r, FILE *f);
	/* or, for exports of every sample (rpt_walk: the report is opened with opts.walk) */
	int (*write_walk)(struct rpt *r, FILE *f);
};

/* Exporter @e (0 .. RPT_EXPORT_COUNT - 1), or NULL. */
const struct rpt_exporter *rpt_exporter(int e);
/* An exporter's name ("folded", ...) -> its index, or -1. */
int rpt_export_parse(const char *name);
/* Whether export @e reads every sample (the report must be opened with opts.walk). */
bool rpt_export_walks(int e);
/* The file an export is written to: "stacks.folded", "flamegraph.svg", "trace.json". */
const char *rpt_export_filename(enum rpt_export e);
/* Write export @e of @r to @f. 0 or -errno (-EINVAL: opened without opts.exports).
 * Not const: the first export looks up the inline chains that the CSV of a session
 * without stacks or tasks had no need for (rpt_stacks_ready). */
int rpt_export(struct rpt *r, enum rpt_export e, FILE *f);

/* report.html of a report that is only report.csv's text (@csv, @len bytes): an MPI
 * job's (lib/job's CSV), its tables and MPI views, no flame graph or timeline. @kind
 * names it in the page's data ("job"), @title heads the page. 0 or -errno. */
int rpt_export_html_csv(FILE *f, const char *kind, const char *title, const char *csv, size_t len);

#endif
