// SPDX-License-Identifier: MIT
/*
 * lib/symbols/perfmap.c and its use by symtab.c: perf's JIT maps (/tmp/perf-<pid>.map),
 * text any user may have written, to names of JIT code: lines cut short or corrupted are
 * skipped and counted, a file that is not a regular one of ours is refused unread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/perfmap.h"
#include "symbols/symbols.h"

static char tmp[64];

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static const char *name_at(const struct rpt_perfmap *pm, uint64_t addr)
{
	const struct rpt_perfmap_sym *s = rpt_perfmap_find(pm, addr);

	return s ? s->name : NULL;
}

static void test_parse(void **state)
{
	static const char text[] = "7f0000001000 40 jitted_spin_loop\n"
				   "0x7f0000002000 0x10 LazyCompile:~foo app.js:1:1\r\n"
				   "7f0000003000\t8\t  py::main:/tmp/app.py   \n"
				   "7F0000004000 8 last_without_newline";
	struct rpt_perfmap pm = { 0 };

	(void)state;
	assert_int_equal(rpt_perfmap_parse(&pm, text, sizeof(text) - 1), 0);
	assert_int_equal(pm.nsyms, 4);
	assert_int_equal(pm.malformed, 0);
	assert_string_equal(name_at(&pm, 0x7f0000001000), "jitted_spin_loop");
	assert_string_equal(name_at(&pm, 0x7f000000103f), "jitted_spin_loop");
	assert_null(name_at(&pm, 0x7f0000001040)); /* the end is exclusive */
	assert_null(name_at(&pm, 0x7f0000000fff));
	/* a name keeps its spaces, loses the blanks (and the \r) at the end of its line */
	assert_string_equal(name_at(&pm, 0x7f0000002008), "LazyCompile:~foo app.js:1:1");
	assert_string_equal(name_at(&pm, 0x7f0000003000), "py::main:/tmp/app.py");
	assert_string_equal(name_at(&pm, 0x7f0000004007), "last_without_newline");
	assert_int_equal(pm.syms[0].start, 0x7f0000001000);
	assert_int_equal(pm.syms[0].end, 0x7f0000001040);
	rpt_perfmap_release(&pm);
	rpt_perfmap_release(&pm); /* twice is safe */
}

/* Every kind of broken line is skipped and counted; the good lines around them stay. */
static void test_corrupted_lines(void **state)
{
	static const char text[] = "1000 10 good_a\n"
				   "2000\n"		     /* no size */
				   "2000 10\n"		     /* no name */
				   "2000 10   \n"		     /* a blank name */
				   "zz00 10 bad_start\n"
				   "2000 1g bad_size\n"
				   "2000 0 zero_size\n"
				   "ffffffffffffff00 100 wraps\n"
				   "10000000000000000 10 seventeen_digits\n"
				   " 2000 10 leading_blank\n"
				   "2000-10 dash\n"
				   "\n"			     /* empty: not a line of the map */
				   "3000 10 good_b\n";
	struct rpt_perfmap pm = { 0 };

	(void)state;
	assert_int_equal(rpt_perfmap_parse(&pm, text, sizeof(text) - 1), 0);
	assert_int_equal(pm.nsyms, 2);
	assert_int_equal(pm.malformed, 10);
	assert_string_equal(name_at(&pm, 0x1000), "good_a");
	assert_string_equal(name_at(&pm, 0x3000), "good_b");
	assert_null(name_at(&pm, 0x2000));
	rpt_perfmap_release(&pm);
}

/* A NUL in a name ends it; a name with nothing before the NUL is no name. */
static void test_nul_bytes(void **state)
{
	static const char text[] = "1000 10 ab\0cd\n2000 10 \0hidden\n3000 10 ok";
	struct rpt_perfmap pm = { 0 };

	(void)state;
	assert_int_equal(rpt_perfmap_parse(&pm, text, sizeof(text) - 1), 0);
	assert_int_equal(pm.nsyms, 2);
	assert_int_equal(pm.malformed, 1);
	assert_string_equal(name_at(&pm, 0x1000), "ab");
	assert_string_equal(name_at(&pm, 0x3000), "ok");
	rpt_perfmap_release(&pm);
}

/* Cut after every byte, as a JIT killed mid-write leaves it: never more symbols than the
 * whole file, and a cut name is a prefix of the whole one. */
static void test_truncated(void **state)
{
	static const char text[] = "7f0000001000 40 first_function\n7f0000002000 40 second\n";
	struct rpt_perfmap pm = { 0 };

	(void)state;
	for (size_t len = 0; len <= sizeof(text) - 1; len++) {
		char *copy = malloc(len ? len : 1); /* exactly len bytes: ASan sees overreads */

		memcpy(copy, text, len);
		assert_int_equal(rpt_perfmap_parse(&pm, copy, len), 0);
		assert_true(pm.nsyms <= 2);
		assert_true(pm.nsyms + pm.malformed <= 2);
		for (size_t i = 0; i < pm.nsyms; i++)
			assert_true(!strncmp(pm.syms[i].name, "first_function", strlen(pm.syms[i].name)) ||
				    !strncmp(pm.syms[i].name, "second", strlen(pm.syms[i].name)));
		if (len >= 17) /* "7f0000001000 40 f": the first name's first byte is in */
			assert_non_null(name_at(&pm, 0x7f0000001000));
		else
			assert_int_equal(pm.nsyms, 0);
		free(copy);
	}
	rpt_perfmap_release(&pm);
}

/* Reused code memory: at one start the later line wins; a small piece inside a larger
 * one names its own addresses, the larger one the rest. */
static void test_overlaps(void **state)
{
	static const char text[] = "1000 100 old_code\n"
				   "1000 100 new_code\n"
				   "2000 1000 outer\n"
				   "2400 10 inner\n";
	struct rpt_perfmap pm = { 0 };

	(void)state;
	assert_int_equal(rpt_perfmap_parse(&pm, text, sizeof(text) - 1), 0);
	assert_int_equal(pm.nsyms, 3);
	assert_string_equal(name_at(&pm, 0x1000), "new_code");
	assert_string_equal(name_at(&pm, 0x2400), "inner");
	assert_string_equal(name_at(&pm, 0x2410), "outer");
	assert_string_equal(name_at(&pm, 0x2000), "outer");
	rpt_perfmap_release(&pm);
}

static void test_long_name(void **state)
{
	size_t n = RPT_PERFMAP_MAX_NAME + 500;
	char *text = malloc(n + 16);
	struct rpt_perfmap pm = { 0 };

	(void)state;
	memcpy(text, "1000 10 ", 8);
	memset(text + 8, 'x', n);
	assert_int_equal(rpt_perfmap_parse(&pm, text, 8 + n), 0);
	assert_int_equal(pm.nsyms, 1);
	assert_int_equal(strlen(pm.syms[0].name), RPT_PERFMAP_MAX_NAME);
	rpt_perfmap_release(&pm);
	free(text);
}

/* The file: regular, ours or root's; a symlink, a FIFO, a directory, another user's
 * file are refused without reading (and without waiting on the FIFO). */
static void test_read_checks(void **state)
{
	static const char text[] = "1000 10 named\n";
	struct rpt_perfmap pm = { 0 };
	char path[128], link[128], fifo[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/perf-1.map", tmp);
	snprintf(link, sizeof(link), "%s/perf-2.map", tmp);
	snprintf(fifo, sizeof(fifo), "%s/perf-3.map", tmp);
	write_file(path, text, sizeof(text) - 1);
	assert_int_equal(rpt_perfmap_read(&pm, path, getuid()), 0);
	assert_string_equal(name_at(&pm, 0x1000), "named");
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(rpt_perfmap_read(&pm, link, getuid()), -ELOOP);
	assert_int_equal(pm.nsyms, 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(rpt_perfmap_read(&pm, fifo, getuid()), -EINVAL);
	assert_int_equal(rpt_perfmap_read(&pm, tmp, getuid()), -EINVAL);
	assert_int_equal(rpt_perfmap_read(&pm, "/nonexistent/perf-1.map", getuid()), -ENOENT);
	if (geteuid() == 0) {
		/* root may make the file another user's: planted by uid 12345 */
		assert_int_equal(chown(path, 12345, 12345), 0);
		assert_int_equal(rpt_perfmap_read(&pm, path, 54321), -EPERM);
		assert_int_equal(rpt_perfmap_read(&pm, path, 12345), 0);
		assert_int_equal(chown(path, 0, 0), 0);
		/* root's own file is trusted whoever collected */
		assert_int_equal(rpt_perfmap_read(&pm, path, 54321), 0);
	} else {
		/* ours, but the session is another user's: not trusted */
		assert_int_equal(rpt_perfmap_read(&pm, path, getuid() + 1), -EPERM);
	}
	rpt_perfmap_release(&pm);
	unlink(path);
	unlink(link);
	unlink(fifo);
}

static void test_paths(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(rpt_perfmap_path(4242, buf, sizeof(buf)), "/tmp/perf-4242.map");
	assert_true(rpt_perfmap_is_path("/tmp/perf-4242.map"));
	assert_false(rpt_perfmap_is_path("/tmp/perf-.map"));
	assert_false(rpt_perfmap_is_path("/tmp/perf-12x.map"));
	assert_false(rpt_perfmap_is_path("/tmp/perf-12.map.old"));
	assert_false(rpt_perfmap_is_path("/tmp/perf-12345678901.map"));
	assert_false(rpt_perfmap_is_path("/usr/lib/perf-1.map"));
	assert_true(rpt_perfmap_anon("//anon"));
	assert_true(rpt_perfmap_anon("[anon:v8 code]"));
	assert_false(rpt_perfmap_anon("[heap]"));
	assert_false(rpt_perfmap_anon("/usr/bin/node"));
}

/* symtab: a module named like a perf map is read as one, at absolute addresses; an
 * address it does not cover keeps perf's "perf-<pid>.map!0x<addr>" name. */
static void test_symtab_lookup(void **state)
{
	static const char text[] = "7f0000001000 40 jitted_spin_loop\n";
	const char *path = "/tmp/perf-2147483646.map";
	struct rpt_symtab *st;
	struct rpt_sym out;

	(void)state;
	write_file(path, text, sizeof(text) - 1);
	st = rpt_symtab_new(tmp, NULL);
	assert_non_null(st);
	rpt_symtab_lookup(st, path, NULL, 0x7f0000001010, &out);
	assert_string_equal(out.name, "jitted_spin_loop");
	assert_string_equal(out.module, path);
	assert_true(out.resolved);
	assert_int_equal(out.sym_addr, 0x7f0000001000);
	rpt_symtab_lookup(st, path, NULL, 0x7f0000002000, &out);
	assert_string_equal(out.name, "perf-2147483646.map!0x7f0000002000");
	assert_false(out.resolved);
	assert_int_equal(rpt_symtab_file_state(st, path), RPT_FILE_OK);
	rpt_symtab_free(st);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_corrupted_lines),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_overlaps),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_read_checks),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_symtab_lookup),
	};
	int ret;

	snprintf(tmp, sizeof(tmp), "/tmp/uprof-perfmap.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(tmp);
	return ret;
}
