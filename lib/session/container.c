// SPDX-License-Identifier: MIT
/*
 * The side-file container: one framing, one reader and one writer for every file the
 * session directory holds beside samples.data (docs/DESIGN.md §4): instrument/<pid>.tasks
 * (tasks.c), openmp/<pid>.ompt (openmp.c), mpi/<pid>.mpi (written by lib/mpi in the rank,
 * read by mpi.c) and leafstack.data (leafstack.c).
 *
 * Little-endian (the writer's order; every platform uprof runs on). A file is
 *   header   magic[8]      which kind of file: "UPTASKS1", "UPOMPT01", "UPROFMPI", "UPLEAFS1"
 *            u16 major     a reader refuses a major newer than its own, in one line
 *            u16 minor     a reader reads a newer minor: it only adds header fields at the
 *                          end and record types
 *            u32 header_size  the whole header, these 16 bytes included: the kind's fields
 *                          follow, and a reader skips fields past those it knows
 *            the kind's fields (described in its header: session.h, openmp.h, mpi.h,
 *                          leafstack.h)
 *   records  u32 type, u32 length, then length bytes of value, unpadded, to the end of the
 *            file. A type the reader does not know is skipped and counted; a record cut
 *            short ends the walk with what came before kept and the offset said.
 * Versions are per kind: tasks, ompt and leafstack 2.0, mpi 1.1 (its records were framed
 * like this from the start). The first tasks, ompt and leafstack files (major 1) framed
 * records as a u32 type and a u32 size that counts the 8-byte record header too and is a
 * multiple of 8 (values zero-padded): the reader still reads them, as the kind's "legacy"
 * framing, behind the same calls. Their header was already this one (their u32 version 1
 * reads as major 1, minor 0).
 *
 * This file depends on libc alone: lib/mpi compiles it into its interposer, and calls
 * only the encoders there (async-signal-safe: memcpy).
 */
#include "session/container.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- reading ---- */

static int bad_header(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int bad_header(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

int ses_ct_open(struct ses_ct_reader *r, const struct ses_ct_kind *k, const void *buf, size_t len,
		char *err, size_t errlen)
{
	const unsigned char *p = buf;

	memset(r, 0, sizeof(*r));
	if (len < SES_CT_PREFIX || memcmp(p, k->magic, 8))
		return bad_header(err, errlen, -EINVAL,
				  "offset 0: not a uprof %s file (no %.8s header)", k->what,
				  k->magic);
	memcpy(&r->major, p + 8, 2);
	memcpy(&r->minor, p + 10, 2);
	memcpy(&r->header_size, p + 12, 4);
	if (r->major > k->major)
		return bad_header(err, errlen, -EPROTO,
				  "offset 8: %s file format %u.%u is newer than this uprof reads "
				  "(%u.x): read it with a newer uprof",
				  k->what, r->major, r->minor, k->major);
	if (r->major != k->major && (!k->legacy_major || r->major != k->legacy_major))
		return bad_header(
			err, errlen, -EPROTO,
			"offset 8: %s file format %u.%u is not one this uprof reads (%u.x)",
			k->what, r->major, r->minor, k->major);
	if (r->header_size < k->min_header || r->header_size > SES_CT_MAX_HEADER)
		return bad_header(err, errlen, -EINVAL,
				  "offset 12: a %s header of %u bytes (%u to %u expected)", k->what,
				  r->header_size, k->min_header, SES_CT_MAX_HEADER);
	if (r->header_size > len)
		return bad_header(err, errlen, -EINVAL,
				  "offset 12: a %s header of %u bytes in a file of %zu", k->what,
				  r->header_size, len);
	r->kind = k;
	r->buf = p;
	r->len = len;
	r->pos = r->header_size;
	r->legacy = r->major != k->major;
	return 0;
}

void ses_ct_damage(struct ses_ct_reader *r, size_t offset, const char *why)
{
	r->damaged_at = offset;
	r->damage = why;
	r->pos = r->len;
}

static int stop(struct ses_ct_reader *r, const char *why)
{
	ses_ct_damage(r, r->pos, why);
	return 0;
}

int ses_ct_next(struct ses_ct_reader *r, struct ses_ct_record *rec)
{
	while (r->pos < r->len) {
		size_t left = r->len - r->pos, step;
		uint32_t type, n;

		if (left < SES_CT_RECORD_HEADER)
			return stop(r, "entry header cut short");
		memcpy(&type, r->buf + r->pos, 4);
		memcpy(&n, r->buf + r->pos + 4, 4);
		if (r->legacy) { /* n: the whole entry, a multiple of 8 */
			if (n < SES_CT_RECORD_HEADER || n % 8)
				return stop(r, "impossible entry size");
			if (n > left)
				return stop(r, "entry runs past the end of the file");
			step = n;
			n -= SES_CT_RECORD_HEADER;
		} else {
			if (n > left - SES_CT_RECORD_HEADER)
				return stop(r, "entry runs past the end of the file");
			step = SES_CT_RECORD_HEADER + (size_t)n;
		}
		*rec = (struct ses_ct_record){
			.type = type,
			.len = n,
			.value = r->buf + r->pos + SES_CT_RECORD_HEADER,
			.offset = r->pos,
		};
		r->pos += step;
		if (type >= 64 || !(r->kind->known & (1ULL << type))) {
			r->unknown++; /* a newer writer's record */
			continue;
		}
		r->records++;
		return 1;
	}
	return 0;
}

/* ---- writing ---- */

size_t ses_ct_put_header(void *buf, size_t cap, const char *magic, uint16_t major, uint16_t minor,
			 const void *fields, size_t nfields)
{
	unsigned char *p = buf;
	uint32_t size = (uint32_t)(SES_CT_PREFIX + nfields);

	if (nfields > SES_CT_MAX_HEADER - SES_CT_PREFIX || cap < size)
		return 0;
	memcpy(p, magic, 8);
	memcpy(p + 8, &major, 2);
	memcpy(p + 10, &minor, 2);
	memcpy(p + 12, &size, 4);
	if (nfields)
		memcpy(p + SES_CT_PREFIX, fields, nfields);
	return size;
}

static void put_record_header(unsigned char *p, uint32_t type, uint32_t len)
{
	memcpy(p, &type, 4);
	memcpy(p + 4, &len, 4);
}

size_t ses_ct_put_record(void *buf, size_t cap, uint32_t type, const void *v, size_t len,
			 const void *tail, size_t tail_len)
{
	unsigned char *p = buf;
	size_t n = len + tail_len;

	if (n > UINT32_MAX - SES_CT_RECORD_HEADER || cap < SES_CT_RECORD_HEADER + n)
		return 0;
	put_record_header(p, type, (uint32_t)n);
	if (len)
		memcpy(p + SES_CT_RECORD_HEADER, v, len);
	if (tail_len)
		memcpy(p + SES_CT_RECORD_HEADER + len, tail, tail_len);
	return SES_CT_RECORD_HEADER + n;
}

struct ses_ct_writer {
	int fd;
	int err; /* the first error, sticky */
	size_t used, cap;
	unsigned char *buf;
};

struct ses_ct_writer *ses_ct_writer_new(int fd, size_t bufsize, const char *magic, uint16_t major,
					uint16_t minor, const void *fields, size_t nfields)
{
	struct ses_ct_writer *w = calloc(1, sizeof(*w));

	if (w && bufsize < SES_CT_PREFIX + nfields)
		bufsize = SES_CT_PREFIX + nfields;
	if (w)
		w->buf = malloc(bufsize);
	if (!w || !w->buf) {
		if (w)
			free(w);
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	w->fd = fd;
	w->cap = bufsize;
	w->used = ses_ct_put_header(w->buf, w->cap, magic, major, minor, fields, nfields);
	if (!w->used) {
		free(w->buf);
		free(w);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	return w;
}

int ses_ct_writer_flush(struct ses_ct_writer *w)
{
	for (size_t done = 0; !w->err && done < w->used;) {
		ssize_t n = write(w->fd, w->buf + done, w->used - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->err = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	w->used = 0;
	return w->err;
}

void *ses_ct_writer_reserve(struct ses_ct_writer *w, uint32_t type, size_t len)
{
	unsigned char *p;

	if (!w->err && len > w->cap - SES_CT_RECORD_HEADER)
		w->err = -E2BIG;
	if (!w->err && w->used + SES_CT_RECORD_HEADER + len > w->cap)
		ses_ct_writer_flush(w);
	if (w->err)
		return NULL;
	p = w->buf + w->used;
	put_record_header(p, type, (uint32_t)len);
	w->used += SES_CT_RECORD_HEADER + len;
	return p + SES_CT_RECORD_HEADER;
}

int ses_ct_writer_add(struct ses_ct_writer *w, uint32_t type, const void *v, size_t len,
		      const void *tail, size_t tail_len)
{
	unsigned char *p = ses_ct_writer_reserve(w, type, len + tail_len);

	if (!p)
		return w->err;
	if (len)
		memcpy(p, v, len);
	if (tail_len)
		memcpy(p + len, tail, tail_len);
	return 0;
}

int ses_ct_writer_close(struct ses_ct_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = ses_ct_writer_flush(w);
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w->buf);
	free(w);
	return ret;
}

const char *ses_ct_string(const struct ses_ct_record *rec, uint32_t max, uint32_t *id,
			  const unsigned char **s, uint32_t *slen)
{
	if (rec->len < 8)
		return "string entry too short";
	memcpy(id, rec->value, 4);
	memcpy(slen, rec->value + 4, 4);
	if (*slen > rec->len - 8 || *slen > max)
		return "string longer than its entry";
	*s = rec->value + 8;
	return NULL;
}
