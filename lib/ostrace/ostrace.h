/* SPDX-License-Identifier: MIT */
/*
 * lib/ostrace: the OS-tracing model of a --trace os session (docs/DESIGN.md §12), built
 * from the kernel tracepoints collect sampled (sched_switch, sched_waking, raw_syscalls)
 * and the tracking event's switch records, fed in time order by lib/report:
 *
 *   format.c   a tracepoint's tracefs format file, and the session's file of them
 *              (OST_FORMATS_FILE): field names, offsets and sizes as the kernel wrote them
 *   syscalls.c system call names and what a thread blocked in one waits for
 *   model.c    per thread: running, runnable and blocked (by kind) time adding up to its
 *              lifetime; off-CPU time by the call stack that blocked; who woke whom
 *   calls.c    the system-call table per thread and the slowest calls with their stacks
 *   timeline.c the states and calls of each thread over time (a trace's slices)
 *   funcs.c    collect --func's function calls (uprobes), per thread and time slice
 *
 * Call stacks are the caller's numbers (lib/report's stacks), carried, never read here.
 * Nothing here prints; what could not be read is counted (ost_model_counts).
 */
#ifndef UPROF_OSTRACE_H
#define UPROF_OSTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The session's copy of the tracepoints' format files, written by collect. */
#define OST_FORMATS_FILE "tracepoints.format"
#define OST_FORMATS_MAGIC "# uprof --trace os: tracepoint formats, version 1"
/* The slowest calls listed take at least this long (uProf's --osrt-threshold default). */
#define OST_DEFAULT_THRESHOLD_NS 1000
#define OST_NO_STACK UINT32_MAX

/* What --trace os= asked for (session file's "events:"). */
enum {
	OST_EV_SYSCALL = 1,
	OST_EV_PTHREAD = 2,
	OST_EV_SCHED = 4,
	OST_EV_PAGEFAULT = 8,
	OST_EV_FUNCCOUNT = 16, /* --func: calls of user functions by uprobes */
};

/* ---- format.c ---- */

#define OST_MAX_FIELDS 32
#define OST_MAX_FORMATS 16

struct ost_field {
	char name[48];
	uint32_t offset, size; /* in the raw record, bytes */
	bool is_signed;
};

/* The tracepoints the model reads; others are counted and passed over. */
enum ost_tp_kind {
	OST_TP_OTHER,
	OST_TP_SWITCH,	  /* sched:sched_switch */
	OST_TP_WAKEUP,	  /* sched:sched_waking (sched_wakeup in older sessions) */
	OST_TP_SYS_ENTER, /* raw_syscalls:sys_enter */
	OST_TP_SYS_EXIT,  /* raw_syscalls:sys_exit */
	OST_TP_PAGEFAULT, /* exceptions:page_fault_user */
	OST_TP_FUNC,	  /* collect --func's uprobe event (system uprof_<pid>) */
};

struct ost_format {
	char system[32], name[64];
	uint64_t id;
	int nfields;
	struct ost_field fields[OST_MAX_FIELDS];
	enum ost_tp_kind kind;
	/* the fields of @kind the model reads, as indexes in fields[] (-1: absent) */
	int f_prev_state, f_next_pid, f_pid, f_id, f_ret, f_probe_ip;
};

/*
 * One tracefs format file (@len bytes, not NUL-terminated) into @f: "name:", "ID:" and
 * the "field:TYPE NAME; offset:N; size:N; signed:N;" lines. 0, or -EINVAL with @err
 * saying "line N: what" (a field past OST_MAX_FIELDS, an offset or size out of range, no
 * name or ID).
 */
int ost_format_parse(const char *buf, size_t len, struct ost_format *f, char *err, size_t errlen);
/* Field @name of @f or NULL. */
const struct ost_field *ost_format_field(const struct ost_format *f, const char *name);
/* Integer field @fl (1, 2, 4 or 8 bytes, sign-extended when signed) of raw record @raw
 * (@len bytes): 0, or -EINVAL when it lies outside the record or has another size. */
int ost_field_int(const struct ost_field *fl, const void *raw, size_t len, int64_t *v);

/* A function collect --func probed: its entry's offset in its module's file. */
#define OST_MAX_FUNCS 256
struct ost_func {
	uint64_t offset;
	char module[256]; /* the file's path */
	char name[256];	  /* its ELF symbol */
};

struct ost_formats {
	uint64_t threshold_ns;
	uint64_t max_threads; /* --max-threads: threads past it are left out (0: no limit) */
	unsigned events;      /* OST_EV_* */
	int n;
	struct ost_format f[OST_MAX_FORMATS];
	int nfuncs; /* "func: 0xOFFSET<tab>MODULE<tab>NAME" lines */
	struct ost_func funcs[OST_MAX_FUNCS];
};

/* The session's OST_FORMATS_FILE (@len bytes): its magic line, "threshold_ns:",
 * "events:" and (when set) "max_threads:" and "func:" lines, then blocks of "system: S" and a format file. 0 or -EINVAL (@err: "line N:
 * what"). */
int ost_formats_parse(const char *buf, size_t len, struct ost_formats *fm, char *err,
		      size_t errlen);
/* The format of tracepoint id @id, or NULL. */
const struct ost_format *ost_formats_find(const struct ost_formats *fm, uint64_t id);
/* The index in fm->funcs of the function at file offset @offset of a module whose file's
 * last path component is @base, or -1. */
int ost_formats_func(const struct ost_formats *fm, const char *base, uint64_t offset);

/* ---- syscalls.c ---- */

/* What a thread off the CPU is waiting for, from the system call it was in. */
enum ost_wait {
	OST_WAIT_SLEEP, /* nanosleep, clock_nanosleep, pause, ... */
	OST_WAIT_IO,	/* read/write/poll families, sockets, ... */
	OST_WAIT_LOCK,	/* futex: pthread mutexes, condition variables, joins */
	OST_WAIT_OTHER, /* another system call, or none (a page fault, ...) */
	OST_NWAITS
};
const char *ost_wait_name(enum ost_wait w); /* "sleep", "I/O", "lock", "other" */
enum ost_wait ost_syscall_wait(int64_t nr);
/* This architecture's name of system call @nr ("syscall_<nr>" unknown; @buf 32 bytes). */
const char *ost_syscall_name(int64_t nr, char *buf, size_t len);
/* Does its result count bytes moved (read/write/send/recv families)? */
bool ost_syscall_moves_bytes(int64_t nr);

/* ---- model.c, calls.c ---- */

enum ost_state {
	OST_RUNNING,
	OST_RUNNABLE, /* preempted, or woken and not yet on a CPU */
	OST_BLOCKED,  /* by kind in ost_thread.blocked_ns */
	OST_NSTATES
};

struct ost_thread {
	int pid, tid;
	uint64_t start, end;		 /* its lifetime as traced */
	uint64_t state_ns[OST_NSTATES];	 /* running, runnable, blocked */
	uint64_t blocked_ns[OST_NWAITS]; /* blocked, by kind */
	uint64_t unaccounted_ns;	 /* lifetime - the states: before its first event,
					    * across lost records */
	uint64_t switches, preemptions, wakeups;
};

struct ost_call_stat { /* one system call of one thread */
	int pid, tid;
	int64_t nr;
	uint64_t calls, errors, total_ns, min_ns, max_ns, bytes;
};

struct ost_slow_call {
	int pid, tid;
	int64_t nr, ret;
	uint64_t start, ns;
	uint32_t stack; /* at entry (OST_NO_STACK: none) */
};
#define OST_SLOW_MAX 64 /* the slowest calls kept */

struct ost_offcpu { /* off-CPU time of one thread at one stack, by what it waited for */
	int pid, tid;
	uint32_t stack;
	enum ost_wait wait;
	uint64_t ns, count;
};

struct ost_wake { /* lock waits of a thread at a stack, ended by a waker at its stack */
	int pid, tid;
	uint32_t stack;
	int waker_pid, waker_tid;
	uint32_t waker_stack;
	uint64_t ns, count;
};

struct ost_counts {
	uint64_t samples;	   /* tracepoint samples fed */
	uint64_t unparsable;	   /* of them, with fields outside their record or no format */
	uint64_t other;		   /* of a tracepoint the model does not read */
	uint64_t unmatched;	   /* sys_exit without its sys_enter (begun before tracing) */
	uint64_t out_of_order;	   /* switch records that contradict the thread's state */
	uint64_t threads_left_out; /* threads past max_threads, not modelled */
	uint64_t left_out_records; /* and their records */
	/* blocked spans ended by a switch-in with no wakeup recorded (an interrupt, a timer
	 * or a task outside the trace woke it), by the kind of wait: blocked to the switch-in */
	uint64_t unseen_wakeups[OST_NWAITS];
	uint64_t func_calls;	 /* --func: probe records counted as calls */
	uint64_t func_unmatched; /* and those whose address is no probed function's */
};

struct ost_model;

/* A model for a session's @fm (copied). NULL when out of memory. */
struct ost_model *ost_model_new(const struct ost_formats *fm);
void ost_model_free(struct ost_model *m); /* NULL is fine */

/* Everything below is fed in time order. 0 or -ENOMEM. */
struct ost_sample {
	uint64_t time;
	int pid, tid; /* the running thread's (a wakeup's waker) */
	uint64_t id;  /* the tracepoint's (attr.config) */
	const void *raw;
	size_t raw_size;
	uint32_t stack; /* its user call stack, OST_NO_STACK: none */
};
int ost_model_sample(struct ost_model *m, const struct ost_sample *s);
/* A switch record of thread @tid: @out (else in), @preempt (switched out runnable). */
int ost_model_switch(struct ost_model *m, uint64_t time, int pid, int tid, bool out, bool preempt);
/* Thread @tid of @pid began (FORK, or the exec of a launched program) or ended (EXIT). */
int ost_model_begin(struct ost_model *m, uint64_t time, int pid, int tid);
int ost_model_exit(struct ost_model *m, uint64_t time, int pid, int tid);
/* The trace is over at @end (threads still alive end there): the states are summed. */
void ost_model_finish(struct ost_model *m, uint64_t end);

/* Results, after ost_model_finish; borrowed until ost_model_free. */
size_t ost_model_threads(const struct ost_model *m, const struct ost_thread **out);
size_t ost_model_calls(const struct ost_model *m, const struct ost_call_stat **out);
size_t ost_model_slow(const struct ost_model *m,
		      const struct ost_slow_call **out); /* slowest first */
size_t ost_model_offcpu(const struct ost_model *m, const struct ost_offcpu **out);
size_t ost_model_wakes(const struct ost_model *m, const struct ost_wake **out);
const struct ost_counts *ost_model_counts(const struct ost_model *m);

/* ---- funcs.c: collect --func's calls, per thread and per time slice ---- */

struct ost_func_count { /* calls of fm.funcs[func] by one thread */
	int func, pid, tid;
	uint64_t calls;
};
struct ost_func_slice { /* calls of fm.funcs[func] in [origin + slice * width, +width) */
	int func;
	uint64_t slice, calls;
};
/* Count per time slice of @width_ns from @origin too (report --funccount-interval):
 * asked before the first record. 0 (the default): none. */
void ost_model_func_slices(struct ost_model *m, uint64_t origin, uint64_t width_ns);
/* A call of fm.funcs[@func] by thread @tid at @time; @func -1: the probe's address
 * matched no function of the session (counted: ost_counts.func_unmatched). 0 or -ENOMEM. */
int ost_model_func_call(struct ost_model *m, uint64_t time, int pid, int tid, int func);
/* Results after ost_model_finish, in the order first seen; borrowed. */
size_t ost_model_func_counts(const struct ost_model *m, const struct ost_func_count **out);
size_t ost_model_func_slice_counts(const struct ost_model *m, const struct ost_func_slice **out);
uint64_t ost_model_func_slice_ns(const struct ost_model *m); /* 0: none asked */

/* ---- timeline.c: each thread's states and system calls over time, for a trace ---- */

enum ost_span_kind { OST_SPAN_RUNNING, OST_SPAN_RUNNABLE, OST_SPAN_BLOCKED, OST_SPAN_CALL };
struct ost_span {
	int pid, tid;
	uint64_t begin, end;
	int64_t ret;  /* a call's result */
	int32_t nr;   /* a call's number */
	uint8_t kind; /* enum ost_span_kind */
	uint8_t wait; /* a blocked span's enum ost_wait */
};
/* Spans kept at most (40 MiB): the earliest, so the trace is whole up to a time. */
#define OST_SPANS_MAX (1u << 20)
/* The spans in the order they ended (per thread: its states back to back, its calls in
 * order); *@left_out: those past OST_SPANS_MAX. Each thread's state spans add up to its
 * state_ns (and blocked_ns by kind) exactly while none is left out. */
size_t ost_model_spans(const struct ost_model *m, const struct ost_span **out, uint64_t *left_out);
/* Keep at most @max spans (at most OST_SPANS_MAX): asked before the first record by a
 * report that exports a timeline (report.html, trace.json). 0, the default: none kept,
 * none counted, so a report without one holds no span in memory. */
void ost_model_keep_spans(struct ost_model *m, size_t max);
uint64_t ost_model_threshold_ns(const struct ost_model *m);
uint64_t ost_model_max_threads(const struct ost_model *m); /* 0: no limit */

#endif
