/* SPDX-License-Identifier: MIT */
/* lib/report internal: what the export_*.c files share. */
#ifndef UPROF_REPORT_EXPORT_H
#define UPROF_REPORT_EXPORT_H

#include "report/stacks.h"

/* A growing string: {0} is empty; free(b.s) when done. */
struct rpt_sbuf {
	char *s;
	size_t len, cap;
};

int rpt_sbuf_add(struct rpt_sbuf *b, const char *s, size_t n); /* 0 or -ENOMEM */
int rpt_sbuf_frame(struct rpt_sbuf *b, const char *name);     /* ';' and newlines replaced */

/* The root frame of process @proc in folded stacks and the flame graph: its comm. */
const char *rpt_export_comm(const struct rpt *r, uint32_t proc);

enum rpt_escape { RPT_ESC_XML, RPT_ESC_JSON, RPT_ESC_JSON_FRAME, RPT_ESC_CSV, RPT_ESC_TEXT };
/* @s escaped for an XML attribute/text, a JSON string, a frame in a JSON string of
 * ';'-separated frames (';' becomes ':', as in folded stacks), a quoted CSV cell
 * (without the quotes) or plain text on one line (a CSV section title: quotes kept);
 * bytes that are not valid UTF-8 and control characters become U+FFFD / '?' (CSV and
 * text: a space for line breaks) so the output always parses, also as UTF-8. */
void rpt_put_escaped(FILE *f, const char *s, enum rpt_escape how);
/* @s as one quoted CSV cell (quotes around RPT_ESC_CSV's escaping); NULL: "". */
void rpt_put_quoted(FILE *f, const char *s);

/* The writers the exporter table (export.c) registers. */
int rpt_export_folded(const struct rpt *r, FILE *f);
int rpt_export_flamegraph(const struct rpt *r, FILE *f);
int rpt_export_perfetto(const struct rpt *r, FILE *f);

#endif
