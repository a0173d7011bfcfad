/* SPDX-License-Identifier: MIT */
/*
 * lib/session: perf pipe files written by other tools (foreign.c, record_meta.c),
 * included by session/session.h (the module's public header; include that one).
 *
 * `perf record -o - > FILE` and `perf inject -o - > FILE` write what samples.data holds
 * (magic PERFILE2, header size 16, HEADER_ATTR records, kernel records) plus perf's own
 * metadata records: EVENT_UPDATE (an event's name), HEADER_FEATURE (host, kernel, CPUs,
 * command line, EVENT_DESC: every event's attr and name) and, from old perf,
 * HEADER_EVENT_TYPE. Without a session.ini, the session's facts are synthesized from the
 * file itself (ses_foreign_info). Everything here is untrusted input, read as record.c
 * reads records: bounded cursors, no alignment assumed, counts checked before use.
 */
#ifndef UPROF_SESSION_FOREIGN_H
#define UPROF_SESSION_FOREIGN_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* struct ses_info, ses_event and ses_sample: session.h, which includes this after them */

/* perf's pipe-mode metadata record types (tools/lib/perf/include/perf/event.h) */
#define SES_RECORD_HEADER_EVENT_TYPE 65
#define SES_RECORD_EVENT_UPDATE 78
#define SES_RECORD_HEADER_FEATURE 80
#define SES_RECORD_COMPRESSED 81 /* zstd frames of records: perf record -z */
#define SES_RECORD_COMPRESSED2 83
#define SES_EVENT_UPDATE_NAME 2 /* PERF_EVENT_UPDATE__NAME */

/* HEADER_FEATURE ids (tools/perf/util/header.h, HEADER_*) this reader uses */
enum ses_feature_id {
	SES_FEAT_HOSTNAME = 3,
	SES_FEAT_OSRELEASE = 4,
	SES_FEAT_ARCH = 6,
	SES_FEAT_NRCPUS = 7,
	SES_FEAT_CPUDESC = 8,
	SES_FEAT_CMDLINE = 11,
	SES_FEAT_EVENT_DESC = 12,
};

/* What a file's first bytes say it is. */
enum ses_perf_kind {
	SES_PERF_OTHER,	    /* not a perf file */
	SES_PERF_PIPE,	    /* PERFILE2, header size 16: what the reader reads */
	SES_PERF_FILE_MODE, /* PERFILE2 with a file header (perf.data): perf inject -o - */
};
enum ses_perf_kind ses_perf_kind_of(const void *buf, size_t len);

/* ---- the metadata records (record_meta.c), decoded as record.c decodes the others --- */

/* HEADER_EVENT_TYPE: tracepoint @event_id is named @name (into the record). */
struct ses_event_type {
	uint64_t event_id;
	const char *name;
	size_t name_len;
};
int ses_decode_event_type(const void *rec, size_t len, struct ses_event_type *t);

/* EVENT_UPDATE: @type says what it updates for the event of sample id @id; @name (into
 * the record, NUL-terminated within it) only for SES_EVENT_UPDATE_NAME, else NULL. */
struct ses_event_update {
	uint64_t type, id;
	const char *name;
	size_t name_len;
};
int ses_decode_event_update(const void *rec, size_t len, struct ses_event_update *u);

/* HEADER_FEATURE: feature @id and its @len bytes of data at @data (into the record). */
struct ses_feature {
	uint64_t id;
	const unsigned char *data;
	size_t len;
};
int ses_decode_feature(const void *rec, size_t len, struct ses_feature *f);

/* perf's string in feature data at *@off: a u32 length, then that many bytes holding a
 * NUL. 0 with @s (into the data) and its length up to the NUL, *@off past it; -EINVAL. */
int ses_feature_string(const struct ses_feature *f, size_t *off, const char **s, size_t *slen);

/* EVENT_DESC, one event at a time: start with @it zeroed; 1 with @d filled, 0 after the
 * last, -EINVAL for a malformed feature (counts capped by what the data can hold). */
struct ses_desc_iter {
	size_t off;
	uint32_t left, attr_size;
	bool started;
};
struct ses_event_desc {
	struct perf_event_attr attr; /* copied up to sizeof(attr); .size keeps the file's */
	const char *name;	     /* into the data */
	size_t name_len;
	const void *ids; /* @nids u64, unaligned: ses_sample_u64() */
	size_t nids;
};
int ses_event_desc_next(const struct ses_feature *f, struct ses_desc_iter *it,
			struct ses_event_desc *d);

/* ---- a foreign session (foreign.c) ---------------------------------------------------- */

/*
 * The session facts of the perf pipe stream at @buf (@len bytes, untrusted), as if
 * session.ini held them: one event per HEADER_ATTR that samples (perf's dummy tracking
 * event and attrs without a period or frequency are not events; at most SES_MAX_EVENTS,
 * *@skipped_attrs counts the rest (may be NULL)), named by EVENT_UPDATE, EVENT_DESC or
 * HEADER_EVENT_TYPE, else by ses_perf_event_name(); a cpu-clock or task-clock event is
 * CPU_TIME ("CPU_TIME (cpu-clock)"). Each event's @attr is its reader attr index;
 * @weighted when its samples carry PERF_SAMPLE_PERIOD (its @period is then 1: every
 * sample counts its own period), else @period is the attr's sample_period. pids: the
 * processes of the samples (first seen first), else those of COMM and FORK records;
 * start and end: the first and last sample time; host, kernel, arch, CPUs and the perf
 * command line from HEADER_FEATUREs; config "foreign", status complete; @info->samples
 * and lost_samples are what the file holds. @info->foreign is set.
 * 0; -EINVAL with @err ("offset N: what") when @buf is not a pipe stream or holds no
 * sampling event; -EOPNOTSUPP when it holds zstd-compressed records (perf record -z),
 * which this reader does not unpack; -ENOMEM.
 */
int ses_foreign_info(const void *buf, size_t len, struct ses_info *info, int *skipped_attrs,
		     char *err, size_t errlen);

/* perf's name of the event @a samples: software (cpu-clock, page-faults, ...), generic
 * hardware (cycles, instructions, ...), hardware cache (L1-dcache-load-misses, ...), raw
 * (r<hex>), tracepoint (tracepoint:<id>), else <type>:0x<config>; ":u" for user mode
 * only, ":k" for kernel mode only. Into @buf (@len bytes). */
void ses_perf_event_name(const struct perf_event_attr *a, char *buf, size_t len);

/* Is @a a CPU timer (software cpu-clock or task-clock: its period is nanoseconds)? */
bool ses_attr_is_timer(const struct perf_event_attr *a);

/* Is event @e the timer (CPU_TIME, or a foreign file's "CPU_TIME (cpu-clock)")? Its
 * values are seconds; every other event's are event counts. (Inline, as the next two:
 * lib/report's users need no more of lib/session for it.) */
static inline bool ses_event_is_timer(const struct ses_event *e)
{
	return !strcmp(e->name, "CPU_TIME") || !strncmp(e->name, "CPU_TIME (", 10);
}

/* What one tally unit of event @e is worth, in its own units (ns for a timer, events
 * otherwise): 1 when @e->weighted (each sample counts its own period), else @e->period
 * (each sample counts 1, standing for the interval). */
static inline uint64_t ses_event_unit(const struct ses_event *e)
{
	return e->weighted ? 1 : e->period;
}

/* What one sample @s of event @e adds to its tallies, in ses_event_unit()s: its own
 * period when @e->weighted, else 1. */
static inline uint64_t ses_sample_units(const struct ses_event *e, const struct ses_sample *s)
{
	return e->weighted ? s->period : 1;
}

/* The same in the event's own units (ns for a timer, events otherwise). */
static inline uint64_t ses_sample_weight(const struct ses_event *e, const struct ses_sample *s)
{
	return ses_sample_units(e, s) * ses_event_unit(e);
}

#endif
