// SPDX-License-Identifier: MIT
/*
 * Replacing a file beneath a directory fd through an unnamed file (O_TMPFILE): the content
 * is written and synced while the file has no name, so a writer killed meanwhile (SIGKILL:
 * an MPI launcher ending a job, ~85 ms after its SIGTERM with Open MPI 4.1) leaves nothing
 * behind; the temporary name exists only between a link and a rename, two system calls.
 */
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int util_at_tmpfile(int dfd, mode_t mode)
{
	int fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);

	if (fd < 0)
		return -errno;
	/* the umask may have lowered @mode: the mode is ours to say */
	if (fchmod(fd, mode)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int util_at_tmpfile_commit(int dfd, int fd, const char *tmp, const char *rel, bool sync)
{
	char proc[64];
	int ret = 0;

	if (sync && fsync(fd))
		ret = -errno;
	/* a name of an earlier writer killed between its link and its rename goes first */
	if (!ret)
		util_at_unlink(dfd, tmp, 0);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	/* AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc's link works for any owner */
	if (!ret && linkat(fd, "", dfd, tmp, AT_EMPTY_PATH) &&
	    linkat(AT_FDCWD, proc, dfd, tmp, AT_SYMLINK_FOLLOW))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret) {
		ret = util_at_rename(dfd, tmp, rel);
		if (ret)
			util_at_unlink(dfd, tmp, 0);
	}
	return ret;
}
