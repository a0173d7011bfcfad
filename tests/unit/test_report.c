// SPDX-License-Identifier: MIT
/*
 * lib/report on a hand-built session: records written out of time order (as two CPU
 * rings interleave them), threads and a renamed thread, fork copying mappings, exec
 * dropping them, kernel samples against a fake kallsyms, lost records, a cut file, and
 * the CSV layout. Symbols come from a real binary (build/targets/demo) through libdw.
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

#define BASE 0x555500000000ULL
#define KADDR 0xffffffff81000100ULL

static char demo[PATH_MAX];
static uint64_t light_vaddr, heavy_vaddr;

#include "target_bins.h"

static int setup(void **state)
{
	(void)state;
	target_path(demo, sizeof(demo), "demo");
	light_vaddr = nm_addr(demo, "light_work");
	heavy_vaddr = nm_addr(demo, "heavy_work");
	return light_vaddr && heavy_vaddr ? 0 : -1;
}

/* ---- record builders (sample_id trailer: TID, TIME, CPU, IDENTIFIER) ---- */

#include "record_builder.h"

static void trailer(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time)
{
	put32x2(b, pid, tid);
	put64(b, time);
	put32x2(b, 0, 0);
	put64(b, 1); /* id */
}


static void rec_comm(struct ses_writer *w, uint32_t pid, uint32_t tid, const char *comm,
		     bool exec, uint64_t t)
{
	struct buf b = { .n = 8 };
	char name[16] = { 0 };

	put32x2(&b, pid, tid);
	strncpy(name, comm, 15);
	put(&b, name, 16);
	trailer(&b, pid, tid, t);
	finish(w, &b, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
}

static void rec_fork(struct ses_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
		     uint32_t ptid, uint64_t t)
{
	struct buf b = { .n = 8 };

	put32x2(&b, pid, ppid);
	put32x2(&b, tid, ptid);
	put64(&b, t);
	trailer(&b, pid, tid, t);
	finish(w, &b, PERF_RECORD_FORK, 0);
}

static void rec_mmap2(struct ses_writer *w, uint32_t pid, uint64_t start, uint64_t len,
		      const char *path, uint64_t t)
{
	struct buf b = { .n = 8 };
	char name[256] = { 0 };
	size_t plen = (strlen(path) + 8) & ~7UL;

	put32x2(&b, pid, pid);
	put64(&b, start);
	put64(&b, len);
	put64(&b, 0); /* pgoff */
	put64(&b, 0), put64(&b, 0), put64(&b, 0); /* maj min ino ino_gen */
	put32x2(&b, 5, 2);			    /* prot flags */
	strcpy(name, path);
	put(&b, name, plen);
	trailer(&b, pid, pid, t);
	finish(w, &b, PERF_RECORD_MMAP2, 0);
}

static void rec_sample(struct ses_writer *w, uint32_t pid, uint32_t tid, uint64_t ip,
		       uint64_t t, bool kernel)
{
	struct buf b = { .n = 8 };

	put64(&b, 1);
	put64(&b, ip);
	put32x2(&b, pid, tid);
	put64(&b, t);
	put32x2(&b, 0, 0);
	put64(&b, 1000000);
	finish(w, &b, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
}

static void rec_lost(struct ses_writer *w, uint64_t n, uint64_t t)
{
	struct buf b = { .n = 8 };

	put64(&b, 1);
	put64(&b, n);
	trailer(&b, 1, 1, t);
	finish(w, &b, PERF_RECORD_LOST, 0);
}

static void make_session(char *dir)
{
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct ses_writer *w;
	uint64_t id = 1;
	char ks[PATH_MAX + 16];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", demo);
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.samples = 8; /* what the file holds, as collect counts it */
	in.lost_samples = 7;
	in.target_cpu_ns = 10000000;
	in.exit_code = 0;
	assert_int_equal(ses_info_write(dir, &in), 0);
	w = ses_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	/* CPU 1's ring, flushed first: later times */
	rec_sample(w, 100, 100, BASE + light_vaddr + 4, 20, false);
	rec_sample(w, 100, 100, BASE + light_vaddr + 8, 21, false);
	rec_sample(w, 100, 101, BASE + heavy_vaddr + 4, 22, false);
	rec_sample(w, 200, 200, BASE + light_vaddr + 4, 35, false); /* forked child */
	rec_sample(w, 200, 200, BASE + light_vaddr + 4, 50, false); /* after exec: unknown */
	rec_sample(w, 100, 100, KADDR + 0x10, 23, true);
	/* CPU 0's ring: the side-band that must come first in time */
	rec_comm(w, 100, 100, "app", true, 10);
	rec_mmap2(w, 100, BASE, 0x100000, demo, 12);
	rec_sample(w, 100, 100, BASE + light_vaddr + 4, 13, false);
	rec_fork(w, 100, 100, 101, 100, 15);
	rec_comm(w, 100, 101, "worker", false, 16);
	rec_sample(w, 100, 101, BASE + heavy_vaddr + 4, 17, false);
	rec_fork(w, 200, 100, 200, 100, 30);
	rec_comm(w, 200, 200, "other", true, 40);
	rec_lost(w, 7, 41);
	assert_int_equal(ses_writer_close(w), 0);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	f = fopen(ks, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _stext\nffffffff81000100 T kfunc\nffffffff81000200 T after\n");
	fclose(f);
}

static void rm_session(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static struct rpt *open_report(const char *dir, bool detail)
{
	char ks[PATH_MAX + 16], err[256];
	struct rpt_options o = { .cutoff = 10, .detail = detail, .kallsyms = ks };
	struct rpt *r = NULL;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	return r;
}

static const struct rpt_row *row_named(const struct rpt_row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(rows[i].name, name, strlen(name)))
			return &rows[i];
	return NULL;
}

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

static void test_cut_file_reports_damage(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32];
	struct rpt_summary s;
	struct rpt *r;
	long size;
	FILE *f;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, size - 5), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_true(s.damaged_at > 0);
	assert_non_null(s.damage);
	assert_int_equal(s.samples, 8); /* the cut record was the LOST one */
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
	assert_int_equal(ses_info_write(dir, &in), 0);
	w = ses_writer_open(dir);
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

static void test_not_a_session(void **state)
{
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r = (struct rpt *)1;
	char err[256];

	(void)state;
	assert_int_equal(rpt_open(&r, "/tmp", &o, err, sizeof(err)), -ENOENT);
	assert_null(r);
	assert_non_null(strstr(err, "not a uprof session"));
}

/* Offset of the end of the @n-th record (after HEADER_ATTR) and the SAMPLE records up to it. */
static size_t record_boundary(const char *path, int n, uint64_t *samples)
{
	struct ses_reader *rd;
	struct ses_record rec;
	char err[128];
	size_t end = 0;

	*samples = 0;
	assert_int_equal(ses_reader_open_file(&rd, path, err, sizeof(err)), 0);
	while (n > 0 && ses_reader_next(rd, &rec) == 1) {
		end = rec.offset + rec.size;
		if (rec.type == SES_RECORD_HEADER_ATTR)
			continue;
		*samples += rec.type == PERF_RECORD_SAMPLE;
		n--;
	}
	ses_reader_free(rd);
	return end;
}

static char *csv_text(const struct rpt *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	return text;
}

/* A file cut at a record boundary reads cleanly: only session.ini's counts show it. */
static void test_boundary_cut_counts_damage(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32], want[128];
	struct rpt_summary s;
	struct ses_info info;
	uint64_t kept;
	size_t cut;
	char *text;
	struct rpt *r;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	cut = record_boundary(path, 5, &kept);
	assert_int_equal(kept, 5); /* CPU 1's ring comes first in the file */
	assert_int_equal(truncate(path, (off_t)cut), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.damaged_at, 0);
	assert_true(s.count_damage);
	assert_int_equal(s.counted_samples, 8);
	assert_int_equal(s.file_samples, 5);
	assert_int_equal(s.counted_lost, 7);
	assert_int_equal(s.file_lost, 0); /* the LOST record was cut */
	text = csv_text(r);
	snprintf(want, sizeof(want), "Data Damage:,\"session.ini counted 8 samples, samples.data "
				     "holds 5\"\n");
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "Data Damage:,\"session.ini counted 7 lost samples, "
				     "samples.data records 0\"\n"));
	free(text);
	rpt_free(r);
	/* a session left running (collect killed) has no final count to hold against it */
	assert_int_equal(ses_info_read(dir, &info, want, sizeof(want)), 0);
	info.status = SES_STATUS_RUNNING;
	info.collector_pid = 0;
	assert_int_equal(ses_info_write(dir, &info), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_false(s.count_damage);
	assert_int_equal(s.file_samples, 5);
	text = csv_text(r);
	assert_null(strstr(text, "Data Damage"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* 16 bytes: the pipe header and nothing else; no record, no event description. */
static void test_header_only_file(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32];
	struct rpt_summary s;
	struct rpt *r;
	char *text;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	assert_int_equal(truncate(path, 16), 0);
	r = open_report(dir, true);
	rpt_summary(r, &s);
	assert_int_equal(s.damaged_at, 16);
	assert_non_null(strstr(s.damage, "nothing after the 16-byte header"));
	assert_int_equal(s.samples, 0);
	assert_int_equal(s.file_samples, 0);
	assert_true(s.count_damage);
	text = csv_text(r);
	assert_non_null(strstr(text, "Data Damage:,\"samples.data unreadable from offset 16: "));
	assert_non_null(strstr(text, "session.ini counted 8 samples, samples.data holds 0"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* A FIFO in place of any file report must read is refused by name, at once. */
static void test_fifo_session_files_refused(void **state)
{
	static const char *const files[] = { "samples.data", "session.ini", "pauses.csv" };
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32], err[512], want[PATH_MAX + 64];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r = (struct rpt *)1;

	(void)state;
	make_session(dir);
	alarm(10); /* a reader that blocks on the FIFO fails here instead of hanging */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char cmd[PATH_MAX * 2 + 64];

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s.keep' 2>/dev/null; rm -f '%s'", path,
			 path, path);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(mkfifo(path, 0600), 0);
		err[0] = 0;
		assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -SES_ENOTREG);
		assert_null(r);
		snprintf(want, sizeof(want), "%s is a FIFO, not a regular file; ", path);
		if (strncmp(err, want, strlen(want)))
			fail_msg("%s: '%s'", files[i], err);
		unlink(path);
		snprintf(cmd, sizeof(cmd), "[ ! -e '%s.keep' ] || mv '%s.keep' '%s'", path, path,
			 path);
		assert_int_equal(system(cmd), 0);
	}
	alarm(0);
	rm_session(dir);
}

static const struct rpt_file_note *note_of(const struct rpt_summary *s, const char *file)
{
	for (size_t i = 0; i < s->nfile_notes && i < RPT_FILE_NOTES; i++)
		if (!strcmp(s->file_notes[i].file, file))
			return &s->file_notes[i];
	fail_msg("no note for %s", file);
	return NULL;
}

/* Each .tasks file that cannot be used costs its process's tasks and is named. */
static void test_bad_tasks_files_noted(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 64];
	const struct ses_task_record rec = { 14, 100, SES_TASK_BEGIN, 0, 1, 2 };
	struct ses_tasks_writer *w;
	struct rpt_summary s;
	struct rpt *r;
	FILE *f;

	(void)state;
	make_session(dir);
	w = ses_tasks_writer_open(dir, 100);
	assert_non_null(w);
	assert_int_equal(ses_tasks_write_string(w, 1, "Dom", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, 2, "Task", 4), 0);
	assert_int_equal(ses_tasks_write_record(w, &rec), 0);
	assert_int_equal(ses_tasks_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/instrument/100.tasks", dir);
	assert_int_equal(truncate(path, 24 + 24 + 24 + 20), 0); /* inside the record */
	snprintf(path, sizeof(path), "%s/instrument/101.tasks", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/instrument/102.tasks", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/instrument/103.tasks", dir);
	assert_int_equal(symlink("/dev/zero", path), 0);
	snprintf(path, sizeof(path), "%s/instrument/104.tasks", dir);
	f = fopen(path, "w"); /* what `head -c 4096 /dev/zero` leaves */
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc(0, f);
	fclose(f);
	alarm(10);
	r = open_report(dir, false);
	alarm(0);
	rpt_summary(r, &s);
	assert_int_equal(s.nfile_notes, 5);
	assert_string_equal(note_of(&s, "instrument/100.tasks")->why,
			    "damaged from offset 72 (entry runs past the end of the file); 0 "
			    "records before it reported");
	assert_string_equal(note_of(&s, "instrument/101.tasks")->why,
			    "is a FIFO, not a regular file; its tasks are not reported");
	assert_string_equal(note_of(&s, "instrument/102.tasks")->why,
			    "is empty (0 bytes); its tasks are not reported");
	assert_string_equal(note_of(&s, "instrument/103.tasks")->why,
			    "is a character device, not a regular file; its tasks are not "
			    "reported");
	assert_string_equal(note_of(&s, "instrument/104.tasks")->why,
			    "offset 0: not a uprof tasks file (no UPTASKS1 header); its tasks "
			    "are not reported");
	assert_int_equal(s.samples, 8); /* the rest of the session is reported */
	rpt_free(r);
	rm_session(dir);
}

/* Names are resolved once per id, yet counted per record: a name with a comma used by
 * three records is three records skipped; an id far above the target's numbering (a
 * forged file) resolves as well as a small one. */
static void test_task_names_per_record(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	const uint32_t big = 0x90000000u;
	struct ses_tasks_writer *w;
	struct rpt_summary s;
	struct rpt_row rows[8];
	struct rpt *r;
	int n, found = 0;

	(void)state;
	make_session(dir);
	w = ses_tasks_writer_open(dir, 100);
	assert_non_null(w);
	assert_int_equal(ses_tasks_write_string(w, 1, "Dom", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, 2, "Task", 4), 0);
	assert_int_equal(ses_tasks_write_string(w, 3, "a,b", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, big, "Big", 3), 0);
	for (uint64_t i = 0; i < 3; i++) {
		const struct ses_task_record rec[] = {
			{ 13 + i, 100, SES_TASK_BEGIN, 0, 1, 3 }, /* a comma: skipped */
			{ 13 + i, 100, SES_TASK_END, 0, 1, 0 },
			{ 14 + i, 100, SES_TASK_BEGIN, 0, 1, 2 },
			{ 15 + i, 100, SES_TASK_END, 0, 1, 0 },
			{ 15 + i, 100, SES_TASK_BEGIN, 0, 1, big },
			{ 16 + i, 100, SES_TASK_END, 0, 1, 0 },
		};

		for (size_t k = 0; k < sizeof(rec) / sizeof(rec[0]); k++)
			assert_int_equal(ses_tasks_write_record(w, &rec[k]), 0);
	}
	/* one Dom/Task on each of 6 more threads: past the few a file's tallies keep dense */
	for (uint32_t tid = 200; tid < 206; tid++) {
		const struct ses_task_record b = { 20, tid, SES_TASK_BEGIN, 0, 1, 2 };
		const struct ses_task_record e = { 21 + tid, tid, SES_TASK_END, 0, 1, 0 };

		assert_int_equal(ses_tasks_write_record(w, &b), 0);
		assert_int_equal(ses_tasks_write_record(w, &e), 0);
	}
	assert_int_equal(ses_tasks_writer_close(w), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.task_comma, 3);
	assert_string_equal(s.task_comma_name, "a,b");
	assert_int_equal(s.task_records, 18 + 12);
	assert_int_equal(s.task_instances, 6 + 6);
	n = rpt_rows(r, RPT_TASKS, rows, 8);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		assert_string_equal(rows[i].module, "Dom");
		assert_int_equal(rows[i].count, !strcmp(rows[i].name, "Task") ? 9 : 3);
		found += !strcmp(rows[i].name, "Task") + 2 * !strcmp(rows[i].name, "Big");
	}
	assert_int_equal(found, 3);
	/* per thread: 3 and 3 on thread 100, one on each of the others, with its elapsed */
	for (int item = 0; item < r->nitems; item++) {
		bool task = !strcmp(r->items[item].name, "Task");
		uint64_t *slot = rpt_hash_find(&r->thread_task, 100, (uint64_t)item, 0);

		assert_non_null(slot);
		assert_int_equal(r->tstats[*slot - 1].count, 3);
		for (uint32_t tid = 200; tid < 206; tid++) {
			slot = rpt_hash_find(&r->thread_task, tid, (uint64_t)item, 0);
			if (!task) {
				assert_null(slot);
				continue;
			}
			assert_non_null(slot);
			assert_int_equal(r->tstats[*slot - 1].count, 1);
			assert_int_equal(r->tstats[*slot - 1].elapsed_ns, tid + 1);
		}
		slot = rpt_hash_find(&r->proc_task, 100, (uint64_t)item, 0);
		assert_non_null(slot);
		assert_int_equal(r->tstats[*slot - 1].count, task ? 9 : 3);
	}
	rpt_free(r);
	rm_session(dir);
}

/* A collect killed before session.ini leaves its directory, empty: said as such. */
static void test_interrupted_before_session_ini(void **state)
{
	char dir[] = "/tmp/uprof-demo-TBP_XXXXXX", path[PATH_MAX + 32], err[512];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "holds no profile: collect was interrupted before it "
				    "wrote session.ini"));
	/* a directory with files collect never writes is just not a session */
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "is not a uprof session (no session.ini)"));
	rm_session(dir);
}

static void test_hash_grows_and_finds(void **state)
{
	struct rpt_hash h = { 0 };

	(void)state;
	for (uint64_t i = 0; i < 10000; i++)
		*rpt_hash_slot(&h, i, i * 7, i ^ 3) += i + 1;
	assert_int_equal(h.n, 10000);
	for (uint64_t i = 0; i < 10000; i++)
		assert_int_equal(*rpt_hash_find(&h, i, i * 7, i ^ 3), i + 1);
	assert_null(rpt_hash_find(&h, 1, 2, 3));
	rpt_hash_release(&h);
	rpt_hash_release(&h);
	assert_null(rpt_hash_find(&h, 0, 0, 3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_functions_processes_threads),
		cmocka_unit_test(test_filters),
		cmocka_unit_test(test_csv_layout),
		cmocka_unit_test(test_cut_file_reports_damage),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_programs_left_out),
		cmocka_unit_test(test_not_a_session),
		cmocka_unit_test(test_boundary_cut_counts_damage),
		cmocka_unit_test(test_header_only_file),
		cmocka_unit_test(test_fifo_session_files_refused),
		cmocka_unit_test(test_bad_tasks_files_noted),
		cmocka_unit_test(test_interrupted_before_session_ini),
		cmocka_unit_test(test_task_names_per_record),
		cmocka_unit_test(test_hash_grows_and_finds),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
