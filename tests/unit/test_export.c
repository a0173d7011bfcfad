// SPDX-License-Identifier: MIT
/*
 * lib/export without a session: the exporter table (every row complete, names and files
 * unique, each found by its name, nothing outside it) and folded frame names (';' and
 * line breaks replaced). What each exporter writes is checked on a session in
 * test_callgraph.c (exports) and tests/e2e/exports.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export/internal.h"

static void table(void **state)
{
	(void)state;
	assert_int_equal(rpt_export_parse("folded"), RPT_EXPORT_FOLDED);
	assert_int_equal(rpt_export_parse("flamegraph"), RPT_EXPORT_FLAMEGRAPH);
	assert_int_equal(rpt_export_parse("perfetto"), RPT_EXPORT_PERFETTO);
	assert_int_equal(rpt_export_parse("sqlite"), RPT_EXPORT_SQLITE);
	assert_int_equal(rpt_export_parse("pprof"), RPT_EXPORT_PPROF);
	/* the exports of every sample need the report opened with opts.walk */
	assert_true(rpt_export_walks(RPT_EXPORT_SQLITE) && rpt_export_walks(RPT_EXPORT_PPROF));
	assert_false(rpt_export_walks(RPT_EXPORT_FOLDED) || rpt_export_walks(RPT_EXPORT_COUNT));
	assert_int_equal(rpt_export_parse("svg"), -1);
	assert_int_equal(rpt_export_parse(""), -1);
	assert_string_equal(rpt_export_filename(RPT_EXPORT_FOLDED), "stacks.folded");
	assert_string_equal(rpt_export_filename(RPT_EXPORT_FLAMEGRAPH), "flamegraph.svg");
	assert_string_equal(rpt_export_filename(RPT_EXPORT_PERFETTO), "trace.json");
	assert_string_equal(rpt_export_filename(RPT_EXPORT_COUNT), "export");
	for (int e = 0; e < RPT_EXPORT_COUNT; e++) {
		const struct rpt_exporter *x = rpt_exporter(e);

		assert_non_null(x);
		assert_true(x->name && x->file && x->what && x->help && (!x->write != !x->write_walk));
		assert_int_equal(rpt_export_parse(x->name), e);
		for (int o = 0; o < e; o++) {
			assert_true(strcmp(rpt_exporter(o)->name, x->name) != 0);
			assert_true(strcmp(rpt_exporter(o)->file, x->file) != 0);
		}
	}
	assert_null(rpt_exporter(RPT_EXPORT_COUNT));
	assert_null(rpt_exporter(-1));
}

static void folded_frames(void **state)
{
	struct util_sbuf b = { 0 };

	(void)state;
	assert_int_equal(rpt_sbuf_frame(&b, "app"), 0);
	assert_int_equal(util_sbuf_add(&b, ";", 1), 0);
	/* a C++ name with ';' in a template argument, and a name with line breaks */
	assert_int_equal(rpt_sbuf_frame(&b, "f<a;b>"), 0);
	assert_int_equal(util_sbuf_add(&b, ";", 1), 0);
	assert_int_equal(rpt_sbuf_frame(&b, "two\nlines\r"), 0);
	assert_int_equal(b.len, strlen("app;f<a:b>;two lines "));
	assert_memory_equal(b.s, "app;f<a:b>;two lines ", b.len);
	free(b.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(folded_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
