// SPDX-License-Identifier: MIT
/*
 * The session directory (docs/DESIGN.md §4): its name, its race-free creation, and the modes
 * of everything in it. samples.data holds copies of the target's stack and registers, so
 * the directory is 0700 and its files 0600 whatever the umask (perf writes 0600 too):
 * the mode given to mkdir/open is only an upper bound the umask can lower, so each is
 * set again with fchmod. collect makes and writes the session beneath a directory fd
 * (util.h, the directory-fd rule): the -o directory may be one another user can write.
 */
#include "session/container.h"
#include "session/internal.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ses_mkdir_p(const char *dir)
{
	char buf[PATH_MAX];
	size_t len = strlen(dir);

	if (!len)
		return -EINVAL;
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, dir, len + 1);
	/* parents are the user's own directories (like mkdir -p): the umask decides */
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -errno;
	return 0;
}

int ses_write_full(int fd, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len) {
		ssize_t n = write(fd, c, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

struct ses_ct_writer *ses_side_writer_create(int dfd, const char *dir, const char *name,
					     int oflags, size_t bufsize, const char *magic,
					     uint16_t major, uint16_t minor, const void *fields,
					     size_t nfields)
{
	char path[PATH_MAX];
	int fd;

	if (dir) {
		fd = util_at_mkdir(dfd, dir, SES_DIR_MODE, true);
		if (fd < 0) {
			errno = -fd;
			return NULL;
		}
		close(fd);
	}
	if ((size_t)snprintf(path, sizeof(path), "%s%s%s", dir ? dir : "", dir ? "/" : "",
			     name) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = util_at_create(dfd, path, O_WRONLY | oflags, SES_FILE_MODE);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return ses_ct_writer_new(fd, bufsize, magic, major, minor, fields, nfields);
}

void *ses_side_writer_adopt(void *w, struct ses_ct_writer **slot, struct ses_ct_writer *ct)
{
	int e;

	if (ct) {
		*slot = ct;
		return w;
	}
	e = errno; /* free() may change it; the caller reports why the open failed */
	free(w);
	errno = e;
	return NULL;
}

int ses_side_writer_release(void *w, struct ses_ct_writer *ct)
{
	int ret = ses_ct_writer_close(ct);

	free(w);
	return ret;
}

size_t ses_app_name_len(const char *name)
{
	size_t len = strnlen(name, SES_APP_MAX + 1);

	if (len <= SES_APP_MAX)
		return len;
	len = SES_APP_MAX;
	while (len > 0 && ((unsigned char)name[len] & 0xc0) == 0x80)
		len--;
	return len;
}

const char *ses_app_base(const char *prog)
{
	const char *slash = strrchr(prog, '/');

	return slash ? slash + 1 : prog;
}

/* uProf's name, our prefix. mkdirat is the arbiter: of two collects that pick one name in
 * one second, one gets EEXIST and tries the next suffix, so no two share a directory. The
 * directory is made beneath @outfd and opened at once (util_at_mkdir: a directory of ours,
 * not a symlink planted in its place), so nothing after this resolves its path again. */
int ses_dir_create(int outfd, const char *prog, const char *label, time_t when, char *name,
		   size_t namelen)
{
	const char *app = ses_app_base(prog);
	int applen = (int)ses_app_name_len(app);
	char stamp[64];
	struct tm tm;

	if (!*app || !*label || strchr(label, '/') || outfd < 0)
		return -EINVAL;
	if (!localtime_r(&when, &tm) || !strftime(stamp, sizeof(stamp), "%b-%d-%Y_%H-%M-%S", &tm))
		return -EINVAL;
	for (int n = 1; n < SES_DIR_MAX_SAME_SECOND; n++) {
		int len = n == 1 ? snprintf(name, namelen, "uprof-%.*s-%s_%s", applen, app, label,
					    stamp)
				 : snprintf(name, namelen, "uprof-%.*s-%s_%s-%d", applen, app,
					    label, stamp, n);
		int fd;

		if (len < 0 || (size_t)len >= namelen || len > NAME_MAX)
			return -ENAMETOOLONG;
		fd = util_at_mkdir(outfd, name, SES_DIR_MODE, false);
		if (fd != -EEXIST)
			return fd;
	}
	name[0] = 0;
	return -EEXIST;
}

/* Depth of subdirectories ses_dir_remove_at empties: tasks/, openmp/omplib/, mpi/. */
#define REMOVE_DEPTH 3

static void empty_at(int dfd, int depth)
{
	int fd = util_at_dir(dfd, ".");
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!unlinkat(dfd, e->d_name, 0) || errno != EISDIR || depth <= 0)
			continue;
		/* a directory of ours (nothing else can be made in a 0700 one): empty it too */
		fd = util_at_dir(dfd, e->d_name);
		if (fd >= 0) {
			empty_at(fd, depth - 1);
			close(fd);
		}
		unlinkat(dfd, e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

void ses_dir_remove_at(int outfd, const char *name, int dfd)
{
	if (dfd >= 0)
		empty_at(dfd, REMOVE_DEPTH);
	/* a symlink or file put at @name is not a directory: AT_REMOVEDIR leaves it; @name
	 * may be job/rank-N, resolved beneath @outfd */
	if (outfd >= 0 && name && *name)
		util_at_unlink(outfd, name, AT_REMOVEDIR);
}

