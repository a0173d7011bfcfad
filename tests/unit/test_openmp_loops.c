// SPDX-License-Identifier: MIT
/*
 * lib/openmp/openmp_loops.c: worksharing loops in the OpenMP model. The schedule said by
 * the bits of the runtime's ompt_work_t values (one named, several "Mixed", OpenMP 5.0's
 * plain loop "Unknown", a taskloop none); a region's iterations summed over its loops and
 * instances (and an older tool's fields read as one loop's); the region a loop ran in,
 * found by the tool's id after sites were folded together, "several" when its threads saw
 * two; a taskloop the runtime placed inside itself named after its region.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "openmp/openmp.h"

#define BIT(n) (1ULL << (n))

static void schedule_names(void **state)
{
	(void)state;
	assert_string_equal(rpt_omp_schedule_name(BIT(10)), "Static");
	assert_string_equal(rpt_omp_schedule_name(BIT(11)), "Dynamic");
	assert_string_equal(rpt_omp_schedule_name(BIT(12)), "Guided");
	assert_string_equal(rpt_omp_schedule_name(BIT(13)), "Other");
	assert_string_equal(rpt_omp_schedule_name(BIT(1)), "Unknown");
	assert_string_equal(rpt_omp_schedule_name(BIT(10) | BIT(11)), "Mixed");
	assert_string_equal(rpt_omp_schedule_name(BIT(10) | BIT(1)), "Mixed");
	/* a taskloop (7) is no loop schedule; nothing is "" */
	assert_string_equal(rpt_omp_schedule_name(BIT(7)), "");
	assert_string_equal(rpt_omp_schedule_name(BIT(10) | BIT(7)), "Static");
	assert_string_equal(rpt_omp_schedule_name(0), "");
}

static void region_sums(void **state)
{
	struct rpt_omp_site s;
	uint64_t n;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_false(rpt_omp_region_iterations(&s, &n));
	assert_string_equal(rpt_omp_region_schedule(&s), "");
	/* loops of 100 and 50, 3 instances, counted once each: 450, not 75 */
	s.f[SES_OMPT_F_WS_LOOPS] = 6;
	s.f[SES_OMPT_F_WS_ITERS] = 450;
	s.f[SES_OMPT_F_WS_SCHEDS] = BIT(10) | BIT(11);
	/* the old fields, as 2 members reported them, are not read beside the new */
	s.f[SES_OMPT_F_LOOPS] = 12;
	s.f[SES_OMPT_F_LOOP_ITERS] = 900;
	s.f[SES_OMPT_F_LOOP_KIND] = 11;
	assert_true(rpt_omp_region_iterations(&s, &n));
	assert_int_equal(n, 450);
	assert_string_equal(rpt_omp_region_schedule(&s), "Mixed");
	/* an older tool's session: one loop's count, the last loop's kind */
	s.f[SES_OMPT_F_WS_LOOPS] = s.f[SES_OMPT_F_WS_ITERS] = s.f[SES_OMPT_F_WS_SCHEDS] = 0;
	assert_true(rpt_omp_region_iterations(&s, &n));
	assert_int_equal(n, 75);
	assert_string_equal(rpt_omp_region_schedule(&s), "Dynamic");
	s.f[SES_OMPT_F_LOOP_KIND] = 1;
	assert_string_equal(rpt_omp_region_schedule(&s), "Unknown");
	/* a region whose only loop is a taskloop: its iterations, no schedule */
	memset(&s, 0, sizeof(s));
	s.f[SES_OMPT_F_WS_LOOPS] = 1;
	s.f[SES_OMPT_F_WS_ITERS] = 40;
	s.f[SES_OMPT_F_WS_SCHEDS] = BIT(7);
	assert_true(rpt_omp_region_iterations(&s, &n));
	assert_int_equal(n, 40);
	assert_string_equal(rpt_omp_region_schedule(&s), "");
}

/* A process of sites @kinds (ids 1..n, in that order); each loop's threads ran in the
 * region ids @regions (two threads each, 0: no thread). */
static void make(struct rpt_omp_proc *p, const uint16_t *kinds, int n, const uint32_t (*regions)[2])
{
	memset(p, 0, sizeof(*p));
	p->sites = calloc((size_t)n, sizeof(*p->sites));
	assert_non_null(p->sites);
	p->nsites = n;
	for (int i = 0; i < n; i++) {
		struct rpt_omp_site *s = &p->sites[i];

		s->id = (uint32_t)i + 1;
		s->kind = kinds[i];
		snprintf(s->func, sizeof(s->func), "f%d", i + 1);
		snprintf(s->file, sizeof(s->file), "x.c");
		s->line = 10 * (i + 1);
		if (!rpt_omp_is_loop(s))
			continue;
		s->threads = calloc(2, sizeof(*s->threads));
		assert_non_null(s->threads);
		for (int k = 0; k < 2; k++)
			if (regions[i][k])
				s->threads[s->nthreads++].f[SES_OMPT_F_LOOP_REGION] = regions[i][k];
	}
}

static void release(struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++)
		free(p->sites[i].threads);
	free(p->sites);
	rpt_omp_loops_free(p);
	rpt_omp_loops_free(p); /* twice is fine */
}

static void loop_regions(void **state)
{
	const uint16_t kinds[] = { SES_OMPT_SITE_PARALLEL, SES_OMPT_SITE_PARALLEL,
				   SES_OMPT_SITE_LOOP,	   SES_OMPT_SITE_LOOP,
				   SES_OMPT_SITE_LOOP,	   SES_OMPT_SITE_CRITICAL };
	const uint32_t regions[][2] = {
		{ 0, 0 }, { 0, 0 }, { 1, 1 }, { 2, 7 }, { 1, 2 }, { 0, 0 }
	};
	struct rpt_omp_proc p;
	const struct rpt_omp_site *r;
	bool several;

	(void)state;
	make(&p, kinds, 6, regions);
	r = rpt_omp_loop_region(&p, &p.sites[2], &several);
	assert_ptr_equal(r, &p.sites[0]);
	assert_false(several);
	/* region id 7 was folded into site 2: the loop ran in region 2 only */
	assert_null(rpt_omp_site_by_id(&p, 7));
	assert_int_equal(rpt_omp_site_alias(&p, 7, 2), 0);
	assert_ptr_equal(rpt_omp_site_by_id(&p, 7), &p.sites[1]);
	r = rpt_omp_loop_region(&p, &p.sites[3], &several);
	assert_ptr_equal(r, &p.sites[1]);
	assert_false(several);
	rpt_omp_loop_region(&p, &p.sites[4], &several);
	assert_true(several);
	/* an id that is a critical section's, or none, is no region */
	p.sites[2].threads[0].f[SES_OMPT_F_LOOP_REGION] = 6;
	p.sites[2].threads[1].f[SES_OMPT_F_LOOP_REGION] = 99;
	assert_null(rpt_omp_loop_region(&p, &p.sites[2], &several));
	assert_false(several);
	release(&p);
}

static void taskloop_names(void **state)
{
	const uint16_t kinds[] = { SES_OMPT_SITE_PARALLEL, SES_OMPT_SITE_TASKLOOP,
				   SES_OMPT_SITE_TASKLOOP, SES_OMPT_SITE_TASKLOOP };
	const uint32_t regions[][2] = { { 0, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 } };
	struct rpt_omp_proc p;

	(void)state;
	make(&p, kinds, 4, regions);
	snprintf(p.sites[0].func, sizeof(p.sites[0].func), "solve");
	/* the first two inside the runtime (no line), the third in the source */
	p.sites[1].line = p.sites[2].line = 0;
	snprintf(p.sites[3].name, sizeof(p.sites[3].name), "kept");
	rpt_omp_name_taskloops(&p);
	assert_string_equal(p.sites[1].name, "solve$omp$taskloop:1@x.c:10");
	assert_string_equal(p.sites[2].name, "solve$omp$taskloop:2@x.c:10");
	assert_string_equal(p.sites[3].name, "kept");
	release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(schedule_names),
		cmocka_unit_test(region_sums),
		cmocka_unit_test(loop_regions),
		cmocka_unit_test(taskloop_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
