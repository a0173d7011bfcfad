/* SPDX-License-Identifier: MIT */
/* lib/export internals: what the export_*.c files share. */
#ifndef UPROF_EXPORT_INTERNAL_H
#define UPROF_EXPORT_INTERNAL_H

#include "export/export.h"
#include "util/util.h"

/* Append @name to @b as a folded frame: ';' and line breaks replaced. 0 or -ENOMEM. */
int rpt_sbuf_frame(struct util_sbuf *b, const char *name);

/* The root frame of process @proc in folded stacks and the flame graph: its comm. */
const char *rpt_export_comm(const struct rpt *r, uint32_t proc);

/* The writers the exporter table (export.c) registers; rpt_stacks_ready() was called. */
int rpt_export_folded(const struct rpt *r, FILE *f);
int rpt_export_flamegraph(const struct rpt *r, FILE *f);
int rpt_export_perfetto(const struct rpt *r, FILE *f);

#endif
