// SPDX-License-Identifier: MIT
/*
 * lib/metric/pcm_series.c: pcm's timeseries and run file read back (uprof pcm hreport) --
 * exact groups, components, metrics, values and metadata of a synthetic two-group file;
 * rows past the kept values counted; and each damaged input refused with its line:
 * truncated rows, corrupted values, a cut header, NUL bytes, components whose metrics
 * differ from their group's, overlong names; run files of another version, bad escapes,
 * bad kinds.
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

#define META \
	"System:,AMD EPYC\nSample interval (ms):,100\nCPU Topology:\nSocket,CCX,Core(s)\n0,0,0-1\n"
/* two groups: swi at system level (2 metrics), l3 at two CCXs (1 metric each) */
#define HEADER \
	",SOFTWARE,,L3,,,\n" \
	",System (Aggregated),,CCX (Aggregated)-0,CCX (Aggregated)-1,All Counters,\n" \
	"Timestamp,CPU Time (ms),Context Switches,\"Miss, %\",\"Miss, %\"," MTR_PCM_MUX_SCALE_NAME \
	",\n"

static struct mtr_pcm_series s;

static int parse(const char *text, size_t max_values, char *err, size_t errlen)
{
	return mtr_pcm_series_parse(text, strlen(text), max_values, &s, err, errlen);
}

static void expect_error(const char *text, const char *want)
{
	char err[256];

	assert_int_equal(parse(text, 1000, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s'", want, err);
}

static void exact(void **state)
{
	char err[256];
	unsigned iv = 0;

	(void)state;
	assert_int_equal(parse(META HEADER "10:00:00:100,12.50,7,1.00,,1.00,\r\n"
					   "10:00:00:200,0.25,0,-2.00,3.00,1.50,\n"
					   "\nMetric,System (Aggregated)\nnot,read\n",
			       1000, err, sizeof(err)),
			 0);
	assert_int_equal(s.meta_len, strlen(META));
	assert_int_equal(mtr_pcm_meta_uint(META, s.meta_len, "Sample interval (ms):", &iv), 0);
	assert_int_equal(iv, 100);
	assert_int_equal(mtr_pcm_meta_uint(META, s.meta_len, "Nope:", &iv), -ENOENT);
	assert_int_equal(s.ngroups, 2);
	assert_string_equal(s.titles[1], "L3");
	assert_int_equal(s.ncomps, 3);
	assert_int_equal(s.ncols, 4);
	assert_string_equal(s.comps[2].label, "CCX (Aggregated)-1");
	assert_int_equal(s.comps[2].group, 1);
	assert_int_equal(s.comps[2].first_col, 3);
	assert_int_equal(s.comps[0].ncols, 2);
	assert_string_equal(s.metric[3], "Miss, %");
	assert_int_equal(s.rows, 2);
	assert_int_equal(s.rows_total, 2);
	assert_string_equal(s.stamps[1], "10:00:00:200");
	assert_true(s.vals[0] == 12.5 && s.vals[1] == 7 && isnan(s.vals[3]) && s.vals[4] == 1);
	assert_true(s.vals[5 + 2] == -2 && s.vals[5 + 4] == 1.5);
	assert_int_equal(s.seen[0], MTR_PCM_SEEN_DEC);
	assert_int_equal(s.seen[1], MTR_PCM_SEEN_INT); /* a count: no decimals */
	mtr_pcm_series_free(&s);
	/* 12 values kept: the first two rows of five; the third checked and counted */
	assert_int_equal(parse(META HEADER "a,1.00,1,1.00,1.00,1.00,\nb,2.00,2,2.00,2.00,1.00,\n"
					   "c,3.00,3,3.00,3.00,1.00,\n",
			       12, err, sizeof(err)),
			 0);
	assert_int_equal(s.rows, 2);
	assert_int_equal(s.rows_total, 3);
	mtr_pcm_series_free(&s);
	/* no header: not a timeseries (a -C file) */
	assert_int_equal(
		parse(META "Metric,System (Aggregated)\nIPC,1.00\n", 1000, err, sizeof(err)),
		-ENODATA);
}

static void damaged(void **state)
{
	char big[200];

	(void)state;
	expect_error(META HEADER "10:00:00:100,12.50,7,1.00,",
		     "line 9: 5 cells where the header has 7");
	expect_error(META HEADER "10:00:00:100,12.50,x7,1.00,,1.00,\n",
		     "line 9: the value 'x7' is not a number");
	expect_error(META HEADER "10:00:00:100,12.50,1e3,1.00,,1.00,\n",
		     "line 9: the value '1e3' is not a number");
	expect_error(META HEADER "10:00:00:100,12.50,7,1.00,,1.00,9\n", "line 9: a cell after the");
	expect_error(META HEADER ",12.50,7,1.00,,1.00,\n", "line 9: the Timestamp '' is empty");
	expect_error(META HEADER "10:00:00:100,\"12.50,7,1.00,,1.00,\n", "line 9: more cells");
	expect_error(META ",SOFTWARE,,\n,System (Aggregated),,\nTimestamp,A,B,\n",
		     "line 8: the header does not end in the");
	expect_error(META ",SOFTWARE,\n,System (Aggregated),,All Counters,\n"
			  "Timestamp,A,B," MTR_PCM_MUX_SCALE_NAME ",\n",
		     "line 8: the three header rows have 3, 5 and 5 cells");
	expect_error(META "Timestamp,A," MTR_PCM_MUX_SCALE_NAME ",\n",
		     "the 'Timestamp,' row is not the third");
	expect_error(META ",G,,,,\n,C-0,C-1,,All Counters,\nTimestamp,A,B,C," MTR_PCM_MUX_SCALE_NAME
			  ",\n",
		     "component 'C-1' has 2 metrics where its group's first has 1");
	expect_error(META ",G,,,,\n,C-0,,C-1,All Counters,\nTimestamp,A,B,A," MTR_PCM_MUX_SCALE_NAME
			  ",\n",
		     "component 'C-1' has 1 metrics where its group's first has 2");
	expect_error(META
		     ",G,,,,,\n,C-0,,C-1,,All Counters,\nTimestamp,A,B,A,C," MTR_PCM_MUX_SCALE_NAME
		     ",\n",
		     "names metric 'C' where its group's first names 'B'");
	{
		char err[256];

		assert_int_equal(
			mtr_pcm_series_parse("x\n,\n,\nTime\0", 14, 10, &s, err, sizeof(err)),
			-EINVAL);
		assert_non_null(strstr(err, "a NUL byte"));
	}
	snprintf(big, sizeof(big),
		 ",%040d,,\n,C,All Counters,\nTimestamp,A," MTR_PCM_MUX_SCALE_NAME ",\n", 0);
	expect_error(big, "line 3: a group title longer than 31 bytes");
}

static struct mtr_pcm_run run;

static void expect_run_error(const char *text, const char *want)
{
	char err[256];

	assert_int_equal(mtr_pcm_run_parse(text, strlen(text), &run, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s'", want, err);
}

static void run_file(void **state)
{
	char err[256];
	const char
		*text = "uprof-pcm-run\t1\nprogram\tsh\t-c\techo a\\tb\\\\c\\n\n"
			"metric\tswi\tderived\tCPU Time (ms)\nmetric\tswi\tcount\tPage\\tFaults\n";

	(void)state;
	assert_int_equal(mtr_pcm_run_parse(text, strlen(text), &run, err, sizeof(err)), 0);
	assert_int_equal(run.nargs, 3);
	assert_string_equal(run.argv[2], "echo a\tb\\c\n");
	assert_null(run.argv[3]);
	assert_int_equal(run.nmetrics, 2);
	assert_string_equal(run.metric[1].name, "Page\tFaults");
	assert_true(run.metric[1].count && !run.metric[0].count);
	assert_string_equal(run.metric[0].group, "swi");
	mtr_pcm_run_free(&run);
	/* no program line: no program launched (-a -d) */
	assert_int_equal(mtr_pcm_run_parse("uprof-pcm-run\t1\n", 16, &run, err, sizeof(err)), 0);
	assert_null(run.argv);
	mtr_pcm_run_free(&run);
	expect_run_error("uprof-pcm-run\t2\n", "line 1: not 'uprof-pcm-run<TAB>1'");
	expect_run_error("", "an empty run file");
	expect_run_error("uprof-pcm-run\t1\nprogram\n",
			 "line 2: a 'program' line names no program");
	expect_run_error("uprof-pcm-run\t1\nprogram\t\n", "line 2: an empty program name");
	expect_run_error("uprof-pcm-run\t1\nprogram\ta\\q\n", "line 2: a bad \\ escape");
	expect_run_error("uprof-pcm-run\t1\nprogram\ta\nprogram\tb\n",
			 "line 3: a second 'program'");
	expect_run_error("uprof-pcm-run\t1\nmetric\tswi\tcounted\tX\n",
			 "line 2: 'counted' is neither count nor derived");
	expect_run_error("uprof-pcm-run\t1\nmetric\tswi\tcount\n", "line 2: a 'metric' line is");
	expect_run_error("uprof-pcm-run\t1\nmetric\tswi\tcount\tX\tY\n",
			 "line 2: a 'metric' line is");
	expect_run_error("uprof-pcm-run\t1\nmetric\t\tcount\tX\n", "line 2: an empty group name");
	expect_run_error("uprof-pcm-run\t1\nmetrics\tswi\tcount\tX\n",
			 "line 2: 'metrics' is no line of a run file");
	/* the last line without its newline is whole */
	assert_int_equal(mtr_pcm_run_parse("uprof-pcm-run\t1\nmetric\tswi\tcount\tX", 34, &run, err,
					   sizeof(err)),
			 0);
	assert_int_equal(run.nmetrics, 1);
	assert_string_equal(run.metric[0].name, "X");
	mtr_pcm_run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact),
		cmocka_unit_test(damaged),
		cmocka_unit_test(run_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
