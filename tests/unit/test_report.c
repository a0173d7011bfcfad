// SPDX-License-Identifier: MIT
/*
 * lib/report on a hand-built session (report_fixture.h): functions, processes, threads,
 * filters, the CSV layout, programs. Damaged and hostile inputs: test_report_damage.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "report/internal.h"
#include "report_fixture.h"

static void test_functions_processes_threads(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	struct rpt_row rows[16];
	const struct rpt_row *x;
	struct rpt_summary s;
	struct rpt *r;
	int n;

	(void)state;
	make_session(dir);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.samples, 8);
	assert_int_equal(s.lost, 7);
	assert_int_equal(s.damaged_at, 0);
	assert_int_equal(s.unparsable, 0);
	assert_false(s.interrupted);

	n = rpt_rows(r, RPT_FUNCTIONS, rows, 16);
	x = row_named(rows, n, "light_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 4); /* 3 in app + 1 in the forked child */
	assert_string_equal(x->module, demo);
	assert_true(x->seconds > 0.0039 && x->seconds < 0.0041);
	x = row_named(rows, n, "heavy_work");
	assert_non_null(x);
	assert_int_equal(x->samples, 2);
	x = row_named(rows, n, "kfunc");
	assert_non_null(x);
	assert_string_equal(x->module, "[kernel.kallsyms]");
	x = row_named(rows, n, "[unknown]!0x"); /* the exec dropped the old mappings */
	assert_non_null(x);
	assert_int_equal(x->samples, 1);
	assert_string_equal(rows[0].name, "light_work"); /* largest first */

	n = rpt_rows(r, RPT_PROCESSES, rows, 16);
	assert_int_equal(n, 2);
	assert_string_equal(rows[0].name, "app (PID:100)");
	assert_int_equal(rows[0].samples, 6);
	assert_string_equal(rows[1].name, "other (PID:200)");
	assert_int_equal(rows[1].samples, 2);

	n = rpt_rows(r, RPT_THREADS, rows, 16);
	assert_non_null(row_named(rows, n, "worker (PID:100)"));
	assert_int_equal(row_named(rows, n, "worker (PID:100)")->id, 101);
	assert_non_null(row_named(rows, n, "app (PID:100)"));
	rpt_free(r);
	rm_session(dir);
}

/* -p and --time-filter: what is left out is counted, never lost silently */
static void test_filters(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", ks[PATH_MAX + 16], err[256];
	const int only[] = { 200 };
	struct rpt_options o = { .cutoff = 10, .kallsyms = ks };
	struct rpt_summary s;
	struct rpt_row rows[16];
	int pids[4];
	struct rpt *r;

	(void)state;
	make_session(dir);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	o.only_pids = only;
	o.nonly_pids = 1;
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_true(s.filtered);
	assert_int_equal(s.samples, 2);
	assert_int_equal(s.filtered_samples, 6);
	assert_int_equal(rpt_rows(r, RPT_PROCESSES, rows, 16), 1);
	assert_string_equal(rows[0].name, "other (PID:200)");
	assert_int_equal(rpt_process_ids(r, pids, 4), 2); /* the session's, not the filter's */
	rpt_free(r);

	/* the sample times are 13..50 ns after a profile start of 0: keep up to 30 ns */
	o.nonly_pids = 0;
	o.time_filter = true;
	o.time_from_s = -1; /* open */
	o.time_to_s = 30e-9;
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	rpt_summary(r, &s);
	assert_int_equal(s.samples, 6);
	assert_int_equal(s.filtered_samples, 2);
	rpt_free(r);
	rm_session(dir);
}

static void test_csv_layout(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	char *text = NULL;
	size_t len = 0;
	struct rpt *r;
	FILE *f;

	(void)state;
	make_session(dir);
	r = open_report(dir, true);
	f = open_memstream(&text, &len);
	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	assert_int_equal(text[0], '\n'); /* uProf's files start with an empty line */
	assert_non_null(strstr(text, "\nPERFORMANCE ANALYSIS REPORT\n"));
	assert_non_null(strstr(text, "Lost Samples:,\"7\"\n"));
	assert_non_null(strstr(text, "\"10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)\"\n"
				     "FUNCTION,\"CPU_TIME\" (seconds),Module\n"
				     "\"light_work\",0.0040,\""));
	assert_non_null(strstr(text, "PROCESS,\"CPU_TIME\" (seconds)\n\"app (PID:100)\",0.0060\n"));
	assert_non_null(strstr(text, "THREAD,THREAD ID,\"CPU_TIME\" (seconds)\n"));
	assert_non_null(strstr(text, "PROFILE REPORT FOR PROCESS - app (PID:100)\n"));
	assert_non_null(strstr(text, "PROFILE REPORT FOR PROCESS - other (PID:200)\n"));
	assert_non_null(strstr(text, "\"worker (PID:100)\",\"101\",0.0020\n"));
	assert_null(strstr(text, "Data Damage"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* Programs: the processes of one (executable, name as run) summed. A fork without exec
 * stays its parent's program; a second mapping does not change the program; one name
 * of two files is two programs; a name the kernel cut is whole from the file; a symlink
 * (g++) keeps its own name; a later prctl rename does not move a process. */
static void make_programs_session(char *dir)
{
	static const struct {
		uint32_t pid;
		const char *comm, *exe;
		int samples;
	} procs[] = {
		{ 200, "cc1", "/x/cc1", 3 },
		{ 201, "cc1", "/x/cc1", 2 },
		{ 202, "cc1", "/y/cc1", 1 },
		{ 204, "x86_64-linux-gnu-gcc-12", "/usr/bin/x86_64-linux-gnu-gcc-12", 1 },
		{ 205, "g++", "/usr/bin/x86_64-linux-gnu-g++-12", 1 },
		{ 206, "cc1", "/x/cc1", 1 },
	};
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct ses_writer *w;
	uint64_t id = 1, t = 10;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100, 100, "app", true, t++);
	rec_mmap2(w, 100, BASE, 0x100000, demo, t++);
	rec_sample(w, 100, 100, BASE + light_vaddr + 4, t++, false);
	rec_sample(w, 100, 100, BASE + light_vaddr + 4, t++, false);
	rec_fork(w, 203, 100, 203, 100, t++); /* no exec: still app */
	rec_sample(w, 203, 203, BASE + light_vaddr + 4, t++, false);
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		rec_fork(w, procs[i].pid, 100, procs[i].pid, 100, t++);
		rec_comm(w, procs[i].pid, procs[i].pid, procs[i].comm, true, t++);
		rec_mmap2(w, procs[i].pid, BASE, 0x1000, procs[i].exe, t++);
		rec_mmap2(w, procs[i].pid, BASE + 0x100000, 0x1000, "/lib/ld-linux.so.2", t++);
		if (procs[i].pid == 206)
			rec_comm(w, 206, 206, "renamed", false, t++);
		for (int k = 0; k < procs[i].samples; k++)
			rec_sample(w, procs[i].pid, procs[i].pid, BASE + 0x10, t++, false);
	}
	assert_int_equal(ses_writer_close(w), 0);
}

static const struct rpt_row *program_row(const struct rpt_row *rows, int n, const char *name,
					 const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name) && !strcmp(rows[i].module, path))
			return &rows[i];
	return NULL;
}

static void test_programs(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", err[256];
	struct rpt_options o = { .cutoff = 10, .kallsyms = "/dev/null" };
	const struct rpt_row *row;
	struct rpt_row rows[16];
	struct rpt_summary s;
	char *text = NULL;
	size_t len = 0;
	struct rpt *r;
	FILE *f;
	int n;

	(void)state;
	make_programs_session(dir);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	n = rpt_rows(r, RPT_PROGRAMS, rows, 16);
	assert_int_equal(n, 5);
	row = program_row(rows, n, "cc1", "/x/cc1");
	assert_non_null(row);
	assert_int_equal(row->count, 3); /* 200, 201 and the renamed 206 */
	assert_int_equal(row->samples, 6);
	assert_ptr_equal(row, &rows[0]);
	row = program_row(rows, n, "app", demo);
	assert_non_null(row);
	assert_int_equal(row->count, 2); /* 100 and its fork 203 */
	assert_int_equal(row->samples, 3);
	row = program_row(rows, n, "cc1", "/y/cc1");
	assert_true(row && row->count == 1 && row->samples == 1);
	row = program_row(rows, n, "x86_64-linux-gnu-gcc-12", "/usr/bin/x86_64-linux-gnu-gcc-12");
	assert_true(row && row->count == 1);
	row = program_row(rows, n, "g++", "/usr/bin/x86_64-linux-gnu-g++-12");
	assert_true(row && row->count == 1);
	rpt_summary(r, &s);
	assert_int_equal(s.nprograms, 5);
	assert_int_equal(s.nprocesses, 8);
	assert_true(s.by_program);
	f = open_memstream(&text, &len);
	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "\"10 HOTTEST PROGRAMS (Sort Event - CPU_TIME)\"\n"
				     "PROGRAM,PROCESSES,\"CPU_TIME\" (seconds),Path\n"
				     "\"cc1\",\"3\",0.0060,\"/x/cc1\"\n"));
	/* the process keeps the kernel's 15 bytes */
	assert_non_null(strstr(text, "\"x86_64-linux-gn (PID:204)\""));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* A session of one program and of one process per program has no programs section. */
static void test_programs_left_out(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	struct rpt_summary s;
	char *text = NULL;
	size_t len = 0;
	struct rpt *r;
	FILE *f;

	(void)state;
	make_session(dir); /* app and other: two programs, two processes */
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.nprograms, 2);
	assert_false(s.by_program);
	f = open_memstream(&text, &len);
	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	assert_null(strstr(text, "PROGRAMS"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* A run paused from its start to its end reads "paused for the whole run", whatever its
 * length: the comparison is in whole ns (pause_s * 1e9 came back a hair under the run for
 * ~3 % of lengths, and such a run read "0.0 Hz"). 400 lengths, each from 1 s up in steps
 * of an odd number of ns, so the rounding of every kind of length is tried. */
static void test_paused_whole_run_any_length(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	int64_t start = 5000000000LL;
	struct ses_info in = { 0 };
	struct ses_pause p = { .pid = -1 };
	struct rpt_options o = { .cutoff = 10 };
	char err[256], *text;
	struct ses_writer *w;
	int whole = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.target_cpu_ns = 250000000;
	w = test_writer_open(dir);
	assert_non_null(w);
	assert_int_equal(ses_writer_close(w), 0);
	snprintf(p.how, sizeof(p.how), "start-paused");
	for (int k = 0; k < 400; k++) {
		struct rpt *r = NULL;

		in.start_mono_ns = start;
		in.end_mono_ns = start + 1000000000LL + (int64_t)k * 7919 * 104729;
		p.paused_at = in.start_mono_ns;
		p.resumed_at = in.end_mono_ns;
		assert_int_equal(test_info_write(dir, &in), 0);
		assert_int_equal(test_pauses_write(dir, &p, 1), 0);
		assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
		text = csv_text(r);
		whole += strstr(text, "Achieved Sampling Rate:,\"none (paused for the whole run)\"") != NULL;
		free(text);
		rpt_free(r);
	}
	assert_int_equal(whole, 400);
	rm_session(dir);
}

/* rpt_options.progress: pass 1 every RPT_PROGRESS_EVERY records read, with the offset
 * reached and the file's size; pass 2 every RPT_PROGRESS_EVERY records counted, of all. */
struct progress_seen {
	int calls[3];
	uint64_t last_records[3], last_bytes, of_bytes, of_records;
	bool ordered;
};

static void on_progress(void *arg, const struct rpt_progress *p)
{
	struct progress_seen *s = arg;

	assert_true(p->pass == 1 || p->pass == 2);
	if (s->calls[p->pass] && p->records <= s->last_records[p->pass])
		s->ordered = false;
	if (p->pass == 1) {
		if (p->bytes < s->last_bytes || p->bytes >= p->of_bytes)
			s->ordered = false;
		s->last_bytes = p->bytes;
		s->of_bytes = p->of_bytes;
	} else {
		s->of_records = p->of_records;
	}
	s->calls[p->pass]++;
	s->last_records[p->pass] = p->records;
}

static void test_progress(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[64];
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct progress_seen seen = { .ordered = true };
	struct rpt_options o = { .cutoff = 10, .progress = on_progress, .progress_arg = &seen };
	struct ses_writer *w;
	struct rpt *r = NULL;
	struct stat sb;
	uint64_t id = 1;
	char err[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.samples = 3000;
	in.target_cpu_ns = 3000000000LL;
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100, 100, "app", true, 10);
	for (int i = 0; i < 3000; i++)
		rec_sample(w, 100, 100, BASE + light_vaddr + 4, 20 + (uint64_t)i, false);
	assert_int_equal(ses_writer_close(w), 0);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	assert_int_equal(stat(path, &sb), 0);
	/* 3002 records read (the attr, the COMM, 3000 samples): at 1024 and 2048 */
	assert_int_equal(seen.calls[1], 2);
	assert_int_equal(seen.last_records[1], 2048);
	assert_int_equal(seen.of_bytes, (uint64_t)sb.st_size);
	/* 3001 records counted (COMM and samples): at 0, 1024, 2048 of 3001 */
	assert_int_equal(seen.calls[2], 3);
	assert_int_equal(seen.last_records[2], 2048);
	assert_int_equal(seen.of_records, 3001);
	assert_true(seen.ordered);
	rpt_free(r);
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_functions_processes_threads),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_csv_layout),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_programs_left_out),
		cmocka_unit_test(test_paused_whole_run_any_length),
		cmocka_unit_test(test_progress),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
