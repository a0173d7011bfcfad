// SPDX-License-Identifier: MIT
/*
 * A tool of API 1.2 (tests/e2e/tool_omp.sh): the OpenMP slices it is called back with,
 * summed per (site, what): slices, instances (region slices of a team's primary thread)
 * and seconds, as the section "OPENMP SLICES", for the test to hold against report.csv.
 * Built with -DDECLARE_1_1 it says it is a tool of API 1.1, which must be refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <uprof_tool.h>

#include "tool_row.h"

#define MAX_ROWS 512

static const struct uprof_tool_core *core;
static struct row {
	char site[160], what[64];
	unsigned kind;
	long slices, instances;
	double seconds;
} rows[MAX_ROWS];
static int nrows;

static int slice(void *ctx, const struct uprof_tool_omp_slice *s)
{
	struct row *r = NULL;

	(void)ctx;
	if (s->size < sizeof(*s) || s->end_ns < s->begin_ns)
		return -EINVAL;
	for (int i = 0; i < nrows && !r; i++)
		if (rows[i].kind == s->kind && !strcmp(rows[i].site, s->site) &&
		    !strcmp(rows[i].what, s->what))
			r = &rows[i];
	if (!r) {
		if (nrows == MAX_ROWS)
			return -E2BIG;
		r = &rows[nrows++];
		strncpy(r->site, s->site, sizeof(r->site) - 1);
		strncpy(r->what, s->what, sizeof(r->what) - 1);
		r->kind = s->kind;
	}
	r->slices++;
	r->instances += s->kind == UPROF_TOOL_OMP_REGION && s->member == 0;
	r->seconds += (double)(s->end_ns - s->begin_ns) / 1e9;
	return 0;
}

static int end(void *ctx, const struct uprof_tool_session *s)
{
	int ret;

	(void)ctx;
	(void)s;
	ret = core->section(core, "OPENMP SLICES", "Site,What,Kind,Slices,Instances,Seconds");
	for (int i = 0; i < nrows && !ret; i++)
		ret = tool_row(core, "ttiiig", rows[i].site, rows[i].what, (int64_t)rows[i].kind,
			       (int64_t)rows[i].slices, (int64_t)rows[i].instances,
			       rows[i].seconds);
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc;
	(void)argv;
	core = c;
	d.name = "ompslices";
#ifdef DECLARE_1_1 /* built as if against API 1.1, where openmp_region was reserved */
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 1);
#endif
	d.openmp_region = slice;
	d.session_end = end;
	return c->register_tool(c, &d);
}
