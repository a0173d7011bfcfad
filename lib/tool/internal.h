/* SPDX-License-Identifier: MIT */
/* lib/tool internals: knobs (knobs.c), descriptor checks (desc.c), the child's host state
 * (host.c), the report-time driver (driver.c). */
#ifndef UPROF_TOOL_INTERNAL_H
#define UPROF_TOOL_INTERNAL_H

#include "tool/tool.h"
#include "job/job.h"
#include "uprof_tool.h"

#include <stddef.h>
#include <sys/types.h>

/* ---- knobs.c ---- */

struct tool_knob {
	char name[64];
	int type; /* enum uprof_tool_knob_type */
	char help[256];
	void *value; /* the tool's variable (int64_t, bool, double, const char *) */
	union {
		int64_t i;
		bool b;
		double d;
	} def;
	char *def_s; /* a string knob's default (owned) */
	char *set_s; /* a string knob's value from the command line (owned) */
};

struct tool_knobs {
	struct tool_knob k[TOOL_MAX_KNOBS];
	int n;
};

/* Declare knob @name of @type with its default (*(int64_t *), *(bool *), *(double *) or
 * (const char *) at @def), stored into @value at once. 0, -EEXIST (declared twice),
 * -EINVAL (bad name or type, NULL value), -E2BIG (too many). */
int tool_knobs_declare(struct tool_knobs *ks, const char *name, int type, void *value,
		       const void *def, const char *help);
/* One "name=value" (or a bare "name" for a bool) from the command line. 0, or -EINVAL
 * with @err: "unknown knob 'x' (its knobs: a, b)", "knob 'top' wants an integer, not
 * 'ten'". */
int tool_knobs_set(struct tool_knobs *ks, const char *setting, char *err, size_t errlen);
/* Does @setting ("name=value" or "name") name a declared knob? */
bool tool_knobs_known(const struct tool_knobs *ks, const char *setting);
/* Free the strings; the table is empty again. */
void tool_knobs_release(struct tool_knobs *ks);
/* @k's default as a command-line value ("20", "true", "0.5", "text"). */
void tool_knob_default(const struct tool_knob *k, char *buf, size_t len);

/* Split "path,a=1,b" (borrowed) into @path and @settings, pointers into @buf (a copy,
 * @buflen bytes). Returns the number of settings, or -EINVAL (empty path, an empty
 * setting) / -E2BIG (too long, too many for @max). */
int tool_spec_split(const char *spec, char *buf, size_t buflen, const char **path,
		    const char **settings, int max);

/* ---- desc.c ---- */

/* The smallest descriptor accepted: API 1.0's. */
#define TOOL_DESC_MIN_SIZE 232u
/* Larger ones (a newer minor version) are read up to here; the bytes past ours must be 0. */
#define TOOL_DESC_MAX_SIZE 4096u

/* Check the descriptor at @d as a tool registered it and copy what this uprof knows of it
 * into @out (the rest zero). 0, or -EPROTO with @err saying what is wrong. */
int tool_desc_check(const struct uprof_tool_desc *d, struct uprof_tool_desc *out, char *err,
		    size_t errlen);

/* ---- host.c: the state behind the core table, in the child ---- */

struct tool_host {
	struct uprof_tool_core core;
	const char *path;
	bool collect; /* collect_want records; elsewhere it is a no-op */
	bool registered;
	struct uprof_tool_desc desc;
	struct tool_knobs knobs;
	struct tool_info *info;	     /* what the parent gets back */
	const char *label;	     /* info->label once loaded: sections are titled by it */
	int first_error;	     /* of a core call during the entry point (register, knobs) */
	const char *const *settings; /* the command line's knob settings, during the entry */
	int nsettings;
	char error[512];

	/* report time (driver.c) */
	struct rpt *report;
	const struct rpt_job *job; /* over a job directory instead (driver_job.c) */
	FILE *out;		   /* sections */
	bool in_section, row_open;
	int files_dfd;			      /* the tool's directory (-1: none) */
	const struct rpt_walk_sample *sample; /* the sample being called back */
	struct rpt_code_place place;	      /* resolve's last answer (resolve.c) */
};

/* filter_sample over every walked sample of h->report: bit i of @drop set for each one
 * dropped (@n bits). 0 or -ECANCELED with h->error. */
int tool_driver_filter(struct tool_host *h, uint8_t *drop, size_t n);

/* Run @h's callbacks over the job @h->job (driver_job.c): session_begin, the MPI
 * callbacks, session_end. 0, or -ECANCELED with h->error. */
int tool_driver_run_job(struct tool_host *h, const char *job_dir);

/* The one frame of a run (driver.c): session_begin(@s), @body, session_end(@s), the last
 * row ended. 0, or -ECANCELED with h->error. */
int tool_driver_session(struct tool_host *h, const struct uprof_tool_session *s,
			int (*body)(struct tool_host *h, void *arg), void *arg);
/* A callback's failure @ret said into h->error ("its @what callback failed"): -ECANCELED. */
int tool_driver_failed(struct tool_host *h, const char *what, int ret);

/* The MPI callbacks over @j, a job or one rank's session (driver_mpi.c): mpi_rank,
 * mpi_call, mpi_site, mpi_event. 0, or -ECANCELED with h->error. */
int tool_driver_mpi(struct tool_host *h, const struct rpt_job *j);
/* Does the tool set any MPI callback? */
bool tool_driver_wants_mpi(const struct tool_host *h);
/* "@where MPI data for its mpi_x callback (collect with --trace mpi ...)" into h->error:
 * -ECANCELED. */
int tool_driver_no_mpi(struct tool_host *h, const char *where);

/* Hand @h->report's OS trace to os_thread and os_syscall (driver_os.c). 0, or -ECANCELED
 * with h->error. */
int tool_driver_os(struct tool_host *h);

/* The core table's resolve (resolve.c). */
int tool_resolve(const struct uprof_tool_core *c, int pid, uint64_t addr,
		 struct uprof_tool_place *out);

/* Set up @h's core table. No release: a host lives only in the child process that loads
 * the tool (child.c), and its knobs' strings end with that process. */
void tool_host_init(struct tool_host *h, const char *path, bool collect, struct tool_info *info);
/* Load the tool of @spec into @h: its file, its entry point, its descriptor, its knobs
 * from the command line. 0 or -errno (tool.h's list) with @err naming the tool. */
int tool_host_load(struct tool_host *h, const char *spec, char *err, size_t errlen);
/* The driver's part of the table (driver.c): output and sample look-ups. */
void tool_driver_core(struct uprof_tool_core *c);
/* Run @h's callbacks over @h->report. 0, or -ECANCELED with h->error. */
int tool_driver_run(struct tool_host *h, const char *session_dir);

/* ---- sandbox.c: in the worker, before the tool is loaded ---- */

/* Enter the tool's cell: RLIMIT_CORE 0, RLIMIT_CPU and RLIMIT_AS (on top of the address
 * space in use) of @lim, every fd open for writing closed but stdio and @keep, then a
 * Landlock domain: everything read-only, @files_dfd (-1: none) writable for plain files,
 * no signal out of the domain. Returns the Landlock ABI version in force (> 0), 0 where
 * the kernel has no Landlock (the rest still done), or -errno. */
int tool_sandbox_enter(const struct tool_limits *lim, int files_dfd, const int *keep, int nkeep);

/* ---- supervise.c: in the supervisor, the worker's parent and the tool's subreaper ---- */

struct tool_verdict {
	int status;	 /* the worker's, as from waitpid */
	bool timed_out;	 /* killed at the time limit */
	bool orphaned;	 /* killed because uprof ended: nobody reads this */
	double cpu_s;	 /* its user + system CPU time */
	long maxrss_kib; /* its peak resident memory */
	int left;	 /* processes it left behind, ended by the supervisor */
};

/* Wait for @worker, a child of the calling process, at most @timeout_s or until uprof
 * ends (SIGTERM, blocked by the caller), then kill it;
 * reap it, then kill and reap every process left below us (the caller is their subreaper),
 * until none is left. */
void tool_supervise(pid_t worker, double timeout_s, struct tool_verdict *v);

#endif
