// SPDX-License-Identifier: MIT
/* lib/metric: a set of metrics over named inputs, as report evaluates a session's
 * [metric.N] formulas (the formula language itself: test_pmc_counts.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#include "metric/metric.h"

static const char *const inputs[] = { "CYCLES", "RETIRED_INST", "IPC_INPUT" };

static void set_uses_inputs_and_earlier_metrics(void **state)
{
	static const char *const names[] = { "IPC", "CPI", "PTI", "HALF_CPI" };
	static const char *const formulas[] = { "RETIRED_INST / CYCLES", "1 / IPC",
						"CYCLES * 1000 / RETIRED_INST", "CPI / 2" };
	const double in[] = { 2000, 500, 7 };
	double out[4];
	struct mtr_set *s;
	char err[128];

	(void)state;
	assert_int_equal(mtr_set_new(&s, inputs, 3, names, formulas, 4, err, sizeof(err)), 0);
	assert_int_equal(mtr_set_count(s), 4);
	mtr_set_eval(s, in, out);
	assert_true(out[0] == 0.25);
	assert_true(out[1] == 4.0);
	assert_true(out[2] == 4000.0);
	assert_true(out[3] == 2.0);
	mtr_set_free(s);
	mtr_set_free(NULL);
	assert_int_equal(mtr_set_count(NULL), 0);
}

/* A name that is no input and no earlier metric, a later metric, its own name, a
 * division by zero: that metric is NaN (an empty cell), the others are computed. */
static void set_undefined_metrics_are_nan(void **state)
{
	static const char *const names[] = { "A", "B", "C", "D", "E" };
	static const char *const formulas[] = { "NOT_AN_EVENT + 1", "E * 2", "C + 1",
						"RETIRED_INST / 0", "CYCLES - 1" };
	const double in[] = { 10, 0, 0 };
	double out[5];
	struct mtr_set *s;
	char err[128];

	(void)state;
	assert_int_equal(mtr_set_new(&s, inputs, 3, names, formulas, 5, err, sizeof(err)), 0);
	mtr_set_eval(s, in, out);
	assert_true(isnan(out[0]));
	assert_true(isnan(out[1]));
	assert_true(isnan(out[2]));
	assert_true(isnan(out[3]));
	assert_true(out[4] == 9.0);
	mtr_set_free(s);
}

/* An input and a metric of one name: the input (an event) wins. */
static void set_input_wins_over_metric(void **state)
{
	static const char *const names[] = { "CYCLES", "X" };
	static const char *const formulas[] = { "42", "CYCLES + 0" };
	const double in[] = { 5, 0, 0 };
	double out[2];
	struct mtr_set *s;
	char err[128];

	(void)state;
	assert_int_equal(mtr_set_new(&s, inputs, 3, names, formulas, 2, err, sizeof(err)), 0);
	mtr_set_eval(s, in, out);
	assert_true(out[0] == 42.0);
	assert_true(out[1] == 5.0);
	mtr_set_free(s);
}

static void set_bad_formula_names_the_metric(void **state)
{
	static const char *const names[] = { "IPC", "CPI" };
	static const char *const formulas[] = { "RETIRED_INST / CYCLES", "1 / (IPC" };
	struct mtr_set *s = (void *)1;
	char err[128] = "";

	(void)state;
	assert_int_equal(mtr_set_new(&s, inputs, 3, names, formulas, 2, err, sizeof(err)),
			 -EINVAL);
	assert_null(s);
	assert_string_equal(err, "CPI: column 9: ')' expected");
	assert_int_equal(mtr_set_new(&s, inputs, 65, names, formulas, 2, err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(mtr_set_new(&s, inputs, 3, names, formulas, -1, err, sizeof(err)),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(set_uses_inputs_and_earlier_metrics),
		cmocka_unit_test(set_undefined_metrics_are_nan),
		cmocka_unit_test(set_input_wins_over_metric),
		cmocka_unit_test(set_bad_formula_names_the_metric),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
