/* SPDX-License-Identifier: MIT */
/*
 * openmp/<pid>.ompt: what the OMPT tool inside one process recorded (docs/DESIGN.md §9),
 * drained by collect from the process's control page. Included by session.h.
 *
 * A side-file container (container.c), magic "UPOMPT01", version 2.0 (1.0: the legacy
 * framing). Header fields (24 bytes in all): i32 pid, u16 impl (SES_OMPT_IMPL_*), u16
 * scope (SES_OMPT_SCOPE_*). Records:
 *   SES_OMPT_STRING   u32 id, u32 length, the bytes (no NUL)
 *   SES_OMPT_RECORD   u64 value, u32 tid, u16 kind, u16 how, u32 site, u32 slot
 *                     (kind: enum ses_ompt_kind; value is a CLOCK_MONOTONIC ns stamp for
 *                     BEGIN, END and the WAITs, else what the kind says)
 *   SES_OMPT_DROPPED  u64 records the process's ring dropped (cumulative: the last counts)
 * Unknown record types (counted), record kinds and fields are skipped, so later minors
 * can add them. A file cut short reads up to its last whole record (and says where).
 *
 * The codes are this file's own, fixed forever (collect translates the control page's):
 *   BEGIN/END  thread tid entered/left an implicit task of region site `site` as team
 *              member `slot`; how = nesting depth (0 outermost)
 *   WAIT_BEGIN/WAIT_END  (--openmp-scope full) a wait of kind how (SES_OMPT_WAIT_*) at
 *              site `site`: a barrier, taskwait, taskgroup or reduction at the region
 *              site, member `slot`; a MUTEX at the lock site (its SITE kind says lock,
 *              critical or ordered), slot 0, written with its end once the lock is
 *              acquired (a failed omp_test_lock has none). A wait paused to run an explicit task ends
 *              and begins again around it (uprof 0.3); one still open when its thread's
 *              implicit task ENDs ended there
 *   SITE       site `site` is the code address `value`, of construct how (SES_OMPT_SITE_*);
 *              sent when the site is first seen and again at the end
 *   VALUE      field how (SES_OMPT_F_*) of site `site` (0: the thread, or with slot 0
 *              the process) for thread tid, the tool's thread slot `slot`; times in ns
 *   RUNTIME    the runtime's OpenMP version is `value`, its version string is string
 *              `slot`
 * Target offload (added in uprof 0.3; an older reader skips these kinds), the records of
 * one op following each other on their tid:
 *   TARGET_BEGIN/TARGET_END  stamped: a target construct of kind how (SES_OMPT_TGT_*)
 *              at site `site` (a SITE of kind TARGET) on device `slot` (an int)
 *   DATA_BEGIN/DATA_END  stamped: a data op of type how (SES_OMPT_DATA_*) of site `site`,
 *              devices `slot` = (src + 1) | (dest + 1) << 16 (0: no device)
 *   DATA_BYTES the bytes `value` of the data op begun just before on tid (same fields)
 *   SUBMIT_BEGIN/SUBMIT_END  stamped: a kernel submit of site `site`, `slot` teams asked
 *   DEVICE     event how (SES_OMPT_DEV_*) of device `site` at CLOCK_MONOTONIC ns `value`
 *              (DEV_LOST: the count lost), `slot` a string (the type, the file loaded)
 *   DEV_BEGIN/DEV_END  a device trace record of type how (SES_OMPT_DEVREC_*) on device
 *              `site`, host op `slot` (low 32 bits), its begin/end as CLOCK_MONOTONIC ns
 *              `value` translated from the device's clock (0: not translatable)
 *   DEV_BYTES  its bytes (a data op) or granted teams (a kernel), same fields
 */
#ifndef UPROF_SESSION_OPENMP_H
#define UPROF_SESSION_OPENMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_OMPT_DIR "openmp"
#define SES_OMPT_MAGIC "UPOMPT01"
#define SES_OMPT_STRING 1
#define SES_OMPT_RECORD 2
#define SES_OMPT_DROPPED 3
#define SES_OMPT_MAX_STRING 4096

enum { SES_OMPT_IMPL_OMPT = 1, SES_OMPT_IMPL_OMPLIB = 2 };
enum { SES_OMPT_SCOPE_BASIC = 1, SES_OMPT_SCOPE_FULL = 2 };

enum ses_ompt_kind {
	SES_OMPT_BEGIN = 1,
	SES_OMPT_END = 2,
	SES_OMPT_WAIT_BEGIN = 3,
	SES_OMPT_WAIT_END = 4,
	SES_OMPT_SITE = 5,
	SES_OMPT_VALUE = 6,
	SES_OMPT_RUNTIME = 7,
	SES_OMPT_TARGET_BEGIN = 8,
	SES_OMPT_TARGET_END = 9,
	SES_OMPT_DATA_BEGIN = 10,
	SES_OMPT_DATA_END = 11,
	SES_OMPT_DATA_BYTES = 12,
	SES_OMPT_SUBMIT_BEGIN = 13,
	SES_OMPT_SUBMIT_END = 14,
	SES_OMPT_DEVICE = 15,
	SES_OMPT_DEV_BEGIN = 16,
	SES_OMPT_DEV_END = 17,
	SES_OMPT_DEV_BYTES = 18,
};
enum ses_ompt_target_kind {
	SES_OMPT_TGT_REGION = 1,
	SES_OMPT_TGT_ENTER_DATA = 2,
	SES_OMPT_TGT_EXIT_DATA = 3,
	SES_OMPT_TGT_UPDATE = 4,
	SES_OMPT_TGT_NOWAIT = 8, /* or'ed: the nowait form */
};
enum ses_ompt_data_op {
	SES_OMPT_DATA_ALLOC = 1,
	SES_OMPT_DATA_TO = 2,
	SES_OMPT_DATA_FROM = 3,
	SES_OMPT_DATA_DELETE = 4,
	SES_OMPT_DATA_ASSOCIATE = 5,
	SES_OMPT_DATA_DISASSOCIATE = 6,
	SES_OMPT_DATA_MAX = 7,
};
enum ses_ompt_dev_event {
	SES_OMPT_DEV_INIT = 1,
	SES_OMPT_DEV_FINI = 2,
	SES_OMPT_DEV_LOAD = 3,
	SES_OMPT_DEV_UNLOAD = 4,
	SES_OMPT_DEV_NO_LOOKUP = 5,
	SES_OMPT_DEV_NO_ENTRY = 6,
	SES_OMPT_DEV_REFUSED = 7,
	SES_OMPT_DEV_TRACING = 8, /* value: the anchor of the device's translated times */
	SES_OMPT_DEV_NO_TIME = 9,
	SES_OMPT_DEV_LOST = 10,
};
enum ses_ompt_devrec {
	SES_OMPT_DEVREC_TARGET = 1,
	SES_OMPT_DEVREC_DATA_OP = 2,
	SES_OMPT_DEVREC_KERNEL = 3,
	SES_OMPT_DEVREC_OTHER = 4,
};
enum ses_ompt_site_kind {
	SES_OMPT_SITE_PARALLEL = 1,
	SES_OMPT_SITE_LOCK = 2,
	SES_OMPT_SITE_NEST_LOCK = 3,
	SES_OMPT_SITE_CRITICAL = 4,
	SES_OMPT_SITE_ORDERED = 5,
	SES_OMPT_SITE_ATOMIC = 6,
	SES_OMPT_SITE_TARGET = 7,
	SES_OMPT_SITE_LOOP = 8,	    /* a worksharing loop (its code: SES_OMPT_SITE_LOOP_KEY) */
	SES_OMPT_SITE_TASKLOOP = 9, /* a taskloop (likewise) */
};
/* A LOOP or TASKLOOP site's code: the address in the low 48 bits (SES_OMPT_SITE_ADDR_MASK),
 * bit 63 set (the tool keys loops apart from regions, whose return address may be the
 * same: gcc's combined parallel loop), a TASKLOOP's region site id in bits 48..62 (libomp
 * gives every taskloop one return address, inside itself). */
#define SES_OMPT_SITE_LOOP_KEY (1ULL << 63)
#define SES_OMPT_SITE_ADDR_MASK ((1ULL << 48) - 1)
enum ses_ompt_wait {
	SES_OMPT_WAIT_BARRIER_IMPLICIT = 1,
	SES_OMPT_WAIT_BARRIER_EXPLICIT = 2,
	SES_OMPT_WAIT_TASKWAIT = 3,
	SES_OMPT_WAIT_TASKGROUP = 4,
	SES_OMPT_WAIT_OTHER = 5,
	SES_OMPT_WAIT_MUTEX = 6,
	/* uprof 0.3: split from BARRIER_IMPLICIT (which keeps the parallel region's closing
	 * barrier and barriers the runtime does not place) and OTHER */
	SES_OMPT_WAIT_BARRIER_WORKSHARE = 7,
	SES_OMPT_WAIT_BARRIER_IMPLEMENTATION = 8,
	SES_OMPT_WAIT_REDUCTION = 9,
};
/* Fields of VALUE records (lib/instrument/ompt.c says how each is measured). */
enum ses_ompt_field {
	SES_OMPT_F_ITASKS = 1,
	SES_OMPT_F_SPAN = 2,
	SES_OMPT_F_JOINED = 3,
	SES_OMPT_F_SYNC = 4,
	SES_OMPT_F_BARRIER = 5,
	SES_OMPT_F_TASKWAIT = 6,
	SES_OMPT_F_TASKGROUP = 7,
	SES_OMPT_F_LOCKWAIT = 8,
	SES_OMPT_F_TASKS = 9,
	SES_OMPT_F_TASK_TIME = 10,
	SES_OMPT_F_TEAM_INDEX = 11,
	/* per region: its loops and taskloops, each instance once (an older reader ignores
	 * these fields and the LOOP and TASKLOOP sites) */
	SES_OMPT_F_WS_LOOPS = 12,
	SES_OMPT_F_WS_ITERS = 13,
	SES_OMPT_F_WS_SCHEDS = 14, /* bit n: a loop of ompt_work_t n ran */
	SES_OMPT_F_REGIONS = 16,
	SES_OMPT_F_ELAPSED = 17,
	SES_OMPT_F_TEAM_SUM = 18,
	SES_OMPT_F_IDLE = 19,
	SES_OMPT_F_LOOPS = 20,
	SES_OMPT_F_LOOP_ITERS = 21,
	SES_OMPT_F_LOOP_KIND = 22,
	SES_OMPT_F_NEST_LEVEL = 23,
	SES_OMPT_F_NESTED = 24,	  /* ns of the implicit tasks in regions encountered in them */
	SES_OMPT_F_ENCLOSED = 25, /* SES_OMPT_ENCLOSED_* bits, the parent's site in bits 0..31 */
	SES_OMPT_F_TEAM_MAX = 26,
	SES_OMPT_F_TEAM_MIN = 27,
	/* per LOOP or TASKLOOP site and thread */
	SES_OMPT_F_LOOP_INSTANCES = 28,
	SES_OMPT_F_LOOP_COUNT = 29,
	SES_OMPT_F_LOOP_SCHEDS = 30, /* bit n: an instance of ompt_work_t n */
	SES_OMPT_F_LOOP_REGION = 31, /* the region site it ran in (the last) */
	SES_OMPT_F_ACQUIRES = 32,
	SES_OMPT_F_ACQ_WAIT = 33,
	/* per (region site, thread): waits by type, ns (uprof 0.3). SYNC is the barrier
	 * fields, TASKWAIT, TASKGROUP, REDUCTION and waits of no known kind; BARRIER the four
	 * barrier fields; LOCKWAIT the three mutex fields and atomic waits. */
	SES_OMPT_F_WAIT_IMPLICIT = 34,
	SES_OMPT_F_WAIT_WORKSHARE = 35,
	SES_OMPT_F_WAIT_EXPLICIT = 36,
	SES_OMPT_F_WAIT_IMPLEMENTATION = 37,
	SES_OMPT_F_WAIT_REDUCTION = 38,
	SES_OMPT_F_WAIT_LOCK = 39,
	SES_OMPT_F_WAIT_CRITICAL = 40,
	SES_OMPT_F_WAIT_ORDERED = 41,
	SES_OMPT_F_THREAD_LIFE = 48,
	SES_OMPT_F_THREAD_IN = 49,
	SES_OMPT_F_THREAD_TYPE = 50,
	SES_OMPT_F_CALLBACKS = 56,
	SES_OMPT_F_LOST_THREADS = 57,
	SES_OMPT_F_LOST_SITES = 58,
	SES_OMPT_F_LOST_RECORDS = 59,
	SES_OMPT_F_SCOPE = 60,
	SES_OMPT_F_CUT_EXIT = 61, /* instances exit() ended (counted in REGIONS) */
	SES_OMPT_F_MAX = 64,
};

#define SES_OMPT_ENCLOSED_NESTED (1ULL << 32) /* begun inside another region's task */
#define SES_OMPT_ENCLOSED_TEAMS (1ULL << 33)  /* the site is a teams construct */

struct ses_ompt_record {
	uint64_t value;
	uint32_t tid;
	uint16_t kind;
	uint16_t how;
	uint32_t site;
	uint32_t slot;
};

struct ses_ompt_writer;

/* Create openmp/<pid>.ompt beneath the session's fd @dfd for a run traced with @impl and
 * @scope. NULL, errno set. */
struct ses_ompt_writer *ses_ompt_writer_open(int dfd, int pid, uint16_t impl, uint16_t scope);
int ses_ompt_write_string(struct ses_ompt_writer *w, uint32_t id, const char *s, size_t len);
int ses_ompt_write_record(struct ses_ompt_writer *w, const struct ses_ompt_record *rec);
int ses_ompt_write_dropped(struct ses_ompt_writer *w, uint64_t records);
int ses_ompt_writer_close(struct ses_ompt_writer *w); /* NULL is fine */

/* A parsed .ompt file. Records are kept in file order, by kind. */
struct ses_ompt_site {
	uint32_t id;
	uint16_t kind; /* enum ses_ompt_site_kind */
	uint64_t code; /* the construct's return address in the process */
};
struct ses_ompt {
	int pid;
	uint16_t impl, scope;
	bool has_runtime;
	uint64_t omp_version;
	char runtime[128];	     /* the runtime's version string ("" if none came) */
	struct ses_ompt_site *sites; /* the last definition of each id wins */
	size_t nsites;
	struct ses_ompt_record *values; /* VALUE records */
	size_t nvalues;
	struct ses_ompt_record *events; /* BEGIN, END, WAIT_BEGIN, WAIT_END */
	size_t nevents;
	struct ses_ompt_record *targets; /* TARGET_BEGIN .. DEV_BYTES, in file order */
	size_t ntargets;
	uint64_t dropped_records;
	uint64_t damaged_at; /* offset of the first unreadable byte, 0 = none */
	const char *damage;
	uint64_t unknown_records; /* of a newer writer's types: skipped */
	/* private */
	size_t capsites, capvalues, capevents, captargets;
	uint32_t runtime_id;
	struct ses_ompt_str *strs;
	size_t nstrs;
};

/* Parse @len bytes at @buf into @o (zeroed first). -EINVAL / -EPROTO with @err naming
 * the offset for a bad header; damage after the header only sets o->damaged_at.
 * -ENOMEM. Free with ses_ompt_release(). */
int ses_ompt_parse(const void *buf, size_t len, struct ses_ompt *o, char *err, size_t errlen);
void ses_ompt_release(struct ses_ompt *o);
/* The string @id of the file (its last definition), NUL-terminated, or NULL; lives as
 * long as @o. Only the first SES_OMPT_MAX_STRINGS strings are kept. */
const char *ses_ompt_string(const struct ses_ompt *o, uint32_t id);
#define SES_OMPT_MAX_STRINGS 1024

#endif
