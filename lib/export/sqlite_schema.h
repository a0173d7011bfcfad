/* SPDX-License-Identifier: MIT */
/* report.db's schema (export_sqlite_schema.c), shared by its writer and its unit test. */
#ifndef UPROF_EXPORT_SQLITE_SCHEMA_H
#define UPROF_EXPORT_SQLITE_SCHEMA_H

/* The tables, views and the "unknown" rows 0, as one script (inside the transaction). */
extern const char rpt_sqlite_schema[];
/* The indexes, made after the bulk inserts (cheaper than keeping them up to date). */
extern const char rpt_sqlite_indexes[];

#endif
