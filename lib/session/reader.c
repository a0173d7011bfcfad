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

/* Where an attr puts the id that names its event: in a SAMPLE, u64 slots after the
 * header; in the sample_id trailer of other records, u64 slots before the record's end.
 * -1: it has none. */
struct id_pos {
	int sample, trailer;
};

struct ses_reader {
	const unsigned char *buf;
	size_t len;
	size_t pos;
	const void *map; /* owned mapping (input.c), or NULL */
	size_t map_len;
	size_t dropped; /* what ses_reader_next() handed back: the mapping below this */
	uint64_t damage_off;
	const char *damage_why;
	struct attr_entry *attrs;
	size_t nattrs;
	/* id -> attr index + 1 (0: empty), open addressing; @idcap a power of two */
	uint64_t *idkeys;
	uint32_t *idvals;
	size_t idcap, nids;
	struct id_pos pos_all; /* common to every attr, or -1 */
	bool same_trailer;     /* every attr lays out the sample_id trailer the same way */
};

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
	if (ses_get_u64((const unsigned char *)buf + 8) != SES_PIPE_HDR_SIZE) {
		ses_errf(err, errlen, "offset 8: header size %llu is not pipe mode (16)",
			 (unsigned long long)ses_get_u64((const unsigned char *)buf + 8));
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
	return ses_reader_open_at(out, AT_FDCWD, path, err, errlen);
}

size_t ses_reader_size(const struct ses_reader *r)
{
	return r->len;
}

int ses_reader_open_at(struct ses_reader **out, int dfd, const char *name, char *err, size_t errlen)
{
	const void *map;
	size_t len;
	int ret;

	*out = NULL;
	ret = ses_file_map_at(dfd, name, &map, &len, err, errlen);
	if (ret)
		return ret;
	ret = ses_reader_open_mem(out, map ? map : "", len, err, errlen);
	if (ret) {
		ses_file_unmap(map, len);
		return ret;
	}
	(*out)->map = map;
	(*out)->map_len = len;
	return 0;
}

void ses_reader_free(struct ses_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nattrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	free(r->idkeys);
	free(r->idvals);
	ses_file_unmap(r->map, r->map_len);
	free(r);
}

void ses_reader_rewind(struct ses_reader *r)
{
	struct ses_reader keep = *r;

	for (size_t i = 0; i < r->nattrs; i++)
		free(r->attrs[i].ids);
	free(r->attrs);
	free(r->idkeys);
	free(r->idvals);
	memset(r, 0, sizeof(*r));
	r->buf = keep.buf;
	r->len = keep.len;
	r->map = keep.map;
	r->map_len = keep.map_len;
	r->pos = SES_PIPE_HDR_SIZE;
}

static int damage(struct ses_reader *r, const char *why)
{
	r->damage_off = r->pos;
	r->damage_why = why;
	r->pos = r->len;
	return 0;
}

/* ---- ids -> attrs ---- */

static size_t id_hash(uint64_t id, size_t mask)
{
	/* kernel ids are small consecutive numbers: spread them (Fibonacci hashing) */
	return (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* Index + 1 of the attr of @id, or 0. */
static uint32_t id_find(const struct ses_reader *r, uint64_t id)
{
	size_t mask = r->idcap - 1;

	if (!r->idcap)
		return 0;
	for (size_t i = id_hash(id, mask);; i = (i + 1) & mask) {
		if (!r->idvals[i] || r->idkeys[i] == id)
			return r->idvals[i];
	}
}

/* The first attr naming an id keeps it (as a scan in file order would find). */
static void id_put(struct ses_reader *r, uint64_t id, uint32_t val)
{
	size_t mask = r->idcap - 1, i;

	for (i = id_hash(id, mask); r->idvals[i]; i = (i + 1) & mask)
		if (r->idkeys[i] == id)
			return;
	r->idkeys[i] = id;
	r->idvals[i] = val;
	r->nids++;
}

/* Make room for @more ids (load factor <= 1/2) and rehash. */
static int id_grow(struct ses_reader *r, size_t more)
{
	size_t cap = r->idcap ? r->idcap : 64, oldcap = r->idcap;
	uint64_t *keys = r->idkeys;
	uint32_t *vals = r->idvals;

	while (cap < 2 * (r->nids + more))
		cap *= 2;
	if (cap == r->idcap)
		return 0;
	r->idkeys = malloc(cap * sizeof(*r->idkeys));
	r->idvals = calloc(cap, sizeof(*r->idvals));
	if (!r->idkeys || !r->idvals) {
		free(r->idkeys);
		free(r->idvals);
		r->idkeys = keys;
		r->idvals = vals;
		return -ENOMEM;
	}
	r->idcap = cap;
	r->nids = 0;
	for (size_t i = 0; i < oldcap; i++)
		if (vals[i])
			id_put(r, keys[i], vals[i]);
	free(keys);
	free(vals);
	return 0;
}

#define TRAILER_FIELDS \
	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static struct id_pos id_pos_of(const struct perf_event_attr *a)
{
	uint64_t st = a->sample_type;
	struct id_pos p = { -1, -1 };

	if (st & PERF_SAMPLE_IDENTIFIER) {
		p.sample = 0;
		p.trailer = 0;
	} else if (st & PERF_SAMPLE_ID) {
		p.sample = __builtin_popcountll(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
		p.trailer = __builtin_popcountll(st & (PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU));
	}
	if (!a->sample_id_all)
		p.trailer = -1;
	return p;
}

/* What every attr so far agrees on, after attr @i joined. */
static void note_layout(struct ses_reader *r, size_t i)
{
	const struct perf_event_attr *a = &r->attrs[i].attr, *first = &r->attrs[0].attr;
	struct id_pos p = id_pos_of(a);

	if (!i) {
		r->pos_all = p;
		r->same_trailer = true;
		return;
	}
	if (p.sample != r->pos_all.sample)
		r->pos_all.sample = -1;
	if (p.trailer != r->pos_all.trailer)
		r->pos_all.trailer = -1;
	if (a->sample_id_all != first->sample_id_all ||
	    (a->sample_type & TRAILER_FIELDS) != (first->sample_type & TRAILER_FIELDS))
		r->same_trailer = false;
}

/* Take a HEADER_ATTR record: the attr (its own size field says how long) then ids. */
static int add_attr(struct ses_reader *r, const unsigned char *p, size_t size)
{
	struct ses_attr_rec rec;
	struct attr_entry *e, *grown;
	int ret = ses_decode_attr(p, size, &rec);

	if (ret)
		return -EINVAL;
	if (r->nattrs >= MAX_ATTRS || rec.nids > MAX_IDS_PER_ATTR)
		return -E2BIG;
	grown = realloc(r->attrs, (r->nattrs + 1) * sizeof(*r->attrs));
	if (!grown)
		return -ENOMEM;
	r->attrs = grown;
	e = &r->attrs[r->nattrs];
	memset(e, 0, sizeof(*e));
	e->attr = rec.attr;
	e->nids = rec.nids;
	if (e->nids) {
		e->ids = malloc(e->nids * sizeof(uint64_t));
		if (!e->ids || id_grow(r, e->nids)) {
			free(e->ids);
			return -ENOMEM;
		}
		memcpy(e->ids, rec.ids, e->nids * sizeof(uint64_t));
		for (size_t j = 0; j < e->nids; j++)
			id_put(r, e->ids[j], (uint32_t)r->nattrs + 1);
	}
	note_layout(r, r->nattrs);
	r->nattrs++;
	return 0;
}

size_t ses_reader_hand_back(struct ses_reader *r, size_t from, size_t to)
{
	return ses_file_hand_back(r->map, r->map_len, from, to);
}

size_t ses_reader_offset_of(const struct ses_reader *r, const void *p)
{
	const unsigned char *c = p;

	return c >= r->buf && c < r->buf + r->len ? (size_t)(c - r->buf) : SIZE_MAX;
}

int ses_reader_next(struct ses_reader *r, struct ses_record *rec)
{
	struct perf_event_header h;
	const unsigned char *p;
	int ret;

	if (r->pos >= r->len)
		return 0;
	r->dropped = ses_reader_hand_back(r, r->dropped, r->pos);
	p = r->buf + r->pos;
	if (ses_record_header(p, r->len - r->pos, &h)) {
		if (r->len - r->pos < sizeof(h))
			return damage(r, "record header cut short");
		if (h.size < sizeof(h))
			return damage(r, "record size smaller than its header");
		return damage(r, "record runs past the end of the file");
	}
	rec->type = h.type;
	rec->misc = h.misc;
	rec->size = h.size;
	rec->offset = r->pos;
	rec->data = p;
	if (rec->type == SES_RECORD_HEADER_ATTR) {
		ret = add_attr(r, p, h.size);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return damage(r, "malformed attribute record");
	}
	if (rec->type == SES_RECORD_HEADER_TRACING_DATA) {
		/* its payload follows the record, outside its header's size */
		uint32_t extra;

		if (h.size < 12)
			return damage(r, "tracing data record shorter than 12 bytes");
		memcpy(&extra, p + 8, 4);
		if (extra > r->len - r->pos - h.size)
			return damage(r, "tracing data runs past the end of the file");
		r->pos += (size_t)h.size + extra; /* rec->size stays the record's own 12 */
		return 1;
	}
	r->pos += h.size;
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

int ses_reader_attr_of_id(const struct ses_reader *r, uint64_t id)
{
	return (int)id_find(r, id) - 1;
}

const struct perf_event_attr *ses_reader_attr_of(const struct ses_reader *r,
						 const struct ses_record *rec, int *idx)
{
	const unsigned char *d = rec->data;
	bool sample = rec->type == PERF_RECORD_SAMPLE;
	int pos = sample ? r->pos_all.sample : r->pos_all.trailer;
	uint32_t v = 1;

	if (idx)
		*idx = -1;
	if (!r->nattrs)
		return NULL;
	if (r->nattrs > 1 && pos >= 0) {
		/* the id says which event: also needed when the layouts agree (a sample's
		 * attr_index says which event it counts for) */
		if (rec->size >= 8 + 8 * (size_t)(pos + 1))
			v = id_find(r, ses_get_u64(sample ? d + 8 + 8 * pos
							  : d + rec->size - 8 * (pos + 1)));
		else
			v = 0;
		/* an id no attr names: a sample cannot be counted; another record's trailer
		 * can still be read when every attr lays it out alike */
		if (!v && (sample || !r->same_trailer))
			return NULL;
		if (!v)
			v = 1;
	}
	/* else one attr, or no common place for the id: the first attr's, as perf does */
	if (idx)
		*idx = (int)v - 1;
	return &r->attrs[v - 1].attr;
}

int ses_reader_sample(const struct ses_reader *r, const struct ses_record *rec,
		      struct ses_sample *s)
{
	const struct perf_event_attr *a;
	int idx, ret;

	if (rec->type != PERF_RECORD_SAMPLE || !(a = ses_reader_attr_of(r, rec, &idx))) {
		memset(s, 0, sizeof(*s));
		return -EINVAL;
	}
	ret = ses_decode_sample(a, rec->data, rec->size, s);
	s->attr_index = idx;
	return ret;
}

int ses_reader_sample_id(const struct ses_reader *r, const struct ses_record *rec,
			 struct ses_sample_id *id)
{
	const struct perf_event_attr *a = ses_reader_attr_of(r, rec, NULL);
	int ret;

	if (!a) {
		memset(id, 0, sizeof(*id));
		return -EINVAL;
	}
	ret = ses_decode_sample_id(a, rec->data, rec->size, id);
	return ret == -EPROTO ? -EINVAL : ret;
}

int ses_reader_decode(const struct ses_reader *r, const struct ses_record *rec,
		      struct ses_decoded *d)
{
	int idx, ret;
	const struct perf_event_attr *a = ses_reader_attr_of(r, rec, &idx);

	if (!a && rec->type == PERF_RECORD_SAMPLE) {
		memset(d, 0, sizeof(*d));
		d->type = rec->type;
		d->misc = rec->misc;
		d->size = rec->size;
		return -EINVAL;
	}
	ret = ses_decode(a, rec->data, rec->size, d);
	if (rec->type == PERF_RECORD_SAMPLE)
		d->u.sample.attr_index = idx;
	return ret;
}
