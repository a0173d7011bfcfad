// SPDX-License-Identifier: MIT
/*
 * The control page ABI's versions (lib/instrument/ctlpage.h's rules), read by lib/sampler
 * from synthetic page images: a page of an older minor (a library linked statically long
 * ago), of the current one, of a newer minor (accepted, what it added ignored), and of
 * another major (refused with -EPROTONOSUPPORT, the page left untouched).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "instrument/ctlpage.h"
#include "sampler/sampler.h"

#define RING 64
#define PAUSES 16
#define STR_BYTES 4096
#define PAGE_SIZE_OF(extra) \
	(UPROF_CTL_HEADER_BYTES + STR_BYTES + (RING + PAUSES) * sizeof(struct uprof_ctl_record) + \
	 (extra))

/* A page as a library of @major.@minor lays it out: small rings, CLOCK_MONOTONIC stamps,
 * one string ("Dom", id 1) and one task record; @extra bytes past the rings. Every byte
 * past the fields @minor has in the header is 0xA5, as a newer library's fields or an
 * older library's leftovers would be: the reader must not take them for fields. */
static unsigned char *make_page(uint32_t major, uint32_t minor, size_t extra, size_t *len)
{
	size_t size = PAGE_SIZE_OF(extra);
	unsigned char *m = calloc(1, size);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots;
	size_t known = minor >= UPROF_CTL_LANES_MINOR ? UPROF_CTL_HEADER_2_6
		       : minor >= 1		      ? UPROF_CTL_HEADER_2_1
						      : UPROF_CTL_HEADER_2_0;
	uint32_t l = 3;

	assert_non_null(m);
	memset(m + known, 0xA5, UPROF_CTL_HEADER_BYTES - known);
	h->version = UPROF_CTL_VERSION_OF(major, minor);
	h->size = (uint32_t)size;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->pid = 4242;
	h->str_offset = UPROF_CTL_HEADER_BYTES;
	h->str_bytes = STR_BYTES;
	memcpy(m + h->str_offset, &l, 4);
	memcpy(m + h->str_offset + 4, "Dom", 4);
	h->str_used = 8;
	h->ring.offset = h->str_offset + STR_BYTES;
	h->ring.records = RING;
	h->pauses.offset = h->ring.offset + RING * sizeof(struct uprof_ctl_record);
	h->pauses.records = PAUSES;
	h->clock_kind = UPROF_CLOCK_MONO;
	h->mono0 = 1000;
	if (minor >= 1)
		memcpy(h->lib_version, "9.8.7", 6);
	slots = (struct uprof_ctl_record *)(m + h->ring.offset);
	for (uint32_t i = 0; i < RING; i++)
		slots[i].seq = i;
	slots[0] = (struct uprof_ctl_record){ 1, 5000, 77, UPROF_REC_TASK_BEGIN, 0, 1, 1 };
	slots = (struct uprof_ctl_record *)(m + h->pauses.offset);
	for (uint32_t i = 0; i < PAUSES; i++)
		slots[i].seq = i;
	h->magic = UPROF_CTL_MAGIC;
	*len = size;
	return m;
}

static void on_record(void *arg, const struct uprof_ctl_record *r)
{
	*(struct uprof_ctl_record *)arg = *r;
}

static int on_string(void *arg, uint32_t id, const char *s, size_t len)
{
	(void)id;
	assert_int_equal(len, 3);
	memcpy(arg, s, len);
	return 0;
}

/* Open @m, read its string and record back; the page's lib_version as read. */
static void reads_back(unsigned char *m, size_t len, const char *lib_version)
{
	struct uprof_ctl_record rec = { 0 };
	char name[4] = "";
	struct smp_page *p;

	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_strings(p, on_string, name), 1);
	assert_string_equal(name, "Dom");
	assert_int_equal(smp_page_drain(p, false, on_record, &rec), 1);
	assert_int_equal(rec.time_ns, 5000);
	assert_int_equal(rec.tid, 77);
	assert_int_equal(rec.kind, UPROF_REC_TASK_BEGIN);
	assert_string_equal(smp_page_lib_version(p), lib_version);
	assert_int_equal(((struct uprof_ctl_header *)m)->attached, 1);
	smp_page_close(p);
}

/* 2.0, the page of every library before minors existed (its version word a plain 2):
 * read, and 2.1's lib_version is not taken from the bytes where it would be. */
static void older_minor_accepted(void **state)
{
	size_t len;
	unsigned char *m = make_page(2, 0, 0, &len);

	(void)state;
	assert_int_equal(((struct uprof_ctl_header *)m)->version, 2);
	reads_back(m, len, "");
	free(m);
}

static void current_version(void **state)
{
	size_t len;
	unsigned char *m = make_page(UPROF_CTL_MAJOR, UPROF_CTL_MINOR, 0, &len);
	struct smp_page *p;

	(void)state;
	reads_back(m, len, "9.8.7");
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_version(p), UPROF_CTL_VERSION_OF(2, UPROF_CTL_MINOR));
	smp_page_close(p);
	free(m);
}

/* 2.6's lanes: LANES lanes of LANE_RECS slots after the pause ring, @claimed of them
 * taken; lane i holds records i * 10 + 1 .. i * 10 + @per (value = time_ns), published
 * as its thread would (seq = pos + 1), the rest of its slots zero as created. */
#define LANES 3
#define LANE_RECS 8
#define LANES_EXTRA (UPROF_CTL_LANE_CTL_BYTES + LANES * LANE_RECS * sizeof(struct uprof_ctl_record))
static unsigned char *make_lanes_page(uint32_t claimed, int per, size_t *len)
{
	unsigned char *m = make_page(2, 6, LANES_EXTRA, len);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots;

	h->lanes_offset = (uint32_t)(*len - LANES_EXTRA);
	h->lane_count = LANES;
	h->lane_records = LANE_RECS;
	h->lanes_claimed = claimed;
	slots = (struct uprof_ctl_record *)(m + h->lanes_offset + UPROF_CTL_LANE_CTL_BYTES);
	for (int i = 0; i < LANES; i++) {
		struct uprof_ctl_lane *l = (struct uprof_ctl_lane *)(m + h->lanes_offset) + i;

		for (int k = 0; k < per; k++)
			slots[i * LANE_RECS + k] = (struct uprof_ctl_record){
				(uint64_t)k + 1,
				(uint64_t)(i * 10 + k + 1),
				100 + (uint32_t)i,
				UPROF_REC_OMP_VALUE,
				1,
				0,
				0
			};
		l->dropped = (uint64_t)i;
	}
	return m;
}

struct seen {
	uint64_t v[64];
	int n;
};

static void on_seen(void *arg, const struct uprof_ctl_record *r)
{
	struct seen *s = arg;

	if (s->n < 64)
		s->v[s->n] = r->time_ns;
	s->n++;
}

/* The lanes threads took are drained, each in its order, before the shared ring; a lane
 * nobody took is not read; drops are the ring's and the lanes' together. */
static void lanes_drained_first(void **state)
{
	size_t len;
	unsigned char *m = make_lanes_page(2, 3, &len);
	struct seen s = { .n = 0 };
	uint64_t want[] = { 1, 2, 3, 11, 12, 13, 5000 }, dropped, names;
	struct smp_page *p;

	(void)state;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_drain(p, false, on_seen, &s), 7);
	assert_int_equal(s.n, 7);
	for (int i = 0; i < 7; i++)
		assert_int_equal(s.v[i], want[i]);
	smp_page_dropped(p, &dropped, &names);
	assert_int_equal(dropped, 0 + 1); /* lanes 0 and 1; lane 2's is not a taken lane's */
	/* the drain freed the slots and moved each lane's tail */
	assert_int_equal(
		((struct uprof_ctl_lane *)(m + ((struct uprof_ctl_header *)m)->lanes_offset))[1]
			.tail,
		3);
	s.n = 0;
	assert_int_equal(smp_page_drain(p, false, on_seen, &s), 0);
	smp_page_close(p);
	free(m);
}

/* A claimed count past the lanes (threads that found none) reads the lanes there are. */
static void lanes_claimed_clamped(void **state)
{
	size_t len;
	unsigned char *m = make_lanes_page(UINT32_MAX, 2, &len);
	struct seen s = { .n = 0 };
	struct smp_page *p;

	(void)state;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_drain(p, false, on_seen, &s), 2 * LANES + 1);
	smp_page_close(p);
	free(m);
}

/* Lanes a page cannot hold, or too many, or of a capacity that is no power of two: the
 * page is refused, as a bad ring is. */
static void bad_lanes_refused(void **state)
{
	size_t len;
	unsigned char *m = make_lanes_page(1, 1, &len);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct smp_page *p;

	(void)state;
	h->lane_count = LANES + 1; /* the last lane's slots end past the page */
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lane_count = UPROF_CTL_MAX_LANES + 1;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lane_count = 0;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lane_count = LANES;
	h->lane_records = 6;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lane_records = LANE_RECS;
	h->lanes_offset = 100; /* inside the header */
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lanes_offset = UINT32_MAX - 63;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->lanes_offset = 0; /* no lanes: a 2.6 page without them */
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	smp_page_close(p);
	free(m);
}

/* 2.9: fields appended past 2.1's (0xA5 bytes in the header) and a larger page; read as
 * a 2.1 page, the extra ignored. */
static void newer_minor_accepted(void **state)
{
	size_t len;
	unsigned char *m = make_page(2, 9, 8192, &len);

	(void)state;
	memset(m + len - 8192, 0x5A, 8192);
	reads_back(m, len, "9.8.7");
	free(m);
}

/* 3.0 (and 1.0): refused before anything is read or written past the first 24 bytes. */
static void other_major_refused(void **state)
{
	size_t len;
	unsigned char *m = make_page(3, 0, 0, &len), *copy = malloc(len);
	unsigned char *old = make_page(1, 4, 0, &len);
	struct smp_page *p = (struct smp_page *)1;

	(void)state;
	memcpy(copy, m, len);
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EPROTONOSUPPORT);
	assert_null(p);
	assert_memory_equal(m, copy, len); /* not marked attached, nothing written */
	assert_int_equal(smp_page_open_mem(&p, old, len, NULL), -EPROTONOSUPPORT);
	/* refused whatever the rest says: a major 3 page may lay out anything */
	((struct uprof_ctl_header *)m)->size = 7;
	((struct uprof_ctl_header *)m)->header_size = 0;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EPROTONOSUPPORT);
	free(m);
	free(copy);
	free(old);
}

/* Sizes: the page must fit what is mapped, its rings must fit its size. */
static void sizes_checked(void **state)
{
	size_t len;
	unsigned char *m = make_page(2, 1, 0, &len);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct smp_page *p;

	(void)state;
	assert_int_equal(smp_page_open_mem(&p, m, len - 1, NULL), -EINVAL); /* size > mapped */
	h->size = (uint32_t)len - 1; /* the pause ring now ends past the page */
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->size = UPROF_CTL_MAX_SIZE + 1;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->size = (uint32_t)len;
	h->header_size = 8192;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EINVAL);
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->magic = 0;
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), -EAGAIN); /* not published */
	free(m);
}

/* The version word: major in the low half, so the plain 2 of old pages is 2.0. */
static void version_word(void **state)
{
	(void)state;
	assert_int_equal(UPROF_CTL_MAJOR_OF(2), 2);
	assert_int_equal(UPROF_CTL_MINOR_OF(2), 0);
	assert_int_equal(UPROF_CTL_VERSION_OF(2, 1), 0x10002);
	assert_int_equal(UPROF_CTL_MAJOR_OF(UPROF_CTL_VERSION), UPROF_CTL_MAJOR);
}

static void take_all(void *arg, const struct uprof_ctl_record *r)
{
	struct uprof_ctl_record *out = arg;
	int i = 0;

	while (out[i].kind)
		i++;
	out[i] = *r;
}

/* 2.2's OpenMP records (a TSC page): a stamped kind is converted to CLOCK_MONOTONIC like a
 * task record, a value kind (an aggregate, a code address) is handed over as it was
 * written; a kind past the ABI's last is dropped. */
static void omp_records(void **state)
{
	size_t len;
	unsigned char *m = make_page(2, 2, 0, &len);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots = (struct uprof_ctl_record *)(m + h->ring.offset);
	struct uprof_ctl_record got[8] = { { 0 } };
	struct timespec ts;
	uint64_t tsc = uprof_ctl_tsc();
	struct smp_page *p;

	(void)state;
	if (!tsc) {
		free(m);
		skip();
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	h->clock_kind = UPROF_CLOCK_TSC;
	h->tsc0 = tsc - 1000000;
	h->mono0 = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec - 1000000;
	slots[0] = (struct uprof_ctl_record){ 1, tsc, 77, UPROF_REC_OMP_BEGIN, 0, 5, 0 };
	slots[1] = (struct uprof_ctl_record){
		2, 123456789, 77, UPROF_REC_OMP_VALUE, UPROF_OMP_F_SPAN, 5, 1
	};
	slots[2] = (struct uprof_ctl_record){
		3, 0x55aa00001234ULL, 0, UPROF_REC_OMP_SITE, UPROF_OMP_SITE_PARALLEL, 5, 0
	};
	slots[3] = (struct uprof_ctl_record){ 4, 42, 77, UPROF_REC_OMP_LAST + 1, 0, 0, 0 };
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_drain(p, false, take_all, got), 3);
	assert_int_equal(got[0].kind, UPROF_REC_OMP_BEGIN);
	assert_true(got[0].time_ns != tsc); /* converted: a CLOCK_MONOTONIC ns stamp */
	assert_true(got[0].time_ns >= h->mono0);
	assert_int_equal(got[1].kind, UPROF_REC_OMP_VALUE);
	assert_int_equal(got[1].time_ns, 123456789);
	assert_int_equal(got[1].how, UPROF_OMP_F_SPAN);
	assert_int_equal(got[2].time_ns, 0x55aa00001234ULL);
	assert_int_equal(got[3].kind, 0); /* the unknown kind was not handed over */
	smp_page_close(p);
	free(m);
}

/* 2.3's target records: the host's ops are stamps (converted), the device's records and
 * the bytes are values (kept as sent: the tool translated the device's times itself). */
static void omp_target_records(void **state)
{
	size_t len;
	unsigned char *m = make_page(2, 3, 0, &len);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots = (struct uprof_ctl_record *)(m + h->ring.offset);
	struct uprof_ctl_record got[8] = { { 0 } };
	struct timespec ts;
	uint64_t tsc = uprof_ctl_tsc();
	struct smp_page *p;

	(void)state;
	if (!tsc) {
		free(m);
		skip();
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	h->clock_kind = UPROF_CLOCK_TSC;
	h->tsc0 = tsc - 1000000;
	h->mono0 = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec - 1000000;
	slots[0] = (struct uprof_ctl_record){ 1, tsc, 77, UPROF_REC_OMP_TARGET_BEGIN, 1, 9, 0 };
	slots[1] = (struct uprof_ctl_record){
		2, 8000, 77, UPROF_REC_OMP_DATA_BYTES, 2, 9, UPROF_OMP_DEVPAIR(4, 0)
	};
	slots[2] = (struct uprof_ctl_record){ 3, 123456789, 0, UPROF_REC_OMP_DEV_BEGIN, 10, 0, 7 };
	slots[3] = (struct uprof_ctl_record){
		4, 987654321, 0, UPROF_REC_OMP_DEVICE, UPROF_OMP_DEV_TRACING, 0, 0
	};
	slots[4] = (struct uprof_ctl_record){ 5, tsc, 77, UPROF_REC_OMP_SUBMIT_END, 0, 9, 1 };
	assert_int_equal(smp_page_open_mem(&p, m, len, NULL), 0);
	assert_int_equal(smp_page_drain(p, false, take_all, got), 5);
	assert_int_equal(got[0].kind, UPROF_REC_OMP_TARGET_BEGIN);
	assert_true(got[0].time_ns != tsc && got[0].time_ns >= h->mono0);
	assert_int_equal(got[1].time_ns, 8000);
	assert_int_equal(got[1].name, 0x10005);
	assert_int_equal(got[2].time_ns, 123456789);
	assert_int_equal(got[3].time_ns, 987654321);
	assert_true(got[4].time_ns != tsc && got[4].time_ns >= h->mono0);
	smp_page_close(p);
	free(m);
}

/* A clock reader slow on every call but one (a preemption between the two TSC reads, made
 * certain): the pair kept is the quick call's, its TSC the midpoint of that call's two. */
static int slow_calls, quick_call;
static uint64_t quick_lo, quick_hi;

static int64_t fake_mono(void)
{
	uint64_t t = uprof_ctl_tsc();

	if (++slow_calls == quick_call) {
		quick_lo = t;
		return 5000;
	}
	while (uprof_ctl_tsc() - t < 100000000ULL) /* ~30 ms at 3 GHz: far wider */
		;
	return slow_calls;
}

static void clock_pair_narrowest(void **state)
{
	uint64_t tsc = 0, after;
	int64_t mono = 0;

	(void)state;
	if (!uprof_ctl_tsc())
		skip();
	for (quick_call = 1; quick_call <= 8; quick_call += 7) { /* the first and the last */
		slow_calls = 0;
		uprof_ctl_clock_pair(fake_mono, &tsc, &mono);
		after = uprof_ctl_tsc();
		quick_hi = after;
		assert_int_equal(slow_calls, 8);
		assert_int_equal(mono, 5000);
		assert_true(tsc <= quick_hi);
		assert_true(tsc + 100000000ULL >
			    quick_lo); /* within the quick call, not a slow one */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(older_minor_accepted),	 cmocka_unit_test(current_version),
		cmocka_unit_test(newer_minor_accepted),	 cmocka_unit_test(other_major_refused),
		cmocka_unit_test(sizes_checked),	 cmocka_unit_test(version_word),
		cmocka_unit_test(omp_records),		 cmocka_unit_test(omp_target_records),
		cmocka_unit_test(clock_pair_narrowest),	 cmocka_unit_test(lanes_drained_first),
		cmocka_unit_test(lanes_claimed_clamped), cmocka_unit_test(bad_lanes_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
