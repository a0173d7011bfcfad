// SPDX-License-Identifier: MIT
/*
 * The decoders of perf's pipe-mode metadata records (foreign.h): HEADER_EVENT_TYPE,
 * EVENT_UPDATE and HEADER_FEATURE with the strings and event descriptions inside a
 * feature (layouts: tools/lib/perf/include/perf/event.h, tools/perf/util/header.c's
 * do_write_string and write_event_desc). Part of the one record codec (record.c has the
 * kernel's records). perf does not pad these records to 8 bytes, so no alignment is
 * asked of them; every length is checked against the record's size.
 */
#include "session/internal.h"

#include <errno.h>
#include <string.h>

/* The body of @rec (header checked, type @type): *@body, *@n bytes. */
static int body_of(const void *rec, size_t len, uint32_t type, const unsigned char **body,
		   size_t *n)
{
	struct perf_event_header h;
	int ret = ses_record_header(rec, len, &h);

	if (ret)
		return ret;
	if (h.type != type)
		return -EPROTO;
	*body = (const unsigned char *)rec + sizeof(h);
	*n = h.size - sizeof(h);
	return 0;
}

/* A string of at most @cap bytes at @p that must hold its NUL. */
static const char *str_in(const unsigned char *p, size_t cap, size_t *len)
{
	const unsigned char *nul = cap ? memchr(p, 0, cap) : NULL;

	if (!nul)
		return NULL;
	*len = (size_t)(nul - p);
	return (const char *)p;
}

int ses_decode_event_type(const void *rec, size_t len, struct ses_event_type *t)
{
	const unsigned char *b;
	size_t n;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = body_of(rec, len, SES_RECORD_HEADER_EVENT_TYPE, &b, &n);
	if (ret)
		return ret;
	if (n < 8 + 1)
		return -EINVAL;
	t->event_id = ses_get_u64(b);
	t->name = str_in(b + 8, n - 8 < 64 ? n - 8 : 64, &t->name_len);
	return t->name ? 0 : -EINVAL;
}

int ses_decode_event_update(const void *rec, size_t len, struct ses_event_update *u)
{
	const unsigned char *b;
	size_t n;
	int ret;

	memset(u, 0, sizeof(*u));
	ret = body_of(rec, len, SES_RECORD_EVENT_UPDATE, &b, &n);
	if (ret)
		return ret;
	if (n < 16)
		return -EINVAL;
	u->type = ses_get_u64(b);
	u->id = ses_get_u64(b + 8);
	if (u->type != SES_EVENT_UPDATE_NAME)
		return 0;
	u->name = str_in(b + 16, n - 16, &u->name_len);
	return u->name ? 0 : -EINVAL;
}

int ses_decode_feature(const void *rec, size_t len, struct ses_feature *f)
{
	const unsigned char *b;
	size_t n;
	int ret;

	memset(f, 0, sizeof(*f));
	ret = body_of(rec, len, SES_RECORD_HEADER_FEATURE, &b, &n);
	if (ret)
		return ret;
	if (n < 8)
		return -EINVAL;
	f->id = ses_get_u64(b);
	f->data = b + 8;
	f->len = n - 8;
	return 0;
}

int ses_feature_string(const struct ses_feature *f, size_t *off, const char **s, size_t *slen)
{
	uint32_t n;

	*s = NULL;
	*slen = 0;
	if (*off > f->len || f->len - *off < 4)
		return -EINVAL;
	n = ses_get_u32(f->data + *off);
	if (n > f->len - *off - 4)
		return -EINVAL;
	*s = str_in(f->data + *off + 4, n, slen);
	if (!*s)
		return -EINVAL;
	*off += 4 + (size_t)n;
	return 0;
}

int ses_event_desc_next(const struct ses_feature *f, struct ses_desc_iter *it,
			struct ses_event_desc *d)
{
	const unsigned char *a;
	uint32_t nids;

	memset(d, 0, sizeof(*d));
	if (!it->started) {
		if (f->len < 8)
			return -EINVAL;
		it->left = ses_get_u32(f->data);
		it->attr_size = ses_get_u32(f->data + 4);
		it->off = 8;
		it->started = true;
		/* an event takes at least its attr, a u32 count and a string's u32 */
		if (it->attr_size < PERF_ATTR_SIZE_VER0 || it->attr_size > SES_ATTR_MAX ||
		    it->left > (f->len - 8) / (it->attr_size + 8))
			return -EINVAL;
	}
	if (!it->left)
		return 0;
	if (f->len - it->off < (size_t)it->attr_size + 4)
		return -EINVAL;
	a = f->data + it->off;
	memcpy(&d->attr, a, it->attr_size < sizeof(d->attr) ? it->attr_size : sizeof(d->attr));
	d->attr.size = it->attr_size;
	nids = ses_get_u32(a + it->attr_size);
	it->off += (size_t)it->attr_size + 4;
	if (ses_feature_string(f, &it->off, &d->name, &d->name_len))
		return -EINVAL;
	if (nids > (f->len - it->off) / 8)
		return -EINVAL;
	d->nids = nids;
	d->ids = nids ? f->data + it->off : NULL;
	it->off += (size_t)nids * 8;
	it->left--;
	return 1;
}
