// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for lib/session's record codec (record.c, record_enc.c): the first
 * 24 bytes make the attr the record is decoded with (sample_type, sample_regs_user,
 * read_format/branch bits, sample_id_all), the rest is one record. It goes through every
 * decoder, with that attr and with none; whatever decodes is encoded again and decoded
 * back, and must come back the same (a mismatch aborts, so the fuzzer records it).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char out[65536 + 64];

static void same(int cond)
{
	if (!cond)
		abort();
}

static void round_trip(const struct perf_event_attr *a, const struct ses_decoded *d)
{
	struct ses_decoded back;
	int n = -1;

	switch (d->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		n = ses_encode_mmap(out, sizeof(out), a, &d->u.mmap);
		if (n < 0)
			return;
		same(!ses_decode(a, out, (size_t)n, &back));
		same(back.u.mmap.start == d->u.mmap.start && back.u.mmap.len == d->u.mmap.len &&
		     back.u.mmap.pid == d->u.mmap.pid && back.u.mmap.ino == d->u.mmap.ino &&
		     back.u.mmap.filename_len == d->u.mmap.filename_len &&
		     !memcmp(back.u.mmap.filename, d->u.mmap.filename, d->u.mmap.filename_len) &&
		     back.u.mmap.sid.time == d->u.mmap.sid.time &&
		     back.u.mmap.sid.id == d->u.mmap.sid.id);
		break;
	case PERF_RECORD_COMM:
		n = ses_encode_comm(out, sizeof(out), a, &d->u.comm);
		if (n < 0)
			return;
		same(!ses_decode(a, out, (size_t)n, &back));
		same(back.u.comm.exec == d->u.comm.exec && back.u.comm.tid == d->u.comm.tid &&
		     back.u.comm.sid.tid == d->u.comm.sid.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		n = ses_encode_task(out, sizeof(out), a, d->type, &d->u.task);
		same(n > 0 && !ses_decode(a, out, (size_t)n, &back));
		same(!memcmp(&back.u.task, &d->u.task, sizeof(back.u.task)));
		break;
	case PERF_RECORD_LOST:
		n = ses_encode_lost(out, sizeof(out), a, &d->u.lost);
		same(n > 0 && !ses_decode(a, out, (size_t)n, &back));
		same(!memcmp(&back.u.lost, &d->u.lost, sizeof(back.u.lost)));
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		n = ses_encode_throttle(out, sizeof(out), a, &d->u.throttle);
		same(n > 0 && !ses_decode(a, out, (size_t)n, &back));
		same(!memcmp(&back.u.throttle, &d->u.throttle, sizeof(back.u.throttle)));
		break;
	case PERF_RECORD_SAMPLE:
		n = ses_encode_sample(out, sizeof(out), a, &d->u.sample);
		if (n < 0)
			return;
		same(!ses_decode(a, out, (size_t)n, &back));
		same(back.u.sample.ip == d->u.sample.ip && back.u.sample.time == d->u.sample.time &&
		     back.u.sample.nr_ips == d->u.sample.nr_ips &&
		     back.u.sample.stack_size == d->u.sample.stack_size);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr a;
	struct ses_decoded d;
	union {
		struct ses_attr_rec at;
		struct ses_sample s;
		struct ses_sample_id id;
		struct ses_mmap m;
		struct ses_comm c;
		struct ses_task t;
		struct ses_lost l;
		struct ses_throttle th;
	} u;
	const uint8_t *rec;
	size_t len;

	if (size < 24)
		return 0;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	memcpy(&a.sample_type, data, 8);
	memcpy(&a.sample_regs_user, data + 8, 8);
	a.read_format = data[16];
	a.branch_sample_type = (uint64_t)data[17] << 16 | data[18];
	a.sample_id_all = data[19] & 1;
	rec = data + 24;
	len = size - 24;
	for (int with = 0; with < 2; with++) {
		const struct perf_event_attr *pa = with ? &a : NULL;

		ses_decode_attr(rec, len, &u.at);
		ses_decode_sample(pa, rec, len, &u.s);
		ses_decode_sample_id(pa, rec, len, &u.id);
		ses_decode_mmap(pa, rec, len, &u.m);
		if (!ses_decode_mmap(pa, rec, len, &u.m))
			ses_mmap_kind(&u.m);
		ses_decode_comm(pa, rec, len, &u.c);
		ses_decode_task(pa, rec, len, &u.t);
		ses_decode_lost(pa, rec, len, &u.l);
		ses_decode_throttle(pa, rec, len, &u.th);
		if (!ses_decode(pa, rec, len, &d)) {
			ses_decoded_time(&d);
			round_trip(pa, &d);
		}
	}
	return 0;
}
