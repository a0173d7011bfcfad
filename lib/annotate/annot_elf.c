// SPDX-License-Identifier: MIT
/*
 * The code of an annotated function, from its module file: the range of the symbol
 * that holds the sampled address (a function symbol with a size, from .symtab or else
 * .dynsym), or for a stripped file the range its call frame information gives (fdes.h),
 * and the bytes of that range read through the file's PT_LOAD segments.
 */
#include "annotate/annotate.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool rpt_annot_code_vaddr(const struct rpt_annot_code *code, uint64_t file_offset, uint64_t *vaddr)
{
	for (int i = 0; i < code->nsegs; i++)
		if (file_offset >= code->segs[i].off &&
		    file_offset - code->segs[i].off < code->segs[i].filesz) {
			*vaddr = file_offset - code->segs[i].off + code->segs[i].vaddr;
			return true;
		}
	return false;
}

static void read_segs(Elf *elf, struct rpt_annot_code *code)
{
	size_t phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return;
	for (size_t i = 0; i < phnum && code->nsegs < RPT_ANNOT_SEGS; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		code->segs[code->nsegs].off = ph.p_offset;
		code->segs[code->nsegs].vaddr = ph.p_vaddr;
		code->segs[code->nsegs].filesz = ph.p_filesz;
		code->nsegs++;
	}
}

/* The sized function symbol of @type's table holding @vaddr: true and its range. */
static bool symbol_range(Elf *elf, Elf_Scn *scn, GElf_Shdr *sh, uint64_t vaddr,
			 struct rpt_annot_code *code)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym sym;

	(void)elf;
	for (size_t i = 1; data && i < n; i++) {
		int type;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !sym.st_size ||
		    sym.st_shndx == SHN_UNDEF || vaddr < sym.st_value ||
		    vaddr - sym.st_value >= sym.st_size)
			continue;
		code->start = sym.st_value;
		code->end = sym.st_value + sym.st_size;
		code->sized = true;
		return true;
	}
	return false;
}

/* Which tables the file has, and the range of the function at @vaddr from them. */
static bool find_symbol(Elf *elf, uint64_t vaddr, struct rpt_annot_code *code)
{
	Elf_Scn *scn = NULL, *dynsym = NULL, *symtab = NULL;
	GElf_Shdr sh, dsh, ssh;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_SYMTAB)
			symtab = scn, ssh = sh;
		else if (sh.sh_type == SHT_DYNSYM)
			dynsym = scn, dsh = sh;
		else if (name && !strcmp(name, ".debug_line"))
			code->has_debug_line = true;
	}
	code->has_symtab = symtab != NULL;
	return (symtab && symbol_range(elf, symtab, &ssh, vaddr, code)) ||
	       (dynsym && symbol_range(elf, dynsym, &dsh, vaddr, code));
}

static bool fde_range(Elf *elf, uint64_t vaddr, struct rpt_annot_code *code)
{
	struct rpt_fdes f = { 0 };
	const struct rpt_fde *e;
	bool found = false;

	if (!rpt_fdes_read(&f, elf) && (e = rpt_fdes_find(&f, vaddr))) {
		code->start = e->start;
		code->end = e->end;
		found = true;
	}
	rpt_fdes_release(&f);
	return found;
}

/* The bytes of [start, end) through the segment holding start. 0, -ENOEXEC, -ENOMEM. */
static int read_bytes(int fd, struct rpt_annot_code *code)
{
	size_t len = code->end - code->start;

	for (int i = 0; i < code->nsegs; i++) {
		uint64_t v = code->segs[i].vaddr, off;

		if (code->start < v || code->end - v > code->segs[i].filesz)
			continue;
		off = code->start - v + code->segs[i].off;
		code->bytes = malloc(len ? len : 1);
		if (!code->bytes)
			return -ENOMEM;
		if (pread(fd, code->bytes, len, (off_t)off) != (ssize_t)len) {
			free(code->bytes);
			code->bytes = NULL;
			return -ENOEXEC;
		}
		return 0;
	}
	return -ENOEXEC;
}

int rpt_annot_code_read(struct rpt_locator *loc, const char *path, uint64_t file_offset,
			struct rpt_annot_code *code)
{
	const char *file = path;
	struct rpt_located at;
	uint64_t vaddr;
	struct stat sb;
	Elf *elf = NULL;
	int fd = -1, ret = -ENOENT;

	memset(code, 0, sizeof(*code));
	if (loc) { /* symtab.c looked this path up first, with its build id */
		rpt_locate(loc, path, NULL, &at);
		file = at.file;
	}
	if (!file || *file != '/')
		goto out;
	fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		goto out;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	read_segs(elf, code);
	ret = -ENOEXEC;
	if (!rpt_annot_code_vaddr(code, file_offset, &vaddr))
		goto out;
	if (!find_symbol(elf, vaddr, code) && !fde_range(elf, vaddr, code))
		goto out;
	ret = -EFBIG;
	if (code->end <= code->start || code->end - code->start > RPT_ANNOT_MAX_CODE)
		goto out;
	ret = read_bytes(fd, code);
out:
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return ret;
}
