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
 *   export_perfetto_agg.c  its --agg-interval counter tracks (report.h's rpt_agg_*)
 *   export_html.c        report.html: the report as one self-contained page (html.h)
 *   export_sqlite.c      a SQLite database in perf's export-to-sqlite.py schema, plus
 *                        uprof's tables (export_sqlite_schema.c); walks every sample
 *   export_pprof.c       Go's pprof profile (go tool pprof, Pyroscope, Parca); walks too
 *   export_wall.c        the wall-clock view: on-CPU samples and --trace os's off-CPU
 *                        time by stack, folded and as a flame graph
 *   export_perfetto_mpi.c  its MPI calls and message flows (--trace mpi=full), and an MPI
 *                          job's own trace (rpt_export_mpi_job)
 *   mpi_match.c          which call each MPI message left from and arrived in
 */
#ifndef UPROF_EXPORT_H
#define UPROF_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

/* One rank's MPI calls for a trace (export_perfetto_mpi.c). */
struct rpt_mpi_rank {
	const struct ses_mpiev *ev; /* borrowed; NULL: none recorded (@why says why) */
	int rank, pid;
	const char *host;  /* borrowed */
	int64_t offset_ns; /* added to its times: its host's CLOCK_REALTIME - CLOCK_MONOTONIC */
	const char *why;   /* borrowed, or NULL */
};
/* Calls a trace shows at most (the earliest; the rest counted in its otherData). */
#define RPT_MPI_SLICES_MAX 1000000u

/* What an MPI job's trace.json showed (rpt_export_mpi_job). */
struct rpt_mpi_trace_facts {
	size_t ranks, slices, messages;
	uint64_t left_out; /* calls past RPT_MPI_SLICES_MAX */
	uint64_t dropped;  /* calls past the interposers' caps, never recorded */
};

/* trace.json of an MPI job: a process per rank ("rank N (host, pid)"), its calls as
 * slices on their threads' tracks, each message a flow from the call that sent it to the
 * call where it arrived, on one wall-clock time line; @jobdir names it in otherData.
 * 0 or -errno; @facts (may be NULL) filled. */
int rpt_export_mpi_job(FILE *f, const struct rpt_mpi_rank *ranks, size_t n, const char *jobdir,
		       struct rpt_mpi_trace_facts *facts);

/* Indices of the exporter table (export.c), in --help order. */
enum rpt_export {
	RPT_EXPORT_FOLDED,	/* stacks.folded: "comm;root;...;leaf count" per line */
	RPT_EXPORT_FLAMEGRAPH,	/* flamegraph.svg: self-contained, click to zoom, search */
	RPT_EXPORT_PERFETTO,	/* trace.json: Chrome/Perfetto trace, a track per thread */
	RPT_EXPORT_HTML,	/* report.html: every table, flame graph and timeline, one file */
	RPT_EXPORT_SQLITE,	/* report.db: SQLite in the schema of perf's exporter */
	RPT_EXPORT_PPROF,	/* profile.pb.gz: Go's pprof (profile.proto, gzip) */
	RPT_EXPORT_WALL_FOLDED, /* stacks-wall.folded: on- + off-CPU ns by stack */
	RPT_EXPORT_WALL_FLAMEGRAPH, /* flamegraph-wall.svg: the same as a flame graph */
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
/* A job's page (kind "job"): its report.csv's text, and the MPI timeline of @nranks
 * ranks' calls (borrowed; a rank without events says why), a track per rank on one time
 * line as the job's trace.json has them. 0 or -errno. */
int rpt_export_html_job(FILE *f, const char *title, const char *csv, size_t len,
			const struct rpt_mpi_rank *ranks, size_t nranks);

#endif
