// SPDX-License-Identifier: MIT
/*
 * The side-file container (lib/session/container.c) on its own: the writer's bytes, the
 * reader's walk over them, versions (a newer minor read, a newer major refused in one
 * line, the legacy framing of the first files), unknown types skipped and counted, and
 * every cut and corruption of a file in both framings: never a read outside the buffer
 * (each input is copied into a buffer of exactly its length, so ASan sees an over-read),
 * never a walk that does not end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

#include "session_helpers.h"

#define MAGIC "UPTEST01"

/* A kind of two record types, 1 and 2, with a 4-byte field after the prefix. */
static const struct ses_ct_kind kind = {
	.magic = MAGIC, .what = "test", .major = 2, .legacy_major = 1,
	.min_header = SES_CT_PREFIX + 4, .known = 1u << 1 | 1u << 2,
};

/* The file the writer makes: field 0xabcd, records 1 "one", 9 (unknown) "xx", 2 of 300
 * bytes (a flush inside it with a 64-byte buffer), 1 "" */
static unsigned char *written(size_t *len)
{
	char path[128];
	unsigned char big[300];
	uint32_t field = 0xabcd;
	struct ses_ct_writer *w;
	int fd;

	snprintf(path, sizeof(path), "%s/container", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	/* a 64-byte buffer: the 300-byte record does not fit */
	w = ses_ct_writer_new(fd, 64, MAGIC, 2, 3, &field, sizeof(field));
	assert_non_null(w);
	assert_int_equal(ses_ct_writer_add(w, 1, "o", 1, "ne", 2), 0);
	assert_int_equal(ses_ct_writer_add(w, 9, "xx", 2, NULL, 0), 0);
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (unsigned char)i;
	assert_int_equal(ses_ct_writer_add(w, 2, big, sizeof(big), NULL, 0), -E2BIG);
	assert_int_equal(ses_ct_writer_add(w, 1, "", 0, NULL, 0), -E2BIG); /* sticky */
	assert_int_equal(ses_ct_writer_close(w), -E2BIG);

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	w = ses_ct_writer_new(fd, 512, MAGIC, 2, 3, &field, sizeof(field));
	assert_non_null(w);
	assert_int_equal(ses_ct_writer_add(w, 1, "o", 1, "ne", 2), 0);
	assert_int_equal(ses_ct_writer_add(w, 9, "xx", 2, NULL, 0), 0);
	assert_int_equal(ses_ct_writer_add(w, 2, big, 200, big + 200, 100), 0);
	assert_non_null(ses_ct_writer_reserve(w, 1, 0));
	assert_int_equal(ses_ct_writer_close(w), 0);
	return slurp(path, len);
}

static void writer_bytes(void **state)
{
	size_t len;
	unsigned char *b = written(&len);
	uint32_t u32;
	uint16_t u16;

	(void)state;
	assert_int_equal(len, 20 + (8 + 3) + (8 + 2) + (8 + 300) + 8);
	assert_memory_equal(b, MAGIC, 8);
	memcpy(&u16, b + 8, 2);
	assert_int_equal(u16, 2);
	memcpy(&u16, b + 10, 2);
	assert_int_equal(u16, 3);
	memcpy(&u32, b + 12, 4);
	assert_int_equal(u32, 20);
	memcpy(&u32, b + 16, 4);
	assert_int_equal(u32, 0xabcd);
	memcpy(&u32, b + 20, 4);
	assert_int_equal(u32, 1);
	memcpy(&u32, b + 24, 4);
	assert_int_equal(u32, 3);
	assert_memory_equal(b + 28, "one", 3);
	free(b);
}

static void reader_walk(void **state)
{
	size_t len;
	unsigned char *b = written(&len);
	struct ses_ct_reader r;
	struct ses_ct_record rec;
	char err[160];
	uint32_t field;

	(void)state;
	assert_int_equal(ses_ct_open(&r, &kind, b, len, err, sizeof(err)), 0);
	assert_int_equal(r.major, 2);
	assert_int_equal(r.minor, 3); /* a newer minor than any: read */
	assert_false(r.legacy);
	memcpy(&field, ses_ct_fields(&r), 4);
	assert_int_equal(field, 0xabcd);
	assert_int_equal(ses_ct_next(&r, &rec), 1);
	assert_int_equal(rec.type, 1);
	assert_int_equal(rec.len, 3);
	assert_memory_equal(rec.value, "one", 3);
	assert_int_equal(rec.offset, 20);
	assert_int_equal(ses_ct_next(&r, &rec), 1); /* type 9 skipped */
	assert_int_equal(rec.type, 2);
	assert_int_equal(rec.len, 300);
	assert_int_equal(rec.value[299], (unsigned char)299);
	assert_int_equal(rec.offset, 20 + 11 + 10);
	assert_int_equal(ses_ct_next(&r, &rec), 1);
	assert_int_equal(rec.type, 1);
	assert_int_equal(rec.len, 0);
	assert_int_equal(ses_ct_next(&r, &rec), 0);
	assert_int_equal(ses_ct_next(&r, &rec), 0); /* and stays at the end */
	assert_int_equal(r.records, 3);
	assert_int_equal(r.unknown, 1);
	assert_null(r.damage);
	assert_int_equal(r.damaged_at, 0);
	free(b);
}

/* A header that grew (a newer minor's field): records start at header_size. */
static void newer_minor_header_skipped(void **state)
{
	unsigned char b[64], fields[12] = { 1, 2, 3, 4, 9, 9, 9, 9, 9, 9, 9, 9 };
	struct ses_ct_reader r;
	struct ses_ct_record rec;
	size_t n;

	(void)state;
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 2, 1, fields, sizeof(fields));
	assert_int_equal(n, 28);
	n += ses_ct_put_record(b + n, sizeof(b) - n, 2, "ab", 2, NULL, 0);
	assert_int_equal(ses_ct_open(&r, &kind, b, n, NULL, 0), 0);
	assert_int_equal(r.header_size, 28);
	assert_int_equal(ses_ct_next(&r, &rec), 1);
	assert_int_equal(rec.offset, 28);
	assert_memory_equal(rec.value, "ab", 2);
}

static void versions(void **state)
{
	unsigned char b[64];
	struct ses_ct_reader r;
	char err[160];
	size_t n;

	(void)state;
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 3, 0, "abcd", 4);
	assert_int_equal(ses_ct_open(&r, &kind, b, n, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "offset 8: test file format 3.0 is newer than this uprof reads "
				 "(2.x): read it with a newer uprof");
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 0, 9, "abcd", 4);
	assert_int_equal(ses_ct_open(&r, &kind, b, n, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "offset 8: test file format 0.9 is not one this uprof reads (2.x)");
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 1, 0, "abcd", 4);
	assert_int_equal(ses_ct_open(&r, &kind, b, n, err, sizeof(err)), 0);
	assert_true(r.legacy);
	n = ses_ct_put_header(b, sizeof(b), "UPTEST02", 2, 0, "abcd", 4);
	assert_int_equal(ses_ct_open(&r, &kind, b, n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 0: not a uprof test file (no UPTEST01 header)");
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 2, 0, "ab", 2); /* fields short */
	assert_int_equal(ses_ct_open(&r, &kind, b, n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 12: a test header of 18 bytes (20 to 4096 expected)");
	n = ses_ct_put_header(b, sizeof(b), MAGIC, 2, 0, "abcdefgh", 8);
	assert_int_equal(ses_ct_open(&r, &kind, b, n - 1, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 12: a test header of 24 bytes in a file of 23");
	/* the encoders refuse what does not fit and write nothing */
	memset(b, 0x5a, sizeof(b));
	assert_int_equal(ses_ct_put_header(b, 19, MAGIC, 2, 0, "abcd", 4), 0);
	assert_int_equal(ses_ct_put_record(b, 10, 1, "abc", 3, NULL, 0), 0);
	assert_int_equal(b[0], 0x5a);
}

/* The legacy framing: u32 size counts the 8-byte header, a multiple of 8. */
static size_t legacy_image(unsigned char *b, size_t cap)
{
	size_t n = ses_ct_put_header(b, cap, MAGIC, 1, 0, "abcd", 4);
	const uint32_t e1[4] = { 1, 16, 0x64636261, 0 }; /* "abcd", padded */
	const uint32_t e2[2] = { 7, 8 };		  /* unknown, empty */
	const uint32_t e3[6] = { 2, 24, 1, 2, 3, 4 };

	memcpy(b + n, e1, sizeof(e1));
	n += sizeof(e1);
	memcpy(b + n, e2, sizeof(e2));
	n += sizeof(e2);
	memcpy(b + n, e3, sizeof(e3));
	return n + sizeof(e3);
}

static void legacy_framing(void **state)
{
	unsigned char b[128];
	size_t n = legacy_image(b, sizeof(b));
	struct ses_ct_reader r;
	struct ses_ct_record rec;
	uint32_t v = 12;

	(void)state;
	assert_int_equal(ses_ct_open(&r, &kind, b, n, NULL, 0), 0);
	assert_int_equal(ses_ct_next(&r, &rec), 1);
	assert_int_equal(rec.type, 1);
	assert_int_equal(rec.len, 8); /* the value with its padding */
	assert_memory_equal(rec.value, "abcd", 4);
	assert_int_equal(ses_ct_next(&r, &rec), 1);
	assert_int_equal(rec.type, 2);
	assert_int_equal(rec.len, 16);
	assert_int_equal(rec.offset, 20 + 16 + 8);
	assert_int_equal(ses_ct_next(&r, &rec), 0);
	assert_int_equal(r.unknown, 1);
	assert_null(r.damage);
	memcpy(b + 20 + 4, &v, 4); /* a size not a multiple of 8 */
	assert_int_equal(ses_ct_open(&r, &kind, b, n, NULL, 0), 0);
	assert_int_equal(ses_ct_next(&r, &rec), 0);
	assert_string_equal(r.damage, "impossible entry size");
	assert_int_equal(r.damaged_at, 20);
}

/* Does a record end at @cut of @b (@len bytes, header @hs, framing @legacy)? */
static bool on_boundary(const unsigned char *b, size_t len, size_t hs, bool legacy, size_t cut)
{
	size_t pos = hs;
	uint32_t n;

	while (pos < cut && pos + 8 <= len) {
		memcpy(&n, b + pos + 4, 4);
		pos += legacy ? n : 8 + (size_t)n;
	}
	return pos == cut;
}

/* Every cut of @b: refused inside the header; past it, records up to the cut, the cut
 * said unless it falls between records. */
static void cut_everywhere(const unsigned char *b, size_t len, size_t hs, bool legacy)
{
	for (size_t cut = 0; cut <= len; cut++) {
		unsigned char *c = dup_exact(b, cut);
		struct ses_ct_reader r;
		struct ses_ct_record rec;
		size_t walked = 0;

		if (cut < hs) {
			assert_int_equal(ses_ct_open(&r, &kind, c, cut, NULL, 0), -EINVAL);
			free(c);
			continue;
		}
		assert_int_equal(ses_ct_open(&r, &kind, c, cut, NULL, 0), 0);
		while (ses_ct_next(&r, &rec)) {
			assert_true(rec.value + rec.len <= c + cut);
			walked++;
		}
		assert_true(walked <= 3);
		if (on_boundary(b, len, hs, legacy, cut)) {
			assert_null(r.damage);
		} else {
			assert_non_null(r.damage);
			assert_true(r.damaged_at >= hs && r.damaged_at < cut);
		}
		free(c);
	}
}

static void truncated(void **state)
{
	size_t len;
	unsigned char *b = written(&len), l[128];

	(void)state;
	cut_everywhere(b, len, 20, false);
	cut_everywhere(l, legacy_image(l, sizeof(l)), 20, true);
	free(b);
}

/* Bytes of the records overwritten with noise, over and over: every walk ends, inside
 * the buffer, after at most one record per 8 bytes. */
static void corrupted(void **state)
{
	size_t len;
	unsigned char *b = written(&len), l[128];
	size_t llen = legacy_image(l, sizeof(l));
	uint32_t seed = 12345;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		bool leg = i & 1;
		size_t n = leg ? llen : len;
		unsigned char *c = dup_exact(leg ? l : b, n);
		struct ses_ct_reader r;
		struct ses_ct_record rec;
		size_t walked = 0;

		for (int k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			c[20 + (seed >> 8) % (n - 20)] = (unsigned char)(seed >> 24);
		}
		if (i % 7 == 0) /* a length of all ones */
			memset(c + 20 + 4, 0xff, 4);
		assert_int_equal(ses_ct_open(&r, &kind, c, n, NULL, 0), 0);
		while (ses_ct_next(&r, &rec)) {
			assert_true(rec.value >= c + 20 && rec.value + rec.len <= c + n);
			walked++;
		}
		assert_true(walked + r.unknown <= (n - 20) / 8);
		if (i % 7 == 0)
			assert_string_equal(r.damage, leg ? "impossible entry size"
							  : "entry runs past the end of the file");
		free(c);
	}
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_bytes),
		cmocka_unit_test(reader_walk),
		cmocka_unit_test(newer_minor_header_skipped),
		cmocka_unit_test(versions),
		cmocka_unit_test(legacy_framing),
		cmocka_unit_test(truncated),
		cmocka_unit_test(corrupted),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
