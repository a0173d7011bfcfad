// SPDX-License-Identifier: MIT
/* uprof compare's arithmetic (lib/report/compare.c) on made-up rows: matching by name and
 * module, exact deltas and ratios, rows only one side has, the order, the CSV. Values
 * are binary fractions, so that every sum and difference is exact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static const struct rpt_cmp_in A[] = {
	{ "steady", "/bin/app", 0.5 },
	{ "tunable", "/bin/app", 0.5 },
	{ "gone", "/bin/app", 0.25 },
	{ "step", "/lib/libm.so", 0.125 },  /* same name, another module: another row */
	{ "step", "/bin/app", 0.0625 },
	{ "tunable", "/bin/app", 0.25 },    /* a second row of one key is summed */
};
static const struct rpt_cmp_in B[] = {
	{ "tunable", "/bin/app", 1.5 },
	{ "steady", "/bin/app", 0.5 },
	{ "step", "/bin/app", 0.0625 },
	{ "new", "/bin/app", 0.375 },
	{ "step", "/lib/libm.so", 0.25 },
};

static const struct rpt_cmp_row *find(const struct rpt_cmp_row *rows, size_t n,
				      const char *name, const char *module)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name) && !strcmp(rows[i].module, module))
			return &rows[i];
	return NULL;
}

static void rows_match_by_name_and_module(void **state)
{
	struct rpt_cmp_row *rows = NULL, *r;
	size_t n = 0, cap = 0;

	(void)state;
	assert_int_equal(rpt_compare_rows(RPT_CMP_FUNCTION, A, 6, B, 5, &rows, &n, &cap), 0);
	assert_int_equal(n, 6); /* steady tunable gone step(libm) step(app) new */
	r = (struct rpt_cmp_row *)find(rows, n, "tunable", "/bin/app");
	assert_non_null(r);
	assert_true(r->a == 0.75 && r->b == 1.5 && r->delta == 0.75 && r->ratio == 2.0);
	assert_int_equal(r->kind, RPT_CMP_FUNCTION);
	r = (struct rpt_cmp_row *)find(rows, n, "steady", "/bin/app");
	assert_true(r->a == 0.5 && r->b == 0.5 && r->delta == 0 && r->ratio == 1.0);
	r = (struct rpt_cmp_row *)find(rows, n, "gone", "/bin/app");
	assert_true(r->a == 0.25 && r->b == 0 && r->delta == -0.25 && r->ratio == 0);
	r = (struct rpt_cmp_row *)find(rows, n, "new", "/bin/app");
	assert_true(r->a == 0 && r->b == 0.375 && r->delta == 0.375 && isinf(r->ratio));
	r = (struct rpt_cmp_row *)find(rows, n, "step", "/lib/libm.so");
	assert_true(r->a == 0.125 && r->b == 0.25 && r->ratio == 2.0);
	r = (struct rpt_cmp_row *)find(rows, n, "step", "/bin/app");
	assert_true(r->a == 0.0625 && r->b == 0.0625 && r->delta == 0);
	free(rows);
}

static void largest_change_first(void **state)
{
	struct rpt_cmp_row *rows = NULL;
	size_t n = 0, cap = 0;
	static const char *const order[] = { "tunable", "new", "gone", "step", "steady",
					     "step" };

	(void)state;
	assert_int_equal(rpt_compare_rows(RPT_CMP_FUNCTION, A, 6, B, 5, &rows, &n, &cap), 0);
	rpt_compare_sort(rows, n);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(rows[i].name, order[i]);
	/* a fall counts as much as a rise: |-0.25| after +0.375, before +0.125 */
	assert_true(rows[2].delta == -0.25 && rows[3].delta == 0.125);
	/* equal changes (0): by name, then module */
	assert_string_equal(rows[4].module, "/bin/app");
	assert_string_equal(rows[5].module, "/bin/app");
	free(rows);
}

static void kinds_append_to_one_table(void **state)
{
	static const struct rpt_cmp_in ma[] = { { "/bin/app", NULL, 1.0 } };
	static const struct rpt_cmp_in mb[] = { { "/bin/app", NULL, 2.0 } };
	struct rpt_cmp_row *rows = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	assert_int_equal(rpt_compare_rows(RPT_CMP_FUNCTION, A, 6, B, 5, &rows, &n, &cap), 0);
	assert_int_equal(rpt_compare_rows(RPT_CMP_MODULE, ma, 1, mb, 1, &rows, &n, &cap), 0);
	assert_int_equal(rpt_compare_rows(RPT_CMP_PROGRAM, NULL, 0, NULL, 0, &rows, &n, &cap), 0);
	assert_int_equal(n, 7);
	rpt_compare_sort(rows, n);
	/* the module's +1 is the largest change; the function's +0.75 next */
	assert_int_equal(rows[0].kind, RPT_CMP_MODULE);
	assert_null(rows[0].module);
	assert_true(rows[0].ratio == 2.0);
	assert_string_equal(rows[1].name, "tunable");
	free(rows);
}

static void csv_of_a_comparison(void **state)
{
	struct rpt_compare c = { 0 };
	size_t cap = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	static const struct rpt_cmp_in a1[] = { { "f,\"x\"", "/bin/app", 0.5 } };
	static const struct rpt_cmp_in b1[] = { { "f,\"x\"", "/bin/app", 1.0 },
						{ "g", "/bin/app", 0.25 } };

	(void)state;
	assert_int_equal(rpt_compare_rows(RPT_CMP_FUNCTION, a1, 1, b1, 2, &c.rows, &c.nrows, &cap), 0);
	rpt_compare_sort(c.rows, c.nrows);
	snprintf(c.unit, sizeof(c.unit), "\"CPU_TIME\" (seconds)");
	snprintf(c.notes[0], sizeof(c.notes[0]), "another interval");
	c.nnotes = 1;
	assert_int_equal(rpt_compare_write_csv(&c, "A", "B", f), 0);
	fclose(f);
	assert_string_equal(buf, "COMPARISON\nBaseline:,\"A\"\nWith:,\"B\"\n"
				 "Values:,\"CPU_TIME\" (seconds)\nNote:,\"another interval\"\n\n"
				 "KIND,NAME,MODULE,BASELINE,WITH,DELTA,RATIO\n"
				 "FUNCTION,\"f,\"\"x\"\"\",\"/bin/app\",0.500000,1.000000,+0.500000,2.000\n"
				 "FUNCTION,\"g\",\"/bin/app\",0.000000,0.250000,+0.250000,new\n");
	free(buf);
	rpt_compare_release(&c);
	rpt_compare_release(&c); /* twice: safe */
	assert_null(c.rows);
}

/* Two sides with no rows (sessions with no samples): no rows, and sorting the empty
 * result (NULL, 0) is fine (qsort's base must not be NULL, even for 0: UBSan's
 * nonnull check, make check SANITIZE=1). */
static void empty_sides_give_no_rows(void **state)
{
	struct rpt_cmp_row *rows = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	assert_int_equal(rpt_compare_rows(RPT_CMP_FUNCTION, NULL, 0, NULL, 0, &rows, &n, &cap), 0);
	assert_int_equal(n, 0);
	rpt_compare_sort(rows, n);
	rpt_compare_sort(NULL, 0);
	assert_int_equal(rpt_compare_rows(RPT_CMP_MODULE, A, 6, NULL, 0, &rows, &n, &cap), 0);
	assert_int_equal(n, 5); /* every row of A, gone in B */
	rpt_compare_sort(rows, n);
	assert_true(rows[0].a == 0.75 && rows[0].delta == -0.75); /* tunable: largest change */
	free(rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_match_by_name_and_module),
		cmocka_unit_test(largest_change_first),
		cmocka_unit_test(kinds_append_to_one_table),
		cmocka_unit_test(csv_of_a_comparison),
		cmocka_unit_test(empty_sides_give_no_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
