// SPDX-License-Identifier: MIT
/*
 * lib/report on a foreign perf pipe file (rpt_open of a file, foreign.c): a hand-built
 * stream of cpu-clock with per-sample periods and page-faults with a fixed one, both of
 * one process; the tallies are the samples' periods (CPU_TIME the ns summed, page-faults
 * the fixed period per sample), every event has its column, and the files that are not
 * pipe streams are refused with their one line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "session/session.h"
#include "pipe_builder.h"
#include "tmpdir.h"

#define ID_CLOCK 1
#define ID_PF 2
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

static char path[256];

static void add_attr(struct img *m, uint64_t config, uint64_t st, uint64_t period, uint64_t id)
{
	struct perf_event_attr a = { 0 };
	size_t at = begin(m);

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.sample_type = st;
	a.sample_period = period;
	a.sample_id_all = 1;
	put(m, &a, sizeof(a));
	put64(m, id);
	end(m, at, SES_RECORD_HEADER_ATTR, true);
}

static void add_sample(struct img *m, uint64_t id, uint64_t time, const uint64_t *period)
{
	size_t at = begin(m);

	put64(m, id);
	put64(m, 0x1000);
	put32(m, 700);
	put32(m, 700);
	put64(m, time);
	if (period)
		put64(m, *period);
	end(m, at, PERF_RECORD_SAMPLE, true);
}

static void write_file(const struct img *m)
{
	FILE *f;

	test_tmp_path(path, sizeof(path), "uprof-test-foreign.XXXXXX");
	assert_int_not_equal(mkstemp(path), -1);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(m->b, 1, m->n, f), m->n);
	assert_int_equal(fclose(f), 0);
}

static void build(struct img *m)
{
	static const uint64_t p1 = 250000000, p2 = 125000000;

	memset(m, 0, sizeof(*m));
	put(m, "PERFILE2", 8);
	put64(m, 16);
	add_attr(m, PERF_COUNT_SW_CPU_CLOCK, ST | PERF_SAMPLE_PERIOD, 1000000, ID_CLOCK);
	add_attr(m, PERF_COUNT_SW_PAGE_FAULTS, ST, 1000, ID_PF);
	add_sample(m, ID_CLOCK, 100, &p1);
	add_sample(m, ID_PF, 150, NULL);
	add_sample(m, ID_CLOCK, 200, &p2);
	add_sample(m, ID_PF, 250, NULL);
	add_sample(m, ID_PF, 300, NULL);
}

static void test_weighted_tallies(void **state)
{
	struct rpt_options o = { .cutoff = 10 };
	struct rpt_summary s;
	struct rpt_row rows[4];
	struct rpt *r;
	struct img m;
	char err[512], *csv = NULL;
	size_t csvlen = 0;
	FILE *f;
	int n;

	(void)state;
	build(&m);
	write_file(&m);
	assert_int_equal(rpt_open(&r, path, &o, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_true(s.info->foreign);
	assert_int_equal(s.info->nevents, 2);
	assert_string_equal(s.info->events[0].name, "CPU_TIME (cpu-clock)");
	assert_string_equal(s.info->events[1].name, "page-faults");
	assert_int_equal(s.kept_samples, 5);
	/* the sort event counts its samples' own periods, not 2 x the attr's 1 ms */
	assert_int_equal(s.samples, 250000000 + 125000000);
	assert_true(s.cpu_time_s > 0.37499 && s.cpu_time_s < 0.37501);
	n = rpt_rows(r, RPT_PROCESSES, rows, 4);
	assert_int_equal(n, 1);
	assert_int_equal(rows[0].id, 700);
	assert_true(rows[0].seconds > 0.37499 && rows[0].seconds < 0.37501);
	f = open_memstream(&csv, &csvlen);
	assert_non_null(f);
	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	/* page-faults without PERF_SAMPLE_PERIOD: 3 samples x its fixed 1000 */
	assert_non_null(strstr(csv, "PROCESS,\"CPU_TIME (cpu-clock)\",\"page-faults\"\n"));
	assert_non_null(strstr(csv, "(PID:700)\",0.3750,3000.0000\n"));
	assert_non_null(strstr(csv, "Total CPU_TIME,\"0.3750 seconds\""));
	assert_non_null(strstr(csv, "Samples:,\"5\""));
	free(csv);
	rpt_free(r);
	unlink(path);
}

static void test_refused(void **state)
{
	struct rpt_options o = { .cutoff = 10 };
	struct img m = { .n = 0 };
	struct rpt *r = NULL;
	char err[512];

	(void)state;
	put(&m, "PERFILE2", 8);
	put64(&m, 104);
	put(&m, (char[104]){ 0 }, 104 - 16);
	write_file(&m);
	assert_int_equal(rpt_open(&r, path, &o, err, sizeof(err)), -EPROTO);
	assert_null(r);
	assert_non_null(strstr(err, "is a perf.data in file mode; convert it with `perf inject -i "));
	unlink(path);
	m.n = 0;
	put(&m, "not a perf file at all, just text\n", 34);
	write_file(&m);
	assert_int_equal(rpt_open(&r, path, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ": not a perf pipe file or uprof session"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weighted_tallies),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
