/* SPDX-License-Identifier: MIT */
/*
 * lib/session: the session directory, the only contract between collect and report
 * (docs/DESIGN.md §4).
 *
 *   session.ini   key = value lines in [sections]; written at start, rewritten at the end
 *   samples.data  perf.data pipe-mode stream: "PERFILE2", header size 16, then records
 *
 * Everything read back is untrusted: parsers take (buf, len), never assume NUL
 * termination, check each length against what remains and report the file offset of the
 * first bad byte. Functions return 0 or -errno; nothing here prints or exits.
 */
#ifndef UPROF_SESSION_H
#define UPROF_SESSION_H

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "session/container.h"	/* the side files' framing */
#include "session/mpi.h"	/* mpi/<pid>.mpi, shared with lib/mpi's interposer */
#include "session/mpi_events.h" /* mpi/<pid>.mpiev, the same */
#include "session/openmp.h"	/* openmp/<pid>.ompt */
#include "session/leafstack.h"	/* leafstack.data */

#define SES_FORMAT_VERSION 1
#define SES_DATA_FILE "samples.data"
#define SES_INFO_FILE "session.ini"
#define SES_MAX_EVENTS 16
#define SES_MAX_PIDS 64
#define SES_STR 512 /* every string field is cut to this many bytes, NUL included */

/* perf pipe-mode "user" record types (tools/perf/util/event.h) */
#define SES_RECORD_HEADER_ATTR 64
/* perf's tracepoint formats (--trace os): the record (12 bytes: header, u32 size), then
 * size bytes of tracing data; the reader passes over them */
#define SES_RECORD_HEADER_TRACING_DATA 66
#define SES_RECORD_FINISHED_ROUND 68

enum ses_status { SES_STATUS_RUNNING, SES_STATUS_COMPLETE, SES_STATUS_INTERRUPTED };

struct ses_event {
	char name[64];	 /* CPU_TIME, or the event's own name */
	uint32_t type;	 /* perf_event_attr.type */
	uint64_t config; /* perf_event_attr.config */
	uint64_t period; /* sample_period: ns for timer events, events otherwise */
	bool exclude_kernel;
	bool exclude_user;
	/* each sample counts its own period (ses_event_unit, ses_sample_units): a foreign
	 * file's events with PERF_SAMPLE_PERIOD (@period is then 1), and a session's events
	 * whose kernel period is not the interval (software events but the clocks,
	 * tracepoints, frequency sampling), set by report (@period stays the interval);
	 * session.ini holds neither this nor @attr, the reader attr index of a foreign event */
	bool weighted;
	int attr;
};

/* A derived metric: @formula over event names (the part of an event's name before
 * " ("), numbers, + - * / and parentheses; lib/metric evaluates them (report does). */
#define SES_MAX_METRICS 32
struct ses_metric {
	char name[64];
	char formula[256];
};

/* A [tool.N] section: a tool of `collect --tool` (lib/tool) and what it asked collect for
 * (what it got is the session's own [callgraph] and [event.N]). */
#define SES_MAX_TOOLS 8
struct ses_tool {
	char path[SES_STR];
	char name[64];
	char stacks[8];	      /* "", "fp", "dwarf" */
	char events[SES_STR]; /* its event specs, "; " between them */
};

/* Everything session.ini holds. Plain data: copy freely. */
struct ses_info {
	int format_version;
	char uprof_version[32];
	char config[64];       /* tbp, hotspots, ... */
	char label[32];	       /* TBP, Hotspots, ... (the directory label) */
	char description[128]; /* config's one-line description */
	char command[SES_STR]; /* the whole uprof command line */
	char target_path[SES_STR];
	char target_args[SES_STR];
	char working_dir[SES_STR];
	char host[128];
	char cpu_model[128];
	int ncpus;
	char cpu_mask[256]; /* -c: the CPUs sampled ("" = all) */
	char kernel[128];
	char os[128];
	char arch[16]; /* lib/arch's name ("x86_64"); "" in sessions written before
				 * it was recorded: those are x86_64's */
	int npids;
	int pids[SES_MAX_PIDS];
	int64_t start_epoch_ns, end_epoch_ns; /* CLOCK_REALTIME */
	int64_t start_mono_ns, end_mono_ns;   /* CLOCK_MONOTONIC, the samples' clock */
	int nevents;
	struct ses_event events[SES_MAX_EVENTS];
	int nmetrics;
	struct ses_metric metrics[SES_MAX_METRICS];
	int ntools;
	struct ses_tool tools[SES_MAX_TOOLS];
	int64_t pause_total_ns;
	int64_t pause_unknown_ns;    /* time in pauses.csv's "unknown" rows */
	uint64_t lost_pause_records; /* pause/resume records the targets' rings dropped */
	uint64_t pauses_max;	     /* the most rows collect writes to pauses.csv */
	uint64_t pauses_folded;	     /* rows past it, folded into one unknown row */
	uint64_t samples;
	uint64_t lost_samples;
	uint64_t lost_task_records;
	int64_t target_cpu_ns; /* user+sys CPU time of the target and reaped children */
	/* target_cpu_ns split by mode, in the kernel's proportion of user to system time
	 * (rusage, /proc's ticks); both 0: not recorded (sessions before it was) */
	int64_t target_user_ns, target_sys_ns;
	/* the target's context switches (wait4's rusage, with its reaped children), when it
	 * was launched and ended; 0: not recorded. Each costs a cpu-clock timer the switch's
	 * CPU time (the job report's low-rate note, lib/job/job_rates.c) */
	uint64_t target_voluntary_switches, target_involuntary_switches;
	int exit_code;		    /* -1 unknown */
	int exit_signal;	    /* 0 none */
	int orphans;		    /* processes the target started and left running when it
				 * exited (daemons): not profiled after that */
	char not_profiled[SES_STR]; /* why the kernel kept the target from this user's
				     * events (a set-ID exec, an unreadable file), or "" */
	int collector_pid; /* uprof collect's pid, to tell a live session from a dead one */
	bool attached;	   /* -p/--tid: attached to running processes */
	bool system_wide;  /* -a: every process on every CPU */
	enum ses_status status;
	int stop_signal; /* the signal (SIGINT, SIGTERM, SIGHUP) that ended collect, 0 none;
			  * with status interrupted it cut the profile short */
	/* --limit-data: the size samples.data was allowed (0: no limit), and whether it got
	 * there, which ended the collection as -d's end does (the status stays complete) */
	uint64_t limit_data_bytes;
	bool limit_data_reached;
	/* [callgraph]: call stacks collected with the samples ("" or "none": no stacks) */
	char callgraph_mode[16];	/* "fp" (kernel frame-pointer walk) or "dwarf" */
	uint32_t callgraph_stack_bytes; /* dwarf: user stack bytes copied per sample */
	uint32_t callgraph_leaf_bytes;	/* fp: stack bytes per sample in leafstack.data (0:
					  * none, sessions before it or turned off) */
	int callgraph_depth;		/* frames kept per stack (0: the kernel's default) */
	char callgraph_scope[8];	/* "user", "kernel" or "all" */
	bool foreign; /* synthesized from a perf pipe file (ses_foreign_info), no session.ini */
	/* [pages]: the control pages of instrumented processes (docs/DESIGN.md §5) */
	uint64_t pages_handed;		/* taken over collect's channel: no name */
	uint64_t pages_named;		/* taken by their /dev/shm name (the fallback) */
	uint64_t pages_squatted;	/* a process of the run whose name another uid held */
	uint64_t pages_refused;		/* a page of the run not read (link, size, layout...) */
	uint64_t pages_not_followed;	/* processes of the run whose page or data was not
					 * kept (no descriptor, map failure) */
	uint64_t pages_channel_refused; /* handed pages of processes not of this run */
	uint64_t pages_stale_removed;	/* pages of dead processes of ours removed at start */
	char pages_pids[128];		/* the first of those squatted, refused, not followed */
};

/* ---- session.ini ---------------------------------------------------------------- */

/* Write @info as session.ini beneath the session's fd @dfd, atomically (a new temp file,
 * renameat over the old); synced to disk once the status is no longer running. 0 or
 * -errno. */
int ses_info_write(int dfd, const struct ses_info *info);

/*
 * Parse session.ini text @buf of @len bytes into @info (zeroed first). Unknown keys are
 * skipped so newer writers stay readable. On a malformed line returns -EINVAL and puts
 * "line N: what" into @err (@errlen bytes, may be 0).
 */
int ses_info_parse(const char *buf, size_t len, struct ses_info *info, char *err, size_t errlen);

/* Read and parse @dir/session.ini. -ENOENT when there is none (not a session),
 * -SES_ENOTREG when it is not a regular file; @err says what is wrong, the caller names
 * the file. */
int ses_info_read(const char *dir, struct ses_info *info, char *err, size_t errlen);
/* The same beneath the session directory fd @dfd (borrowed): session.ini, no symlink
 * followed (docs/DESIGN.md §4). */
int ses_info_read_at(int dfd, struct ses_info *info, char *err, size_t errlen);

const char *ses_status_name(enum ses_status s);

/* ---- samples.data writer --------------------------------------------------------- */

struct ses_writer;

/* Create samples.data (a new file) beneath the session's fd @dfd and write the pipe
 * header. Returns NULL with errno set (EEXIST when the name is taken).
 * Until the first write error or ses_writer_close(), the writer keeps 64 KiB of @dfd's
 * file system in reserve (an unlinked file), so that the files written after a full
 * disk stopped samples.data (session.ini, pauses.csv) still fit. */
struct ses_writer *ses_writer_open(int dfd);

/* Append a PERF_RECORD_HEADER_ATTR for @attr with its sample ids @ids (borrowed). */
int ses_writer_add_attr(struct ses_writer *w, const struct perf_event_attr *attr,
			const uint64_t *ids, size_t nids);

/* Append a FINISHED_ROUND: everything before it may be sorted by time (perf's reader
 * does; collect writes one after each round of draining every ring). */
int ses_writer_finished_round(struct ses_writer *w);

/* Append @len bytes of whole kernel records (borrowed), buffered. 0 or -errno. */
int ses_writer_write(struct ses_writer *w, const void *records, size_t len);

/* Push buffered bytes to the file (so a killed profiler loses at most one buffer). */
int ses_writer_flush(struct ses_writer *w);

uint64_t ses_writer_bytes(const struct ses_writer *w);

/* Flush, close and free. NULL is fine. Returns the first error seen, or 0. */
int ses_writer_close(struct ses_writer *w);

/* ---- samples.data reader --------------------------------------------------------- */

struct ses_reader;

/* The records of samples.data and their codec. */
#include "session/record.h"

/*
 * Open a samples.data image of @len bytes at @buf (borrowed: must outlive the reader).
 * Checks the pipe header; -EINVAL with @err naming the offset if it is not one.
 */
int ses_reader_open_mem(struct ses_reader **out, const void *buf, size_t len, char *err,
			size_t errlen);

/* Map @path and open it; the reader owns the mapping. */
int ses_reader_open_file(struct ses_reader **out, const char *path, char *err, size_t errlen);
/* The same for @name beneath the session directory fd @dfd, no symlink followed
 * (ses_file_map_at; AT_FDCWD: as ses_reader_open_file). */
int ses_reader_open_at(struct ses_reader **out, int dfd, const char *name, char *err,
		       size_t errlen);
/* The bytes of the image read. */
size_t ses_reader_size(const struct ses_reader *r);

void ses_reader_free(struct ses_reader *r);

/* Back to the first record, as just opened (what was learnt of the attrs is forgotten and
 * learnt again from the records): a second pass over the same mapping, so that a reader
 * of a big file need not hold what the first pass found (lib/report's load.c). */
void ses_reader_rewind(struct ses_reader *r);

/*
 * Next record into @rec: 1 when there is one, 0 at the end. A record that runs past the
 * end (a killed profiler) or has an impossible size ends the stream: 0 is returned and
 * ses_reader_damage() says where. HEADER_ATTR records are consumed here (see
 * ses_reader_attr) and also returned.
 */
int ses_reader_next(struct ses_reader *r, struct ses_record *rec);

/* Offset of the first unreadable byte, or 0 if the stream ended cleanly; @why gets the
 * reason. */
uint64_t ses_reader_damage(const struct ses_reader *r, const char **why);

size_t ses_reader_nattrs(const struct ses_reader *r);

/*
 * The caller no longer needs the file's bytes in [@from, @to) (less a few MiB before @to,
 * kept for records read just before): a mapped file's pages there are handed back to the
 * kernel, in pieces of several MiB. Records there stay readable (read back from the file
 * when touched). Returns where the caller's next call should start: the end of what was
 * handed back, or @from when nothing was. ses_reader_next() does this for its own cursor.
 */
size_t ses_reader_hand_back(struct ses_reader *r, size_t from, size_t to);

/* The file offset of @p, a pointer into a record the reader returned; SIZE_MAX if it is
 * not in the file. */
size_t ses_reader_offset_of(const struct ses_reader *r, const void *p);
const struct perf_event_attr *ses_reader_attr(const struct ses_reader *r, size_t i);
/* The index of the attr whose HEADER_ATTR names sample id @id, or -1. */
int ses_reader_attr_of_id(const struct ses_reader *r, uint64_t id);

/*
 * The attr whose layout @rec has (its event's own attr), and its index in @idx (may be
 * NULL); NULL when there is none. Found from the record's id through a hash of every
 * HEADER_ATTR's ids: for a SAMPLE the id at the position all attrs give it from the
 * start (IDENTIFIER first, or ID after IP/TID/TIME/ADDR), for other records at the
 * position all attrs give it from the end of the trailer (IDENTIFIER last, or ID before
 * STREAM_ID/CPU). When every attr has the same layout no id is read. When the attrs
 * disagree on where the id is (no IDENTIFIER, different layouts), the first attr's layout
 * is used, as perf does (evlist__first); a record whose id is in no attr gets NULL.
 */
const struct perf_event_attr *ses_reader_attr_of(const struct ses_reader *r,
						 const struct ses_record *rec, int *idx);

/* Decode @rec with its own attr (ses_reader_attr_of); samples get their attr_index.
 * As ses_decode(); -EINVAL also when no attr claims a sample. */
int ses_reader_decode(const struct ses_reader *r, const struct ses_record *rec,
		      struct ses_decoded *d);

/* Parse a PERF_RECORD_SAMPLE. -EINVAL if it does not fit its attr's sample_type. */
int ses_reader_sample(const struct ses_reader *r, const struct ses_record *rec,
		      struct ses_sample *s);

/* The sample_id_all trailer of a non-sample record. -EINVAL if it does not fit. */
int ses_reader_sample_id(const struct ses_reader *r, const struct ses_record *rec,
			 struct ses_sample_id *id);

/* ---- instrument/<pid>.tasks: records drained from one instrumented process ---------
 *
 * A side-file container (container.c), magic "UPTASKS1", version 2.0 (1.0: the legacy
 * framing). Header fields (24 bytes in all): i32 pid, u32 reserved. Records:
 *   SES_TASKS_STRING   u32 id, u32 length, the bytes (no NUL)
 *   SES_TASKS_RECORD   u64 time_ns, u32 tid, u16 kind, u16 how, u32 domain id, u32 name id
 *                      (kind: enum ses_task_kind, how: SES_TASK_GAP or 0; ids name STRING
 *                      entries that come earlier in the file, 0 = none)
 *   SES_TASKS_DROPPED  u64 records dropped by the target's full ring, u64 names dropped
 *                      by its full string table (cumulative: the last one counts)
 * Unknown types are skipped (counted), so later minors can add records. A file cut short
 * reads up to its last whole record.
 */
#define SES_TASKS_DIR "instrument"
#define SES_TASKS_MAGIC "UPTASKS1"
#define SES_TASKS_STRING 1
#define SES_TASKS_RECORD 2
#define SES_TASKS_DROPPED 3
#define SES_TASKS_MAX_STRING 4096

/* The file's own codes for a record's kind and flags. They are what version 1 files hold
 * (they happen to equal the control page's codes of that time, which collect translates
 * from): fixed forever, never renumbered; a new kind takes a new number. */
enum ses_task_kind {
	SES_TASK_BEGIN = 1,
	SES_TASK_END = 2,
	SES_EVENT_START = 3,
	SES_EVENT_END = 4,
	/* 5 and 6 are never written (pauses go to pauses.csv) */
	SES_THREAD_NAME = 7, /* thread @tid is named string @name (ITT) */
};
/* In a record's how: records of this thread were dropped just before it (the target's
 * ring was full), so its open tasks cannot be paired reliably any more. */
#define SES_TASK_GAP 0x8000

struct ses_task_record {
	uint64_t time_ns;
	uint32_t tid;
	uint16_t kind;
	uint16_t how;
	uint32_t domain; /* string ids */
	uint32_t name;
};

struct ses_tasks_writer;

/* Create instrument/<pid>.tasks (and instrument/) beneath the session's fd @dfd. NULL, errno set. */
struct ses_tasks_writer *ses_tasks_writer_open(int dfd, int pid);
int ses_tasks_write_string(struct ses_tasks_writer *w, uint32_t id, const char *s, size_t len);
int ses_tasks_write_record(struct ses_tasks_writer *w, const struct ses_task_record *rec);
int ses_tasks_write_dropped(struct ses_tasks_writer *w, uint64_t records, uint64_t names);
int ses_tasks_writer_flush(struct ses_tasks_writer *w);
int ses_tasks_writer_close(struct ses_tasks_writer *w); /* NULL is fine */

/* A parsed .tasks file. Strings are looked up by id with ses_tasks_string(). */
struct ses_tasks {
	int pid;
	struct ses_task_record *records;
	size_t nrecords;
	uint64_t dropped_records, dropped_names;
	uint64_t damaged_at; /* offset of the first unreadable byte, 0 = none */
	const char *damage;
	uint64_t unknown_records; /* of a newer writer's types: skipped */
	/* private */
	struct ses_tasks_str *strs;
	size_t nstrs, capstrs;
	size_t caprecords;
	uint32_t *slots; /* id -> index in strs + 1, open addressing (0: empty) */
	size_t capslots; /* a power of two, over twice the distinct ids */
};

/* Parse @len bytes at @buf into @t (zeroed first). -EINVAL with @err for a bad header,
 * -EPROTO for a major version this uprof does not read (ses_ct_open); damage after the
 * header only sets t->damaged_at. Free with ses_tasks_release(). */
int ses_tasks_parse(const void *buf, size_t len, struct ses_tasks *t, char *err, size_t errlen);
void ses_tasks_release(struct ses_tasks *t);
/* The string @id (its last definition in the file), or NULL (unknown id). Owned by @t.
 * Hashed: a file of 500k names costs no more per record than one of two. */
const char *ses_tasks_string(const struct ses_tasks *t, uint32_t id);

/* ---- the time order of records (docs/DESIGN.md §6) ----------------------------------
 * Fill @order[0..@n) with the indices 0..@n-1 sorted by @keys (stamps), equal keys in
 * index order: the one order the task matcher and the pause arbiter both use. 0 or
 * -ENOMEM. ses_time_key() turns a signed stamp into a key of the same order.
 */
int ses_time_order(const uint64_t *keys, size_t n, size_t *order);
uint64_t ses_time_key(int64_t t);

/* ---- pauses.csv: one row per paused interval ----------------------------------------
 * "pid,paused_at_ns,resumed_at_ns,how" then rows; pid is a number or "all"; times are
 * CLOCK_MONOTONIC ns; how is start-paused, api, api-strict or itt, or unknown: pause
 * records of that process were dropped (its ring was full) between the two times, so
 * whether the session was paused then is not known (docs/DESIGN.md §5). An "unknown" row is
 * never also paused time; a reader that predates it refuses the file with its line
 * rather than count it as a pause. The header stays: the columns mean what they did.
 */
#define SES_PAUSES_FILE "pauses.csv"
#define SES_MAX_PAUSES 1000000
#define SES_PAUSE_HOW_UNKNOWN "unknown"

struct ses_pause {
	int pid; /* -1 = all */
	int64_t paused_at, resumed_at;
	char how[16];
};

/* Write pauses.csv beneath the session's fd @dfd, atomically. 0 or -errno. */
int ses_pauses_write(int dfd, const struct ses_pause *p, size_t n);

/*
 * Arbitration of pause and resume calls across the processes of a run (docs/DESIGN.md §5): the
 * collection state is the session's, so a call from any process applies to all, and the
 * call with the newest time stamp decides (ties: the one seen last). Pure: no clock, no
 * files; collect uses it live (the kernel's on/off) and at the end (pauses.csv).
 */
enum ses_pause_how {
	SES_PAUSE_START = 0,	  /* --start-paused: the session itself, pid "all" */
	SES_PAUSE_API = 1,	  /* amdProfilePause/Resume (group 1) */
	SES_PAUSE_API_STRICT = 2, /* amdProfileStrictPause/Resume (group 2) */
	SES_PAUSE_ITT = 3,	  /* __itt_pause/__itt_resume */
};

/* One call, as the target stamped it (CLOCK_MONOTONIC ns). */
struct ses_pause_call {
	int64_t time;
	int pid;
	bool paused;  /* a pause (true) or a resume */
	uint16_t how; /* enum ses_pause_how */
};

/* The live state: the programs' newest call so far. Start with { INT64_MIN, start_paused }. */
struct ses_pause_state {
	int64_t last; /* time stamp of the call that set @paused */
	bool paused;
};

/* Apply @c to @s: it decides unless an already applied call is newer. True when
 * s->paused changed. A stamp later than @now (the caller's CLOCK_MONOTONIC when it read
 * the call) is made up: @c->time is clamped to @now in place, so that the caller records
 * the call as it was applied, and *@future (may be NULL) counted. (Stamps before the
 * session's start need no live clamp: they lose to every later call; the arbiter clamps
 * and counts them.) */
bool ses_pause_state_feed(struct ses_pause_state *s, struct ses_pause_call *c, int64_t now,
			  uint64_t *future);

/* Calls stamped outside [start, end], clamped to it: calls made during --start-delay are
 * early by design, and an attached process goes on calling after the end; a call stamped
 * after the moment the calls were collected is one the target made up (or a clock gone
 * wrong): @future counts those (they are in @after_end too). */
struct ses_pause_clamps {
	uint64_t before_start, after_end, future;
};

/*
 * The session's paused intervals from @n calls (@calls is sorted in place by time, ties
 * kept in the given order): with @start_paused the session starts paused ("all",
 * start-paused); a pause while running opens an interval named by its pid and how, a
 * resume while paused closes it, repeated calls change nothing (a resume without a pause
 * is ignored). An interval still open is closed at @end. Intervals are clipped to
 * [@start, @end]; those left with no time inside are dropped. @now is when the calls
 * were collected (no call can be later). Returns 0 with a malloc'ed array (*@out, *@nout;
 * free() it), or -ENOMEM; @clamps (may be NULL) counts the calls stamped outside
 * [@start, @end] and after @now.
 */
int ses_pauses_arbitrate(struct ses_pause_call *calls, size_t n, bool start_paused, int64_t start,
			 int64_t end, int64_t now, struct ses_pause **out, size_t *nout,
			 struct ses_pause_clamps *clamps);
/* "start-paused", "api", "api-strict" or "itt" (pauses.csv's how); "api" when unknown. */
const char *ses_pause_how_name(uint16_t how);
/* The sum of the paused intervals' lengths, ns ("unknown" rows are not paused time). */
int64_t ses_pauses_total(const struct ses_pause *p, size_t n);
/* The sum of the "unknown" rows' lengths, ns. */
int64_t ses_pauses_unknown_total(const struct ses_pause *p, size_t n);
bool ses_pause_is_unknown(const struct ses_pause *p);

/* A stretch where a process's pause records were dropped (collect: lib/sampler's gaps). */
struct ses_pause_unknown {
	int pid;
	int64_t from, to; /* CLOCK_MONOTONIC ns; INT64_MIN / INT64_MAX: open-ended */
	bool by_state;	  /* ended by the process's state word, not by a call of its own
			   * (collect adds a call of @pid at @to saying that state) */
};
/* A stretch ended by a state word says @pid's state at @to, not the session's: when a
 * call of another process falls inside it, which of the two is newer is not known, so
 * the stretch runs on to the first call after @to (of any process; INT64_MAX if none).
 * @calls (@n) sorted by time, as ses_pauses_arbitrate() leaves them. */
void ses_pauses_widen_unknown(const struct ses_pause_call *calls, size_t n,
			      struct ses_pause_unknown *u, size_t nu);
/*
 * Make the unknown stretches @u (@nu, sorted in place) rows of the paused intervals *@rows
 * (*@n, sorted by paused_at, as ses_pauses_arbitrate() makes them; reallocated): each is
 * clipped to [@start, @end] and overlapping ones merged (the pid of the first); paused
 * time inside one is taken out of its row (a row may split in two), and one "unknown"
 * row is added for each. The result is sorted by paused_at. 0 or -ENOMEM (*@rows as it
 * was).
 */
int ses_pauses_add_unknown(struct ses_pause **rows, size_t *n, struct ses_pause_unknown *u,
			   size_t nu, int64_t start, int64_t end);
/* At most @max rows (>= 1): rows @max-1 on become one "unknown" row from the first one's
 * paused_at to the last one's resumed_at (the pid of the first). The rows folded into it
 * (0 when there were no more than @max). */
size_t ses_pauses_cap(struct ses_pause *rows, size_t *n, size_t max);
/* Parse pauses.csv text into a malloc'ed array (*out, *n). -EINVAL with "line N: ..." */
int ses_pauses_parse(const char *buf, size_t len, struct ses_pause **out, size_t *n, char *err,
		     size_t errlen);

/* ---- the session directory (docs/DESIGN.md §4) and the MPI job directory (§10) -----
 *
 * A session directory is mode 0700 and every file in it 0600, whatever the umask:
 * samples.data holds copies of the target's stack and registers. collect writes it
 * through the directory's fd, held from ses_dir_create() (or ses_job_join()) to its end:
 * every writer below takes that fd (@dfd, borrowed) and makes its files and
 * subdirectories beneath it (util.h: util_at_create, util_at_mkdir), so a directory renamed
 * or swapped for a symlink by another user never takes a write (docs/DESIGN.md §4).
 */
#define SES_DIR_MODE 0700
#define SES_FILE_MODE 0600
#define SES_APP_MAX 64		    /* bytes of the program's name in a directory name */
#define SES_DIR_MAX_SAME_SECOND 100 /* sessions one -o DIR may start in one second */

/* mkdir -p @dir: parents the user's own (the umask decides their mode). 0 or -errno. */
int ses_mkdir_p(const char *dir);

#include "session/input.h"   /* reading a session's files: ses_file_open_read, _map, ... */
#include "session/foreign.h" /* perf pipe files of other tools: ses_foreign_info, ... */

/* The program's name in @prog (a path or a name): a pointer into @prog. */
const char *ses_app_base(const char *prog);
/* Bytes of @name used in a directory name: at most SES_APP_MAX, cut at a UTF-8 character
 * boundary (a file name has 255 bytes; the rest of the name needs ~40). */
size_t ses_app_name_len(const char *name);

/*
 * Create a new session directory beneath the directory fd @outfd (the -o directory, opened
 * once by the caller):
 *   uprof-<app>-<label>_<Mon-DD-YYYY>_<HH-MM-SS>/   (@when in local time)
 * with -2, -3, ... appended when another collect made that name first (mkdirat decides,
 * so two collects never share one). @prog: the program's path or name; @label: the
 * config's label (TBP, Custom, ...). Its name goes into @name (@namelen bytes). Returns
 * the new directory's fd (mode SES_DIR_MODE, checked to be ours; the caller closes it),
 * -EEXIST when SES_DIR_MAX_SAME_SECOND are taken, -ENAMETOOLONG, -EINVAL (empty name or
 * label), -EPERM or -ELOOP when another user's directory or a symlink took its place, -errno.
 */
int ses_dir_create(int outfd, const char *prog, const char *label, time_t when, char *name,
		   size_t namelen);
/* Remove a session directory that never started: everything beneath @dfd (its fd, may be
 * -1), then @name in @outfd if it is still a directory (a symlink put there stays). */
void ses_dir_remove_at(int outfd, const char *name, int dfd);

/*
 * The job directory: @outdir/uprof-<app>-HPC_MPI_<job>/ holding job.ini and one session
 * per rank in rank-<r>/. job.ini:
 *   [job]       format_version = 1, id = <job>, app = <app>, ranks = <world size> (when
 *               the launcher said it: report names the ranks that never joined)
 *   [rank.<r>]  session = rank-<r>, host, pid, clock_offset_ns (CLOCK_REALTIME minus
 *               CLOCK_MONOTONIC when the rank joined: merges ranks of several hosts),
 *               local_rank (its number among the ranks of its host, when known)
 * one [rank.<r>] per rank in the order they joined. Unknown keys and sections are skipped.
 */
#define SES_JOB_FILE "job.ini"
#define SES_JOB_FORMAT_VERSION 1
#define SES_JOB_ID_MAX 64 /* letters, digits, '.', '_', '-' */
#define SES_JOB_MAX_RANKS 65536
#define SES_JOB_MAX_BYTES (16 << 20)

struct ses_job_rank {
	int rank;
	int size;	/* the job's ranks as the launcher said (0: unknown); [job] ranks */
	int local_rank; /* -1: unknown */
	int pid;
	char host[128];
	char session[64]; /* the rank's session directory, relative to the job directory */
	int64_t clock_offset_ns;
};

/* @r for rank @rank of this process: its pid, host name and clock offset now. */
void ses_job_rank_init(struct ses_job_rank *r, int rank);

/*
 * Join job @job (the launcher's job id) as rank @r->rank: every rank of the job calls
 * this, at once, with the same @outdir, @prog and @job. The first creates the job
 * directory (mode 0700); the others use it once they see it is a directory of theirs
 * (not a link, not another user's: -ENOTDIR, -EPERM). Under an exclusive lock on
 * job.ini, the first writes its [job] part; each creates rank-<r>/ (mode 0700) and
 * appends its [rank.<r>] section. Everything is made beneath @outfd (the -o directory's fd)
 * and the job directory's fd. The job directory's name goes into @jobname; the rank's
 * session is rank-<r> in it. Returns the rank directory's fd (the caller closes it);
 * -EEXIST when rank-<r> exists (two ranks with one number); -EINVAL for a job id
 * outside SES_JOB_ID_MAX's alphabet or a rank outside [0, SES_JOB_MAX_RANKS); -errno.
 */
int ses_job_join(int outfd, const char *prog, const char *job, const struct ses_job_rank *r,
		 char *jobname, size_t jobnamelen);

struct ses_job {
	int format_version;
	char id[SES_JOB_ID_MAX + 1];
	char app[SES_APP_MAX + 1];
	int size;		    /* [job] ranks: the world size, 0 when unknown */
	struct ses_job_rank *ranks; /* in file order; owned, ses_job_release() */
	size_t nranks, capranks;
	bool seen_job; /* private to the parser */
};

/* Parse job.ini text (@len bytes, untrusted) into @j (zeroed first). -EINVAL with
 * "line N: what" in @err (a rank or [job] listed twice, a session that is not a plain name, a
 * malformed line), -EPROTO for an unknown format_version, -EFBIG. Nothing to release on
 * failure. */
int ses_job_parse(const char *buf, size_t len, struct ses_job *j, char *err, size_t errlen);
/* Read and parse @jobdir/job.ini (a regular file only). */
int ses_job_read(const char *jobdir, struct ses_job *j, char *err, size_t errlen);
/* The same beneath the job directory fd @dfd (borrowed), no symlink followed. */
int ses_job_read_at(int dfd, struct ses_job *j, char *err, size_t errlen);
void ses_job_release(struct ses_job *j); /* NULL is fine; safe twice */

#endif
