// SPDX-License-Identifier: MIT
/*
 * lib/metric/pcm_table.c: pcm's cumulative table read back (uprof pcm compare) -- exact
 * values after metadata lines, quoted cells, CRLF, empty cells, the table's end at a blank
 * line; and each damaged input refused with its line: truncated rows, corrupted values,
 * NUL bytes, no table, no rows, too many components, overlong names and lines.
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

static struct mtr_pcm_table t;

static int parse(const char *text, char *err, size_t errlen)
{
	return mtr_pcm_table_parse(text, strlen(text), &t, err, errlen);
}

static void expect_error(const char *text, const char *want)
{
	char err[256];

	assert_int_equal(parse(text, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s'", want, err);
}

static void exact_values(void **state)
{
	char err[256];
	double v;

	(void)state;
	assert_int_equal(parse("System:,AMD EPYC\n"
			       "Sample interval (ms):,1000\n"
			       "Profile Time:,2026/12/04 16:06:19:022\n"
			       "Metric,System (Aggregated),\"Package (Aggregated)-0\",CCX-1\r\n"
			       "\"IPC (Sys + User)\",1.25,-0.5,\r\n"
			       "\"L3 Miss, %\",12,0,1e3\n"
			       "\n"
			       "Metric,not,read\n",
			       err, sizeof(err)),
			 0);
	assert_int_equal(t.ncomps, 3);
	assert_int_equal(t.nmetrics, 2);
	assert_string_equal(t.comp[1], "Package (Aggregated)-0");
	assert_string_equal(t.metric[1], "L3 Miss, %");
	assert_true(t.val[0][0] == 1.25);
	assert_true(t.val[0][1] == -0.5);
	assert_true(isnan(t.val[0][2])); /* an empty cell */
	assert_true(t.val[1][2] == 1000);
	assert_int_equal(mtr_pcm_table_find(&t, "L3 Miss, %", "CCX-1", &v), 0);
	assert_true(v == 1000);
	assert_int_equal(mtr_pcm_table_find(&t, "L3 Miss, %", "CCX-9", &v), -ENOENT);
	assert_int_equal(mtr_pcm_table_find(&t, "IPC", "CCX-1", &v), -ENOENT);
	/* no newline at the end */
	assert_int_equal(parse("Metric,Core-0\nPage Faults,74", err, sizeof(err)), 0);
	assert_true(t.val[0][0] == 74);
}

static void damaged(void **state)
{
	static const char nul[] = "Metric,A\nM,1\0\n";
	static char big[70000];
	char err[256];
	double v;

	(void)state;
	/* truncated in a row: fewer cells than the header */
	expect_error("Metric,A,B\nM1,1,2\nM2,3", "line 3: 2 cells where the header has 3");
	expect_error("Metric,A\nM1,1x\n", "line 2: the value '1x' is not a number");
	expect_error("Metric,A\nM1,nan\n", "the value 'nan' is not a number");
	expect_error("Metric,A\nM1,1e999\n", "the value '1e999' is not a number");
	expect_error("Metric,A\n,1\n", "line 2: an empty metric name");
	expect_error("Metric,A,\nM,1,2\n", "line 1: an empty component name");
	expect_error("Metric,\"A\nM,1\n", "line 1: more than 1026 cells or an unclosed quote");
	expect_error("Metric\nM,1\n", "");
	expect_error("System:,x\nTimestamp,IPC\n10:00:00:000,1\n", "no cumulative table");
	expect_error("Metric,A\n\nM,1\n", "the cumulative table has no metric row");
	expect_error("", "no cumulative table");
	assert_int_equal(mtr_pcm_table_parse(nul, sizeof(nul) - 1, &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a NUL byte"));
	/* 1024 components (a large machine's -A core table): the limit, each value found */
	strcpy(big, "Metric");
	for (int i = 0; i < 1024; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), ",Core-%d", i);
	strcat(big, "\nM");
	for (int i = 0; i < 1024; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), ",%d", i);
	strcat(big, "\n");
	assert_int_equal(mtr_pcm_table_parse(big, strlen(big), &t, err, sizeof(err)), 0);
	assert_int_equal(t.ncomps, 1024);
	assert_int_equal(mtr_pcm_table_find(&t, "M", "Core-1023", &v), 0);
	assert_true(v == 1023);
	/* 1025 components: one over the limit */
	strcpy(big, "Metric");
	for (int i = 0; i < 1025; i++)
		snprintf(big + strlen(big), sizeof(big) - strlen(big), ",C%d", i);
	strcat(big, "\n");
	expect_error(big, "line 1: more than 1024 components");
	/* a metric name of 96 bytes (95 fit) */
	snprintf(big, sizeof(big), "Metric,A\n%096d,1\n", 0);
	expect_error(big, "line 2: a metric name longer than 95 bytes");
	/* a line over 65536 bytes */
	memset(big, 'x', sizeof(big));
	memcpy(big, "Metric,A\nM,", 11);
	big[sizeof(big) - 1] = 0;
	expect_error(big, "line 2: a line over 65536 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_values),
		cmocka_unit_test(damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
