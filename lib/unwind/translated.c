// SPDX-License-Identifier: MIT
/* translated.bin's format (unwind.h): parsing untrusted bytes, and writing. */
#include "unwind/unwind.h"
#include "util/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_LEN 48
#define FILE_LEN 48
#define ENTRY_LEN 9
#define NEND 3 /* enum rpt_unwind_end: DONE, TRUNCATED, FAILED */

uint64_t rpt_tr_hash(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static void whyf(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void whyf(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* ---- a cursor over bytes, each read checked against what remains ---- */

struct cur {
	const unsigned char *p;
	size_t at, len;
	bool bad;
};

static const void *take(struct cur *c, size_t n)
{
	const void *q;

	if (c->bad || n > c->len - c->at) {
		c->bad = true;
		return NULL;
	}
	q = c->p + c->at;
	c->at += n;
	return q;
}

static uint64_t get(struct cur *c, size_t n)
{
	const void *q = take(c, n);
	uint64_t v = 0;

	if (q)
		memcpy(&v, q, n); /* little-endian hosts (lib/arch's x86-64, arm64) */
	return v;
}

void rpt_tr_free(struct rpt_tr *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->files && i < t->nfiles; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->seqs);
	free(t->offs);
	free(t->buf);
	free(t);
}

static int parse_files(struct rpt_tr *t, struct cur *c, char *why, size_t whylen)
{
	t->files = calloc(t->nfiles ? t->nfiles : 1, sizeof(*t->files));
	if (!t->files)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nfiles; i++) {
		struct rpt_tr_file *f = &t->files[i];
		size_t at = c->at;
		uint64_t n = get(c, 2), missing = get(c, 1);
		const char *path;

		get(c, 5);
		f->missing = missing;
		f->size = get(c, 8);
		f->mtime_s = (int64_t)get(c, 8);
		f->mtime_ns = (int64_t)get(c, 8);
		f->ino = get(c, 8);
		f->dev = get(c, 8);
		path = take(c, n);
		if (c->bad || !n || n > RPT_TR_MAX_PATH || missing > 1 || memchr(path, 0, n)) {
			whyf(why, whylen, "file entry %u at offset %zu is malformed", i,
			     at + RPT_TR_PREAMBLE);
			return -EBADMSG;
		}
		f->path = strndup(path, n);
		if (!f->path)
			return -ENOMEM;
	}
	return 0;
}

static int parse_entries(struct rpt_tr *t, struct cur *c, char *why, size_t whylen)
{
	size_t n = t->nentries ? t->nentries : 1;

	t->seqs = malloc(n * sizeof(*t->seqs));
	t->offs = malloc(n * sizeof(*t->offs));
	if (!t->seqs || !t->offs)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->nentries; i++) {
		size_t at = c->at;
		uint32_t seq = (uint32_t)get(c, 4);
		uint64_t max = get(c, 2), nf = get(c, 2), end = get(c, 1);

		take(c, nf * 8 + (nf + 7) / 8);
		if (c->bad || nf > max || max > RPT_TR_MAX_FRAMES || end >= NEND ||
		    (i && seq <= t->seqs[i - 1])) {
			whyf(why, whylen, "stack entry %u at offset %zu is malformed", i,
			     at + RPT_TR_PREAMBLE);
			return -EBADMSG;
		}
		t->seqs[i] = seq;
		t->offs[i] = at;
	}
	if (c->at != c->len) {
		whyf(why, whylen, "%zu bytes after the last entry", c->len - c->at);
		return -EBADMSG;
	}
	return 0;
}

int rpt_tr_parse(unsigned char *buf, size_t len, struct rpt_tr **out, char *why, size_t whylen)
{
	struct rpt_tr *t = calloc(1, sizeof(*t));
	struct cur c = { buf, 0, len, false };
	uint64_t version, flags, body, hash, nfiles, nentries;
	int ret = -EBADMSG;

	*out = NULL;
	if (!t) {
		free(buf);
		return -ENOMEM;
	}
	t->buf = buf;
	t->len = len;
	if (len < RPT_TR_PREAMBLE || memcmp(buf, RPT_TR_MAGIC, 8)) {
		whyf(why, whylen,
		     len < 8 ? "cut short (%zu bytes)"
			     : "not a uprof translation "
			       "(no magic)",
		     len);
		goto out;
	}
	take(&c, 8);
	version = get(&c, 4);
	flags = get(&c, 4);
	body = get(&c, 8);
	hash = get(&c, 8);
	if (version != RPT_TR_VERSION) {
		whyf(why, whylen, "is version %llu; this uprof reads version %d",
		     (unsigned long long)version, RPT_TR_VERSION);
		ret = -EPROTO;
		goto out;
	}
	if (flags) {
		whyf(why, whylen, "has flags %#llx this uprof does not know",
		     (unsigned long long)flags);
		goto out;
	}
	if (body != len - RPT_TR_PREAMBLE) {
		whyf(why, whylen, "%s: %zu bytes where its header says %llu",
		     body > len - RPT_TR_PREAMBLE ? "cut short" : "has bytes past its end", len,
		     (unsigned long long)(body + RPT_TR_PREAMBLE));
		goto out;
	}
	if (rpt_tr_hash(RPT_TR_HASH0, buf + RPT_TR_PREAMBLE, (size_t)body) != hash) {
		whyf(why, whylen, "checksum mismatch (damaged)");
		goto out;
	}
	c = (struct cur){ buf + RPT_TR_PREAMBLE, 0, (size_t)body, false };
	t->key.data_size = get(&c, 8);
	t->key.data_mtime_s = (int64_t)get(&c, 8);
	t->key.data_mtime_ns = (int64_t)get(&c, 8);
	t->key.data_head = get(&c, 8);
	t->key.opts = get(&c, 8);
	t->key.scope = get(&c, 8);
	nfiles = get(&c, 4);
	nentries = get(&c, 4);
	/* counts bounded by what is left before anything is allocated */
	if (c.bad || nfiles > RPT_TR_MAX_FILES || nfiles > (c.len - c.at) / FILE_LEN ||
	    nentries > (c.len - c.at) / ENTRY_LEN) {
		whyf(why, whylen, "its counts do not fit the file");
		goto out;
	}
	t->nfiles = (uint32_t)nfiles;
	t->nentries = (uint32_t)nentries;
	ret = parse_files(t, &c, why, whylen);
	if (!ret)
		ret = parse_entries(t, &c, why, whylen);
out:
	if (ret) {
		rpt_tr_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

int rpt_tr_lookup(const struct rpt_tr *t, uint32_t seq, int max, uint64_t *pcs, bool *act, int *end)
{
	size_t lo = 0, hi = t ? t->nentries : 0;
	const unsigned char *e;
	uint16_t emax, n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->seqs[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!t || lo == t->nentries || t->seqs[lo] != seq)
		return -1;
	e = t->buf + RPT_TR_PREAMBLE + t->offs[lo];
	memcpy(&emax, e + 4, 2);
	memcpy(&n, e + 6, 2);
	if (emax != max) /* unwound to another depth: not this report's stack */
		return -1;
	*end = e[8];
	memcpy(pcs, e + ENTRY_LEN, (size_t)n * 8);
	e += ENTRY_LEN + (size_t)n * 8;
	for (int i = 0; i < n; i++)
		act[i] = e[i / 8] >> (i % 8) & 1;
	return n;
}

/* ---- writing ---- */

static int reserve(unsigned char **p, size_t *cap, size_t need)
{
	size_t ncap = *cap ? *cap : 65536;
	unsigned char *q;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	q = realloc(*p, ncap);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = ncap;
	return 0;
}

static unsigned char *put(unsigned char *p, uint64_t v, size_t n)
{
	memcpy(p, &v, n);
	return p + n;
}

int rpt_tr_writer_note(struct rpt_tr_writer *w, uint32_t seq, int max, int n, const uint64_t *pcs,
		       const bool *act, int end)
{
	size_t need = ENTRY_LEN + (size_t)n * 8 + ((size_t)n + 7) / 8;
	unsigned char *p;

	if (w->failed)
		return -ENOMEM;
	if (n < 0 || n > max || max > RPT_TR_MAX_FRAMES || end < 0 || end >= NEND)
		return -EINVAL;
	if (reserve(&w->body, &w->cap, w->len + need)) {
		w->failed = true;
		return -ENOMEM;
	}
	if (w->nentries && seq <= w->last_seq)
		w->sorted = false;
	else if (!w->nentries)
		w->sorted = true;
	w->last_seq = seq;
	p = w->body + w->len;
	p = put(p, seq, 4);
	p = put(p, (uint64_t)max, 2);
	p = put(p, (uint64_t)n, 2);
	p = put(p, (uint64_t)end, 1);
	if (n) /* @pcs may be NULL for none, which memcpy may not take */
		memcpy(p, pcs, (size_t)n * 8);
	p += (size_t)n * 8;
	memset(p, 0, ((size_t)n + 7) / 8);
	for (int i = 0; i < n; i++)
		p[i / 8] |= (unsigned char)(act[i] << (i % 8));
	w->len += need;
	w->nentries++;
	return 0;
}

void rpt_tr_writer_release(struct rpt_tr_writer *w)
{
	free(w->body);
	*w = (struct rpt_tr_writer){ 0 };
}

struct ent {
	uint32_t seq;
	size_t off, len;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The entries' index, sorted by seq; -EINVAL for a seq noted twice. */
static int index_entries(const struct rpt_tr_writer *w, struct ent **out)
{
	struct ent *e = malloc((w->nentries ? w->nentries : 1) * sizeof(*e));
	size_t at = 0;

	*out = e;
	if (!e)
		return -ENOMEM;
	for (uint32_t i = 0; i < w->nentries; i++) {
		uint16_t n;

		memcpy(&e[i].seq, w->body + at, 4);
		memcpy(&n, w->body + at + 6, 2);
		e[i].off = at;
		e[i].len = ENTRY_LEN + (size_t)n * 8 + ((size_t)n + 7) / 8;
		at += e[i].len;
	}
	if (!w->sorted)
		util_qsort(e, w->nentries, sizeof(*e), cmp_ent);
	for (uint32_t i = 1; i < w->nentries; i++)
		if (e[i].seq == e[i - 1].seq)
			return -EINVAL;
	return 0;
}

int rpt_tr_serialize(struct rpt_tr_writer *w, const struct rpt_tr_key *key,
		     const struct rpt_tr_file *files, uint32_t nfiles, unsigned char **out,
		     size_t *len)
{
	size_t total = RPT_TR_PREAMBLE + KEY_LEN + 8 + w->len;
	struct ent *e = NULL;
	unsigned char *buf = NULL, *p;
	int ret;

	*out = NULL;
	*len = 0;
	if (w->failed)
		return -ENOMEM;
	for (uint32_t i = 0; i < nfiles; i++) {
		size_t n = strlen(files[i].path);

		if (!n || n > RPT_TR_MAX_PATH)
			return -EINVAL;
		total += FILE_LEN + n;
	}
	if (nfiles > RPT_TR_MAX_FILES || total > RPT_TR_MAX_SIZE)
		return -E2BIG;
	ret = index_entries(w, &e);
	if (ret)
		goto out;
	buf = malloc(total);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	p = buf;
	memcpy(p, RPT_TR_MAGIC, 8);
	p = put(p + 8, RPT_TR_VERSION, 4);
	p = put(p, 0, 4);
	p = put(p, total - RPT_TR_PREAMBLE, 8);
	p += 8; /* the hash, once the body is there */
	p = put(p, key->data_size, 8);
	p = put(p, (uint64_t)key->data_mtime_s, 8);
	p = put(p, (uint64_t)key->data_mtime_ns, 8);
	p = put(p, key->data_head, 8);
	p = put(p, key->opts, 8);
	p = put(p, key->scope, 8);
	p = put(p, nfiles, 4);
	p = put(p, w->nentries, 4);
	for (uint32_t i = 0; i < nfiles; i++) {
		const struct rpt_tr_file *f = &files[i];
		size_t n = strlen(f->path);

		p = put(p, n, 2);
		p = put(p, f->missing, 1);
		p = put(p, 0, 5);
		p = put(p, f->size, 8);
		p = put(p, (uint64_t)f->mtime_s, 8);
		p = put(p, (uint64_t)f->mtime_ns, 8);
		p = put(p, f->ino, 8);
		p = put(p, f->dev, 8);
		memcpy(p, f->path, n);
		p += n;
	}
	for (uint32_t i = 0; i < w->nentries; i++) {
		memcpy(p, w->body + e[i].off, e[i].len);
		p += e[i].len;
	}
	put(buf + 24, rpt_tr_hash(RPT_TR_HASH0, buf + RPT_TR_PREAMBLE, total - RPT_TR_PREAMBLE), 8);
	*out = buf;
	*len = total;
	buf = NULL;
out:
	free(e);
	free(buf);
	return ret;
}
