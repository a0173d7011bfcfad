// SPDX-License-Identifier: MIT
/* lib/util: the string map, the hash, the growing string and the escapers, with the
 * exact bytes each CSV quoting and each escaping writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

static void put_get_and_refuse_twice(void **state)
{
	struct util_strmap m = { 0 };
	int a = 1, b = 2;
	char key[] = "/usr/lib/libc.so.6";

	(void)state;
	assert_null(util_strmap_get(&m, "x")); /* empty map */
	assert_int_equal(util_strmap_put(&m, key, &a), 0);
	key[0] = '!'; /* the map keeps its own copy */
	assert_ptr_equal(util_strmap_get(&m, "/usr/lib/libc.so.6"), &a);
	assert_null(util_strmap_get(&m, key));
	assert_int_equal(util_strmap_put(&m, "/usr/lib/libc.so.6", &b), -EEXIST);
	assert_ptr_equal(util_strmap_get(&m, "/usr/lib/libc.so.6"), &a);
	assert_int_equal(m.n, 1);
	util_strmap_release(&m);
	util_strmap_release(&m);
	assert_null(util_strmap_get(&m, "/usr/lib/libc.so.6"));
}

static void intern_gives_one_pointer(void **state)
{
	struct util_strmap m = { 0 };
	char buf[16] = "main";
	const char *p, *q;

	(void)state;
	p = util_strmap_intern(&m, buf);
	assert_non_null(p);
	assert_ptr_not_equal(p, buf);
	q = util_strmap_intern(&m, "main");
	assert_ptr_equal(p, q);
	assert_ptr_not_equal(util_strmap_intern(&m, "mai"), p);
	assert_int_equal(m.n, 2);
	util_strmap_release(&m);
}

/* Through many growths every key keeps its value; iteration sees each once. */
static void many_keys(void **state)
{
	enum { N = 5000 };
	struct util_strmap m = { 0 };
	char key[32];
	size_t seen = 0;
	uintptr_t sum = 0;

	(void)state;
	for (uintptr_t i = 1; i <= N; i++) {
		snprintf(key, sizeof(key), "k%lu", (unsigned long)i);
		assert_int_equal(util_strmap_put(&m, key, (void *)i), 0);
	}
	for (uintptr_t i = 1; i <= N; i++) {
		snprintf(key, sizeof(key), "k%lu", (unsigned long)i);
		assert_int_equal((uintptr_t)util_strmap_get(&m, key), i);
	}
	util_strmap_for_each(&m, e)
	{
		seen++;
		sum += (uintptr_t)e->val;
	}
	assert_int_equal(seen, N);
	assert_int_equal(sum, (uintptr_t)N * (N + 1) / 2);
	assert_true(m.cap >= 2 * m.n);
	util_strmap_release(&m);
}

/* Through many growths every key keeps its value; release is safe twice. */
static void hash_grows_and_finds(void **state)
{
	struct util_hash h = { 0 };

	(void)state;
	for (uint64_t i = 0; i < 10000; i++)
		*util_hash_slot(&h, i, i * 7, i ^ 3) += i + 1;
	assert_int_equal(h.n, 10000);
	for (uint64_t i = 0; i < 10000; i++)
		assert_int_equal(*util_hash_find(&h, i, i * 7, i ^ 3), i + 1);
	assert_null(util_hash_find(&h, 1, 2, 3));
	util_hash_release(&h);
	util_hash_release(&h);
	assert_null(util_hash_find(&h, 0, 0, 3));
}


/* Appended bytes stay NUL-terminated through growths. */
static void sbuf_grows(void **state)
{
	struct util_sbuf b = { 0 };

	(void)state;
	for (int i = 0; i < 1000; i++)
		assert_int_equal(util_sbuf_add(&b, "abc", 2), 0);
	assert_int_equal(b.len, 2000);
	assert_int_equal(strlen(b.s), 2000);
	assert_memory_equal(b.s + 1996, "abab", 5);
	free(b.s);
}

/* What @how makes of @in, or of its first @n bytes when @n is not SIZE_MAX. */
static char *escaped(const char *in, size_t n, enum util_escape how)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	if (n == SIZE_MAX)
		util_put_escaped(f, in, how);
	else
		util_put_escaped_n(f, in, n, how);
	fclose(f);
	return s;
}

static char *cell(const char *in, enum util_csv_quoting q)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	util_csv_cell(f, in, q);
	fclose(f);
	return s;
}

#define ASSERT_ESCAPED(in, n, how, want)                 \
	do {                                             \
		char *got_ = escaped(in, n, how);        \
		assert_string_equal(got_, want);         \
		free(got_);                              \
	} while (0)
#define ASSERT_CELL(in, q, want)                  \
	do {                                      \
		char *got_ = cell(in, q);         \
		assert_string_equal(got_, want);  \
		free(got_);                       \
	} while (0)

/* report.csv's cell (what report, annotate, compare, job and tools write): always quoted,
 * quotes doubled, line breaks a space, control bytes '?', bad UTF-8 U+FFFD; NULL is "". */
static void csv_always(void **state)
{
	(void)state;
	ASSERT_CELL("plain", UTIL_CSV_ALWAYS, "\"plain\"");
	ASSERT_CELL("", UTIL_CSV_ALWAYS, "\"\"");
	ASSERT_CELL(NULL, UTIL_CSV_ALWAYS, "\"\"");
	ASSERT_CELL("a,\"b\"\r\nc\td\x01", UTIL_CSV_ALWAYS, "\"a,\"\"b\"\"  c?d?\"");
	ASSERT_CELL("\xc3\xa9\xff<&>';", UTIL_CSV_ALWAYS, "\"\xc3\xa9\xef\xbf\xbd<&>';\"");
	{
		char *s = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&s, &len);

		util_csv_quoted(f, "x\"y");
		fclose(f);
		assert_string_equal(s, "\"x\"\"y\"");
		free(s);
	}
}

/* pcm's cell: bare unless it holds a comma, a quote or a newline; then quoted, quotes
 * doubled, every byte kept (CR alone does not quote). */
/* The report header's 'Key:,"value"' lines: the value quoted whole, quotes doubled; the
 * formatted one cut at 1023 bytes. */
static void csv_key_value_lines(void **state)
{
	(void)state;
	char *s = NULL, big[1200];
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	util_csv_kv(f, "Target Path", "/a \"b\",c");
	util_csv_kvf(f, "Samples", "%d of %s", 12, "x");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	util_csv_kvf(f, "Big", "%s", big);
	fclose(f);
	const char *want = "Target Path:,\"/a \"\"b\"\",c\"\nSamples:,\"12 of x\"\n";
	assert_int_equal(strncmp(s, want, strlen(want)), 0);
	/* "Big:," + quote + 1023 y + quote + newline */
	assert_int_equal(len, strlen(want) + 5 + 1 + 1023 + 1 + 1);
	free(s);
}

static void csv_when_needed(void **state)
{
	(void)state;
	ASSERT_CELL("Core 0", UTIL_CSV_WHEN_NEEDED, "Core 0");
	ASSERT_CELL("", UTIL_CSV_WHEN_NEEDED, "");
	ASSERT_CELL("a\rb\x01\xff", UTIL_CSV_WHEN_NEEDED, "a\rb\x01\xff");
	ASSERT_CELL("a,b", UTIL_CSV_WHEN_NEEDED, "\"a,b\"");
	ASSERT_CELL("say \"hi\"", UTIL_CSV_WHEN_NEEDED, "\"say \"\"hi\"\"\"");
	ASSERT_CELL("two\nlines\r", UTIL_CSV_WHEN_NEEDED, "\"two\nlines\r\"");
}

/* roofline's cell: bare unless it holds a comma, a quote, a newline or a CR; then quoted,
 * quotes doubled, newlines and CRs dropped. */
static void csv_when_needed_one_line(void **state)
{
	(void)state;
	ASSERT_CELL("L1 bandwidth", UTIL_CSV_WHEN_NEEDED_ONE_LINE, "L1 bandwidth");
	ASSERT_CELL("a\rb", UTIL_CSV_WHEN_NEEDED_ONE_LINE, "\"ab\"");
	ASSERT_CELL("two\r\nlines", UTIL_CSV_WHEN_NEEDED_ONE_LINE, "\"twolines\"");
	ASSERT_CELL("x,\"y\"", UTIL_CSV_WHEN_NEEDED_ONE_LINE, "\"x,\"\"y\"\"\"");
	ASSERT_CELL("\xff\x01", UTIL_CSV_WHEN_NEEDED_ONE_LINE, "\xff\x01");
}

/* The flame graph's XML and pcm's plain HTML: both escape & < > ", XML also ' and
 * replaces control bytes and bad UTF-8; plain HTML keeps every other byte. */
static void html_escapers(void **state)
{
	(void)state;
	ASSERT_ESCAPED("a\"b'<&>\x01\xff\xc3\xa9", SIZE_MAX, UTIL_ESC_XML,
		       "a&quot;b&apos;&lt;&amp;&gt;?\xef\xbf\xbd\xc3\xa9");
	ASSERT_ESCAPED("a\"b'<&>\x01\xff\xc3\xa9", SIZE_MAX, UTIL_ESC_HTML_PLAIN,
		       "a&quot;b'&lt;&amp;&gt;\x01\xff\xc3\xa9");
	ASSERT_ESCAPED("a<b>c,d", 3, UTIL_ESC_HTML_PLAIN, "a&lt;b");
	ASSERT_ESCAPED("ab\0cd", 5, UTIL_ESC_HTML_PLAIN, "ab"); /* stops at a NUL */
	/* a UTF-8 sequence cut by the length is not one */
	ASSERT_ESCAPED("x\xc3\xa9", 2, UTIL_ESC_XML, "x\xef\xbf\xbd");
	ASSERT_ESCAPED("x\xc3\xa9", 3, UTIL_ESC_XML, "x\xc3\xa9");
}

/* JSON and XML escaping (the exports): quotes, control characters, invalid UTF-8. */
static void escaping(void **state)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f;

	(void)state;
	f = open_memstream(&s, &n);
	util_put_escaped(f, "a\"b\\c\n<&>\xff\xc3\xa9", UTIL_ESC_JSON);
	fputc('|', f);
	util_put_escaped(f, "a\"b'<&>\x01\xff\xc3\xa9", UTIL_ESC_XML);
	fclose(f);
	assert_string_equal(s, "a\\\"b\\\\c\\u000a<&>\\ufffd\xc3\xa9|"
			       "a&quot;b&apos;&lt;&amp;&gt;?\xef\xbf\xbd\xc3\xa9");
	free(s);
}

/* Byte sequences shaped like UTF-8 that are not (surrogates, overlong forms, above
 * U+10FFFF, U+FFFF) must not reach a JSON or XML file, where parsers reject them; the
 * longest valid forms pass through. */
static void escaping_invalid_utf8(void **state)
{
	static const struct {
		const char *in, *json;
	} cases[] = {
		{ "\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd" },	 /* U+D800, a surrogate */
		{ "\xed\x9f\xbf", "\xed\x9f\xbf" },		 /* U+D7FF */
		{ "\xe0\x80\x80", "\\ufffd\\ufffd\\ufffd" },	 /* overlong NUL */
		{ "\xe0\xa0\x80", "\xe0\xa0\x80" },		 /* U+0800 */
		{ "\xf0\x8f\xbf\xbf", "\\ufffd\\ufffd\\ufffd\\ufffd" }, /* overlong U+FFFF */
		{ "\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd" }, /* U+110000 */
		{ "\xf5\x80\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd" },
		{ "\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf" }, /* U+10FFFF */
		{ "\xef\xbf\xbf", "\\ufffd\\ufffd\\ufffd" },	 /* U+FFFF, not XML */
		{ "\xef\xbf\xbd", "\xef\xbf\xbd" },		 /* U+FFFD */
		{ "\xc3", "\\ufffd" },			 /* cut short */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&s, &n);

		util_put_escaped(f, cases[i].in, UTIL_ESC_JSON);
		fclose(f);
		assert_string_equal(s, cases[i].json);
		free(s);
	}
}

/* A frame in trace.json's ';'-separated args.stack, and a CSV section title (one line,
 * quotes as they are). */
static void escaping_frame_and_title(void **state)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	(void)state;
	util_put_escaped(f, "weird;name \"q\"", UTIL_ESC_JSON_FRAME);
	fputc('|', f);
	util_put_escaped(f, "a\"b\nc\x01;\xed\xa0\x80", UTIL_ESC_TEXT);
	fclose(f);
	assert_string_equal(s, "weird:name \\\"q\\\"|a\"b c?;\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
}

/* The HTML report's embedded JSON: a name holding "</script>" or "<!--" must not end or
 * comment out the <script> element it sits in; quotes and bad UTF-8 as in plain JSON. */
static void escaping_json_in_html(void **state)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	(void)state;
	util_put_escaped(f, "</script><!--&\"q\"\n\xff\xc3\xa9", UTIL_ESC_JSON_HTML);
	fclose(f);
	assert_string_equal(s, "\\u003c/script\\u003e\\u003c!--\\u0026\\\"q\\\"\\u000a\\ufffd\xc3\xa9");
	free(s);
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

/* An empty table is NULL in our growing arrays: util_qsort takes (NULL, 0) (qsort may
 * not: UBSan's nonnull check under make check SANITIZE=1) and sorts what there is. */
static void qsort_of_nothing_and_of_some(void **state)
{
	int v[] = { 3, -1, 2, 2 }, one = 7;

	(void)state;
	util_qsort(NULL, 0, sizeof(int), cmp_int);
	util_qsort(&one, 1, sizeof(int), cmp_int);
	assert_int_equal(one, 7);
	util_qsort(v, 4, sizeof(int), cmp_int);
	assert_true(v[0] == -1 && v[1] == 2 && v[2] == 2 && v[3] == 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_get_and_refuse_twice),
		cmocka_unit_test(intern_gives_one_pointer),
		cmocka_unit_test(many_keys),
		cmocka_unit_test(qsort_of_nothing_and_of_some),
		cmocka_unit_test(hash_grows_and_finds),
		cmocka_unit_test(sbuf_grows),
		cmocka_unit_test(csv_always),
		cmocka_unit_test(csv_key_value_lines),
		cmocka_unit_test(csv_when_needed),
		cmocka_unit_test(csv_when_needed_one_line),
		cmocka_unit_test(html_escapers),
		cmocka_unit_test(escaping),
		cmocka_unit_test(escaping_invalid_utf8),
		cmocka_unit_test(escaping_frame_and_title),
		cmocka_unit_test(escaping_json_in_html),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
