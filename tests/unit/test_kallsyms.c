// SPDX-License-Identifier: MIT
/*
 * lib/symbols/kallsyms.c and the kernel side of symtab.c: /proc/kallsyms text (or the file
 * report --kallsyms names) to kernel function names, whatever the file holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/kallsyms.h"
#include "symbols/symbols.h"

static char tmp[64];

static void write_file(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmp, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void expect_kernel(struct rpt_symtab *st, uint64_t addr, const char *want, bool ok)
{
	struct rpt_sym out;

	rpt_symtab_lookup_kernel(st, addr, &out);
	assert_string_equal(out.name, want);
	assert_string_equal(out.module, "[kernel.kallsyms]");
	assert_int_equal(out.resolved, ok);
}

static void test_kallsyms(void **state)
{
	static const char text[] = "ffffffff81000200 t helper\n"
				   "ffffffff81000000 T _stext\n"
				   "ffffffff81000000 t _stext_local_alias\n"
				   "ffffffff81000100 T do_thing\n"
				   "0000000000000000 A fixed_percpu_data\n"
				   "ffffffff81000180 U undefined_thing\n"
				   "garbage line\n"
				   "ffffffff82000000 D some_data\n"
				   "ffffffffc0000000 t mod_fn\t[mymod]\n"
				   "ffffffffc0000100 T mod_last\t[mymod]"; /* no final newline */
	struct rpt_symtab *st;
	char path[256];

	(void)state;
	write_file("kallsyms", text, path, sizeof(path));
	st = rpt_symtab_new(NULL, path);
	assert_non_null(st);
	expect_kernel(st, 0xffffffff81000000, "_stext", true);
	expect_kernel(st, 0xffffffff81000150, "do_thing", true);
	expect_kernel(st, 0xffffffff81000200, "helper", true);
	expect_kernel(st, 0xffffffff82000010, "some_data", true);
	expect_kernel(st, 0xffffffffc0000010, "mod_fn", true);
	expect_kernel(st, 0xffffffffc0000110, "mod_last", true);
	expect_kernel(st, 0xffffffff80000000, "[kernel.kallsyms]!0xffffffff80000000", false);
	/* far past the last symbol */
	expect_kernel(st, 0xffffffffc1000000, "[kernel.kallsyms]!0xffffffffc1000000", false);
	rpt_symtab_free(st);
}

static void test_kallsyms_unreadable(void **state)
{
	static const char zeros[] = "0000000000000000 T _stext\n"
				    "0000000000000000 T do_thing\n"
				    "0000000000000000 t helper [mymod]\n";
	struct rpt_symtab *st;
	char path[256];

	(void)state;
	write_file("kallsyms0", zeros, path, sizeof(path));
	st = rpt_symtab_new(NULL, path);
	expect_kernel(st, 0xffffffff81000010, "[kernel.kallsyms]!0xffffffff81000010", false);
	rpt_symtab_free(st);
	st = rpt_symtab_new(NULL, "/nonexistent/kallsyms");
	expect_kernel(st, 0x1234, "[kernel.kallsyms]!0x1234", false);
	rpt_symtab_free(st);
}

/* The parser must stay inside its buffer: an exact-size heap copy lets ASan check. */
static void test_ksyms_parse_bounds(void **state)
{
	static const char *const inputs[] = { "ffffffff81000000 T abc", "ffffffff81000000 T",
					      "ffffffff81000000 ", "ffffffff81000000",
					      "f", "", "ffffffffffffffffff T toolong",
					      "ffffffff81000000 T a\r\n" };
	struct rpt_ksyms ks = { 0 };
	const struct rpt_ksym *k;
	size_t i, len;
	char *buf;

	(void)state;
	for (i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		len = strlen(inputs[i]);
		buf = malloc(len ? len : 1);
		assert_non_null(buf);
		memcpy(buf, inputs[i], len);
		assert_int_equal(rpt_ksyms_parse(&ks, buf, len), 0);
		free(buf);
		k = rpt_ksyms_find(&ks, 0xffffffff81000004);
		if (i == 0 || i == 7) {
			assert_non_null(k);
			assert_string_equal(k->name, i ? "a" : "abc");
		} else {
			assert_null(k);
		}
	}
	rpt_ksyms_release(&ks);
	rpt_ksyms_release(&ks);
}

/*
 * A file is read a chunk (64 KiB) at a time: lines cut by a chunk's end, a line longer
 * than a chunk and a last line without a newline must give what parsing the whole text
 * at once gives, symbol for symbol.
 */
static void test_ksyms_load_chunks(void **state)
{
	struct rpt_ksyms whole = { 0 }, read = { 0 };
	size_t cap = 1 << 20, len = 0, i;
	char *text = malloc(cap), path[256];
	const struct rpt_ksym *k;
	FILE *f;

	(void)state;
	assert_non_null(text);
	/* ~200 KiB of lines whose lengths vary, so chunk ends fall everywhere in a line */
	for (i = 0; len < 200000; i++)
		len += (size_t)snprintf(text + len, cap - len, "%016llx %c fn_%zu_%.*s\n",
					0xffffffff81000000ULL + i * 16, i % 3 ? 't' : 'T', i,
					(int)(i % 23), "abcdefghijklmnopqrstuvw");
	/* one name longer than a chunk, then a last line without a newline */
	len += (size_t)snprintf(text + len, cap - len, "ffffffff90000000 T ");
	memset(text + len, 'x', 100000);
	len += 100000;
	len += (size_t)snprintf(text + len, cap - len, "\nffffffff90100000 t last");
	snprintf(path, sizeof(path), "%s/kallsyms", tmp);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
	assert_int_equal(rpt_ksyms_parse(&whole, text, len), 0);
	assert_int_equal(rpt_ksyms_load(&read, path), 0);
	assert_int_equal(read.nsyms, i + 2);
	assert_int_equal(whole.nsyms, read.nsyms);
	for (size_t j = 0; j < read.nsyms; j++) {
		assert_true(whole.syms[j].addr == read.syms[j].addr);
		assert_string_equal(whole.syms[j].name, read.syms[j].name);
	}
	k = rpt_ksyms_find(&read, 0xffffffff81000000ULL + 5000 * 16 + 3);
	assert_non_null(k);
	assert_string_equal(k->name, "fn_5000_abcdefghi" /* 5000 % 23 letters */);
	k = rpt_ksyms_find(&read, 0xffffffff90000010);
	assert_non_null(k);
	assert_int_equal(strlen(k->name), 100000);
	k = rpt_ksyms_find(&read, 0xffffffff90100010);
	assert_non_null(k);
	assert_string_equal(k->name, "last");
	rpt_ksyms_release(&whole);
	rpt_ksyms_release(&read);
	free(text);
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmp, "/tmp/uprof-kallsyms-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/kallsyms", tmp);
	unlink(path);
	snprintf(path, sizeof(path), "%s/kallsyms0", tmp);
	unlink(path);
	rmdir(tmp);
	return 0;
}

/*
 * A function's padding symbol (__pfx_X: CONFIG_FUNCTION_PADDING's NOPs, __cfi_X: kCFI's
 * hash) names no frame: a return address equal to X's entry (a retpoline thunk pushed it),
 * looked up at - 1, is X's frame. A padding symbol of another name than the next
 * function's is left as it is.
 */
static void test_ksyms_padding(void **state)
{
	static const char text[] = "ffffffff81000000 T before\n"
				   "ffffffff81000030 T __pfx_blk_stat_timer_fn\n"
				   "ffffffff81000040 t blk_stat_timer_fn\n"
				   "ffffffff81000080 T __cfi_hashed\n"
				   "ffffffff81000090 T hashed\n"
				   "ffffffff810000a0 T __pfx_lonely\n"
				   "ffffffff810000b0 T other\n";
	struct rpt_ksyms ks = { 0 };
	const struct rpt_ksym *k;

	(void)state;
	assert_int_equal(rpt_ksyms_parse(&ks, text, sizeof(text) - 1), 0);
	k = rpt_ksyms_find(&ks, 0xffffffff8100003f);
	assert_non_null(k);
	assert_string_equal(k->name, "blk_stat_timer_fn");
	assert_true(k->addr == 0xffffffff81000040ULL);
	k = rpt_ksyms_find(&ks, 0xffffffff81000030);
	assert_string_equal(k->name, "blk_stat_timer_fn");
	k = rpt_ksyms_find(&ks, 0xffffffff81000041);
	assert_string_equal(k->name, "blk_stat_timer_fn");
	k = rpt_ksyms_find(&ks, 0xffffffff8100002f);
	assert_string_equal(k->name, "before");
	k = rpt_ksyms_find(&ks, 0xffffffff8100008f);
	assert_string_equal(k->name, "hashed");
	k = rpt_ksyms_find(&ks, 0xffffffff810000af);
	assert_string_equal(k->name, "__pfx_lonely");
	rpt_ksyms_release(&ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_unreadable),
		cmocka_unit_test(test_ksyms_parse_bounds),
		cmocka_unit_test(test_ksyms_load_chunks),
		cmocka_unit_test(test_ksyms_padding),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
