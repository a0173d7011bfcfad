// SPDX-License-Identifier: MIT
/*
 * Is the file at a module's path still the one that was profiled? By the build id the
 * kernel recorded in MMAP2 (Linux 5.12+), else by device and inode. A file that is not
 * must lend neither its symbols nor its CFI to the samples: they would name, or unwind,
 * other code.
 */
#include "symbols/symbols.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

bool rpt_build_id_differs(const void *bits, long n, const struct rpt_file_id *id)
{
	if (!id || !id->build_id_len)
		return false;
	return n != id->build_id_len || memcmp(bits, id->build_id, (size_t)n);
}

/* Without a build id, a file on the device it was profiled on must still have the inode
 * it had (a rebuild writes a new file). Another device (a copy, overlayfs) tells nothing. */
bool rpt_inode_differs(const struct stat *sb, const struct rpt_file_id *id)
{
	if (!id || id->build_id_len || !id->ino)
		return false;
	return major(sb->st_dev) == id->maj && minor(sb->st_dev) == id->min &&
	       sb->st_ino != id->ino;
}

bool rpt_file_id_differs(Elf *elf, const struct stat *sb, const struct rpt_file_id *id)
{
	const void *bits;
	ssize_t n;

	if (!id)
		return false;
	if (!id->build_id_len)
		return rpt_inode_differs(sb, id);
	n = dwelf_elf_gnu_build_id(elf, &bits);
	return rpt_build_id_differs(bits, n, id);
}

int rpt_file_build_id_hex(const char *path, const struct rpt_file_id *id, char *hex, size_t len)
{
	struct stat sb;
	const unsigned char *bits;
	ssize_t n;
	Elf *elf;
	int fd;

	if (len)
		hex[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || rpt_inode_differs(&sb, id)) {
		close(fd);
		return -ENOENT; /* not a file, or another one than was profiled */
	}
	elf_version(EV_CURRENT); /* libelf's set-up, idempotent */
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	n = elf && elf_kind(elf) == ELF_K_ELF ? dwelf_elf_gnu_build_id(elf, (const void **)&bits)
					      : -1;
	for (ssize_t i = 0; i < n && (size_t)(2 * i + 2) < len; i++)
		snprintf(hex + 2 * i, 3, "%02x", bits[i]);
	elf_end(elf);
	close(fd);
	return n > 0 ? 0 : -ENOENT;
}
