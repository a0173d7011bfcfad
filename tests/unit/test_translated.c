// SPDX-License-Identifier: MIT
/*
 * translated.bin as reports use it (lib/report/translated_cache.c; its format's own tests
 * are test_translated_format.c): on a dwarf session made by hand over
 * build/targets/unwind_frames (its CFI known to the byte): report.csv the
 * same with and without the file, the file really used (a doctored one changes the
 * stacks), and every stale key, damaged, foreign, linked, FIFO or open-to-others file
 * said in one note and not used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "export/export.h"
#include "report/stacks.h" /* white box: the call graph and stacks themselves */
#include "unwind/unwind.h"
#include "target_bins.h"
#include "record_builder.h"
#include "session_at.h"

#define BASE 0x555500000000ULL
#define STACK 0x7ffd00001000ULL
enum { R_BP = 6, R_SP = 7, R_IP = 8 };

/* ---- on a session ---- */

static char frames_bin[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	target_path(frames_bin, sizeof(frames_bin), "unwind_frames");
	return access(frames_bin, R_OK) ? -1 : 0;
}

static void rec_comm(struct ses_writer *w, uint32_t pid)
{
	struct buf b = { .n = 8 };
	char name[16] = "app";

	put32x2(&b, pid, pid);
	put(&b, name, 16);
	put32x2(&b, pid, pid), put64(&b, 1), put32x2(&b, 0, 0), put64(&b, 1);
	finish(w, &b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
}

static void rec_mmap2(struct ses_writer *w, uint32_t pid, const char *bin)
{
	struct buf b = { .n = 8 };
	char name[PATH_MAX] = { 0 };
	size_t plen = (strlen(bin) + 8) & ~7UL;

	put32x2(&b, pid, pid);
	put64(&b, BASE), put64(&b, 0x100000), put64(&b, 0);
	put64(&b, 0), put64(&b, 0), put64(&b, 0);
	put32x2(&b, 5, 2);
	strcpy(name, bin);
	put(&b, name, plen);
	put32x2(&b, pid, pid), put64(&b, 2), put32x2(&b, 0, 0), put64(&b, 1);
	finish(w, &b, PERF_RECORD_MMAP2, 0);
}

static void rec_dwarf_sample(struct ses_writer *w, const struct perf_event_attr *attr,
			     uint64_t t, uint64_t ip, uint64_t bp, const uint64_t *stack, int n)
{
	struct buf b = { .n = 8 };
	uint64_t st = attr->sample_type, mask = attr->sample_regs_user;

	put64(&b, 1);
	put64(&b, ip);
	put32x2(&b, 100, 100);
	put64(&b, t);
	put32x2(&b, 0, 0);
	put64(&b, 1000000);
	if (st & PERF_SAMPLE_CALLCHAIN)
		put64(&b, 0);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (int r = 0; r < 64; r++)
		if (mask & (1ULL << r))
			put64(&b, r == R_IP ? ip : r == R_SP ? STACK : r == R_BP ? bp : 0);
	put64(&b, (uint64_t)n * 8);
	put(&b, stack, (size_t)n * 8);
	put64(&b, (uint64_t)n * 8);
	finish(w, &b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

static void write_info(const char *dir, const char *bin, int depth)
{
	struct ses_info in = { 0 };

	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", bin);
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.start_mono_ns = 1;
	in.end_mono_ns = 100;
	snprintf(in.callgraph_mode, sizeof(in.callgraph_mode), "dwarf");
	in.callgraph_depth = depth;
	in.callgraph_stack_bytes = 64;
	assert_int_equal(test_info_write(dir, &in), 0);
}

static uint64_t at(const char *sym)
{
	uint64_t a = nm_addr(frames_bin, sym);

	if (!a)
		fail_msg("no %s in %s", sym, frames_bin);
	return a;
}

struct sess {
	char dir[64];
	char bin[PATH_MAX + 16]; /* the session's own copy of unwind_frames: touched freely */
};

/* The samples of test_unwind's dwarf_frames, a few times over, on a copy of the binary. */
static void make_session(struct sess *s)
{
	uint64_t fp_ret = BASE + at("uw_fp_ret"), rsp_ret = BASE + at("uw_rsp_ret"),
		 entry_ret = BASE + at("uw_entry_ret");
	const uint64_t epilogue[] = { fp_ret, 0, rsp_ret, 0, entry_ret, 0 };
	const uint64_t entry[] = { 0, entry_ret, 0, 0 };
	const uint64_t nocfi[] = { 0, 0, 0, 0 };
	struct perf_event_attr attr;
	struct pmc_callgraph cg;
	struct ses_writer *w;
	char cmd[2 * PATH_MAX + 32], ks[PATH_MAX];
	uint64_t id = 1;
	FILE *f;

	test_tmp_path(s->dir, sizeof(s->dir), "uprof-tr.XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(s->bin, sizeof(s->bin), "%s/bin/unwind_frames", s->dir);
	snprintf(cmd, sizeof(cmd), "mkdir %s/bin && cp %s %s", s->dir, frames_bin, s->bin);
	assert_int_equal(system(cmd), 0);
	write_info(s->dir, s->bin, 16);
	w = test_writer_open(s->dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	pmc_callgraph_init(&cg);
	cg.mode = PMC_CG_DWARF;
	cg.stack_bytes = 64;
	cg.depth = 16;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &attr), 0);
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100);
	rec_mmap2(w, 100, s->bin);
	for (int k = 0; k < 4; k++) {
		rec_dwarf_sample(w, &attr, 10 + 3 * k, BASE + at("uw_leaf_after_pop"), STACK + 8,
				 epilogue, 6);
		rec_dwarf_sample(w, &attr, 11 + 3 * k, rsp_ret, 0, entry, 4);
		rec_dwarf_sample(w, &attr, 12 + 3 * k, BASE + at("uw_nocfi") + 1, 0, nocfi, 4);
	}
	assert_int_equal(ses_writer_close(w), 0);
	snprintf(ks, sizeof(ks), "%s/kallsyms", s->dir);
	f = fopen(ks, "w");
	assert_non_null(f);
	fclose(f);
}

static void rm_session(const struct sess *s)
{
	char cmd[PATH_MAX];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", s->dir);
	assert_int_equal(system(cmd), 0);
}

struct run {
	char *csv, *folded;
	char note[700];
	struct rpt_translated_stats stats;
};

static void run_free(struct run *r)
{
	free(r->csv);
	free(r->folded);
}

static char *capture(struct rpt *r, bool csv)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	assert_non_null(f);
	assert_int_equal(csv ? rpt_write_csv(r, f) : rpt_export(r, RPT_EXPORT_FOLDED, f), 0);
	fclose(f);
	return s;
}

/* A report of @s (@retranslate: also writing translated.bin), with --bin-path @bin_path
 * when not NULL. */
static void report(const struct sess *s, bool retranslate, const char *bin_path,
		   struct run *out)
{
	char ks[PATH_MAX], err[256];
	const char *bp[1] = { bin_path };
	struct rpt_options o = { .cutoff = 0, .detail = true, .kallsyms = ks, .exports = true,
				 .retranslate = retranslate, .bin_paths = bp,
				 .nbin_paths = bin_path ? 1 : 0 };
	struct rpt *r = NULL;
	const char *note;

	snprintf(ks, sizeof(ks), "%s/kallsyms", s->dir);
	if (rpt_open(&r, s->dir, &o, err, sizeof(err)))
		fail_msg("rpt_open: %s", err);
	out->csv = capture(r, true);
	out->folded = capture(r, false);
	note = rpt_translated_note(r);
	snprintf(out->note, sizeof(out->note), "%s", note ? note : "");
	rpt_translated_stats(r, &out->stats);
	if (retranslate)
		assert_int_equal(rpt_translated_write(r, err, sizeof(err)), 0);
	rpt_free(r);
}

/* translate: samples only, then the file. */
static void translate(const struct sess *s)
{
	char ks[PATH_MAX], err[256];
	struct rpt_options o = { .kallsyms = ks, .retranslate = true, .translate_only = true };
	struct rpt *r = NULL;
	struct rpt_translated_stats st;

	snprintf(ks, sizeof(ks), "%s/kallsyms", s->dir);
	if (rpt_open(&r, s->dir, &o, err, sizeof(err)))
		fail_msg("rpt_open: %s", err);
	assert_int_equal(rpt_translated_write(r, err, sizeof(err)), 0);
	rpt_translated_stats(r, &st);
	assert_int_equal(st.stacks, 12); /* every sample was unwound */
	rpt_free(r);
}

static void tr_path(const struct sess *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" RPT_TR_FILE, s->dir);
}

/* A report that must not use translated.bin, saying @why, and equal @base. */
static void expect_unused(const struct sess *s, const struct run *base, const char *why)
{
	struct run r = { 0 };

	report(s, false, NULL, &r);
	print_message("note: %s\n", r.note);
	assert_false(r.stats.used);
	assert_non_null(strstr(r.note, why));
	assert_non_null(strstr(r.note, "unwinding again"));
	assert_string_equal(r.csv, base->csv);
	assert_string_equal(r.folded, base->folded);
	run_free(&r);
}

static void same_report_with_cache(void **state)
{
	struct sess s;
	struct run base = { 0 }, with = { 0 };
	char p[PATH_MAX];
	struct stat sb;

	(void)state;
	make_session(&s);
	report(&s, false, NULL, &base);
	assert_false(base.stats.used);
	assert_string_equal(base.note, ""); /* none there: nothing to say */
	assert_non_null(strstr(base.folded, "app;uw_entry;uw_rsp_func;uw_fp_func;uw_leaf 4\n"));
	translate(&s);
	tr_path(&s, p, sizeof(p));
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	report(&s, false, NULL, &with);
	assert_true(with.stats.used);
	assert_int_equal(with.stats.hits, 12);
	assert_int_equal(with.stats.misses, 0);
	assert_string_equal(with.note, "");
	assert_string_equal(with.csv, base.csv);
	assert_string_equal(with.folded, base.folded);
	run_free(&with);
	run_free(&base);
	rm_session(&s);
}

/* The stacks do come from the file: one whose frames were doctored (checksum made good)
 * changes the report's stacks. */
static void cache_is_used(void **state)
{
	struct sess s;
	struct run doctored = { 0 };
	struct rpt_tr_writer w = { 0 };
	struct rpt_tr *t;
	char p[PATH_MAX], *buf;
	unsigned char *out;
	size_t len, olen;
	uint64_t pcs[64];
	bool act[64];
	int end;

	(void)state;
	make_session(&s);
	translate(&s);
	tr_path(&s, p, sizeof(p));
	assert_int_equal(ses_file_read_all(p, 1 << 20, &buf, &len, NULL, 0), 0);
	assert_int_equal(rpt_tr_parse((unsigned char *)buf, len, &t, NULL, 0), 0);
	/* every stack cut to its leaf, ended cleanly */
	for (uint32_t i = 0; i < t->nentries; i++) {
		int n = rpt_tr_lookup(t, t->seqs[i], 16, pcs, act, &end);

		assert_true(n >= 0);
		assert_int_equal(rpt_tr_writer_note(&w, t->seqs[i], 16, n ? 1 : 0, pcs, act,
						    n ? 0 : 2), 0);
	}
	assert_int_equal(rpt_tr_serialize(&w, &t->key, t->files, t->nfiles, &out, &olen), 0);
	unlink(p);
	{
		int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, out, olen), (ssize_t)olen);
		close(fd);
	}
	report(&s, false, NULL, &doctored);
	assert_true(doctored.stats.used);
	print_message("%s", doctored.folded);
	assert_null(strstr(doctored.folded, "uw_entry;uw_rsp_func;uw_fp_func;uw_leaf"));
	assert_non_null(strstr(doctored.folded, "app;uw_leaf 4\n"));
	free(out);
	rpt_tr_writer_release(&w);
	rpt_tr_free(t);
	run_free(&doctored);
	rm_session(&s);
}

static void touch(const char *path, long sec)
{
	struct timeval tv[2] = { { sec, 0 }, { sec, 0 } };

	assert_int_equal(utimes(path, tv), 0);
}

static void stale_keys(void **state)
{
	struct sess s;
	struct run base = { 0 }, rt = { 0 };
	char p[PATH_MAX + 32], cmd[PATH_MAX * 2];
	int fd;

	(void)state;
	make_session(&s);
	report(&s, false, NULL, &base);

	/* samples.data touched (mtime), then rewritten to other bytes of the same size */
	translate(&s);
	snprintf(p, sizeof(p), "%s/" SES_DATA_FILE, s.dir);
	touch(p, 1000000000);
	expect_unused(&s, &base, "samples.data changed");
	translate(&s);
	{
		/* a byte of the first 64 KiB that changes nothing reported (past the NUL of the
		 * COMM record's name), with size and mtime put back: only the head hash differs */
		struct stat sb;
		char *data;
		size_t n;
		const char *name;
		off_t off;
		char c;

		assert_int_equal(stat(p, &sb), 0);
		assert_int_equal(ses_file_read_all(p, 1 << 20, &data, &n, NULL, 0), 0);
		name = memmem(data, n, "app\0", 4);
		assert_non_null(name);
		off = (off_t)(name - data) + 6;
		c = data[off] ^ 0x40;
		free(data);
		fd = open(p, O_RDWR);
		assert_true(fd >= 0);
		assert_int_equal(pwrite(fd, &c, 1, off), 1);
		close(fd);
		struct timespec ts[2] = { sb.st_mtim, sb.st_mtim };
		assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
		expect_unused(&s, &base, "samples.data changed");
	}

	/* the module file touched */
	translate(&s);
	touch(s.bin, 1100000000);
	expect_unused(&s, &base, "unwind_frames changed");

	/* the module file replaced by a copy (another inode) */
	translate(&s);
	snprintf(cmd, sizeof(cmd), "cp -p %s %s.new && mv %s.new %s", s.bin, s.bin, s.bin, s.bin);
	assert_int_equal(system(cmd), 0);
	expect_unused(&s, &base, "unwind_frames changed");

	/* a vDSO copy appeared where there was none */
	translate(&s);
	snprintf(p, sizeof(p), "%s/vdso.so", s.dir);
	fd = open(p, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	expect_unused(&s, &base, "vdso.so appeared");
	unlink(p);

	/* another --bin-path than translate's */
	translate(&s);
	{
		struct run r = { 0 };

		report(&s, false, "/tmp", &r);
		assert_false(r.stats.used);
		assert_non_null(strstr(r.note, "--bin-path"));
		run_free(&r);
	}

	/* another frame limit (session.ini's depth): no entry of that limit, unwound here */
	translate(&s);
	write_info(s.dir, s.bin, 12);
	{
		struct run r = { 0 };

		report(&s, false, NULL, &r);
		assert_true(r.stats.used);
		assert_int_equal(r.stats.hits, 0);
		assert_int_equal(r.stats.misses, 12);
		run_free(&r);
	}
	write_info(s.dir, s.bin, 16);

	/* report --retranslate: not read, and written anew */
	report(&s, true, NULL, &rt);
	assert_false(rt.stats.used);
	assert_string_equal(rt.csv, base.csv);
	run_free(&rt);
	report(&s, false, NULL, &rt);
	assert_true(rt.stats.used);
	assert_int_equal(rt.stats.hits, 12);
	run_free(&rt);
	run_free(&base);
	rm_session(&s);
}

static void damaged_files(void **state)
{
	struct sess s;
	struct run base = { 0 };
	char p[PATH_MAX], other[PATH_MAX + 8], cmd[PATH_MAX * 2];
	struct stat sb;
	uint32_t v = 99;
	int fd;

	(void)state;
	make_session(&s);
	report(&s, false, NULL, &base);
	tr_path(&s, p, sizeof(p));

	translate(&s);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(truncate(p, sb.st_size / 2), 0);
	expect_unused(&s, &base, "cut short");

	translate(&s);
	{
		char c;

		fd = open(p, O_RDWR);
		assert_int_equal(pread(fd, &c, 1, sb.st_size - 3), 1);
		c ^= 1;
		assert_int_equal(pwrite(fd, &c, 1, sb.st_size - 3), 1);
		close(fd);
	}
	expect_unused(&s, &base, "checksum");

	translate(&s);
	fd = open(p, O_WRONLY);
	assert_int_equal(pwrite(fd, &v, 4, 8), 4);
	close(fd);
	expect_unused(&s, &base, "version 99");

	translate(&s);
	fd = open(p, O_WRONLY);
	assert_int_equal(pwrite(fd, "NOTOURS!", 8, 0), 8);
	close(fd);
	expect_unused(&s, &base, "not a uprof translation");

	/* a good file, but through a link */
	translate(&s);
	snprintf(other, sizeof(other), "%s.real", p);
	assert_int_equal(rename(p, other), 0);
	assert_int_equal(symlink(other, p), 0);
	expect_unused(&s, &base, "symbolic link");
	unlink(p);
	unlink(other);

	assert_int_equal(mkfifo(p, 0600), 0);
	expect_unused(&s, &base, "FIFO");
	/* translate replaces the FIFO with a file, never writes into it */
	translate(&s);
	assert_int_equal(lstat(p, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
	assert_int_equal(sb.st_mode & 0777, 0600);

	assert_int_equal(chmod(p, 0666), 0);
	expect_unused(&s, &base, "writable by others");

	unlink(p);
	assert_int_equal(mkdir(p, 0700), 0);
	expect_unused(&s, &base, "directory");
	snprintf(cmd, sizeof(cmd), "rmdir %s", p);
	assert_int_equal(system(cmd), 0);
	run_free(&base);
	rm_session(&s);
}

static void check_says(void **state)
{
	struct sess s;
	struct rpt_options o = { 0 };
	char why[640];
	int dfd;

	(void)state;
	make_session(&s);
	dfd = open(s.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(dfd >= 0);
	assert_int_equal(rpt_translated_check(dfd, &o, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "no " RPT_TR_FILE));
	translate(&s);
	assert_int_equal(rpt_translated_check(dfd, &o, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "up to date (12 stacks)"));
	touch(s.bin, 1200000000);
	assert_int_equal(rpt_translated_check(dfd, &o, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "stale"));
	close(dfd);
	rm_session(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_report_with_cache),
		cmocka_unit_test(cache_is_used),
		cmocka_unit_test(stale_keys),
		cmocka_unit_test(damaged_files),
		cmocka_unit_test(check_says),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
