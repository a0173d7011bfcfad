/* SPDX-License-Identifier: MIT */
/* samples.data images built byte by byte, for the lib/session unit tests
 * (test_session.c, test_session_writer.c): the reader is checked against the format
 * itself, not only against our own writer. Included once per test. */
#ifndef UPROF_TEST_SAMPLE_IMAGE_H
#define UPROF_TEST_SAMPLE_IMAGE_H

#define IMG_MAX 8192
#define IMG_RECS 64

/* A samples.data built byte by byte, remembering where each record starts. */
struct image {
	unsigned char b[IMG_MAX];
	size_t len;
	size_t nrec;
	struct { size_t off; uint32_t type; uint16_t size; } rec[IMG_RECS];
};

static inline void put(struct image *im, const void *p, size_t len)
{
	assert_true(im->len + len <= sizeof(im->b));
	memcpy(im->b + im->len, p, len);
	im->len += len;
}

static inline void put_u64(struct image *im, uint64_t v)
{
	put(im, &v, sizeof(v));
}

static inline void put_u32x2(struct image *im, uint32_t lo, uint32_t hi)
{
	put_u64(im, (uint64_t)hi << 32 | lo);
}

/* Start a record of @size bytes (header included); its body follows with put*(). */
static inline void begin(struct image *im, uint32_t type, uint16_t misc, uint16_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	assert_true(im->nrec < IMG_RECS);
	im->rec[im->nrec].off = im->len;
	im->rec[im->nrec].type = type;
	im->rec[im->nrec].size = size;
	im->nrec++;
	put(im, &h, sizeof(h));
}

static inline void img_header(struct image *im)
{
	memset(im, 0, sizeof(*im));
	put(im, SES_PIPE_MAGIC, 8);
	put_u64(im, SES_PIPE_HDR_SIZE);
}

static inline void img_attr(struct image *im, const struct perf_event_attr *a, const uint64_t *ids,
		     size_t nids)
{
	begin(im, SES_RECORD_HEADER_ATTR, 0, (uint16_t)(8 + a->size + 8 * nids));
	put(im, a, a->size);
	for (size_t i = 0; i < nids; i++)
		put_u64(im, ids[i]);
}

static inline struct ses_sample mk_sample(uint64_t id, uint64_t ip, uint32_t pid, uint32_t tid,
				   uint64_t time, uint32_t cpu, uint64_t period)
{
	return (struct ses_sample){ .id = id, .ip = ip, .pid = pid, .tid = tid, .time = time,
				    .cpu = cpu, .period = period };
}

/* A PERF_RECORD_SAMPLE laid out for @sample_type. */
static inline void img_sample(struct image *im, uint64_t sample_type, uint16_t misc,
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
static inline void img_trailer(struct image *im, uint32_t pid, uint32_t tid, uint64_t time,
			uint32_t cpu, uint64_t id)
{
	put_u32x2(im, pid, tid);
	put_u64(im, time);
	put_u32x2(im, cpu, 0);
	put_u64(im, id);
}

/* Zero-padded to 8 bytes, as the kernel does. */
static inline void put_name(struct image *im, const char *name, size_t padded)
{
	char buf[256] = "";

	assert_true(padded <= sizeof(buf) && strlen(name) < padded);
	strcpy(buf, name);
	put(im, buf, padded);
}

static inline size_t padded_len(const char *s)
{
	return (strlen(s) + 1 + 7) & ~(size_t)7;
}

static inline void img_comm(struct image *im, uint32_t pid, uint32_t tid, const char *comm,
		     uint64_t time, uint64_t id)
{
	size_t n = padded_len(comm);

	begin(im, PERF_RECORD_COMM, 0, (uint16_t)(8 + 8 + n + 32));
	put_u32x2(im, pid, tid);
	put_name(im, comm, n);
	img_trailer(im, pid, tid, time, 3, id);
}

static inline void img_mmap2(struct image *im, uint32_t pid, uint32_t tid, uint64_t addr,
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

static inline void img_round(struct image *im)
{
	begin(im, SES_RECORD_FINISHED_ROUND, 0, 8);
}

static inline struct perf_event_attr mk_attr(uint64_t sample_type, uint64_t period)
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

static const __attribute__((unused)) uint64_t ids1[] = { 41, 42 };

static const __attribute__((unused)) struct ses_sample samples1[] = {
	{ .id = 41, .ip = 0x401000, .pid = 100, .tid = 101, .time = 5000, .cpu = 1,
	  .period = 1000000, .cpumode = PERF_RECORD_MISC_USER },
	{ .id = 42, .ip = 0xffffffff81000000ull, .pid = 100, .tid = 100, .time = 5001,
	  .cpu = 0, .period = 999, .cpumode = PERF_RECORD_MISC_KERNEL },
	{ .id = 41, .ip = UINT64_MAX, .pid = UINT32_MAX, .tid = UINT32_MAX, .time = UINT64_MAX,
	  .cpu = UINT32_MAX, .period = UINT64_MAX, .cpumode = PERF_RECORD_MISC_USER },
};

static inline void assert_sample_eq(const struct ses_sample *got, const struct ses_sample *want,
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

#endif
