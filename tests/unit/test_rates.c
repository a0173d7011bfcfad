// SPDX-License-Identifier: MIT
/*
 * lib/report/rates.c on hand-built sessions: the achieved rate divides by the CPU time of
 * the modes sampled (user time for a user-only timer, when collect recorded the split);
 * a timer that fired far less often than asked (THROTTLE records, or an interval below
 * what a sample costs) gives samples that stand for the measured CPU time, and says so;
 * sessions without the split, or sampled at the rate asked, report as before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "report/internal.h"
#include "report_fixture.h"

struct shape {
	int nsamples;
	uint64_t period_ns;
	bool user_only;
	int64_t cpu_ns, user_ns, sys_ns;
	int throttles;
	int64_t run_ns; /* start to end; 0: 1000 s */
};

static void rec_throttle(struct ses_writer *w, uint64_t t)
{
	struct buf b = { .n = 8 };

	put64(&b, t);
	put64(&b, 1); /* id */
	put64(&b, 1); /* stream id */
	trailer(&b, 100, 100, t);
	finish(w, &b, PERF_RECORD_THROTTLE, 0);
}

/* @sh->nsamples samples in light_work (3 of 4) and heavy_work (1 of 4) of one thread */
static void make_rate_session(char *dir, const struct shape *sh)
{
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct ses_writer *w;
	uint64_t id = 1;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), sh->user_only ? "hotspots" : "tbp");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = sh->period_ns;
	in.events[0].exclude_kernel = sh->user_only;
	in.status = SES_STATUS_COMPLETE;
	in.samples = (uint64_t)sh->nsamples;
	in.target_cpu_ns = sh->cpu_ns;
	in.target_user_ns = sh->user_ns;
	in.target_sys_ns = sh->sys_ns;
	in.start_mono_ns = 1;
	in.end_mono_ns = 1 + (sh->run_ns ? sh->run_ns : 1000000000000);
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, sh->period_ns, sh->user_only);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100, 100, "app", true, 10);
	rec_mmap2(w, 100, BASE, 0x100000, demo, 11);
	for (int i = 0; i < sh->nsamples; i++)
		rec_sample(w, 100, 100, BASE + (i % 4 ? light_vaddr : heavy_vaddr) + 4,
			   20 + (uint64_t)i, false);
	for (int i = 0; i < sh->throttles; i++)
		rec_throttle(w, 30 + (uint64_t)i);
	assert_int_equal(ses_writer_close(w), 0);
}

static struct rpt *open_plain(const char *dir)
{
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r = NULL;
	char err[256];

	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	return r;
}

static double row_seconds(const struct rpt *r, const char *name)
{
	struct rpt_row rows[8];
	int n = rpt_rows(r, RPT_FUNCTIONS, rows, 8);
	const struct rpt_row *row = row_named(rows, n, name);

	assert_non_null(row);
	return row->seconds;
}

static void test_user_only_rate_over_user_time(void **state)
{
	/* 400 samples at 1 ms over 0.5 s user + 0.3 s system: 800 Hz, not 500 */
	struct shape sh = { 400, 1000000, true, 800000000, 500000000, 300000000, 0, 0 };
	char dir[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	struct rpt *r;
	char *csv;

	(void)state;
	make_rate_session(dir, &sh);
	r = open_plain(dir);
	rpt_summary(r, &s);
	assert_true(fabs(s.achieved_hz - 800.0) < 1e-9);
	assert_string_equal(s.rate_mode, "user");
	assert_true(s.time_scale == 1);
	assert_true(fabs(s.cpu_time_s - 0.4) < 1e-12); /* samples x interval */
	csv = csv_text(r);
	assert_non_null(strstr(csv, "Achieved Sampling Rate:,\"800.0 Hz (samples per second of "
				    "target user-mode CPU time)\""));
	assert_null(strstr(csv, "CPU_TIME Per Sample"));
	free(csv);
	rpt_free(r);
	rm_session(dir);
}

static void test_both_modes_or_no_split_as_before(void **state)
{
	struct shape both = { 400, 1000000, false, 800000000, 500000000, 300000000, 0, 0 };
	struct shape old = { 400, 1000000, true, 800000000, 0, 0, 0, 0 };
	char d1[] = "/tmp/uprof-rates.XXXXXX", d2[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	struct rpt *r;
	char *csv;

	(void)state;
	make_rate_session(d1, &both);
	r = open_plain(d1);
	rpt_summary(r, &s);
	assert_true(fabs(s.achieved_hz - 500.0) < 1e-9); /* user + system */
	assert_null(s.rate_mode);
	rpt_free(r);
	/* a session from before the split: over the whole CPU time, the line as it was */
	make_rate_session(d2, &old);
	r = open_plain(d2);
	rpt_summary(r, &s);
	assert_true(fabs(s.achieved_hz - 500.0) < 1e-9);
	assert_null(s.rate_mode);
	csv = csv_text(r);
	assert_non_null(strstr(csv, "Achieved Sampling Rate:,\"500.0 Hz (samples per second of "
				    "target CPU time)\""));
	free(csv);
	rpt_free(r);
	rm_session(d1);
	rm_session(d2);
}

static void test_overrun_timer_shares_out_cpu_time(void **state)
{
	/* asked 100 kHz (10 us), got 400 samples in 0.04 s: 10 kHz; each sample is 0.1 ms; a
	 * busy target (0.04 s of CPU in a 0.05 s run), nothing lost or throttled */
	struct shape sh = { 400, 10000, false, 40000000, 10000000, 30000000, 0, 50000000 };
	char dir[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	struct rpt *r;
	char *csv;

	(void)state;
	make_rate_session(dir, &sh);
	r = open_plain(dir);
	rpt_summary(r, &s);
	assert_true(fabs(s.achieved_hz - 10000.0) < 1e-6);
	assert_true(fabs(s.time_scale - 10.0) < 1e-9);
	assert_true(fabs(s.cpu_time_s - 0.04) < 1e-12); /* the measured CPU time, not 0.004 */
	assert_true(fabs(row_seconds(r, "light_work") - 0.03) < 1e-12);
	assert_true(fabs(row_seconds(r, "heavy_work") - 0.01) < 1e-12);
	assert_int_equal(s.throttles, 0);
	csv = csv_text(r);
	assert_non_null(strstr(csv, "CPU_TIME Per Sample:,\"0.1000 ms: the timer fired 10.0x less "
				    "often than asked (the target was busy (0.040 s of CPU in "
				    "0.050 s) and no sample was lost or throttled: a sample costs "
				    "more CPU time than the 0.010 ms interval)"));
	/* 5 decimals: one 10 us sample's */
	assert_non_null(strstr(csv, "Total CPU_TIME,\"0.04000 seconds\""));
	free(csv);
	rpt_free(r);
	rm_session(dir);
}

static void test_throttled_timer_counted_and_made_right(void **state)
{
	/* 1 kHz asked, 800 samples over 1 s of CPU: within the share an overrun would need,
	 * but the kernel said it throttled the event 3 times */
	struct shape sh = { 800, 1000000, false, 1000000000, 900000000, 100000000, 3, 0 };
	char dir[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	struct rpt *r;
	char *csv;

	(void)state;
	make_rate_session(dir, &sh);
	r = open_plain(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.throttles, 3);
	assert_true(fabs(s.time_scale - 1.25) < 1e-9);
	assert_true(fabs(s.cpu_time_s - 1.0) < 1e-12);
	assert_int_equal(s.samples, 800);
	assert_int_equal(s.unparsable, 0);
	csv = csv_text(r);
	assert_non_null(strstr(csv, "Throttled:,\"3 times"));
	assert_non_null(strstr(csv, "less often than asked (throttled by the kernel 3 times)"));
	free(csv);
	rpt_free(r);
	rm_session(dir);
}

static void test_rate_as_asked_is_not_scaled(void **state)
{
	/* 900 samples at 1 ms over 1 s: 90 % of the rate (a loaded machine): no scaling */
	struct shape sh = { 900, 1000000, false, 1000000000, 0, 0, 0, 0 };
	char dir[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	struct rpt *r;

	(void)state;
	make_rate_session(dir, &sh);
	r = open_plain(dir);
	rpt_summary(r, &s);
	assert_true(s.time_scale == 1);
	assert_true(fabs(s.cpu_time_s - 0.9) < 1e-12);
	rpt_free(r);
	rm_session(dir);
}

/* A target on the CPU in bursts (20 ms of CPU in a 2 s run) whose timer gave 5 samples of
 * the 20 asked: the cause said is the bursts, with the numbers, not the sample cost. */
static void test_bursty_target_named_as_the_cause(void **state)
{
	struct shape sh = { 5, 1000000, false, 20000000, 15000000, 5000000, 0, 2000000000 };
	char dir[] = "/tmp/uprof-rates.XXXXXX";
	struct rpt_summary s;
	char cause[256];
	struct rpt *r;

	(void)state;
	make_rate_session(dir, &sh);
	r = open_plain(dir);
	rpt_summary(r, &s);
	assert_true(fabs(s.time_scale - 4.0) < 1e-9);
	assert_string_equal(rpt_rate_cause(r, cause, sizeof(cause)),
			    "the target was on a CPU 1.0 % of the run (0.020 s of 2.000 s), in "
			    "bursts; 250.0 samples per CPU-second; no sample lost or throttled");
	rpt_free(r);
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_only_rate_over_user_time),
		cmocka_unit_test(test_both_modes_or_no_split_as_before),
		cmocka_unit_test(test_overrun_timer_shares_out_cpu_time),
		cmocka_unit_test(test_throttled_timer_counted_and_made_right),
		cmocka_unit_test(test_rate_as_asked_is_not_scaled),
		cmocka_unit_test(test_bursty_target_named_as_the_cause),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
