// SPDX-License-Identifier: MIT
/*
 * Files under a directory held open (util.h, docs/DESIGN.md §4, the directory-fd rule).
 *
 * uprof often runs as root with its output in a directory another user can write. Between
 * two of our calls that user may rename any entry there and put a symlink in its place;
 * a path name resolved again at each call would then take root's write, chmod or unlink
 * wherever the symlink points. So a directory is opened once, and every name under it is
 * resolved relative to that fd, beneath it, with no symlink followed on any component:
 * openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), or where the kernel has no openat2 a walk
 * of one component at a time with O_NOFOLLOW. A directory we make is opened right after
 * mkdirat and checked to be a directory of ours before anything is put in it; its mode is
 * set with fchmod on that fd (a chmod by name could be sent through a swapped symlink).
 */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int keep_errno_close(int fd, int ret)
{
	int e = errno;

	if (fd >= 0)
		close(fd);
	errno = e;
	return ret;
}

/* Each component of @rel opened in turn with O_NOFOLLOW: the fallback of kernels before
 * 5.6. ".." and absolute names are refused, so nothing leaves @dfd. */
static int walk_open(int dfd, const char *rel, int flags, mode_t mode)
{
	char buf[PATH_MAX];
	char *comp = buf, *slash;
	int cur = dfd;

	if (strlen(rel) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, rel);
	while ((slash = strchr(comp, '/'))) {
		int next;

		*slash = 0;
		if (!strcmp(comp, ".."))
			return keep_errno_close(cur == dfd ? -1 : cur, -EXDEV);
		if (*comp && strcmp(comp, ".")) {
			next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (next < 0) {
				int ret = errno == ELOOP ? -ELOOP : -errno;

				return keep_errno_close(cur == dfd ? -1 : cur, ret);
			}
			if (cur != dfd)
				close(cur);
			cur = next;
		}
		comp = slash + 1;
	}
	if (!strcmp(comp, ".."))
		return keep_errno_close(cur == dfd ? -1 : cur, -EXDEV);
	{
		int fd = openat(cur, *comp ? comp : ".", flags | O_NOFOLLOW | O_CLOEXEC, mode);
		int ret = fd < 0 ? -errno : fd;

		if (cur != dfd)
			close(cur);
		return ret;
	}
}

int util_at_open(int dfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	static int no_openat2;
	long fd;

	if (dfd < 0 || !rel || !*rel || rel[0] == '/')
		return -EINVAL;
	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		fd = syscall(SYS_openat2, dfd, rel, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		if (errno != ENOSYS && errno != EPERM) /* EPERM: a seccomp filter refusing it */
			return -errno;
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
	}
	return walk_open(dfd, rel, flags, mode);
}

int util_dir_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int util_dir_open_nofollow(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int util_at_dir(int dfd, const char *rel)
{
	int fd = util_at_open(dfd, rel, O_RDONLY | O_DIRECTORY, 0);
	struct stat sb;

	/* O_DIRECTORY on a symlink says ENOTDIR: said as the link it is, as for a file */
	if (fd == -ENOTDIR && !fstatat(dfd, rel, &sb, AT_SYMLINK_NOFOLLOW) && S_ISLNK(sb.st_mode))
		fd = -ELOOP;
	return fd;
}

/* The directory holding the last component of @rel, opened beneath @dfd (@dfd itself,
 * not to be closed, when @rel has one component), and that component in @base. */
static int parent_of(int dfd, const char *rel, char *base, size_t baselen, int *pfd)
{
	const char *slash = strrchr(rel, '/');
	char dir[PATH_MAX];
	size_t dlen;

	if (!rel || !*rel || rel[0] == '/')
		return -EINVAL;
	if (strlen(slash ? slash + 1 : rel) >= baselen)
		return -ENAMETOOLONG;
	strcpy(base, slash ? slash + 1 : rel);
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -EINVAL;
	if (!slash) {
		*pfd = dfd;
		return 0;
	}
	dlen = (size_t)(slash - rel);
	if (dlen >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, rel, dlen);
	dir[dlen] = 0;
	*pfd = util_at_open(dfd, dir, O_PATH | O_DIRECTORY, 0);
	return *pfd < 0 ? *pfd : 0;
}

static void put_parent(int dfd, int pfd)
{
	if (pfd >= 0 && pfd != dfd)
		close(pfd);
}

int util_at_create(int dfd, const char *rel, int flags, mode_t mode)
{
	int fd = util_at_open(dfd, rel, (flags | O_CREAT) & ~O_TRUNC, mode);
	struct stat sb;

	if (fd < 0)
		return fd;
	/* O_CREAT without O_EXCL may have opened a file that was there: only a plain file of
	 * ours with no other name is written (and truncated) — never another user's, which
	 * root would otherwise rewrite and chmod, nor one hard-linked from elsewhere */
	if (fstat(fd, &sb))
		return keep_errno_close(fd, -errno);
	if (!S_ISREG(sb.st_mode))
		return keep_errno_close(fd, -EINVAL);
	if (sb.st_uid != geteuid())
		return keep_errno_close(fd, -EPERM);
	if (sb.st_nlink > 1)
		return keep_errno_close(fd, -EMLINK);
	if ((flags & O_TRUNC) && ftruncate(fd, 0))
		return keep_errno_close(fd, -errno);
	/* the umask may have lowered @mode, and an existing file had its own: the mode is
	 * ours to say either way */
	if (fchmod(fd, mode))
		return keep_errno_close(fd, -errno);
	return fd;
}

int util_at_mkdir(int dfd, const char *rel, mode_t mode, bool may_exist)
{
	char base[NAME_MAX + 1];
	struct stat sb;
	int pfd, fd, ret;

	ret = parent_of(dfd, rel, base, sizeof(base), &pfd);
	if (ret)
		return ret;
	if (mkdirat(pfd, base, mode) && (errno != EEXIST || !may_exist)) {
		ret = -errno;
		put_parent(dfd, pfd);
		return ret;
	}
	fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	ret = fd < 0 ? -errno : 0;
	put_parent(dfd, pfd);
	if (ret)
		return ret; /* replaced by a symlink (ELOOP/ENOTDIR) or removed: refused */
	/* what we opened is the directory we made only if it is ours; one another user put
	 * in its place between mkdirat and openat is not written into */
	if (fstat(fd, &sb))
		return keep_errno_close(fd, -errno);
	if (sb.st_uid != geteuid()) {
		close(fd);
		return -EPERM;
	}
	if ((sb.st_mode & 07777) != mode && fchmod(fd, mode))
		return keep_errno_close(fd, -errno);
	return fd;
}

FILE *util_at_fopen(int dfd, const char *rel, const char *how, mode_t mode)
{
	int flags, fd;
	FILE *f;

	if (!strcmp(how, "r"))
		flags = O_RDONLY | O_NONBLOCK;
	else if (!strcmp(how, "w"))
		flags = O_WRONLY | O_CREAT | O_TRUNC;
	else if (!strcmp(how, "wx"))
		flags = O_WRONLY | O_CREAT | O_EXCL;
	else if (!strcmp(how, "a"))
		flags = O_WRONLY | O_CREAT | O_APPEND;
	else {
		errno = EINVAL;
		return NULL;
	}
	fd = flags & O_CREAT ? util_at_create(dfd, rel, flags & ~O_CREAT, mode)
			     : util_at_open(dfd, rel, flags, 0);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (flags & O_NONBLOCK) {
		struct stat sb;

		/* a reader never waits on a FIFO or a device another user put there */
		if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
			int e = fstat(fd, &sb) ? errno : EINVAL;

			close(fd);
			errno = e;
			return NULL;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	}
	f = fdopen(fd, how[0] == 'r' ? "r" : how[0] == 'a' ? "a" : "w");
	if (!f)
		keep_errno_close(fd, 0);
	return f;
}

int util_at_unlink(int dfd, const char *rel, int flags)
{
	char base[NAME_MAX + 1];
	int pfd, ret = parent_of(dfd, rel, base, sizeof(base), &pfd);

	if (ret)
		return ret;
	ret = unlinkat(pfd, base, flags) ? -errno : 0;
	put_parent(dfd, pfd);
	return ret;
}

int util_at_rename(int dfd, const char *from, const char *to)
{
	char fbase[NAME_MAX + 1], tbase[NAME_MAX + 1];
	int ffd, tfd, ret;

	ret = parent_of(dfd, from, fbase, sizeof(fbase), &ffd);
	if (ret)
		return ret;
	ret = parent_of(dfd, to, tbase, sizeof(tbase), &tfd);
	if (ret) {
		put_parent(dfd, ffd);
		return ret;
	}
	/* renameat replaces a symlink at @to, never what it points to */
	ret = renameat(ffd, fbase, tfd, tbase) ? -errno : 0;
	put_parent(dfd, ffd);
	put_parent(dfd, tfd);
	return ret;
}

int util_at_replace_open(int dfd, const char *rel, mode_t mode, char *tmp, size_t tmplen)
{
	for (int tries = 0; tries < 16; tries++) {
		int len = snprintf(tmp, tmplen, "%s.tmp.%d.%d", rel, (int)getpid(), tries);
		int fd;

		if (len < 0 || (size_t)len >= tmplen)
			return -ENAMETOOLONG;
		/* O_EXCL: a name another user planted is never opened, whatever it is */
		fd = util_at_create(dfd, tmp, O_WRONLY | O_EXCL, mode);
		if (fd != -EEXIST)
			return fd;
	}
	return -EEXIST;
}

int util_at_replace_commit(int dfd, const char *tmp, const char *rel, int fd, bool sync)
{
	int ret = 0;

	if (sync && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret)
		ret = util_at_rename(dfd, tmp, rel);
	if (ret)
		util_at_unlink(dfd, tmp, 0);
	return ret;
}

int util_fd_read_all(int fd, size_t max, char **out, size_t *outlen)
{
	struct stat sb;
	char *buf;
	size_t len = 0;

	*out = NULL;
	*outlen = 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb))
		return keep_errno_close(fd, -errno);
	if (!S_ISREG(sb.st_mode))
		return keep_errno_close(fd, -EINVAL);
	if ((uint64_t)sb.st_size > max)
		return keep_errno_close(fd, -EFBIG);
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf)
		return keep_errno_close(fd, -ENOMEM);
	/* up to the size seen: a file still growing is read as it was */
	while (len < (size_t)sb.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)sb.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return keep_errno_close(fd, -errno);
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = 0;
	*out = buf;
	*outlen = len;
	return 0;
}

int util_at_read_all(int dfd, const char *rel, size_t max, char **out, size_t *outlen)
{
	return util_fd_read_all(util_at_open(dfd, rel, O_RDONLY | O_NONBLOCK, 0), max, out,
				outlen);
}

bool util_dir_others_can_write(int dfd)
{
	struct stat sb;

	if (fstat(dfd, &sb))
		return false;
	/* group or world write, unless the group is only the owner's own; sticky /tmp is
	 * still a directory where others make names (and squat ours) */
	return (sb.st_mode & S_IWOTH) || ((sb.st_mode & S_IWGRP) && sb.st_gid != getegid()) ||
	       (sb.st_uid != geteuid() && sb.st_uid != 0);
}

FILE *util_fdopen(int fd, const char *mode)
{
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

FILE *util_at_replace_fopen(int dfd, const char *rel, mode_t mode, char *tmp, size_t tmplen)
{
	int fd = util_at_replace_open(dfd, rel, mode, tmp, tmplen);
	FILE *f = util_fdopen(fd, "w");

	if (!f && fd >= 0) {
		int e = errno;

		util_at_unlink(dfd, tmp, 0);
		errno = e;
	}
	return f;
}

int util_at_replace_fcommit(int dfd, const char *tmp, const char *rel, FILE *f, int ret)
{
	/* fclose flushes: a full disk shows here, and the file is then not put in place */
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret)
		ret = util_at_rename(dfd, tmp, rel);
	if (ret)
		util_at_unlink(dfd, tmp, 0);
	return ret;
}
