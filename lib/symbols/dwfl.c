// SPDX-License-Identifier: MIT
/* The libdwfl callbacks of report (dwfl.h). */
#include "symbols/dwfl.h"
#include "symbols/symbols.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *debuginfo_path; /* NULL: libdwfl's default ":.debug:/usr/lib/debug" */

/* Does the ELF file @fd hold symbols or DWARF, and is it the debug file of build id @bits
 * (@n bytes; n <= 0: nothing to check)? A stripped copy has neither. */
static bool debug_file_ok(int fd, const unsigned char *bits, int n)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *have;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool useful = false, same;
	ssize_t got;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return false;
	}
	got = dwelf_elf_gnu_build_id(elf, &have);
	same = n <= 0 || (got == n && !memcmp(have, bits, (size_t)n));
	while (same && !useful && (scn = elf_nextscn(elf, scn)))
		useful = gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB;
	elf_end(elf);
	return same && useful;
}

/* Open @path as the debug file of @main (not @main itself), or -1. */
static int try_debug(const char *path, const struct stat *main, const unsigned char *bits, int n,
		     char **name)
{
	struct stat sb;
	int fd;

	if (stat(path, &sb) || !S_ISREG(sb.st_mode) ||
	    (main && sb.st_dev == main->st_dev && sb.st_ino == main->st_ino))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (!debug_file_ok(fd, bits, n) || !(*name = strdup(path))) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The --symbol-path directories, each as a flat directory of debug files or a tree in
 * /usr/lib/debug's layout: DIR/.build-id/xx/rest.debug, DIR/<debuglink>,
 * DIR/<the file's directory>/<debuglink>, DIR/<base>.debug, DIR/<base>.
 */
static int from_symbol_paths(Dwfl_Module *mod, const struct rpt_locator *loc, const char *file,
			     const char *debuglink, char **name)
{
	const unsigned char *bits = NULL;
	const char *base, *const *dirs;
	char path[PATH_MAX * 2], fdir[PATH_MAX];
	struct stat mainsb, *main = NULL;
	GElf_Addr vaddr;
	int n, ndirs, fd = -1;

	dirs = rpt_locator_symbol_paths(loc, &ndirs);
	if (!ndirs || !file)
		return -1;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (!stat(file, &mainsb))
		main = &mainsb;
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	snprintf(fdir, sizeof(fdir), "%.*s", (int)(base - file), file);
	for (int i = 0; i < ndirs && fd < 0; i++) {
		if (n > 0 && rpt_buildid_link(path, sizeof(path) - 8, dirs[i], bits, (size_t)n)) {
			strcat(path, ".debug");
			fd = try_debug(path, main, bits, n, name);
		}
		if (fd < 0 && debuglink) {
			snprintf(path, sizeof(path), "%s/%s", dirs[i], debuglink);
			fd = try_debug(path, main, bits, n, name);
		}
		if (fd < 0 && debuglink && fdir[0] == '/') {
			snprintf(path, sizeof(path), "%s%s%s", dirs[i], fdir, debuglink);
			fd = try_debug(path, main, bits, n, name);
		}
		if (fd < 0) {
			snprintf(path, sizeof(path), "%s/%s.debug", dirs[i], base);
			fd = try_debug(path, main, bits, n, name);
		}
		if (fd < 0) {
			snprintf(path, sizeof(path), "%s/%s", dirs[i], base);
			fd = try_debug(path, main, bits, n, name);
		}
	}
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, GElf_Addr base,
			  const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd = -1;

	if (*userdata)
		fd = from_symbol_paths(mod, *userdata, file_name, debuglink_file,
				       debuginfo_file_name);
	if (fd >= 0)
		return fd;
	/* libdwfl's places, then debuginfod by build id when DEBUGINFOD_URLS is set */
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

const Dwfl_Callbacks rpt_dwfl_file_callbacks = {
	.find_elf = dwfl_build_id_find_elf, /* unused: dwfl_report_elf opens the file */
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

Dwfl_Module *rpt_dwfl_report_elf(Dwfl *dwfl, const struct rpt_locator *loc, const char *name,
				 const char *file, GElf_Addr base)
{
	Dwfl_Module *mod = dwfl_report_elf(dwfl, name, file, -1, base, true);
	void **userdata;

	if (mod && dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = (void *)loc;
	return mod;
}

/* Hand libdwfl the in-memory copy; it ends the Elf, the caller frees the buffer. */
static int image_find_elf(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr base,
			  char **file_name, Elf **elfp)
{
	struct rpt_dwfl_image *img = *userdata;

	(void)mod;
	(void)name;
	(void)base;
	*file_name = NULL;
	*elfp = elf_memory(img->buf, img->len);
	return -1;
}

const Dwfl_Callbacks rpt_dwfl_image_callbacks = {
	.find_elf = image_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};
