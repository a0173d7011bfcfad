// SPDX-License-Identifier: MIT
/* lib/tool: the knob parser (knobs.c) and the descriptor checks (desc.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool/internal.h"

/* ---- knobs ---- */

struct vals {
	int64_t top;
	bool per_task;
	double ratio;
	const char *label;
};

static void declare_all(struct tool_knobs *ks, struct vals *v)
{
	int64_t top = 10;
	bool per = false;
	double ratio = 0.5;

	assert_int_equal(tool_knobs_declare(ks, "top", UPROF_TOOL_KNOB_INT, &v->top, &top,
					    "lines per section"), 0);
	assert_int_equal(tool_knobs_declare(ks, "per-task", UPROF_TOOL_KNOB_BOOL, &v->per_task,
					    &per, "a section per task"), 0);
	assert_int_equal(tool_knobs_declare(ks, "ratio", UPROF_TOOL_KNOB_DOUBLE, &v->ratio, &ratio,
					    NULL), 0);
	assert_int_equal(tool_knobs_declare(ks, "label", UPROF_TOOL_KNOB_STRING, &v->label,
					    "main", "a name"), 0);
}

static void defaults_are_stored_at_declaration(void **state)
{
	struct tool_knobs ks = { 0 };
	struct vals v = { -1, true, -1, NULL };
	char def[64];

	(void)state;
	declare_all(&ks, &v);
	assert_int_equal(v.top, 10);
	assert_false(v.per_task);
	assert_true(v.ratio == 0.5);
	assert_string_equal(v.label, "main");
	/* the listing's defaults, as they would be written on the command line */
	tool_knob_default(&ks.k[0], def, sizeof(def));
	assert_string_equal(def, "10");
	tool_knob_default(&ks.k[1], def, sizeof(def));
	assert_string_equal(def, "false");
	tool_knob_default(&ks.k[2], def, sizeof(def));
	assert_string_equal(def, "0.5");
	tool_knob_default(&ks.k[3], def, sizeof(def));
	assert_string_equal(def, "main");
	assert_string_equal(ks.k[0].help, "lines per section");
	assert_string_equal(ks.k[2].help, ""); /* no help: empty, never NULL */
	assert_string_equal(tool_knob_type_name(ks.k[3].type), "string");
	tool_knobs_release(&ks);
	assert_int_equal(ks.n, 0);
}

static void each_type_parses(void **state)
{
	struct tool_knobs ks = { 0 };
	struct vals v;
	char err[256];

	(void)state;
	declare_all(&ks, &v);
	assert_int_equal(tool_knobs_set(&ks, "top=20", err, sizeof(err)), 0);
	assert_int_equal(v.top, 20);
	assert_int_equal(tool_knobs_set(&ks, "top=-3", err, sizeof(err)), 0);
	assert_int_equal(v.top, -3);
	assert_int_equal(tool_knobs_set(&ks, "top=0x1f", err, sizeof(err)), 0);
	assert_int_equal(v.top, 31);
	assert_int_equal(tool_knobs_set(&ks, "top=010", err, sizeof(err)), 0);
	assert_int_equal(v.top, 10); /* decimal, not octal */
	assert_int_equal(tool_knobs_set(&ks, "per-task", err, sizeof(err)), 0);
	assert_true(v.per_task); /* a bare bool is true */
	assert_int_equal(tool_knobs_set(&ks, "per-task=off", err, sizeof(err)), 0);
	assert_false(v.per_task);
	assert_int_equal(tool_knobs_set(&ks, "per-task=yes", err, sizeof(err)), 0);
	assert_true(v.per_task);
	assert_int_equal(tool_knobs_set(&ks, "per-task=0", err, sizeof(err)), 0);
	assert_false(v.per_task);
	assert_int_equal(tool_knobs_set(&ks, "per-task=true", err, sizeof(err)), 0);
	assert_true(v.per_task);
	assert_int_equal(tool_knobs_set(&ks, "ratio=1e-3", err, sizeof(err)), 0);
	assert_true(v.ratio == 1e-3);
	assert_int_equal(tool_knobs_set(&ks, "label=a b=c", err, sizeof(err)), 0);
	assert_string_equal(v.label, "a b=c"); /* everything after the first '=' */
	assert_int_equal(tool_knobs_set(&ks, "label=", err, sizeof(err)), 0);
	assert_string_equal(v.label, "");
	tool_knobs_release(&ks);
}

/* A bad value leaves the variable as it was and says which knob wants what. */
static void bad_values_are_refused(void **state)
{
	static const struct {
		const char *setting, *msg;
	} bad[] = {
		{ "top=ten", "knob 'top' wants an integer (decimal or 0x hex), not 'ten'" },
		{ "top=1.5", "knob 'top' wants an integer (decimal or 0x hex), not '1.5'" },
		{ "top=", "knob 'top' wants an integer (decimal or 0x hex), not ''" },
		{ "top=99999999999999999999", "knob 'top' wants an integer (decimal or 0x hex), not '99999999999999999999'" },
		{ "top= 5", "knob 'top' wants an integer (decimal or 0x hex), not ' 5'" },
		{ "top", "knob 'top' needs a value: top=<int>" },
		{ "per-task=maybe", "knob 'per-task' wants a bool (1/0, true/false, yes/no, on/off), not 'maybe'" },
		{ "per-task=", "knob 'per-task' wants a bool (1/0, true/false, yes/no, on/off), not ''" },
		{ "ratio=x", "knob 'ratio' wants a number, not 'x'" },
		{ "ratio=nan", "knob 'ratio' wants a number, not 'nan'" },
		{ "ratio=inf", "knob 'ratio' wants a number, not 'inf'" },
		{ "ratio=1e999", "knob 'ratio' wants a number, not '1e999'" },
		{ "ratio", "knob 'ratio' needs a value: ratio=<double>" },
		{ "label", "knob 'label' needs a value: label=<string>" },
	};
	struct tool_knobs ks = { 0 };
	struct vals v;
	char err[256];

	(void)state;
	declare_all(&ks, &v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(tool_knobs_set(&ks, bad[i].setting, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, bad[i].msg);
	}
	assert_int_equal(v.top, 10);
	assert_false(v.per_task);
	assert_true(v.ratio == 0.5);
	assert_string_equal(v.label, "main");
	tool_knobs_release(&ks);
}

static void unknown_knobs_name_the_known_ones(void **state)
{
	struct tool_knobs ks = { 0 };
	struct vals v;
	char err[256];

	(void)state;
	assert_int_equal(tool_knobs_set(&ks, "top=1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown knob 'top' (it has no knobs)");
	declare_all(&ks, &v);
	assert_int_equal(tool_knobs_set(&ks, "tpo=1", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown knob 'tpo' (its knobs: top, per-task, ratio, label)");
	assert_int_equal(tool_knobs_set(&ks, "to=1", err, sizeof(err)), -EINVAL); /* no prefixes */
	assert_int_equal(tool_knobs_set(&ks, "Top=1", err, sizeof(err)), -EINVAL); /* exact case */
	assert_true(tool_knobs_known(&ks, "top=5"));
	assert_true(tool_knobs_known(&ks, "per-task"));
	assert_false(tool_knobs_known(&ks, "tops=5"));
	tool_knobs_release(&ks);
}

static void declarations_are_checked(void **state)
{
	struct tool_knobs ks = { 0 };
	int64_t v, def = 1;
	char name[16];

	(void)state;
	assert_int_equal(tool_knobs_declare(&ks, "top", UPROF_TOOL_KNOB_INT, &v, &def, ""), 0);
	assert_int_equal(tool_knobs_declare(&ks, "top", UPROF_TOOL_KNOB_INT, &v, &def, ""), -EEXIST);
	assert_int_equal(tool_knobs_declare(&ks, "", UPROF_TOOL_KNOB_INT, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, NULL, UPROF_TOOL_KNOB_INT, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "a=b", UPROF_TOOL_KNOB_INT, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "a,b", UPROF_TOOL_KNOB_INT, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "1st", UPROF_TOOL_KNOB_INT, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "x", 0, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "x", 5, &v, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "x", UPROF_TOOL_KNOB_INT, NULL, &def, ""), -EINVAL);
	assert_int_equal(tool_knobs_declare(&ks, "x", UPROF_TOOL_KNOB_INT, &v, NULL, ""), -EINVAL);
	assert_int_equal(ks.n, 1);
	for (int i = 1; i < TOOL_MAX_KNOBS; i++) {
		snprintf(name, sizeof(name), "k%d", i);
		assert_int_equal(tool_knobs_declare(&ks, name, UPROF_TOOL_KNOB_INT, &v, &def, ""), 0);
	}
	assert_int_equal(tool_knobs_declare(&ks, "one-more", UPROF_TOOL_KNOB_INT, &v, &def, ""),
			 -E2BIG);
	tool_knobs_release(&ks);
}

static void specs_split(void **state)
{
	const char *path, *set[4];
	char buf[128];

	(void)state;
	assert_int_equal(tool_spec_split("./t.so", buf, sizeof(buf), &path, set, 4), 0);
	assert_string_equal(path, "./t.so");
	assert_int_equal(tool_spec_split("./t.so,top=20,per-task=1", buf, sizeof(buf), &path, set, 4), 2);
	assert_string_equal(path, "./t.so");
	assert_string_equal(set[0], "top=20");
	assert_string_equal(set[1], "per-task=1");
	assert_int_equal(tool_spec_split("", buf, sizeof(buf), &path, set, 4), -EINVAL);
	assert_int_equal(tool_spec_split(",top=1", buf, sizeof(buf), &path, set, 4), -EINVAL);
	assert_int_equal(tool_spec_split("t.so,", buf, sizeof(buf), &path, set, 4), -EINVAL);
	assert_int_equal(tool_spec_split("t.so,,a", buf, sizeof(buf), &path, set, 4), -EINVAL);
	assert_int_equal(tool_spec_split("t.so,=1", buf, sizeof(buf), &path, set, 4), -EINVAL);
	assert_int_equal(tool_spec_split("t.so,a,b,c,d,e", buf, sizeof(buf), &path, set, 4), -E2BIG);
	assert_int_equal(tool_spec_split("t.so,a", buf, 6, &path, set, 4), -E2BIG);
}

/* ---- descriptors ---- */

static int noop(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx, (void)s;
	return 0;
}

static struct uprof_tool_desc good(void)
{
	struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	d.name = "hot.lines-2";
	d.sample = noop;
	return d;
}

static void check_refused(const struct uprof_tool_desc *d, const char *msg)
{
	struct uprof_tool_desc out;
	char err[256] = "";

	assert_int_equal(tool_desc_check(d, &out, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, msg);
}

static void a_good_descriptor_is_copied(void **state)
{
	struct uprof_tool_desc d = good(), out;
	char err[256];

	(void)state;
	assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
	assert_string_equal(out.name, "hot.lines-2");
	assert_ptr_equal(out.sample, noop);
	assert_int_equal(out.size, sizeof(out));
}

/* API 1.0's descriptor: 232 bytes, its knobs_checked slot (1.1's) still reserved, zero */
static void an_older_minor_version_loads(void **state)
{
	struct uprof_tool_desc d = good(), out;
	char err[256];

	(void)state;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 0);
	d.size = TOOL_DESC_MIN_SIZE;
	assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
	assert_null(out.knobs_checked);
	assert_ptr_equal(out.sample, noop);
}

static void other_majors_are_refused(void **state)
{
	struct uprof_tool_desc d = good();
	char msg[256];

	(void)state;
	d.api_version = UPROF_TOOL_API_VERSION_OF(2, 0);
	snprintf(msg, sizeof(msg), "built for tool API 2.0; this uprof has API %d.%d (rebuild the "
				   "tool against its uprof_tool.h)", UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR);
	check_refused(&d, msg);
	d.api_version = UPROF_TOOL_API_VERSION_OF(0, 9);
	snprintf(msg, sizeof(msg), "built for tool API 0.9; this uprof has API %d.%d (rebuild the "
				   "tool against its uprof_tool.h)", UPROF_TOOL_API_MAJOR, UPROF_TOOL_API_MINOR);
	check_refused(&d, msg);
	d.api_version = 0;
	check_refused(&d, "its descriptor has no api_version (start from UPROF_TOOL_DESC_INIT)");
	check_refused(NULL, "registered no descriptor");
}

static void sizes_are_checked(void **state)
{
	/* a newer minor version's bigger descriptor: fine while what it added is unused */
	unsigned char big[sizeof(struct uprof_tool_desc) + 64] __attribute__((aligned(8))) = { 0 };
	struct uprof_tool_desc d = good(), out;
	char err[256];

	(void)state;
	d.size = 100;
	check_refused(&d, "its descriptor says it is 100 bytes; API 1.x descriptors are 232 to 4096 "
			  "(start from UPROF_TOOL_DESC_INIT)");
	d.size = 5000;
	check_refused(&d, "its descriptor says it is 5000 bytes; API 1.x descriptors are 232 to 4096 "
			  "(start from UPROF_TOOL_DESC_INIT)");
	d = good();
	d.size = sizeof(big);
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 9);
	memcpy(big, &d, sizeof(d));
	assert_int_equal(tool_desc_check((void *)big, &out, err, sizeof(err)), 0);
	assert_int_equal(out.size, sizeof(out)); /* ours, not the tool's */
	big[sizeof(d) + 8] = 1;
	check_refused((void *)big, "built for tool API 1.9 and uses what it added; this uprof has "
				   "API 1.4 (upgrade uprof)");
}

static void reserved_slots_stay_zero(void **state)
{
	struct uprof_tool_desc d = good();
	int x;

	(void)state;
	d.reserved[3] = &x;
	check_refused(&d, "reserved slot 3 of its descriptor is not zero (zero the descriptor: "
			  "UPROF_TOOL_DESC_INIT)");
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 7);
	check_refused(&d, "reserved slot 3 of its descriptor is not zero (a later API version's "
			  "callback: upgrade uprof)");
	/* openmp_region has its meaning from 1.2 on: a tool declaring 1.1 may not set it */
	d = good();
	d.openmp_region = (int (*)(void *, const struct uprof_tool_omp_slice *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 1);
	check_refused(&d, "sets openmp_region, a slot its tool API 1.1 reserves (its argument is "
			  "API 1.2's: rebuild against this uprof_tool.h)");
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
	{
		struct uprof_tool_desc out;
		char err[256] = "";

		assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
		assert_non_null(out.openmp_region);
	}
	/* mpi_rank and mpi_call have their meaning from 1.3 on: a tool declaring 1.2 that
	 * sets one is refused (never called), one declaring 1.3 is taken */
	d = good();
	d.mpi_rank = (int (*)(void *, const struct uprof_tool_mpi_rank *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
	check_refused(&d, "sets mpi_rank, a slot its tool API 1.2 reserves (its argument is API "
			  "1.3's: rebuild against this uprof_tool.h)");
	d = good();
	d.mpi_call = (int (*)(void *, const struct uprof_tool_mpi_call *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 0);
	check_refused(&d, "sets mpi_call, a slot its tool API 1.0 reserves (its argument is API "
			  "1.3's: rebuild against this uprof_tool.h)");
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 3);
	{
		struct uprof_tool_desc out;
		char err[256] = "";

		assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
		assert_non_null(out.mpi_call);
		assert_null(out.mpi_rank);
	}
	/* os_thread and os_syscall took 1.2's first two reserved slots: numbered as the tool's
	 * version numbers them (1.1's slot 0 is 1.2's filter_sample) */
	d = good();
	d.os_thread = (int (*)(void *, const struct uprof_tool_os_thread *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
	check_refused(&d, "reserved slot 0 of its descriptor is not zero (its tool API 1.2 reserves "
			  "it; API 1.3's os_thread: rebuild against this uprof_tool.h)");
	d = good();
	d.os_syscall = (int (*)(void *, const struct uprof_tool_os_syscall *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 1);
	check_refused(&d, "reserved slot 2 of its descriptor is not zero (its tool API 1.1 reserves "
			  "it; API 1.3's os_syscall: rebuild against this uprof_tool.h)");
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 3);
	{
		struct uprof_tool_desc out;
		char err[256] = "";

		assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
		assert_non_null(out.os_syscall);
	}
	/* mpi_site and mpi_event have their meaning from 1.4 on: a tool declaring 1.3 that
	 * sets one is refused (never called), one declaring 1.4 is taken */
	d = good();
	d.mpi_site = (int (*)(void *, const struct uprof_tool_mpi_site *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 3);
	check_refused(&d, "sets mpi_site, a slot its tool API 1.3 reserves (its argument is API "
			  "1.4's: rebuild against this uprof_tool.h)");
	d = good();
	d.mpi_event = (int (*)(void *, const struct uprof_tool_mpi_event *))noop;
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 2);
	check_refused(&d, "sets mpi_event, a slot its tool API 1.2 reserves (its argument is API "
			  "1.4's: rebuild against this uprof_tool.h)");
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 4);
	{
		struct uprof_tool_desc out;
		char err[256] = "";

		assert_int_equal(tool_desc_check(&d, &out, err, sizeof(err)), 0);
		assert_non_null(out.mpi_event);
		assert_null(out.mpi_site);
	}
}

static void names_are_checked(void **state)
{
	static const char *const bad[] = { "", ".hidden", "a/b", "a b", "a,b", "x\n",
		"0123456789012345678901234567890123456789012345678901234567890123" };
	struct uprof_tool_desc d = good();

	(void)state;
	d.name = NULL;
	check_refused(&d, "its descriptor has no name (1-63 letters, digits, '.', '-', '_', not "
			  "starting with '.')");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d.name = bad[i];
		check_refused(&d, "its descriptor has a bad name (1-63 letters, digits, '.', '-', "
				  "'_', not starting with '.')");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_stored_at_declaration),
		cmocka_unit_test(each_type_parses),
		cmocka_unit_test(bad_values_are_refused),
		cmocka_unit_test(unknown_knobs_name_the_known_ones),
		cmocka_unit_test(declarations_are_checked),
		cmocka_unit_test(specs_split),
		cmocka_unit_test(a_good_descriptor_is_copied),
		cmocka_unit_test(an_older_minor_version_loads),
		cmocka_unit_test(other_majors_are_refused),
		cmocka_unit_test(sizes_are_checked),
		cmocka_unit_test(reserved_slots_stay_zero),
		cmocka_unit_test(names_are_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
