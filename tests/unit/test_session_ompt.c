// SPDX-License-Identifier: MIT
/*
 * lib/session/openmp.c: the openmp/<pid>.ompt codec. A file written by the writer reads
 * back field by field; the same bytes cut at every length read up to their last whole
 * entry and say where they were cut; corrupted headers are refused with the offset,
 * corrupted entries stop the reading there; unknown kinds, fields and entry types are
 * skipped. Each image is copied into a buffer of exactly its length, so an over-read
 * shows up under SANITIZE=1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"
#include "session_at.h"

static char dir[64];
static unsigned char *img;
static size_t img_len;

static const struct ses_ompt_record recs[] = {
	{ 94000000001234ULL, 0, SES_OMPT_SITE, SES_OMPT_SITE_PARALLEL, 7, 0 },
	{ 94000000005678ULL, 0, SES_OMPT_SITE, SES_OMPT_SITE_CRITICAL, 9, 0 },
	{ 1000, 101, SES_OMPT_BEGIN, 0, 7, 0 },
	{ 1900, 101, SES_OMPT_END, 0, 7, 0 },
	{ 3, 101, SES_OMPT_VALUE, SES_OMPT_F_ITASKS, 7, 1 },
	{ 900, 101, SES_OMPT_VALUE, SES_OMPT_F_SPAN, 7, 1 },
	{ 2, 102, SES_OMPT_VALUE, SES_OMPT_F_ACQUIRES, 9, 2 },
	{ 201611, 0, SES_OMPT_RUNTIME, 0, 0, 1 },
	{ 5, 101, 99, 0, 7, 1 },		     /* a kind of a newer writer: skipped */
	{ 5, 101, SES_OMPT_VALUE, 63, 7, 1 },	     /* a field it may add: kept */
	{ 5, 101, SES_OMPT_VALUE, SES_OMPT_F_MAX, 7, 1 }, /* past every field: skipped */
	/* target offload: kept in file order, fields as written */
	{ 94000000009999ULL, 0, SES_OMPT_SITE, SES_OMPT_SITE_TARGET, 11, 0 },
	{ 5000, 101, SES_OMPT_TARGET_BEGIN, SES_OMPT_TGT_REGION, 11, 0 },
	{ 5100, 101, SES_OMPT_DATA_BEGIN, SES_OMPT_DATA_TO, 11, 0x10005 },
	{ 8000, 101, SES_OMPT_DATA_BYTES, SES_OMPT_DATA_TO, 11, 0x10005 },
	{ 5300, 101, SES_OMPT_DATA_END, SES_OMPT_DATA_TO, 11, 0x10005 },
	{ 5900, 101, SES_OMPT_TARGET_END, SES_OMPT_TGT_REGION, 11, 0 },
	{ 4000, 0, SES_OMPT_DEVICE, SES_OMPT_DEV_INIT, 0, 2 },
	{ 4001, 0, SES_OMPT_DEVICE, SES_OMPT_DEV_TRACING, 0, 0 },
	{ 4501, 0, SES_OMPT_DEV_BEGIN, SES_OMPT_DEVREC_KERNEL, 0, 77 },
	{ 4, 0, SES_OMPT_DEV_BYTES, SES_OMPT_DEVREC_KERNEL, 0, 77 },
	{ 4801, 0, SES_OMPT_DEV_END, SES_OMPT_DEVREC_KERNEL, 0, 77 },
};

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat sb;

	assert_non_null(f);
	assert_int_equal(fstat(fileno(f), &sb), 0);
	img_len = (size_t)sb.st_size;
	img = malloc(img_len);
	assert_int_equal(fread(img, 1, img_len, f), img_len);
	fclose(f);
}

static int setup(void **state)
{
	struct ses_ompt_writer *w;
	char path[128];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_ompt.XXXXXX");
	assert_non_null(mkdtemp(dir));
	w = test_ompt_writer_open(dir, 4242, SES_OMPT_IMPL_OMPLIB, SES_OMPT_SCOPE_FULL);
	assert_non_null(w);
	assert_int_equal(ses_ompt_write_string(w, 1, "LLVM OMP version: 5.0", 21), 0);
	assert_int_equal(ses_ompt_write_string(w, 2, "generic-64bit", 13), 0);
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		assert_int_equal(ses_ompt_write_record(w, &recs[i]), 0);
	assert_int_equal(ses_ompt_write_dropped(w, 17), 0);
	assert_int_equal(ses_ompt_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/openmp/4242.ompt", dir);
	load(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/openmp", dir);
	rmdir(path);
	rmdir(dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(img);
	return 0;
}

static int parse_copy(size_t len, struct ses_ompt *o, char *err, size_t errlen)
{
	unsigned char *c = malloc(len ? len : 1);
	int ret;

	memcpy(c, img, len);
	ret = ses_ompt_parse(c, len, o, err, errlen);
	free(c);
	return ret;
}

static void round_trip(void **state)
{
	struct ses_ompt o;
	char err[128];

	(void)state;
	assert_int_equal(parse_copy(img_len, &o, err, sizeof(err)), 0);
	assert_int_equal(o.pid, 4242);
	assert_int_equal(o.impl, SES_OMPT_IMPL_OMPLIB);
	assert_int_equal(o.scope, SES_OMPT_SCOPE_FULL);
	assert_true(o.has_runtime);
	assert_int_equal(o.omp_version, 201611);
	assert_string_equal(o.runtime, "LLVM OMP version: 5.0");
	assert_int_equal(o.nsites, 3);
	assert_int_equal(o.sites[2].kind, SES_OMPT_SITE_TARGET);
	assert_int_equal(o.ntargets, 10);
	assert_int_equal(o.targets[0].kind, SES_OMPT_TARGET_BEGIN);
	assert_int_equal(o.targets[2].kind, SES_OMPT_DATA_BYTES);
	assert_int_equal(o.targets[2].value, 8000);
	assert_int_equal(o.targets[2].slot, 0x10005);
	assert_int_equal(o.targets[3].how, SES_OMPT_DATA_TO);
	assert_int_equal(o.targets[5].how, SES_OMPT_DEV_INIT);
	assert_int_equal(o.targets[9].kind, SES_OMPT_DEV_END);
	assert_int_equal(o.targets[9].value, 4801);
	assert_int_equal(o.targets[9].slot, 77);
	assert_string_equal(ses_ompt_string(&o, 2), "generic-64bit");
	assert_null(ses_ompt_string(&o, 3));
	assert_null(ses_ompt_string(&o, 0));
	assert_int_equal(o.sites[0].id, 7);
	assert_int_equal(o.sites[0].code, 94000000001234ULL);
	assert_int_equal(o.sites[1].kind, SES_OMPT_SITE_CRITICAL);
	assert_int_equal(o.nevents, 2);
	assert_int_equal(o.events[1].kind, SES_OMPT_END);
	assert_int_equal(o.events[1].value, 1900);
	assert_int_equal(o.events[1].tid, 101);
	assert_int_equal(o.nvalues, 4); /* field 63 kept, SES_OMPT_F_MAX and kind 99 not */
	assert_int_equal(o.values[1].how, SES_OMPT_F_SPAN);
	assert_int_equal(o.values[1].value, 900);
	assert_int_equal(o.values[2].slot, 2);
	assert_int_equal(o.values[3].how, 63);
	assert_int_equal(o.dropped_records, 17);
	assert_int_equal(o.damaged_at, 0);
	ses_ompt_release(&o);
}

/* Does a record of the image end at @len (its header's end included)? */
static bool on_boundary(size_t len)
{
	size_t pos = 24;
	uint32_t n;

	while (pos < len && pos + 8 <= img_len) {
		memcpy(&n, img + pos + 4, 4);
		pos += 8 + n;
	}
	return pos == len;
}

/* Every cut: the header refused with offset 0 or 12, or a clean read of whole records up
 * to the cut, the cut said unless it falls between records. */
static void truncated(void **state)
{
	size_t prev_records = 0;

	(void)state;
	for (size_t len = 0; len <= img_len; len++) {
		struct ses_ompt o;
		char err[128] = "";
		int ret = parse_copy(len, &o, err, sizeof(err));

		if (len < 24) {
			assert_int_equal(ret, -EINVAL);
			assert_non_null(strstr(err, len < 16 ? "offset 0" : "offset 12"));
			continue;
		}
		assert_int_equal(ret, 0);
		assert_true(o.nevents + o.nvalues + o.nsites + o.ntargets >= prev_records);
		prev_records = o.nevents + o.nvalues + o.nsites + o.ntargets;
		if (!on_boundary(len))
			assert_true(o.damaged_at >= 24 && o.damaged_at < len && o.damage);
		else
			assert_true(o.damaged_at == 0 && !o.damage);
		if (len == img_len)
			assert_int_equal(o.ntargets, 10);
		ses_ompt_release(&o);
	}
}

static void bad_header(void **state)
{
	struct ses_ompt o;
	char err[128];
	uint32_t v = 3;

	(void)state;
	img[0] ^= 1;
	assert_int_equal(parse_copy(img_len, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "offset 0"));
	img[0] ^= 1;
	memcpy(img + 8, &v, 4);
	assert_int_equal(parse_copy(img_len, &o, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "offset 8: OpenMP file format 3.0 is newer than this uprof reads "
				 "(2.x): read it with a newer uprof");
	v = 2;
	memcpy(img + 8, &v, 4);
}

/* A record length too small for its string, or past the end, stops the reading at that
 * record; what came before it is kept. */
static void corrupted_entries(void **state)
{
	static const uint32_t sizes[] = { 0, 7, 12, 20, 0x7ffffff8 };
	size_t first = 24, second;
	uint32_t size;

	(void)state;
	memcpy(&size, img + first + 4, 4);
	second = first + 8 + size; /* the second record: a string of 13 bytes */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct ses_ompt o;
		char err[128];
		uint32_t keep;

		memcpy(&keep, img + second + 4, 4);
		memcpy(img + second + 4, &sizes[i], 4);
		assert_int_equal(parse_copy(img_len, &o, err, sizeof(err)), 0);
		assert_int_equal(o.damaged_at, second);
		assert_int_equal(o.nsites + o.nvalues + o.nevents + o.ntargets, 0);
		assert_string_equal(o.runtime, ""); /* its record came later */
		ses_ompt_release(&o);
		memcpy(img + second + 4, &keep, 4);
	}
}

/* A string longer than its entry, and one over the limit, stop the reading. */
static void bad_string(void **state)
{
	struct ses_ompt o;
	char err[128];
	uint32_t keep, big = 1000;

	(void)state;
	memcpy(&keep, img + 24 + 12, 4);
	memcpy(img + 24 + 12, &big, 4);
	assert_int_equal(parse_copy(img_len, &o, err, sizeof(err)), 0);
	assert_int_equal(o.damaged_at, 24);
	assert_non_null(strstr(o.damage, "string"));
	ses_ompt_release(&o);
	memcpy(img + 24 + 12, &keep, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),	     cmocka_unit_test(truncated),
		cmocka_unit_test(bad_header),	     cmocka_unit_test(corrupted_entries),
		cmocka_unit_test(bad_string),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
