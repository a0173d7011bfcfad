/* SPDX-License-Identifier: MIT */
/*
 * lib/tool: the plug-in host of include/uprof_tool.h (docs/DESIGN.md §11).
 *
 *   tool_probe()   load a tool, run its entry point, check its descriptor and parse its
 *                  knobs: what `uprof info --tool` lists and `collect --tool` asks for
 *   tool_run()     the same, then its callbacks over a report (rpt_walk); its sections
 *                  come back in a file the caller appends to report.csv, its own files
 *                  land in <session>/tools/<name>/
 *
 * A tool never runs in the caller's process: each call forks a supervisor, the subreaper
 * of all the tool starts, which forks the worker that dlopen()s the tool (RTLD_LOCAL) and
 * does the work in its own process group, under CPU and memory limits and a Landlock
 * domain that leaves it nothing writable but its own directory. The supervisor kills the
 * worker at the time limit and, once it ended, every process it left (setsid() or not).
 * A tool that crashes, hangs, fails or is refused costs its own output, never the
 * caller's: the worker's answer comes back through a pipe, the sections through a file
 * kept only on success. The worker, a copy of the caller, reads the report in place (no
 * copy, no serialization). Nothing here prints.
 *
 * Errors (-errno; @err names the tool and says why):
 *   -EINVAL     a knob that does not exist or a bad value (a usage error: exit 2)
 *   -ENOENT     no such file        -ENOEXEC  not loadable, or no uprof_tool_entry
 *   -EPROTO     refused: descriptor (version, size, fields, reserved slots)
 *   -ECANCELED  the entry point or a callback returned an error
 *   -ECHILD     the tool crashed (a signal, its CPU or memory limit), or exited
 *   -ETIMEDOUT  it ran past the time limit
 */
#ifndef UPROF_TOOL_HOST_H
#define UPROF_TOOL_HOST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rpt;

#define TOOL_MAX_KNOBS 64
#define TOOL_MAX_EVENTS 8

struct tool_knob_info {
	char name[64];
	int type;      /* enum uprof_tool_knob_type */
	char def[128]; /* the default, as it would be written on the command line */
	char help[256];
};

/* What a tool said about itself. */
struct tool_info {
	char name[64], version[64], description[256];
	/* what its sections and files are named by in this report: the name, or "name.N"
	 * for the Nth load of a tool of that name (tool_run's @earlier) */
	char label[80];
	uint32_t api_version; /* the version it was built against */
	int nknobs;
	struct tool_knob_info knobs[TOOL_MAX_KNOBS];
	/* collect_want: call stacks ("" none, "fp", "dwarf") and extra events */
	char stacks[8];
	int nevents;
	char events[TOOL_MAX_EVENTS][128];
	/* where it ran: the Landlock ABI version of its domain (everything read-only but
	 * its own directory), 0 on a kernel without Landlock */
	int landlock;
	bool filters; /* it has a filter_sample callback (API 1.2): run tool_filter first */
	int left;     /* processes it left running, ended when it was done */
};

/* What a tool may use, each time it runs (report's --tool-timeout, --tool-cpu,
 * --tool-memory). */
struct tool_limits {
	double timeout_s;    /* wall clock: killed past it (with what it started) */
	double cpu_s;	     /* RLIMIT_CPU; 0: none */
	uint64_t memory_mib; /* address space on top of the report it shares; 0: none */
};

/* The type's name for listings: "int", "bool", "double", "string". */
const char *tool_knob_type_name(int type);

/*
 * @spec: "path.so[,knob=value...]" (borrowed). Runs the tool's entry point (with
 * @collect, its collect_want calls are recorded in @info) and parses its knobs, in a
 * child process bounded by @lim. 0 or -errno (see above).
 */
int tool_probe(const char *spec, bool collect, const struct tool_limits *lim,
	       struct tool_info *info, char *err, size_t errlen);

/*
 * Load the tool of @spec and run its callbacks over @r (opened with opts.walk; borrowed
 * and left unchanged) of session @session_dir, in a child bounded by @lim. Its
 * sections are written to @sections (the caller's file: on failure what is in it must
 * be dropped); its own files are kept in @session_dir/tools/<name>/ only on success.
 * 0 or -errno (see above); @info as tool_probe's.
 */
int tool_run(const char *spec, struct rpt *r, const char *session_dir, FILE *sections,
	     const struct tool_limits *lim, struct tool_info *info, char *err, size_t errlen);
/* Run the filter_sample callback of the tool of @spec over every walked sample of @r
 * (opened with opts.walk), in a child as tool_run does: bit i of @drop (@nsamples bits,
 * in memory shared with the child: MAP_SHARED) set for each sample the tool drops. 0 or
 * -errno with @err (the bits are then not to be used). */
int tool_filter(const char *spec, struct rpt *r, const struct tool_limits *lim, uint8_t *drop,
		size_t nsamples, char *err, size_t errlen);
/* The same, @earlier (@nearlier) naming the tools this report ran before: a tool of a
 * name already there gets its own sections and files as "name.2", "name.3"... */
int tool_run_after(const char *spec, struct rpt *r, const char *session_dir, FILE *sections,
		   const struct tool_limits *lim, const char *const *earlier, int nearlier,
		   struct tool_info *info, char *err, size_t errlen);

struct rpt_job;
/* The same over the MPI job @job (opened by the caller; borrowed) of the directory fd
 * @job_dfd (borrowed; its tools/ made beneath it), named @job_dir: the session callbacks
 * with the job's facts, then the MPI callbacks (driver_job.c, driver_mpi.c). */
int tool_run_job(const char *spec, const struct rpt_job *job, int job_dfd, const char *job_dir,
		 FILE *sections, const struct tool_limits *lim, const char *const *earlier,
		 int nearlier, struct tool_info *info, char *err, size_t errlen);

#endif
