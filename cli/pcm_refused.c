// SPDX-License-Identifier: MIT
/*
 * AMDuProfPcm's options that uprof pcm does not build (4.0's output knobs, 5.x's extra
 * collectors), each refused with the reason and what to use instead rather than "unknown
 * option". Several are short options only, so the refusal is a callback that names the
 * option as the user wrote it; hidden from --help. -v (the version) is simply answered.
 */
#include "cli/cli.h"
#include "cli/options.h"

#include <stdio.h>

static int refuse(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)state;
	if (o->long_name)
		return cli_error(EXIT_USAGE, cmd, "--%s%s%s: %s", o->long_name, arg ? " " : "",
				 arg ? arg : "", o->what);
	return cli_error(EXIT_USAGE, cmd, "-%c%s%s: %s", o->short_name, arg ? " " : "",
			 arg ? arg : "", o->what);
}

static int version(const struct cli_option *o, const char *arg, void *state, const char *cmd)
{
	(void)o, (void)arg, (void)state, (void)cmd;
	printf("uprof %s\n", UPROF_VERSION);
	return 0;
}

#define REFUSE(s, l, noarg, why) \
	{ \
		.kind = CLI_OPTK_CALLBACK, .short_name = (s), .long_name = (l), \
		.flags = CLI_OPT_HIDDEN | ((noarg) ? CLI_OPT_NOARG : 0), .fn = refuse, \
		.what = (why) \
	}

const struct cli_option cli_refused_pcm_options[] = {
	REFUSE('D', NULL, 0,
	       "raw counts are not dumped: the CSV has the metrics per interval, -C over the "
	       "whole run"),
	REFUSE('q', NULL, 1, "the CSV's topology block is part of its layout (uProf 5 has no -q)"),
	REFUSE('k', NULL, 1, "uProf 4.0 only: the CSV's columns name their package already"),
	REFUSE('s', NULL, 1, "every row starts with its Timestamp column already"),
	REFUSE('n', NULL, 1, "'uprof info --system' shows the topology, NUMA nodes included"),
	REFUSE('r', NULL, 1,
	       "pcm counts through perf_event, which owns the counters: there are no PMC MSRs "
	       "to reset"),
	REFUSE('w', NULL, 0,
	       "uProf 4.0 only: start pcm from the program's directory (cd <dir> && uprof pcm "
	       "... -- ./prog)"),
	REFUSE(0, "no-aggr", 1,
	       "raw uncore units (Umc-0) are not shown: -A picks the levels (system, package, "
	       "ccd, ccx, core)"),
	REFUSE(0, "collect-power", 1,
	       "package and core power (RAPL) are not pcm metrics here: pcm counts PMC events"),
	REFUSE(0, "collect-pcie", 1, "PCIe bandwidth is a Data Fabric metric group: -m pcie"),
	REFUSE(0, "collect-xgmi", 1, "xGMI bandwidth is a Data Fabric metric group: -m xgmi"),
	REFUSE(0, "collect-guest", 1,
	       "a hypervisor's guest/host split is not built: run pcm inside the guest"),
	REFUSE(0, "collect-host", 1,
	       "a hypervisor's guest/host split is not built: run pcm on the host"),
	{ .kind = CLI_OPTK_CALLBACK,
	  .short_name = 'v',
	  .flags = CLI_OPT_HIDDEN | CLI_OPT_NOARG,
	  .fn = version },
	OPT_END(),
};
