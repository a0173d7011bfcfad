// SPDX-License-Identifier: MIT
/*
 * lib/openmp/openmp_waits.c: waits by type per (region, thread). From the wait records of
 * a full-scope file: each pair's time in its type's column, a wait paused around a task
 * counted in its two pieces, one left open closed by its implicit task's end, a mutex
 * wait typed by its lock site's kind and counted in the region open on its thread, none
 * outside a region; records that pair with nothing counted, never counted as waits.
 * From the tool's sums (basic scope, or a full file that lost records): the fields by
 * type, and what SYNC and LOCKWAIT hold beyond them as Other.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "openmp/openmp.h"
#include "util/util.h"

#define REGION 1
#define CRIT 2
#define LOCK 3

/* A process with sites REGION (parallel), CRIT (critical), LOCK (lock) and @n threads
 * of REGION, tids 100, 101, ... */
static void proc(struct rpt_omp_proc *p, uint16_t scope, int n)
{
	const struct {
		uint32_t id;
		uint16_t kind;
	} sites[] = { { REGION, SES_OMPT_SITE_PARALLEL },
		      { CRIT, SES_OMPT_SITE_CRITICAL },
		      { LOCK, SES_OMPT_SITE_LOCK } };
	struct rpt_omp_site *s;
	bool full;

	memset(p, 0, sizeof(*p));
	p->scope = scope;
	for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
		s = rpt_omp_site_for(p, sites[i].id, &full);
		assert_non_null(s);
		s->kind = sites[i].kind;
	}
	s = &p->sites[0];
	s->threads = calloc((size_t)n, sizeof(*s->threads));
	assert_non_null(s->threads);
	s->nthreads = s->capthreads = n;
	for (int k = 0; k < n; k++) {
		s->threads[k].tid = 100 + (uint32_t)k;
		s->threads[k].slot = (uint32_t)k + 1;
		*util_hash_slot(&p->index, 3, REGION, 100 + (uint64_t)k) = (uint64_t)k + 1;
	}
}

static void release(struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++)
		free(p->sites[i].threads);
	free(p->sites);
	util_hash_release(&p->index);
}

static const uint64_t *waits(struct rpt_omp_proc *p, int k)
{
	return p->sites[0].threads[k].waits;
}

static int load(struct rpt_omp_proc *p, struct ses_ompt_record *recs, size_t n)
{
	struct ses_ompt o;

	memset(&o, 0, sizeof(o));
	o.events = recs;
	o.nevents = n;
	return rpt_omp_waits_load(p, &o);
}

#define B(t, tid) { t, tid, SES_OMPT_BEGIN, 0, REGION, 0 }
#define E(t, tid) { t, tid, SES_OMPT_END, 0, REGION, 0 }
#define WB(t, tid, how, site) { t, tid, SES_OMPT_WAIT_BEGIN, how, site, 0 }
#define WE(t, tid, how, site) { t, tid, SES_OMPT_WAIT_END, how, site, 0 }

static void records_pair_per_thread_by_type(void **state)
{
	/* two threads' records interleaved as the ring drained them */
	struct ses_ompt_record recs[] = {
		B(10, 100),
		B(12, 101),
		WB(100, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION),
		WB(100, 101, SES_OMPT_WAIT_TASKWAIT, REGION),
		WE(150, 101, SES_OMPT_WAIT_TASKWAIT, REGION), /* a task runs: paused */
		WB(200, 101, SES_OMPT_WAIT_TASKWAIT, REGION), /* and resumed */
		WE(300, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION),
		WE(260, 101, SES_OMPT_WAIT_TASKWAIT, REGION),
		WB(400, 100, SES_OMPT_WAIT_MUTEX, CRIT),
		WB(400, 101, SES_OMPT_WAIT_MUTEX, LOCK),
		WE(450, 100, SES_OMPT_WAIT_MUTEX, CRIT),
		WE(470, 101, SES_OMPT_WAIT_MUTEX, LOCK),
		WB(500, 100, SES_OMPT_WAIT_BARRIER_WORKSHARE, REGION),
		WE(530, 100, SES_OMPT_WAIT_BARRIER_WORKSHARE, REGION),
		WB(600, 101, SES_OMPT_WAIT_BARRIER_IMPLICIT, REGION),
		WB(600, 100, SES_OMPT_WAIT_BARRIER_IMPLICIT, REGION),
		E(700, 100), /* closes its open wait */
		WE(650, 101, SES_OMPT_WAIT_BARRIER_IMPLICIT, REGION),
		E(660, 101),
		/* after the region: a mutex wait outside any region counts nowhere */
		WB(800, 100, SES_OMPT_WAIT_MUTEX, LOCK),
		WE(900, 100, SES_OMPT_WAIT_MUTEX, LOCK),
	};
	struct rpt_omp_proc p;

	(void)state;
	proc(&p, SES_OMPT_SCOPE_FULL, 2);
	assert_int_equal(load(&p, recs, sizeof(recs) / sizeof(recs[0])), 0);
	assert_true(p.waits_from_records);
	assert_int_equal(p.waits_unpaired, 0);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_EXPLICIT], 200);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_CRITICAL], 50);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_WORKSHARE], 30);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_IMPLICIT], 100);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_LOCK], 0);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_TASKWAIT], 50 + 60);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_LOCK], 70);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_IMPLICIT], 50);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_EXPLICIT], 0);
	release(&p);
}

static void records_that_pair_with_nothing_are_counted(void **state)
{
	struct ses_ompt_record recs[] = {
		WE(5, 100, SES_OMPT_WAIT_TASKWAIT, REGION), /* outside any region */
		B(10, 100),
		WE(20, 100, SES_OMPT_WAIT_TASKWAIT, REGION), /* no begin */
		WB(30, 100, SES_OMPT_WAIT_TASKGROUP, REGION),
		WE(40, 100, SES_OMPT_WAIT_TASKWAIT, REGION),  /* of another kind */
		WB(50, 100, SES_OMPT_WAIT_TASKGROUP, REGION), /* begun twice */
		WE(45, 100, SES_OMPT_WAIT_TASKGROUP, REGION), /* ends before it began: 0 */
		WB(60, 100, 99, REGION),		      /* a kind this reader does not know */
		WB(70, 100, SES_OMPT_WAIT_TASKWAIT, 7),	      /* another site than its task's */
		WB(80, 102, SES_OMPT_WAIT_MUTEX, LOCK),	      /* a thread with no region */
		B(90, 103),				      /* a thread the sums do not have */
		WB(91, 103, SES_OMPT_WAIT_REDUCTION, REGION),
		WE(95, 103, SES_OMPT_WAIT_REDUCTION, REGION),
		WB(99, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION), /* cut short: no end */
	};
	struct rpt_omp_proc p;

	(void)state;
	proc(&p, SES_OMPT_SCOPE_FULL, 1);
	assert_int_equal(load(&p, recs, sizeof(recs) / sizeof(recs[0])), 0);
	/* 5, 20, 40, the second 50 begin, 60, 70, 103's pair, 99 unended */
	assert_int_equal(p.waits_unpaired, 8);
	for (int c = 0; c < RPT_OMP_WAITS; c++)
		assert_int_equal(waits(&p, 0)[c], 0);
	release(&p);
}

static void deep_nesting_is_bounded(void **state)
{
	struct ses_ompt_record recs[200];
	struct rpt_omp_proc p;
	size_t n = 0;

	(void)state;
	for (int d = 0; d < 100; d++)
		recs[n++] = (struct ses_ompt_record){ 10 + (uint64_t)d, 100, SES_OMPT_BEGIN,
						      (uint16_t)d, REGION, 0 };
	recs[n++] = (struct ses_ompt_record)WB(500, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION);
	recs[n++] = (struct ses_ompt_record)WE(700, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION);
	proc(&p, SES_OMPT_SCOPE_FULL, 1);
	assert_int_equal(load(&p, recs, n), 0);
	/* the 64 followed: the wait is in the innermost followed one, of REGION */
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_EXPLICIT], 200);
	release(&p);
}

static void sums_by_type_and_the_rest_as_other(void **state)
{
	struct rpt_omp_proc p;
	uint64_t *f;

	(void)state;
	proc(&p, SES_OMPT_SCOPE_BASIC, 2);
	f = p.sites[0].threads[0].f;
	f[SES_OMPT_F_WAIT_IMPLICIT] = 1;
	f[SES_OMPT_F_WAIT_WORKSHARE] = 2;
	f[SES_OMPT_F_WAIT_EXPLICIT] = 4;
	f[SES_OMPT_F_WAIT_IMPLEMENTATION] = 8;
	f[SES_OMPT_F_TASKWAIT] = 16;
	f[SES_OMPT_F_TASKGROUP] = 32;
	f[SES_OMPT_F_WAIT_REDUCTION] = 64;
	f[SES_OMPT_F_SYNC] = 127 + 1000; /* 1000 of no known type (teams) */
	f[SES_OMPT_F_WAIT_LOCK] = 128;
	f[SES_OMPT_F_WAIT_CRITICAL] = 256;
	f[SES_OMPT_F_WAIT_ORDERED] = 512;
	f[SES_OMPT_F_LOCKWAIT] = 896 + 2000; /* 2000 atomic */
	/* a tool from before the types: everything lumped, none of it guessed at */
	f = p.sites[0].threads[1].f;
	f[SES_OMPT_F_SYNC] = 300;
	f[SES_OMPT_F_BARRIER] = 200;
	f[SES_OMPT_F_TASKWAIT] = 100;
	f[SES_OMPT_F_LOCKWAIT] = 50;
	assert_int_equal(load(&p, NULL, 0), 0);
	assert_false(p.waits_from_records);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_IMPLICIT], 1);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_WORKSHARE], 2);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_EXPLICIT], 4);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_IMPLEMENTATION], 8);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_TASKWAIT], 16);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_TASKGROUP], 32);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_REDUCTION], 64);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_LOCK], 128);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_CRITICAL], 256);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_ORDERED], 512);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_OTHER], 3000);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_TASKWAIT], 100);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_OTHER], 200 + 50);
	assert_int_equal(waits(&p, 1)[RPT_OMP_W_IMPLICIT], 0);
	release(&p);
}

static void a_full_file_that_lost_records_uses_the_sums(void **state)
{
	struct ses_ompt_record recs[] = {
		B(10, 100),
		WB(20, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION),
		WE(90, 100, SES_OMPT_WAIT_BARRIER_EXPLICIT, REGION),
		E(100, 100),
	};
	struct rpt_omp_proc p;

	(void)state;
	proc(&p, SES_OMPT_SCOPE_FULL, 1);
	p.dropped = 5;
	p.sites[0].threads[0].f[SES_OMPT_F_WAIT_EXPLICIT] = 77;
	assert_int_equal(load(&p, recs, sizeof(recs) / sizeof(recs[0])), 0);
	assert_false(p.waits_from_records);
	assert_int_equal(waits(&p, 0)[RPT_OMP_W_EXPLICIT], 77);
	release(&p);
}

static void merged_sites_add_their_waits(void **state)
{
	struct rpt_omp_tstat a = { 0 }, b = { 0 };

	(void)state;
	for (int c = 0; c < RPT_OMP_WAITS; c++) {
		a.waits[c] = (uint64_t)c;
		b.waits[c] = 100 * (uint64_t)c;
	}
	rpt_omp_waits_add(&a, &b);
	for (int c = 0; c < RPT_OMP_WAITS; c++)
		assert_int_equal(a.waits[c], 101 * (uint64_t)c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_pair_per_thread_by_type),
		cmocka_unit_test(records_that_pair_with_nothing_are_counted),
		cmocka_unit_test(deep_nesting_is_bounded),
		cmocka_unit_test(sums_by_type_and_the_rest_as_other),
		cmocka_unit_test(a_full_file_that_lost_records_uses_the_sums),
		cmocka_unit_test(merged_sites_add_their_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
