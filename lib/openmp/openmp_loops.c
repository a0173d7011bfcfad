// SPDX-License-Identifier: MIT
/*
 * Worksharing loops and taskloops in the OpenMP model (openmp.h): the schedule a loop or
 * a region ran under, from the bits of the ompt_work_t values the runtime gave
 * (SES_OMPT_F_WS_SCHEDS, SES_OMPT_F_LOOP_SCHEDS), a region's iterations, and the region
 * each loop site ran in, found by the id the tool gave it after the report has folded
 * sites of one construct together (rpt_omp_site_alias).
 */
#include "openmp/openmp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ompt_work_t (OpenMP 5.2) */
enum {
	WORK_LOOP = 1, /* 5.0: a loop, the schedule not said */
	WORK_TASKLOOP = 7,
	WORK_LOOP_STATIC = 10,
	WORK_LOOP_DYNAMIC = 11,
	WORK_LOOP_GUIDED = 12,
	WORK_LOOP_OTHER = 13,
};

const char *rpt_omp_schedule_name(uint64_t bits)
{
	static const struct {
		int work;
		const char *name;
	} names[] = {
		{ WORK_LOOP_STATIC, "Static" }, { WORK_LOOP_DYNAMIC, "Dynamic" },
		{ WORK_LOOP_GUIDED, "Guided" }, { WORK_LOOP_OTHER, "Other" },
		{ WORK_LOOP, "Unknown" }, /* 5.0's ompt_work_loop: the runtime does not say */
	};
	const char *one = "";
	int n = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (bits & 1ULL << names[i].work) {
			one = names[i].name;
			n++;
		}
	return n > 1 ? "Mixed" : one;
}

bool rpt_omp_is_loop(const struct rpt_omp_site *s)
{
	return s->kind == SES_OMPT_SITE_LOOP || s->kind == SES_OMPT_SITE_TASKLOOP;
}

int rpt_omp_site_alias(struct rpt_omp_proc *p, uint32_t from, uint32_t to)
{
	uint32_t(*g)[2];

	if (p->naliases == p->capaliases) {
		size_t cap = p->capaliases ? p->capaliases * 2 : 8;

		g = realloc(p->aliases, sizeof(*g) * cap);
		if (!g)
			return -ENOMEM;
		p->aliases = g;
		p->capaliases = cap;
	}
	p->aliases[p->naliases][0] = from;
	p->aliases[p->naliases][1] = to;
	p->naliases++;
	return 0;
}

const struct rpt_omp_site *rpt_omp_site_by_id(const struct rpt_omp_proc *p, uint32_t id)
{
	/* a folded site's id names the site it was folded into (never itself folded later:
	 * sites are folded into the one kept before them) */
	for (size_t i = 0; i < p->naliases; i++)
		if (p->aliases[i][0] == id) {
			id = p->aliases[i][1];
			break;
		}
	for (int i = 0; id && i < p->nsites; i++)
		if (p->sites[i].id == id)
			return &p->sites[i];
	return NULL;
}

const struct rpt_omp_site *rpt_omp_loop_region(const struct rpt_omp_proc *p,
					       const struct rpt_omp_site *loop, bool *several)
{
	const struct rpt_omp_site *region = NULL;

	*several = false;
	for (int k = 0; k < loop->nthreads; k++) {
		uint64_t id = loop->threads[k].f[SES_OMPT_F_LOOP_REGION];
		const struct rpt_omp_site *s = id && id <= UINT32_MAX
						       ? rpt_omp_site_by_id(p, (uint32_t)id)
						       : NULL;

		if (!s || s->kind != SES_OMPT_SITE_PARALLEL)
			continue;
		if (region && s != region)
			*several = true;
		region = s;
	}
	return region;
}

bool rpt_omp_region_iterations(const struct rpt_omp_site *s, uint64_t *iterations)
{
	uint64_t loops = s->f[SES_OMPT_F_LOOPS];

	*iterations = 0;
	if (s->f[SES_OMPT_F_WS_LOOPS]) {
		*iterations = s->f[SES_OMPT_F_WS_ITERS];
		return true;
	}
	/* a session of a tool before the WS fields: every member counted every loop, so
	 * the sum over members and loops per loop begun is one loop's iterations */
	if (loops)
		*iterations = (s->f[SES_OMPT_F_LOOP_ITERS] + loops / 2) / loops;
	return loops != 0;
}

const char *rpt_omp_region_schedule(const struct rpt_omp_site *s)
{
	if (s->f[SES_OMPT_F_WS_LOOPS])
		return rpt_omp_schedule_name(s->f[SES_OMPT_F_WS_SCHEDS]);
	if (!s->f[SES_OMPT_F_LOOPS])
		return "";
	/* before the WS fields: the last loop's kind */
	return s->f[SES_OMPT_F_LOOP_KIND] < 64
		       ? rpt_omp_schedule_name(1ULL << s->f[SES_OMPT_F_LOOP_KIND])
		       : "Unknown";
}

void rpt_omp_loops_free(struct rpt_omp_proc *p)
{
	free(p->aliases);
	p->aliases = NULL;
	p->naliases = p->capaliases = 0;
}

void rpt_omp_name_taskloops(struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];
		const struct rpt_omp_site *region;
		bool several;
		int n = 1;

		if (s->kind != SES_OMPT_SITE_TASKLOOP || s->line > 0 ||
		    !(region = rpt_omp_loop_region(p, s, &several)) || several)
			continue;
		snprintf(s->func, sizeof(s->func), "%s", region->func);
		snprintf(s->file, sizeof(s->file), "%s", region->file);
		s->line = region->line;
		for (int j = 0; j < i; j++)
			n += p->sites[j].kind == SES_OMPT_SITE_TASKLOOP &&
			     !strcmp(p->sites[j].func, s->func);
		snprintf(s->name, sizeof(s->name), "%s$omp$taskloop:%d@%s:%d", s->func, n, s->file,
			 s->line);
	}
}
