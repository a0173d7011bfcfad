// SPDX-License-Identifier: MIT
/* lib/report's one string map (strmap.c): modules by path, interned names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/strmap.h"

static void put_get_and_refuse_twice(void **state)
{
	struct rpt_strmap m = { 0 };
	int a = 1, b = 2;
	char key[] = "/usr/lib/libc.so.6";

	(void)state;
	assert_null(rpt_strmap_get(&m, "x")); /* empty map */
	assert_int_equal(rpt_strmap_put(&m, key, &a), 0);
	key[0] = '!'; /* the map keeps its own copy */
	assert_ptr_equal(rpt_strmap_get(&m, "/usr/lib/libc.so.6"), &a);
	assert_null(rpt_strmap_get(&m, key));
	assert_int_equal(rpt_strmap_put(&m, "/usr/lib/libc.so.6", &b), -EEXIST);
	assert_ptr_equal(rpt_strmap_get(&m, "/usr/lib/libc.so.6"), &a);
	assert_int_equal(m.n, 1);
	rpt_strmap_release(&m);
	rpt_strmap_release(&m);
	assert_null(rpt_strmap_get(&m, "/usr/lib/libc.so.6"));
}

static void intern_gives_one_pointer(void **state)
{
	struct rpt_strmap m = { 0 };
	char buf[16] = "main";
	const char *p, *q;

	(void)state;
	p = rpt_strmap_intern(&m, buf);
	assert_non_null(p);
	assert_ptr_not_equal(p, buf);
	q = rpt_strmap_intern(&m, "main");
	assert_ptr_equal(p, q);
	assert_ptr_not_equal(rpt_strmap_intern(&m, "mai"), p);
	assert_int_equal(m.n, 2);
	rpt_strmap_release(&m);
}

/* Through many growths every key keeps its value; iteration sees each once. */
static void many_keys(void **state)
{
	enum { N = 5000 };
	struct rpt_strmap m = { 0 };
	char key[32];
	size_t seen = 0;
	uintptr_t sum = 0;

	(void)state;
	for (uintptr_t i = 1; i <= N; i++) {
		snprintf(key, sizeof(key), "k%lu", (unsigned long)i);
		assert_int_equal(rpt_strmap_put(&m, key, (void *)i), 0);
	}
	for (uintptr_t i = 1; i <= N; i++) {
		snprintf(key, sizeof(key), "k%lu", (unsigned long)i);
		assert_int_equal((uintptr_t)rpt_strmap_get(&m, key), i);
	}
	rpt_strmap_for_each(&m, e)
	{
		seen++;
		sum += (uintptr_t)e->val;
	}
	assert_int_equal(seen, N);
	assert_int_equal(sum, (uintptr_t)N * (N + 1) / 2);
	assert_true(m.cap >= 2 * m.n);
	rpt_strmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_get_and_refuse_twice),
		cmocka_unit_test(intern_gives_one_pointer),
		cmocka_unit_test(many_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
