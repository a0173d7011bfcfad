// SPDX-License-Identifier: MIT
/*
 * The perf record encoders: the records collect writes itself (attrs, the kernel map,
 * COMM and MMAP2 for processes that existed before attach, FINISHED_ROUND), and the rest
 * of the kinds the decoders read, so that tests and fuzz seeds are built by the same
 * code that defines the format. The sample_id trailer is laid out from the attr given,
 * never by hand: what an encoder writes, the decoder with that attr reads back.
 */
#include "session/internal.h"

#include <errno.h>
#include <string.h>

/* A bounded writer into the caller's buffer; @bad once anything did not fit. */
struct out {
	unsigned char *b;
	size_t n, cap;
	bool bad;
};

static void put(struct out *o, const void *p, size_t n)
{
	if (o->bad || n > o->cap - o->n) {
		o->bad = true;
		return;
	}
	if (n) /* @p may be NULL for an empty field (a callchain of 0): memcpy may not */
		memcpy(o->b + o->n, p, n);
	o->n += n;
}

static void put64(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

static void put32x2(struct out *o, uint32_t lo, uint32_t hi)
{
	put64(o, (uint64_t)hi << 32 | lo);
}

static void put_zeros(struct out *o, size_t n)
{
	if (o->bad || n > o->cap - o->n) {
		o->bad = true;
		return;
	}
	memset(o->b + o->n, 0, n);
	o->n += n;
}

/* @len bytes of @s then NULs up to a multiple of 8 (at least one NUL), as the kernel
 * pads names. */
static void put_str(struct out *o, const char *s, size_t len)
{
	size_t padded = (len + 8) & ~(size_t)7;

	put(o, s, len);
	put_zeros(o, padded - len);
}

static void put_trailer(struct out *o, const struct perf_event_attr *attr,
			const struct ses_sample_id *sid)
{
	uint64_t st;

	if (!ses_sample_id_size(attr))
		return;
	st = attr->sample_type;
	if (st & PERF_SAMPLE_TID)
		put32x2(o, sid->pid, sid->tid);
	if (st & PERF_SAMPLE_TIME)
		put64(o, sid->time);
	if (st & PERF_SAMPLE_ID)
		put64(o, sid->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(o, sid->stream_id);
	if (st & PERF_SAMPLE_CPU)
		put32x2(o, sid->cpu, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(o, sid->id);
}

static void begin(struct out *o, void *buf, size_t cap)
{
	o->b = buf;
	o->n = 0;
	o->cap = cap;
	o->bad = false;
	put_zeros(o, sizeof(struct perf_event_header));
}

/* Fill in the header; the record's size or -errno. */
static int finish(struct out *o, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, 0 };

	if (o->bad)
		return -ENOSPC;
	if (o->n > UINT16_MAX)
		return -E2BIG;
	h.size = (uint16_t)o->n;
	memcpy(o->b, &h, sizeof(h));
	return (int)o->n;
}

/* Records over 64 KiB cannot exist: say so before running out of buffer. */
static int fits(size_t need, size_t cap)
{
	if (need > UINT16_MAX)
		return -E2BIG;
	return need > cap ? -ENOSPC : 0;
}

int ses_encode_attr(void *buf, size_t cap, const struct perf_event_attr *attr, const uint64_t *ids,
		    size_t nids)
{
	struct perf_event_attr sized;
	size_t asize = attr->size ? attr->size : sizeof(*attr);
	struct out o;
	int ret;

	if (asize < PERF_ATTR_SIZE_VER0 || asize % 8)
		return -EINVAL; /* smaller than any attr: the reader would reject it */
	if (asize > SES_ATTR_MAX || nids > UINT16_MAX / 8)
		return -E2BIG;
	ret = fits(8 + asize + nids * 8, cap);
	if (ret)
		return ret;
	sized = *attr;
	/* the record's attr must say how long it is, or the reader rejects it */
	sized.size = (uint32_t)asize;
	begin(&o, buf, cap);
	put(&o, &sized, asize < sizeof(sized) ? asize : sizeof(sized));
	if (asize > sizeof(sized))
		put_zeros(&o, asize - sizeof(sized));
	if (nids)
		put(&o, ids, nids * 8);
	return finish(&o, SES_RECORD_HEADER_ATTR, 0);
}

int ses_encode_sample(void *buf, size_t cap, const struct perf_event_attr *attr,
		      const struct ses_sample *s)
{
	uint64_t st = attr->sample_type;
	struct out o;

	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK))
		return -EOPNOTSUPP;
	/* the kernel's raw size keeps the u32 and its data a multiple of 8 bytes */
	if ((st & PERF_SAMPLE_RAW) && s->raw && (4 + (size_t)s->raw_size) % 8)
		return -EINVAL;
	if (s->nr_ips > SES_MAX_CALLCHAIN || s->stack_dyn_size > s->stack_size ||
	    s->stack_size % 8 || s->stack_size > UINT16_MAX ||
	    ((st & PERF_SAMPLE_REGS_USER) && s->regs_abi != PERF_SAMPLE_REGS_ABI_NONE &&
	     s->nregs != (uint32_t)__builtin_popcountll(attr->sample_regs_user)))
		return -EINVAL;
	begin(&o, buf, cap);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(&o, s->id);
	if (st & PERF_SAMPLE_IP)
		put64(&o, s->ip);
	if (st & PERF_SAMPLE_TID)
		put32x2(&o, s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME)
		put64(&o, s->time);
	if (st & PERF_SAMPLE_ADDR)
		put64(&o, s->addr);
	if (st & PERF_SAMPLE_ID)
		put64(&o, s->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(&o, s->stream_id);
	if (st & PERF_SAMPLE_CPU)
		put32x2(&o, s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		put64(&o, s->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		put64(&o, s->nr_ips);
		if (s->nr_ips)
			put(&o, s->ips, (size_t)s->nr_ips * 8);
	}
	if (st & PERF_SAMPLE_RAW) {
		uint32_t n = s->raw ? s->raw_size : 4; /* none: 4 zero bytes, as 8 in all */

		put(&o, &n, 4);
		if (s->raw)
			put(&o, s->raw, n);
		else
			put_zeros(&o, 4);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		put64(&o, s->regs_abi);
		if (s->regs_abi != PERF_SAMPLE_REGS_ABI_NONE && s->nregs)
			put(&o, s->regs, (size_t)s->nregs * 8);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		put64(&o, s->stack_size);
		if (s->stack_size) {
			put(&o, s->stack, (size_t)s->stack_size);
			put64(&o, s->stack_dyn_size);
		}
	}
	if (!o.bad && o.n > UINT16_MAX)
		return -E2BIG;
	return finish(&o, PERF_RECORD_SAMPLE, s->cpumode & PERF_RECORD_MISC_CPUMODE_MASK);
}

int ses_encode_mmap(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_mmap *m)
{
	uint16_t misc = m->misc & ~PERF_RECORD_MISC_MMAP_BUILD_ID;
	size_t fixed = m->mmap2 ? 8 + 64 : 8 + 32;
	unsigned char bid[24] = { 0 };
	struct out o;
	int ret;

	if (!m->filename || memchr(m->filename, 0, m->filename_len) ||
	    (m->build_id_form && (!m->mmap2 || m->build_id_size > 20)))
		return -EINVAL;
	ret = fits(fixed + m->filename_len + 1 + ses_sample_id_size(attr), cap);
	if (ret)
		return ret;
	begin(&o, buf, cap);
	put32x2(&o, m->pid, m->tid);
	put64(&o, m->start);
	put64(&o, m->len);
	put64(&o, m->pgoff);
	if (m->mmap2 && m->build_id_form) {
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		bid[0] = m->build_id_size;
		memcpy(bid + 4, m->build_id, m->build_id_size);
		put(&o, bid, sizeof(bid));
	} else if (m->mmap2) {
		put32x2(&o, m->maj, m->min);
		put64(&o, m->ino);
		put64(&o, m->ino_generation);
	}
	if (m->mmap2)
		put32x2(&o, m->prot, m->flags);
	put_str(&o, m->filename, m->filename_len);
	put_trailer(&o, attr, &m->sid);
	return finish(&o, m->mmap2 ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, misc);
}

int ses_encode_comm(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_comm *c)
{
	uint16_t misc = c->misc & ~PERF_RECORD_MISC_COMM_EXEC;
	size_t len = c->comm ? strnlen(c->comm, c->comm_len) : 0;
	struct out o;

	if (len > 15)
		len = 15; /* TASK_COMM_LEN, NUL included */
	if (c->exec)
		misc |= PERF_RECORD_MISC_COMM_EXEC;
	begin(&o, buf, cap);
	put32x2(&o, c->pid, c->tid);
	put_str(&o, c->comm ? c->comm : "", len);
	put_trailer(&o, attr, &c->sid);
	return finish(&o, PERF_RECORD_COMM, misc);
}

int ses_encode_task(void *buf, size_t cap, const struct perf_event_attr *attr, uint32_t type,
		    const struct ses_task *t)
{
	struct out o;

	if (type != PERF_RECORD_FORK && type != PERF_RECORD_EXIT)
		return -EINVAL;
	begin(&o, buf, cap);
	put32x2(&o, t->pid, t->ppid);
	put32x2(&o, t->tid, t->ptid);
	put64(&o, t->time);
	put_trailer(&o, attr, &t->sid);
	return finish(&o, type, 0);
}

int ses_encode_lost(void *buf, size_t cap, const struct perf_event_attr *attr,
		    const struct ses_lost *l)
{
	struct out o;

	begin(&o, buf, cap);
	put64(&o, l->id);
	put64(&o, l->lost);
	put_trailer(&o, attr, &l->sid);
	return finish(&o, PERF_RECORD_LOST, 0);
}

int ses_encode_throttle(void *buf, size_t cap, const struct perf_event_attr *attr,
			const struct ses_throttle *t)
{
	struct out o;

	begin(&o, buf, cap);
	put64(&o, t->time);
	put64(&o, t->id);
	put64(&o, t->stream_id);
	put_trailer(&o, attr, &t->sid);
	return finish(&o, t->unthrottle ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE, 0);
}

int ses_encode_finished_round(void *buf, size_t cap)
{
	struct out o;

	begin(&o, buf, cap);
	return finish(&o, SES_RECORD_FINISHED_ROUND, 0);
}

int ses_encode_kernel_map(void *buf, size_t cap, const struct perf_event_attr *attr, uint64_t text,
			  uint64_t time, uint64_t id)
{
	static const char name[] = "[kernel.kallsyms]_text";
	struct ses_mmap m = {
		.misc = PERF_RECORD_MISC_KERNEL,
		.pid = (uint32_t)-1,
		.tid = 0,
		.start = text,
		.len = ~0ULL - text, /* to the end of the address space, as perf does */
		.pgoff = text,	     /* perf's convention for the kernel map */
		.filename = name,
		.filename_len = sizeof(name) - 1,
		.sid = { .pid = (uint32_t)-1, .tid = 0, .time = time, .id = id, .valid = true },
	};

	return ses_encode_mmap(buf, cap, attr, &m);
}
