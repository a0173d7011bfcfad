// SPDX-License-Identifier: MIT
/*
 * samples.data writer: perf.data pipe mode. The pipe header is 16 bytes (magic + size);
 * everything after it is a record stream, so a file cut anywhere is readable up to the
 * last whole record. We buffer in user space and flush on every poll round, so a
 * SIGKILLed profiler loses at most one round.
 *
 * A full disk must not cost the rest of the session: without session.ini's end state
 * and pauses.csv, report would count paused samples. So the writer holds some space in
 * reserve (an unlinked file, nothing stays behind) and gives it back at the first write
 * error, for the files collect writes after it.
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

#define WRITER_BUF (256 * 1024)
#define WRITER_RESERVE (64 * 1024)

struct ses_writer {
	int fd;
	int reserve_fd; /* unlinked file holding WRITER_RESERVE bytes of the disk, or -1 */
	int err;	/* first write error, sticky */
	size_t used;
	uint64_t bytes;
	unsigned char buf[WRITER_BUF];
};

static void release_reserve(struct ses_writer *w)
{
	if (w->reserve_fd >= 0)
		close(w->reserve_fd);
	w->reserve_fd = -1;
}

/* Best effort: without it, a full disk may also cost session.ini's final state. A file
 * with no name (O_TMPFILE) where the file system has them, else a name removed at once. */
static void take_reserve(struct ses_writer *w, int dfd)
{
	char name[32];

	w->reserve_fd = util_at_open(dfd, ".", O_TMPFILE | O_WRONLY, SES_FILE_MODE);
	if (w->reserve_fd < 0) {
		snprintf(name, sizeof(name), ".reserve.%d", (int)getpid());
		w->reserve_fd = util_at_create(dfd, name, O_WRONLY | O_EXCL, SES_FILE_MODE);
		if (w->reserve_fd < 0)
			return;
		util_at_unlink(dfd, name, 0);
	}
	if (posix_fallocate(w->reserve_fd, 0, WRITER_RESERVE))
		release_reserve(w);
}

int ses_writer_flush(struct ses_writer *w)
{
	if (!w->err && w->used)
		w->err = ses_write_full(w->fd, w->buf, w->used);
	w->used = 0;
	if (w->err)
		release_reserve(w);
	return w->err;
}

int ses_writer_write(struct ses_writer *w, const void *records, size_t len)
{
	if (w->err)
		return w->err;
	w->bytes += len;
	if (w->used + len > sizeof(w->buf)) {
		if (ses_writer_flush(w))
			return w->err;
		if (len > sizeof(w->buf)) {
			w->err = ses_write_full(w->fd, records, len);
			if (w->err)
				release_reserve(w);
			return w->err;
		}
	}
	memcpy(w->buf + w->used, records, len);
	w->used += len;
	return 0;
}

struct ses_writer *ses_writer_open(int dfd)
{
	static const struct {
		char magic[8];
		uint64_t size;
	} hdr = { SES_PIPE_MAGIC, SES_PIPE_HDR_SIZE };
	struct ses_writer *w;

	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	/* a new file: O_EXCL, whatever is found at the name is not ours to write */
	w->fd = util_at_create(dfd, SES_DATA_FILE, O_WRONLY | O_EXCL, SES_FILE_MODE); /* dir.c */
	if (w->fd < 0) {
		int e = -w->fd;

		free(w);
		errno = e;
		return NULL;
	}
	take_reserve(w, dfd);
	ses_writer_write(w, &hdr, sizeof(hdr));
	return w;
}

/* Room for @n bytes at the end of the buffer (flushing first if needed), for an encoder
 * to write in place; NULL after a write error. */
static unsigned char *room(struct ses_writer *w, size_t n)
{
	if (w->err || n > sizeof(w->buf))
		return NULL;
	if (w->used + n > sizeof(w->buf) && ses_writer_flush(w))
		return NULL;
	return w->buf + w->used;
}

/* Take the record an encoder wrote at room()'s pointer; @len is the encoder's result. */
static int commit(struct ses_writer *w, int len)
{
	if (len < 0)
		return len;
	w->used += (size_t)len;
	w->bytes += (uint64_t)len;
	return 0;
}

int ses_writer_add_attr(struct ses_writer *w, const struct perf_event_attr *attr,
			const uint64_t *ids, size_t nids)
{
	size_t need = 8 + (attr->size ? attr->size : sizeof(*attr)) + nids * sizeof(uint64_t);
	unsigned char *p;

	if (need > UINT16_MAX)
		return -E2BIG;
	p = room(w, need);
	if (!p)
		return w->err ? w->err : -E2BIG;
	return commit(w, ses_encode_attr(p, need, attr, ids, nids));
}

int ses_writer_finished_round(struct ses_writer *w)
{
	unsigned char *p = room(w, sizeof(struct perf_event_header));

	if (!p)
		return w->err;
	return commit(w, ses_encode_finished_round(p, sizeof(struct perf_event_header)));
}

uint64_t ses_writer_bytes(const struct ses_writer *w)
{
	return w->bytes;
}

int ses_writer_close(struct ses_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = ses_writer_flush(w);
	if (close(w->fd) && !ret)
		ret = -errno;
	release_reserve(w);
	free(w);
	return ret;
}
