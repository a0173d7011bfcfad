/* SPDX-License-Identifier: MIT */
/*
 * lib/report internal: a --trace os session (docs/DESIGN.md §12) fed to lib/ostrace's
 * model as samples.data is replayed (ostrace.c), and its report.csv sections
 * (ostrace_csv.c). r->os is NULL for a session without OST_FORMATS_FILE.
 */
#ifndef UPROF_REPORT_OSTRACE_H
#define UPROF_REPORT_OSTRACE_H

#include "report/internal.h"
#include "ostrace/ostrace.h"

struct rpt_os {
	struct ost_model *m;
	struct ost_formats *fm; /* the session's (owned), while there is a model */
	uint64_t last_time; /* the latest record fed: the end of an interrupted session */
	char note[320];	    /* "" or why the OS trace could not be read */
};

/* Before samples.data is read: OST_FORMATS_FILE read and parsed into r->os (none there:
 * r->os stays NULL; unreadable or malformed: r->os with a note and no model). 0 or
 * -ENOMEM. */
int rpt_os_load(struct rpt *r);
void rpt_os_free(struct rpt *r);
/* Is sample attr @attr one of the OS trace's tracepoints? */
bool rpt_os_owns(const struct rpt *r, const struct ses_reader *rd, int attr);
/* Replay's records, in time order: a tracepoint sample, a switch, a FORK/EXIT/COMM. */
int rpt_os_sample(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s);
int rpt_os_record(struct rpt *r, const struct ses_decoded *d, uint64_t time);
/* After the last record: the states summed to the session's end. */
void rpt_os_finish(struct rpt *r);

/* ostrace_csv.c: the OS trace's sections (nothing for a session without one). */
int rpt_os_write_csv(const struct rpt *r, FILE *f);
/* ostrace_funcs_csv.c: collect --func's sections (nothing without it). 0 or -ENOMEM. */
int rpt_os_write_funcs_csv(const struct rpt *r, FILE *f);

#endif
