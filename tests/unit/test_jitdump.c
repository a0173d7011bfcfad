// SPDX-License-Identifier: MIT
/*
 * lib/symbols/jitdump.c and its use by symtab.c: perf's jitdump files (jit-<pid>.dump),
 * binary a JIT wrote, to names of JIT code. Dumps are built here by hand, record by
 * record, in either byte order; cut, corrupted or planted ones must name nothing wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <byteswap.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/jitdump.h"
#include "symbols/symbols.h"

static char tmp[64];

/* A dump being built: bytes in native or swapped order. */
struct dump {
	unsigned char b[400000];
	size_t len;
	bool swap;
};

static void raw(struct dump *d, const void *p, size_t n)
{
	assert_true(d->len + n <= sizeof(d->b));
	memcpy(d->b + d->len, p, n);
	d->len += n;
}

static void u32(struct dump *d, uint32_t v)
{
	v = d->swap ? bswap_32(v) : v;
	raw(d, &v, 4);
}

static void u64(struct dump *d, uint64_t v)
{
	v = d->swap ? bswap_64(v) : v;
	raw(d, &v, 8);
}

static void header(struct dump *d, uint32_t magic, uint32_t version)
{
	u32(d, magic);
	u32(d, version);
	u32(d, 40); /* total_size */
	u32(d, 62); /* EM_X86_64 */
	u32(d, 0);
	u32(d, 4242); /* pid */
	u64(d, 1000); /* timestamp */
	u64(d, 0);    /* flags */
}

static void prefix(struct dump *d, uint32_t id, uint32_t size)
{
	u32(d, id);
	u32(d, size);
	u64(d, 2000);
}

/* A CODE_LOAD of @name (@name_len bytes given as is: a NUL is the caller's) and @code_size
 * code bytes (0xcc), then @pad bytes of padding, as JVM agents write. */
static void load_raw(struct dump *d, uint64_t addr, uint64_t code_size, uint64_t index,
		     const char *name, size_t name_len, size_t pad)
{
	prefix(d, RPT_JIT_CODE_LOAD, (uint32_t)(56 + name_len + code_size + pad));
	u32(d, 4242);
	u32(d, 4243);
	u64(d, addr); /* vma */
	u64(d, addr); /* code_addr */
	u64(d, code_size);
	u64(d, index);
	raw(d, name, name_len);
	for (size_t i = 0; i < code_size + pad; i++)
		raw(d, "\xcc", 1);
}

static void load(struct dump *d, uint64_t addr, uint64_t code_size, uint64_t index,
		 const char *name)
{
	load_raw(d, addr, code_size, index, name, strlen(name) + 1, 0);
}

static void move(struct dump *d, uint64_t from, uint64_t to, uint64_t size, uint64_t index)
{
	prefix(d, RPT_JIT_CODE_MOVE, 64);
	u32(d, 4242);
	u32(d, 4243);
	u64(d, to); /* vma */
	u64(d, from);
	u64(d, to);
	u64(d, size);
	u64(d, index);
}

/* A DEBUG_INFO record with one line entry: to be skipped by its size. */
static void debug_info(struct dump *d, uint64_t addr)
{
	prefix(d, RPT_JIT_CODE_DEBUG_INFO, 16 + 16 + 16 + 6);
	u64(d, addr);
	u64(d, 1); /* nr_entry */
	u64(d, addr); /* entry: addr, lineno, discrim, "a.js" */
	u32(d, 3);
	u32(d, 0);
	raw(d, "a.js\0\0", 6);
}

static const char *name_at(const struct rpt_perfmap *pm, uint64_t addr)
{
	const struct rpt_perfmap_sym *s = rpt_perfmap_find(pm, addr);

	return s ? s->name : NULL;
}

/* Two loads, a debug record, a move, a close: in either byte order, the same names. */
static void two_loads_and_a_move(bool swap)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;

	memset(&d, 0, sizeof(d));
	d.swap = swap;
	header(&d, RPT_JITDUMP_MAGIC, 1);
	debug_info(&d, 0x7f0000001000);
	load(&d, 0x7f0000001000, 0x40, 1, "LazyCompile:*hot app.js:3:1");
	load(&d, 0x7f0000002000, 0x10, 2, "Builtin:ArrayPush");
	move(&d, 0x7f0000001000, 0x7f0000008000, 0x40, 1);
	prefix(&d, RPT_JIT_CODE_CLOSE, 16);
	assert_int_equal(rpt_jitdump_parse(&pm, &st, d.b, d.len), 0);
	assert_int_equal(st.swapped, swap);
	assert_int_equal(st.pid, 4242);
	assert_int_equal(st.elf_mach, 62);
	assert_int_equal(st.loads, 2);
	assert_int_equal(st.moves, 1);
	assert_int_equal(st.skipped, 2); /* debug info, close */
	assert_int_equal(st.malformed + st.unmatched, 0);
	assert_false(st.truncated || st.damaged);
	assert_int_equal(pm.nsyms, 3);
	assert_string_equal(name_at(&pm, 0x7f0000001000), "LazyCompile:*hot app.js:3:1");
	assert_string_equal(name_at(&pm, 0x7f000000103f), "LazyCompile:*hot app.js:3:1");
	assert_null(name_at(&pm, 0x7f0000001040)); /* the end is exclusive */
	assert_null(name_at(&pm, 0x7f0000000fff));
	assert_string_equal(name_at(&pm, 0x7f0000002008), "Builtin:ArrayPush");
	assert_null(name_at(&pm, 0x7f0000002010));
	/* moved: named at its new place too */
	assert_string_equal(name_at(&pm, 0x7f0000008000), "LazyCompile:*hot app.js:3:1");
	assert_string_equal(name_at(&pm, 0x7f000000803f), "LazyCompile:*hot app.js:3:1");
	assert_null(name_at(&pm, 0x7f0000008040));
	rpt_perfmap_release(&pm);
}

static void test_parse(void **state)
{
	(void)state;
	two_loads_and_a_move(false);
}

static void test_swapped(void **state)
{
	(void)state;
	two_loads_and_a_move(true);
}

/* Code loaded again where a move left (or where older code was): the latest load wins;
 * a move of a code_index never loaded names nothing; padding after the code is fine. */
static void test_reload_and_unmatched(void **state)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	load_raw(&d, 0x5000, 0x20, 1, "old\0", 4, 4);
	move(&d, 0x5000, 0x9000, 0x20, 1);
	load(&d, 0x5000, 0x10, 2, "new");
	move(&d, 0x6000, 0xa000, 0x20, 99);
	assert_int_equal(rpt_jitdump_parse(&pm, &st, d.b, d.len), 0);
	assert_int_equal(st.unmatched, 1);
	assert_int_equal(st.loads, 2);
	assert_int_equal(st.moves, 1);
	assert_string_equal(name_at(&pm, 0x5000), "new");
	assert_string_equal(name_at(&pm, 0x900f), "old");
	assert_null(name_at(&pm, 0xa000));
	rpt_perfmap_release(&pm);
}

/* Cut at every byte: never a failure past the header, never a name from a cut record. */
static void test_truncated(void **state)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;
	size_t first_end, second_end;

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	load(&d, 0x1000, 0x10, 1, "first");
	first_end = d.len;
	load(&d, 0x2000, 0x10, 2, "second");
	second_end = d.len;
	for (size_t cut = 0; cut <= d.len; cut++) {
		int ret = rpt_jitdump_parse(&pm, &st, d.b, cut);

		if (cut < 40) {
			assert_int_equal(ret, -EINVAL);
			assert_int_equal(pm.nsyms, 0);
			continue;
		}
		assert_int_equal(ret, 0);
		assert_int_equal(pm.nsyms, (cut >= first_end) + (cut >= second_end));
		assert_int_equal(st.truncated, cut != 40 && cut != first_end && cut != second_end);
		if (cut >= first_end)
			assert_string_equal(name_at(&pm, 0x1000), "first");
		if (cut < second_end)
			assert_null(name_at(&pm, 0x2000));
	}
	rpt_perfmap_release(&pm);
}

static void test_bad_header(void **state)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, 0x4A695445, 1); /* wrong magic */
	load(&d, 0x1000, 0x10, 1, "f");
	assert_int_equal(rpt_jitdump_parse(&pm, NULL, d.b, d.len), -EINVAL);
	assert_int_equal(pm.nsyms, 0);
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 2); /* a version we do not know */
	load(&d, 0x1000, 0x10, 1, "f");
	assert_int_equal(rpt_jitdump_parse(&pm, NULL, d.b, d.len), -EPROTO);
	/* a perf map is no dump */
	assert_int_equal(rpt_jitdump_parse(&pm, NULL, "1000 10 f\n", 10), -EINVAL);
	assert_int_equal(rpt_jitdump_parse(&pm, NULL, "", 0), -EINVAL);
	/* the header's own size under its fields */
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	memcpy(d.b + 8, "\x10\0\0\0", 4);
	assert_int_equal(rpt_jitdump_parse(&pm, NULL, d.b, d.len), -EINVAL);
	rpt_perfmap_release(&pm);
}

/* Records that lie: each is skipped and counted, the records after it still name code,
 * except after a size that cannot reach the next record (there the walk stops). */
static void test_corrupted_records(void **state)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	load_raw(&d, 0x1000, 0x10, 1, "no_nul", 6, 0);	      /* name without NUL */
	load_raw(&d, 0x2000, 0x10, 2, "\0", 1, 0);	      /* empty name */
	load(&d, 0x3000, 0, 3, "size_zero");		      /* no code */
	load(&d, UINT64_MAX - 4, 0x10, 4, "wraps");	      /* past the address space */
	prefix(&d, RPT_JIT_CODE_LOAD, 40);		      /* shorter than a load */
	raw(&d, "0123456789012345678901234", 24);
	prefix(&d, RPT_JIT_CODE_MOVE, 32);		      /* shorter than a move */
	raw(&d, "0123456789abcdef", 16);
	prefix(&d, 77, 24);				      /* unknown: skipped */
	u64(&d, 0);
	load(&d, 0x4000, 0x10, 5, "good");
	/* code_size larger than the record: read as a name region of -1 bytes */
	prefix(&d, RPT_JIT_CODE_LOAD, 60);
	u32(&d, 1), u32(&d, 1), u64(&d, 0x5000), u64(&d, 0x5000), u64(&d, 1000), u64(&d, 6);
	raw(&d, "abc", 4);
	prefix(&d, RPT_JIT_CODE_LOAD, 8);		      /* under its own prefix */
	load(&d, 0x6000, 0x10, 7, "after_damage");
	assert_int_equal(rpt_jitdump_parse(&pm, &st, d.b, d.len), 0);
	assert_int_equal(st.malformed, 7);
	assert_int_equal(st.skipped, 1);
	assert_int_equal(st.loads, 1);
	assert_true(st.damaged);
	assert_int_equal(pm.nsyms, 1);
	assert_string_equal(name_at(&pm, 0x4000), "good");
	assert_null(name_at(&pm, 0x1000));
	assert_null(name_at(&pm, 0x2000));
	assert_null(name_at(&pm, 0x6000));
	rpt_perfmap_release(&pm);
}

/* A name over RPT_PERFMAP_MAX_NAME is cut; one with no NUL in the scan bound is dropped. */
static void test_long_names(void **state)
{
	static struct dump d;
	static char name[RPT_JITDUMP_MAX_NAME_SCAN + 2];
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;

	(void)state;
	memset(&d, 0, sizeof(d));
	memset(name, 'x', sizeof(name));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	load_raw(&d, 0x1000, 0x10, 1, name, 2000, 0);
	d.b[d.len - 0x10 - 1] = 0;
	load_raw(&d, 0x2000, 0x10, 2, name, sizeof(name), 0); /* NUL past the bound */
	d.b[d.len - 0x10 - 1] = 0;
	assert_int_equal(rpt_jitdump_parse(&pm, &st, d.b, d.len), 0);
	assert_int_equal(st.malformed, 1);
	assert_int_equal(strlen(name_at(&pm, 0x1000)), RPT_PERFMAP_MAX_NAME);
	assert_null(name_at(&pm, 0x2000));
	rpt_perfmap_release(&pm);
}

static void write_file(const char *path, const void *p, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* From a file: records across the read window (code bytes far over it) and a cut tail
 * read as from memory; a symlink, a FIFO, another user's file refused unread. */
static void test_read(void **state)
{
	static struct dump d;
	struct rpt_perfmap pm = { 0 };
	struct rpt_jitdump_stats st;
	char path[128], link[128], fifo[128];

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	for (int i = 0; i < 300; i++) {
		char name[32];

		snprintf(name, sizeof(name), "fn%d", i);
		load(&d, 0x100000 + 0x1000 * (uint64_t)i, 0x100 + i, (uint64_t)i, name);
	}
	load(&d, 0x900000, 200000, 1000, "big"); /* code bytes over three windows */
	load(&d, 0xa00000, 0x10, 1001, "after_big");
	snprintf(path, sizeof(path), "%s/jit-4242.dump", tmp);
	snprintf(link, sizeof(link), "%s/jit-4243.dump", tmp);
	snprintf(fifo, sizeof(fifo), "%s/jit-4244.dump", tmp);
	write_file(path, d.b, d.len - 5);
	assert_int_equal(rpt_jitdump_read(&pm, &st, path, getuid()), 0);
	assert_int_equal(pm.nsyms, 301);
	assert_true(st.truncated);
	assert_string_equal(name_at(&pm, 0x100000), "fn0");
	assert_string_equal(name_at(&pm, 0x100000 + 0x1000 * 299 + 0x100 + 298), "fn299");
	assert_string_equal(name_at(&pm, 0x900000 + 199999), "big");
	write_file(path, d.b, d.len);
	assert_int_equal(rpt_jitdump_read(&pm, &st, path, getuid()), 0);
	assert_false(st.truncated);
	assert_string_equal(name_at(&pm, 0xa0000f), "after_big");
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(rpt_jitdump_read(&pm, NULL, link, getuid()), -ELOOP);
	assert_int_equal(pm.nsyms, 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(rpt_jitdump_read(&pm, NULL, fifo, getuid()), -EINVAL);
	assert_int_equal(rpt_jitdump_read(&pm, NULL, tmp, getuid()), -EINVAL);
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 12345, 12345), 0);
		assert_int_equal(rpt_jitdump_read(&pm, NULL, path, 54321), -EPERM);
		assert_int_equal(rpt_jitdump_read(&pm, NULL, path, 12345), 0);
		assert_int_equal(chown(path, 0, 0), 0);
	} else {
		assert_int_equal(rpt_jitdump_read(&pm, NULL, path, getuid() + 1), -EPERM);
	}
	rpt_perfmap_release(&pm);
	unlink(path);
	unlink(link);
	unlink(fifo);
}

static void test_paths(void **state)
{
	(void)state;
	assert_int_equal(rpt_jitdump_path_pid("/home/u/jit-4242.dump", 21), 4242);
	assert_int_equal(rpt_jitdump_path_pid("jit-7.dump", 10), 7);
	/* a length, not a NUL, ends the name */
	assert_int_equal(rpt_jitdump_path_pid("/x/jit-12.dumpXX", 14), 12);
	assert_true(rpt_jitdump_is_path("/root/.debug/jit/java-jit-20260101/jit-1.dump"));
	assert_false(rpt_jitdump_is_path("/tmp/jit-.dump"));
	assert_false(rpt_jitdump_is_path("/tmp/jit-12x.dump"));
	assert_false(rpt_jitdump_is_path("/tmp/jit-12.dump.old"));
	assert_false(rpt_jitdump_is_path("/tmp/jit-12345678901.dump"));
	assert_false(rpt_jitdump_is_path("/tmp/jit-12.dump/x"));
	assert_false(rpt_jitdump_is_path("/tmp/perf-12.map"));
	assert_false(rpt_jitdump_is_path("//anon"));
}

/* symtab: a module named like a jitdump is read as one, at absolute addresses; an
 * address it does not cover keeps the "jit-<pid>.dump!0x<addr>" name. */
static void test_symtab_lookup(void **state)
{
	static struct dump d;
	struct rpt_symtab *st;
	struct rpt_sym out;
	char path[128];

	(void)state;
	memset(&d, 0, sizeof(d));
	header(&d, RPT_JITDUMP_MAGIC, 1);
	load(&d, 0x7f0000001000, 0x40, 1, "jitdump_spin_loop");
	snprintf(path, sizeof(path), "%s/jit-99.dump", tmp);
	write_file(path, d.b, d.len);
	st = rpt_symtab_new(tmp, NULL);
	assert_non_null(st);
	rpt_symtab_lookup(st, path, NULL, 0x7f0000001010, &out);
	assert_string_equal(out.name, "jitdump_spin_loop");
	assert_string_equal(out.module, path);
	assert_true(out.resolved);
	assert_int_equal(out.sym_addr, 0x7f0000001000);
	rpt_symtab_lookup(st, path, NULL, 0x7f0000002000, &out);
	assert_string_equal(out.name, "jit-99.dump!0x7f0000002000");
	assert_false(out.resolved);
	rpt_symtab_free(st);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_swapped),
		cmocka_unit_test(test_reload_and_unmatched),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_corrupted_records),
		cmocka_unit_test(test_long_names),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_symtab_lookup),
	};
	int ret;

	snprintf(tmp, sizeof(tmp), "/tmp/uprof-jitdump.XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(tmp);
	return ret;
}
