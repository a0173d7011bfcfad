// SPDX-License-Identifier: MIT
/*
 * Tests for lib/session, part 2: samples.data (writer.c, reader.c); part 1, session.ini,
 * is test_session_info.c.
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

/* ---- samples.data images ------------------------------------------------------- */

#define IMG_MAX 8192
#define IMG_RECS 64

/* A samples.data built byte by byte, remembering where each record starts. */
struct image {
	unsigned char b[IMG_MAX];
	size_t len;
	size_t nrec;
	struct { size_t off; uint32_t type; uint16_t size; } rec[IMG_RECS];
};

static void put(struct image *im, const void *p, size_t len)
{
	assert_true(im->len + len <= sizeof(im->b));
	memcpy(im->b + im->len, p, len);
	im->len += len;
}

static void put_u64(struct image *im, uint64_t v)
{
	put(im, &v, sizeof(v));
}

static void put_u32x2(struct image *im, uint32_t lo, uint32_t hi)
{
	put_u64(im, (uint64_t)hi << 32 | lo);
}

/* Start a record of @size bytes (header included); its body follows with put*(). */
static void begin(struct image *im, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	assert_true(im->nrec < IMG_RECS);
	im->rec[im->nrec].off = im->len;
	im->rec[im->nrec].type = type;
	im->rec[im->nrec].size = size;
	im->nrec++;
	put(im, &h, sizeof(h));
}

static void img_header(struct image *im)
{
	memset(im, 0, sizeof(*im));
	put(im, SES_PIPE_MAGIC, 8);
	put_u64(im, SES_PIPE_HDR_SIZE);
}

static void img_attr(struct image *im, const struct perf_event_attr *a, const uint64_t *ids,
		     size_t nids)
{
	begin(im, SES_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + a->size + 8 * nids));
	put(im, a, a->size);
	for (size_t i = 0; i < nids; i++)
		put_u64(im, ids[i]);
}

static struct ses_sample mk_sample(uint64_t id, uint64_t ip, uint32_t pid, uint32_t tid,
				   uint64_t time, uint32_t cpu, uint64_t period)
{
	return (struct ses_sample){ .id = id, .ip = ip, .pid = pid, .tid = tid, .time = time,
				    .cpu = cpu, .period = period };
}

/* A PERF_RECORD_SAMPLE laid out for @sample_type. */
static void img_sample(struct image *im, uint64_t sample_type, uint16_t misc,
		       const struct ses_sample *s)
{
	uint16_t size = 8 + 8 * __builtin_popcountll(sample_type & ST_ALL);

	begin(im, PERF_RECORD_SAMPLE, misc, size);
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		put_u64(im, s->id);
	if (sample_type & PERF_SAMPLE_IP)
		put_u64(im, s->ip);
	if (sample_type & PERF_SAMPLE_TID)
		put_u32x2(im, s->pid, s->tid);
	if (sample_type & PERF_SAMPLE_TIME)
		put_u64(im, s->time);
	if (sample_type & PERF_SAMPLE_CPU)
		put_u32x2(im, s->cpu, 0);
	if (sample_type & PERF_SAMPLE_PERIOD)
		put_u64(im, s->period);
}

/* sample_id_all trailer for ST_ALL: TID, TIME, CPU, IDENTIFIER. */
static void img_trailer(struct image *im, uint32_t pid, uint32_t tid, uint64_t time,
			uint32_t cpu, uint64_t id)
{
	put_u32x2(im, pid, tid);
	put_u64(im, time);
	put_u32x2(im, cpu, 0);
	put_u64(im, id);
}

/* Zero-padded to 8 bytes, as the kernel does. */
static void put_name(struct image *im, const char *name, size_t padded)
{
	char buf[256] = "";

	assert_true(padded <= sizeof(buf) && strlen(name) < padded);
	strcpy(buf, name);
	put(im, buf, padded);
}

static size_t padded_len(const char *s)
{
	return (strlen(s) + 1 + 7) & ~(size_t)7;
}

static void img_comm(struct image *im, uint32_t pid, uint32_t tid, const char *comm,
		     uint64_t time, uint64_t id)
{
	size_t n = padded_len(comm);

	begin(im, PERF_RECORD_COMM, 0, (uint16_t)(8 + 8 + n + 32));
	put_u32x2(im, pid, tid);
	put_name(im, comm, n);
	img_trailer(im, pid, tid, time, 3, id);
}

static void img_mmap2(struct image *im, uint32_t pid, uint32_t tid, uint64_t addr,
		      const char *file, uint64_t time, uint64_t id)
{
	size_t n = padded_len(file);

	begin(im, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, (uint16_t)(8 + 64 + n + 32));
	put_u32x2(im, pid, tid);
	put_u64(im, addr);
	put_u64(im, 0x2000);	/* len */
	put_u64(im, 0x1000);	/* pgoff */
	put_u32x2(im, 8, 1);	/* maj, min */
	put_u64(im, 123456);	/* ino */
	put_u64(im, 0);		/* ino_generation */
	put_u32x2(im, 5, 2);	/* prot, flags */
	put_name(im, file, n);
	img_trailer(im, pid, tid, time, 1, id);
}

static void img_round(struct image *im)
{
	begin(im, SES_RECORD_FINISHED_ROUND, 0, 8);
}

static struct perf_event_attr mk_attr(uint64_t sample_type, uint64_t period)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = period;
	a.sample_type = sample_type;
	a.sample_id_all = 1;
	a.disabled = 1;
	return a;
}

static const uint64_t ids1[] = { 41, 42 };

static const struct ses_sample samples1[] = {
	{ .id = 41, .ip = 0x401000, .pid = 100, .tid = 101, .time = 5000, .cpu = 1,
	  .period = 1000000, .cpumode = PERF_RECORD_MISC_USER },
	{ .id = 42, .ip = 0xffffffff81000000ull, .pid = 100, .tid = 100, .time = 5001,
	  .cpu = 0, .period = 999, .cpumode = PERF_RECORD_MISC_KERNEL },
	{ .id = 41, .ip = UINT64_MAX, .pid = UINT32_MAX, .tid = UINT32_MAX, .time = UINT64_MAX,
	  .cpu = UINT32_MAX, .period = UINT64_MAX, .cpumode = PERF_RECORD_MISC_USER },
};

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

static void assert_sample_eq(const struct ses_sample *got, const struct ses_sample *want,
			     int attr_index)
{
	assert_int_equal(got->id, want->id);
	assert_int_equal(got->ip, want->ip);
	assert_int_equal(got->pid, want->pid);
	assert_int_equal(got->tid, want->tid);
	assert_int_equal(got->time, want->time);
	assert_int_equal(got->cpu, want->cpu);
	assert_int_equal(got->period, want->period);
	assert_int_equal(got->cpumode, want->cpumode);
	assert_int_equal(got->attr_index, attr_index);
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
	struct ses_writer *w = ses_writer_open(dir);

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
	assert_int_equal(ses_reader_open_file(&r, dir, err, sizeof(err)), -EINVAL);
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
	w = ses_writer_open(dir);
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
	snprintf(dir, sizeof(dir), "%s/no/such/dir", tmpdir);
	errno = 0;
	assert_null(ses_writer_open(dir));
	assert_int_equal(errno, ENOENT);
	subdir(dir, sizeof(dir), "writer_errors");
	w = ses_writer_open(dir);
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
	w = ses_writer_open(dir);
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
		cmocka_unit_test(samples_writer_reader_round_trip),
		cmocka_unit_test(samples_reader_open_file_errors),
		cmocka_unit_test(samples_truncated_everywhere),
		cmocka_unit_test(samples_bad_record_size),
		cmocka_unit_test(samples_bad_pipe_header),
		cmocka_unit_test(samples_malformed_header_attr),
		cmocka_unit_test(samples_two_attrs_map_by_id),
		cmocka_unit_test(samples_short_records_rejected),
		cmocka_unit_test(samples_record_before_attr),
		cmocka_unit_test(samples_unaligned_buffer),
		cmocka_unit_test(samples_writer_large_stream),
		cmocka_unit_test(samples_writer_errors),
		cmocka_unit_test(samples_writer_attr_size_zero),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
