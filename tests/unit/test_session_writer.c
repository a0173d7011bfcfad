// SPDX-License-Identifier: MIT
/* lib/session unit tests, part 4: the samples.data writer (large streams, write errors,
 * an attr without a size). Images to compare with come from sample_image.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/internal.h"
#include "session/session.h"

#include "session_helpers.h"

#include "sample_image.h"
#include "session_at.h"

/* More than the writer's buffer in one go and in many small writes. */
static void samples_writer_large_stream(void **state)
{
	enum { N = 12000 }; /* 12000 * 56 bytes: more than the 256 KiB buffer */
	struct perf_event_attr a = mk_attr(ST_ALL, 1);
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256];
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct ses_writer *w;
	struct image one;
	unsigned char *big;
	size_t n = 0, rec_len;

	(void)state;
	img_header(&one);
	img_sample(&one, ST_ALL, 0, &samples1[0]);
	rec_len = one.len - SES_PIPE_HDR_SIZE;
	big = malloc(N * rec_len);
	assert_non_null(big);
	for (size_t i = 0; i < N; i++)
		memcpy(big + i * rec_len, one.b + SES_PIPE_HDR_SIZE, rec_len);
	subdir(dir, sizeof(dir), "large");
	w = test_writer_open(dir);
	assert_non_null(w);
	assert_int_equal(ses_writer_add_attr(w, &a, ids1, 1), 0);
	assert_int_equal(ses_writer_write(w, big, N * rec_len), 0);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(ses_writer_write(w, big, rec_len), 0);
	assert_int_equal(ses_writer_close(w), 0);
	free(big);
	snprintf(path, sizeof(path), "%s/%s", dir, SES_DATA_FILE);
	assert_int_equal(ses_reader_open_file(&r, path, err, sizeof(err)), 0);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
		assert_int_equal(s.ip, samples1[0].ip);
		n++;
	}
	assert_int_equal(n, 2 * N);
	assert_int_equal(ses_reader_damage(r, NULL), 0);
	ses_reader_free(r);
}

static void samples_writer_errors(void **state)
{
	static uint64_t ids[8192];
	struct perf_event_attr a = mk_attr(ST_ALL, 1);
	char dir[PATH_MAX];
	struct ses_writer *w;

	(void)state;
	errno = 0;
	assert_null(ses_writer_open(-1)); /* no directory fd */
	assert_int_equal(errno, EINVAL);
	subdir(dir, sizeof(dir), "writer_errors");
	w = test_writer_open(dir);
	assert_non_null(w);
	/* a HEADER_ATTR's size is 16 bits */
	assert_int_equal(ses_writer_add_attr(w, &a, ids, ARRAY_SIZE(ids)), -E2BIG);
	assert_int_equal(ses_writer_bytes(w), SES_PIPE_HDR_SIZE);
	assert_int_equal(ses_writer_close(w), 0);
	assert_int_equal(ses_writer_close(NULL), 0);
}

/*
 * attr.size 0 means "the whole struct" to the writer; the record must then still say
 * its size, or the reader rejects the attr and everything after it. (Was a bug: the
 * writer copied size 0 into the file.)
 */
static void samples_writer_attr_size_zero(void **state)
{
	struct perf_event_attr a = mk_attr(ST_ALL, 777);
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256];
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct ses_writer *w;
	struct image im;

	(void)state;
	img_header(&im);
	img_sample(&im, ST_ALL, PERF_RECORD_MISC_USER, &samples1[0]);
	subdir(dir, sizeof(dir), "attr_size_zero");
	w = test_writer_open(dir);
	assert_non_null(w);
	a.size = PERF_ATTR_SIZE_VER0 - 8;
	assert_int_equal(ses_writer_add_attr(w, &a, ids1, 1), -EINVAL);
	a.size = 0;
	assert_int_equal(ses_writer_add_attr(w, &a, ids1, 1), 0);
	assert_int_equal(a.size, 0); /* borrowed: not changed */
	assert_int_equal(ses_writer_write(w, im.b + SES_PIPE_HDR_SIZE,
					  im.len - SES_PIPE_HDR_SIZE), 0);
	assert_int_equal(ses_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, SES_DATA_FILE);
	assert_int_equal(ses_reader_open_file(&r, path, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_nattrs(r), 1);
	assert_int_equal(ses_reader_attr(r, 0)->size, sizeof(a));
	assert_int_equal(ses_reader_attr(r, 0)->sample_period, 777);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
	assert_sample_eq(&s, &samples1[0], 0);
	assert_int_equal(ses_reader_next(r, &rec), 0);
	assert_int_equal(ses_reader_damage(r, NULL), 0);
	ses_reader_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_writer_large_stream),
		cmocka_unit_test(samples_writer_errors),
		cmocka_unit_test(samples_writer_attr_size_zero),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
