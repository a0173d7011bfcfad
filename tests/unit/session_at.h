/* SPDX-License-Identifier: MIT */
/* The session writers take the fd of the session directory (docs/DESIGN.md §4, the
 * directory-fd rule); tests that build a session in a scratch path name it by path. Each
 * helper opens the directory, calls the writer with its fd and closes it: the writer
 * keeps its own fd of the file it made. */
#ifndef UPROF_TEST_SESSION_AT_H
#define UPROF_TEST_SESSION_AT_H

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "session/leafstack.h"
#include "session/openmp.h"
#include "session/session.h"

static inline int test_dir_open(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	assert_true(fd >= 0);
	return fd;
}

static inline int test_info_write(const char *dir, const struct ses_info *info)
{
	int fd = test_dir_open(dir), ret = ses_info_write(fd, info);

	close(fd);
	return ret;
}

static inline int test_pauses_write(const char *dir, const struct ses_pause *p, size_t n)
{
	int fd = test_dir_open(dir), ret = ses_pauses_write(fd, p, n);

	close(fd);
	return ret;
}

/* The writers open one file each: NULL with errno kept, as the writer left it. */
static inline struct ses_writer *test_writer_open(const char *dir)
{
	int fd = test_dir_open(dir), e;
	struct ses_writer *w = ses_writer_open(fd);

	e = errno;
	close(fd);
	errno = e;
	return w;
}

static inline struct ses_tasks_writer *test_tasks_writer_open(const char *dir, int pid)
{
	int fd = test_dir_open(dir), e;
	struct ses_tasks_writer *w = ses_tasks_writer_open(fd, pid);

	e = errno;
	close(fd);
	errno = e;
	return w;
}

static inline struct ses_ompt_writer *test_ompt_writer_open(const char *dir, int pid,
							     uint16_t impl, uint16_t scope)
{
	int fd = test_dir_open(dir), e;
	struct ses_ompt_writer *w = ses_ompt_writer_open(fd, pid, impl, scope);

	e = errno;
	close(fd);
	errno = e;
	return w;
}

static inline struct ses_leaf_writer *test_leaf_writer_open(const char *dir, uint64_t mask,
							     uint32_t bytes)
{
	int fd = test_dir_open(dir), e;
	struct ses_leaf_writer *w = ses_leaf_writer_open(fd, mask, bytes);

	e = errno;
	close(fd);
	errno = e;
	return w;
}

#endif
