// SPDX-License-Identifier: MIT
/*
 * report.html's tables (lib/export/html_csv.c): report.csv's text cut into sections and
 * written as JSON, exactly; a title, quotes, CRLF, a name that would end the <script>
 * element, the row bounds and what they leave out counted; and text cut at every byte
 * still gives a closed JSON array (the page's JSON.parse must never fail).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "export/html.h"

static const struct rpt_html_limits wide = { 100, 1000 };

/* The JSON of @csv (@len bytes), owned by the caller. */
static char *sections(const char *csv, size_t len, const struct rpt_html_limits *lim)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	assert_non_null(f);
	assert_int_equal(rpt_html_csv_sections(f, csv, len, lim), 0);
	fclose(f);
	return s;
}

static void titles_rows_and_quotes(void **state)
{
	static const char csv[] = "\n\"uprof (Version:0.1.0)\"\nPERFORMANCE ANALYSIS REPORT\n\n"
				  "EXECUTION\nTarget Path:,\"/a,b\"\n\n"
				  "\"10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)\"\n"
				  "FUNCTION,\"CPU_TIME\" (seconds),Module\n"
				  "\"say \"\"hi\"\"\",0.5230,\"m\"\n\n\nOpenMP TRACING REPORT\n";
	char *s = sections(csv, sizeof(csv) - 1, &wide);

	(void)state;
	assert_string_equal(
		s, "[\n{\"title\":\"uprof (Version:0.1.0)\",\"rows\":[[\"PERFORMANCE ANALYSIS "
		   "REPORT\"]],\"more\":0},\n"
		   "{\"title\":\"EXECUTION\",\"rows\":[[\"Target Path:\",\"/a,b\"]],\"more\":0},\n"
		   "{\"title\":\"10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)\",\"rows\":"
		   "[[\"FUNCTION\",\"CPU_TIME (seconds)\",\"Module\"],"
		   "[\"say \\\"hi\\\"\",\"0.5230\",\"m\"]],\"more\":0},\n"
		   "{\"title\":\"\",\"rows\":[[\"OpenMP TRACING REPORT\"]],\"more\":0}]");
	free(s);
}

/* A block of key,value lines has no title; CRLF lines lose their CR; a name holding
 * </script> is escaped; lib/job's ", \"quoted\"" cells are read as quoted. */
static void crlf_script_and_spaced_quotes(void **state)
{
	static const char csv[] = "a,b\r\n\"</script>\",1\r\n\r\nENVIRONMENT\n"
				  "Library version, \"Open MPI v4.1.4, package\"\nRanks, 4\n";
	char *s = sections(csv, sizeof(csv) - 1, &wide);

	(void)state;
	assert_string_equal(s, "[\n{\"title\":\"\",\"rows\":[[\"a\",\"b\"],"
			       "[\"\\u003c/script\\u003e\",\"1\"]],\"more\":0},\n"
			       "{\"title\":\"ENVIRONMENT\",\"rows\":[[\"Library version\","
			       "\"Open MPI v4.1.4, package\"],[\"Ranks\",\" 4\"]],\"more\":0}]");
	free(s);
}

/* Rows past the per-section bound, then past the bound in all, are counted in "more". */
static void bounds_count_what_they_leave_out(void **state)
{
	static const char csv[] = "T\nh\n1\n2\n3\n\nU\nh\n1\n2\n";
	const struct rpt_html_limits lim = { 3, 4 };
	char *s = sections(csv, sizeof(csv) - 1, &lim);

	(void)state;
	assert_string_equal(s, "[\n{\"title\":\"T\",\"rows\":[[\"h\"],[\"1\"],[\"2\"]],\"more\":1},\n"
			       "{\"title\":\"U\",\"rows\":[[\"h\"]],\"more\":2}]");
	free(s);
}

/* An unclosed quote ends at the end of the text, a NUL ends the text, nothing is empty. */
static void cut_text(void **state)
{
	static const char csv[] = "T\nA,\"open";
	static const char nul[] = "T\nA\0B\n";
	char *s = sections(csv, sizeof(csv) - 1, &wide);

	(void)state;
	assert_string_equal(s, "[\n{\"title\":\"T\",\"rows\":[[\"A\",\"open\"]],\"more\":0}]");
	free(s);
	s = sections(nul, sizeof(nul) - 1, &wide);
	assert_string_equal(s, "[\n{\"title\":\"T\",\"rows\":[[\"A\"]],\"more\":0}]");
	free(s);
	s = sections("", 0, &wide);
	assert_string_equal(s, "[]");
	free(s);
	s = sections("\n\n\r\n", 4, &wide);
	assert_string_equal(s, "[]");
	free(s);
}

/* Whatever byte the text is cut at, the output is one JSON array: brackets balanced
 * outside strings, every string closed, nothing after the final ']'. */
static void every_prefix_is_closed_json(void **state)
{
	static const char csv[] = "\"t\"\nA,\"b,\"\"c\"\"\",x\r\n\"d\n\ne\",\"\"\n\nK:,\"v\"\n";

	(void)state;
	for (size_t len = 0; len <= sizeof(csv) - 1; len++) {
		char *s = sections(csv, len, &wide);
		int depth = 0;
		bool in = false;
		size_t i;

		for (i = 0; s[i]; i++) {
			if (in) {
				if (s[i] == '\\')
					i++;
				else if (s[i] == '"')
					in = false;
				else
					assert_true((unsigned char)s[i] >= 0x20);
				continue;
			}
			if (s[i] == '"')
				in = true;
			else if (s[i] == '[' || s[i] == '{')
				depth++;
			else if (s[i] == ']' || s[i] == '}')
				depth--;
			assert_true(depth >= 0);
			if (!depth)
				break;
		}
		assert_false(in);
		assert_int_equal(depth, 0);
		assert_int_equal(s[i + 1], 0);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(titles_rows_and_quotes),
		cmocka_unit_test(crlf_script_and_spaced_quotes),
		cmocka_unit_test(bounds_count_what_they_leave_out),
		cmocka_unit_test(cut_text),
		cmocka_unit_test(every_prefix_is_closed_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
