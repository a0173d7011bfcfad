// SPDX-License-Identifier: MIT
/*
 * lib/pmc arithmetic: deltas (with counter wrap), multiplex scaling (time_running = 0
 * too), the formula parser and evaluator, value formatting. The metrics of the configs
 * are in test_pmc_metrics.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "pmc/pmc.h"

/* ---- deltas and scaling ---- */

static void test_delta_plain(void **state)
{
	struct pmc_count a = { 100, 1000, 800 }, b = { 350, 3000, 1800 }, d;

	(void)state;
	pmc_count_delta(&a, &b, 64, &d);
	assert_int_equal(d.value, 250);
	assert_int_equal(d.enabled, 2000);
	assert_int_equal(d.running, 1000);
}

static void test_delta_wrap_64(void **state)
{
	struct pmc_count a = { UINT64_MAX - 9, 0, 0 }, b = { 5, 10, 10 }, d;

	(void)state;
	pmc_count_delta(&a, &b, 64, &d);
	assert_int_equal(d.value, 15);
	pmc_count_delta(&a, &b, 0, &d); /* 0 means 64 */
	assert_int_equal(d.value, 15);
}

static void test_delta_wrap_48(void **state)
{
	/* a 48-bit hardware counter read raw: 0xffff_ffff_fff0 -> 0x10 is 0x20 events */
	struct pmc_count a = { 0xfffffffffff0ULL, 0, 0 }, b = { 0x10, 0, 0 }, d;

	(void)state;
	pmc_count_delta(&a, &b, 48, &d);
	assert_int_equal(d.value, 0x20);
	a.value = 0x100;
	b.value = 0x300;
	pmc_count_delta(&a, &b, 48, &d);
	assert_int_equal(d.value, 0x200);
}

static void test_scale(void **state)
{
	struct pmc_count full = { 1000, 500, 500 }, half = { 1000, 1000, 500 },
			 quarter = { 3, 4000, 1000 }, over = { 7, 100, 120 };

	(void)state;
	assert_true(pmc_count_scale(&full) == 1000.0);
	assert_true(pmc_count_scale(&half) == 2000.0);
	assert_true(pmc_count_scale(&quarter) == 12.0);
	assert_true(pmc_count_scale(&over) == 7.0); /* never scaled down */
}

/* A CPU counter read late: its count is put over the row's interval, so a CPU clock that
 * ran all of its enabled time equals the interval, never more. */
static void test_count_over(void **state)
{
	struct pmc_count late = { 216000000, 216000000, 216000000 }, /* cpu-clock, read 16 ms late */
		early = { 3, 184000000, 184000000 }, half = { 1000, 200000000, 100000000 },
		none = { 5, 0, 0 }, zero = { 0, 0, 0 };

	(void)state;
	assert_true(pmc_count_over(&late, 200000000) == 200000000.0);
	assert_true(fabs(pmc_count_over(&early, 200000000) - 3.0 * 200 / 184) < 1e-12);
	assert_true(pmc_count_over(&half, 200000000) == 2000.0); /* multiplexed, on time */
	assert_true(pmc_count_over(&half, 400000000) == 4000.0);
	assert_true(pmc_count_over(&late, 0) == 216000000.0);     /* no interval: plain scale */
	assert_true(isnan(pmc_count_over(&none, 200000000)));
	assert_true(pmc_count_over(&zero, 200000000) == 0.0);
}

static void test_scale_never_ran(void **state)
{
	struct pmc_count enabled_only = { 0, 1000, 0 }, idle = { 0, 0, 0 }, odd = { 5, 0, 0 };

	(void)state;
	assert_true(isnan(pmc_count_scale(&enabled_only))); /* multiplexed out: unknown */
	assert_true(pmc_count_scale(&idle) == 0.0);	     /* not enabled: nothing happened */
	assert_true(isnan(pmc_count_scale(&odd)));
}

/* A multiplexed interval: delta of two readings, then scaled. */
static void test_delta_then_scale(void **state)
{
	struct pmc_count r0 = { 1000, 10000, 4000 }, r1 = { 4000, 20000, 7000 }, d;

	(void)state;
	pmc_count_delta(&r0, &r1, 64, &d);
	/* 3000 counted in 3000 ns of 10000 enabled */
	assert_true(fabs(pmc_count_scale(&d) - 10000.0) < 1e-9);
	r1.running = r0.running; /* enabled but not on a counter this interval */
	pmc_count_delta(&r0, &r1, 64, &d);
	assert_true(isnan(pmc_count_scale(&d)));
}

/* ---- formulas ---- */

struct var {
	const char *name;
	double v;
};

static int lookup_vars(void *arg, const char *name, double *v)
{
	for (const struct var *x = arg; x->name; x++)
		if (!strcmp(x->name, name)) {
			*v = x->v;
			return 0;
		}
	return -ENOENT;
}

static double eval(const char *s, const struct var *vars)
{
	struct mtr_expr *e;
	char err[128];
	double v;

	if (mtr_expr_parse(s, strlen(s), &e, err, sizeof(err)))
		fail_msg("'%s': %s", s, err);
	if (mtr_expr_eval(e, lookup_vars, (void *)vars, &v))
		v = -12345;
	mtr_expr_free(e);
	return v;
}

static void test_expr_arith(void **state)
{
	static const struct var v[] = { { "A", 6 }, { "B", 3 }, { "x.y", 2 }, { NULL, 0 } };

	(void)state;
	assert_true(eval("1 + 2 * 3", v) == 7);
	assert_true(eval("(1 + 2) * 3", v) == 9);
	assert_true(eval("A / B / x.y", v) == 1);
	assert_true(eval("A - B - 1", v) == 2);
	assert_true(eval("-A + B", v) == -3);
	assert_true(eval("--A", v) == 6);
	assert_true(eval("+A*-B", v) == -18);
	assert_true(eval("A*1000/B", v) == 2000);
	assert_true(eval("0x10 + 1e3 + .5 + 2.5e-1", v) == 1016.75);
	assert_true(eval("  A\t*  B ", v) == 18);
}

static void test_expr_nan(void **state)
{
	static const struct var v[] = { { "Z", 0 }, { "N", NAN }, { "A", 1 }, { NULL, 0 } };

	(void)state;
	assert_true(isnan(eval("A / Z", v)));
	assert_true(isnan(eval("Z / Z", v)));
	assert_true(isnan(eval("-A / Z", v)));
	assert_true(isnan(eval("N * 0", v)));
	assert_true(isnan(eval("(A / Z) * 0 + 1", v)));
	assert_true(isnan(eval("1e308 * 1e308", v))); /* infinity shows as NaN */
	assert_true(eval("unknown + 1", v) == -12345); /* -ENOENT */
}

static void test_expr_names(void **state)
{
	struct mtr_expr *e;
	char err[64];

	(void)state;
	assert_int_equal(mtr_expr_parse("A*B + A/C_1", 11, &e, err, sizeof(err)), 0);
	assert_int_equal(mtr_expr_nnames(e), 3);
	assert_string_equal(mtr_expr_name(e, 0), "A");
	assert_string_equal(mtr_expr_name(e, 1), "B");
	assert_string_equal(mtr_expr_name(e, 2), "C_1");
	assert_null(mtr_expr_name(e, 3));
	mtr_expr_free(e);
	mtr_expr_free(NULL);
}

static void test_expr_errors(void **state)
{
	static const struct {
		const char *s;
		const char *msg; /* start of the error */
	} bad[] = {
		{ "", "column 1:" },	     { "1 +", "column 4:" },  { "(1", "column 3: ')'" },
		{ "1)", "column 2:" },	     { "1 2", "column 3:" },  { "A $ B", "column 3:" },
		{ "1.2.3", "column 1:" },    { "1x", "column 1:" },   { "*3", "column 1:" },
		{ "()", "column 2:" },	     { "0x", "column 1:" },
	};
	struct mtr_expr *e = (void *)1;
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = mtr_expr_parse(bad[i].s, strlen(bad[i].s), &e, err, sizeof(err));

		if (ret != -EINVAL || strncmp(err, bad[i].msg, strlen(bad[i].msg)))
			fail_msg("'%s': ret %d, '%s' (expected '%s...')", bad[i].s, ret, err, bad[i].msg);
		assert_null(e);
	}
}

static void test_expr_limits(void **state)
{
	char deep[400], longf[4000], name[80];
	struct mtr_expr *e;
	char err[128];
	size_t n = 0;

	(void)state;
	for (int i = 0; i < 100; i++)
		deep[n++] = '(';
	deep[n++] = '1';
	for (int i = 0; i < 100; i++)
		deep[n++] = ')';
	assert_int_equal(mtr_expr_parse(deep, n, &e, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "nested"));
	memset(deep, '-', 200);
	deep[200] = '1';
	assert_int_equal(mtr_expr_parse(deep, 201, &e, err, sizeof(err)), -EINVAL);
	n = 0;
	for (int i = 0; i < 600; i++)
		n += (size_t)snprintf(longf + n, sizeof(longf) - n, "%s1", i ? "+" : "");
	assert_int_equal(mtr_expr_parse(longf, n, &e, err, sizeof(err)), -EINVAL);
	memset(name, 'a', sizeof(name));
	assert_int_equal(mtr_expr_parse(name, sizeof(name), &e, err, sizeof(err)), -EINVAL);
	/* not NUL-terminated: only @len bytes are read */
	assert_int_equal(mtr_expr_parse("1+2garbage", 3, &e, err, sizeof(err)), 0);
	mtr_expr_free(e);
}

static void test_value_format(void **state)
{
	char buf[32];

	(void)state;
	pmc_value_format(1.005, 2, buf, sizeof(buf));
	assert_true(!strcmp(buf, "1.00") || !strcmp(buf, "1.01"));
	pmc_value_format(NAN, 2, buf, sizeof(buf));
	assert_string_equal(buf, "");
	pmc_value_format(INFINITY, 2, buf, sizeof(buf));
	assert_string_equal(buf, "");
	pmc_value_format(-0.0, 2, buf, sizeof(buf));
	assert_string_equal(buf, "0.00");
	pmc_value_format(-0.001, 2, buf, sizeof(buf));
	assert_string_equal(buf, "0.00");
	pmc_value_format(-0.5, 0, buf, sizeof(buf));
	assert_true(!strcmp(buf, "0") || !strcmp(buf, "-1"));
	pmc_value_format(-2.5, 1, buf, sizeof(buf));
	assert_string_equal(buf, "-2.5");
	pmc_value_format(1234567.891, 2, buf, sizeof(buf));
	assert_string_equal(buf, "1234567.89");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_plain),
		cmocka_unit_test(test_delta_wrap_64),
		cmocka_unit_test(test_delta_wrap_48),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_scale_never_ran),
		cmocka_unit_test(test_count_over),
		cmocka_unit_test(test_delta_then_scale),
		cmocka_unit_test(test_expr_arith),
		cmocka_unit_test(test_expr_nan),
		cmocka_unit_test(test_expr_names),
		cmocka_unit_test(test_expr_errors),
		cmocka_unit_test(test_expr_limits),
		cmocka_unit_test(test_value_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
