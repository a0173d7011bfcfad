// SPDX-License-Identifier: MIT
/* uprof pcm -x <cpus>: the launched program's CPU affinity (AMDuProfPcm 4.0's -x, "app
 * affinity"), set on it while it waits at its gate, so it never runs elsewhere. */
#include "cli/pcm.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "pcm";

int pcm_affinity_parse(struct pcm_state *st, const char *arg)
{
	if (pmc_cpus_parse(arg, strlen(arg), &st->affinity) || !pmc_cpus_count(&st->affinity))
		return cli_error(EXIT_USAGE, CMD, "-x '%s': a CPU list for the program, e.g. 0-3,8",
				 arg);
	st->affinity_given = true;
	return 0;
}

int pcm_affinity_check(const struct pcm_state *st)
{
	char list[256];

	if (!st->affinity_given)
		return -1;
	if (!st->prog_argv)
		return cli_usage_error(CMD, "-x sets the launched program's CPUs: give a program");
	for (int c = pmc_cpus_next(&st->affinity, 0); c >= 0;
	     c = pmc_cpus_next(&st->affinity, c + 1))
		if (!pmc_cpus_has(pmc_topo_online(st->topo), c)) {
			pmc_cpus_format(pmc_topo_online(st->topo), list, sizeof(list));
			return cli_error(EXIT_USAGE, CMD, "-x: CPU %d is not online (online: %s)",
					 c, list);
		}
	return -1;
}

int pcm_affinity_apply(const struct pcm_state *st)
{
	cpu_set_t *set;
	size_t size = CPU_ALLOC_SIZE(PMC_MAX_CPUS);
	int ret = 0;

	if (!st->affinity_given || !st->have_child)
		return -1;
	set = CPU_ALLOC(PMC_MAX_CPUS);
	if (!set)
		return cli_error(1, CMD, "out of memory");
	CPU_ZERO_S(size, set);
	for (int c = pmc_cpus_next(&st->affinity, 0); c >= 0;
	     c = pmc_cpus_next(&st->affinity, c + 1))
		CPU_SET_S((size_t)c, size, set);
	if (sched_setaffinity(st->child.pid, size, set))
		ret = cli_error(1, CMD, "-x: cannot set the program's CPUs: %s", strerror(errno));
	CPU_FREE(set);
	return ret ? ret : -1;
}
