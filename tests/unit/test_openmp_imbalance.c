// SPDX-License-Identifier: MIT
/*
 * lib/openmp/openmp_imbalance.c: a region's imbalance over its team both ways, wall (of
 * Work = span - sync - lock wait) and CPU (of the timer samples in its implicit tasks),
 * each max/avg - 1 and CV, on teams made up with known answers: the two ways agree where
 * the threads ran at one rate and part where a loaded machine made the wall times equal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "openmp/openmp.h"

/* A team of @n threads: thread k with span @span[k] ns, sync @sync[k] ns and
 * @samples[k] timer samples. */
static void team(struct rpt_omp_site *s, struct rpt_omp_tstat *t, int n, const uint64_t *span,
		 const uint64_t *sync, const uint64_t *samples)
{
	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t) * (size_t)n);
	for (int k = 0; k < n; k++) {
		t[k].tid = 100 + (uint32_t)k;
		t[k].f[SES_OMPT_F_SPAN] = span[k];
		t[k].f[SES_OMPT_F_SYNC] = sync[k];
		t[k].samples = samples[k];
	}
	s->threads = t;
	s->nthreads = s->capthreads = n;
}

/* Work 1:2 and CPU 1:2 (an idle machine): both max/avg - 1 = 2 / 1.5 - 1 = 1/3. */
static void test_one_to_two_both_ways(void **state)
{
	struct rpt_omp_site s;
	struct rpt_omp_tstat t[2];
	struct rpt_omp_imbalance im;

	(void)state;
	team(&s, t, 2, (uint64_t[]){ 2000, 2000 }, (uint64_t[]){ 1000, 0 },
	     (uint64_t[]){ 100, 200 });
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 1.0 / 3, 1e-12);
	assert_float_equal(im.cpu, 1.0 / 3, 1e-12);
	/* stddev 0.5 of mean 1.5 */
	assert_float_equal(im.wall_cv, 1.0 / 3, 1e-12);
	assert_float_equal(im.cpu_cv, 1.0 / 3, 1e-12);
	assert_int_equal(im.cpu_samples, 300);
}

/* A loaded machine: the thread with half the CPU work got the CPU half as often, so both
 * worked the whole region in wall time (wall 0) while CPU still says 1:2. */
static void test_loaded_wall_equal_cpu_not(void **state)
{
	struct rpt_omp_site s;
	struct rpt_omp_tstat t[2];
	struct rpt_omp_imbalance im;

	(void)state;
	team(&s, t, 2, (uint64_t[]){ 4000, 4000 }, (uint64_t[]){ 0, 0 }, (uint64_t[]){ 50, 100 });
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 0, 1e-12);
	assert_float_equal(im.wall_cv, 0, 1e-12);
	assert_float_equal(im.cpu, 1.0 / 3, 1e-12);
}

/* Work is span - sync - lock wait: the man page's example, 3:1 of work, gives 0.5 and 0.5
 * (mean 2, max 3, stddev 1). */
static void test_work_less_sync_and_lock(void **state)
{
	struct rpt_omp_site s;
	struct rpt_omp_tstat t[2];
	struct rpt_omp_imbalance im;

	(void)state;
	team(&s, t, 2, (uint64_t[]){ 4000, 4000 }, (uint64_t[]){ 1000, 2000 },
	     (uint64_t[]){ 30, 10 });
	t[1].f[SES_OMPT_F_LOCKWAIT] = 1000; /* thread 1 works 4000 - 2000 - 1000 = 1000 */
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 0.5, 1e-12);
	assert_float_equal(im.wall_cv, 0.5, 1e-12);
	assert_float_equal(im.cpu, 0.5, 1e-12);
	assert_float_equal(im.cpu_cv, 0.5, 1e-12);
}

/* (k+1) units on 4 threads: max 4 of mean 2.5, 0.6; a thread without a sample counts (it
 * is in the team and used no CPU there): 0, 0, 0, 8 samples is 8 / 2 - 1 = 3. */
static void test_team_of_four_and_a_thread_without_samples(void **state)
{
	struct rpt_omp_site s;
	struct rpt_omp_tstat t[4];
	struct rpt_omp_imbalance im;

	(void)state;
	team(&s, t, 4, (uint64_t[]){ 1000, 2000, 3000, 4000 }, (uint64_t[]){ 0, 0, 0, 0 },
	     (uint64_t[]){ 0, 0, 0, 8 });
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 0.6, 1e-12);
	assert_float_equal(im.cpu, 3, 1e-12);
	assert_int_equal(im.cpu_samples, 8);
}

/* Nothing measured: no samples (CPU unknown, said by cpu_samples 0), no work, no team. */
static void test_nothing_measured(void **state)
{
	struct rpt_omp_site s;
	struct rpt_omp_tstat t[2];
	struct rpt_omp_imbalance im;

	(void)state;
	team(&s, t, 2, (uint64_t[]){ 0, 0 }, (uint64_t[]){ 0, 0 }, (uint64_t[]){ 0, 0 });
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 0, 0);
	assert_float_equal(im.cpu, 0, 0);
	assert_int_equal(im.cpu_samples, 0);
	team(&s, t, 0, NULL, NULL, NULL);
	memset(&im, 0xff, sizeof(im));
	rpt_omp_imbalance(&s, &im);
	assert_float_equal(im.wall, 0, 0);
	assert_float_equal(im.wall_cv, 0, 0);
	assert_float_equal(im.cpu, 0, 0);
	assert_float_equal(im.cpu_cv, 0, 0);
	assert_int_equal(im.cpu_samples, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_to_two_both_ways),
		cmocka_unit_test(test_loaded_wall_equal_cpu_not),
		cmocka_unit_test(test_work_less_sync_and_lock),
		cmocka_unit_test(test_team_of_four_and_a_thread_without_samples),
		cmocka_unit_test(test_nothing_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
