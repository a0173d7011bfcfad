/* SPDX-License-Identifier: MIT */
/* cli/collect*.c: the state of one `uprof collect` run. */
#ifndef UPROF_CLI_COLLECT_H
#define UPROF_CLI_COLLECT_H

#include "cli/cli.h"
#include "pmc/pmc.h"
#include "sampler/sampler.h"
#include "session/session.h"

#include <limits.h>
#include <signal.h>

struct collect_state {
	/* options */
	const char *config_name;
	const char *outdir;
	const char *workdir;
	const char *interval_arg;
	double duration_s;	/* 0 = until the program exits */
	bool no_inherit;
	bool terminate;
	size_t mmap_pages;
	char **prog_argv;	/* borrowed from main's argv */

	/* derived */
	struct cli_config config;
	uint64_t period_ns;
	char prog_path[PATH_MAX];
	char session_dir[PATH_MAX];
	struct perf_event_attr attr;

	/* run */
	struct ses_info info;
	struct ses_writer *writer;
	struct smp *smp;
	struct smp_child child;
	int sigfd;
	bool child_exited;
	int child_status;
	int64_t child_cpu_ns;
	int stop_signal;	/* SIGINT/SIGTERM that stopped us, or 0 */
	bool write_failed;
	bool never_started;	/* the program could not be started: remove the session */
};

/* collect_run.c: sampling from the open gate to the end; returns uprof's exit code. */
int collect_run(struct collect_state *st);

#endif
