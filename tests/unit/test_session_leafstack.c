// SPDX-License-Identifier: MIT
/* lib/session: leafstack.data (leafstack.c) and the split of fp samples with a leaf copy
 * (leafstack_split.c): a sample with REGS_USER + STACK_USER in gives a samples.data record
 * without them plus a side record; the join finds it by (seq, key); damage and
 * mismatches are counted, never crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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
#include "session_at.h"

#define MASK 0x1c0ULL /* three registers (x86-64's BP, SP, IP) */
#define STACK 64
#define FULL_ST (ST_ALL | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

static struct perf_event_attr attr_of(uint64_t st)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = st;
	a.sample_id_all = 1;
	a.sample_max_stack = 127;
	if (st & PERF_SAMPLE_REGS_USER) {
		a.sample_regs_user = MASK;
		a.sample_stack_user = STACK;
	}
	return a;
}

static const uint64_t chain[] = { PERF_CONTEXT_USER, 0x401010, 0x401234, 0x401500 };
static const uint64_t regs[] = { 0x7ffd0100, 0x7ffd00f0, 0x401010 }; /* bp, sp, ip */
static unsigned char stack_bytes[STACK];

/* Sample @i of event @id into @buf: ip, tid and time from @i. */
static int sample(void *buf, size_t cap, const struct perf_event_attr *a, uint64_t id, int i)
{
	struct ses_sample s = {
		.id = id, .ip = 0x401010, .pid = 100, .tid = 100 + (uint32_t)i,
		.time = 1000 + (uint64_t)i, .cpu = 1, .period = 1000000,
		.cpumode = PERF_RECORD_MISC_USER, .ips = chain, .nr_ips = 4,
	};

	if (a->sample_type & PERF_SAMPLE_REGS_USER) {
		s.regs_abi = PERF_SAMPLE_REGS_ABI_64;
		s.regs_mask = MASK;
		s.regs = regs;
		s.nregs = 3;
		s.stack = stack_bytes;
		s.stack_size = STACK;
		s.stack_dyn_size = STACK - 8 * (uint64_t)(i % 2); /* fewer valid bytes too */
	}
	return ses_encode_sample(buf, cap, a, &s);
}

/* The split: 3 samples of a leaf attr (id 7), one of a plain attr (id 9), a COMM. */
static void split_writes_both_files(void **state)
{
	struct perf_event_attr full = attr_of(FULL_ST), plain = attr_of(ST_ALL);
	struct perf_event_attr stripped = full;
	uint64_t id7 = 7, id9 = 9, seen, split, bad, joined, skipped, mism;
	char dir[PATH_MAX], path[PATH_MAX + 32], err[256];
	unsigned char buf[8192];
	struct ses_leaf_writer *lw;
	struct ses_leaf_reader *lr;
	struct ses_writer *w;
	struct ses_split *sp;
	struct ses_reader *rd;
	struct ses_record rec;
	struct ses_leaf l;
	struct stat sb;
	size_t n = 0;
	int k, nsamples = 0, full_size;

	(void)state;
	for (size_t i = 0; i < sizeof(stack_bytes); i++)
		stack_bytes[i] = (unsigned char)(i * 7 + 1);
	subdir(dir, sizeof(dir), "split");
	w = test_writer_open(dir);
	lw = test_leaf_writer_open(dir, MASK, STACK);
	assert_non_null(w);
	assert_non_null(lw);
	sp = ses_split_new(w, lw);
	assert_non_null(sp);
	assert_true(ses_split_is_leaf_attr(&full));
	assert_false(ses_split_is_leaf_attr(&plain));
	assert_int_equal(ses_split_add_attr(sp, &full, &id7, 1), 0);
	assert_int_equal(ses_split_add_attr(sp, &plain, &id9, 1), 0);
	ses_split_strip_attr(&stripped);
	assert_int_equal(stripped.sample_type, ST_ALL | PERF_SAMPLE_CALLCHAIN);
	assert_int_equal(stripped.sample_regs_user, 0);
	assert_int_equal(stripped.sample_stack_user, 0);
	assert_int_equal(ses_writer_add_attr(w, &stripped, &id7, 1), 0);
	assert_int_equal(ses_writer_add_attr(w, &plain, &id9, 1), 0);
	full_size = sample(buf, sizeof(buf), &full, 7, 0);
	assert_true(full_size > 0);
	n = (size_t)full_size;
	k = sample(buf + n, sizeof(buf) - n, &plain, 9, 1);
	n += (size_t)k;
	k = ses_encode_comm(buf + n, sizeof(buf) - n, &plain,
			    &(struct ses_comm){ .pid = 100, .tid = 100, .comm = "t", .comm_len = 1,
						.sid = { .pid = 100, .tid = 100, .time = 1001,
							 .id = 9, .cpu = 1, .valid = true } });
	assert_true(k > 0);
	n += (size_t)k;
	k = sample(buf + n, sizeof(buf) - n, &full, 7, 2);
	n += (size_t)k;
	/* in two writes, cut between records */
	assert_int_equal(ses_split_write(sp, buf, (size_t)full_size), 0);
	assert_int_equal(ses_split_write(sp, buf + full_size, n - (size_t)full_size), 0);
	k = sample(buf, sizeof(buf), &full, 7, 3);
	assert_int_equal(ses_split_write(sp, buf, (size_t)k), 0);
	ses_split_counts(sp, &seen, &split, &bad);
	assert_int_equal(seen, 4);
	assert_int_equal(split, 3);
	assert_int_equal(bad, 0);
	ses_split_free(sp);
	assert_int_equal(ses_leaf_writer_close(lw), 0);
	assert_int_equal(ses_writer_close(w), 0);

	snprintf(path, sizeof(path), "%s/" SES_LEAF_FILE, dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(ses_leaf_reader_open_file(&lr, path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, dir);
	assert_int_equal(ses_reader_open_file(&rd, path, err, sizeof(err)), 0);
	while (ses_reader_next(rd, &rec) == 1) {
		struct ses_sample s;

		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		/* samples.data: what a plain fp file holds, the chain intact */
		assert_int_equal(ses_reader_sample(rd, &rec, &s), 0);
		assert_null(s.regs);
		assert_null(s.stack);
		assert_int_equal(s.tid, 100 + nsamples);
		if (s.id == 7) {
			assert_int_equal(s.nr_ips, 4);
			assert_memory_equal(s.ips, chain, sizeof(chain));
			assert_true(rec.size < full_size - STACK);
			assert_int_equal(ses_leaf_join(lr, (uint64_t)nsamples, &s, &l), 1);
			assert_int_equal(l.nregs, 3);
			assert_memory_equal(l.regs, regs, sizeof(regs));
			assert_int_equal(l.stack_len, STACK - 8 * (nsamples % 2));
			assert_memory_equal(l.stack, stack_bytes, l.stack_len);
			assert_int_equal(l.time, s.time);
		} else {
			assert_int_equal(ses_leaf_join(lr, (uint64_t)nsamples, &s, &l), 0);
		}
		nsamples++;
	}
	assert_int_equal(nsamples, 4);
	assert_int_equal(ses_reader_damage(rd, NULL), 0);
	ses_leaf_reader_counts(lr, &joined, &skipped, &mism);
	assert_int_equal(joined, 3);
	assert_int_equal(skipped + mism, 0);
	assert_int_equal(ses_leaf_reader_damage(lr, NULL), 0);
	ses_reader_free(rd);
	ses_leaf_reader_free(lr);
}

/* An image of a header and @n records (seq i, tid 100 + i, time 1000 + i). */
static size_t image(unsigned char *buf, size_t cap, int n)
{
	unsigned char fields[SES_LEAF_HDR_SIZE - SES_CT_PREFIX] = { 0 }, value[256];
	size_t len;

	memcpy(fields, &(uint64_t){ MASK }, 8);
	len = ses_ct_put_header(buf, cap, SES_LEAF_MAGIC, SES_LEAF_VERSION, 0, fields,
				sizeof(fields));
	assert_int_equal(len, SES_LEAF_HDR_SIZE);
	for (int i = 0; i < n; i++) {
		struct ses_leaf l = { .seq = (uint64_t)i, .id = 7, .pid = 100,
				      .tid = 100 + (uint32_t)i, .time = 1000 + (uint64_t)i,
				      .regs_abi = PERF_SAMPLE_REGS_ABI_64, .nregs = 3, .regs = regs,
				      .stack_len = 20, .stack = stack_bytes };
		int k = ses_leaf_encode(value, sizeof(value), &l);

		assert_int_equal(k, SES_LEAF_FIXED + 3 * 8 + 20);
		k = (int)ses_ct_put_record(buf + len, cap - len, SES_LEAF_RECORD, value, (size_t)k,
					   NULL, 0);
		assert_int_equal(k, 8 + SES_LEAF_FIXED + 3 * 8 + 20);
		len += (size_t)k;
	}
	return len;
}

static struct ses_sample key(int i)
{
	return (struct ses_sample){ .id = 7, .pid = 100, .tid = 100 + (uint32_t)i,
				    .time = 1000 + (uint64_t)i };
}

/* The merge walk: samples without a record, a record whose key differs, records no
 * sample asked for. */
static void join_walks_in_order(void **state)
{
	unsigned char buf[4096];
	size_t len = image(buf, sizeof(buf), 5);
	struct ses_leaf_reader *lr;
	struct ses_sample s;
	struct ses_leaf l;
	uint64_t joined, skipped, mism;

	(void)state;
	assert_int_equal(ses_leaf_reader_open_mem(&lr, buf, len, NULL, 0), 0);
	s = key(0);
	assert_int_equal(ses_leaf_join(lr, 0, &s, &l), 1);
	assert_int_equal(l.stack_len, 20);
	s = key(1);
	s.time++; /* record 1 is another sample's */
	assert_int_equal(ses_leaf_join(lr, 1, &s, &l), 0);
	s = key(4); /* 2 and 3 never asked for */
	assert_int_equal(ses_leaf_join(lr, 4, &s, &l), 1);
	assert_int_equal(l.tid, 104);
	s = key(5);
	assert_int_equal(ses_leaf_join(lr, 5, &s, &l), 0); /* past the end */
	ses_leaf_reader_counts(lr, &joined, &skipped, &mism);
	assert_int_equal(joined, 2);
	assert_int_equal(skipped, 2);
	assert_int_equal(mism, 1);
	assert_int_equal(ses_leaf_join(NULL, 0, &s, &l), 0);
	ses_leaf_reader_free(lr);
}

/* Every cut of the file, and corrupted bytes: the records before the damage join, the
 * damage has an offset, nothing is read outside the buffer (ASan builds check that). */
static void join_survives_cuts_and_corruption(void **state)
{
	unsigned char buf[4096], *copy;
	size_t len = image(buf, sizeof(buf), 3);
	struct ses_leaf_reader *lr;
	struct ses_sample s;
	struct ses_leaf l;

	(void)state;
	for (size_t cut = 0; cut <= len; cut++) {
		int whole = cut < SES_LEAF_HDR_SIZE ? -1 : (int)((cut - SES_LEAF_HDR_SIZE) /
								 ((len - SES_LEAF_HDR_SIZE) / 3));
		int got = 0;

		copy = dup_exact(buf, cut);
		if (cut < SES_LEAF_HDR_SIZE) {
			assert_int_equal(ses_leaf_reader_open_mem(&lr, copy, cut, NULL, 0), -EINVAL);
			free(copy);
			continue;
		}
		assert_int_equal(ses_leaf_reader_open_mem(&lr, copy, cut, NULL, 0), 0);
		for (int i = 0; i < 3; i++) {
			s = key(i);
			got += ses_leaf_join(lr, (uint64_t)i, &s, &l);
		}
		assert_int_equal(got, whole);
		assert_int_equal(ses_leaf_reader_damage(lr, NULL) != 0,
				 whole < 3 && cut != SES_LEAF_HDR_SIZE + (size_t)whole *
								     ((len - SES_LEAF_HDR_SIZE) / 3));
		ses_leaf_reader_free(lr);
		free(copy);
	}
	/* a size that runs past the end, an nregs the mask does not have */
	copy = dup_exact(buf, len);
	memcpy(copy + SES_LEAF_HDR_SIZE + 4, &(uint32_t){ 4000 }, 4);
	assert_int_equal(ses_leaf_reader_open_mem(&lr, copy, len, NULL, 0), 0);
	s = key(0);
	assert_int_equal(ses_leaf_join(lr, 0, &s, &l), 0);
	assert_int_equal(ses_leaf_reader_damage(lr, NULL), SES_LEAF_HDR_SIZE);
	ses_leaf_reader_free(lr);
	memcpy(copy, buf, len);
	memcpy(copy + SES_LEAF_HDR_SIZE + 48, &(uint32_t){ 2 }, 4);
	assert_int_equal(ses_leaf_reader_open_mem(&lr, copy, len, NULL, 0), 0);
	assert_int_equal(ses_leaf_join(lr, 0, &s, &l), 0);
	assert_int_equal(ses_leaf_reader_damage(lr, NULL), SES_LEAF_HDR_SIZE);
	ses_leaf_reader_free(lr);
	free(copy);
}

static void reader_refuses_bad_headers(void **state)
{
	unsigned char buf[4096];
	size_t len = image(buf, sizeof(buf), 1);
	struct ses_leaf_reader *lr;
	char err[200];

	(void)state;
	buf[0] = 'X';
	assert_int_equal(ses_leaf_reader_open_mem(&lr, buf, len, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "offset 0"));
	image(buf, sizeof(buf), 1);
	buf[8] = 3; /* a newer major */
	assert_int_equal(ses_leaf_reader_open_mem(&lr, buf, len, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "offset 8: leafstack file format 3.0 is newer than this uprof "
				 "reads (2.x): read it with a newer uprof");
	image(buf, sizeof(buf), 1);
	buf[12] = 12; /* header size */
	assert_int_equal(ses_leaf_reader_open_mem(&lr, buf, len, err, sizeof(err)), -EINVAL);
	image(buf, sizeof(buf), 1);
	memset(buf + 16, 0xff, 8); /* 64 registers */
	assert_int_equal(ses_leaf_reader_open_mem(&lr, buf, len, err, sizeof(err)), -EINVAL);
	assert_int_equal(ses_leaf_reader_open_file(&lr, "/nonexistent/leafstack.data", err,
						   sizeof(err)), -ENOENT);
	assert_null(lr);
}

static void encode_checks_its_limits(void **state)
{
	unsigned char buf[8];
	struct ses_leaf l = { .nregs = SES_LEAF_MAX_REGS + 1, .regs = regs };

	(void)state;
	assert_int_equal(ses_leaf_encode(buf, sizeof(buf), &l), -EINVAL);
	l = (struct ses_leaf){ .stack_len = SES_LEAF_MAX_STACK + 1, .stack = stack_bytes };
	assert_int_equal(ses_leaf_encode(buf, sizeof(buf), &l), -EINVAL);
	l = (struct ses_leaf){ .nregs = 0 };
	assert_int_equal(ses_leaf_encode(buf, sizeof(buf), &l), -ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(split_writes_both_files),
		cmocka_unit_test(join_walks_in_order),
		cmocka_unit_test(join_survives_cuts_and_corruption),
		cmocka_unit_test(reader_refuses_bad_headers),
		cmocka_unit_test(encode_checks_its_limits),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
