// SPDX-License-Identifier: MIT
/*
 * leafstack.data (the format is in leafstack.h): its entry codec, the writer collect
 * uses, and the reader report joins to samples.data's samples with.
 */
#include "session/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LEAF_BUF (64 * 1024)

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

static size_t entry_size(uint32_t nregs, uint32_t stack_len)
{
	return (SES_LEAF_FIXED + (size_t)nregs * 8 + stack_len + 7) & ~(size_t)7;
}

int ses_leaf_encode(void *buf, size_t cap, const struct ses_leaf *l)
{
	unsigned char *p = buf;
	size_t n;

	if (l->nregs > SES_LEAF_MAX_REGS || l->stack_len > SES_LEAF_MAX_STACK ||
	    (l->nregs && !l->regs) || (l->stack_len && !l->stack))
		return -EINVAL;
	n = entry_size(l->nregs, l->stack_len);
	if (n > cap)
		return -ENOSPC;
	memset(p, 0, n);
	put32(p, SES_LEAF_RECORD);
	put32(p + 4, (uint32_t)n);
	put64(p + 8, l->seq);
	put64(p + 16, l->id);
	put32(p + 24, l->pid);
	put32(p + 28, l->tid);
	put64(p + 32, l->time);
	put64(p + 40, l->regs_abi);
	put32(p + 48, l->nregs);
	put32(p + 52, l->stack_len);
	if (l->nregs)
		memcpy(p + SES_LEAF_FIXED, l->regs, (size_t)l->nregs * 8);
	if (l->stack_len)
		memcpy(p + SES_LEAF_FIXED + (size_t)l->nregs * 8, l->stack, l->stack_len);
	return (int)n;
}

int ses_leaf_decode(const void *buf, size_t len, uint64_t regs_mask, struct ses_leaf *l,
		    size_t *size)
{
	const unsigned char *p = buf;
	uint32_t type, n, nregs, stack_len;

	if (len < 8)
		return -EINVAL;
	type = ses_get_u32(p);
	n = ses_get_u32(p + 4);
	if (n < 8 || n % 8 || n > len)
		return -EINVAL;
	*size = n;
	if (type != SES_LEAF_RECORD)
		return 0;
	if (n < SES_LEAF_FIXED)
		return -EINVAL;
	nregs = ses_get_u32(p + 48);
	stack_len = ses_get_u32(p + 52);
	if ((nregs && nregs != (uint32_t)__builtin_popcountll(regs_mask)) ||
	    nregs > SES_LEAF_MAX_REGS || stack_len > SES_LEAF_MAX_STACK ||
	    entry_size(nregs, stack_len) != n)
		return -EINVAL;
	*l = (struct ses_leaf){
		.seq = ses_get_u64(p + 8), .id = ses_get_u64(p + 16), .pid = ses_get_u32(p + 24),
		.tid = ses_get_u32(p + 28), .time = ses_get_u64(p + 32), .regs_abi = ses_get_u64(p + 40),
		.nregs = nregs, .regs = nregs ? p + SES_LEAF_FIXED : NULL,
		.stack_len = stack_len,
		.stack = stack_len ? p + SES_LEAF_FIXED + (size_t)nregs * 8 : NULL,
	};
	return 1;
}

/* ---- the writer ---- */

struct ses_leaf_writer {
	int fd;
	int err; /* first error, sticky */
	size_t used;
	unsigned char buf[LEAF_BUF];
};

int ses_leaf_writer_flush(struct ses_leaf_writer *w)
{
	if (!w->err && w->used)
		w->err = ses_write_full(w->fd, w->buf, w->used);
	w->used = 0;
	return w->err;
}

struct ses_leaf_writer *ses_leaf_writer_open(const char *dir, uint64_t regs_mask,
					     uint32_t stack_bytes)
{
	char path[PATH_MAX];
	struct ses_leaf_writer *w;

	if (snprintf(path, sizeof(path), "%s/" SES_LEAF_FILE, dir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->fd = ses_file_create(path, O_WRONLY | O_TRUNC); /* 0600 */
	if (w->fd < 0) {
		int e = -w->fd;

		free(w);
		errno = e;
		return NULL;
	}
	memcpy(w->buf, SES_LEAF_MAGIC, 8);
	put32(w->buf + 8, SES_LEAF_VERSION);
	put32(w->buf + 12, SES_LEAF_HDR_SIZE);
	put64(w->buf + 16, regs_mask);
	put32(w->buf + 24, stack_bytes);
	put32(w->buf + 28, 0);
	w->used = SES_LEAF_HDR_SIZE;
	return w;
}

int ses_leaf_writer_add(struct ses_leaf_writer *w, const struct ses_leaf *l)
{
	size_t need = entry_size(l->nregs, l->stack_len);
	int n;

	if (w->err)
		return w->err;
	if (w->used + need > sizeof(w->buf) && ses_leaf_writer_flush(w))
		return w->err;
	n = ses_leaf_encode(w->buf + w->used, sizeof(w->buf) - w->used, l);
	if (n < 0)
		return n;
	w->used += (size_t)n;
	return 0;
}

int ses_leaf_writer_close(struct ses_leaf_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = ses_leaf_writer_flush(w);
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w);
	return ret;
}

/* ---- the reader ---- */

struct ses_leaf_reader {
	const unsigned char *buf;
	size_t len, pos;
	const void *map; /* owned when opened from a file */
	size_t map_len;
	uint64_t regs_mask;
	uint64_t damage_off;
	const char *damage_why;
	size_t handed;	      /* the walk handed back the mapping below this */
	bool have;	      /* @next holds the entry at @pos, decoded */
	struct ses_leaf next;
	size_t next_size;
	uint64_t joined, skipped, mismatched;
};

int ses_leaf_reader_open_mem(struct ses_leaf_reader **out, const void *buf, size_t len,
			     char *err, size_t errlen)
{
	const unsigned char *p = buf;
	struct ses_leaf_reader *r;
	uint32_t hsize;

	*out = NULL;
	if (len < SES_LEAF_HDR_SIZE || memcmp(p, SES_LEAF_MAGIC, 8)) {
		ses_errf(err, errlen, "offset 0: not a leafstack file (no %s header)",
			 SES_LEAF_MAGIC);
		return -EINVAL;
	}
	hsize = ses_get_u32(p + 12);
	if (ses_get_u32(p + 8) != SES_LEAF_VERSION) {
		ses_errf(err, errlen, "offset 8: version %u, this uprof reads version %d",
			 ses_get_u32(p + 8), SES_LEAF_VERSION);
		return -EINVAL;
	}
	if (hsize < SES_LEAF_HDR_SIZE || hsize % 8 || hsize > len) {
		ses_errf(err, errlen, "offset 12: bad header size %u", hsize);
		return -EINVAL;
	}
	if (__builtin_popcountll(ses_get_u64(p + 16)) > SES_LEAF_MAX_REGS) {
		ses_errf(err, errlen, "offset 16: more than %d registers", SES_LEAF_MAX_REGS);
		return -EINVAL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->buf = p;
	r->len = len;
	r->pos = hsize;
	r->regs_mask = ses_get_u64(p + 16);
	*out = r;
	return 0;
}

int ses_leaf_reader_open_file(struct ses_leaf_reader **out, const char *path, char *err,
			      size_t errlen)
{
	const void *map;
	size_t len;
	int ret;

	*out = NULL;
	ret = ses_file_map(path, &map, &len, err, errlen);
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

/* The record at the cursor, decoded once (entries of other types skipped): false at the
 * end or at damage. */
static bool peek(struct ses_leaf_reader *r)
{
	while (!r->have && r->pos < r->len) {
		int ret = ses_leaf_decode(r->buf + r->pos, r->len - r->pos, r->regs_mask,
					  &r->next, &r->next_size);

		if (ret < 0) {
			r->damage_off = r->pos;
			r->damage_why = r->len - r->pos < 8 ? "an entry cut short"
							    : "a malformed entry";
			r->pos = r->len;
			return false;
		}
		if (ret == 0)
			r->pos += r->next_size;
		else
			r->have = true;
	}
	return r->have;
}

static void take(struct ses_leaf_reader *r)
{
	r->pos += r->next_size;
	r->have = false;
	r->handed = ses_file_hand_back(r->map, r->map_len, r->handed, r->pos);
}

size_t ses_leaf_reader_hand_back(struct ses_leaf_reader *r, size_t from, size_t to)
{
	return r ? ses_file_hand_back(r->map, r->map_len, from, to) : from;
}

size_t ses_leaf_reader_offset_of(const struct ses_leaf_reader *r, const void *p)
{
	const unsigned char *c = p;

	return r && c >= r->buf && c < r->buf + r->len ? (size_t)(c - r->buf) : SIZE_MAX;
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

void ses_leaf_reader_counts(const struct ses_leaf_reader *r, uint64_t *joined,
			    uint64_t *skipped, uint64_t *mismatched)
{
	*joined = r->joined;
	*skipped = r->skipped;
	*mismatched = r->mismatched;
}
