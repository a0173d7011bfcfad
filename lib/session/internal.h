/* SPDX-License-Identifier: MIT */
/* lib/session internals shared by its files and unit tests. */
#ifndef UPROF_SESSION_INTERNAL_H
#define UPROF_SESSION_INTERNAL_H

#include "session/session.h"

#include <stdint.h>
#include <string.h>

/* perf's pipe header: magic then the header size (16 in pipe mode). */
#define SES_PIPE_MAGIC "PERFILE2"
#define SES_PIPE_HDR_SIZE 16

/* Largest attr we accept in a HEADER_ATTR record (kernel's is ~136 bytes today). */
#define SES_ATTR_MAX 512

/* write(2) all @len bytes of @p to @fd, again after EINTR and short writes: 0 or -errno.
 * (dir.c; the one loop every writer of a session file uses.) */
int ses_write_full(int fd, const void *p, size_t len);

struct ses_ct_writer;
/* A side-file writer (container.h) on @dir/@name beneath the session's @dfd: @dir is made
 * (0700) when missing, NULL for none; the file is created 0600 with @oflags (O_TRUNC or
 * O_EXCL) and its header written from @magic to @fields. NULL with errno set. (dir.c: the
 * one place the tasks, ompt and leafstack writers open their files.) */
struct ses_ct_writer *ses_side_writer_create(int dfd, const char *dir, const char *name,
					     int oflags, size_t bufsize, const char *magic,
					     uint16_t major, uint16_t minor, const void *fields,
					     size_t nfields);
/* The tail of every side-file writer's open: @ct (ses_side_writer_create()'s result) goes
 * into @slot, the writer @w's own pointer, and @w is returned; when @ct is NULL, @w is freed
 * and NULL returned with the creator's errno kept. (dir.c; one home for that unwind.) */
void *ses_side_writer_adopt(void *w, struct ses_ct_writer **slot, struct ses_ct_writer *ct);
/* Their close: @ct closed (its last bytes written: 0 or its sticky -errno), @w freed. */
int ses_side_writer_release(void *w, struct ses_ct_writer *ct);

/* Unaligned native-endian loads from a file's bytes (one home for every lib/session
 * decoder; memcpy, so a record at any offset of a mapping is read safely). */
static inline uint64_t ses_get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t ses_get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

void ses_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
