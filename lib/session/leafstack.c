// SPDX-License-Identifier: MIT
/*
 * leafstack.data (the format is in leafstack.h): its record codec, the writer collect
 * uses, and the reader report joins to samples.data's samples with; the framing is the
 * side-file container's (container.c).
 */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEAF_BUF (64 * 1024)
#define LEAF_MINOR 0

static const struct ses_ct_kind leaf_kind = {
	.magic = SES_LEAF_MAGIC,
	.what = "leafstack",
	.major = SES_LEAF_VERSION,
	.legacy_major = 1,
	.min_header = SES_LEAF_HDR_SIZE,
	.known = 1u << SES_LEAF_RECORD,
};

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* The value's bytes: fixed part, registers, stack. */
static size_t value_size(uint32_t nregs, uint32_t stack_len)
{
	return SES_LEAF_FIXED + (size_t)nregs * 8 + stack_len;
}

static bool encodable(const struct ses_leaf *l)
{
	return l->nregs <= SES_LEAF_MAX_REGS && l->stack_len <= SES_LEAF_MAX_STACK &&
	       (!l->nregs || l->regs) && (!l->stack_len || l->stack);
}

int ses_leaf_encode(void *buf, size_t cap, const struct ses_leaf *l)
{
	unsigned char *p = buf;
	size_t n;

	if (!encodable(l))
		return -EINVAL;
	n = value_size(l->nregs, l->stack_len);
	if (n > cap)
		return -ENOSPC;
	put64(p, l->seq);
	put64(p + 8, l->id);
	put32(p + 16, l->pid);
	put32(p + 20, l->tid);
	put64(p + 24, l->time);
	put64(p + 32, l->regs_abi);
	put32(p + 40, l->nregs);
	put32(p + 44, l->stack_len);
	if (l->nregs)
		memcpy(p + SES_LEAF_FIXED, l->regs, (size_t)l->nregs * 8);
	if (l->stack_len)
		memcpy(p + SES_LEAF_FIXED + (size_t)l->nregs * 8, l->stack, l->stack_len);
	return (int)n;
}

int ses_leaf_decode(const void *value, size_t len, uint64_t regs_mask, struct ses_leaf *l)
{
	const unsigned char *p = value;
	uint32_t nregs, stack_len;
	size_t need;

	if (len < SES_LEAF_FIXED)
		return -EINVAL;
	nregs = ses_get_u32(p + 40);
	stack_len = ses_get_u32(p + 44);
	if ((nregs && nregs != (uint32_t)__builtin_popcountll(regs_mask)) ||
	    nregs > SES_LEAF_MAX_REGS || stack_len > SES_LEAF_MAX_STACK)
		return -EINVAL;
	/* exact, or (the legacy framing, container.c) zero-padded to 8 */
	need = value_size(nregs, stack_len);
	if (len != need && len != ((need + 7) & ~(size_t)7))
		return -EINVAL;
	*l = (struct ses_leaf){
		.seq = ses_get_u64(p),
		.id = ses_get_u64(p + 8),
		.pid = ses_get_u32(p + 16),
		.tid = ses_get_u32(p + 20),
		.time = ses_get_u64(p + 24),
		.regs_abi = ses_get_u64(p + 32),
		.nregs = nregs,
		.regs = nregs ? p + SES_LEAF_FIXED : NULL,
		.stack_len = stack_len,
		.stack = stack_len ? p + SES_LEAF_FIXED + (size_t)nregs * 8 : NULL,
	};
	return 0;
}

/* ---- the writer ---- */

struct ses_leaf_writer {
	struct ses_ct_writer *ct;
};

int ses_leaf_writer_flush(struct ses_leaf_writer *w)
{
	return ses_ct_writer_flush(w->ct);
}

struct ses_leaf_writer *ses_leaf_writer_open(int dfd, uint64_t regs_mask, uint32_t stack_bytes)
{
	struct ses_leaf_writer *w = calloc(1, sizeof(*w));
	unsigned char fields[SES_LEAF_HDR_SIZE - SES_CT_PREFIX];

	if (!w)
		return NULL;
	put64(fields, regs_mask);
	put32(fields + 8, stack_bytes);
	put32(fields + 12, 0);
	return ses_side_writer_adopt(w, &w->ct,
				     ses_side_writer_create(dfd, NULL, SES_LEAF_FILE, O_EXCL, LEAF_BUF,
							    SES_LEAF_MAGIC, SES_LEAF_VERSION,
							    LEAF_MINOR, fields, sizeof(fields)));
}

int ses_leaf_writer_add(struct ses_leaf_writer *w, const struct ses_leaf *l)
{
	size_t n;
	void *p;

	if (!encodable(l))
		return -EINVAL; /* this record only: the writer goes on */
	n = value_size(l->nregs, l->stack_len);
	p = ses_ct_writer_reserve(w->ct, SES_LEAF_RECORD, n);
	if (!p)
		return ses_ct_writer_flush(w->ct); /* the sticky error */
	ses_leaf_encode(p, n, l);
	return 0;
}

int ses_leaf_writer_close(struct ses_leaf_writer *w)
{
	return w ? ses_side_writer_release(w, w->ct) : 0;
}

/* ---- the reader ---- */

struct ses_leaf_reader {
	struct ses_ct_reader ct;
	const void *map; /* owned when opened from a file */
	size_t map_len;
	uint64_t regs_mask;
	uint64_t damage_off;
	const char *damage_why;
	size_t handed; /* the walk handed back the mapping below this */
	bool have;     /* @next holds the record before ct.pos, decoded */
	struct ses_leaf next;
	uint64_t joined, skipped, mismatched;
};

int ses_leaf_reader_open_mem(struct ses_leaf_reader **out, const void *buf, size_t len, char *err,
			     size_t errlen)
{
	struct ses_leaf_reader *r;
	struct ses_ct_reader ct;
	uint64_t mask;
	int ret;

	*out = NULL;
	ret = ses_ct_open(&ct, &leaf_kind, buf, len, err, errlen);
	if (ret)
		return ret == -EPROTO ? -EINVAL : ret;
	mask = ses_get_u64(ses_ct_fields(&ct));
	if (__builtin_popcountll(mask) > SES_LEAF_MAX_REGS) {
		ses_errf(err, errlen, "offset 16: more than %d registers", SES_LEAF_MAX_REGS);
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->ct = ct;
	r->regs_mask = mask;
	*out = r;
	return 0;
}

int ses_leaf_reader_open_file(struct ses_leaf_reader **out, const char *path, char *err,
			      size_t errlen)
{
	return ses_leaf_reader_open_at(out, AT_FDCWD, path, err, errlen);
}

int ses_leaf_reader_open_at(struct ses_leaf_reader **out, int dfd, const char *name, char *err,
			    size_t errlen)
{
	const void *map;
	size_t len;
	int ret;

	*out = NULL;
	ret = ses_file_map_at(dfd, name, &map, &len, err, errlen);
	if (ret)
		return ret;
	ret = ses_leaf_reader_open_mem(out, map ? map : "", len, err, errlen);
	if (ret) {
		ses_file_unmap(map, len);
		return ret;
	}
	(*out)->map = map;
	(*out)->map_len = len;
	return 0;
}

void ses_leaf_reader_free(struct ses_leaf_reader *r)
{
	if (!r)
		return;
	ses_file_unmap(r->map, r->map_len);
	free(r);
}

uint64_t ses_leaf_reader_regs_mask(const struct ses_leaf_reader *r)
{
	return r->regs_mask;
}

/* The next record, decoded once (records of other types skipped): false at the end or at
 * damage. */
static bool peek(struct ses_leaf_reader *r)
{
	struct ses_ct_record rec;

	if (r->have)
		return true;
	if (!ses_ct_next(&r->ct, &rec)) {
		if (r->ct.damage && !r->damage_why) {
			r->damage_off = r->ct.damaged_at;
			r->damage_why = r->ct.damage;
		}
		return false;
	}
	if (ses_leaf_decode(rec.value, rec.len, r->regs_mask, &r->next)) {
		ses_ct_damage(&r->ct, rec.offset, "a malformed entry");
		r->damage_off = rec.offset;
		r->damage_why = "a malformed entry";
		return false;
	}
	r->have = true;
	return true;
}

static void take(struct ses_leaf_reader *r)
{
	r->have = false;
	r->handed = ses_file_hand_back(r->map, r->map_len, r->handed, r->ct.pos);
}

size_t ses_leaf_reader_hand_back(struct ses_leaf_reader *r, size_t from, size_t to)
{
	return r ? ses_file_hand_back(r->map, r->map_len, from, to) : from;
}

size_t ses_leaf_reader_offset_of(const struct ses_leaf_reader *r, const void *p)
{
	const unsigned char *c = p;

	return r && c >= r->ct.buf && c < r->ct.buf + r->ct.len ? (size_t)(c - r->ct.buf)
								: SIZE_MAX;
}

int ses_leaf_join(struct ses_leaf_reader *r, uint64_t seq, const struct ses_sample *s,
		  struct ses_leaf *l)
{
	if (!r)
		return 0;
	while (peek(r) && r->next.seq < seq) {
		r->skipped++;
		take(r);
	}
	if (!r->have || r->next.seq != seq)
		return 0;
	take(r);
	if (r->next.pid != s->pid || r->next.tid != s->tid || r->next.time != s->time ||
	    r->next.id != s->id) {
		r->mismatched++;
		return 0;
	}
	*l = r->next;
	r->joined++;
	return 1;
}

uint64_t ses_leaf_reader_damage(const struct ses_leaf_reader *r, const char **why)
{
	if (why)
		*why = r->damage_why;
	return r->damage_off;
}

void ses_leaf_reader_counts(const struct ses_leaf_reader *r, uint64_t *joined, uint64_t *skipped,
			    uint64_t *mismatched)
{
	*joined = r->joined;
	*skipped = r->skipped;
	*mismatched = r->mismatched;
}

uint64_t ses_leaf_reader_unknown(const struct ses_leaf_reader *r)
{
	return r->ct.unknown;
}
