// SPDX-License-Identifier: MIT
/*
 * translated.bin's format (lib/unwind/translated.c): a round trip of what the writer
 * notes, the writer's refusals, and a file cut at every length, with every byte flipped,
 * or damaged behind a good checksum refused whole.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind.h"

/* ---- the format ---- */

static const struct rpt_tr_key KEY = { 1234, 5, 6, 0xabcdef, 0x777, 0 };

/* A file of three entries (noted out of order) and two module files. */
static unsigned char *sample_file(size_t *len)
{
	struct rpt_tr_writer w = { 0 };
	uint64_t pcs[40];
	bool act[40];
	struct rpt_tr_file files[2] = { { .path = "/usr/lib/libc.so.6", .size = 99, .ino = 7 },
					{ .path = "vdso.so", .missing = true } };
	unsigned char *buf;

	for (int i = 0; i < 40; i++)
		pcs[i] = 0x1000 + (uint64_t)i * 16, act[i] = i % 3 == 0;
	assert_int_equal(rpt_tr_writer_note(&w, 9, 16, 3, pcs, act, 0), 0);
	assert_int_equal(rpt_tr_writer_note(&w, 2, 40, 40, pcs, act, 1), 0);
	assert_int_equal(rpt_tr_writer_note(&w, 5, 16, 0, pcs, act, 2), 0);
	assert_int_equal(rpt_tr_serialize(&w, &KEY, files, 2, &buf, len), 0);
	rpt_tr_writer_release(&w);
	return buf;
}

static void round_trip(void **state)
{
	size_t len;
	unsigned char *buf = sample_file(&len);
	struct rpt_tr *t;
	uint64_t pcs[64];
	bool act[64];
	int end = -1;

	(void)state;
	assert_int_equal(rpt_tr_parse(buf, len, &t, NULL, 0), 0);
	assert_memory_equal(&t->key, &KEY, sizeof(KEY));
	assert_int_equal(t->nfiles, 2);
	assert_string_equal(t->files[0].path, "/usr/lib/libc.so.6");
	assert_int_equal(t->files[0].size, 99);
	assert_int_equal(t->files[0].ino, 7);
	assert_true(t->files[1].missing);
	assert_int_equal(t->nentries, 3);
	assert_int_equal(rpt_tr_lookup(t, 2, 40, pcs, act, &end), 40);
	assert_int_equal(end, 1);
	for (int i = 0; i < 40; i++) {
		assert_int_equal(pcs[i], 0x1000 + (uint64_t)i * 16);
		assert_int_equal(act[i], i % 3 == 0);
	}
	assert_int_equal(rpt_tr_lookup(t, 9, 16, pcs, act, &end), 3);
	assert_int_equal(end, 0);
	assert_int_equal(rpt_tr_lookup(t, 5, 16, pcs, act, &end), 0);
	assert_int_equal(end, 2);
	assert_int_equal(rpt_tr_lookup(t, 9, 17, pcs, act, &end), -1); /* another limit */
	assert_int_equal(rpt_tr_lookup(t, 3, 16, pcs, act, &end), -1); /* none */
	assert_int_equal(rpt_tr_lookup(t, 10, 16, pcs, act, &end), -1);
	rpt_tr_free(t);
}

static void writer_refuses(void **state)
{
	struct rpt_tr_writer w = { 0 };
	uint64_t pcs[2] = { 1, 2 };
	bool act[2] = { true, false };
	unsigned char *buf;
	size_t len;

	(void)state;
	assert_int_equal(rpt_tr_writer_note(&w, 1, 1, 2, pcs, act, 0), -EINVAL); /* n > max */
	assert_int_equal(rpt_tr_writer_note(&w, 1, 2, 2, pcs, act, 3), -EINVAL); /* end */
	assert_int_equal(rpt_tr_writer_note(&w, 1, 2, 2, pcs, act, 0), 0);
	assert_int_equal(rpt_tr_writer_note(&w, 1, 2, 2, pcs, act, 0), 0);
	assert_int_equal(rpt_tr_serialize(&w, &KEY, NULL, 0, &buf, &len), -EINVAL); /* twice */
	rpt_tr_writer_release(&w);
}

static void truncated_every_length(void **state)
{
	size_t len;
	unsigned char *buf = sample_file(&len);

	(void)state;
	for (size_t n = 0; n < len; n++) {
		unsigned char *cut = malloc(n ? n : 1);
		struct rpt_tr *t = (struct rpt_tr *)1;
		char why[128] = "";

		memcpy(cut, buf, n);
		assert_int_equal(rpt_tr_parse(cut, n, &t, why, sizeof(why)), -EBADMSG);
		assert_null(t);
		assert_true(why[0]);
	}
	free(buf);
}

static void flipped_every_byte(void **state)
{
	size_t len;
	unsigned char *buf = sample_file(&len);

	(void)state;
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit += 7) {
			unsigned char *c = malloc(len);
			struct rpt_tr *t;
			char why[128] = "";
			int ret;

			memcpy(c, buf, len);
			c[i] ^= (unsigned char)(1u << bit);
			ret = rpt_tr_parse(c, len, &t, why, sizeof(why));
			/* the version field says so; anything else is damage */
			if (i >= 8 && i < 12)
				assert_int_equal(ret, -EPROTO);
			else
				assert_int_equal(ret, -EBADMSG);
			assert_true(why[0]);
		}
	}
	free(buf);
}

/* A body that passes the checksum but not the checks: rewritten with a fresh hash. */
static int parse_rehashed(unsigned char *buf, size_t len, char *why, size_t wl)
{
	struct rpt_tr *t;
	uint64_t h = rpt_tr_hash(RPT_TR_HASH0, buf + RPT_TR_PREAMBLE, len - RPT_TR_PREAMBLE);
	int ret;

	memcpy(buf + 24, &h, 8);
	ret = rpt_tr_parse(buf, len, &t, why, wl);
	if (!ret)
		rpt_tr_free(t);
	return ret;
}

static void checked_past_checksum(void **state)
{
	/* offsets in the body: key 48, counts 8, then the files */
	const size_t counts = RPT_TR_PREAMBLE + 48, files = counts + 8;
	const size_t entries = files + 48 + 18 + 48 + 7; /* the two files' records */
	struct { size_t at; uint64_t v; size_t n; const char *what; } bad[] = {
		{ counts, 1u << 30, 4, "nfiles past the file" },
		{ counts + 4, 1u << 30, 4, "nentries past the file" },
		{ files, 0, 2, "an empty path" },
		{ files, 5000, 2, "a path longer than the file" },
		{ files + 2, 2, 1, "missing neither 0 nor 1" },
		{ entries + 4, 2, 2, "n above max (entry 0: seq 2, max 40, n 40)" },
		{ entries, 9, 4, "seqs not increasing" },
		{ entries + 8, 3, 1, "an end past RPT_UNWIND_FAILED" },
		{ entries + 4, 2000, 2, "a max past 1026 frames" },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		size_t len;
		unsigned char *buf = sample_file(&len);
		char why[128] = "";

		memcpy(buf + bad[k].at, &bad[k].v, bad[k].n);
		print_message("%s\n", bad[k].what);
		assert_int_equal(parse_rehashed(buf, len, why, sizeof(why)), -EBADMSG);
		assert_true(why[0]);
	}
	{	/* an embedded NUL in a path */
		size_t len;
		unsigned char *buf = sample_file(&len);

		buf[files + 48 + 3] = 0;
		assert_int_equal(parse_rehashed(buf, len, NULL, 0), -EBADMSG);
	}
	{	/* bytes past the last entry, counted in the header's length */
		size_t len;
		unsigned char *buf = sample_file(&len), *g = realloc(buf, len + 1);
		uint64_t body = len + 1 - RPT_TR_PREAMBLE;

		g[len] = 0;
		memcpy(g + 16, &body, 8);
		assert_int_equal(parse_rehashed(g, len + 1, NULL, 0), -EBADMSG);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(writer_refuses),
		cmocka_unit_test(truncated_every_length),
		cmocka_unit_test(flipped_every_byte),
		cmocka_unit_test(checked_past_checksum),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
