// SPDX-License-Identifier: MIT
/* libFuzzer target for the openmp/<pid>.ompt reader (lib/session/openmp.c), and for the
 * report's reading of its target and device records (lib/openmp/openmp_target.c), of
 * its waits (lib/openmp/openmp_waits.c) and of its region records when the summary is
 * missing (lib/openmp/openmp_window.c), with their sections written to /dev/null. */
#include <stddef.h>
#include <stdint.h>

#include "openmp/openmp.h"
#include "util/util.h"
#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A thread of each (site, tid) the values name, indexed as the report's loader does. */
static void add_threads(struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	for (size_t i = 0; i < o->nvalues; i++) {
		const struct ses_ompt_record *v = &o->values[i];
		struct rpt_omp_site *s;
		struct rpt_omp_tstat *g;
		uint64_t *h;
		bool full;

		if (!v->site || !(s = rpt_omp_site_for(p, v->site, &full)) || s->nthreads >= 64)
			continue;
		if (!(h = util_hash_slot(&p->index, 3, v->site, v->tid)) || *h)
			continue;
		g = realloc(s->threads, sizeof(*g) * (size_t)(s->nthreads + 1));
		if (!g)
			continue;
		s->threads = g;
		memset(&g[s->nthreads], 0, sizeof(*g));
		g[s->nthreads].tid = v->tid;
		*h = (uint64_t)++s->nthreads;
	}
}

static void report_targets(const struct ses_ompt *o)
{
	static FILE *null;
	struct rpt_omp_proc p = { 0 };
	struct ses_ompt_record *rebuilt = NULL;
	size_t nrebuilt = 0;

	if (!null)
		null = fopen("/dev/null", "w");
	for (size_t i = 0; i < o->nsites; i++) {
		bool full;
		struct rpt_omp_site *s = rpt_omp_site_for(&p, o->sites[i].id, &full);

		if (s)
			s->kind = o->sites[i].kind;
	}
	p.scope = o->scope;
	p.dropped = o->dropped_records;
	add_threads(&p, o);
	if (!rpt_omp_waits_load(&p, o) && null)
		rpt_omp_write_waits(&p, "", null);
	if (!rpt_omp_target_load(&p, o) && null)
		rpt_omp_write_target(&p, null);
	if (!rpt_omp_window_rebuild(&p, o, NULL, &rebuilt, &nrebuilt) && null)
		rpt_omp_write_window(&p, null);
	free(rebuilt);
	rpt_omp_target_free(&p);
	for (int i = 0; i < p.nsites; i++)
		free(p.sites[i].threads);
	free(p.sites);
	util_hash_release(&p.index);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_ompt o;
	char err[128];
	volatile uint64_t sink = 0;

	if (ses_ompt_parse(data, size, &o, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < o.nvalues; i++)
		sink += o.values[i].value + o.values[i].how;
	for (size_t i = 0; i < o.nevents; i++)
		sink += o.events[i].value;
	for (size_t i = 0; i < o.nsites; i++)
		sink += o.sites[i].code;
	for (size_t i = 0; i < o.ntargets; i++) {
		const char *name = ses_ompt_string(&o, o.targets[i].slot);

		sink += o.targets[i].value + (name ? (uint64_t)name[0] : 0);
	}
	sink += (uint64_t)o.runtime[0];
	report_targets(&o);
	ses_ompt_release(&o);
	return 0;
}
