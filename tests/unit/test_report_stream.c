// SPDX-License-Identifier: MIT
/*
 * lib/report's streamed time order (load.c): a session of several thousand records whose
 * rings lie far out of time order in the file, over many of the blocks the first pass
 * notes, gives the exact sums a sort of the whole file gives: the mapping written last
 * applies to every sample, an exec written early drops it only for the samples after its
 * time (and for the one of its very time written after it), and a record that does not
 * decode is counted wherever it lies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmc/pmc.h"
#include "report/internal.h"
#include "report_fixture.h"

#define PER_RING 3000 /* samples per ring: 6000 records, six blocks of the first pass */
#define EXEC_T 5000   /* the exec's time: ring k's sample 2000 of CPU 0 has it too */

/* Sample @k of a ring: every third one in heavy_work. */
static uint64_t ip_of(int k)
{
	return BASE + (k % 3 ? light_vaddr : heavy_vaddr) + 4;
}

static void make_stream_session(char *dir)
{
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct ses_writer *w;
	struct buf bad = { .n = 8 };
	uint64_t id = 1;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", demo);
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.samples = 2 * PER_RING + 1; /* the one that does not decode too */
	in.lost_samples = 5;
	in.target_cpu_ns = 2 * PER_RING * 1000000LL;
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100, 100, "app", true, 1);
	/* CPU 1's ring first: odd times 1001, 1003, ... */
	for (int k = 0; k < PER_RING; k++) {
		rec_sample(w, 100, 100, ip_of(k), 1000 + 2 * k + 1, false);
		if (k == 1000) /* early in the file, late in time */
			rec_comm(w, 100, 100, "app2", true, EXEC_T);
		if (k == 1500) { /* a sample record too short for its attr */
			put64(&bad, 1);
			finish(w, &bad, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		}
	}
	/* CPU 0's ring after it: even times 1000, 1002, ... */
	for (int k = 0; k < PER_RING; k++)
		rec_sample(w, 100, 100, ip_of(k), 1000 + 2 * k, false);
	/* the last records of the file are the first in time */
	rec_mmap2(w, 100, BASE, 0x100000, demo, 500);
	rec_lost(w, 5, 2);
	assert_int_equal(ses_writer_close(w), 0);
}

static void test_exact_sums_out_of_order(void **state)
{
	char dir[] = "/tmp/uprof-rpt-stream.XXXXXX", err[256];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt_row rows[16];
	const struct rpt_row *x;
	struct rpt_summary s;
	struct rpt *r = NULL;
	uint64_t unknown = 0;
	int n;

	(void)state;
	make_stream_session(dir);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_int_equal(s.samples, 2 * PER_RING);
	assert_int_equal(s.file_samples, 2 * PER_RING + 1);
	assert_int_equal(s.unparsable, 1);
	assert_int_equal(s.lost, 5);
	assert_int_equal(s.damaged_at, 0);
	assert_false(s.count_damage);

	/* before the exec: times 1000..4999, k 0..1999 of each ring, every third heavy
	 * (667 of 2000); after it, and CPU 0's sample at its very time: unknown */
	n = rpt_rows(r, RPT_FUNCTIONS, rows, 16);
	x = row_named(rows, n, "light_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 2 * 1333);
	x = row_named(rows, n, "heavy_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 2 * 667);
	for (int i = 0; i < n; i++) /* a row per unknown address */
		if (!strncmp(rows[i].name, "[unknown]!0x", 12))
			unknown += rows[i].samples;
	assert_int_equal(unknown, 2 * (PER_RING - 2000));
	n = rpt_rows(r, RPT_PROCESSES, rows, 16);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].samples, 2 * PER_RING);
	rpt_free(r);
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_sums_out_of_order),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
