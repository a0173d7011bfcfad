// SPDX-License-Identifier: MIT
/*
 * How a launched program starts: --affinity (the CPUs it may run on) and --env-var (extra
 * environment), and which CPUs are sampled (-c). All are checked when parsed, so a typo
 * fails before anything runs; the first two are the program's only: uprof's own threads
 * stay where they are.
 */
#include "cli/collect.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "collect";

/* The CPUs this machine has online, from sysfs (all of 0..ncpus-1 if unreadable). */
static void online_cpus(struct pmc_cpus *out)
{
	char buf[4096];
	size_t n = 0;
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");

	if (f) {
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
	}
	if (!n || pmc_cpus_parse(buf, n, out)) {
		long cpus = sysconf(_SC_NPROCESSORS_CONF);

		memset(out, 0, sizeof(*out));
		for (long c = 0; c < cpus; c++)
			pmc_cpus_set(out, (int)c);
	}
}

/* A CPU list for @opt into @out: every CPU in it must be online. -1 or an exit code. */
static int parse_online_cpus(const char *opt, const char *arg, struct pmc_cpus *out)
{
	struct pmc_cpus online;
	char list[256];
	int ret = pmc_cpus_parse(arg, strlen(arg), out);

	if (ret == -ERANGE)
		return cli_error(EXIT_USAGE, CMD, "%s '%s': CPUs are numbered below %d", opt, arg,
				 PMC_MAX_CPUS);
	if (ret || !pmc_cpus_count(out))
		return cli_error(EXIT_USAGE, CMD,
				 "%s '%s': give a CPU list such as 0-3,8 (cpus numbered from 0)",
				 opt, arg);
	online_cpus(&online);
	for (int c = pmc_cpus_next(out, 0); c >= 0; c = pmc_cpus_next(out, c + 1)) {
		if (!pmc_cpus_has(&online, c)) {
			pmc_cpus_format(&online, list, sizeof(list));
			return cli_error(EXIT_USAGE, CMD,
					 "%s '%s': CPU %d is not online; this machine has CPUs %s",
					 opt, arg, c, list);
		}
	}
	return -1;
}

int collect_launch_parse_affinity(struct collect_state *st, const char *arg)
{
	int ret = parse_online_cpus("--affinity", arg, &st->affinity);

	st->has_affinity = ret < 0;
	return ret;
}

int collect_parse_sample_cpus(struct collect_state *st, const char *arg)
{
	struct pmc_cpus set;
	int ret = parse_online_cpus("-c/--cpu", arg, &set);

	if (ret >= 0)
		return ret;
	st->nsample_cpus = 0;
	for (int c = pmc_cpus_next(&set, 0); c >= 0 && st->nsample_cpus < PMC_MAX_CPUS;
	     c = pmc_cpus_next(&set, c + 1))
		st->sample_cpus[st->nsample_cpus++] = c;
	pmc_cpus_format(&set, st->sample_cpu_list, sizeof(st->sample_cpu_list));
	return -1;
}

int collect_launch_parse_env(struct collect_state *st, const char *arg)
{
	const char *p = arg;

	/* uProf's form: NAME=VALUE;NAME=VALUE; the option may be repeated too */
	while (*p) {
		const char *end = strchr(p, ';'), *eq;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		eq = memchr(p, '=', len);
		if (len && (!eq || eq == p))
			return cli_error(EXIT_USAGE, CMD,
					 "--env-var '%.*s': give NAME=VALUE (several separated by "
					 "';')",
					 (int)len, p);
		if (len) {
			if (st->nenv >= COLLECT_MAX_ENV)
				return cli_error(EXIT_USAGE, CMD, "--env-var: at most %d variables",
						 COLLECT_MAX_ENV);
			st->env[st->nenv] = strndup(p, len);
			if (!st->env[st->nenv])
				return cli_error(1, CMD, "out of memory");
			st->nenv++;
		}
		p += len + (end ? 1 : 0);
	}
	return -1;
}

void collect_launch_env(const struct collect_state *st)
{
	for (int i = 0; i < st->nenv; i++) {
		char *eq = strchr(st->env[i], '=');

		*eq = 0; /* NAME\0VALUE for setenv, then put back */
		setenv(st->env[i], eq + 1, 1);
		*eq = '=';
	}
	collect_mpi_env(st);
}

int collect_launch_affinity(const struct collect_state *st)
{
	cpu_set_t set;

	if (!st->has_affinity)
		return 0;
	CPU_ZERO(&set);
	for (int c = pmc_cpus_next(&st->affinity, 0); c >= 0 && c < CPU_SETSIZE;
	     c = pmc_cpus_next(&st->affinity, c + 1))
		CPU_SET(c, &set);
	/* the child still waits at the gate: it runs every instruction of the program
	 * on these CPUs, and threads and children it creates inherit them */
	return sched_setaffinity(st->child.pid, sizeof(set), &set) ? -errno : 0;
}

void collect_launch_release(struct collect_state *st)
{
	for (int i = 0; i < st->nenv; i++)
		free(st->env[i]);
	st->nenv = 0;
}
