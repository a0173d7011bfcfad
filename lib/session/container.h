/* SPDX-License-Identifier: MIT */
/*
 * The one container of the session directory's side files (instrument/<pid>.tasks,
 * openmp/<pid>.ompt, mpi/<pid>.mpi, leafstack.data): its reader and its writer
 * (container.c, where the format is described). lib/mpi's interposer includes this header
 * alone and compiles container.c into itself: it needs only <stdbool.h>, <stddef.h> and
 * <stdint.h>, and container.c only libc. lib/session/session.h includes it for the rest.
 */
#ifndef UPROF_SESSION_CONTAINER_H
#define UPROF_SESSION_CONTAINER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_CT_PREFIX 16       /* magic[8], u16 major, u16 minor, u32 header_size */
#define SES_CT_RECORD_HEADER 8 /* u32 type, u32 length */
#define SES_CT_MAX_HEADER 4096 /* a header_size beyond this is refused */

/* What a reader knows of one kind of side file. */
struct ses_ct_kind {
	const char *magic; /* 8 bytes */
	const char *what;  /* "tasks", "OpenMP", "MPI", "leafstack": in messages */
	uint16_t major;	   /* the major this uprof writes */
	/* 0, or the major (older than @major) of the kind's first format, read by the legacy
	 * framing: each entry's u32 size counts its own 8-byte header, is a multiple of 8 */
	uint16_t legacy_major;
	uint32_t min_header; /* header bytes the kind's fields need (the prefix included) */
	uint64_t known;	     /* bit t set: record type t (< 64) is one this uprof reads */
};

/* A reader over @len bytes at @buf (borrowed). Fields are read-only to callers. */
struct ses_ct_reader {
	const struct ses_ct_kind *kind;
	const unsigned char *buf;
	size_t len, pos;
	uint16_t major, minor;
	uint32_t header_size;
	bool legacy;	     /* the kind's legacy framing */
	uint64_t records;    /* records handed out */
	uint64_t unknown;    /* records of types not in kind->known: skipped */
	uint64_t damaged_at; /* offset of the first record that could not be framed */
	const char *damage;  /* why (a static string), NULL when none */
};

struct ses_ct_record {
	uint32_t type;
	uint32_t len;		    /* value bytes (legacy: with the entry's padding) */
	const unsigned char *value; /* into the reader's buffer */
	size_t offset;		    /* of the record's header in the file */
};

/* Check the header of @len bytes at @buf (untrusted) against @k and set @r up after it.
 * -EINVAL with @err ("offset 0: not a uprof tasks file (no UPTASKS1 header)", a header too
 * short or cut), -EPROTO with @err for a major this uprof does not read (a newer one:
 * "... is newer than this uprof reads"). A newer minor is read. */
int ses_ct_open(struct ses_ct_reader *r, const struct ses_ct_kind *k, const void *buf, size_t len,
		char *err, size_t errlen);
/* The kind's header fields: header_size - SES_CT_PREFIX bytes after the prefix (at least
 * kind->min_header - SES_CT_PREFIX). */
static inline const unsigned char *ses_ct_fields(const struct ses_ct_reader *r)
{
	return r->buf + SES_CT_PREFIX;
}
/* The next record of a known type: 1 with *@rec set; 0 at the end of the file or at
 * damage (r->damage and r->damaged_at said). Never reads past @len. */
int ses_ct_next(struct ses_ct_reader *r, struct ses_ct_record *rec);
/* A string record's value (u32 id, u32 length, the bytes): its id, bytes and length into
 * @id, @s, @slen; NULL, or why it is malformed (shorter than 8, or a length past its value
 * or over @max). The one decoder of the tasks and ompt files' string tables. */
const char *ses_ct_string(const struct ses_ct_record *rec, uint32_t max, uint32_t *id,
			  const unsigned char **s, uint32_t *slen);
/* End the walk at the record at @offset: the caller found its value malformed. */
void ses_ct_damage(struct ses_ct_reader *r, size_t offset, const char *why);

/* ---- the writer ----
 * The encoders are async-signal-safe (memcpy only): lib/mpi encodes into a buffer it
 * allocated at MPI_Init and writes it from a signal handler. */

/* The prefix and @nfields bytes of the kind's fields at @buf: the bytes written
 * (SES_CT_PREFIX + @nfields, the header_size), 0 when @cap is too small. */
size_t ses_ct_put_header(void *buf, size_t cap, const char *magic, uint16_t major, uint16_t minor,
			 const void *fields, size_t nfields);
/* A record of type @type whose value is @len bytes at @v then @tail_len at @tail: the bytes
 * written, 0 when @cap is too small (nothing written). */
size_t ses_ct_put_record(void *buf, size_t cap, uint32_t type, const void *v, size_t len,
			 const void *tail, size_t tail_len);

/* A buffered writer to a file descriptor. */
struct ses_ct_writer;
/* Take over @fd (closed by ses_ct_writer_close, or here on failure), buffer @bufsize
 * bytes (a record's value can be up to @bufsize - 8) and put the header in the buffer.
 * NULL with errno set. */
struct ses_ct_writer *ses_ct_writer_new(int fd, size_t bufsize, const char *magic, uint16_t major,
					uint16_t minor, const void *fields, size_t nfields);
/* Room for a record of type @type with a value of @len bytes: the caller fills all @len
 * bytes at the pointer before the next call. NULL once an error was seen (-E2BIG for a
 * value larger than the buffer can hold: nothing more is written). */
void *ses_ct_writer_reserve(struct ses_ct_writer *w, uint32_t type, size_t len);
/* A record whose value is @len bytes at @v and @tail_len at @tail. 0 or the first error. */
int ses_ct_writer_add(struct ses_ct_writer *w, uint32_t type, const void *v, size_t len,
		      const void *tail, size_t tail_len);
int ses_ct_writer_flush(struct ses_ct_writer *w); /* 0 or the first error (sticky) */
int ses_ct_writer_close(struct ses_ct_writer *w); /* flush, close, free; NULL is fine */

#endif
