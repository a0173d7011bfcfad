// SPDX-License-Identifier: MIT
/*
 * Opening a session's files for reading (docs/DESIGN.md §4): the one place every reader of
 * session.ini, samples.data, pauses.csv, instrument/ and job.ini goes through. The files
 * are untrusted, and so is their type: a FIFO in place of samples.data would block open()
 * and read() forever, /dev/zero would feed zeros without end, a directory fails late and
 * obscurely. So the file is opened O_NONBLOCK (a FIFO without a writer opens at once and
 * reads nothing) and O_NOCTTY, then fstat on the fd itself (no window between the check
 * and the use) must say regular file; anything else is refused with a message naming
 * what it is.
 */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ses_file_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFIFO:
		return "a FIFO";
	case S_IFDIR:
		return "a directory";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	default:
		return "not a file";
	}
}

/* What is at @name beneath @dfd, unfollowed: for saying what a socket is (its open()
 * fails with ENXIO). */
static int kind_at(int dfd, const char *name, struct stat *sb)
{
	int fd, ret;

	if (dfd == AT_FDCWD)
		return stat(name, sb) ? -errno : 0;
	fd = util_at_open(dfd, name, O_PATH, 0);
	if (fd < 0)
		return fd;
	ret = fstat(fd, sb) ? -errno : 0;
	close(fd);
	return ret;
}

int ses_file_open_read_at(int dfd, const char *name, uint64_t *size, char *err, size_t errlen)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY;
	struct stat sb;
	int fd, ret;

	/* AT_FDCWD: a file the user named, as named; else beneath the session's fd, no
	 * symlink followed on any component (util_at_open) */
	fd = dfd == AT_FDCWD ? open(name, flags | O_CLOEXEC) : util_at_open(dfd, name, flags, 0);
	if (fd < 0) {
		ret = dfd == AT_FDCWD ? -errno : fd;
		/* open() of a socket fails with ENXIO: say what is there instead */
		if (ret == -ENXIO && !kind_at(dfd, name, &sb) && !S_ISREG(sb.st_mode)) {
			ses_errf(err, errlen, "is %s, not a regular file",
				 ses_file_kind(sb.st_mode));
			return -SES_ENOTREG;
		}
		if (ret == -ELOOP && dfd != AT_FDCWD)
			/* another user's session must not send root's read elsewhere */
			ses_errf(err, errlen,
				 "is a symbolic link, not followed in a session "
				 "directory");
		else if (ret == -EXDEV && dfd != AT_FDCWD)
			ses_errf(err, errlen, "leads out of the session directory, not followed");
		else
			ses_errf(err, errlen, "cannot open: %s", strerror(-ret));
		return ret;
	}
	if (fstat(fd, &sb)) {
		ret = -errno;
		ses_errf(err, errlen, "cannot stat: %s", strerror(-ret));
		close(fd);
		return ret;
	}
	if (!S_ISREG(sb.st_mode)) {
		ses_errf(err, errlen, "is %s, not a regular file", ses_file_kind(sb.st_mode));
		close(fd);
		return -SES_ENOTREG;
	}
	if (size)
		*size = (uint64_t)sb.st_size;
	return fd;
}

int ses_file_open_read(const char *path, uint64_t *size, char *err, size_t errlen)
{
	return ses_file_open_read_at(AT_FDCWD, path, size, err, errlen);
}

int ses_file_read_all_at(int dfd, const char *name, size_t max, char **buf, size_t *len, char *err,
			 size_t errlen)
{
	uint64_t size;
	size_t got = 0;
	char *b = NULL;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	fd = ses_file_open_read_at(dfd, name, &size, err, errlen);
	if (fd < 0)
		return fd;
	if (size > max) {
		ses_errf(err, errlen, "is %llu bytes, more than the %zu this file can be",
			 (unsigned long long)size, max);
		ret = -EFBIG;
		goto out;
	}
	b = malloc((size_t)size + 1);
	if (!b) {
		ret = -ENOMEM;
		goto out;
	}
	/* a regular file: read() blocks on nothing; it may have shrunk since fstat */
	while (got < size) {
		ssize_t n = read(fd, b + got, (size_t)size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			ses_errf(err, errlen, "cannot read: %s", strerror(-ret));
			goto out;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	b[got] = 0;
	*buf = b;
	*len = got;
	b = NULL;
out:
	free(b);
	close(fd);
	return ret;
}

int ses_file_read_all(const char *path, size_t max, char **buf, size_t *len, char *err,
		      size_t errlen)
{
	return ses_file_read_all_at(AT_FDCWD, path, max, buf, len, err, errlen);
}

int ses_file_map_at(int dfd, const char *name, const void **map, size_t *len, char *err,
		    size_t errlen)
{
	uint64_t size;
	void *m;
	int fd, ret = 0;

	*map = NULL;
	*len = 0;
	fd = ses_file_open_read_at(dfd, name, &size, err, errlen);
	if (fd < 0)
		return fd;
	if (size > SIZE_MAX / 2) {
		ses_errf(err, errlen, "is %llu bytes, too large to map", (unsigned long long)size);
		ret = -EFBIG;
		goto out;
	}
	if (!size) /* an empty file maps to nothing: mmap of 0 bytes is EINVAL */
		goto out;
	m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		ret = -errno;
		ses_errf(err, errlen, "cannot map: %s", strerror(-ret));
		goto out;
	}
	*map = m;
	*len = (size_t)size;
out:
	close(fd);
	return ret;
}

int ses_file_map(const char *path, const void **map, size_t *len, char *err, size_t errlen)
{
	return ses_file_map_at(AT_FDCWD, path, map, len, err, errlen);
}

/* Pages of a mapping behind what a reader still needs are handed back, so a large
 * samples.data or leafstack.data does not stay resident (samples.data was 46 of report's
 * 89 MB peak on a 46 MB make -j2 dwarf session). The mapping is private and never
 * written, so a page touched again is read back from the file, the same bytes: this
 * only changes what stays in memory. */
#define HAND_BACK_KEEP (1u << 20) /* before @to, kept */
#define HAND_BACK_STEP (2u << 20) /* handed back in pieces of at least this */

size_t ses_file_hand_back(const void *map, size_t map_len, size_t from, size_t to)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	if (!map || to > map_len || to < HAND_BACK_KEEP ||
	    (to - HAND_BACK_KEEP) < from + HAND_BACK_STEP)
		return from;
	to = (to - HAND_BACK_KEEP) & ~(page - 1);
	from &= ~(page - 1);
	if (madvise((unsigned char *)map + from, to - from, MADV_DONTNEED))
		return from;
	return to;
}

void ses_file_unmap(const void *map, size_t len)
{
	if (map && len)
		munmap((void *)map, len);
}
