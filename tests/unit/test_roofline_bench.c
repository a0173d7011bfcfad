// SPDX-License-Identifier: MIT
/* pcm roofline's measuring (lib/metric's roofline_bench.c) and its kernels (lib/arch):
 * the FLOPs, bytes and cycles one kernel call is counted for; that each kernel of every
 * set this CPU runs does exactly the work it is counted for (sums of integers, the triad
 * on exact values, the FMA chains against the recurrence); the clock chain's count; and
 * the best / median / wall arithmetic on given samples. Built twice: with this
 * architecture's kernels, and with roofline_generic.c's (BASELINE names the last set). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "metric/metric.h"

#ifndef BASELINE
#define BASELINE "sse2"
#endif

/* The vector width each known set must say it has. */
static int known_bits(const char *isa)
{
	static const struct {
		const char *isa;
		int bits;
	} known[] = { { "avx512f", 512 }, { "avx2+fma", 256 }, { "sse2", 128 }, { "generic", 128 } };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].isa, isa))
			return known[i].bits;
	return -1;
}

static void sets_widest_first_down_to_the_baseline(void **state)
{
	const struct arch_rl_kernels *k, *last = NULL;
	int i = 0;

	(void)state;
	assert_null(arch_rl_kernels(-1));
	for (; (k = arch_rl_kernels(i)); i++) {
		assert_int_equal(k->bits, known_bits(k->isa));
		if (last)
			assert_true(k->bits < last->bits);
		assert_non_null(k->fma_how);
		last = k;
	}
	assert_true(i >= 1);
	assert_string_equal(last->isa, BASELINE);
	assert_null(arch_rl_kernels(i + 1));
}

static void work_counted_per_call(void **state)
{
	static const struct arch_rl_kernels w512 = { .isa = "avx512f", .bits = 512 };
	static const struct arch_rl_kernels w128 = { .isa = "sse2", .bits = 128 };

	(void)state;
	/* 12 accumulators x lanes x 2 FLOPs per iteration: the file's "iterations of 192 FLOP" */
	assert_true(mtr_rl_job_work(&w512, MTR_RL_JOB_FMA, false, 0, 1) == 192.0);
	assert_true(mtr_rl_job_work(&w512, MTR_RL_JOB_FMA, true, 0, 1) == 384.0);
	assert_true(mtr_rl_job_work(&w128, MTR_RL_JOB_FMA, false, 0, 10) == 480.0);
	assert_true(mtr_rl_job_work(&w128, MTR_RL_JOB_FMA, true, 0, 10) == 960.0);
	/* 8 bytes per double read; 24 per triad element; 16 cycles per clock step */
	assert_true(mtr_rl_job_work(&w128, MTR_RL_JOB_READ, false, 64, 3) == 1536.0);
	assert_true(mtr_rl_job_work(&w128, MTR_RL_JOB_TRIAD, false, 128, 2) == 6144.0);
	assert_true(mtr_rl_job_work(&w512, MTR_RL_JOB_CLOCK, false, 999, 5) == 80.0);
}

/* The FMA kernel's result for @lanes lanes: ARCH_RL_ACC chains from 1..12. */
static double fma_reference(int lanes, bool sp, uint64_t iters)
{
	double sum = 0;

	for (int acc = 1; acc <= ARCH_RL_ACC; acc++) {
		double x = acc;
		float xf = (float)acc;

		for (uint64_t i = 0; i < iters; i++) {
			x = x * 0.999999 + 1e-7;
			xf = xf * 0.9999f + 1e-4f;
		}
		sum += sp ? (double)xf : x;
	}
	return sum * lanes;
}

static void fma_kernels_run_their_chains(void **state)
{
	const struct arch_rl_kernels *k;

	(void)state;
	for (int i = 0; (k = arch_rl_kernels(i)); i++) {
		int dp = k->bits / 64, sp = k->bits / 32;
		double got;

		/* no iteration: the chains' starting values, 1 + ... + 12 per lane */
		assert_true(k->fma(false, 0) == 78.0 * dp);
		assert_true(k->fma(true, 0) == 78.0 * sp);
		/* fused or not, the chains follow acc = acc * m + a */
		got = k->fma(false, 1000);
		assert_true(fabs(got - fma_reference(dp, false, 1000)) < 1e-9 * got);
		got = k->fma(true, 1000);
		assert_true(fabs(got - fma_reference(sp, true, 1000)) < 1e-4 * got);
	}
}

static void read_kernels_sum_every_double(void **state)
{
	const struct arch_rl_kernels *k;
	const size_t n = 256;
	double *buf = aligned_alloc(64, (n + 64) * sizeof(double));

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < n + 64; i++)
		buf[i] = i < n ? (double)i : 1e9; /* beyond n: must not be read */
	for (int i = 0; (k = arch_rl_kernels(i)); i++) {
		assert_true(k->read(buf, n) == (double)(n * (n - 1) / 2));
		assert_true(k->read(buf, 64) == 64.0 * 63 / 2);
	}
	free(buf);
}

static void triad_kernels_write_exactly_n(void **state)
{
	const struct arch_rl_kernels *k;
	const size_t n = 128;
	double *a = aligned_alloc(64, (n + 64) * sizeof(double));
	double *b = aligned_alloc(64, n * sizeof(double));
	double *c = aligned_alloc(64, n * sizeof(double));

	(void)state;
	assert_true(a && b && c);
	for (size_t i = 0; i < n; i++) {
		b[i] = (double)i;
		c[i] = 0.5;
	}
	for (int i = 0; (k = arch_rl_kernels(i)); i++) {
		for (size_t j = 0; j < n + 64; j++)
			a[j] = -1;
		k->triad(a, b, c, 4.0, n);
		for (size_t j = 0; j < n; j++)
			assert_true(a[j] == (double)j + 2.0);
		assert_true(a[n] == -1); /* nothing past n */
	}
	free(a);
	free(b);
	free(c);
}

static void clock_chain_counts_its_adds(void **state)
{
	(void)state;
	assert_true(arch_rl_clock_chain(0) == 0);
	assert_true(arch_rl_clock_chain(1000) == 16000);
}

/* ---- best, median and wall on given samples ---- */

static void summary_of_three_repetitions(void **state)
{
	/* [rep * 2 + thread]: work, cpu_ns, wall0, wall1 */
	const struct mtr_rl_sample s[] = {
		{ 100, 50, 0, 150 },	  { 100, 100, 10, 200 },  /* 2 + 1 = 3; wall 200/200 */
		{ 100, 25, 1000, 1100 },  { 100, 50, 1000, 1050 }, /* 4 + 2 = 6; 200/100 */
		{ 100, 100, 2000, 2400 }, { 100, 100, 2100, 2200 }, /* 1 + 1 = 2; 200/400 */
	};
	struct mtr_rl_rate r;

	(void)state;
	mtr_rl_summarize(s, 3, 2, &r);
	assert_true(r.best_cpu == 6.0);
	assert_true(r.median_cpu == 3.0);
	assert_true(r.best_wall == 2.0);
	assert_true(r.work == 100.0);
	assert_int_equal(r.reps, 3);
	assert_int_equal(r.threads, 2);
}

static void summary_median_is_the_upper_one(void **state)
{
	const struct mtr_rl_sample s[] = {
		{ 40, 10, 0, 10 }, { 10, 10, 0, 10 }, { 30, 10, 0, 10 }, { 20, 10, 0, 10 },
	};
	struct mtr_rl_rate r;

	(void)state;
	mtr_rl_summarize(s, 4, 1, &r); /* rates 4, 1, 3, 2: sorted[2] = 3 */
	assert_true(r.median_cpu == 3.0);
	assert_true(r.best_cpu == 4.0);
	assert_true(r.best_wall == 4.0);
	assert_true(r.work == 20.0); /* the last repetition's */
}

static void summary_ignores_zero_times(void **state)
{
	/* a thread with no CPU time adds nothing; a repetition with no wall span has no
	 * wall rate */
	const struct mtr_rl_sample s[] = { { 100, 0, 5, 5 }, { 100, 50, 5, 5 } };
	struct mtr_rl_rate r;

	(void)state;
	mtr_rl_summarize(s, 1, 2, &r);
	assert_true(r.best_cpu == 2.0);
	assert_true(r.median_cpu == 2.0);
	assert_true(r.best_wall == 0.0);
}

static void summary_out_of_range_is_zero(void **state)
{
	const struct mtr_rl_sample s[1] = { { 100, 50, 0, 10 } };
	struct mtr_rl_rate r;

	(void)state;
	memset(&r, 0x55, sizeof(r));
	mtr_rl_summarize(s, 0, 1, &r);
	assert_true(r.best_cpu == 0 && r.median_cpu == 0 && r.reps == 0);
	mtr_rl_summarize(s, MTR_RL_MAX_REPS + 1, 1, &r);
	assert_true(r.best_cpu == 0 && r.reps == 0);
	mtr_rl_summarize(s, 1, 0, &r);
	assert_true(r.best_cpu == 0 && r.threads == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sets_widest_first_down_to_the_baseline),
		cmocka_unit_test(work_counted_per_call),
		cmocka_unit_test(fma_kernels_run_their_chains),
		cmocka_unit_test(read_kernels_sum_every_double),
		cmocka_unit_test(triad_kernels_write_exactly_n),
		cmocka_unit_test(clock_chain_counts_its_adds),
		cmocka_unit_test(summary_of_three_repetitions),
		cmocka_unit_test(summary_median_is_the_upper_one),
		cmocka_unit_test(summary_ignores_zero_times),
		cmocka_unit_test(summary_out_of_range_is_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
