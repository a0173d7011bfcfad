// SPDX-License-Identifier: MIT
/*
 * lib/session's foreign sessions (session/foreign.h): the facts synthesized from a
 * hand-built perf pipe stream of two sampling attrs with different sample_types (one
 * with PERF_SAMPLE_PERIOD, one without) and perf's tracking event: the exact event list,
 * names from EVENT_DESC / EVENT_UPDATE or derived, the exact weight of every sample;
 * the metadata decoders on malformed records; and every truncation and byte flip of the
 * stream refused cleanly or read, never past its end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/internal.h"
#include "pipe_builder.h"

#define ST_A (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	      PERF_SAMPLE_PERIOD)
#define ST_B (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define ID_A 11
#define ID_B 22
#define ID_DUMMY 33

static struct perf_event_attr attr_a(void)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.freq = 1;
	a.sample_freq = 4000;
	a.sample_type = ST_A;
	a.sample_id_all = 1;
	return a;
}

static struct perf_event_attr attr_b(void)
{
	struct perf_event_attr a = { 0 };

	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.sample_period = 100000;
	a.sample_type = ST_B;
	a.exclude_kernel = 1;
	a.sample_id_all = 1;
	return a;
}

static struct perf_event_attr attr_dummy(void)
{
	struct perf_event_attr a = attr_b();

	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_period = 1;
	return a;
}

static void add_attr(struct img *m, const struct perf_event_attr *a, uint64_t id)
{
	size_t at = begin(m);

	put(m, a, sizeof(*a));
	put64(m, id);
	end(m, at, SES_RECORD_HEADER_ATTR, true);
}

static void add_sample(struct img *m, uint64_t id, uint32_t pid, uint64_t time,
		       const uint64_t *period)
{
	size_t at = begin(m);

	put64(m, id);
	put64(m, 0x401000);
	put32(m, pid);
	put32(m, pid);
	put64(m, time);
	if (period)
		put64(m, *period);
	end(m, at, PERF_RECORD_SAMPLE, true);
}

/* COMM of @pid, with the trailer of attr A (IDENTIFIER, TID, TIME: id last). */
static void add_comm(struct img *m, uint32_t pid, const char *name)
{
	size_t at = begin(m);
	char buf[16] = { 0 };

	put32(m, pid);
	put32(m, pid);
	memcpy(buf, name, strlen(name));
	put(m, buf, 16);
	put32(m, pid);
	put32(m, pid);
	put64(m, 500);
	put64(m, ID_A);
	end(m, at, PERF_RECORD_COMM, true);
}

static void add_lost(struct img *m, uint64_t lost)
{
	size_t at = begin(m);

	put64(m, ID_A);
	put64(m, lost);
	put32(m, 0);
	put32(m, 0);
	put64(m, 0);
	put64(m, ID_A);
	end(m, at, PERF_RECORD_LOST, true);
}

static void add_feature_strings(struct img *m, uint64_t feat, const char *const *s, int n,
				bool counted)
{
	size_t at = begin(m);

	put64(m, feat);
	if (counted)
		put32(m, (uint32_t)n);
	for (int i = 0; i < n; i++)
		putstr(m, s[i]);
	end(m, at, SES_RECORD_HEADER_FEATURE, false);
}

/* EVENT_DESC naming attr A only (as perf names the events it was given). */
static void add_event_desc(struct img *m)
{
	struct perf_event_attr a = attr_a();
	size_t at = begin(m);

	put64(m, SES_FEAT_EVENT_DESC);
	put32(m, 1);
	put32(m, (uint32_t)sizeof(a));
	put(m, &a, sizeof(a));
	put32(m, 1);
	putstr(m, "cpu-clock");
	put64(m, ID_A);
	end(m, at, SES_RECORD_HEADER_FEATURE, false);
}

static void add_event_update(struct img *m, uint64_t id, const char *name)
{
	size_t at = begin(m);

	put64(m, SES_EVENT_UPDATE_NAME);
	put64(m, id);
	put(m, name, strlen(name) + 1);
	end(m, at, SES_RECORD_EVENT_UPDATE, true);
}

static const uint64_t P1 = 250000, P2 = 125000;

/* The stream: header, attrs A, B and dummy, perf's metadata, then side band and four
 * samples: A (period 250000), B, A (period 125000), one of an id no attr names. */
static void build(struct img *m, bool with_names)
{
	static const char *const host[] = { "hostx" };
	static const char *const cmd[] = { "perf", "record", "-e", "cpu-clock" };
	struct perf_event_attr a = attr_a(), b = attr_b(), d = attr_dummy();

	memset(m, 0, sizeof(*m));
	put(m, "PERFILE2", 8);
	put64(m, 16);
	add_attr(m, &a, ID_A);
	add_attr(m, &b, ID_B);
	add_attr(m, &d, ID_DUMMY);
	add_feature_strings(m, SES_FEAT_HOSTNAME, host, 1, false);
	add_feature_strings(m, SES_FEAT_CMDLINE, cmd, 4, true);
	if (with_names)
		add_event_desc(m);
	add_comm(m, 700, "spin");
	add_sample(m, ID_A, 700, 1000, &P1);
	add_sample(m, ID_B, 701, 2000, NULL);
	add_sample(m, ID_A, 700, 3000, &P2);
	add_sample(m, 99, 702, 9000, NULL);
	add_lost(m, 5);
}

static void test_info_events(void **state)
{
	struct ses_info in;
	struct img m;
	char err[256];
	int skipped = -1;

	(void)state;
	build(&m, true);
	assert_int_equal(ses_perf_kind_of(m.b, m.n), SES_PERF_PIPE);
	assert_int_equal(ses_foreign_info(m.b, m.n, &in, &skipped, err, sizeof(err)), 0);
	assert_true(in.foreign);
	assert_int_equal(skipped, 0);
	assert_string_equal(in.config, "foreign");
	/* the dummy tracking event is no event */
	assert_int_equal(in.nevents, 2);
	assert_string_equal(in.events[0].name, "CPU_TIME (cpu-clock)");
	assert_true(ses_event_is_timer(&in.events[0]));
	assert_true(in.events[0].weighted);
	assert_int_equal(in.events[0].period, 1);
	assert_int_equal(in.events[0].attr, 0);
	assert_int_equal(in.events[0].type, PERF_TYPE_SOFTWARE);
	/* no name in the file: derived from type and config, :u for user only */
	assert_string_equal(in.events[1].name, "instructions:u");
	assert_false(ses_event_is_timer(&in.events[1]));
	assert_false(in.events[1].weighted);
	assert_int_equal(in.events[1].period, 100000);
	assert_int_equal(in.events[1].attr, 1);
	assert_true(in.events[1].exclude_kernel);
	assert_false(in.events[1].exclude_user);
	/* the samples' processes, first seen first; the id nobody names is not counted */
	assert_int_equal(in.npids, 2);
	assert_int_equal(in.pids[0], 700);
	assert_int_equal(in.pids[1], 701);
	assert_int_equal(in.start_mono_ns, 1000);
	assert_int_equal(in.end_mono_ns, 2000 + 1000);
	assert_int_equal(in.samples, 4);
	assert_int_equal(in.lost_samples, 5);
	assert_string_equal(in.host, "hostx");
	assert_string_equal(in.command, "perf record -e cpu-clock");
	assert_int_equal(in.status, SES_STATUS_COMPLETE);
}

static void test_weights(void **state)
{
	static const uint64_t want[] = { 250000, 100000, 125000 };
	struct ses_reader *rd;
	struct ses_record rec;
	struct ses_info in;
	struct ses_sample s;
	struct img m;
	char err[256];
	size_t k = 0;
	int bad = 0;

	(void)state;
	build(&m, true);
	assert_int_equal(ses_foreign_info(m.b, m.n, &in, NULL, err, sizeof(err)), 0);
	assert_int_equal(ses_reader_open_mem(&rd, m.b, m.n, err, sizeof(err)), 0);
	while (ses_reader_next(rd, &rec) == 1) {
		const struct ses_event *e = NULL;

		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		if (ses_reader_sample(rd, &rec, &s)) {
			bad++;
			continue;
		}
		for (int i = 0; i < in.nevents; i++)
			if (in.events[i].attr == s.attr_index)
				e = &in.events[i];
		assert_non_null(e);
		assert_true(k < 3);
		/* its own period (A), the attr's fixed one (B) */
		assert_int_equal(ses_sample_weight(e, &s), want[k]);
		assert_int_equal(ses_sample_units(e, &s) * e->period, want[k]);
		k++;
	}
	assert_int_equal(k, 3);
	assert_int_equal(bad, 1); /* id 99 */
	ses_reader_free(rd);
}

static void test_names_from_update(void **state)
{
	struct ses_info in;
	struct img m;
	char err[256];

	(void)state;
	build(&m, false);
	add_event_update(&m, ID_B, "inst_retired.any");
	assert_int_equal(ses_foreign_info(m.b, m.n, &in, NULL, err, sizeof(err)), 0);
	assert_int_equal(in.nevents, 2);
	/* no EVENT_DESC: derived; B is named by its id */
	assert_string_equal(in.events[0].name, "CPU_TIME (cpu-clock)");
	assert_string_equal(in.events[1].name, "inst_retired.any");
}

static void test_derived_names(void **state)
{
	struct perf_event_attr a = { 0 };
	char n[64];

	(void)state;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	ses_perf_event_name(&a, n, sizeof(n));
	assert_string_equal(n, "page-faults");
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_true(ses_attr_is_timer(&a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_user = 1;
	ses_perf_event_name(&a, n, sizeof(n));
	assert_string_equal(n, "cycles:k");
	assert_false(ses_attr_is_timer(&a));
	a.exclude_user = 0;
	a.type = PERF_TYPE_RAW;
	a.config = 0x1c0;
	ses_perf_event_name(&a, n, sizeof(n));
	assert_string_equal(n, "r1c0");
	a.type = PERF_TYPE_HW_CACHE;
	a.config = PERF_COUNT_HW_CACHE_L1D | PERF_COUNT_HW_CACHE_OP_READ << 8 |
		   PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	ses_perf_event_name(&a, n, sizeof(n));
	assert_string_equal(n, "L1-dcache-load-misses");
	a.type = 42;
	a.config = 0x3c;
	ses_perf_event_name(&a, n, sizeof(n));
	assert_string_equal(n, "42:0x3c");
}

static void test_kinds(void **state)
{
	unsigned char h[128] = "PERFILE2";
	uint64_t size = 104;
	struct ses_info in;
	char err[256];

	(void)state;
	memcpy(h + 8, &size, 8);
	assert_int_equal(ses_perf_kind_of(h, sizeof(h)), SES_PERF_FILE_MODE);
	assert_int_equal(ses_foreign_info(h, sizeof(h), &in, NULL, err, sizeof(err)), -EINVAL);
	memset(h, 0, sizeof(h));
	assert_int_equal(ses_perf_kind_of(h, sizeof(h)), SES_PERF_OTHER);
	assert_int_equal(ses_perf_kind_of("PERFILE2", 8), SES_PERF_OTHER);
	/* a pipe header and nothing else: no event */
	memcpy(h, "PERFILE2", 8);
	size = 16;
	memcpy(h + 8, &size, 8);
	assert_int_equal(ses_foreign_info(h, 16, &in, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "HEADER_ATTR"));
}

/* Only the dummy: no sampling event, refused. */
static void test_only_dummy(void **state)
{
	struct perf_event_attr d = attr_dummy();
	struct ses_info in;
	struct img m = { .n = 0 };
	char err[256];

	(void)state;
	put(&m, "PERFILE2", 8);
	put64(&m, 16);
	add_attr(&m, &d, ID_DUMMY);
	assert_int_equal(ses_foreign_info(m.b, m.n, &in, NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no sampling event"));
}

static void test_meta_decoders_refuse(void **state)
{
	struct img m = { .n = 0 };
	struct ses_event_update u;
	struct ses_feature f;
	struct ses_desc_iter it = { 0 };
	struct ses_event_desc d;
	const char *s;
	size_t off = 0, slen, at;

	(void)state;
	/* an EVENT_UPDATE name without its NUL */
	at = begin(&m);
	put64(&m, SES_EVENT_UPDATE_NAME);
	put64(&m, 1);
	put(&m, "abcdefgh", 8);
	end(&m, at, SES_RECORD_EVENT_UPDATE, false);
	assert_int_equal(ses_decode_event_update(m.b, m.n, &u), -EINVAL);
	assert_int_equal(ses_decode_feature(m.b, m.n, &f), -EPROTO);
	/* a feature string longer than the feature */
	m.n = 0;
	at = begin(&m);
	put64(&m, SES_FEAT_HOSTNAME);
	put32(&m, 4096);
	put(&m, "host", 5);
	end(&m, at, SES_RECORD_HEADER_FEATURE, false);
	assert_int_equal(ses_decode_feature(m.b, m.n, &f), 0);
	assert_int_equal(ses_feature_string(&f, &off, &s, &slen), -EINVAL);
	/* an EVENT_DESC claiming a million events */
	m.n = 0;
	at = begin(&m);
	put64(&m, SES_FEAT_EVENT_DESC);
	put32(&m, 1000000);
	put32(&m, (uint32_t)sizeof(struct perf_event_attr));
	end(&m, at, SES_RECORD_HEADER_FEATURE, false);
	assert_int_equal(ses_decode_feature(m.b, m.n, &f), 0);
	assert_int_equal(ses_event_desc_next(&f, &it, &d), -EINVAL);
	/* a record header whose size runs past what is held */
	assert_int_equal(ses_decode_feature(m.b, m.n - 1, &f), -EINVAL);
}

/* Every cut of the stream: refused (-EINVAL) or read up to the cut, never past it (each
 * cut is copied into a buffer of exactly its size, so ASan sees any overread). */
static void test_truncations(void **state)
{
	struct ses_info in;
	struct img m;
	char err[256];

	(void)state;
	build(&m, true);
	for (size_t cut = 0; cut < m.n; cut++) {
		unsigned char *b = malloc(cut ? cut : 1);
		int ret;

		memcpy(b, m.b, cut);
		ret = ses_foreign_info(b, cut, &in, NULL, err, sizeof(err));
		assert_true(ret == 0 || ret == -EINVAL);
		/* the first attr must be whole for anything to be reported */
		if (cut < 16 + 8 + sizeof(struct perf_event_attr) + 8)
			assert_int_equal(ret, -EINVAL);
		if (!ret)
			assert_true(in.nevents >= 1 && in.nevents <= 2);
		free(b);
	}
}

static void test_corruptions(void **state)
{
	struct ses_info in;
	struct img m;
	char err[256];

	(void)state;
	build(&m, true);
	for (size_t i = 0; i < m.n; i++) {
		unsigned char *b = malloc(m.n);
		int ret;

		memcpy(b, m.b, m.n);
		b[i] ^= 0xff;
		ret = ses_foreign_info(b, m.n, &in, NULL, err, sizeof(err));
		assert_true(ret == 0 || ret == -EINVAL);
		assert_true(in.nevents >= 0 && in.nevents <= SES_MAX_EVENTS);
		assert_true(in.npids >= 0 && in.npids <= SES_MAX_PIDS);
		free(b);
	}
}

/* perf record -z: the kernel records inside zstd frames are not read, and it is said. */
static void test_compressed(void **state)
{
	struct ses_info in;
	struct img m;
	char err[256];
	size_t at;

	(void)state;
	build(&m, true);
	at = begin(&m);
	put64(&m, 0x28b52ffd); /* a zstd frame's magic, then whatever */
	end(&m, at, SES_RECORD_COMPRESSED, true);
	assert_int_equal(ses_foreign_info(m.b, m.n, &in, NULL, err, sizeof(err)), -EOPNOTSUPP);
	assert_non_null(strstr(err, "perf record -z"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_info_events),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_names_from_update),
		cmocka_unit_test(test_derived_names),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_only_dummy),
		cmocka_unit_test(test_compressed),
		cmocka_unit_test(test_meta_decoders_refuse),
		cmocka_unit_test(test_truncations),
		cmocka_unit_test(test_corruptions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
