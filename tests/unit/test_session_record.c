// SPDX-License-Identifier: MIT
/*
 * lib/session's perf record codec: every kind encoded and decoded back field by field,
 * the trailer laid out from the attr given (two layouts), every truncation and some
 * corruptions of each kind refused, and the reader's choice of attr per record (by id,
 * through the hash; the first attr's layout when the attrs disagree on where the id is).
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

#define ST_ALL                                                                           \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |  \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)
/* a second layout: no IDENTIFIER, ID and STREAM_ID in the trailer, no CPU */
#define ST_B (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |      \
	      PERF_SAMPLE_STREAM_ID)

static struct perf_event_attr attr_of(uint64_t st, bool id_all)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.sample_type = st;
	a.sample_id_all = id_all;
	return a;
}

static const struct ses_sample_id SID = { .pid = 100, .tid = 101, .time = 123456789,
					  .id = 42, .stream_id = 43, .cpu = 3, .valid = true };

/* The trailer fields @st carries, the others 0: what a decoder must return. */
static struct ses_sample_id sid_for(uint64_t st)
{
	struct ses_sample_id s = SID;

	if (!(st & PERF_SAMPLE_TID))
		s.pid = s.tid = 0;
	if (!(st & PERF_SAMPLE_TIME))
		s.time = 0;
	if (!(st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		s.id = 0;
	if (!(st & PERF_SAMPLE_STREAM_ID))
		s.stream_id = 0;
	if (!(st & PERF_SAMPLE_CPU))
		s.cpu = 0;
	return s;
}

static void assert_sid(const struct ses_sample_id *got, const struct ses_sample_id *want)
{
	assert_int_equal(got->valid, want->valid);
	assert_int_equal(got->pid, want->pid);
	assert_int_equal(got->tid, want->tid);
	assert_int_equal(got->time, want->time);
	assert_int_equal(got->id, want->id);
	assert_int_equal(got->stream_id, want->stream_id);
	assert_int_equal(got->cpu, want->cpu);
}

/* One record of each kind with @a's trailer, into @buf; its size. */
enum kind { K_MMAP, K_MMAP2, K_MMAP2_BID, K_COMM, K_FORK, K_EXIT, K_LOST, K_THROTTLE,
	    K_UNTHROTTLE, K_KERNEL, K_SAMPLE, K_NKINDS };

static const struct ses_mmap MMAP2 = {
	.mmap2 = true, .misc = PERF_RECORD_MISC_USER, .pid = 100, .tid = 101,
	.start = 0x400000, .len = 0x2000, .pgoff = 0x1000, .maj = 8, .min = 1,
	.ino = 123456, .ino_generation = 7, .prot = 5, .flags = 2,
	.filename = "/usr/bin/prog", .filename_len = 13,
};

static const uint64_t IPS[3] = { (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x402000 };
static const uint64_t REGS[2] = { 0x7ffd0000, 0x401000 };
static const unsigned char STACK[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static int encode(enum kind k, const struct perf_event_attr *a, unsigned char *buf,
		  size_t cap)
{
	struct ses_mmap m = MMAP2;
	struct ses_comm c = { .pid = 100, .tid = 101, .exec = true, .comm = "prog",
			      .comm_len = 4 };
	struct ses_task t = { .pid = 200, .ppid = 100, .tid = 201, .ptid = 101, .time = 99 };
	struct ses_lost l = { .id = 42, .lost = 17 };
	struct ses_throttle th = { .time = 77, .id = 42, .stream_id = 43 };
	struct ses_sample s = { .id = 42, .ip = 0x401000, .pid = 100, .tid = 101,
				.time = 5000, .addr = 0xdead, .stream_id = 43, .cpu = 1,
				.period = 1000000, .cpumode = PERF_RECORD_MISC_USER, .ips = IPS,
				.nr_ips = 3, .regs_abi = PERF_SAMPLE_REGS_ABI_64, .regs = REGS,
				.nregs = 2, .stack = STACK, .stack_size = 16,
				.stack_dyn_size = 12 };

	m.sid = c.sid = t.sid = l.sid = th.sid = SID;
	switch (k) {
	case K_MMAP:
		m.mmap2 = false;
		return ses_encode_mmap(buf, cap, a, &m);
	case K_MMAP2:
		return ses_encode_mmap(buf, cap, a, &m);
	case K_MMAP2_BID:
		m.build_id_form = true;
		m.build_id_size = 20;
		for (int i = 0; i < 20; i++)
			m.build_id[i] = (uint8_t)(0xa0 + i);
		return ses_encode_mmap(buf, cap, a, &m);
	case K_COMM:
		return ses_encode_comm(buf, cap, a, &c);
	case K_FORK:
		return ses_encode_task(buf, cap, a, PERF_RECORD_FORK, &t);
	case K_EXIT:
		return ses_encode_task(buf, cap, a, PERF_RECORD_EXIT, &t);
	case K_LOST:
		return ses_encode_lost(buf, cap, a, &l);
	case K_THROTTLE:
		return ses_encode_throttle(buf, cap, a, &th);
	case K_UNTHROTTLE:
		th.unthrottle = true;
		return ses_encode_throttle(buf, cap, a, &th);
	case K_KERNEL:
		return ses_encode_kernel_map(buf, cap, a, 0xffffffff81000000ULL, 55, 42);
	case K_SAMPLE:
		return ses_encode_sample(buf, cap, a, &s);
	default:
		return -EINVAL;
	}
}

static void check_mmap_common(const struct ses_mmap *m, bool mmap2)
{
	assert_int_equal(m->mmap2, mmap2);
	assert_int_equal(m->pid, 100);
	assert_int_equal(m->tid, 101);
	assert_int_equal(m->start, 0x400000);
	assert_int_equal(m->len, 0x2000);
	assert_int_equal(m->pgoff, 0x1000);
	assert_int_equal(m->filename_len, 13);
	assert_memory_equal(m->filename, "/usr/bin/prog", 14); /* NUL included */
	assert_int_equal(ses_mmap_kind(m), SES_MAP_FILE);
}

/* Decode what encode(k) wrote and check every field. */
static void check_decoded(enum kind k, const struct perf_event_attr *a, const struct ses_decoded *d)
{
	struct ses_sample_id want = sid_for(a->sample_id_all ? a->sample_type : 0);

	if (!ses_sample_id_size(a))
		memset(&want, 0, sizeof(want)); /* no trailer: nothing, and not valid */
	switch (k) {
	case K_MMAP:
		assert_int_equal(d->type, PERF_RECORD_MMAP);
		check_mmap_common(&d->u.mmap, false);
		assert_int_equal(d->u.mmap.ino, 0);
		assert_sid(&d->u.mmap.sid, &want);
		break;
	case K_MMAP2:
		assert_int_equal(d->type, PERF_RECORD_MMAP2);
		check_mmap_common(&d->u.mmap, true);
		assert_false(d->u.mmap.build_id_form);
		assert_int_equal(d->u.mmap.maj, 8);
		assert_int_equal(d->u.mmap.min, 1);
		assert_int_equal(d->u.mmap.ino, 123456);
		assert_int_equal(d->u.mmap.ino_generation, 7);
		assert_int_equal(d->u.mmap.prot, 5);
		assert_int_equal(d->u.mmap.flags, 2);
		assert_sid(&d->u.mmap.sid, &want);
		break;
	case K_MMAP2_BID:
		assert_int_equal(d->type, PERF_RECORD_MMAP2);
		assert_true(d->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
		check_mmap_common(&d->u.mmap, true);
		assert_true(d->u.mmap.build_id_form);
		assert_int_equal(d->u.mmap.build_id_size, 20);
		assert_int_equal(d->u.mmap.build_id[0], 0xa0);
		assert_int_equal(d->u.mmap.build_id[19], 0xa0 + 19);
		assert_int_equal(d->u.mmap.ino, 0);
		assert_int_equal(d->u.mmap.prot, 5);
		assert_sid(&d->u.mmap.sid, &want);
		break;
	case K_COMM:
		assert_int_equal(d->type, PERF_RECORD_COMM);
		assert_true(d->misc & PERF_RECORD_MISC_COMM_EXEC);
		assert_true(d->u.comm.exec);
		assert_int_equal(d->u.comm.pid, 100);
		assert_int_equal(d->u.comm.tid, 101);
		assert_int_equal(d->u.comm.comm_len, 4);
		assert_memory_equal(d->u.comm.comm, "prog", 5);
		assert_sid(&d->u.comm.sid, &want);
		break;
	case K_FORK:
	case K_EXIT:
		assert_int_equal(d->type, k == K_FORK ? PERF_RECORD_FORK : PERF_RECORD_EXIT);
		assert_int_equal(d->u.task.pid, 200);
		assert_int_equal(d->u.task.ppid, 100);
		assert_int_equal(d->u.task.tid, 201);
		assert_int_equal(d->u.task.ptid, 101);
		assert_int_equal(d->u.task.time, 99);
		assert_sid(&d->u.task.sid, &want);
		break;
	case K_LOST:
		assert_int_equal(d->type, PERF_RECORD_LOST);
		assert_int_equal(d->u.lost.id, 42);
		assert_int_equal(d->u.lost.lost, 17);
		assert_sid(&d->u.lost.sid, &want);
		break;
	case K_THROTTLE:
	case K_UNTHROTTLE:
		assert_int_equal(d->type, k == K_THROTTLE ? PERF_RECORD_THROTTLE
							  : PERF_RECORD_UNTHROTTLE);
		assert_int_equal(d->u.throttle.unthrottle, k == K_UNTHROTTLE);
		assert_int_equal(d->u.throttle.time, 77);
		assert_int_equal(d->u.throttle.id, 42);
		assert_int_equal(d->u.throttle.stream_id, 43);
		assert_sid(&d->u.throttle.sid, &want);
		break;
	case K_KERNEL:
		assert_int_equal(d->type, PERF_RECORD_MMAP);
		assert_int_equal(d->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_KERNEL);
		assert_int_equal(d->u.mmap.pid, UINT32_MAX);
		assert_int_equal(d->u.mmap.start, 0xffffffff81000000ULL);
		assert_int_equal(d->u.mmap.len, ~0ULL - 0xffffffff81000000ULL);
		assert_int_equal(d->u.mmap.pgoff, 0xffffffff81000000ULL);
		assert_int_equal(d->u.mmap.filename_len, 22);
		assert_memory_equal(d->u.mmap.filename, "[kernel.kallsyms]_text", 23);
		assert_int_equal(ses_mmap_kind(&d->u.mmap), SES_MAP_KERNEL);
		if (a->sample_id_all && (a->sample_type & PERF_SAMPLE_TID)) {
			assert_int_equal(d->u.mmap.sid.pid, UINT32_MAX);
			assert_int_equal(d->u.mmap.sid.tid, 0);
		}
		if (a->sample_id_all && (a->sample_type & PERF_SAMPLE_TIME))
			assert_int_equal(d->u.mmap.sid.time, 55);
		break;
	default:
		fail();
	}
}

static const uint64_t LAYOUTS[] = { ST_ALL, ST_B, ST_ALL | PERF_SAMPLE_STREAM_ID, 0 };

/* Every kind, with three trailer layouts and with none: encoded, then decoded back by
 * the kind's own decoder and by ses_decode(). */
static void test_round_trip_every_kind(void **state)
{
	unsigned char buf[4096];
	struct ses_decoded d;

	(void)state;
	for (size_t l = 0; l < sizeof(LAYOUTS) / sizeof(LAYOUTS[0]); l++) {
		for (int id_all = 0; id_all < 2; id_all++) {
			struct perf_event_attr a = attr_of(LAYOUTS[l], id_all);

			for (int k = 0; k < K_SAMPLE; k++) {
				int n = encode(k, &a, buf, sizeof(buf));

				assert_true(n > 0);
				assert_int_equal(n % 8, 0);
				assert_int_equal(n, ((struct perf_event_header *)buf)->size);
				assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), 0);
				assert_int_equal(d.size, n);
				check_decoded(k, &a, &d);
			}
		}
	}
}

/* The trailer is where the attr says: 8 bytes per field, at the end. */
static void test_trailer_layout_from_attr(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true), b = attr_of(ST_B, true);
	unsigned char buf[256];
	uint64_t v;
	int n;

	(void)state;
	assert_int_equal(ses_sample_id_size(&a), 32); /* TID TIME CPU IDENTIFIER */
	assert_int_equal(ses_sample_id_size(&b), 32); /* TID TIME ID STREAM_ID */
	assert_int_equal(ses_sample_id_size(NULL), 0);
	a.sample_id_all = 0;
	assert_int_equal(ses_sample_id_size(&a), 0);
	a.sample_id_all = 1;
	n = encode(K_LOST, &a, buf, sizeof(buf));
	assert_int_equal(n, 8 + 16 + 32);
	memcpy(&v, buf + n - 8, 8);
	assert_int_equal(v, 42); /* IDENTIFIER last */
	memcpy(&v, buf + n - 16, 8);
	assert_int_equal(v, 3); /* cpu 3, res 0 */
	n = encode(K_LOST, &b, buf, sizeof(buf));
	memcpy(&v, buf + n - 8, 8);
	assert_int_equal(v, 43); /* STREAM_ID last */
	memcpy(&v, buf + n - 16, 8);
	assert_int_equal(v, 42); /* then ID */
}

static void test_round_trip_sample(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL | PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID |
						   PERF_SAMPLE_ID | PERF_SAMPLE_CALLCHAIN |
						   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
					   true);
	unsigned char buf[4096];
	struct ses_sample s;
	int n;

	(void)state;
	a.sample_regs_user = 0x3;
	n = encode(K_SAMPLE, &a, buf, sizeof(buf));
	/* header, 9 fixed u64, chain 1+3, regs 1+2, stack 1+2+1 */
	assert_int_equal(n, 8 + 8 * 9 + 8 * 4 + 8 * 3 + 8 * 4);
	assert_int_equal(ses_decode_sample(&a, buf, (size_t)n, &s), 0);
	assert_int_equal(s.id, 42);
	assert_int_equal(s.ip, 0x401000);
	assert_int_equal(s.pid, 100);
	assert_int_equal(s.tid, 101);
	assert_int_equal(s.time, 5000);
	assert_int_equal(s.addr, 0xdead);
	assert_int_equal(s.stream_id, 43);
	assert_int_equal(s.cpu, 1);
	assert_int_equal(s.period, 1000000);
	assert_int_equal(s.cpumode, PERF_RECORD_MISC_USER);
	assert_int_equal(s.nr_ips, 3);
	assert_int_equal(ses_sample_u64(s.ips, 0), (uint64_t)PERF_CONTEXT_USER);
	assert_int_equal(ses_sample_u64(s.ips, 2), 0x402000);
	assert_int_equal(s.regs_abi, PERF_SAMPLE_REGS_ABI_64);
	assert_int_equal(s.regs_mask, 0x3);
	assert_int_equal(s.nregs, 2);
	assert_int_equal(ses_sample_u64(s.regs, 1), 0x401000);
	assert_int_equal(s.stack_size, 16);
	assert_int_equal(s.stack_dyn_size, 12);
	assert_memory_equal(s.stack, STACK, 16);
	/* fields it cannot write are refused, not dropped (RAW it writes since --trace os) */
	a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	assert_int_equal(encode(K_SAMPLE, &a, buf, sizeof(buf)), -EOPNOTSUPP);
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_BRANCH_STACK;
	a.sample_type |= PERF_SAMPLE_READ;
	assert_int_equal(encode(K_SAMPLE, &a, buf, sizeof(buf)), -EOPNOTSUPP);
}

static void test_round_trip_attr_and_round(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true);
	uint64_t ids[3] = { 7, 8, UINT64_MAX };
	unsigned char buf[512];
	struct ses_attr_rec r;
	struct ses_decoded d;
	int n;

	(void)state;
	a.sample_period = 1000000;
	a.size = 0; /* the encoder gives it the struct's size */
	n = ses_encode_attr(buf, sizeof(buf), &a, ids, 3);
	assert_int_equal(n, 8 + (int)sizeof(a) + 24);
	assert_int_equal(ses_decode_attr(buf, (size_t)n, &r), 0);
	assert_int_equal(r.attr.size, sizeof(a));
	assert_int_equal(r.attr.sample_type, ST_ALL);
	assert_int_equal(r.attr.sample_period, 1000000);
	assert_int_equal(r.attr.sample_id_all, 1);
	assert_int_equal(r.nids, 3);
	assert_int_equal(ses_sample_u64(r.ids, 0), 7);
	assert_int_equal(ses_sample_u64(r.ids, 2), UINT64_MAX);
	a.size = PERF_ATTR_SIZE_VER0; /* an old, short attr */
	n = ses_encode_attr(buf, sizeof(buf), &a, NULL, 0);
	assert_int_equal(n, 8 + PERF_ATTR_SIZE_VER0);
	assert_int_equal(ses_decode_attr(buf, (size_t)n, &r), 0);
	assert_int_equal(r.attr.size, PERF_ATTR_SIZE_VER0);
	assert_int_equal(r.nids, 0);
	a.size = 32;
	assert_int_equal(ses_encode_attr(buf, sizeof(buf), &a, NULL, 0), -EINVAL);
	a.size = sizeof(a);
	assert_int_equal(ses_encode_attr(buf, 100, &a, ids, 3), -ENOSPC);
	assert_int_equal(ses_encode_attr(buf, sizeof(buf), &a, ids, 9000), -E2BIG);
	n = ses_encode_finished_round(buf, sizeof(buf));
	assert_int_equal(n, 8);
	assert_int_equal(ses_decode(&a, buf, 8, &d), 0);
	assert_int_equal(d.type, SES_RECORD_FINISHED_ROUND);
	assert_int_equal(ses_encode_finished_round(buf, 4), -ENOSPC);
}

/* Cut anywhere, by the record's own size or by the bytes held: refused, never read past. */
static void test_every_truncation_refused(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true);
	unsigned char buf[4096], cut[4096];
	struct ses_decoded d;

	(void)state;
	a.sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = 0x3;
	for (int k = 0; k < K_NKINDS; k++) {
		int n = encode(k, &a, buf, sizeof(buf));

		assert_true(n > 0);
		for (int len = 0; len < n; len++) {
			struct perf_event_header h;

			/* fewer bytes held than the record says */
			assert_int_equal(ses_decode(&a, buf, (size_t)len, &d), -EINVAL);
			if (len < 8)
				continue;
			/* a record that says it is shorter (a cut the header agrees with) */
			memcpy(cut, buf, (size_t)len);
			memcpy(&h, cut, 8);
			h.size = (uint16_t)len;
			memcpy(cut, &h, 8);
			if (ses_decode(&a, cut, (size_t)len, &d) != -EINVAL)
				fail_msg("kind %d cut to %d bytes was accepted", k, len);
		}
	}
}

static void test_corrupted_records(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL | PERF_SAMPLE_CALLCHAIN, true);
	unsigned char buf[4096];
	struct ses_decoded d;
	struct ses_lost l;
	uint64_t v;
	int n;

	(void)state;
	/* a name without its NUL: every padding byte overwritten */
	n = encode(K_COMM, &a, buf, sizeof(buf));
	memset(buf + 16, 'x', 8);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	n = encode(K_MMAP2, &a, buf, sizeof(buf));
	memset(buf + 8 + 64, 'x', (size_t)n - 8 - 64 - 32);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	/* a build id that claims more than 20 bytes is cut to 20 */
	n = encode(K_MMAP2_BID, &a, buf, sizeof(buf));
	buf[8 + 32] = 200;
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), 0);
	assert_int_equal(d.u.mmap.build_id_size, 20);
	/* a callchain longer than the record */
	a.sample_type = ST_ALL | PERF_SAMPLE_CALLCHAIN;
	n = encode(K_SAMPLE, &a, buf, sizeof(buf));
	v = 1000;
	memcpy(buf + 8 + 6 * 8, &v, 8);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	v = UINT64_MAX;
	memcpy(buf + 8 + 6 * 8, &v, 8);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	/* a user stack that says it is bigger than the record */
	a.sample_type = ST_ALL | PERF_SAMPLE_STACK_USER;
	n = encode(K_SAMPLE, &a, buf, sizeof(buf));
	v = 1u << 20;
	memcpy(buf + 8 + 6 * 8, &v, 8);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	/* an attr record whose attr says it is longer than the record, or tiny */
	n = ses_encode_attr(buf, sizeof(buf), &a, NULL, 0);
	v = 4096;
	memcpy(buf + 8 + 4, &v, 4);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	v = 8;
	memcpy(buf + 8 + 4, &v, 4);
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	/* a record's size below its header */
	n = encode(K_LOST, &a, buf, sizeof(buf));
	buf[6] = 4, buf[7] = 0;
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EINVAL);
	/* the wrong decoder for the kind */
	n = encode(K_LOST, &a, buf, sizeof(buf));
	assert_int_equal(ses_decode_lost(&a, buf, (size_t)n, &l), 0);
	assert_int_equal(ses_decode_comm(&a, buf, (size_t)n, &d.u.comm), -EPROTO);
	assert_int_equal(ses_decode_sample(&a, buf, (size_t)n, &d.u.sample), -EPROTO);
	/* a type nobody knows */
	buf[0] = 200;
	assert_int_equal(ses_decode(&a, buf, (size_t)n, &d), -EPROTO);
	assert_int_equal(d.type, 200);
	/* a sample without an attr cannot be read */
	n = encode(K_SAMPLE, &a, buf, sizeof(buf));
	assert_int_equal(ses_decode(NULL, buf, (size_t)n, &d), -EINVAL);
}

static void test_encoders_refuse(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true);
	struct ses_mmap m = MMAP2;
	unsigned char buf[64];

	(void)state;
	assert_int_equal(encode(K_MMAP2, &a, buf, sizeof(buf)), -ENOSPC);
	m.filename = "a\0b";
	m.filename_len = 3;
	assert_int_equal(ses_encode_mmap(buf, sizeof(buf), &a, &m), -EINVAL);
	m = MMAP2;
	m.mmap2 = false;
	m.build_id_form = true;
	assert_int_equal(ses_encode_mmap(buf, sizeof(buf), &a, &m), -EINVAL);
	assert_int_equal(ses_encode_task(buf, sizeof(buf), &a, PERF_RECORD_LOST,
					 &(struct ses_task){ 0 }),
			 -EINVAL);
}

static void test_map_kinds(void **state)
{
	static const struct {
		const char *name;
		enum ses_map_kind kind;
	} cases[] = {
		{ "/usr/lib/libc.so.6", SES_MAP_FILE }, { "[vdso]", SES_MAP_VDSO },
		{ "[kernel.kallsyms]_text", SES_MAP_KERNEL }, { "[kernel.kallsyms]", SES_MAP_KERNEL },
		{ "//anon", SES_MAP_ANON }, { "[heap]", SES_MAP_ANON }, { "", SES_MAP_ANON },
		{ "[vdso]x", SES_MAP_ANON }, { "relative/file", SES_MAP_FILE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ses_mmap m = { .filename = cases[i].name,
				      .filename_len = strlen(cases[i].name) };

		assert_int_equal(ses_mmap_kind(&m), cases[i].kind);
	}
}

/* ---- the reader's choice of attr ---- */

struct img {
	unsigned char b[1 << 16];
	size_t n;
};

static void img_init(struct img *im)
{
	uint64_t sz = SES_PIPE_HDR_SIZE;

	memcpy(im->b, SES_PIPE_MAGIC, 8);
	memcpy(im->b + 8, &sz, 8);
	im->n = 16;
}

static void img_attr(struct img *im, const struct perf_event_attr *a, const uint64_t *ids,
		     size_t nids)
{
	int n = ses_encode_attr(im->b + im->n, sizeof(im->b) - im->n, a, ids, nids);

	assert_true(n > 0);
	im->n += (size_t)n;
}

static void img_lost(struct img *im, const struct perf_event_attr *a, uint64_t id,
		     uint64_t time)
{
	struct ses_lost l = { .id = id, .lost = 1,
			      .sid = { .pid = 1, .tid = 2, .time = time, .id = id } };
	int n = ses_encode_lost(im->b + im->n, sizeof(im->b) - im->n, a, &l);

	assert_true(n > 0);
	im->n += (size_t)n;
}

static void img_sample(struct img *im, const struct perf_event_attr *a, uint64_t id,
		       uint64_t time)
{
	struct ses_sample s = { .id = id, .ip = 0x1000, .pid = 1, .tid = 2, .time = time };
	int n = ses_encode_sample(im->b + im->n, sizeof(im->b) - im->n, a, &s);

	assert_true(n > 0);
	im->n += (size_t)n;
}

static struct ses_reader *open_img(struct img *im)
{
	struct ses_reader *r;

	assert_int_equal(ses_reader_open_mem(&r, im->b, im->n, NULL, 0), 0);
	return r;
}

/* Attrs with different trailers, both with IDENTIFIER: each record read with its own. */
static void test_reader_layout_by_identifier(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true),
			       b = attr_of(ST_ALL | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_ADDR, true);
	uint64_t ida[] = { 10, 11 }, idb[] = { 20 };
	struct ses_decoded d;
	struct ses_record rec;
	struct ses_reader *r;
	struct img im;
	int idx, i = 0;
	static const uint64_t want_time[] = { 1000, 2000, 3000, 4000 };
	static const int want_idx[] = { 0, 1, 1, 0 };

	(void)state;
	img_init(&im);
	img_attr(&im, &a, ida, 2);
	img_attr(&im, &b, idb, 1);
	img_lost(&im, &a, 11, 1000);
	img_lost(&im, &b, 20, 2000);
	img_sample(&im, &b, 20, 3000);
	img_sample(&im, &a, 10, 4000);
	r = open_img(&im);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type == SES_RECORD_HEADER_ATTR)
			continue;
		assert_non_null(ses_reader_attr_of(r, &rec, &idx));
		assert_int_equal(idx, want_idx[i]);
		assert_int_equal(ses_reader_decode(r, &rec, &d), 0);
		if (rec.type == PERF_RECORD_LOST) {
			assert_int_equal(d.u.lost.sid.time, want_time[i]);
			assert_int_equal(d.u.lost.sid.stream_id, 0);
		} else {
			assert_int_equal(d.u.sample.time, want_time[i]);
			assert_int_equal(d.u.sample.attr_index, want_idx[i]);
		}
		i++;
	}
	assert_int_equal(i, 4);
	ses_reader_free(r);
}

/* No IDENTIFIER, but ID in the same place for both: still found by id. */
static void test_reader_layout_by_id_position(void **state)
{
	struct perf_event_attr a = attr_of(ST_B, true), b = attr_of(ST_B | PERF_SAMPLE_PERIOD, true);
	uint64_t ida[] = { 5 }, idb[] = { 6 };
	struct ses_record rec;
	struct ses_reader *r;
	struct ses_sample s;
	struct img im;
	int idx, n = 0;

	(void)state;
	img_init(&im);
	img_attr(&im, &a, ida, 1);
	img_attr(&im, &b, idb, 1);
	img_sample(&im, &b, 6, 300);
	img_sample(&im, &a, 5, 400);
	r = open_img(&im);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		ses_reader_attr_of(r, &rec, &idx);
		assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
		assert_int_equal(s.attr_index, n ? 0 : 1);
		assert_int_equal(s.time, n ? 400 : 300);
		assert_int_equal(s.id, n ? 5 : 6);
		n++;
	}
	assert_int_equal(n, 2);
	ses_reader_free(r);
}

/* The id in no common place (ID after different fields, no IDENTIFIER): the first attr's
 * layout for every record, as perf does; its own records read right, the other's not. */
static void test_reader_layout_ambiguous_takes_first(void **state)
{
	struct perf_event_attr a = attr_of(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID, true),
			       b = attr_of(PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU, true);
	uint64_t ida[] = { 5 }, idb[] = { 6 };
	struct ses_decoded d;
	struct ses_record rec;
	struct ses_reader *r;
	struct img im;
	int idx, n = 0;

	(void)state;
	img_init(&im);
	img_attr(&im, &a, ida, 1);
	img_attr(&im, &b, idb, 1);
	img_lost(&im, &a, 5, 700);
	img_lost(&im, &b, 6, 800);
	r = open_img(&im);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type != PERF_RECORD_LOST)
			continue;
		assert_ptr_equal(ses_reader_attr_of(r, &rec, &idx), ses_reader_attr(r, 0));
		assert_int_equal(idx, 0);
		assert_int_equal(ses_reader_decode(r, &rec, &d), 0);
		if (!n) {
			assert_int_equal(d.u.lost.sid.time, 700);
			assert_int_equal(d.u.lost.sid.id, 5);
		} else {
			/* b's trailer is TIME ID CPU; read as TID TIME ID it is shifted */
			assert_int_equal(d.u.lost.sid.time, 6);
		}
		n++;
	}
	assert_int_equal(n, 2);
	ses_reader_free(r);
}

/* A sample whose id no attr names is refused; a trailer all attrs lay out alike is still
 * read. One attr: no id needed. */
static void test_reader_unknown_id(void **state)
{
	struct perf_event_attr a = attr_of(ST_ALL, true), b = attr_of(ST_ALL, true);
	uint64_t ida[] = { 1 }, idb[] = { 2 };
	struct ses_decoded d;
	struct ses_record rec;
	struct ses_reader *r;
	struct img im;
	int seen = 0;

	(void)state;
	img_init(&im);
	img_attr(&im, &a, ida, 1);
	img_attr(&im, &b, idb, 1);
	img_sample(&im, &a, 99, 10);
	img_lost(&im, &a, 99, 20);
	r = open_img(&im);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type == PERF_RECORD_SAMPLE) {
			assert_null(ses_reader_attr_of(r, &rec, NULL));
			assert_int_equal(ses_reader_decode(r, &rec, &d), -EINVAL);
			seen++;
		} else if (rec.type == PERF_RECORD_LOST) {
			assert_int_equal(ses_reader_decode(r, &rec, &d), 0);
			assert_int_equal(d.u.lost.sid.time, 20);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	ses_reader_free(r);
}

/* Many ids over several attrs: each found through the hash, the first attr naming an id
 * keeps it. */
static void test_reader_many_ids(void **state)
{
	static uint64_t ids[3][1000];
	struct perf_event_attr a = attr_of(ST_ALL, true);
	struct ses_record rec;
	struct ses_reader *r;
	struct ses_sample s;
	struct img *im = malloc(sizeof(*im));
	int n = 0;

	(void)state;
	assert_non_null(im);
	img_init(im);
	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 1000; j++)
			ids[i][j] = (uint64_t)j * 3 + (uint64_t)i + 1;
		img_attr(im, &a, ids[i], 1000);
	}
	ids[2][0] = ids[0][0]; /* a duplicate: attr 0 keeps it */
	img_attr(im, &a, ids[2], 1);
	for (int j = 0; j < 1000; j += 97)
		for (int i = 0; i < 3; i++)
			img_sample(im, &a, ids[i][j], (uint64_t)j);
	img_sample(im, &a, ids[0][0], 5);
	r = open_img(im);
	while (ses_reader_next(r, &rec) == 1) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		assert_int_equal(ses_reader_sample(r, &rec, &s), 0);
		assert_int_equal((int)((s.id - 1) % 3), s.attr_index);
		n++;
	}
	assert_int_equal(n, 3 * 11 + 1);
	assert_int_equal(ses_reader_nattrs(r), 4);
	ses_reader_free(r);
	free(im);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_every_kind),
		cmocka_unit_test(test_trailer_layout_from_attr),
		cmocka_unit_test(test_round_trip_sample),
		cmocka_unit_test(test_round_trip_attr_and_round),
		cmocka_unit_test(test_every_truncation_refused),
		cmocka_unit_test(test_corrupted_records),
		cmocka_unit_test(test_encoders_refuse),
		cmocka_unit_test(test_map_kinds),
		cmocka_unit_test(test_reader_layout_by_identifier),
		cmocka_unit_test(test_reader_layout_by_id_position),
		cmocka_unit_test(test_reader_layout_ambiguous_takes_first),
		cmocka_unit_test(test_reader_unknown_id),
		cmocka_unit_test(test_reader_many_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
