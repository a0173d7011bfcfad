/* SPDX-License-Identifier: MIT */
/*
 * uprof_tool.h: the uprof tool API (uprof-tool(3)).
 *
 * A tool is a shared object with one C entry point:
 *
 *     int uprof_tool_entry(const struct uprof_tool_core *core, int argc, char **argv);
 *
 * uprof dlopen()s it (RTLD_LOCAL), calls the entry once, and the tool
 *   - fills and returns its descriptor through core->register_tool(): name, version, the
 *     API version it was built against, and its callbacks;
 *   - declares typed knobs (core->knob_int/bool/double/string), which uprof parses from
 *     `--tool ./t.so,name=value,...` and lists in `uprof info --tool ./t.so`;
 *   - at collect time, asks for data (core->collect_want: call stacks, events).
 * At report time uprof calls the callbacks over the session's data, after report.csv is
 * written, in a process of its own with a time limit: a tool that crashes, hangs or
 * returns an error leaves report.csv and the session as they were, and uprof names it and
 * exits non-zero. What the tool writes (core->section..., core->open_file) is kept only
 * when every callback succeeded.
 *
 * Versioning (the rules that keep old tools loading):
 *   - UPROF_TOOL_API_MAJOR changes only when an existing field or callback changes
 *     meaning; uprof refuses a tool of another major version.
 *   - A minor bump only appends: fields at the end of the structs below (which all begin
 *     with their size, filled in by whoever made the struct), functions at the end of the
 *     core table, callbacks taken from the descriptor's reserved slots. A tool built
 *     against 1.0 runs unchanged on 1.N; uprof reads only the bytes of the descriptor
 *     the tool says it has (its size) and fills only what the tool's version knows.
 *   - Reserved slots must be zero (memset the descriptor, or use UPROF_TOOL_DESC_INIT):
 *     a descriptor with a non-zero reserved slot is refused, so that a slot can be given
 *     a meaning later without old tools' garbage being read as a callback.
 *   - A tool reads a core field or function it needs from a later minor version only
 *     after checking core->size (UPROF_TOOL_HAS(core, field)).
 *
 * Slots reserved for traces that land later: the OpenMP region, MPI call and MPI rank
 * callbacks (openmp_region, mpi_call, mpi_rank below) were named in 1.0 so their place in
 * the table is fixed. A slot is given its meaning by the minor version that documents its
 * argument struct (openmp_region: 1.2; mpi_call and mpi_rank: 1.3); until then, and for a
 * tool that declares an older minor version, uprof refuses a descriptor that sets it (it
 * is never called).
 *
 * History (each minor version only appends):
 *   1.0  the first: descriptor, knobs, collect_want, report-time callbacks, output
 *   1.1  the descriptor's knobs_checked callback (its first reserved slot): the tool
 *        validates its knob values together, once they are all set
 *   1.2  openmp_region takes its argument, struct uprof_tool_omp_slice: the OpenMP
 *        slices of a --trace openmp session (regions and waits per thread, target
 *        constructs, data transfers and kernels per device), after the samples; the
 *        descriptor's filter_sample (its second reserved slot): samples a tool drops
 *        from the base report
 *   1.3  mpi_rank and mpi_call take their arguments, struct uprof_tool_mpi_rank and
 *        struct uprof_tool_mpi_call: the ranks of an MPI job directory (report -i JOBDIR
 *        --tool) and each rank's MPI functions, the numbers of the job's report.csv;
 *        the descriptor's os_thread and os_syscall (its next two reserved slots): the
 *        threads' states and system calls of a --trace os session; the core table's
 *        resolve: an address of a process named (function, module, offset, line)
 *   1.4  the descriptor's mpi_site and mpi_event (its next two reserved slots): each
 *        rank's MPI call sites (struct uprof_tool_mpi_site, the job's MPI CALL SITES
 *        PER RANK rows) and, for a --trace mpi=full session, each recorded MPI call
 *        (struct uprof_tool_mpi_event), streamed from the rank's file; mpi_rank,
 *        mpi_call, mpi_site and mpi_event are also called over one rank's session
 *        (report -i JOB/rank-N --tool), as over a job of that rank alone
 *
 * Callbacks return 0, or a negative errno to fail: the tool's output is then dropped and
 * uprof reports the failure. Strings handed to callbacks live until the callback returns
 * unless said otherwise; copy what you keep.
 */
#ifndef UPROF_TOOL_H
#define UPROF_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UPROF_TOOL_API_MAJOR 1
#define UPROF_TOOL_API_MINOR 4
#define UPROF_TOOL_API_VERSION_OF(major, minor) (((uint32_t)(major) << 16) | (uint32_t)(minor))
#define UPROF_TOOL_API_VERSION UPROF_TOOL_API_VERSION_OF(UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR)

/* Does the struct @s (which begins with its size) hold member @m? */
#define UPROF_TOOL_HAS(s, m) ((s)->size >= offsetof(__typeof__(*(s)), m) + sizeof((s)->m))

/* ---- what the callbacks are given (filled by uprof; each begins with its size) ---- */

/* The session: facts of session.ini and the totals of the base report. */
struct uprof_tool_session {
	uint32_t size;
	uint32_t reserved0;
	const char *dir;	 /* the session directory, absolute */
	const char *config;	 /* tbp, hotspots, assess, ... */
	const char *command;	 /* the collect command line */
	const char *target_path; /* the profiled program */
	const char *host, *cpu_model, *kernel;
	int ncpus;
	int nevents;		   /* sampling events; event 0 sorts the report */
	const char *const *events; /* their names ("CPU_TIME", PMC names) */
	const uint64_t *periods;   /* their sampling intervals: ns for CPU_TIME, else events */
	int64_t start_ns, end_ns;  /* CLOCK_MONOTONIC, the samples' clock */
	double period_s;	   /* the timer's period in s (0 when event 0 is no timer) */
	uint64_t samples;	   /* samples of event 0 the report counted */
	uint64_t lost;		   /* samples the kernel could not record */
	int nprocesses, nthreads;
	double cpu_time_s; /* report.csv's Total CPU_TIME */
	double pause_s;	   /* paused time */
	bool call_stacks;  /* the session has call stacks */
	bool complete;	   /* collect finished normally */
};

struct uprof_tool_process {
	uint32_t size;
	int pid;
	const char *comm;    /* the kernel's name (15 bytes) */
	const char *program; /* its executable's path, "" when unknown */
	uint64_t samples;    /* of event 0, as in report.csv */
	double cpu_time_s;
};

struct uprof_tool_thread {
	uint32_t size;
	int pid, tid;
	const char *name; /* as report.csv names it: "Thread-123 (PID:120)" */
	uint64_t samples;
	double cpu_time_s;
};

struct uprof_tool_module {
	uint32_t size;
	int id;		  /* what uprof_tool_sample.module_id refers to */
	const char *path; /* "[kernel.kallsyms]", "[unknown]" or a file */
	uint64_t samples;
};

/* One sample, in time order. Function and module are there at once; the source line and
 * the call stack are looked up only when asked (core->sample_source / sample_stack),
 * during this callback. */
struct uprof_tool_sample {
	uint32_t size;
	uint32_t event;	 /* index in uprof_tool_session.events */
	int64_t time_ns; /* CLOCK_MONOTONIC; minus session->start_ns: since the start */
	int pid, tid;
	int cpu; /* -1 when unknown */
	int module_id;
	uint64_t ip;	      /* as sampled */
	uint64_t offset;      /* ip as an offset in its module file (kernel: the address) */
	const char *function; /* "[unknown]" when nothing names it */
	const char *module;
	double weight_s;    /* the CPU time (or events) this sample stands for */
	const void *opaque; /* uprof's; for sample_source and sample_stack */
};

/* A task or event instance of the Domain/Task/Event or ITT APIs. */
struct uprof_tool_task {
	uint32_t size;
	int pid, tid;
	const char *domain; /* "User" for events */
	const char *name;
	int64_t begin_ns, end_ns;
	uint64_t samples; /* samples of its thread inside it (report's CPU_TIME) */
};

/* A paused interval (pause/resume API, --start-paused), merged over processes. */
struct uprof_tool_pause {
	uint32_t size;
	uint32_t reserved0;
	int64_t from_ns, to_ns;
};

/* ---- knobs ---- */

enum uprof_tool_knob_type {
	UPROF_TOOL_KNOB_INT = 1,  /* int64_t: decimal or 0x hex */
	UPROF_TOOL_KNOB_BOOL = 2, /* 1/0, true/false, yes/no, on/off; bare "name" = true */
	UPROF_TOOL_KNOB_DOUBLE = 3,
	UPROF_TOOL_KNOB_STRING = 4, /* any text without a comma */
};

/* ---- what a tool may ask for at collect time (core->collect_want) ---- */

enum uprof_tool_want {
	UPROF_TOOL_WANT_STACKS = 1, /* call stacks: arg NULL or "fp" (frame pointers), "dwarf" */
	UPROF_TOOL_WANT_EVENT = 2,  /* one more sampling event: arg is an -e spec */
	UPROF_TOOL_WANT_OPENMP = 3, /* reserved: -ENOTSUP in API 1.0 (no OpenMP trace yet) */
	UPROF_TOOL_WANT_MPI = 4,    /* reserved: -ENOTSUP (collect --trace mpi under a launcher
				     * is the launcher's command line, not a tool's) */
};

struct uprof_tool_desc;

/* 1.3: an address named (core->resolve). */
struct uprof_tool_place {
	uint32_t size;	      /* set by the tool: sizeof(struct uprof_tool_place) */
	int line;	      /* its source line, 0 when not known */
	const char *function; /* the function the source has it in, else its symbol; "unknown" */
	const char *module;   /* its module file's base name ("" unmapped) */
	const char *file;     /* its source file's base name, "" when no line is known */
	uint64_t offset;      /* in the module's file */
};

/*
 * The core table uprof hands to the entry point (owned by uprof, valid while the tool is
 * loaded). Functions are only ever appended.
 */
struct uprof_tool_core {
	uint32_t size;	      /* sizeof the table uprof has: check it with UPROF_TOOL_HAS */
	uint32_t api_version; /* UPROF_TOOL_API_VERSION of this uprof */
	const char *uprof_version;
	void *host; /* uprof's; passed back below */

	/* Register the tool (call once from the entry point). @desc is the tool's (static)
	 * descriptor; uprof checks it and copies it. 0 or -EINVAL (uprof says why). */
	int (*register_tool)(const struct uprof_tool_core *core,
			     const struct uprof_tool_desc *desc);

	/* Declare a knob; its default is stored in *@value at once, and the command line's
	 * value (if any) once the entry point has returned. @name: letters, digits, '-', '_'.
	 * Strings are uprof's and live while the tool is loaded. 0, -EEXIST, -EINVAL. */
	int (*knob_int)(const struct uprof_tool_core *core, const char *name, int64_t *value,
			int64_t def, const char *help);
	int (*knob_bool)(const struct uprof_tool_core *core, const char *name, bool *value,
			 bool def, const char *help);
	int (*knob_double)(const struct uprof_tool_core *core, const char *name, double *value,
			   double def, const char *help);
	int (*knob_string)(const struct uprof_tool_core *core, const char *name, const char **value,
			   const char *def, const char *help);

	/* Collect time (only in `uprof collect --tool`; elsewhere a no-op returning 0): ask
	 * for data (enum uprof_tool_want). 0, -EINVAL (bad arg), -ENOTSUP. */
	int (*collect_want)(const struct uprof_tool_core *core, int what, const char *arg);

	/* Output, report time. A section is appended to report.csv after the base report:
	 * a blank line, the title (quoted), the column header (@columns, comma-separated,
	 * written as given), then rows of cells. Cells are quoted and escaped (text) or
	 * written as numbers (double: 4 decimals, as report.csv's). A row ends with row_end. */
	int (*section)(const struct uprof_tool_core *core, const char *title, const char *columns);
	int (*cell_text)(const struct uprof_tool_core *core, const char *text);
	int (*cell_int)(const struct uprof_tool_core *core, int64_t v);
	int (*cell_double)(const struct uprof_tool_core *core, double v);
	int (*row_end)(const struct uprof_tool_core *core);

	/* A file of the tool's own, in <session>/tools/<tool name>/@name (mode 0600). @name
	 * is a plain file name: no '/', not "." or "..", no leading '.'. The file is kept only
	 * if the tool succeeds. NULL with errno set. The tool fcloses it. */
	FILE *(*open_file)(const struct uprof_tool_core *core, const char *name);

	/* Lazy look-ups for the sample being called back (report time, inside the sample
	 * callback only). sample_source: file and line from DWARF; 0, or -ENOENT with *@file
	 * NULL and *@line 0. sample_stack: the call stack, leaf first, up to @max function
	 * names (and module paths in @modules, which may be NULL); returns the number of
	 * frames (1: the session has no stacks, just the sampled function) or -errno.
	 * Strings live until the session_end callback returns. */
	int (*sample_source)(const struct uprof_tool_core *core, const struct uprof_tool_sample *s,
			     const char **file, int *line);
	int (*sample_stack)(const struct uprof_tool_core *core, const struct uprof_tool_sample *s,
			    const char **functions, const char **modules, int max);

	/* 1.3 (check UPROF_TOOL_HAS(core, resolve)): where code address @addr of process @pid
	 * was while the session ran, from the report's symbol tables and DWARF, into @out
	 * (the tool sets out->size; uprof fills what fits). Any report-time callback of a
	 * session may call it (not over a job: -ENOTSUP). Give a return address less one for
	 * its call's line. 0, -ENOENT (no mapping of @pid held it: out->module ""), -EINVAL.
	 * Not thread-safe: call it from the callback's thread only (uprof calls back on one);
	 * the strings live until the next resolve call. */
	int (*resolve)(const struct uprof_tool_core *core, int pid, uint64_t addr,
		       struct uprof_tool_place *out);
};

/* 1.2: an OpenMP slice (openmp_region), as trace.json shows it: on the samples' clock. */
enum uprof_tool_omp_kind {
	UPROF_TOOL_OMP_REGION = 1, /* a thread's implicit task of a parallel region */
	UPROF_TOOL_OMP_WAIT = 2,   /* a wait inside one (--openmp-scope full): @what its type */
	UPROF_TOOL_OMP_TARGET = 3, /* a target construct on the host */
	UPROF_TOOL_OMP_DATA = 4,   /* a data transfer or allocation: @bytes */
	UPROF_TOOL_OMP_SUBMIT = 5, /* a kernel submit: @count the teams asked for */
	UPROF_TOOL_OMP_DEVICE = 6, /* the device's own trace record: @count, @bytes */
};
struct uprof_tool_omp_slice {
	uint32_t size;
	uint32_t kind;	 /* enum uprof_tool_omp_kind */
	int pid, tid;	 /* tid: the host thread (0 for a device's own record) */
	int device;	 /* target, data, submit, device slices: the device's number */
	uint32_t depth;	 /* region: its nesting level on the thread, 0 outermost */
	uint32_t member; /* region: the thread's number in the team (0: the primary) */
	uint32_t reserved0;
	int64_t begin_ns, end_ns; /* CLOCK_MONOTONIC, the samples' clock */
	uint64_t count, bytes;
	const char *site; /* its construct's row in report.csv's OpenMP tables ("" unknown) */
	const char *what; /* "parallel", "implicit barrier", "lock wait", "to device", ... */
};

/*
 * 1.3: a rank of an MPI job (mpi_rank), as the job's report.csv has it: the RANK SUMMARY
 * TABLE's row (--trace mpi) and the rank's session. Over a job directory
 * (`report -i JOBDIR --tool`), in rank order, once per selected rank that has MPI data;
 * then every rank's mpi_call rows, then (1.4) mpi_site rows, then mpi_event calls. The
 * session callbacks get the job (session->dir is the job directory); the sample, process,
 * thread, module, task, pause and openmp_region callbacks are a session's and are not
 * called over a job. From 1.4 the same four are called over one rank's session (`report
 * -i JOB/rank-N --tool`, collected with --trace mpi), after the session's own callbacks
 * and before session_end, with the numbers the job's report.csv has for that rank.
 */
struct uprof_tool_mpi_rank {
	uint32_t size;
	int rank;
	int pid; /* the rank's program */
	uint32_t reserved0;
	const char *host;
	double app_s;  /* MPI_Init's return to MPI_Finalize's call ("Elapsed Time") */
	double mpi_s;  /* MPI time, MPI_Init/MPI_Finalize apart ("MPI Time") */
	double wait_s; /* in waits and barriers ("Wait Time") */
	double init_s, finalize_s;
	uint64_t calls;	     /* MPI calls, every function ("Call Count") */
	uint64_t bytes_sent; /* "Volume(Bytes)" */
	const char *end;     /* how it ended: the End State ("completed", "exit(3)", ...) */
	const char *why;     /* its MPI data missing or partial, "" when whole */
};

/* 1.3: one MPI function of one rank (mpi_call): the rank's row of MPI FUNCTION SUMMARY
 * TABLE (Rank N) (report --detail), in that table's order. */
struct uprof_tool_mpi_call {
	uint32_t size;
	int rank;
	const char *function; /* "MPI_Send", "MPI_Allreduce", "mpi_send_" (Fortran), ... */
	uint64_t calls;
	double time_s; /* in it, all calls */
	uint64_t bytes_sent, bytes_recv;
};

/* 1.4: one MPI call site of one rank (mpi_site): its row of the job's MPI CALL SITES PER
 * RANK (report --mpi-top 0 lists them all), with the site's place from MPI CALL SITES.
 * Per rank (in rank order), by site number. A site is mpiP's: an MPI function called
 * from one source line (from one module offset where no line is known) by one caller
 * chain; its number is the job's (over one rank's session: that rank's own numbering). */
struct uprof_tool_mpi_site {
	uint32_t size;
	int rank;
	int site;	      /* the Site column */
	int line;	      /* its source line, 0 when not known */
	const char *function; /* the MPI function: "MPI_Send" */
	const char *place;    /* the File:Line column: "ring.c:42", "a.out+0x1234", "unknown" */
	const char *caller;   /* the Caller column: the function the call is in */
	const char *module;   /* the Module column: its module's name, "unknown" */
	const char *callers;  /* Callers Above (collect -g): "f (file:line) < g", "" without */
	uint64_t calls;
	double time_s;	   /* in it, all the rank's calls there */
	uint64_t messages; /* calls that moved bytes */
	uint64_t bytes, min_bytes, max_bytes;
};

/* 1.4: what an MPI call did (uprof_tool_mpi_event.flags). */
enum uprof_tool_mpi_flag {
	UPROF_TOOL_MPI_SEND = 1,	/* sent a message: dest, send_tag, sent */
	UPROF_TOOL_MPI_RECV = 2,	/* received one: source, recv_tag, recvd */
	UPROF_TOOL_MPI_NONBLOCKING = 4, /* posted a request: a COMPLETION event names it */
	UPROF_TOOL_MPI_STATUS = 8,	/* source, recv_tag, recvd are what arrived */
	UPROF_TOOL_MPI_COLL = 16,	/* a collective over comm */
	UPROF_TOOL_MPI_COMPLETION = 32	/* no call: request @posted completed, in the call
					 * recorded before it on its thread */
};

/* 1.4: one MPI call of a --trace mpi=full rank (mpi_event), in the order the rank recorded
 * them (per thread, in time order), rank after rank. Streamed from the rank's file as it
 * is read: nothing is kept for the tool, copy what you keep. */
struct uprof_tool_mpi_event {
	uint32_t size;
	int rank;
	uint64_t index;		  /* its place among the rank's recorded events, from 0 */
	const char *function;	  /* "MPI_Isend"; a COMPLETION: the completing call's */
	int64_t begin_ns, end_ns; /* CLOCK_MONOTONIC of the rank's host, the samples' clock */
	int tid;
	uint32_t flags; /* enum uprof_tool_mpi_flag */
	int dest, send_tag;	  /* world rank sent to (-1 none); collectives: root or -1 */
	int source, recv_tag;	  /* world rank received from (-1 none or unknown) */
	uint64_t sent, recvd;	  /* bytes */
	uint32_t comm;		  /* 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF, else its group's hash */
	uint32_t reserved0;
	uint64_t posted; /* COMPLETION: the index of the event that posted the request */
};

/* 1.3: a thread of a --trace os session (os_thread): its row of report.csv's THREAD STATES.
 * running + runnable + blocked + unaccounted = lifetime; blocked split by what it waited
 * for (sleep, I/O, lock, other), from the system call it was in. */
struct uprof_tool_os_thread {
	uint32_t size;
	int pid, tid;
	uint32_t reserved0;
	double lifetime_s, running_s, runnable_s, blocked_s;
	double sleep_s, io_s, lock_s, other_s;
	double unaccounted_s; /* before its first event, across lost records */
	uint64_t switches, preemptions, wakeups;
};

/* 1.3: one system call of one thread (os_syscall): its row of SYSTEM CALLS BY THREAD. */
struct uprof_tool_os_syscall {
	uint32_t size;
	int pid, tid;
	uint32_t reserved0;
	const char *name; /* "read", "futex", ...; "syscall_<nr>" when unknown */
	int64_t nr;	  /* this architecture's number */
	uint64_t calls, errors;
	uint64_t bytes; /* moved, for the read/write/send/recv families */
	double total_s, min_s, max_s;
};

typedef int (*uprof_tool_session_fn)(void *ctx, const struct uprof_tool_session *s);

/*
 * The tool's descriptor. Zero it (UPROF_TOOL_DESC_INIT does) and fill what you use:
 * NULL callbacks are not called. name is required (letters, digits, '-', '_', '.': it
 * names the tool's sections and its directory).
 */
struct uprof_tool_desc {
	uint32_t size;	      /* sizeof(struct uprof_tool_desc) as the tool was built */
	uint32_t api_version; /* UPROF_TOOL_API_VERSION as the tool was built */
	const char *name;
	const char *version; /* the tool's own, free text */
	const char *description;
	void *ctx; /* passed to every callback */

	uprof_tool_session_fn session_begin;
	int (*process)(void *ctx, const struct uprof_tool_process *p);
	int (*thread)(void *ctx, const struct uprof_tool_thread *t);
	int (*module)(void *ctx, const struct uprof_tool_module *m);
	int (*sample)(void *ctx, const struct uprof_tool_sample *s);
	int (*task)(void *ctx, const struct uprof_tool_task *t);
	int (*pause)(void *ctx, const struct uprof_tool_pause *p);
	uprof_tool_session_fn session_end;

	/* 1.2 (a reserved slot before): each OpenMP slice of a --trace openmp session, after
	 * the samples: the threads' regions and waits by (thread, begin), then the devices'
	 * slices by (process, device, begin). Nothing for a session not traced. */
	int (*openmp_region)(void *ctx, const struct uprof_tool_omp_slice *s);
	/* 1.3 (reserved slots before): over an MPI job directory, each rank's MPI functions
	 * (mpi_call) after every rank's summary (mpi_rank); see struct uprof_tool_mpi_rank.
	 * A tool that sets either over a job none of whose ranks has MPI data fails, said. */
	int (*mpi_call)(void *ctx, const struct uprof_tool_mpi_call *c);
	int (*mpi_rank)(void *ctx, const struct uprof_tool_mpi_rank *r);

	/* 1.1: called once every knob has its value (before any report-time callback, and in
	 * `uprof info` and `collect` too): return -EINVAL to refuse a value or a combination
	 * (uprof says so naming the tool, exit 2), 0 to go on. */
	int (*knobs_checked)(void *ctx);

	/* 1.2 (the first reserved slot before): a sample filter, like perf's dlfilter. Called
	 * for every sample before the base report is made (uprof reads the session twice):
	 * return 1 to drop the sample from report.csv and every export, 0 to keep it, or a
	 * negative errno to fail (nothing is dropped then). report.csv says how many samples
	 * the tools dropped. The other callbacks of a filtering tool see the samples kept. */
	int (*filter_sample)(void *ctx, const struct uprof_tool_sample *s);

	/* 1.3 (the next two reserved slots before): a --trace os session's threads (os_thread)
	 * then their system calls (os_syscall), after the samples and the OpenMP slices, in
	 * no promised order. Nothing for a session not traced, nor over a job. */
	int (*os_thread)(void *ctx, const struct uprof_tool_os_thread *t);
	int (*os_syscall)(void *ctx, const struct uprof_tool_os_syscall *c);

	/* 1.4 (the next two reserved slots before): each rank's MPI call sites (mpi_site),
	 * then each recorded call of a --trace mpi=full rank (mpi_event), after mpi_call; see
	 * struct uprof_tool_mpi_rank. Over a job none of whose ranks has MPI data a tool
	 * that sets one fails, said; over a session without any they are not called. */
	int (*mpi_site)(void *ctx, const struct uprof_tool_mpi_site *s);
	int (*mpi_event)(void *ctx, const struct uprof_tool_mpi_event *e);

	void *reserved[7]; /* zero: later minor versions take them in order */
};

#define UPROF_TOOL_DESC_INIT \
	{ \
		.size = sizeof(struct uprof_tool_desc), .api_version = UPROF_TOOL_API_VERSION \
	}

/* The one function a tool exports. @argv holds the tool's path and its raw knob
 * settings ("top=20"), for information: uprof parses the knobs itself. Return 0, or a
 * negative errno to refuse to load (after saying why is not possible: uprof names the
 * tool and the code). */
int uprof_tool_entry(const struct uprof_tool_core *core, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
