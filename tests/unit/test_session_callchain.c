// SPDX-License-Identifier: MIT
/*
 * ses_reader_sample() on samples with call stacks: PERF_SAMPLE_CALLCHAIN (context markers
 * kept), REGS_USER (abi, one u64 per mask bit, none for ABI_NONE), STACK_USER (size,
 * bytes, dyn_size capped), fields before them (READ in both layouts, RAW, BRANCH_STACK)
 * skipped by their size, and every cut or oversized count refused with -EINVAL.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/internal.h"

#define BASE_TYPE                                                                        \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |  \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
#define REGS_MASK 0x1c1ULL /* four registers: bits 0, 6, 7 and 8 */

struct img {
	unsigned char b[70000];
	size_t n;
};

static void put(struct img *m, const void *p, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static void put64(struct img *m, uint64_t v)
{
	put(m, &v, 8);
}

static void put_hdr(struct img *m, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { type, misc, (uint16_t)size };

	put(m, &h, sizeof(h));
}

/* Pipe header and one HEADER_ATTR with id 7 for @attr. */
static void begin(struct img *m, const struct perf_event_attr *attr)
{
	m->n = 0;
	put(m, SES_PIPE_MAGIC, 8);
	put64(m, SES_PIPE_HDR_SIZE);
	put_hdr(m, SES_RECORD_HEADER_ATTR, 0, 8 + sizeof(*attr) + 8);
	put(m, attr, sizeof(*attr));
	put64(m, 7);
}

static void base_attr(struct perf_event_attr *a, uint64_t extra)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->sample_type = BASE_TYPE | extra;
	a->sample_id_all = 1;
	a->sample_regs_user = REGS_MASK;
}

/* The fixed fields of a sample: id 7, ip, pid/tid 10/11, time 1000, cpu 1, period 5. */
static void put_fixed(struct img *m)
{
	put64(m, 7);
	put64(m, 0x401000);
	put64(m, 10 | (11ULL << 32));
	put64(m, 1000);
	put64(m, 1);
	put64(m, 5);
}

/* Read the one sample of @m (the record after the attr). */
static int read_sample(const struct img *m, struct ses_sample *s, unsigned char **copy)
{
	struct ses_reader *r;
	struct ses_record rec;
	char err[128];
	int ret = -1;

	/* an odd address: fields must be read without alignment assumptions */
	*copy = malloc(m->n + 1);
	assert_non_null(*copy);
	memcpy(*copy + 1, m->b, m->n);
	assert_int_equal(ses_reader_open_mem(&r, *copy + 1, m->n, err, sizeof(err)), 0);
	while (ses_reader_next(r, &rec) == 1)
		if (rec.type == PERF_RECORD_SAMPLE)
			ret = ses_reader_sample(r, &rec, s);
	ses_reader_free(r);
	return ret;
}

static void callchain_with_context_markers(void **state)
{
	static const uint64_t ips[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL,
					PERF_CONTEXT_USER, 0x401000, 0x401234, 0x7f0000001000ULL };
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_CALLCHAIN);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + 48 + 8 + sizeof(ips));
	put_fixed(m);
	put64(m, 6);
	put(m, ips, sizeof(ips));
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(s.nr_ips, 6);
	for (int i = 0; i < 6; i++)
		assert_true(ses_sample_u64(s.ips, i) == ips[i]);
	assert_true(ses_sample_u64(s.ips, 0) >= (uint64_t)PERF_CONTEXT_MAX);
	assert_int_equal(s.period, 5);
	assert_null(s.regs);
	assert_null(s.stack);
	free(copy);
	free(m);
}

static void callchain_count_past_record_refused(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_CALLCHAIN);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 16);
	put_fixed(m);
	put64(m, 3); /* three entries claimed, two present */
	put64(m, 1);
	put64(m, 2);
	assert_int_equal(read_sample(m, &s, &copy), -EINVAL);
	free(copy);
	/* a huge count must not wrap the bounds check */
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 8);
	put_fixed(m);
	put64(m, UINT64_MAX / 8 + 2);
	put64(m, 1);
	assert_int_equal(read_sample(m, &s, &copy), -EINVAL);
	free(copy);
	free(m);
}

static void callchain_empty(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_CALLCHAIN);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8);
	put_fixed(m);
	put64(m, 0);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(s.nr_ips, 0);
	free(copy);
	free(m);
}

static void regs_and_stack_user(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy, stack[64];
	struct img *m = malloc(sizeof(*m));

	(void)state;
	for (size_t i = 0; i < sizeof(stack); i++)
		stack[i] = (unsigned char)i;
	base_attr(&a, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 16 + 8 + 32 + 8 + 64 + 8);
	put_fixed(m);
	put64(m, 1);
	put64(m, PERF_CONTEXT_USER);
	put64(m, PERF_SAMPLE_REGS_ABI_64);
	put64(m, 0xa0); /* bit 0 */
	put64(m, 0xa6); /* bit 6 */
	put64(m, 0xa7); /* bit 7 */
	put64(m, 0xa8); /* bit 8 */
	put64(m, sizeof(stack));
	put(m, stack, sizeof(stack));
	put64(m, 40);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(s.regs_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s.regs_mask, REGS_MASK);
	assert_int_equal(s.nregs, 4);
	assert_int_equal(ses_sample_u64(s.regs, 0), 0xa0);
	assert_int_equal(ses_sample_u64(s.regs, 3), 0xa8);
	assert_int_equal(s.stack_size, 64);
	assert_int_equal(s.stack_dyn_size, 40);
	assert_memory_equal(s.stack, stack, sizeof(stack));
	free(copy);
	free(m);
}

static void regs_abi_none_and_empty_stack(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	begin(m, &a);
	/* a kernel thread: abi NONE has no regs; stack size 0 has no data and no dyn_size */
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 8);
	put_fixed(m);
	put64(m, PERF_SAMPLE_REGS_ABI_NONE);
	put64(m, 0);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_null(s.regs);
	assert_int_equal(s.nregs, 0);
	assert_null(s.stack);
	assert_int_equal(s.stack_size, 0);
	free(copy);
	free(m);
}

static void dyn_size_capped_and_cut_stack_refused(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_STACK_USER);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 16 + 8);
	put_fixed(m);
	put64(m, 16);
	put64(m, 1);
	put64(m, 2);
	put64(m, 9999); /* more than was copied */
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(s.stack_dyn_size, 16);
	free(copy);
	/* stack size larger than the record */
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 16);
	put_fixed(m);
	put64(m, 4096);
	put64(m, 1);
	put64(m, 2);
	assert_int_equal(read_sample(m, &s, &copy), -EINVAL);
	free(copy);
	/* regs cut short */
	base_attr(&a, PERF_SAMPLE_REGS_USER);
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 8 + 16);
	put_fixed(m);
	put64(m, PERF_SAMPLE_REGS_ABI_64);
	put64(m, 1);
	put64(m, 2);
	assert_int_equal(read_sample(m, &s, &copy), -EINVAL);
	free(copy);
	free(m);
}

/* READ (both layouts), RAW and BRANCH_STACK come before CALLCHAIN's neighbours: their
 * sizes must be skipped exactly for REGS_USER and STACK_USER to be found. */
static void fields_before_are_skipped(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m));

	(void)state;
	base_attr(&a, PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			      PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0,
		8 + 48 + (8 + 8 + 2 * 16) + (8 + 8) + 16 + (8 + 8 + 24) + (8 + 32));
	put_fixed(m);
	put64(m, 2);     /* READ group: nr */
	put64(m, 111);   /* time_enabled */
	put64(m, 1), put64(m, 100); /* value, id */
	put64(m, 2), put64(m, 101);
	put64(m, 1);     /* CALLCHAIN nr */
	put64(m, 0x401000);
	put64(m, 12);    /* RAW: u32 size 12, then 12 bytes: 16 in all */
	put64(m, 0);
	put64(m, 1);     /* BRANCH_STACK nr */
	put64(m, 0);     /* hw_idx */
	put64(m, 1), put64(m, 2), put64(m, 3);
	put64(m, PERF_SAMPLE_REGS_ABI_64);
	put64(m, 10), put64(m, 11), put64(m, 12), put64(m, 13);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(s.nr_ips, 1);
	assert_int_equal(ses_sample_u64(s.ips, 0), 0x401000);
	assert_int_equal(s.nregs, 4);
	assert_int_equal(ses_sample_u64(s.regs, 0), 10);
	assert_int_equal(ses_sample_u64(s.regs, 3), 13);
	free(copy);
	/* READ without GROUP: value, id, lost */
	base_attr(&a, PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN);
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	begin(m, &a);
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 24 + 16);
	put_fixed(m);
	put64(m, 5), put64(m, 6), put64(m, 7);
	put64(m, 1);
	put64(m, 0x402000);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	assert_int_equal(ses_sample_u64(s.ips, 0), 0x402000);
	free(copy);
	free(m);
}

/* Every cut of a well-formed sample record is refused or read within bounds (ASan
 * checks the latter), never accepted with fields beyond the cut. */
static void every_cut_is_safe(void **state)
{
	struct perf_event_attr a;
	struct ses_sample s;
	unsigned char *copy;
	struct img *m = malloc(sizeof(*m)), *cut = malloc(sizeof(*cut));
	size_t at;

	(void)state;
	base_attr(&a, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
	begin(m, &a);
	at = m->n;
	put_hdr(m, PERF_RECORD_SAMPLE, 0, 8 + 48 + 24 + 8 + 32 + 8 + 32 + 8);
	put_fixed(m);
	put64(m, 2), put64(m, PERF_CONTEXT_USER), put64(m, 0x401000);
	put64(m, PERF_SAMPLE_REGS_ABI_64);
	put64(m, 1), put64(m, 2), put64(m, 3), put64(m, 4);
	put64(m, 32);
	put64(m, 0), put64(m, 0), put64(m, 0), put64(m, 0);
	put64(m, 32);
	assert_int_equal(read_sample(m, &s, &copy), 0);
	free(copy);
	for (size_t len = 8 + 48; len < m->n - at; len += 8) {
		*cut = *m;
		cut->n = at + len;
		/* the record says it is @len bytes long: everything must fit in that */
		uint16_t sz = (uint16_t)len;
		memcpy(cut->b + at + 6, &sz, 2);
		assert_int_equal(read_sample(cut, &s, &copy), -EINVAL);
		free(copy);
	}
	free(cut);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callchain_with_context_markers),
		cmocka_unit_test(callchain_count_past_record_refused),
		cmocka_unit_test(callchain_empty),
		cmocka_unit_test(regs_and_stack_user),
		cmocka_unit_test(regs_abi_none_and_empty_stack),
		cmocka_unit_test(dyn_size_capped_and_cut_stack_refused),
		cmocka_unit_test(fields_before_are_skipped),
		cmocka_unit_test(every_cut_is_safe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
