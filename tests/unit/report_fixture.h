// SPDX-License-Identifier: MIT
/*
 * The hand-built session that test_report.c and test_report_damage.c both read: records
 * written out of time order (as two CPU rings interleave them), threads and a renamed
 * thread, fork copying mappings, exec dropping them, kernel samples against a fake
 * kallsyms, lost records. Symbols come from a real binary (build/targets/demo) through
 * libdw. Included once per test file (static helpers: not every file uses each one).
 */
#ifndef UPROF_TESTS_REPORT_FIXTURE_H
#define UPROF_TESTS_REPORT_FIXTURE_H


#define BASE 0x555500000000ULL
#define KADDR 0xffffffff81000100ULL

static char demo[PATH_MAX];
static uint64_t light_vaddr, heavy_vaddr;

#include "target_bins.h"

static inline int setup(void **state)
{
	(void)state;
	target_path(demo, sizeof(demo), "demo");
	light_vaddr = nm_addr(demo, "light_work");
	heavy_vaddr = nm_addr(demo, "heavy_work");
	return light_vaddr && heavy_vaddr ? 0 : -1;
}

/* ---- record builders (sample_id trailer: TID, TIME, CPU, IDENTIFIER) ---- */

#include "record_builder.h"
#include "session_at.h"

static inline void trailer(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time)
{
	put32x2(b, pid, tid);
	put64(b, time);
	put32x2(b, 0, 0);
	put64(b, 1); /* id */
}

static inline void rec_comm(struct ses_writer *w, uint32_t pid, uint32_t tid, const char *comm,
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

static inline void rec_fork(struct ses_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			    uint32_t ptid, uint64_t t)
{
	struct buf b = { .n = 8 };

	put32x2(&b, pid, ppid);
	put32x2(&b, tid, ptid);
	put64(&b, t);
	trailer(&b, pid, tid, t);
	finish(w, &b, PERF_RECORD_FORK, 0);
}

static inline void rec_mmap2(struct ses_writer *w, uint32_t pid, uint64_t start, uint64_t len,
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

static inline void rec_sample(struct ses_writer *w, uint32_t pid, uint32_t tid, uint64_t ip,
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

static inline void rec_lost(struct ses_writer *w, uint64_t n, uint64_t t)
{
	struct buf b = { .n = 8 };

	put64(&b, 1);
	put64(&b, n);
	trailer(&b, 1, 1, t);
	finish(w, &b, PERF_RECORD_LOST, 0);
}

static inline void make_session(char *dir)
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
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
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

static inline void rm_session(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static inline struct rpt *open_report(const char *dir, bool detail)
{
	char ks[PATH_MAX + 16], err[256];
	struct rpt_options o = { .cutoff = 10, .detail = detail, .kallsyms = ks };
	struct rpt *r = NULL;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), 0);
	return r;
}

static inline const struct rpt_row *row_named(const struct rpt_row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strncmp(rows[i].name, name, strlen(name)))
			return &rows[i];
	return NULL;
}

/* report.csv of @r as text (owned: free) */
static inline char *csv_text(const struct rpt *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	return text;
}

#endif
