// SPDX-License-Identifier: MIT
/*
 * The perf record decoders (layouts: include/uapi/linux/perf_event.h, enum
 * perf_event_type). Records are untrusted: every field is read through a cursor that
 * refuses to run past the record's size, with memcpy (a hostile file need not keep
 * records aligned), and counts are checked against the bytes that remain before they
 * are used. The sample_id trailer sits at the end of the record, so it is read first and
 * the body's cursor stops where the trailer begins.
 */
#include "session/internal.h"

#include <errno.h>
#include <string.h>

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19) /* linux 6.8 */
#endif

/* Cursor over a record body that refuses to read past its end. */
struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t take_u64(struct cursor *c)
{
	uint64_t v;

	if (c->bad || c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	v = ses_get_u64(c->p);
	c->p += 8;
	return v;
}

/* Two u32 packed in one u64 (pid/tid, maj/min, cpu/res). */
static void take_u32x2(struct cursor *c, uint32_t *lo, uint32_t *hi)
{
	uint64_t v = take_u64(c);

	*lo = (uint32_t)v;
	*hi = (uint32_t)(v >> 32);
}

/* Step over @n bytes, or mark the cursor bad; the start of them, or NULL. */
static const unsigned char *take_bytes(struct cursor *c, uint64_t n)
{
	const unsigned char *p = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

/* A NUL-terminated string filling the rest of the body (padding included). */
static const char *take_str(struct cursor *c, size_t *len)
{
	const unsigned char *nul;

	if (c->bad || c->p >= c->end) {
		c->bad = true;
		return NULL;
	}
	nul = memchr(c->p, 0, (size_t)(c->end - c->p));
	if (!nul) {
		c->bad = true;
		return NULL;
	}
	*len = (size_t)(nul - c->p);
	nul = c->p;
	c->p = c->end;
	return (const char *)nul;
}

int ses_record_header(const void *rec, size_t len, struct perf_event_header *h)
{
	if (len < sizeof(*h))
		return -EINVAL;
	memcpy(h, rec, sizeof(*h));
	if (h->size < sizeof(*h) || h->size > len)
		return -EINVAL;
	return 0;
}

#define ID_FIELDS \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

size_t ses_sample_id_size(const struct perf_event_attr *attr)
{
	if (!attr || !attr->sample_id_all)
		return 0;
	return 8 * (size_t)__builtin_popcountll(attr->sample_type & ID_FIELDS);
}

/* Open a cursor on the body of @rec and, for a record of its kind, check the type. */
static int open_body(const void *rec, size_t len, struct cursor *c, struct perf_event_header *h)
{
	int ret = ses_record_header(rec, len, h);

	if (ret)
		return ret;
	if (h->size % 8)
		return -EINVAL; /* the kernel pads every record to 8 bytes */
	c->p = (const unsigned char *)rec + sizeof(*h);
	c->end = (const unsigned char *)rec + h->size;
	c->bad = false;
	return 0;
}

/* Read the trailer off the end of @c's body and shorten the body to what precedes it. */
static int take_trailer(const struct perf_event_attr *attr, struct cursor *c,
			struct ses_sample_id *sid)
{
	size_t n = ses_sample_id_size(attr);
	uint64_t st;
	struct cursor t;

	memset(sid, 0, sizeof(*sid));
	if (!n)
		return 0;
	if ((size_t)(c->end - c->p) < n)
		return -EINVAL;
	t.p = c->end - n;
	t.end = c->end;
	t.bad = false;
	c->end = t.p;
	st = attr->sample_type;
	/* the kernel's order (__perf_event_header__init_id) */
	if (st & PERF_SAMPLE_TID)
		take_u32x2(&t, &sid->pid, &sid->tid);
	if (st & PERF_SAMPLE_TIME)
		sid->time = take_u64(&t);
	if (st & PERF_SAMPLE_ID)
		sid->id = take_u64(&t);
	if (st & PERF_SAMPLE_STREAM_ID)
		sid->stream_id = take_u64(&t);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		take_u32x2(&t, &sid->cpu, &res);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		sid->id = take_u64(&t);
	sid->valid = true;
	return 0;
}

/* The preamble of the decoders of kernel records with a sample_id trailer: open @rec's
 * body, check that it is of type @t1 or @t2, and take the trailer into @sid. */
static int open_kind(const struct perf_event_attr *attr, const void *rec, size_t len,
		     uint32_t t1, uint32_t t2, struct cursor *c, struct perf_event_header *h,
		     struct ses_sample_id *sid)
{
	int ret = open_body(rec, len, c, h);

	if (ret)
		return ret;
	if (h->type != t1 && h->type != t2)
		return -EPROTO;
	return take_trailer(attr, c, sid);
}

int ses_decode_sample_id(const struct perf_event_attr *attr, const void *rec, size_t len,
			 struct ses_sample_id *sid)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(sid, 0, sizeof(*sid));
	ret = open_body(rec, len, &c, &h);
	if (ret)
		return ret;
	if (h.type == PERF_RECORD_SAMPLE || h.type >= PERF_RECORD_MAX)
		return -EPROTO; /* samples carry these fields in their body; user types none */
	return take_trailer(attr, &c, sid);
}

int ses_decode_attr(const void *rec, size_t len, struct ses_attr_rec *a)
{
	struct perf_event_header h;
	struct cursor c;
	uint32_t asize;
	size_t body;
	int ret;

	memset(a, 0, sizeof(*a));
	ret = open_body(rec, len, &c, &h);
	if (ret)
		return ret;
	if (h.type != SES_RECORD_HEADER_ATTR)
		return -EPROTO;
	body = (size_t)(c.end - c.p);
	if (body < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	asize = ses_get_u32(c.p + 4);
	if (asize < PERF_ATTR_SIZE_VER0 || asize > body || asize > SES_ATTR_MAX ||
	    (body - asize) % 8)
		return -EINVAL;
	memcpy(&a->attr, c.p, asize < sizeof(a->attr) ? asize : sizeof(a->attr));
	a->attr.size = asize;
	a->nids = (body - asize) / 8;
	a->ids = a->nids ? c.p + asize : NULL;
	return 0;
}

/* PERF_SAMPLE_READ: its size follows read_format (include/uapi/linux/perf_event.h). */
static void skip_read(struct cursor *c, uint64_t fmt)
{
	uint64_t per = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	uint64_t times = !!(fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(fmt & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(fmt & PERF_FORMAT_GROUP)) {
		take_bytes(c, (per + times) * 8);
		return;
	}
	nr = take_u64(c);
	if (nr > (uint64_t)(c->end - c->p) / 8)
		c->bad = true;
	else
		take_bytes(c, (times + nr * per) * 8);
}

/* The fields after PERIOD, in the kernel's order, up to STACK_USER (what report uses):
 * READ, CALLCHAIN, RAW, BRANCH_STACK, REGS_USER, STACK_USER. */
static void sample_tail(struct cursor *c, const struct perf_event_attr *a, struct ses_sample *s)
{
	uint64_t st = a->sample_type, n;

	if (st & PERF_SAMPLE_READ)
		skip_read(c, a->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		n = take_u64(c);
		if (n > SES_MAX_CALLCHAIN || n > (uint64_t)(c->end - c->p) / 8)
			c->bad = true;
		else if ((s->ips = take_bytes(c, n * 8)))
			s->nr_ips = (uint32_t)n;
	}
	if (st & PERF_SAMPLE_RAW) {
		if (c->bad || c->end - c->p < 4)
			c->bad = true;
		else { /* the kernel pads u32 + data to 8 bytes */
			uint32_t n = ses_get_u32(c->p);
			const unsigned char *p = take_bytes(c, 4 + (uint64_t)n);

			if (p) {
				s->raw = p + 4;
				s->raw_size = n;
			}
		}
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t bst = a->branch_sample_type;

		n = take_u64(c);
		if (bst & PERF_SAMPLE_BRANCH_HW_INDEX)
			take_u64(c);
		if (n > (uint64_t)(c->end - c->p) / 24)
			c->bad = true;
		else
			take_bytes(c, n * 24 + (bst & PERF_SAMPLE_BRANCH_COUNTERS ? n * 8 : 0));
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->regs_abi = take_u64(c);
		if (s->regs_abi != PERF_SAMPLE_REGS_ABI_NONE) {
			n = (uint64_t)__builtin_popcountll(a->sample_regs_user);
			s->regs_mask = a->sample_regs_user;
			if ((s->regs = take_bytes(c, n * 8)))
				s->nregs = (uint32_t)n;
		}
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		n = take_u64(c);
		if (n) {
			s->stack = take_bytes(c, n);
			s->stack_size = s->stack ? n : 0;
			s->stack_dyn_size = take_u64(c);
			if (s->stack_dyn_size > s->stack_size)
				s->stack_dyn_size = s->stack_size;
		}
	}
}

#define TAIL_FIELDS \
	(PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | \
	 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

int ses_decode_sample(const struct perf_event_attr *attr, const void *rec, size_t len,
		      struct ses_sample *s)
{
	struct perf_event_header h;
	struct cursor c;
	uint64_t st;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = open_body(rec, len, &c, &h);
	if (ret)
		return ret;
	if (h.type != PERF_RECORD_SAMPLE)
		return -EPROTO;
	if (!attr)
		return -EINVAL;
	st = attr->sample_type;
	s->cpumode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take_u64(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take_u64(&c);
	if (st & PERF_SAMPLE_TID)
		take_u32x2(&c, &s->pid, &s->tid);
	if (st & PERF_SAMPLE_TIME)
		s->time = take_u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = take_u64(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = take_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = take_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		uint32_t res;

		take_u32x2(&c, &s->cpu, &res);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take_u64(&c);
	if (st & TAIL_FIELDS)
		sample_tail(&c, attr, s);
	return c.bad ? -EINVAL : 0;
}

int ses_decode_mmap(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_mmap *m)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = open_kind(attr, rec, len, PERF_RECORD_MMAP, PERF_RECORD_MMAP2, &c, &h, &m->sid);
	if (ret)
		return ret;
	m->mmap2 = h.type == PERF_RECORD_MMAP2;
	m->misc = h.misc;
	take_u32x2(&c, &m->pid, &m->tid);
	m->start = take_u64(&c);
	m->len = take_u64(&c);
	m->pgoff = take_u64(&c);
	if (m->mmap2 && (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		const unsigned char *b = take_bytes(&c, 24);

		m->build_id_form = true;
		if (b) {
			m->build_id_size = b[0] <= 20 ? b[0] : 20;
			memcpy(m->build_id, b + 4, m->build_id_size);
		}
	} else if (m->mmap2) {
		take_u32x2(&c, &m->maj, &m->min);
		m->ino = take_u64(&c);
		m->ino_generation = take_u64(&c);
	}
	if (m->mmap2)
		take_u32x2(&c, &m->prot, &m->flags);
	m->filename = take_str(&c, &m->filename_len);
	return c.bad ? -EINVAL : 0;
}

enum ses_map_kind ses_mmap_kind(const struct ses_mmap *m)
{
	static const char kernel[] = "[kernel.kallsyms]";
	const char *f = m->filename;
	size_t n = m->filename_len;

	if (!f || !n)
		return SES_MAP_ANON;
	if (n >= sizeof(kernel) - 1 && !memcmp(f, kernel, sizeof(kernel) - 1))
		return SES_MAP_KERNEL;
	if (n == 6 && !memcmp(f, "[vdso]", 6))
		return SES_MAP_VDSO;
	/* "//anon", "[heap]", "[stack]", "[vsyscall]", "[anon:...]": nothing to read */
	if (f[0] == '[' || (n >= 2 && f[0] == '/' && f[1] == '/'))
		return SES_MAP_ANON;
	return SES_MAP_FILE;
}

int ses_decode_comm(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_comm *cm)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(cm, 0, sizeof(*cm));
	ret = open_kind(attr, rec, len, PERF_RECORD_COMM, PERF_RECORD_COMM, &c, &h, &cm->sid);
	if (ret)
		return ret;
	cm->misc = h.misc;
	cm->exec = h.misc & PERF_RECORD_MISC_COMM_EXEC;
	take_u32x2(&c, &cm->pid, &cm->tid);
	cm->comm = take_str(&c, &cm->comm_len);
	return c.bad ? -EINVAL : 0;
}

int ses_decode_task(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_task *t)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = open_kind(attr, rec, len, PERF_RECORD_FORK, PERF_RECORD_EXIT, &c, &h, &t->sid);
	if (ret)
		return ret;
	take_u32x2(&c, &t->pid, &t->ppid);
	take_u32x2(&c, &t->tid, &t->ptid);
	t->time = take_u64(&c);
	return c.bad ? -EINVAL : 0;
}

int ses_decode_lost(const struct perf_event_attr *attr, const void *rec, size_t len,
		    struct ses_lost *l)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(l, 0, sizeof(*l));
	ret = open_kind(attr, rec, len, PERF_RECORD_LOST, PERF_RECORD_LOST, &c, &h, &l->sid);
	if (ret)
		return ret;
	l->id = take_u64(&c);
	l->lost = take_u64(&c);
	return c.bad ? -EINVAL : 0;
}

int ses_decode_throttle(const struct perf_event_attr *attr, const void *rec, size_t len,
			struct ses_throttle *t)
{
	struct perf_event_header h;
	struct cursor c;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = open_kind(attr, rec, len, PERF_RECORD_THROTTLE, PERF_RECORD_UNTHROTTLE, &c, &h,
			&t->sid);
	if (ret)
		return ret;
	t->unthrottle = h.type == PERF_RECORD_UNTHROTTLE;
	t->time = take_u64(&c);
	t->id = take_u64(&c);
	t->stream_id = take_u64(&c);
	return c.bad ? -EINVAL : 0;
}

int ses_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
	       struct ses_decoded *d)
{
	struct perf_event_header h;
	int ret = ses_record_header(rec, len, &h);

	memset(d, 0, sizeof(*d));
	if (ret)
		return ret;
	d->type = h.type;
	d->misc = h.misc;
	d->size = h.size;
	switch (h.type) {
	case SES_RECORD_HEADER_ATTR:
		return ses_decode_attr(rec, len, &d->u.attr);
	case PERF_RECORD_SAMPLE:
		return ses_decode_sample(attr, rec, len, &d->u.sample);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return ses_decode_mmap(attr, rec, len, &d->u.mmap);
	case PERF_RECORD_COMM:
		return ses_decode_comm(attr, rec, len, &d->u.comm);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return ses_decode_task(attr, rec, len, &d->u.task);
	case PERF_RECORD_LOST:
		return ses_decode_lost(attr, rec, len, &d->u.lost);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return ses_decode_throttle(attr, rec, len, &d->u.throttle);
	case PERF_RECORD_SWITCH:
		return ses_decode_sample_id(attr, rec, len, &d->u.sw);
	case SES_RECORD_FINISHED_ROUND:
		return 0;
	default:
		return -EPROTO;
	}
}

uint64_t ses_decoded_time(const struct ses_decoded *d)
{
	switch (d->type) {
	case PERF_RECORD_SAMPLE:
		return d->u.sample.time;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return d->u.mmap.sid.time;
	case PERF_RECORD_COMM:
		return d->u.comm.sid.time;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return d->u.task.sid.time;
	case PERF_RECORD_LOST:
		return d->u.lost.sid.time;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return d->u.throttle.sid.time;
	case PERF_RECORD_SWITCH:
		return d->u.sw.time;
	default:
		return 0;
	}
}
