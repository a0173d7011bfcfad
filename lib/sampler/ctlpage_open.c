// SPDX-License-Identifier: MIT
/*
 * Finding a control page file and mapping it (ctlpage.c validates and reads it). Anyone
 * can make /dev/shm/uprof.<pid> for any pid, so a file is opened without following a
 * link or blocking, checked for what it is and whom it belongs to, and only then mapped
 * through the descriptor that was checked.
 */
#include "sampler/ctlpage_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Does the process @pid have @owner as one of its uids (real, effective, saved, fs)?
 * A process can act as any of them, so a page owned by one may be its own; a page owned
 * by a uid it has none of was made by someone else. */
static int owner_check(int pid, uint32_t owner, bool ours_if_gone, struct smp_page_why *why)
{
	uint32_t uids[4];
	int ret = smp_proc_uids(pid, uids);

	/* launch mode: a process of the run that ended before we found its page leaves it
	 * for us (lib/instrument's at_exit); with no process to ask, only a file of our own
	 * uid is taken (nobody else can make one), and the session token decides the rest */
	if (ret && ours_if_gone && owner == (uint32_t)geteuid())
		return 0;
	if (ret)
		return smp_page_refuse(why, SMP_PAGE_NO_PROCESS, -ESRCH);
	for (int i = 0; i < 4; i++)
		if (uids[i] == owner)
			return 0;
	if (why) {
		why->owner = owner;
		why->uid = uids[1];
	}
	return smp_page_refuse(why, SMP_PAGE_OWNER, -EPERM);
}

/* Open <dir>/uprof.<pid> read-only without following a link or blocking (a FIFO), and
 * check what it is before anything else. The descriptor, or -errno. */
static int open_checked(const char *dir, int pid, bool ours_if_gone, struct stat *sb,
			struct smp_page_why *why)
{
	char name[PATH_MAX];
	int fd, ret;

	snprintf(name, sizeof(name), "%s/" UPROF_CTL_SHM_PREFIX "%d", dir ? dir : "/dev/shm", pid);
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? smp_page_refuse(why, SMP_PAGE_LINK, -EPERM) : -errno;
	if (fstat(fd, sb)) {
		ret = -errno;
	} else if (!S_ISREG(sb->st_mode)) {
		ret = smp_page_refuse(why, SMP_PAGE_NOT_REGULAR, -EPERM);
	} else {
		ret = owner_check(pid, (uint32_t)sb->st_uid, ours_if_gone, why);
	}
	if (ret) {
		close(fd);
		return ret;
	}
	return fd;
}

/* The same file opened read-write: through our descriptor, so it is the inode we just
 * checked, whatever the name points at now. */
static int reopen_rw(int fd)
{
	char self[64];
	int rw;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	rw = open(self, O_RDWR | O_NONBLOCK | O_CLOEXEC); /* a magic link: no name lookup */
	return rw < 0 ? -errno : rw;
}

/* Map the page file @fd of @size bytes and take it. A page too large to take is still
 * mapped far enough to say what version it is. */
static int map_and_take(struct smp_page **out, int fd, off_t size, struct open_ctx *o)
{
	size_t len = size > (off_t)UPROF_CTL_MAX_SIZE ? UPROF_CTL_HEADER_BYTES : (size_t)size;
	void *m;
	int ret;

	o->file_size = size > (off_t)UPROF_CTL_MAX_SIZE ? 0 : (uint64_t)size;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	ret = smp_page_take(out, m, len, true, o);
	if (ret)
		munmap(m, len);
	return ret;
}

int smp_page_open_at(struct smp_page **out, const char *dir, int pid, const char *session,
		     uint32_t generation, struct smp_page_why *why)
{
	struct open_ctx o = { pid, 0, session, generation, why };
	struct stat sb;
	int fd, rw, ret;

	*out = NULL;
	if (why)
		memset(why, 0, sizeof(*why));
	if (smp_guard_install())
		return -ENOTSUP;
	fd = open_checked(dir, pid, session != NULL, &sb, why);
	if (fd < 0)
		return fd;
	if (sb.st_size == 0) { /* created, not yet sized: the target is about to */
		close(fd);
		return -EAGAIN;
	}
	if (sb.st_size < (off_t)UPROF_CTL_HEADER_BYTES) {
		close(fd);
		if (why)
			why->size = (uint64_t)sb.st_size;
		return smp_page_refuse(why, SMP_PAGE_SIZE, -EINVAL);
	}
	rw = reopen_rw(fd);
	close(fd);
	if (rw < 0)
		return rw;
	ret = map_and_take(out, rw, sb.st_size, &o);
	close(rw);
	return ret;
}

int smp_page_open_fd(struct smp_page **out, int fd, int pid, uint32_t uid, const char *session,
		     uint32_t generation, struct smp_page_why *why)
{
	struct open_ctx o = { pid, 0, session, generation, why };
	struct stat sb;
	int ret;

	*out = NULL;
	if (why)
		memset(why, 0, sizeof(*why));
	if (smp_guard_install())
		return -ENOTSUP;
	if (fstat(fd, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return smp_page_refuse(why, SMP_PAGE_NOT_REGULAR, -EPERM);
	/* the sender's own file (the kernel told us its uid), or one of a uid it has */
	if (sb.st_uid != uid && (ret = owner_check(pid, (uint32_t)sb.st_uid, false, why)))
		return ret;
	if (sb.st_size < (off_t)UPROF_CTL_HEADER_BYTES) {
		if (why)
			why->size = (uint64_t)sb.st_size;
		return smp_page_refuse(why, SMP_PAGE_SIZE, -EINVAL);
	}
	/* a descriptor not open for writing cannot be a page handed to us: EACCES */
	return map_and_take(out, fd, sb.st_size, &o);
}

int smp_page_open(struct smp_page **out, int pid, const char *session, uint32_t generation)
{
	return smp_page_open_at(out, NULL, pid, session, generation, NULL);
}

int smp_page_peek_version(int pid, uint32_t *version)
{
	unsigned char head[24];
	char name[64];
	uint64_t magic;
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "/" UPROF_CTL_SHM_PREFIX "%d", pid);
	fd = shm_open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n != (ssize_t)sizeof(head))
		return n < 0 ? -errno : -EINVAL;
	memcpy(&magic, head, 8);
	if (magic != UPROF_CTL_MAGIC)
		return -EINVAL;
	memcpy(version, head + 8, 4);
	return 0;
}

int smp_page_peek_session(const char *dir, int pid, char *buf, size_t len)
{
	char tok[UPROF_CTL_SESSION_MAX], name[PATH_MAX];
	struct stat sb;
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	snprintf(name, sizeof(name), "%s/" UPROF_CTL_SHM_PREFIX "%d", dir ? dir : "/dev/shm", pid);
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EPERM : -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -EPERM;
	}
	n = pread(fd, tok, sizeof(tok), (off_t)offsetof(struct uprof_ctl_header, session));
	close(fd);
	if (n != (ssize_t)sizeof(tok) || !tok[0])
		return n < 0 ? -errno : -EAGAIN;
	tok[sizeof(tok) - 1] = 0;
	snprintf(buf, len, "%s", tok);
	return 0;
}
