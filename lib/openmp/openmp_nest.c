// SPDX-License-Identifier: MIT
/*
 * Nested parallelism in the OpenMP model (openmp.h): which sites are teams constructs,
 * each region site's parent region and nesting level, its team sizes, and its cells of
 * report.csv that say so. From the tool's nesting fields (SES_OMPT_F_NESTED ..
 * TEAM_MIN, lib/instrument/ompt_nest.c).
 */
#include "openmp/openmp.h"

#include <inttypes.h>
#include <string.h>

#define MAX_LEVEL 64 /* a chain of parents longer than this is a cycle (a forged file) */

static uint64_t enclosed(const struct rpt_omp_site *s)
{
	uint64_t e = 0;

	for (int k = 0; k < s->nthreads; k++)
		e |= s->threads[k].f[SES_OMPT_F_ENCLOSED] & SES_OMPT_ENCLOSED_TEAMS;
	for (int k = 0; k < s->nthreads; k++)
		if (s->threads[k].f[SES_OMPT_F_ENCLOSED] & SES_OMPT_ENCLOSED_NESTED)
			return e | s->threads[k].f[SES_OMPT_F_ENCLOSED];
	return e;
}

void rpt_omp_nest_prepare(struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];
		uint64_t e = enclosed(s);

		s->teams = s->kind == SES_OMPT_SITE_PARALLEL && (e & SES_OMPT_ENCLOSED_TEAMS);
		s->parent_id = e & SES_OMPT_ENCLOSED_NESTED ? (uint32_t)e : 0;
		s->nested = (e & SES_OMPT_ENCLOSED_NESTED) != 0;
	}
}

static int site_index(const struct rpt_omp_proc *p, uint32_t id)
{
	for (int i = 0; i < p->nsites; i++)
		if (p->sites[i].id == id && p->sites[i].kind == SES_OMPT_SITE_PARALLEL)
			return i;
	return -1;
}

void rpt_omp_nest_link(struct rpt_omp_proc *p)
{
	/* parents first (one scan each), then levels along them: a forged file of many sites
	 * costs sites^2, not sites^2 x levels */
	for (int i = 0; i < p->nsites; i++)
		p->sites[i].parent = p->sites[i].nested ? site_index(p, p->sites[i].parent_id) : -1;
	for (int i = 0; i < p->nsites; i++) {
		int at = p->sites[i].parent, level = 1;

		/* a parent merged away or lost ends the chain */
		while (at >= 0 && level < MAX_LEVEL) {
			level++;
			at = p->sites[at].parent;
		}
		p->sites[i].level = level;
	}
}

void rpt_omp_team_size(const struct rpt_omp_site *s, char *buf, size_t len)
{
	uint64_t max = 0, min = 0;

	for (int k = 0; k < s->nthreads; k++) {
		uint64_t hi = s->threads[k].f[SES_OMPT_F_TEAM_MAX];
		uint64_t lo = s->threads[k].f[SES_OMPT_F_TEAM_MIN];

		max = hi > max ? hi : max;
		if (lo && (!min || lo < min))
			min = lo;
	}
	if (!max) /* a file from before the team sizes: the threads seen in it */
		snprintf(buf, len, "%d", s->nthreads);
	else if (min && min != max)
		snprintf(buf, len, "%" PRIu64 " (%" PRIu64 "-%" PRIu64 ")", max, min, max);
	else
		snprintf(buf, len, "%" PRIu64, max);
}

void rpt_omp_write_nest_cells(const struct rpt_omp_proc *p, const struct rpt_omp_site *s, FILE *f)
{
	int n = s->nthreads ? s->nthreads : 1;

	fprintf(f, "%.6f,%d,\"%s\",", (double)s->f[SES_OMPT_F_NESTED] / 1e9 / n, s->level,
		s->parent >= 0 && s->parent < p->nsites ? p->sites[s->parent].name : "");
}
