// SPDX-License-Identifier: MIT
/*
 * uProf options and configs that no part of uprof builds, each answered with the reason
 * instead of "unknown option" (scripts/uprof_cli_coverage.py counts the unknown ones: the
 * aim is none). Hidden from --help; the parser says "--<name> [<value>]: <reason>", exit 2.
 * The reasons are what the user can do instead, where there is something.
 */
#include "cli/cli.h"
#include "cli/options.h"

#include <string.h>

#define NO_KVM_GUEST \
	"profiling a KVM guest from the host is not built: run uprof inside the guest (a " \
	"guest with a virtual PMU samples its own events; see 'uprof info --system')"
#define NO_CACHELINES \
	"cache-line (false sharing) analysis is not built: it needs the IBS op load/store " \
	"samples of uProf's memory config"

const struct cli_option cli_uprof_refused_collect_options[] = {
	OPT_REFUSED(0, "kvm-guest", "<qemu-pid>", NO_KVM_GUEST, NULL),
	OPT_REFUSED(0, "guest-kallsyms", "<file>", NO_KVM_GUEST, NULL),
	OPT_REFUSED(0, "guest-modules", "<file>", NO_KVM_GUEST, NULL),
	OPT_REFUSED(0, "guest-search-path", "<dir>", NO_KVM_GUEST, NULL),
	OPT_REFUSED(0, "branch-filter", "<filter>",
		    "taken-branch sampling (AMD BRS / LbrExtV2) is not built: -g samples call "
		    "stacks, and report's callers and callees come from them",
		    NULL),
	OPT_REFUSED(0, "func-size", "<bytes>",
		    "function tracing (uProf's overview config) is not built: --trace os traces "
		    "system calls, waits, switches and page faults",
		    NULL),
	/* uProf unwinds on a timer of its own; perf_event gives each sample its stack */
	OPT_REFUSED(0, "call-graph-interval", "<ms>",
		    "uprof takes a call stack with every sample, not on a separate timer: leave it "
		    "out (-g or --call-graph gives stacks; the interval field of --call-graph "
		    "I:D:S:F is accepted and has no effect)",
		    NULL),
	/* uProf's hotspots timer is a signal sent to the program; ours is perf_event's
	 * cpu-clock, which sends the program nothing */
	OPT_REFUSED(0, "profiling-signal", "<signo>",
		    "uprof's timer samples through perf_event (cpu-clock) and sends the program "
		    "no signal: there is none to choose",
		    NULL),
	/* named in uProf 5.3's release notes only: neither its spelling nor its effect is
	 * documented (docs: uprof-cli.md §2) */
	OPT_REFUSED(0, "collect-thread", NULL,
		    "uProf documents no effect for it: every thread's samples are collected "
		    "already (report's --group-by thread shows them per thread)",
		    NULL),
	OPT_END(),
};

const struct cli_option cli_refused_report_only_options[] = {
	OPT_REFUSED(0, "imix", NULL,
		    "the instruction mix needs IBS op samples (collect -e event=ibs-op), which "
		    "report does not decode",
		    NULL),
	OPT_REFUSED(0, "imix-group-by", "<by>",
		    "the instruction mix needs IBS op samples (collect -e event=ibs-op), which "
		    "report does not decode",
		    NULL),
	OPT_REFUSED(0, "show-sys-src", NULL,
		    "report has no source view: 'uprof annotate' shows any function's source "
		    "lines, system modules' too where their debug info is found (--symbol-path)",
		    NULL),
	OPT_REFUSED(0, "symbol-server", "<url>",
		    "Windows only (PDB symbol servers); on Linux --symbol-path names where "
		    "debug files are",
		    NULL),
	OPT_REFUSED(0, "symbol-cache-dir", "<dir>",
		    "Windows only (PDB symbol servers); on Linux --symbol-path names where "
		    "debug files are",
		    NULL),
	OPT_REFUSED(0, "show-all-cachelines", NULL, NO_CACHELINES, NULL),
	OPT_REFUSED(0, "limit-cacheinfo", "<n>", NO_CACHELINES, NULL),
	OPT_END(),
};

const struct cli_option cli_refused_info_options[] = {
	OPT_REFUSED(0, "bpf", NULL,
		    "uprof uses no eBPF: --trace os reads kernel tracepoints through perf_event "
		    "('info --system' says whether they are readable)",
		    NULL),
	OPT_END(),
};

/* compare's table is on stdout already; uProf's --stdout asks for just that */
static int stdout_already(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o, (void)arg, (void)state, (void)cmd;
	return -1;
}

const struct cli_option cli_compat_compare_options[] = {
	{ .kind = CLI_OPTK_CALLBACK,
	  .long_name = "stdout",
	  .flags = CLI_OPT_NOARG | CLI_OPT_HIDDEN,
	  .fn = stdout_already },
	OPT_END(),
};

/* uProf's configs that no file in configs/ defines, with the reason */
static const char *const REFUSED_CONFIGS[][2] = {
	{ "energy", "uProf's energy config is Windows only; 'uprof pcm -m ipc' shows "
		    "frequency and utilization" },
	{ "gpu", "uprof profiles CPUs only: no GPU tracing or GPU counters" },
	{ "gpu_sol", "uprof profiles CPUs only: no GPU tracing or GPU counters" },
};

const char *cli_config_refusal(const char *name)
{
	for (size_t i = 0; name && i < sizeof(REFUSED_CONFIGS) / sizeof(REFUSED_CONFIGS[0]); i++)
		if (!strcmp(name, REFUSED_CONFIGS[i][0]))
			return REFUSED_CONFIGS[i][1];
	return NULL;
}
