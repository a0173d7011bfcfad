// SPDX-License-Identifier: MIT
/*
 * Tests for lib/session, part 2: reading samples.data (reader.c; writer round trip); part 1,
 * session.ini, is test_session_info.c; the writer alone is test_session_writer.c.
 * Files go to a mkdtemp() directory; samples.data images are also built byte by byte
 * here, so the reader is checked against the format itself and not only against our
 * own writer. Every cut or damaged image is copied into a buffer of exactly its length,
 * so an over-read shows up under `make check SANITIZE=1`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
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

/* The reference file: attr, COMM, MMAP2, three samples, a round marker. */
static void img_reference(struct image *im)
{
	struct perf_event_attr a = mk_attr(ST_ALL, 1000000);

	img_header(im);
	img_attr(im, &a, ids1, ARRAY_SIZE(ids1));
	img_comm(im, 100, 101, "worker-thread", 4000, 41);
	img_mmap2(im, 100, 101, 0x400000, "/usr/bin/prog", 4001, 42);
	for (size_t i = 0; i < ARRAY_SIZE(samples1); i++)
		img_sample(im, ST_ALL, samples1[i].cpumode, &samples1[i]);
	img_round(im);
}

/* Copy @len bytes of @im into an exact buffer and open it; 0 or the error. */
static int open_copy(const struct image *im, size_t len, struct ses_reader **r, void **copy,
		     char *err, size_t errlen)
{
	*copy = dup_exact(im->b, len);
	err[0] = 0;
	return ses_reader_open_mem(r, *copy, len, err, errlen);
}

/* Check a reader of the reference image record by record. */
static void check_reference(struct ses_reader *r, const struct image *im)
{
	const struct perf_event_attr *a;
	struct ses_sample_id sid;
	struct ses_record rec;
	struct ses_sample s;
	size_t ns = 0;
	const char *why = "unset";

	for (size_t i = 0; i < im->nrec; i++) {
		assert_int_equal(ses_reader_next(r, &rec), 1);
		assert_int_equal(rec.offset, im->rec[i].off);
		assert_int_equal(rec.type, im->rec[i].type);
		assert_int_equal(rec.size, im->rec[i].size);
		switch (rec.type) {
		case SES_RECORD_HEADER_ATTR:
			assert_int_equal(ses_reader_nattrs(r), 1);
			break;
		case PERF_RECORD_COMM:
			assert_int_equal(ses_reader_sample_id(r, &rec, &sid), 0);
			assert_true(sid.valid);
			assert_int_equal(sid.pid, 100);
			assert_int_equal(sid.tid, 101);
			assert_int_equal(sid.time, 4000);
			assert_string_equal((const char *)rec.data + 16, "worker-thread");
			break;
		case PERF_RECORD_MMAP2:
			assert_int_equal(ses_reader_sample_id(r, &rec, &sid), 0);
			assert_true(sid.valid);
			assert_int_equal(sid.pid, 100);
			assert_int_equal(sid.tid, 101);
			assert_int_equal(sid.time, 4001);
			assert_int_equal(rec.misc, PERF_RECORD_MISC_USER);
			break;
		case PERF_RECORD_SAMPLE:
			assert_true(ns < ARRAY_SIZE(samples1));
			assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
			assert_sample_eq(&s, &samples1[ns++], 0);
			break;
		default:
			assert_int_equal(rec.type, SES_RECORD_FINISHED_ROUND);
			assert_int_equal(ses_reader_sample(r, &rec, &s), -EINVAL);
		}
	}
	assert_int_equal(ns, ARRAY_SIZE(samples1));
	assert_int_equal(ses_reader_next(r, &rec), 0);
	assert_int_equal(ses_reader_next(r, &rec), 0);
	assert_int_equal(ses_reader_damage(r, &why), 0);
	assert_null(why);
	a = ses_reader_attr(r, 0);
	assert_non_null(a);
	assert_int_equal(a->sample_type, ST_ALL);
	assert_int_equal(a->sample_period, 1000000);
	assert_int_equal(a->sample_id_all, 1);
	assert_int_equal(a->size, sizeof(*a));
	assert_null(ses_reader_attr(r, 1));
}

/* Write the reference records through ses_writer_* into @dir. */
static void write_reference(const char *dir, const struct image *im)
{
	struct perf_event_attr a = mk_attr(ST_ALL, 1000000);
	size_t body = im->rec[1].off;	/* the records after the attr */
	struct ses_writer *w = test_writer_open(dir);

	assert_non_null(w);
	assert_int_equal(ses_writer_add_attr(w, &a, ids1, ARRAY_SIZE(ids1)), 0);
	/* a partial flush in between must not change what ends up in the file */
	assert_int_equal(ses_writer_write(w, im->b + body, im->rec[3].off - body), 0);
	assert_int_equal(ses_writer_flush(w), 0);
	assert_int_equal(ses_writer_write(w, im->b + im->rec[3].off, im->len - im->rec[3].off), 0);
	assert_int_equal(ses_writer_bytes(w), im->len);
	assert_int_equal(ses_writer_close(w), 0);
}

static void samples_writer_reader_round_trip(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256] = "";
	struct ses_reader *r;
	struct image im;
	unsigned char *file;
	size_t len;

	(void)state;
	img_reference(&im);
	subdir(dir, sizeof(dir), "round_trip");
	write_reference(dir, &im);
	snprintf(path, sizeof(path), "%s/%s", dir, SES_DATA_FILE);
	file = slurp(path, &len);
	assert_int_equal(len, im.len);
	assert_memory_equal(file, im.b, len); /* the writer writes exactly the format */
	free(file);
	if (ses_reader_open_file(&r, path, err, sizeof(err)))
		fail_msg("ses_reader_open_file: %s", err);
	check_reference(r, &im);
	ses_reader_free(r);
	ses_reader_free(NULL);
}

static void samples_reader_open_file_errors(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256] = "";
	struct ses_reader *r = (struct ses_reader *)1;
	int fd;

	(void)state;
	subdir(dir, sizeof(dir), "open_errors");
	snprintf(path, sizeof(path), "%s/missing.data", dir);
	assert_int_equal(ses_reader_open_file(&r, path, err, sizeof(err)), -ENOENT);
	assert_null(r);
	assert_int_equal(ses_reader_open_file(&r, dir, err, sizeof(err)), -SES_ENOTREG);
	assert_string_equal(err, "is a directory, not a regular file");
	snprintf(path, sizeof(path), "%s/empty.data", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ses_reader_open_file(&r, path, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "too short"));
	assert_null(r);
}

/* Records a reader returns from @len bytes of @im; checks each is whole. */
static size_t count_whole(const struct image *im, size_t len, uint64_t *damage)
{
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct ses_sample_id sid;
	const char *why = NULL;
	char err[256];
	void *copy;
	size_t n = 0;
	int ret;

	assert_int_equal(open_copy(im, len, &r, &copy, err, sizeof(err)), 0);
	while ((ret = ses_reader_next(r, &rec)) == 1) {
		assert_true(n < im->nrec);
		assert_int_equal(rec.offset, im->rec[n].off);
		assert_int_equal(rec.size, im->rec[n].size);
		assert_true(rec.offset + rec.size <= len);
		if (rec.type == PERF_RECORD_SAMPLE) {
			assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
		} else if (rec.type == PERF_RECORD_COMM || rec.type == PERF_RECORD_MMAP2) {
			assert_int_equal(ses_reader_sample_id(r, &rec, &sid), 0);
			assert_true(sid.valid);
		}
		n++;
	}
	assert_int_equal(ret, 0);
	*damage = ses_reader_damage(r, &why);
	assert_true(*damage ? why != NULL : why == NULL);
	ses_reader_free(r);
	free(copy);
	return n;
}

static void samples_truncated_everywhere(void **state)
{
	struct image im;

	(void)state;
	img_reference(&im);
	for (size_t cut = 0; cut <= im.len; cut++) {
		struct ses_reader *r;
		char err[256];
		void *copy;
		uint64_t damage;
		size_t whole = 0, n;

		if (cut < SES_PIPE_HDR_SIZE) {
			assert_int_equal(open_copy(&im, cut, &r, &copy, err, sizeof(err)),
					 -EINVAL);
			assert_null(r);
			assert_non_null(strstr(err, "offset 0"));
			free(copy);
			continue;
		}
		while (whole < im.nrec && im.rec[whole].off + im.rec[whole].size <= cut)
			whole++;
		n = count_whole(&im, cut, &damage);
		assert_int_equal(n, whole);
		if (whole == im.nrec || im.rec[whole].off == cut)
			assert_int_equal(damage, 0);	/* cut between records */
		else
			assert_int_equal(damage, im.rec[whole].off); /* the cut record */
	}
}

/* Overwrite the size field of record @i with @size; return the image. */
static void set_size(struct image *im, size_t i, uint16_t size)
{
	memcpy(im->b + im->rec[i].off + 6, &size, sizeof(size));
}

static void samples_bad_record_size(void **state)
{
	static const struct {
		int line;
		uint16_t size;
		const char *why;
	} t[] = {
		{ __LINE__, 0, "smaller than its header" },
		{ __LINE__, 4, "smaller than its header" },
		{ __LINE__, 7, "smaller than its header" },
		{ __LINE__, 4096, "past the end" },
		{ __LINE__, UINT16_MAX, "past the end" },
	};
	struct image im;

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(t); k++) {
		for (size_t i = 1; i < 6; i++) { /* each record after the attr */
			struct ses_reader *r;
			struct ses_record rec;
			const char *why = NULL;
			char err[256];
			void *copy;
			size_t n = 0;

			img_reference(&im);
			set_size(&im, i, t[k].size);
			assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
			while (ses_reader_next(r, &rec) == 1)
				n++;
			if (n != i || ses_reader_damage(r, &why) != im.rec[i].off ||
			    !why || !strstr(why, t[k].why))
				fail_msg("table line %d, record %zu: %zu records, why %s",
					 t[k].line, i, n, why ? why : "(null)");
			ses_reader_free(r);
			free(copy);
		}
	}
}

static void samples_bad_pipe_header(void **state)
{
	static const struct {
		int line;
		size_t off;
		uint64_t value;
		size_t len;
		const char *err;
	} t[] = {
		{ __LINE__, 0, 0x32454c4946524550ull ^ 1, 0, "offset 0: no PERFILE2 magic" },
		{ __LINE__, 0, 0x31454c4946524550ull, 0, "offset 0: no PERFILE2 magic" },
		{ __LINE__, 8, 0, 0, "offset 8: header size 0" },
		{ __LINE__, 8, 104, 0, "offset 8: header size 104" },
		{ __LINE__, 8, 16ull << 32, 0, "offset 8: header size" },
		{ __LINE__, 8, 16, 15, "offset 0: file is 15 bytes" },
		{ __LINE__, 8, 16, 0, NULL },
	};
	struct image im;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct ses_reader *r;
		char err[256];
		void *copy;
		int ret;

		img_reference(&im);
		memcpy(im.b + t[i].off, &t[i].value, 8);
		ret = open_copy(&im, t[i].len ? t[i].len : im.len, &r, &copy, err, sizeof(err));
		if (!t[i].err) {
			assert_int_equal(ret, 0);
			ses_reader_free(r);
		} else if (ret != -EINVAL || r || strncmp(err, t[i].err, strlen(t[i].err))) {
			fail_msg("table line %d: ret %d, error '%s'", t[i].line, ret, err);
		}
		free(copy);
	}
}

/* A reference image whose attr record is replaced by @attr_size bytes of attr, with
 * its own size field saying @size_field. */
static void img_odd_attr(struct image *im, uint32_t attr_size, uint32_t size_field)
{
	struct perf_event_attr a = mk_attr(ST_ALL, 1);
	unsigned char raw[SES_ATTR_MAX + 64] = { 0 };
	struct ses_sample s = mk_sample(41, 1, 2, 3, 4, 5, 6);

	memcpy(raw, &a, sizeof(a));
	memcpy(raw + 4, &size_field, 4);
	img_header(im);
	begin(im, SES_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + attr_size + 8));
	put(im, raw, attr_size);
	put_u64(im, 41);
	img_sample(im, ST_ALL, PERF_RECORD_MISC_USER, &s);
}

static void samples_malformed_header_attr(void **state)
{
	static const struct {
		int line;
		uint32_t attr_size, size_field;
		bool ok;
	} t[] = {
		{ __LINE__, 64, 64, true },	/* PERF_ATTR_SIZE_VER0 is the smallest */
		{ __LINE__, 64, 63, false },	/* attr.size < 64 */
		{ __LINE__, 64, 0, false },
		{ __LINE__, 128, 32, false },
		{ __LINE__, 40, 64, false },	/* the record is too small for any attr */
		{ __LINE__, 0, 0, false },	/* a HEADER_ATTR with no attr in it */
		{ __LINE__, 64, 80, false },	/* attr.size > record: runs into the ids */
		{ __LINE__, 128, 4096, false },
		{ __LINE__, 128, UINT32_MAX, false },
		{ __LINE__, SES_ATTR_MAX, SES_ATTR_MAX, true },
		{ __LINE__, SES_ATTR_MAX + 8, SES_ATTR_MAX + 8, false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		struct ses_reader *r;
		struct ses_record rec;
		struct ses_sample s;
		const char *why = NULL;
		char err[256];
		struct image im;
		void *copy;

		img_odd_attr(&im, t[i].attr_size, t[i].size_field);
		assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
		if (t[i].ok) {
			assert_int_equal(ses_reader_next(r, &rec), 1);
			assert_int_equal(ses_reader_nattrs(r), 1);
			assert_int_equal(ses_reader_attr(r, 0)->size, t[i].size_field);
			assert_int_equal(ses_reader_next(r, &rec), 1);
			assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
			assert_int_equal(s.period, 6);
			assert_int_equal(ses_reader_damage(r, NULL), 0);
		} else if (ses_reader_next(r, &rec) != 0 || ses_reader_nattrs(r) != 0 ||
			   ses_reader_damage(r, &why) != SES_PIPE_HDR_SIZE || !why ||
			   !strstr(why, "attribute")) {
			fail_msg("table line %d: attr accepted or damage not reported", t[i].line);
		}
		ses_reader_free(r);
		free(copy);
	}
}

/* Two events: each sample goes to the attr that owns its id, with that attr's layout. */
static void samples_two_attrs_map_by_id(void **state)
{
	static const uint64_t ids_a[] = { 1, 2 }, ids_b[] = { 3 };
	const uint64_t st_b = ST_ALL & ~PERF_SAMPLE_PERIOD;
	struct perf_event_attr a = mk_attr(ST_ALL, 100), b = mk_attr(st_b, 5000);
	const struct ses_sample want[] = {
		mk_sample(1, 0x10, 5, 5, 10, 0, 100),
		mk_sample(3, 0x20, 5, 6, 11, 1, 0),	/* b has no PERIOD: 0 */
		mk_sample(2, 0x30, 5, 6, 12, 1, 100),
		mk_sample(3, 0x40, 7, 7, 13, 0, 0),
	};
	const int want_attr[] = { 0, 1, 0, 1 };
	struct ses_sample s, unknown = mk_sample(9, 0x50, 5, 5, 14, 0, 1);
	struct ses_reader *r;
	struct ses_record rec;
	struct image im;
	char err[256];
	void *copy;

	(void)state;
	img_header(&im);
	img_attr(&im, &a, ids_a, ARRAY_SIZE(ids_a));
	img_attr(&im, &b, ids_b, ARRAY_SIZE(ids_b));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		img_sample(&im, want_attr[i] ? st_b : ST_ALL, 0, &want[i]);
	img_sample(&im, ST_ALL, 0, &unknown);
	assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_nattrs(r), 2);
	assert_int_equal(ses_reader_attr(r, 1)->sample_period, 5000);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		assert_int_equal(ses_reader_next(r, &rec), 1);
		assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
		assert_sample_eq(&s, &want[i], want_attr[i]);
	}
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample(r, &rec, &s), -EINVAL); /* id 9: no such attr */
	assert_int_equal(ses_reader_next(r, &rec), 0);
	assert_int_equal(ses_reader_damage(r, NULL), 0);
	ses_reader_free(r);
	free(copy);
}

/* A sample or trailer shorter than its attr's sample_type says is refused, not read. */
static void samples_short_records_rejected(void **state)
{
	struct perf_event_attr a = mk_attr(ST_ALL, 1);
	struct ses_sample s, in = mk_sample(1, 2, 3, 4, 5, 6, 7);
	struct ses_sample_id sid;
	struct ses_reader *r;
	struct ses_record rec;
	struct image im;
	char err[256];
	void *copy;

	(void)state;
	img_header(&im);
	img_attr(&im, &a, ids1, 1);
	img_sample(&im, ST_ALL & ~PERF_SAMPLE_PERIOD, 0, &in); /* 8 bytes short */
	begin(&im, PERF_RECORD_SAMPLE, 0, 8);		       /* no body at all */
	begin(&im, PERF_RECORD_COMM, 0, 8 + 24);	       /* trailer needs 32 */
	put_u64(&im, 1);
	put_u64(&im, 2);
	put_u64(&im, 3);
	assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample(r, &rec, &s), -EINVAL);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample(r, &rec, &s), -EINVAL);
	assert_int_equal(ses_reader_sample_id(r, &rec, &sid), -EINVAL); /* 0 bytes of 32 */
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample_id(r, &rec, &sid), -EINVAL);
	assert_false(sid.valid);
	assert_int_equal(ses_reader_next(r, &rec), 0);
	ses_reader_free(r);
	free(copy);
}

/* Records before any HEADER_ATTR cannot be parsed, but do not stop the stream. */
static void samples_record_before_attr(void **state)
{
	struct ses_sample s, in = mk_sample(1, 2, 3, 4, 5, 6, 7);
	struct ses_sample_id sid;
	struct ses_reader *r;
	struct ses_record rec;
	struct image im;
	char err[256];
	void *copy;

	(void)state;
	img_header(&im);
	img_sample(&im, ST_ALL, 0, &in);
	assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(ses_reader_sample(r, &rec, &s), -EINVAL);
	assert_int_equal(ses_reader_sample_id(r, &rec, &sid), -EINVAL);
	assert_int_equal(ses_reader_nattrs(r), 0);
	assert_null(ses_reader_attr(r, 0));
	assert_int_equal(ses_reader_next(r, &rec), 0);
	ses_reader_free(r);
	free(copy);
}

/* perf's PERF_RECORD_HEADER_TRACING_DATA (--trace os): a 12-byte record, then its u32
 * size of tracing data outside the header's size. The reader passes over it to the next
 * record; one whose data runs past the file, or shorter than 12 bytes, is damage. */
static void samples_tracing_data_passed_over(void **state)
{
	struct ses_sample s, in = mk_sample(1, 2, 3, 4, 5, 6, 7);
	struct perf_event_attr a = mk_attr(ST_ALL, 1000000);
	struct ses_reader *r;
	struct ses_record rec;
	struct image im;
	char err[256], data[24] = "\027\010Dtracing0.6";
	const char *why;
	size_t cut;
	void *copy;

	(void)state;
	img_header(&im);
	img_attr(&im, &a, ids1, ARRAY_SIZE(ids1));
	begin(&im, SES_RECORD_HEADER_TRACING_DATA, 0, 12);
	put(&im, &(uint32_t){ sizeof(data) }, 4);
	put(&im, data, sizeof(data));
	in.id = ids1[0];
	img_sample(&im, ST_ALL, 0, &in);
	assert_int_equal(open_copy(&im, im.len, &r, &copy, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1); /* the attr */
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(rec.type, SES_RECORD_HEADER_TRACING_DATA);
	assert_int_equal(rec.size, 12);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
	assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
	assert_int_equal(s.pid, in.pid);
	assert_int_equal(ses_reader_next(r, &rec), 0);
	assert_int_equal(ses_reader_damage(r, &why), 0);
	ses_reader_free(r);
	free(copy);
	/* cut inside its data: damage, said */
	cut = im.rec[im.nrec - 2].off + 12 + 10;
	assert_int_equal(open_copy(&im, cut, &r, &copy, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_next(r, &rec), 1);
	assert_true(ses_reader_next(r, &rec) <= 0);
	assert_true(ses_reader_damage(r, &why) > 0);
	assert_string_equal(why, "tracing data runs past the end of the file");
	ses_reader_free(r);
	free(copy);
}

/* Records need not be 8-byte aligned in a hostile file (UBSan checks the reads). */
static void samples_unaligned_buffer(void **state)
{
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct image im;
	unsigned char *buf;
	char err[256];
	size_t n = 0;

	(void)state;
	img_reference(&im);
	buf = malloc(im.len + 1);
	assert_non_null(buf);
	memcpy(buf + 1, im.b, im.len);
	assert_int_equal(ses_reader_open_mem(&r, buf + 1, im.len, err, sizeof(err)), 0);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type == PERF_RECORD_SAMPLE) {
			assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
			assert_sample_eq(&s, &samples1[n++], 0);
		}
	}
	assert_int_equal(n, ARRAY_SIZE(samples1));
	ses_reader_free(r);
	free(buf);
}

/* Resident KiB of this process's mappings of @path (/proc/self/smaps), or -1. */
static long mapped_rss_kb(const char *path)
{
	char line[PATH_MAX + 128];
	FILE *f = fopen("/proc/self/smaps", "re");
	bool in = false;
	long kb, total = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		/* a mapping's line starts with its lowercase hex address; its fields with a Key: */
		if (isxdigit((unsigned char)line[0]) && !isupper((unsigned char)line[0]))
			in = n >= strlen(path) && !strcmp(line + n - strlen(path), path);
		else if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			total = (total < 0 ? 0 : total) + kb;
	}
	fclose(f);
	return total;
}

/* A large samples.data read front to back does not stay resident: pages far behind the
 * cursor are handed back; a record held from the start still reads its own bytes. */
static void samples_reader_hands_back_what_it_read(void **state)
{
	enum { REC = 32768, NREC = 1280 }; /* 40 MiB of records */
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256] = "";
	struct perf_event_attr a = mk_attr(ST_ALL, 1000000);
	static unsigned char rec_buf[REC];
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = REC };
	const unsigned char *first = NULL;
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_writer *w;
	uint64_t i, n = 0, v, sum;
	size_t end, done;
	long rss;

	(void)state;
	subdir(dir, sizeof(dir), "hand_back");
	w = test_writer_open(dir);
	assert_non_null(w);
	assert_int_equal(ses_writer_add_attr(w, &a, ids1, ARRAY_SIZE(ids1)), 0);
	for (i = 0; i < NREC; i++) {
		memcpy(rec_buf, &h, sizeof(h));
		for (size_t o = sizeof(h); o + 8 <= REC; o += 8)
			memcpy(rec_buf + o, &i, 8);
		assert_int_equal(ses_writer_write(w, rec_buf, REC), 0);
	}
	assert_int_equal(ses_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, SES_DATA_FILE);
	if (ses_reader_open_file(&r, path, err, sizeof(err)))
		fail_msg("ses_reader_open_file: %s", err);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&v, rec.data + REC - 8, 8); /* the record's last page: touched */
		assert_int_equal(v, n);
		if (!n)
			first = rec.data;
		n++;
	}
	assert_int_equal(n, NREC);
	rss = mapped_rss_kb(path);
	print_message("samples.data of %d MiB: %ld KiB of its mapping resident at the end\n",
		      NREC * REC >> 20, rss);
	assert_true(rss >= 0 && rss < 16 * 1024);
	memcpy(&v, first + REC - 8, 8); /* handed back, read again from the file */
	assert_int_equal(v, 0);
	/* a second walk (report's replay) touches it all again; then hands it back itself */
	for (i = 0, sum = 0; i < NREC; i++)
		sum += first[i * REC + REC - 8]; /* record i's last u64 is i: its low byte */
	assert_int_equal(sum, (NREC / 256) * (255 * 256 / 2));
	assert_true(mapped_rss_kb(path) > 32 * 1024);
	assert_int_equal(ses_reader_hand_back(r, 0, 1000), 0); /* too little: nothing */
	end = ses_reader_offset_of(r, first + (NREC - 1) * REC);
	assert_int_equal(end, ses_reader_offset_of(r, first) + (NREC - 1) * (size_t)REC);
	assert_int_equal(ses_reader_offset_of(r, rec_buf), SIZE_MAX); /* not the file's */
	done = ses_reader_hand_back(r, 0, end);
	assert_true(done > 0 && done <= end && done % 4096 == 0);
	assert_true(mapped_rss_kb(path) < 16 * 1024);
	assert_int_equal(ses_reader_hand_back(r, done, end), done); /* nothing more to give */
	ses_reader_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_writer_reader_round_trip),
		cmocka_unit_test(samples_reader_open_file_errors),
		cmocka_unit_test(samples_truncated_everywhere),
		cmocka_unit_test(samples_bad_record_size),
		cmocka_unit_test(samples_bad_pipe_header),
		cmocka_unit_test(samples_malformed_header_attr),
		cmocka_unit_test(samples_two_attrs_map_by_id),
		cmocka_unit_test(samples_short_records_rejected),
		cmocka_unit_test(samples_record_before_attr),
		cmocka_unit_test(samples_tracing_data_passed_over),
		cmocka_unit_test(samples_unaligned_buffer),
		cmocka_unit_test(samples_reader_hands_back_what_it_read),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
