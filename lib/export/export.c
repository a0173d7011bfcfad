// SPDX-License-Identifier: MIT
/*
 * The exporters, registered in one table: what --export accepts, the file each writes,
 * how report names it, its --help line, and the function that writes it. A new export
 * is one enum entry (export.h) and one row here; report's option parsing and --help
 * follow from the table.
 */
#include "export/internal.h"

#include <errno.h>
#include <string.h>

static const struct rpt_exporter exporters[] = {
	[RPT_EXPORT_FOLDED] = { "folded", "stacks.folded", "folded stacks",
				"FlameGraph, speedscope, inferno", rpt_export_folded },
	[RPT_EXPORT_FLAMEGRAPH] = { "flamegraph", "flamegraph.svg", "flame graph",
				    "zoom and search in a browser", rpt_export_flamegraph },
	[RPT_EXPORT_PERFETTO] = { "perfetto", "trace.json", "trace",
				  "ui.perfetto.dev, chrome://tracing", rpt_export_perfetto },
	[RPT_EXPORT_HTML] = { "html", "report.html", "HTML report",
			      "every table, flame graph, timeline; one file", rpt_export_html },
	[RPT_EXPORT_SQLITE] = { "sqlite", "report.db", "SQLite database",
				"perf's export-to-sqlite.py schema + uprof's tables; sqlite3", NULL,
				rpt_export_sqlite },
	[RPT_EXPORT_PPROF] = { "pprof", "profile.pb.gz", "pprof profile",
			       "go tool pprof, Pyroscope, Grafana, Parca", NULL, rpt_export_pprof },
	/* export_wall.c: the samples and the OS trace's off-CPU time, in nanoseconds */
	[RPT_EXPORT_WALL_FOLDED] = { "wallfolded", "stacks-wall.folded", "wall-clock folded stacks",
				     "on-CPU + off-CPU ns by stack (--trace os)",
				     rpt_export_wall_folded },
	[RPT_EXPORT_WALL_FLAMEGRAPH] = { "wallflame", "flamegraph-wall.svg",
					 "wall-clock flame graph",
					 "on- and off-CPU time in one flame graph (--trace os)",
					 rpt_export_wall_flamegraph },
};

_Static_assert(sizeof(exporters) / sizeof(exporters[0]) == RPT_EXPORT_COUNT,
	       "one row per enum rpt_export");

const struct rpt_exporter *rpt_exporter(int e)
{
	return e >= 0 && e < RPT_EXPORT_COUNT ? &exporters[e] : NULL;
}

int rpt_export_parse(const char *name)
{
	for (int i = 0; i < RPT_EXPORT_COUNT; i++)
		if (!strcmp(name, exporters[i].name))
			return i;
	return -1;
}

bool rpt_export_walks(int e)
{
	const struct rpt_exporter *x = rpt_exporter(e);

	return x && x->write_walk;
}

const char *rpt_export_filename(enum rpt_export e)
{
	const struct rpt_exporter *x = rpt_exporter((int)e);

	return x ? x->file : "export";
}

int rpt_export(struct rpt *r, enum rpt_export e, FILE *f)
{
	const struct rpt_exporter *x = rpt_exporter((int)e);
	int ret;

	if (!x)
		return -EINVAL;
	ret = rpt_stacks_ready(r);
	if (ret)
		return ret;
	ret = x->write ? x->write(r, f) : x->write_walk(r, f);
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	return ret;
}
