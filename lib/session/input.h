/* SPDX-License-Identifier: MIT */
/*
 * lib/session: reading a session's files (input.c), included by session/session.h (the
 * module's public header; include that one).
 */
#ifndef UPROF_SESSION_INPUT_H
#define UPROF_SESSION_INPUT_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Reading a session's files (input.c): every reader of a file in a session directory
 * opens it here. Opened O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, so a FIFO or device
 * in its place cannot hang the reader, then checked with fstat on the fd: anything but a
 * regular file is refused with -SES_ENOTREG and "is a FIFO, not a regular file" (or a
 * directory, a character device, a socket...) in @err. @err never names @path: the
 * caller does, with what the user can do about it.
 */
#define SES_ENOTREG EMEDIUMTYPE /* "the wrong type of file": only ever returned, negated */
/* The fd of regular file @path (the caller closes it), its size in *@size (may be NULL);
 * or -errno: -ENOENT when there is none, -SES_ENOTREG when it is not a regular file. */
int ses_file_open_read(const char *path, uint64_t *size, char *err, size_t errlen);
/* All of regular file @path, at most @max bytes (-EFBIG past it), in *@buf (malloc'ed,
 * NUL-terminated after *@len bytes; free() it). 0 or -errno; nothing to free on failure. */
int ses_file_read_all(const char *path, size_t max, char **buf, size_t *len, char *err,
		      size_t errlen);
/* Regular file @path mapped read-only into *@map, *@len bytes (an empty file: NULL, 0).
 * 0 or -errno. Undo with ses_file_unmap(). */
int ses_file_map(const char *path, const void **map, size_t *len, char *err, size_t errlen);
/* The same for @name beneath the directory fd @dfd (docs/DESIGN.md §4): no symlink
 * followed on any component (-ELOOP, said in @err), nothing outside @dfd (-EXDEV). @dfd
 * AT_FDCWD: @name is a path the user gave, opened as named (the three above). */
int ses_file_open_read_at(int dfd, const char *name, uint64_t *size, char *err, size_t errlen);
int ses_file_read_all_at(int dfd, const char *name, size_t max, char **buf, size_t *len, char *err,
			 size_t errlen);
int ses_file_map_at(int dfd, const char *name, const void **map, size_t *len, char *err,
		    size_t errlen);

/*
 * The bytes [@from, @to) of a mapping from ses_file_map() are no longer needed (less a few
 * MiB before @to): its pages there go back to the kernel, in pieces of several MiB; they
 * stay readable (read back from the file when touched). Returns where the next call
 * should start: the end of what was handed back, or @from when nothing was (also for a
 * NULL @map).
 */
size_t ses_file_hand_back(const void *map, size_t map_len, size_t from, size_t to);
void ses_file_unmap(const void *map, size_t len); /* NULL, 0 is fine */
/* "a FIFO", "a directory", ... for a st_mode. */
const char *ses_file_kind(unsigned int mode);

#endif
