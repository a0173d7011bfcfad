// SPDX-License-Identifier: MIT
/*
 * samples.data reader. The file is untrusted: every length is checked against what
 * remains, counts are capped before allocating, and fields are read with memcpy because
 * a hostile file need not keep records 8-byte aligned. A record that does not fit ends
 * the stream cleanly (a killed profiler leaves exactly that) and is reported as damage.
 */
#include "session/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ATTRS 256
#define MAX_IDS_PER_ATTR 8192 /* what fits in a 64 KiB record */

struct attr_entry {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nids;
};

struct ses_reader {
	const unsigned char *buf;
	size_t len;
	size_t pos;
	void *map; /* owned mapping, or NULL */
	size_t map_len;
	uint64_t damage_off;
	const char *damage_why;
	struct attr_entry *attrs;
	size_t nattrs;
};

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int ses_reader_open_mem(struct ses_reader **out, const void *buf, size_t len, char *err,
			size_t errlen)
{
	struct ses_reader *r;

	*out = NULL;
	if (len < SES_PIPE_HDR_SIZE) {
		ses_errf(err, errlen, "offset 0: file is %zu bytes, too short for a header", len);
		return -EINVAL;
	}
	if (memcmp(buf, SES_PIPE_MAGIC, 8)) {
		ses_errf(err, errlen, "offset 0: no PERFILE2 magic (not a uprof/perf data file)");
		return -EINVAL;
	}
	if (get_u64((const unsigned char *)buf + 8) != SES_PIPE_HDR_SIZE) {
		ses_errf(err, errlen, "offset 8: header size %llu is not pipe mode (16)",
			 (unsigned long long)get_u64((const unsigned char *)buf + 8));
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->buf = buf;
	r->len = len;
	r->pos = SES_PIPE_HDR_SIZE;
	*out = r;
	return 0;
}

int ses_reader_open_file(struct ses_reader **out, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *map = NULL;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ses_errf(err, errlen, "cannot open: %s", strerror(errno));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ses_errf(err, errlen, "not a regular file");
		ret = -EINVAL;
		goto out;
	}
	if (st.st_size > 0) {
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			ret = -errno;
			ses_errf(err, errlen, "cannot map: %s", strerror(errno));
			goto out;
		}
	}
	ret = ses_reader_open_mem(out, map ? map : "", (size_t)st.st_size, err, errlen);
	if (ret) {
		if (map)
			munmap(map, st.st_size);
		goto out;
	}
	(*out)->map = map;
	(*out)->map_len = (size_t)st.st_size;
out:
	close(fd);
	return ret;
}

void ses_reader_free(struct ses_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nattrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	if (r->map)
		munmap(r->map, r->map_len);
	free(r);
}

static int damage(struct ses_reader *r, const char *why)
{
	r->damage_off = r->pos;
	r->damage_why = why;
	r->pos = r->len;
	return 0;
}

/* Take a HEADER_ATTR record: the attr (its own size field says how long) then ids. */
static int add_attr(struct ses_reader *r, const unsigned char *p, size_t size)
{
	struct attr_entry *e, *grown;
	size_t body = size - sizeof(struct perf_event_header);
	uint32_t asize;

	if (body < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	asize = get_u32(p + 8 + 4);
	if (asize < PERF_ATTR_SIZE_VER0 || asize > body || asize > SES_ATTR_MAX)
		return -EINVAL;
	if (r->nattrs >= MAX_ATTRS)
		return -E2BIG;
	if ((body - asize) / 8 > MAX_IDS_PER_ATTR)
		return -E2BIG;
	grown = realloc(r->attrs, (r->nattrs + 1) * sizeof(*r->attrs));
	if (!grown)
		return -ENOMEM;
	r->attrs = grown;
	e = &r->attrs[r->nattrs];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, p + 8, asize < sizeof(e->attr) ? asize : sizeof(e->attr));
	e->attr.size = asize;
	e->nids = (body - asize) / 8;
	if (e->nids) {
		e->ids = malloc(e->nids * sizeof(uint64_t));
		if (!e->ids)
			return -ENOMEM;
		memcpy(e->ids, p + 8 + asize, e->nids * sizeof(uint64_t));
	}
	r->nattrs++;
	return 0;
}

int ses_reader_next(struct ses_reader *r, struct ses_record *rec)
{
	const unsigned char *p;
	uint16_t size;
	int ret;

	if (r->pos >= r->len)
		return 0;
	if (r->len - r->pos < sizeof(struct perf_event_header))
		return damage(r, "record header cut short");
	p = r->buf + r->pos;
	memcpy(&size, p + 6, sizeof(size));
	if (size < sizeof(struct perf_event_header))
		return damage(r, "record size smaller than its header");
	if (size > r->len - r->pos)
		return damage(r, "record runs past the end of the file");
	rec->type = get_u32(p);
	memcpy(&rec->misc, p + 4, sizeof(rec->misc));
	rec->size = size;
	rec->offset = r->pos;
	rec->data = p;
	if (rec->type == SES_RECORD_HEADER_ATTR) {
		ret = add_attr(r, p, size);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return damage(r, "malformed attribute record");
	}
	r->pos += size;
	return 1;
}

uint64_t ses_reader_damage(const struct ses_reader *r, const char **why)
{
	if (why)
		*why = r->damage_why;
	return r->damage_off;
}

size_t ses_reader_nattrs(const struct ses_reader *r)
{
	return r->nattrs;
}

const struct perf_event_attr *ses_reader_attr(const struct ses_reader *r, size_t i)
{
	return i < r->nattrs ? &r->attrs[i].attr : NULL;
}

static int attr_for_id(const struct ses_reader *r, uint64_t id)
{
	for (size_t i = 0; i < r->nattrs; i++)
		for (size_t j = 0; j < r->attrs[i].nids; j++)
			if (r->attrs[i].ids[j] == id)
				return (int)i;
	return -1;
}

/* Cursor over a record body that refuses to read past its end. */
struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t take_u64(struct cursor *c)
{
	uint64_t v = 0;

	if (c->end - c->p < 8) {
		c->bad = true;
		return 0;
	}
	v = get_u64(c->p);
	c->p += 8;
	return v;
}

#ifndef PERF_SAMPLE_BRANCH_COUNTERS
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19) /* linux 6.8 */
#endif

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
static void parse_tail(struct cursor *c, const struct perf_event_attr *a, struct ses_sample *s)
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
		uint32_t raw;

		if (c->end - c->p < 4) {
			c->bad = true;
			return;
		}
		raw = get_u32(c->p);
		take_bytes(c, 4 + (uint64_t)raw); /* the kernel pads u32 + data to 8 bytes */
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

int ses_reader_sample(const struct ses_reader *r, const struct ses_record *rec,
		      struct ses_sample *s)
{
	struct cursor c = { (const unsigned char *)rec->data + 8,
			    (const unsigned char *)rec->data + rec->size, false };
	const struct perf_event_attr *a;
	uint64_t st, v;
	int idx = 0;

	memset(s, 0, sizeof(*s));
	if (!r->nattrs || rec->type != PERF_RECORD_SAMPLE)
		return -EINVAL;
	a = &r->attrs[0].attr;
	if (r->nattrs > 1) {
		/* several events: PERF_SAMPLE_IDENTIFIER leads every sample */
		if (!(a->sample_type & PERF_SAMPLE_IDENTIFIER) || rec->size < 16)
			return -EINVAL;
		idx = attr_for_id(r, get_u64(c.p));
		if (idx < 0)
			return -EINVAL;
		a = &r->attrs[idx].attr;
	}
	st = a->sample_type;
	s->attr_index = idx;
	s->cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = take_u64(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = take_u64(&c);
	if (st & PERF_SAMPLE_TID) {
		v = take_u64(&c);
		s->pid = (uint32_t)v;
		s->tid = (uint32_t)(v >> 32);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = take_u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		take_u64(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = take_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		take_u64(&c);
	if (st & PERF_SAMPLE_CPU)
		s->cpu = (uint32_t)take_u64(&c);
	if (st & PERF_SAMPLE_PERIOD)
		s->period = take_u64(&c);
	if (st & (PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
		  PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER))
		parse_tail(&c, a, s);
	return c.bad ? -EINVAL : 0;
}

int ses_reader_sample_id(const struct ses_reader *r, const struct ses_record *rec,
			 struct ses_sample_id *id)
{
	const struct perf_event_attr *a;
	const unsigned char *p;
	uint64_t st;
	size_t n = 0;

	memset(id, 0, sizeof(*id));
	if (!r->nattrs)
		return -EINVAL;
	a = &r->attrs[0].attr;
	if (!a->sample_id_all)
		return 0;
	st = a->sample_type;
	n += !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ID) +
	     !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU) +
	     !!(st & PERF_SAMPLE_IDENTIFIER);
	if (rec->size < 8 + n * 8)
		return -EINVAL;
	p = (const unsigned char *)rec->data + rec->size - n * 8;
	if (st & PERF_SAMPLE_TID) {
		uint64_t v = get_u64(p);

		id->pid = (uint32_t)v;
		id->tid = (uint32_t)(v >> 32);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME)
		id->time = get_u64(p);
	id->valid = true;
	return 0;
}
