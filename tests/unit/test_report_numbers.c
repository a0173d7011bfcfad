// SPDX-License-Identifier: MIT
/*
 * The numbers of lib/report on hand-built sessions, checked exactly: each sample of an
 * event but the timer weighted by the period the kernel recorded in it (a sample of a
 * session written without PERF_SAMPLE_PERIOD stands for the interval), report.csv's
 * rows summing to its total, -s/--sort-by's sort event and the --show-* units.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metric/metric.h"
#include "pmc/pmc.h"
#include "report/internal.h"
#include "report_fixture.h"

/* A sample of attr @id, with PERF_SAMPLE_PERIOD's field when @period is not 0. */
static void sample(struct ses_writer *w, uint64_t id, uint32_t tid, uint64_t ip, uint64_t t,
		   uint64_t period)
{
	struct buf b = { .n = 8 };

	put64(&b, id);
	put64(&b, ip);
	put32x2(&b, 100, tid);
	put64(&b, t);
	put32x2(&b, 0, 0);
	if (period)
		put64(&b, period);
	finish(w, &b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

/* session.ini for events @names (a software event's config each, or the timer) sampled
 * every @periods, and samples.data's writer, with the demo binary mapped at BASE. */
static struct ses_writer *begin(char *dir, int n, const char *const *names,
				const uint64_t *configs, const uint64_t *periods,
				bool record_period)
{
	struct ses_info in = { 0 };
	struct ses_writer *w;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "%s", strcmp(names[0], "CPU_TIME") ? "ebp" : "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", demo);
	in.nevents = n;
	in.status = SES_STATUS_COMPLETE;
	in.exit_code = 0;
	in.ncpus = 2;
	for (int i = 0; i < n; i++) {
		struct ses_event *e = &in.events[i];
		struct perf_event_attr attr;
		uint64_t id = (uint64_t)i + 1;

		snprintf(e->name, sizeof(e->name), "%s", names[i]);
		e->period = periods[i];
		pmc_timer_attr(&attr, periods[i], false);
		if (strcmp(names[i], "CPU_TIME")) {
			e->type = PERF_TYPE_SOFTWARE;
			e->config = configs[i];
			attr.config = configs[i];
		} else {
			e->type = attr.type;
			e->config = attr.config;
		}
		if (!record_period)
			attr.sample_type &= ~(uint64_t)PERF_SAMPLE_PERIOD;
		if (!i) {
			assert_int_equal(test_info_write(dir, &in), 0);
			w = test_writer_open(dir);
			assert_non_null(w);
		}
		assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	}
	assert_int_equal(test_info_write(dir, &in), 0); /* every event */
	rec_comm(w, 100, 100, "app", true, 10);
	rec_mmap2(w, 100, BASE, 0x100000, demo, 11);
	return w;
}

/* report.csv of @r (owned: free); not report_fixture.h's inline one, whose memstream
 * buffer gcc takes for a dangling pointer once this file walks through it */
static __attribute__((noinline)) char *csv_of(const struct rpt *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(rpt_write_csv(r, f), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static struct rpt *open_all(const char *dir)
{
	struct rpt_options o = { .cutoff = 0 };
	struct rpt *r = NULL;
	char err[256];

	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	return r;
}

/* -e context-switches: the kernel samples each switch (period 1 in the sample) whatever
 * the interval asked (250,000); samples of other periods count theirs; a second event's
 * column too. */
static void each_sample_counts_its_own_period(void **state)
{
	static const char *const names[] = { "context-switches", "page-faults" };
	static const uint64_t configs[] = { PERF_COUNT_SW_CONTEXT_SWITCHES,
					    PERF_COUNT_SW_PAGE_FAULTS };
	static const uint64_t periods[] = { 250000, 250000 };
	char dir[] = "/tmp/uprof-num.XXXXXX";
	struct ses_writer *w;
	struct rpt_summary s;
	struct rpt_row rows[8];
	const struct rpt_row *x;
	struct rpt *r;
	char *text;
	int n;

	(void)state;
	w = begin(dir, 2, names, configs, periods, true);
	sample(w, 1, 100, BASE + light_vaddr + 4, 20, 1);
	sample(w, 1, 100, BASE + light_vaddr + 4, 21, 1);
	sample(w, 1, 100, BASE + light_vaddr + 8, 22, 1);
	sample(w, 1, 100, BASE + light_vaddr + 8, 23, 2);
	sample(w, 1, 100, BASE + light_vaddr + 8, 24, 5);
	sample(w, 1, 100, BASE + heavy_vaddr + 4, 25, 3);
	sample(w, 2, 100, BASE + heavy_vaddr + 4, 26, 4);
	sample(w, 2, 100, BASE + heavy_vaddr + 4, 27, 6);
	assert_int_equal(ses_writer_close(w), 0);

	r = open_all(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.sample_records, 6);
	assert_int_equal(s.samples, 13); /* 1+1+1+2+5+3 switches, not 6 x 250,000 */
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 8);
	x = row_named(rows, n, "light_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 10);
	x = row_named(rows, n, "heavy_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 3);
	text = csv_of(r);
	assert_non_null(strstr(text, "Total context-switches,\"13 events\"\n"));
	assert_non_null(strstr(text, "Samples:,\"6\"\n"));
	/* the page-faults column: 4 + 6, beside heavy_work's 3 switches */
	assert_non_null(strstr(text, "\"heavy_work\",3.0000,10.0000,"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* A session written before PERF_SAMPLE_PERIOD was read (none in its samples): each sample
 * stands for the interval, as then. */
static void without_a_period_a_sample_is_the_interval(void **state)
{
	static const char *const names[] = { "context-switches" };
	static const uint64_t configs[] = { PERF_COUNT_SW_CONTEXT_SWITCHES };
	static const uint64_t periods[] = { 1000 };
	char dir[] = "/tmp/uprof-num.XXXXXX";
	struct ses_writer *w;
	struct rpt_summary s;
	struct rpt *r;
	char *text;

	(void)state;
	w = begin(dir, 1, names, configs, periods, false);
	for (int i = 0; i < 4; i++)
		sample(w, 1, 100, BASE + light_vaddr + 4, 20 + (uint64_t)i, 0);
	assert_int_equal(ses_writer_close(w), 0);
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.sample_records, 4);
	assert_int_equal(s.samples, 4000);
	text = csv_of(r);
	assert_non_null(strstr(text, "Total context-switches,\"4000 events\"\n"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* The value of @cell ("0.00025" or "0.0003") in units of 10^-@digits, exactly. */
static int64_t fixed(const char *cell, int digits)
{
	const char *dot = strchr(cell, '.');
	int64_t v = strtoll(cell, NULL, 10);
	int k = 0;

	for (int i = 0; i < digits; i++)
		v *= 10;
	if (dot) {
		int64_t frac = 0;

		for (k = 1; k <= digits && dot[k] >= '0' && dot[k] <= '9'; k++)
			frac = frac * 10 + (dot[k] - '0');
		for (; k <= digits; k++)
			frac *= 10;
		v += frac;
	}
	return v;
}

/* A 0.25 ms timer and 1,485 functions of one sample each ([unknown]!0x... addresses of no
 * mapping, one per address), and 15 samples of light_work: report.csv's function rows sum
 * to its Total CPU_TIME, exactly. */
static void csv_rows_sum_to_the_total(void **state)
{
	static const char *const names[] = { "CPU_TIME" };
	static const uint64_t configs[] = { 0 };
	static const uint64_t periods[] = { 250000 };
	char dir[] = "/tmp/uprof-num.XXXXXX";
	const char *at, *total;
	struct ses_writer *w;
	struct rpt *r;
	int64_t sum = 0;
	int nrows = 0;
	char *text;

	(void)state;
	w = begin(dir, 1, names, configs, periods, true);
	for (uint64_t i = 0; i < 1485; i++)
		sample(w, 1, 100, 0x7f0000000000ULL + i * 64, 20 + i, 250000);
	for (uint64_t i = 0; i < 15; i++)
		sample(w, 1, 100, BASE + light_vaddr + 4, 2000 + i, 250000);
	assert_int_equal(ses_writer_close(w), 0);
	r = open_all(dir);
	text = csv_of(r);
	total = strstr(text, "Total CPU_TIME,\"");
	assert_non_null(total);
	assert_int_equal(fixed(total + 16, 5), 37500); /* 1,500 x 0.00025 s = 0.37500 s */
	/* the first function table: every function of the session (no cutoff) */
	at = strstr(text, "FUNCTION,\"CPU_TIME\" (seconds),Module\n");
	assert_non_null(at);
	at = strchr(at, '\n') + 1;
	while (*at == '"') {
		const char *comma = strstr(at, "\",");

		assert_non_null(comma);
		sum += fixed(comma + 2, 5);
		nrows++;
		at = strchr(at, '\n') + 1;
	}
	assert_int_equal(nrows, 1486);
	assert_int_equal(sum, fixed(total + 16, 5));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* session.ini's run (of 25 samples): @ncpus CPUs (@mask: -c's list), from @start to @end ns */
static void set_run(const char *dir, int ncpus, const char *mask, int64_t start, int64_t end)
{
	struct ses_info in;
	char why[256];

	assert_int_equal(ses_info_read(dir, &in, why, sizeof(why)), 0);
	in.ncpus = ncpus;
	snprintf(in.cpu_mask, sizeof(in.cpu_mask), "%s", mask);
	in.start_mono_ns = start;
	in.end_mono_ns = end;
	in.target_cpu_ns = 1000; /* 1 us of CPU time: the "rate" of any count is absurd */
	in.samples = 25;	 /* what samples.data holds: no count damage */
	assert_int_equal(test_info_write(dir, &in), 0);
}

/* A 1 ms timer on 2 CPUs for 10 ms gives at most 2 x 10 samples (+10 % and 1 per CPU
 * of slack: 24): 24 are a rate, 25 are damage, said so; -c 1 alone: 12. */
static void samples_the_cpus_cannot_give_are_damage(void **state)
{
	static const char *const names[] = { "CPU_TIME" };
	static const uint64_t configs[] = { 0 };
	static const uint64_t periods[] = { 1000000 };
	char dir[] = "/tmp/uprof-num.XXXXXX";
	struct ses_writer *w;
	struct rpt_summary s;
	struct rpt *r;
	char *text;

	(void)state;
	w = begin(dir, 1, names, configs, periods, true);
	for (uint64_t i = 0; i < 25; i++)
		sample(w, 1, 100, BASE + light_vaddr + 4, 1000 + i, 1000000);
	assert_int_equal(ses_writer_close(w), 0);
	set_run(dir, 2, "", 0, 10000000);
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.rate_max_samples, 24);
	assert_int_equal(s.rate_samples, 25);
	assert_true(s.rate_damage);
	text = csv_of(r);
	assert_non_null(strstr(text, "Achieved Sampling Rate:,\"implausible ("));
	assert_non_null(strstr(text, "Data Damage:,\"25 timer samples, more than the 24 "));
	free(text);
	rpt_free(r);

	set_run(dir, 2, "", 0, 10000001); /* 24.000002 allowed: still 24 */
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_true(s.rate_damage);
	rpt_free(r);
	set_run(dir, 2, "", 0, 10500000); /* 25.1: the 25 are possible */
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_false(s.rate_damage);
	text = csv_of(r);
	assert_null(strstr(text, "implausible"));
	assert_null(strstr(text, "Data Damage"));
	free(text);
	rpt_free(r);
	set_run(dir, 2, "1", 0, 10500000); /* -c 1: one CPU sampled */
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.rate_max_samples, 12);
	assert_true(s.rate_damage);
	rpt_free(r);
	set_run(dir, 2, "", 0, 0); /* no run time recorded: not known, not damage */
	r = open_all(dir);
	rpt_summary(r, &s);
	assert_int_equal(s.rate_max_samples, 0);
	assert_false(s.rate_damage);
	rpt_free(r);
	rm_session(dir);
}

/* CPU_TIME (1 ms) and page-faults (each sample its own period): light_work 3 timer samples
 * and 1 fault, heavy_work 1 timer sample and 4 + 6 faults. */
static void two_events(char *dir)
{
	static const char *const names[] = { "CPU_TIME", "page-faults" };
	static const uint64_t configs[] = { 0, PERF_COUNT_SW_PAGE_FAULTS };
	static const uint64_t periods[] = { 1000000, 250000 };
	struct ses_writer *w = begin(dir, 2, names, configs, periods, true);

	for (uint64_t i = 0; i < 3; i++)
		sample(w, 1, 100, BASE + light_vaddr + 4, 20 + i, 1000000);
	sample(w, 1, 100, BASE + heavy_vaddr + 4, 23, 1000000);
	sample(w, 2, 100, BASE + light_vaddr + 4, 24, 1);
	sample(w, 2, 100, BASE + heavy_vaddr + 4, 25, 4);
	sample(w, 2, 100, BASE + heavy_vaddr + 8, 26, 6);
	assert_int_equal(ses_writer_close(w), 0);
}

static int open_with(const char *dir, const struct rpt_sort_key *k, enum rpt_show show,
		     struct rpt **r, char *err, size_t len)
{
	struct rpt_options o = { .cutoff = 0, .sort_by = k, .show = show };

	*r = NULL;
	return rpt_open(r, dir, &o, err, len);
}

/* -s page-faults: it sorts the tables and is their first column, tallies in its units;
 * -s event=timer is the session's own order; an event the session lacks is -ENOKEY with
 * the session's events named. */
static void sort_by_picks_the_sort_event(void **state)
{
	const struct rpt_sort_key pf = { .kind = RPT_SORT_EVENT,
					 .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_PAGE_FAULTS,
					 .spec = "page-faults" };
	const struct rpt_sort_key timer = { .kind = RPT_SORT_TIMER, .spec = "event=timer" };
	const struct rpt_sort_key cs = { .kind = RPT_SORT_EVENT,
					 .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_CONTEXT_SWITCHES,
					 .spec = "context-switches" };
	char dir[] = "/tmp/uprof-num.XXXXXX", err[512];
	struct rpt_summary s;
	struct rpt_row rows[8];
	struct rpt *r;
	char *text;
	int n;

	(void)state;
	two_events(dir);
	assert_int_equal(open_with(dir, NULL, RPT_SHOW_VALUE, &r, err, sizeof(err)), 0);
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 8);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].name, "light_work");
	assert_int_equal(rows[0].samples, 3);
	text = csv_of(r);
	assert_non_null(strstr(text, "FUNCTION,\"CPU_TIME\",\"page-faults\",Module\n"
				     "\"light_work\",0.0030,1.0000,"));
	assert_null(strstr(text, "Sort Event:,"));
	free(text);
	rpt_free(r);

	assert_int_equal(open_with(dir, &pf, RPT_SHOW_VALUE, &r, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_string_equal(s.info->events[0].name, "page-faults");
	assert_string_equal(s.info->events[1].name, "CPU_TIME");
	assert_int_equal(s.samples, 11);
	assert_int_equal(s.sample_records, 3);
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 8);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].name, "heavy_work");
	assert_int_equal(rows[0].samples, 10);
	assert_string_equal(rows[1].name, "light_work");
	assert_int_equal(rows[1].samples, 1);
	text = csv_of(r);
	assert_non_null(strstr(text, "Sort Event:,\"page-faults (--sort-by page-faults)\"\n"));
	assert_non_null(strstr(text, "Total page-faults,\"11 events\"\n"));
	assert_non_null(strstr(text, "\"ALL FUNCTIONS (Sort Event - page-faults)\"\n"
				     "FUNCTION,\"page-faults\",\"CPU_TIME\",Module\n"
				     "\"heavy_work\",10.0000,0.0010,"));
	assert_non_null(strstr(text, "\"light_work\",1.0000,0.0030,"));
	free(text);
	rpt_free(r);

	assert_int_equal(open_with(dir, &timer, RPT_SHOW_VALUE, &r, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_string_equal(s.info->events[0].name, "CPU_TIME");
	assert_int_equal(s.samples, 4);
	rpt_free(r);

	assert_int_equal(open_with(dir, &cs, RPT_SHOW_VALUE, &r, err, sizeof(err)), -ENOKEY);
	assert_null(r);
	assert_non_null(strstr(err, "--sort-by 'context-switches': "));
	assert_non_null(strstr(err, "has no such event; its events: CPU_TIME, page-faults"));
	rm_session(dir);
}

/* user=/os= given: the modes must match; not given: the first event of that code. */
static void sort_key_modes(void **state)
{
	struct ses_info in = { .nevents = 3 };
	struct rpt_sort_key k = { .kind = RPT_SORT_EVENT, .type = PERF_TYPE_RAW, .config = 0xc0 };

	(void)state;
	strcpy(in.events[0].name, "CPU_TIME");
	in.events[0].type = PERF_TYPE_SOFTWARE;
	in.events[0].config = PERF_COUNT_SW_CPU_CLOCK;
	for (int i = 1; i < 3; i++) {
		strcpy(in.events[i].name, "RETIRED_INST (PMCx0C0)");
		in.events[i].type = PERF_TYPE_RAW;
		in.events[i].config = 0xc0;
	}
	in.events[2].exclude_kernel = true; /* user=1,os=0 */
	assert_int_equal(rpt_find_sort_event(&in, &k), 1);
	k.modes = true;
	k.exclude_kernel = true;
	assert_int_equal(rpt_find_sort_event(&in, &k), 2);
	k.exclude_kernel = false;
	k.exclude_user = true; /* user=0,os=1: none */
	assert_int_equal(rpt_find_sort_event(&in, &k), -ENOKEY);
	k = (struct rpt_sort_key){ .kind = RPT_SORT_EVENT, .type = PERF_TYPE_RAW, .config = 0xc1 };
	assert_int_equal(rpt_find_sort_event(&in, &k), -ENOKEY);
	k = (struct rpt_sort_key){ .kind = RPT_SORT_TIMER };
	assert_int_equal(rpt_find_sort_event(&in, &k), 0);
	k = (struct rpt_sort_key){ .kind = RPT_SORT_IBS_OP };
	assert_int_equal(rpt_find_sort_event(&in, &k), -ENOKEY);
	strcpy(in.events[1].name, "IBS_OP");
	assert_int_equal(rpt_find_sort_event(&in, &k), 1);
}

/* --show-*: the same tallies as samples, event counts (the timer's in ns) and percent of
 * each event's total (CPU_TIME 4 samples, page-faults 11 events). */
static void show_options_pick_the_unit(void **state)
{
	const struct rpt_sort_key pf = { .kind = RPT_SORT_EVENT,
					 .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_PAGE_FAULTS,
					 .spec = "page-faults" };
	static const struct {
		enum rpt_show show;
		bool by_pf;
		const char *want[4];
	} cases[] = {
		{ RPT_SHOW_SAMPLE_COUNT,
		  false,
		  { "Values Shown:,\"samples (events counted by their own period: events)\"\n",
		    "FUNCTION,\"CPU_TIME (samples)\",\"page-faults (events)\",Module\n",
		    "\"light_work\",3,1,", "\"heavy_work\",1,10," } },
		{ RPT_SHOW_EVENT_COUNT,
		  false,
		  { "Values Shown:,\"event counts (samples x interval; CPU_TIME in ns)\"\n",
		    "FUNCTION,\"CPU_TIME (ns)\",\"page-faults (events)\",Module\n",
		    "\"light_work\",3000000,1,", "\"heavy_work\",1000000,10," } },
		{ RPT_SHOW_PERCENTAGE,
		  false,
		  { "Values Shown:,\"percent of each event's total in this report\"\n",
		    "FUNCTION,\"CPU_TIME (%)\",\"page-faults (%)\",Module\n",
		    "\"light_work\",75.0000,9.0909,", "\"heavy_work\",25.0000,90.9091," } },
		{ RPT_SHOW_PERCENTAGE,
		  true,
		  { "Sort Event:,\"page-faults (--sort-by page-faults)\"\n",
		    "FUNCTION,\"page-faults (%)\",\"CPU_TIME (%)\",Module\n"
		    "\"heavy_work\",90.9091,25.0000,",
		    "\"light_work\",9.0909,75.0000,", "THREAD,THREAD ID,\"page-faults (%)\"" } },
	};
	char dir[] = "/tmp/uprof-num.XXXXXX", err[512];
	struct rpt *r;
	char *text;

	(void)state;
	two_events(dir);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		assert_int_equal(open_with(dir, cases[c].by_pf ? &pf : NULL, cases[c].show, &r,
					   err, sizeof(err)),
				 0);
		text = csv_of(r);
		for (int i = 0; i < 4; i++)
			if (!strstr(text, cases[c].want[i]))
				fail_msg("case %zu: no '%s' in\n%s", c, cases[c].want[i], text);
		free(text);
		rpt_free(r);
	}
	rm_session(dir);
}

/* --agg-interval: the samples of each event per bucket since the profile start (0 here),
 * every bucket up to the last sampled one; 0 or less: one row of the whole run. */
static void samples_per_interval(void **state)
{
	char dir[] = "/tmp/uprof-num.XXXXXX", err[512];
	struct rpt_options o = { .cutoff = 0, .agg_interval = true, .agg_interval_ns = 3 };
	struct rpt *r;
	char *text;
	const char *at;

	(void)state;
	two_events(dir);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	text = csv_of(r);
	at = strstr(text, "\"SAMPLES PER INTERVAL (Interval - 0.000 ms)\"\n"
			  "INTERVAL START (seconds),INTERVAL END (seconds),"
			  "\"CPU_TIME (samples)\",\"page-faults (events)\"\n");
	assert_non_null(at);
	at = strchr(strchr(at, '\n') + 1, '\n') + 1;
	/* timer at t 20 (bucket 6), 21, 22, 23 (7); faults at 24, 25, 26 (8): 1 + 4 + 6 */
	for (int b = 0; b < 6; b++) {
		assert_int_equal(strncmp(at, "0.000,0.000,0,0\n", 16), 0);
		at += 16;
	}
	if (strncmp(at, "0.000,0.000,1,0\n0.000,0.000,3,0\n0.000,0.000,0,11\n\n", 49))
		fail_msg("rows 6-8: %.60s", at);
	free(text);
	rpt_free(r);
	o.agg_interval_ns = 0;
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	text = csv_of(r);
	at = strstr(text, "\"SAMPLES PER INTERVAL (Interval - the whole run)\"\n"
			  "INTERVAL START (seconds),INTERVAL END (seconds),"
			  "\"CPU_TIME (samples)\",\"page-faults (events)\"\n");
	assert_non_null(at);
	at = strchr(strchr(at, '\n') + 1, '\n') + 1;
	if (strncmp(at, "0.000,0.000,4,11\n", 17) || (at[17] && at[17] != '\n'))
		fail_msg("the whole run: %.40s", at);
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* --view ipc_assess on a session of RETIRED_INST then CYCLES_NOT_IN_HALT (two software
 * events renamed, each sample counting its period): the view's columns in its order,
 * sorted by CYCLES_NOT_IN_HALT, IPC and CPI from the counts; a view needing events the
 * session lacks is refused naming them and the config that samples them. */
static void view_columns_from_known_counts(void **state)
{
	static const char *const names[] = { "RETIRED_INST (PMCx0C0)",
					      "CYCLES_NOT_IN_HALT (PMCx076)" };
	static const uint64_t configs[] = { PERF_COUNT_SW_PAGE_FAULTS,
					    PERF_COUNT_SW_CONTEXT_SWITCHES };
	static const uint64_t periods[] = { 1000, 1000 };
	char dir[] = "/tmp/uprof-num.XXXXXX", err[512];
	struct rpt_options o = { .cutoff = 0 };
	struct ses_writer *w;
	struct rpt *r = NULL;
	char *text;

	(void)state;
	w = begin(dir, 2, names, configs, periods, true);
	/* light_work: 6000 instructions in 3000 cycles; heavy_work: 1000 in 5000 */
	sample(w, 1, 100, BASE + light_vaddr + 4, 20, 2000);
	sample(w, 1, 100, BASE + light_vaddr + 8, 21, 4000);
	sample(w, 2, 100, BASE + light_vaddr + 4, 22, 3000);
	sample(w, 1, 100, BASE + heavy_vaddr + 4, 23, 1000);
	sample(w, 2, 100, BASE + heavy_vaddr + 4, 24, 2000);
	sample(w, 2, 100, BASE + heavy_vaddr + 8, 25, 3000);
	assert_int_equal(ses_writer_close(w), 0);

	o.view = mtr_view_find("ipc_assess");
	assert_non_null(o.view);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	text = csv_of(r);
	assert_non_null(strstr(text, "Selected View:,\"IPC (ipc_assess)\"\n"));
	assert_non_null(strstr(text, "(Sort Event - CYCLES_NOT_IN_HALT (PMCx076))"));
	if (!strstr(text, "FUNCTION,\"CYCLES_NOT_IN_HALT (PMCx076)\",\"RETIRED_INST (PMCx0C0)\","
			  "\"IPC\",\"CPI\",Module\n"
			  "\"heavy_work\",5000.0000,1000.0000,0.2000,5.0000,")
	    || !strstr(text, "\n\"light_work\",3000.0000,6000.0000,2.0000,0.5000,"))
		fail_msg("functions: %s", strstr(text, "FUNCTION,"));
	assert_non_null(strstr(text, "PROCESS,\"CYCLES_NOT_IN_HALT (PMCx076)\",\"RETIRED_INST "
				     "(PMCx0C0)\",\"IPC\",\"CPI\"\n\"app (PID:100)\",8000.0000,7000.0000,"
				     "0.8750,1.1429\n"));
	free(text);
	rpt_free(r);

	/* the default report is what it was: the session's order, no view line */
	o.view = NULL;
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	text = csv_of(r);
	assert_null(strstr(text, "Selected View"));
	assert_non_null(strstr(text, "FUNCTION,\"RETIRED_INST (PMCx0C0)\",\"CYCLES_NOT_IN_HALT "
				     "(PMCx076)\",Module\n\"light_work\",6000.0000,3000.0000,"));
	free(text);
	rpt_free(r);

	r = NULL;
	o.view = mtr_view_find("triage_assess");
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -ENOKEY);
	assert_null(r);
	assert_non_null(strstr(err, "--view triage_assess: "));
	assert_non_null(strstr(err, " has no RETIRED_BR_INST_MISP, RETIRED_BR_INST, "
				    "L1_DC_ACCESSES_ALL, L2_CACHE_ACCESS_FROM_L1_DC_MISS, "
				    "L1_DEMAND_DC_REFILLS_LOCAL, L1_DEMAND_DC_REFILLS_REMOTE, "
				    "MISALIGNED_LOADS (7 of the view's 9 events); 'uprof collect "
				    "--config assess' samples them"));
	rm_session(dir);
}

/* --agg-interval's per-thread cells (the exports' timelines): a sample exactly on a
 * bucket's start is in that bucket, each thread's units apart, in (pid, tid, bucket,
 * event) order; a step of 0 is one bucket a thread, ending past the last sample when
 * session.ini has no end. */
static void agg_cells_per_thread(void **state)
{
	static const char *const names[] = { "CPU_TIME" };
	static const uint64_t configs[] = { 0 }, periods[] = { 1000000 };
	static const struct {
		uint32_t tid;
		uint64_t t;
	} at[] = { { 100, 20 }, { 101, 21 }, { 101, 23 }, { 100, 24 }, { 100, 26 }, { 100, 29 } };
	/* step 3: 20 -> 6, 21 and 23 -> 7 (21 its start), 24 and 26 -> 8, 29 -> 9 */
	static const struct rpt_agg_cell want[] = {
		{ 100, 100, 6, 0, 1 }, { 100, 100, 8, 0, 2 }, { 100, 100, 9, 0, 1 },
		{ 100, 101, 7, 0, 2 } };
	char dir[] = "/tmp/uprof-num.XXXXXX", err[512];
	struct rpt_options o = { .cutoff = 0, .agg_interval = true, .agg_interval_ns = 3 };
	struct ses_writer *w;
	struct rpt_agg_facts a;
	struct rpt_agg_cell c;
	struct rpt *r;

	(void)state;
	w = begin(dir, 1, names, configs, periods, true);
	rec_comm(w, 100, 101, "app-2", false, 12);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		sample(w, 1, at[i].tid, BASE + light_vaddr + 4, at[i].t, 1000000);
	assert_int_equal(ses_writer_close(w), 0);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_agg_facts(r, &a);
	assert_true(a.on);
	assert_int_equal(a.step_ns, 3);
	assert_int_equal(a.nbuckets, 10);
	assert_int_equal(a.nevents, 1);
	assert_int_equal(a.ncells, 4);
	for (size_t i = 0; i < a.ncells; i++) {
		rpt_agg_cell_at(r, i, &c);
		if (memcmp(&c, &want[i], sizeof(c)))
			fail_msg("cell %zu: pid %u tid %u bucket %u ev %u units %llu", i, c.pid,
				 c.tid, c.bucket, c.ev, (unsigned long long)c.units);
	}
	rpt_free(r);
	o.agg_interval_ns = 0; /* the whole run: a bucket a thread */
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_agg_facts(r, &a);
	assert_int_equal(a.step_ns, 0);
	assert_int_equal(a.nbuckets, 1);
	assert_int_equal(a.ncells, 2);
	assert_int_equal(a.end_ns, 30); /* no end in session.ini: just past the last sample */
	rpt_agg_cell_at(r, 0, &c);
	assert_true(c.tid == 100 && c.bucket == 0 && c.units == 4);
	rpt_agg_cell_at(r, 1, &c);
	assert_true(c.tid == 101 && c.bucket == 0 && c.units == 2);
	rpt_free(r);
	o.agg_interval = false; /* without the option: no cell */
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_agg_facts(r, &a);
	assert_false(a.on);
	assert_int_equal(a.ncells, 0);
	rpt_free(r);
	rm_session(dir);
}

/* --ignore-system-module's system libraries: by directory, not by name */
static void system_paths(void **state)
{
	(void)state;
	assert_true(rpt_system_path("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	assert_true(rpt_system_path("/lib64/ld-linux-x86-64.so.2"));
	assert_true(rpt_system_path("/lib/x86_64-linux-gnu/libm.so.6"));
	assert_true(rpt_system_path("/usr/lib32/libc.so.6"));
	assert_false(rpt_system_path("/usr/local/lib/libfoo.so"));
	assert_false(rpt_system_path("/home/u/lib/libc.so.6"));
	assert_false(rpt_system_path("/usr/libexec-not/x")); /* a prefix, not the directory */
	assert_false(rpt_system_path("/usr/lib"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_sample_counts_its_own_period),
		cmocka_unit_test(without_a_period_a_sample_is_the_interval),
		cmocka_unit_test(csv_rows_sum_to_the_total),
		cmocka_unit_test(samples_the_cpus_cannot_give_are_damage),
		cmocka_unit_test(sort_by_picks_the_sort_event),
		cmocka_unit_test(sort_key_modes),
		cmocka_unit_test(show_options_pick_the_unit),
		cmocka_unit_test(samples_per_interval),
		cmocka_unit_test(agg_cells_per_thread),
		cmocka_unit_test(system_paths),
		cmocka_unit_test(view_columns_from_known_counts),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
