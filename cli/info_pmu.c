// SPDX-License-Identifier: MIT
/*
 * uprof info --pmu-event pmcxNN|all|NAME: an event of this machine's PMUs (libpfm4's
 * tables, as --list pmu-events lists them) with its description, the uProf names that
 * count it, and its unit masks with their codes: what -e's umask= takes.
 */
#include "cli/cli.h"
#include "pmc/pmc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


struct pmu_query {
	bool all;
	bool by_code;
	uint64_t code;
	const char *name; /* EVENT or PMU::EVENT, matched without case */
	int shown;
	char pmus[256]; /* the PMUs seen, for the message when nothing matched */
};

/* pmcxNN, PMCxNN or 0xNN: the event code; false for a name */
static bool parse_code(const char *arg, uint64_t *code)
{
	const char *hex = NULL;
	char *end;

	if (!strncasecmp(arg, "pmcx", 4))
		hex = arg + 4;
	else if (!strncasecmp(arg, "0x", 2))
		hex = arg + 2;
	if (!hex || !isxdigit((unsigned char)*hex))
		return false;
	errno = 0;
	*code = strtoull(hex, &end, 16);
	return !errno && !*end;
}

static bool name_matches(const struct pmu_query *q, const char *pmu, const char *event)
{
	const char *sep = strstr(q->name, "::");

	if (!sep)
		return !strcasecmp(q->name, event);
	return strlen(pmu) == (size_t)(sep - q->name) &&
	       !strncasecmp(q->name, pmu, strlen(pmu)) && !strcasecmp(sep + 2, event);
}

static int print_umask(void *arg, const char *umask, uint64_t code, const char *desc, bool dfl)
{
	(void)arg;
	printf("    %-40s 0x%02llx  %s%s\n", umask, (unsigned long long)code, desc,
	       dfl ? " (the default)" : "");
	return 0;
}

static void print_event(const char *pmu, const char *event, uint64_t code, const char *desc)
{
	const struct pmc_predef *p;
	int n;

	printf("%s::%s (PMCx%03llX)\n  %s\n", pmu, event, (unsigned long long)code, desc);
	for (size_t i = 0; (p = pmc_predef_at(i)); i++)
		if (p->code == code)
			printf("  uProf name: %s (umask 0x%02x)\n", p->name, p->umask);
	printf("  unit masks:\n");
	n = pmc_pfm_umasks(pmu, event, print_umask, NULL);
	if (n == 0)
		printf("    none\n");
	else if (n < 0)
		printf("    (libpfm4 could not list them: %s)\n", strerror(-n));
}

static int show_event(void *arg, const char *pmu, const char *event, uint64_t code,
		      const char *desc)
{
	struct pmu_query *q = arg;

	if (!strstr(q->pmus, pmu) && strlen(q->pmus) + strlen(pmu) + 3 < sizeof(q->pmus))
		snprintf(q->pmus + strlen(q->pmus), sizeof(q->pmus) - strlen(q->pmus), "%s%s",
			 *q->pmus ? ", " : "", pmu);
	if (!q->all && (q->by_code ? code != q->code : !name_matches(q, pmu, event)))
		return 0;
	if (q->shown++)
		putchar('\n');
	print_event(pmu, event, code, desc);
	return 0;
}

int info_show_pmu_event(const char *cmd, const char *opt, const char *arg)
{
	struct pmu_query q = { .all = !strcmp(arg, "all"), .name = arg };
	int n;

	if (!*arg)
		return cli_error(EXIT_USAGE, cmd, "%s needs an event: pmcxNN (its code), a name, or all",
				 opt);
	q.by_code = !q.all && parse_code(arg, &q.code);
	n = pmc_pfm_list(show_event, &q);
	if (n < 0)
		return cli_error(1, cmd, "libpfm4 could not be initialized");
	if (!n)
		return cli_error(1, cmd,
				 "%s %s: no hardware PMU here that libpfm4 knows (in a VM, "
				 "the host must expose a virtual PMU; see 'uprof info --system'); "
				 "LIBPFM_FORCE_PMU=amd64_fam19h_zen3 shows Zen3's events",
				 opt, arg);
	if (!q.shown)
		return cli_error(EXIT_USAGE, cmd,
				 "%s %s: no such event on %s ('uprof info --list "
				 "pmu-events' lists them with their codes)",
				 opt, arg, q.pmus);
	return 0;
}
