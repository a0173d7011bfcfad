// SPDX-License-Identifier: MIT
/*
 * uprof info --list <what>: every list uProf's info has (collect-configs, predefined-events,
 * pmu-events, view-configs, cacheline-events, ostrace-events, trace-events, gpu-events) and
 * three of uprof's own (metric-groups for pcm -m, export-formats for report --export, lists:
 * the names --list takes, which bash completion reads). A list
 * of something uprof does not build is refused with the reason, not printed empty.
 */
#include "cli/cli.h"
#include "export/export.h"
#include "pmc/pmc.h"

#include <stdio.h>
#include <string.h>

/* --trace os's events, as cli/collect_ostrace.c takes them (tests/e2e/cli_help.sh runs
 * `collect --trace os=EV` for each name listed here, so the two cannot drift apart) */
static const char *const OSTRACE_EVENTS[][2] = {
	{ "syscall", "system calls: entry, exit, duration (raw_syscalls tracepoints)" },
	{ "pthread", "pthread waits: the futex system calls (raw_syscalls tracepoints)" },
	{ "sched", "context switches and wake-ups: off-CPU time (sched tracepoints)" },
	{ "pagefault", "user page faults (exceptions:page_fault_user, x86)" },
	{ "funccount", "calls of the user functions --func names (uprobes)" },
};

/* --trace's targets (cli/collect_trace.c) */
static const char *const TRACE_EVENTS[][2] = {
	{ "openmp", "OpenMP regions, loops, barriers and waits (OMPT tool in the target)" },
	{ "mpi", "MPI calls and their bytes (mpi[=openmpi|mpich][,lwt|full])" },
	{ "os", "OS events: os[=EV[:THRESHOLD_US],...], EV from --list ostrace-events" },
};

static int list_pairs(const char *const (*rows)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%-12s %s\n", rows[i][0], rows[i][1]);
	return 0;
}

static int list_ostrace(void)
{
	return list_pairs(OSTRACE_EVENTS, sizeof(OSTRACE_EVENTS) / sizeof(OSTRACE_EVENTS[0]));
}

static int list_trace(void)
{
	return list_pairs(TRACE_EVENTS, sizeof(TRACE_EVENTS) / sizeof(TRACE_EVENTS[0]));
}

static int list_exports(void)
{
	for (int e = 0; e < RPT_EXPORT_COUNT; e++) {
		const struct rpt_exporter *x = rpt_exporter(e);
		size_t cut = strcspn(x->help, "\n");

		printf("%-12s %-22s %.*s\n", x->name, x->file, (int)cut, x->help);
	}
	return 0;
}

/* pcm's groups for this machine's CPU family (its own directory first, then the common) */
static int list_metric_groups(void)
{
	char names[128][64];
	struct pmc_cpuid id;
	size_t n;

	pmc_cpuid_read(&id);
	n = cli_pcm_group_names(id.family, names, 128);
	if (!n)
		return cli_error(1, "info", "no pcm metric groups in %s/pcm (is it installed?)",
				 cli_config_dir());
	for (size_t i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}

struct info_list {
	const char *name;
	int (*show)(void); /* NULL: refused with @why */
	const char *why;
};

static int list_lists(void);

static const struct info_list LISTS[] = {
	{ "collect-configs", info_list_configs, NULL },
	{ "predefined-events", info_list_predefined, NULL },
	{ "pmu-events", info_list_pmu_events, NULL },
	{ "metric-groups", list_metric_groups, NULL },
	{ "export-formats", list_exports, NULL },
	{ "ostrace-events", list_ostrace, NULL },
	{ "trace-events", list_trace, NULL },
	{ "lists", list_lists, NULL },
	{ "view-configs", info_list_views, NULL },
	{ "cacheline-events", NULL,
	  "uprof has no cache-line (false sharing) analysis: it needs IBS op load/store "
	  "samples of the memory config, not built here" },
	{ "gpu-events", NULL,
	  "uprof profiles CPUs only: no GPU tracing or GPU counters (uProf's come from ROCm)" },
};

#define NLISTS (sizeof(LISTS) / sizeof(LISTS[0]))

/* the names --list takes (bash completion reads them here) */
static int list_lists(void)
{
	for (size_t i = 0; i < NLISTS; i++)
		printf("%s\n", LISTS[i].name);
	return 0;
}

int info_list(const char *what, const char *cmd)
{
	const char *names[NLISTS];
	char near[96], all[512] = "";

	for (size_t i = 0; i < NLISTS; i++) {
		if (!strcmp(what, LISTS[i].name)) {
			if (!LISTS[i].show)
				return cli_error(EXIT_USAGE, cmd, "--list %s: %s", what,
						 LISTS[i].why);
			return LISTS[i].show();
		}
		names[i] = LISTS[i].name;
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? ", " : "",
			 names[i]);
	}
	cli_did_you_mean(names, NLISTS, what, near, sizeof(near));
	return cli_error(EXIT_USAGE, cmd, "--list '%s': no such list%s; lists: %s", what, near,
			 all);
}
