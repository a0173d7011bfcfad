// SPDX-License-Identifier: MIT
/* lib/pmc: the timer attr and interval parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <time.h>

#include "pmc/pmc.h"

static void test_interval_plain_and_fractions(void **state)
{
	uint64_t ns = 0;

	(void)state;
	assert_int_equal(pmc_parse_interval_ms("1", &ns), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(pmc_parse_interval_ms("0.25", &ns), 0);
	assert_int_equal(ns, 250000);
	assert_int_equal(pmc_parse_interval_ms("1e-1", &ns), 0);
	assert_int_equal(ns, 100000);
	assert_int_equal(pmc_parse_interval_ms("0.01", &ns), 0);
	assert_int_equal(ns, 10000);
}

static void test_interval_rejects_garbage(void **state)
{
	static const char *const bad[] = { "", "0", "-1", "abc", "1x", "nan", "inf", " ", "1 ",
					   "0x", "-0" };
	uint64_t ns = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(pmc_parse_interval_ms(bad[i], &ns), -EINVAL);
		assert_int_equal(ns, 42); /* untouched on error */
	}
	assert_int_equal(pmc_parse_interval_ms(NULL, &ns), -EINVAL);
}

static void test_interval_range(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(pmc_parse_interval_ms("0.001", &ns), -ERANGE);
	assert_int_equal(pmc_parse_interval_ms("3600001", &ns), -ERANGE);
	assert_int_equal(pmc_parse_interval_ms("3600000", &ns), 0);
}

static void test_timer_attr(void **state)
{
	struct perf_event_attr a;

	(void)state;
	memset(&a, 0xff, sizeof(a));
	pmc_timer_attr(&a, 500000, false);
	assert_int_equal(a.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(a.config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(a.sample_period, 500000);
	assert_int_equal(a.size, sizeof(a));
	assert_true(a.sample_type & PERF_SAMPLE_IDENTIFIER);
	assert_true(a.sample_type & PERF_SAMPLE_TIME);
	assert_true(a.disabled && a.enable_on_exec && a.inherit);
	assert_false(a.mmap || a.mmap2 || a.comm || a.task); /* the tracking event's job */
	assert_true(a.sample_id_all);
	assert_true(a.use_clockid);
	assert_int_equal(a.clockid, CLOCK_MONOTONIC);
	assert_false(a.exclude_kernel);
	assert_false(a.freq);
	pmc_timer_attr(&a, 500000, true);
	assert_true(a.exclude_kernel);
	assert_false(a.exclude_user);
	assert_string_equal(pmc_attr_name(&a), "CPU_TIME");
	a.type = PERF_TYPE_HARDWARE;
	assert_string_equal(pmc_attr_name(&a), "EVENT");
}

static void test_tracking_attr(void **state)
{
	struct perf_event_attr a, t;

	(void)state;
	pmc_tracking_attr(&t);
	pmc_timer_attr(&a, 1000000, false);
	assert_int_equal(t.type, PERF_TYPE_SOFTWARE);
	assert_int_equal(t.config, PERF_COUNT_SW_DUMMY);
	assert_true(t.mmap && t.mmap2 && t.comm && t.comm_exec && t.task && t.sample_id_all);
	assert_true(t.inherit && t.enable_on_exec && t.disabled);
	/* one sample_id layout for every event of a session */
	assert_int_equal(t.sample_type, a.sample_type);
	assert_int_equal(t.use_clockid, a.use_clockid);
	assert_int_equal(t.clockid, a.clockid);
	assert_string_equal(pmc_attr_name(&t), "TRACKING");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_plain_and_fractions),
		cmocka_unit_test(test_interval_rejects_garbage),
		cmocka_unit_test(test_interval_range),
		cmocka_unit_test(test_timer_attr),
		cmocka_unit_test(test_tracking_attr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
