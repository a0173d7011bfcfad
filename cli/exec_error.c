// SPDX-License-Identifier: MIT
/*
 * "No such file or directory" for a file that is right there is exec's answer when the
 * file's interpreter is missing: the #! line's program, or the dynamic loader an ELF
 * file asks for (a binary built for another system). Say which one.
 */
#include "cli/cli.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The #! line's interpreter (first word), or "" */
static void shebang(const char *head, size_t n, char *out, size_t len)
{
	size_t i = 2, j = 0;

	out[0] = 0;
	if (n < 3 || head[0] != '#' || head[1] != '!')
		return;
	while (i < n && (head[i] == ' ' || head[i] == '\t'))
		i++;
	while (i < n && head[i] != ' ' && head[i] != '\t' && head[i] != '\n' && j + 1 < len)
		out[j++] = head[i++];
	out[j] = 0;
}

/* PT_INTERP of a 64-bit ELF file, or "" */
static void elf_interp(int fd, char *out, size_t len)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;

	out[0] = 0;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_phentsize != sizeof(ph))
		return;
	for (int i = 0; i < eh.e_phnum && i < 256; i++) {
		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + (uint64_t)i * sizeof(ph))) !=
		    (ssize_t)sizeof(ph))
			return;
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz == 0 || ph.p_filesz >= len)
			return;
		if (pread(fd, out, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			out[0] = 0;
		out[ph.p_filesz] = 0;
		out[strnlen(out, len - 1)] = 0;
		return;
	}
}

const char *cli_exec_error(const char *path, int err, char *buf, size_t len)
{
	char head[256], interp[200];
	struct stat sb;
	ssize_t n;
	int fd;

	snprintf(buf, len, "%s", strerror(err));
	if ((err != ENOENT && err != ENOEXEC) || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return buf;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	n = pread(fd, head, sizeof(head), 0);
	shebang(head, n > 0 ? (size_t)n : 0, interp, sizeof(interp));
	if (interp[0] && err == ENOENT)
		snprintf(buf, len, "its interpreter '%s' (the #! line) does not exist", interp);
	else if (err == ENOENT && (elf_interp(fd, interp, sizeof(interp)), interp[0]) &&
		 access(interp, F_OK))
		snprintf(buf, len,
			 "its program interpreter '%s' does not exist (built for another "
			 "system?)",
			 interp);
	else if (err == ENOEXEC)
		snprintf(buf, len,
			 "not a program this system can run (no #! line, and not an ELF "
			 "executable for this machine)");
	close(fd);
	return buf;
}
