// SPDX-License-Identifier: MIT
/*
 * A process's table of OpenMP sites while its .ompt file is loaded (openmp.h): by id,
 * hashed, bounded. Apart from lib/report/openmp.c (which names the sites with libdw) so that the
 * fuzz target of the .ompt records (fuzz/fuzz_ompt.c) runs the target loader over it.
 */
#include "openmp/openmp.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PROC_SITES 4096 /* the tool keeps 255 */

/* The site @id, made on first sight; NULL with *@full set past MAX_PROC_SITES, else
 * out of memory. Hashed: a forged file of many ids costs no more per record. */
struct rpt_omp_site *rpt_omp_site_for(struct rpt_omp_proc *p, uint32_t id, bool *full)
{
	uint64_t *slot = util_hash_slot(&p->index, 1, id, 0);
	struct rpt_omp_site *g;

	*full = false;
	if (!slot)
		return NULL;
	if (*slot)
		return &p->sites[*slot - 1];
	if (p->nsites >= MAX_PROC_SITES) {
		*full = true;
		return NULL;
	}
	g = realloc(p->sites, sizeof(*g) * (size_t)(p->nsites + 1));
	if (!g)
		return NULL;
	p->sites = g;
	g = &p->sites[p->nsites++];
	memset(g, 0, sizeof(*g));
	g->id = id;
	*slot = (uint64_t)p->nsites;
	return g;
}

void rpt_omp_split(const uint64_t *f, double *work, double *sync, double *overhead)
{
	double span = (double)f[SES_OMPT_F_SPAN], s = (double)f[SES_OMPT_F_SYNC];
	double lock = (double)f[SES_OMPT_F_LOCKWAIT], joined = (double)f[SES_OMPT_F_JOINED];
	double nested = (double)f[SES_OMPT_F_NESTED]; /* the inner regions' own */

	*sync = s;
	*work = span > s + lock + nested ? span - s - lock - nested : 0;
	*overhead = joined > span ? joined - span : 0;
}
