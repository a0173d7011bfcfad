// SPDX-License-Identifier: MIT
/* lib/metric's roofline file and point (uprof pcm roofline): the point is exact arithmetic
 * on the recorded counts; the file round-trips through its one writer and parser; the
 * shipped Zen fixture parses and places its point; truncated and corrupted files are
 * refused with the line named, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"

#ifndef FIXTURE
#define FIXTURE "tests/fixtures/roofline-zen3/report.csv"
#endif

static struct mtr_roofline *new_run(void)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	struct mtr_rl_counter f = { .role = MTR_RL_FLOPS, .event = "RETIRED_SSE_AVX_FLOPS",
				    .value = 3000, .enabled = 1000, .running = 500 };
	struct mtr_rl_counter d1 = { .role = MTR_RL_DRAM, .event = "amd_df/event=0x7,umask=0x38/",
				     .value = 10, .enabled = 1000, .running = 1000 };
	struct mtr_rl_counter d2 = { .role = MTR_RL_DRAM, .event = "CH_B", .value = 5,
				     .enabled = 900, .running = 300 };
	struct mtr_rl_ceiling c = { .kind = MTR_RL_COMPUTE, .name = "Peak DP FLOP/s (all cores)",
				    .value = 123.5, .desc = { "fma, \"12\" accumulators", "avx512f" } };

	assert_non_null(r);
	assert_int_equal(mtr_rl_add_fact(r, "System", "AMD EPYC, 2 sockets"), 0);
	assert_int_equal(mtr_rl_add_ceiling(r, &c), 0);
	c.kind = MTR_RL_MEMORY;
	c.value = NAN;
	snprintf(c.name, sizeof(c.name), "L1 read (one core)");
	assert_int_equal(mtr_rl_add_ceiling(r, &c), 0);
	assert_int_equal(mtr_rl_add_counter(r, &f), 0);
	assert_int_equal(mtr_rl_add_counter(r, &d1), 0);
	assert_int_equal(mtr_rl_add_counter(r, &d2), 0);
	r->elapsed_ns = 4000;
	return r;
}

static void point_is_arithmetic_on_the_counts(void **state)
{
	struct mtr_roofline *r = new_run();
	struct mtr_rl_point p;

	(void)state;
	mtr_rl_point(r, &p);
	assert_true(p.placed);
	/* 3000 x 1000/500 FLOPs; (10 + 5 x 900/300) lines of 64 B; over 4000 ns */
	assert_true(p.flops == 6000.0);
	assert_true(p.dram_bytes == 64.0 * 25);
	assert_true(p.intensity == 6000.0 / 1600.0);
	assert_true(p.gflops == 6000.0 / 4000.0);
	free(r);
}

static void point_missing_says_why(void **state)
{
	struct mtr_roofline *r = new_run();
	struct mtr_rl_point p;

	(void)state;
	r->elapsed_ns = 0;
	mtr_rl_point(r, &p);
	assert_false(p.placed);
	assert_non_null(strstr(p.why, "elapsed"));
	r->elapsed_ns = 4000;
	r->counters[2].running = 0; /* enabled, never on a counter */
	mtr_rl_point(r, &p);
	assert_false(p.placed);
	assert_non_null(strstr(p.why, "never running"));
	r->ncounters = 1; /* FLOPs only */
	mtr_rl_point(r, &p);
	assert_false(p.placed);
	assert_non_null(strstr(p.why, "DRAM"));
	r->ncounters = 0;
	mtr_rl_point(r, &p);
	assert_false(p.placed);
	assert_non_null(strstr(p.why, "FP"));
	assert_true(isnan(p.intensity));
	free(r);
}

/* Write @r to memory; the text (free it). */
static char *write_text(const struct mtr_roofline *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	assert_non_null(f);
	assert_int_equal(mtr_rl_write(r, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void file_round_trips(void **state)
{
	struct mtr_roofline *r = new_run(), *back = calloc(1, sizeof(*back));
	struct mtr_rl_point p, q;
	size_t len;
	char *text = write_text(r, &len), err[256];

	(void)state;
	assert_int_equal(mtr_rl_parse(text, len, back, err, sizeof(err)), 0);
	assert_int_equal(back->nfacts, 1);
	assert_string_equal(back->fact_val[0], "AMD EPYC, 2 sockets");
	assert_int_equal(back->nceilings, 2);
	assert_string_equal(back->ceilings[0].desc[0], "fma, \"12\" accumulators");
	assert_true(back->ceilings[0].value == 123.5);
	assert_int_equal(back->ceilings[1].kind, MTR_RL_MEMORY);
	assert_true(isnan(back->ceilings[1].value));
	assert_int_equal(back->ncounters, 3);
	assert_string_equal(back->counters[1].event, "amd_df/event=0x7,umask=0x38/");
	assert_true(back->counters[2].running == 300);
	assert_true(back->elapsed_ns == 4000);
	mtr_rl_point(r, &p);
	mtr_rl_point(back, &q);
	assert_true(q.placed && p.intensity == q.intensity && p.gflops == q.gflops);
	free(text);
	free(back);
	free(r);
}

static void missing_reason_round_trips(void **state)
{
	struct mtr_roofline *r = new_run(), *back = calloc(1, sizeof(*back));
	size_t len;
	char *text, err[256];

	(void)state;
	r->ncounters = 0;
	snprintf(r->missing, sizeof(r->missing), "fp:FLOPS could not be opened: ENODEV (No such device)");
	text = write_text(r, &len);
	assert_non_null(strstr(text, "Point missing:,fp:FLOPS could not be opened"));
	assert_null(strstr(text, "Arithmetic intensity"));
	assert_int_equal(mtr_rl_parse(text, len, back, err, sizeof(err)), 0);
	assert_string_equal(back->missing, r->missing);
	free(text);
	free(back);
	free(r);
}

static char *read_fixture(size_t *len)
{
	FILE *f = fopen(FIXTURE, "re");
	char *buf = malloc(MTR_RL_MAX_FILE);

	assert_non_null(f);
	assert_non_null(buf);
	*len = fread(buf, 1, MTR_RL_MAX_FILE, f);
	fclose(f);
	return buf;
}

/* The Zen fixture: 1 FP counter (slightly multiplexed), 16 DF counters (8 per package,
 * half their time on a counter), each value scaled by enabled / running. */
static void zen_fixture_places_its_point(void **state)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	struct mtr_rl_point p;
	double flops, bytes = 0;
	size_t len;
	char *buf = read_fixture(&len), err[256];

	(void)state;
	assert_int_equal(mtr_rl_parse(buf, len, r, err, sizeof(err)), 0);
	assert_int_equal(r->nceilings, 11);
	assert_int_equal(r->ncounters, 17);
	flops = 41287512346.0 * (2812345678.0 / 2798765432.0);
	for (int i = 1; i < 17; i++) {
		const struct mtr_rl_counter *c = &r->counters[i];

		assert_int_equal(c->role, MTR_RL_DRAM);
		bytes += 64.0 * ((double)c->value * ((double)c->enabled / (double)c->running));
	}
	mtr_rl_point(r, &p);
	assert_true(p.placed);
	assert_true(fabs(p.flops - flops) <= 1e-12 * flops);
	assert_true(fabs(p.dram_bytes - bytes) <= 1e-12 * bytes);
	assert_true(fabs(p.intensity - flops / bytes) <= 1e-12 * p.intensity);
	assert_true(fabs(p.gflops - flops / 2812401234.0) <= 1e-12 * p.gflops);
	free(buf);
	free(r);
}

/* Every prefix of the fixture that is not the whole file is refused, never a crash. */
static void truncated_fixture_is_refused(void **state)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	size_t len;
	char *buf = read_fixture(&len), err[256];

	(void)state;
	for (size_t n = 0; n < len; n++) {
		int ret = mtr_rl_parse(buf, n, r, err, sizeof(err));

		if (ret != -EINVAL)
			fail_msg("a cut at byte %zu of %zu: %d (%s)", n, len, ret, err);
		assert_non_null(strstr(err, "line "));
	}
	free(buf);
	free(r);
}

static void expect_refused(const char *text, const char *what)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	char err[256];
	int ret = mtr_rl_parse(text, strlen(text), r, err, sizeof(err));

	if (ret >= 0 || !strstr(err, what))
		fail_msg("'%s': %d '%s', wanted an error naming '%s'", text, ret, err, what);
	free(r);
}

#define HEAD "Roofline format:,1\n"
#define TAIL "POINT\nPoint missing:,x\n"

static void corrupt_files_are_refused(void **state)
{
	(void)state;
	expect_refused("", "not a roofline file");
	expect_refused("Roofline format:,2\n" TAIL, "format 2");
	expect_refused("System:,x\n" TAIL, "not a roofline file");
	expect_refused(HEAD "CEILINGS\ncompute,P,12,GB/s,,,,,,,,,\n" TAIL, "is in GFLOP/s");
	expect_refused(HEAD "CEILINGS\ncompute,P,-1,GFLOP/s,,,,,,,,,\n" TAIL, "line 3: value");
	expect_refused(HEAD "CEILINGS\ncompute,P,nan,GFLOP/s,,,,,,,,,\n" TAIL, "value");
	expect_refused(HEAD "CEILINGS\ncompute,P,1,GFLOP/s,,,\n" TAIL, "cells, not 13");
	expect_refused(HEAD "COUNTERS\nflops,F,12x,1,1\n" TAIL, "not a whole number");
	expect_refused(HEAD "COUNTERS\nflops,F,99999999999999999999999,1,1\n" TAIL, "out of range");
	expect_refused(HEAD "COUNTERS\nflops,F,1,1,2\n" TAIL, "exceeds time enabled");
	expect_refused(HEAD "COUNTERS\nflops,\"F,1,1,1\n" TAIL, "unclosed quote");
	expect_refused(HEAD "COUNTERS\ncycles,F,1,1,1\n" TAIL, "unexpected 'cycles'");
	expect_refused(HEAD "Roofline format:,1\n" TAIL, "second format");
	expect_refused(HEAD "Elapsed (ns):,-5\n" TAIL, "elapsed time");
	expect_refused(HEAD "POINT\n", "POINT section");
	expect_refused(HEAD "CEILINGS\n", "POINT section");
	expect_refused(HEAD "POINT\nPoint missing:,x", "no newline");
	expect_refused(HEAD "junk\n" TAIL, "line 2: unexpected 'junk'");
	expect_refused(HEAD "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n" TAIL, "more than 16 cells");
}

static void nul_and_long_lines_are_refused(void **state)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	char buf[8192], err[256];
	size_t n;

	(void)state;
	n = (size_t)snprintf(buf, sizeof(buf), "%sSystem:,a", HEAD);
	buf[n - 1] = '\0'; /* a NUL inside the line */
	memcpy(buf + n, "\n" TAIL, sizeof("\n" TAIL));
	assert_int_equal(mtr_rl_parse(buf, n + strlen("\n" TAIL), r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NUL"));
	memcpy(buf, HEAD, strlen(HEAD));
	memset(buf + strlen(HEAD), 'x', 5000);
	memcpy(buf + strlen(HEAD) + 5000, "\n", 1);
	assert_int_equal(mtr_rl_parse(buf, strlen(HEAD) + 5001, r, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "line 2: longer than"));
	assert_int_equal(mtr_rl_parse(buf, MTR_RL_MAX_FILE + 1, r, err, sizeof(err)), -E2BIG);
	free(r);
}

/* CRLF line ends are read; a CR inside a line (which the writer could not write back:
 * it drops CRs from cells) is refused with its line. Found by fuzz_roofline: the key
 * "\r\r" was read, written as "" and then refused. */
static void carriage_returns_only_end_lines(void **state)
{
	static const char crlf[] = "Roofline format:,1\r\nSystem:,a\r\nPOINT\r\n"
				   "Point missing:,x\r\n";
	static const char inner[] = HEAD "\r\r:,a\n" TAIL;
	static const char in_value[] = HEAD "System:,\"a\rb\"\r\n" TAIL;
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	char err[256];

	(void)state;
	assert_int_equal(mtr_rl_parse(crlf, strlen(crlf), r, err, sizeof(err)), 0);
	assert_int_equal(r->nfacts, 1);
	assert_string_equal(r->fact_val[0], "a");
	assert_string_equal(r->missing, "x");
	assert_int_equal(mtr_rl_parse(inner, strlen(inner), r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 2: a carriage return inside the line");
	assert_int_equal(mtr_rl_parse(in_value, strlen(in_value), r, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 2: a carriage return inside the line");
	free(r);
}

static void limits_are_kept(void **state)
{
	struct mtr_roofline *r = calloc(1, sizeof(*r));
	struct mtr_rl_counter c = { .role = MTR_RL_DRAM };
	char *text = malloc(MTR_RL_MAX_FILE), err[256];
	size_t n;

	(void)state;
	for (int i = 0; i < MTR_RL_MAX_COUNTERS; i++)
		assert_int_equal(mtr_rl_add_counter(r, &c), 0);
	assert_int_equal(mtr_rl_add_counter(r, &c), -ENOSPC);
	n = (size_t)snprintf(text, MTR_RL_MAX_FILE, HEAD "COUNTERS\n");
	for (int i = 0; i <= MTR_RL_MAX_COUNTERS; i++)
		n += (size_t)snprintf(text + n, MTR_RL_MAX_FILE - n, "dram,E,1,1,1\n");
	n += (size_t)snprintf(text + n, MTR_RL_MAX_FILE - n, TAIL);
	assert_int_equal(mtr_rl_parse(text, n, r, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "more than 64 counters"));
	free(text);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_is_arithmetic_on_the_counts),
		cmocka_unit_test(point_missing_says_why),
		cmocka_unit_test(file_round_trips),
		cmocka_unit_test(missing_reason_round_trips),
		cmocka_unit_test(zen_fixture_places_its_point),
		cmocka_unit_test(truncated_fixture_is_refused),
		cmocka_unit_test(corrupt_files_are_refused),
		cmocka_unit_test(nul_and_long_lines_are_refused),
		cmocka_unit_test(carriage_returns_only_end_lines),
		cmocka_unit_test(limits_are_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
