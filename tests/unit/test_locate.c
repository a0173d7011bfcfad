// SPDX-License-Identifier: MIT
/*
 * lib/symbols/locate.c and buildid.c: a profiled binary that moved or was rebuilt is read
 * from the build-id cache collect filled (perf's layout, exact paths and modes) or from a
 * --bin-path directory, only when its build id is the recorded one; a stripped binary
 * gets its names from a debug file under --symbol-path. Real files: build/targets/demo
 * copied, stripped, objcopy'd; hand-built sessions through lib/session's writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "report/internal.h"
#include "symbols/symbols.h"
#include "report_fixture.h"

static char work[] = "/tmp/uprof-locate.XXXXXX";

static void sh(const char *fmt, const char *a, const char *b)
{
	char cmd[3 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	assert_int_equal(system(cmd), 0);
}

/* The build id of @path into @id (the test's binaries all have one). */
static void file_build_id(const char *path, struct rpt_file_id *id)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	const void *bits;
	ssize_t n;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	n = dwelf_elf_gnu_build_id(elf, &bits);
	assert_true(n > 0 && n <= 20);
	memset(id, 0, sizeof(*id));
	memcpy(id->build_id, bits, (size_t)n);
	id->build_id_len = (unsigned char)n;
	elf_end(elf);
	close(fd);
}

static void hex(const struct rpt_file_id *id, char *out)
{
	for (int i = 0; i < id->build_id_len; i++)
		sprintf(out + 2 * i, "%02x", id->build_id[i]);
}

static int setup_all(void **state)
{
	if (setup(state) || !mkdtemp(work))
		return -1;
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	sh("rm -rf '%s'%s", work, "");
	return 0;
}

/* A copy of demo at @out (a fresh directory @sub of the work directory). */
static void copy_demo(const char *sub, char *out, size_t len)
{
	char d[PATH_MAX];

	snprintf(d, sizeof(d), "%s/%s", work, sub);
	assert_int_equal(mkdir(d, 0755), 0);
	snprintf(out, len, "%s/app", d);
	sh("cp '%s' '%s'", demo, out);
}

static void test_path_kept_when_same_file(void **state)
{
	struct rpt_locator *l = rpt_locator_new(NULL);
	struct rpt_file_id id;
	struct rpt_located at;
	char app[PATH_MAX];

	(void)state;
	copy_demo("same", app, sizeof(app));
	file_build_id(app, &id);
	rpt_locate(l, app, &id, &at);
	assert_string_equal(at.file, app);
	assert_int_equal(at.how, RPT_FOUND_PATH);
	assert_int_equal(at.state, RPT_FILE_OK);
	rpt_locator_free(l);
}

static void test_bin_path_by_build_id(void **state)
{
	char app[PATH_MAX], bin[PATH_MAX], other[PATH_MAX], want[PATH_MAX + 8];
	const char *dirs[2];
	struct rpt_locate_opts o = { 0 };
	struct rpt_file_id id;
	struct rpt_located at;
	struct rpt_locator *l;

	(void)state;
	copy_demo("moved", app, sizeof(app));
	file_build_id(app, &id);
	snprintf(other, sizeof(other), "%s/wrong", work);
	snprintf(bin, sizeof(bin), "%s/bin", work);
	assert_int_equal(mkdir(other, 0755), 0);
	assert_int_equal(mkdir(bin, 0755), 0);
	/* a file of the name that is another program: refused by its build id */
	sh("cp /bin/true '%s/app'%s", other, "");
	sh("mv '%s' '%s/'", app, bin);
	dirs[0] = other;
	dirs[1] = bin;
	o.bin_paths = dirs;
	o.nbin_paths = 1;
	l = rpt_locator_new(&o);
	rpt_locate(l, app, &id, &at);
	assert_null(at.file);
	assert_int_equal(at.how, RPT_FOUND_NONE);
	assert_int_equal(at.state, RPT_FILE_MISSING);
	rpt_locator_free(l);

	o.nbin_paths = 2;
	l = rpt_locator_new(&o);
	rpt_locate(l, app, &id, &at);
	snprintf(want, sizeof(want), "%s/app", bin);
	assert_string_equal(at.file, want);
	assert_int_equal(at.how, RPT_FOUND_BIN_PATH);
	assert_int_equal(at.state, RPT_FILE_MISSING);
	rpt_locator_free(l);

	/* no build id recorded: nothing tells, the first ELF file of the name is taken */
	l = rpt_locator_new(&o);
	rpt_locate(l, app, NULL, &at);
	snprintf(want, sizeof(want), "%s/app", other);
	assert_string_equal(at.file, want);
	rpt_locator_free(l);
}

/* MMAP2 with the build id form (PERF_RECORD_MISC_MMAP_BUILD_ID), executable */
static void rec_mmap2_bid(struct ses_writer *w, uint32_t pid, uint64_t start, const char *path,
			  const struct rpt_file_id *id, uint32_t prot, uint64_t t)
{
	struct buf b = { .n = 8 };
	unsigned char bid[24] = { id->build_id_len };
	char name[256] = { 0 };
	size_t plen = (strlen(path) + 8) & ~7UL;

	memcpy(bid + 4, id->build_id, id->build_id_len);
	put32x2(&b, pid, pid);
	put64(&b, start);
	put64(&b, 0x100000);
	put64(&b, 0);
	put(&b, bid, sizeof(bid));
	put32x2(&b, prot, 2);
	strcpy(name, path);
	put(&b, name, plen);
	trailer(&b, pid, pid, t);
	finish(w, &b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
}

/* A session of one process running @app (build id @id): 3 samples in light_work. */
static void make_moved_session(char *dir, const char *app, const struct rpt_file_id *id)
{
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct ses_writer *w;
	uint64_t sid = 1;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.samples = 3;
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	assert_int_equal(ses_writer_add_attr(w, &attr, &sid, 1), 0);
	rec_comm(w, 100, 100, "app", true, 10);
	rec_mmap2_bid(w, 100, BASE, app, id, 5, 11);
	/* a data mapping of the same kind: not a binary, not cached */
	rec_mmap2_bid(w, 100, BASE + 0x200000, "/etc/hostname", id, 3, 12);
	for (int i = 0; i < 3; i++)
		rec_sample(w, 100, 100, BASE + light_vaddr + 4, 20 + i, false);
	assert_int_equal(ses_writer_close(w), 0);
}

static void test_cache_fill_layout_and_read_back(void **state)
{
	char app[PATH_MAX], dir[PATH_MAX], cache[PATH_MAX], h[41], p[3 * PATH_MAX], lnk[PATH_MAX];
	char sess[] = "/tmp/uprof-locate-s.XXXXXX";
	struct rpt_options o = { .cutoff = 10 };
	struct rpt_cache_stats cs;
	struct rpt_file_id id;
	struct rpt_summary s;
	struct rpt_row rows[4];
	struct stat sb;
	struct rpt *r = NULL;
	char err[256];
	ssize_t n;

	(void)state;
	copy_demo("cached", app, sizeof(app));
	file_build_id(app, &id);
	hex(&id, h);
	snprintf(cache, sizeof(cache), "%s/home/.debug", work);
	make_moved_session(sess, app, &id);
	assert_int_equal(rpt_buildid_cache_fill(sess, cache, &cs), 0);
	assert_int_equal(cs.added, 1);
	assert_int_equal(cs.present + cs.skipped + cs.failed, 0);
	/* <cache>/<path>/<build id>/elf, 0600, in 0700 directories */
	snprintf(dir, sizeof(dir), "%s%s/%s", cache, app, h);
	snprintf(p, sizeof(p), "%s/elf", dir);
	assert_int_equal(stat(p, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	assert_int_equal(stat(dir, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	assert_int_equal(stat(cache, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	/* .build-id/xx/rest -> ../../<path>/<build id>, relative as perf makes it */
	snprintf(p, sizeof(p), "%s/.build-id/%.2s/%s", cache, h, h + 2);
	n = readlink(p, lnk, sizeof(lnk) - 1);
	assert_true(n > 0);
	lnk[n] = 0;
	snprintf(dir, sizeof(dir), "../..%s/%s", app, h);
	assert_string_equal(lnk, dir);
	sh("cmp '%s' '%s/elf'", demo, p);
	/* a second run finds it there */
	assert_int_equal(rpt_buildid_cache_fill(sess, cache, &cs), 0);
	assert_int_equal(cs.added, 0);
	assert_int_equal(cs.present, 1);

	/* the binary goes: without the cache its samples are unnamed, with it named */
	assert_int_equal(unlink(app), 0);
	assert_int_equal(rpt_open(&r, sess, &o, err, sizeof(err)), 0);
	assert_int_equal(rpt_rows(r, RPT_FUNCTIONS, rows, 4), 1);
	assert_null(strstr(rows[0].name, "light_work"));
	rpt_summary(r, &s);
	assert_int_equal(s.missing_modules, 1);
	rpt_free(r);
	o.buildid_dir = cache;
	assert_int_equal(rpt_open(&r, sess, &o, err, sizeof(err)), 0);
	assert_int_equal(rpt_rows(r, RPT_FUNCTIONS, rows, 4), 1);
	assert_string_equal(rows[0].name, "light_work");
	assert_int_equal(rows[0].samples, 3);
	assert_string_equal(rows[0].module, app); /* named as profiled */
	rpt_summary(r, &s);
	assert_int_equal(s.missing_modules, 0);
	assert_int_equal(s.cache_modules, 1);
	assert_string_equal(s.cache_module, app);
	rpt_free(r);
	rm_session(sess);
}

static void test_cache_fill_skips_rebuilt_file(void **state)
{
	char app[PATH_MAX], cache[PATH_MAX], p[PATH_MAX + 16];
	char sess[] = "/tmp/uprof-locate-s.XXXXXX";
	struct rpt_cache_stats cs;
	struct rpt_file_id id;

	(void)state;
	copy_demo("rebuilt", app, sizeof(app));
	file_build_id(app, &id);
	make_moved_session(sess, app, &id);
	sh("cp /bin/true '%s'%s", app, ""); /* another file at the path now */
	snprintf(cache, sizeof(cache), "%s/home2/.debug", work);
	assert_int_equal(rpt_buildid_cache_fill(sess, cache, &cs), 0);
	assert_int_equal(cs.added, 0);
	assert_int_equal(cs.skipped, 1);
	snprintf(p, sizeof(p), "%s/.build-id", cache);
	assert_int_equal(access(p, F_OK), -1);
	rm_session(sess);
}

static void test_symbol_path_names_stripped_binary(void **state)
{
	char app[PATH_MAX], dbg[PATH_MAX];
	const char *dirs[1] = { dbg };
	struct rpt_locate_opts o = { .symbol_paths = dirs, .nsymbol_paths = 1 };
	struct rpt_symtab *st;
	struct rpt_locator *l;
	struct rpt_sym sym;

	(void)state;
	copy_demo("stripped", app, sizeof(app));
	snprintf(dbg, sizeof(dbg), "%s/debug", work);
	assert_int_equal(mkdir(dbg, 0755), 0);
	sh("objcopy --only-keep-debug '%s' '%s/app.debug'", app, dbg);
	sh("strip -s '%s'%s", app, "");
	/* demo's light_work is at the same address in the stripped copy: no symbol there */
	st = rpt_symtab_new(NULL, NULL);
	rpt_symtab_lookup(st, app, NULL, light_vaddr + 4, &sym);
	assert_false(sym.resolved);
	rpt_symtab_free(st);

	l = rpt_locator_new(&o);
	st = rpt_symtab_new(NULL, NULL);
	rpt_symtab_set_locator(st, l);
	rpt_symtab_lookup(st, app, NULL, light_vaddr + 4, &sym);
	assert_true(sym.resolved);
	assert_string_equal(sym.name, "light_work");
	rpt_symtab_free(st);
	rpt_locator_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_kept_when_same_file),
		cmocka_unit_test(test_bin_path_by_build_id),
		cmocka_unit_test(test_cache_fill_layout_and_read_back),
		cmocka_unit_test(test_cache_fill_skips_rebuilt_file),
		cmocka_unit_test(test_symbol_path_names_stripped_binary),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
