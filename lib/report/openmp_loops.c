// SPDX-License-Identifier: MIT
/*
 * report.csv's OpenMP LOOP METRIC table (openmp_csv.c writes it after the region rows):
 * one row per worksharing loop or taskloop construct (a LOOP or TASKLOOP site, named like
 * the regions: <func>$omp$for:<n>@<file>:<line>), grouped under the region it ran in, in
 * the region rows' order: the schedule the runtime named, the chunk size ("-": no OMPT
 * callback gives it), instances and iterations summed over them.
 */
#include "report/internal.h"
#include "openmp/openmp.h"

#include <inttypes.h>

static void loop_row(const struct rpt_omp_proc *p, const struct rpt_omp_site *l, FILE *f)
{
	bool several;
	const struct rpt_omp_site *region = rpt_omp_loop_region(p, l, &several);
	const char *sched = l->kind == SES_OMPT_SITE_TASKLOOP
				    ? "Taskloop"
				    : rpt_omp_schedule_name(l->f[SES_OMPT_F_LOOP_SCHEDS]);

	fprintf(f, "\"%s\",\"%s\",%s,-,%" PRIu64 ",%" PRIu64 "\n", l->name,
		several	 ? "(several regions)"
		: region ? region->name
			 : "unknown",
		*sched ? sched : "Unknown", l->f[SES_OMPT_F_LOOP_INSTANCES],
		l->f[SES_OMPT_F_LOOP_COUNT]);
}

void rpt_omp_write_loops(const struct rpt_omp_proc *p, const char *who, FILE *f)
{
	bool any = false;

	for (int i = 0; i < p->nsites && !any; i++)
		any = rpt_omp_is_loop(&p->sites[i]);
	if (!any)
		return;
	fprintf(f, "\nOpenMP LOOP METRIC (%sPID-%d)\n", who, p->pid);
	fprintf(f, "Loop,Region,Schedule Type,Loop Chunk Size,Instances,Loop Iterations\n");
	/* under each region in turn, then those whose region is not one (several, unknown) */
	for (int k = 0; k <= p->nsites; k++) {
		const struct rpt_omp_site *region = k < p->nsites ? &p->sites[k] : NULL;

		if (region && region->kind != SES_OMPT_SITE_PARALLEL)
			continue;
		for (int i = 0; i < p->nsites; i++) {
			const struct rpt_omp_site *l = &p->sites[i];
			bool several;
			const struct rpt_omp_site *in;

			if (!rpt_omp_is_loop(l))
				continue;
			in = rpt_omp_loop_region(p, l, &several);
			if (several ? !region : in == region)
				loop_row(p, l, f);
		}
	}
}
