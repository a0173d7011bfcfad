// SPDX-License-Identifier: MIT
/* PLT stubs as symbols (plt.h): .plt/.plt.sec by .rela.plt, .plt.got by the GOT slots
 * its jumps read. The file is untrusted: every index and address is checked against its
 * section before use. */
#include "symbols/plt.h"

#include <gelf.h>
#include <string.h>

#define STUB 16 /* x86-64: each stub, and the header of .plt */

static Elf_Scn *section(Elf *elf, size_t shstrndx, const char *want, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

/* The name of the dynamic symbol whose relocation in @rscn (.rela.dyn) fills the GOT
 * slot at @slot, or NULL. */
static const char *got_name(Elf *elf, Elf_Scn *rscn, uint64_t slot)
{
	Elf_Data *rel = elf_getdata(rscn, NULL), *dyn;
	GElf_Shdr rsh, dsh;
	Elf_Scn *dscn;
	GElf_Rela r;
	GElf_Sym sym;

	if (!rel || !gelf_getshdr(rscn, &rsh) || !rsh.sh_entsize ||
	    !(dscn = elf_getscn(elf, rsh.sh_link)) || !gelf_getshdr(dscn, &dsh) ||
	    dsh.sh_type != SHT_DYNSYM || !(dyn = elf_getdata(dscn, NULL)))
		return NULL;
	for (size_t i = 0; i < rsh.sh_size / rsh.sh_entsize; i++)
		if (gelf_getrela(rel, (int)i, &r) && r.r_offset == slot &&
		    GELF_R_TYPE(r.r_info) == R_X86_64_GLOB_DAT &&
		    gelf_getsym(dyn, (int)GELF_R_SYM(r.r_info), &sym))
			return elf_strptr(elf, dsh.sh_link, sym.st_name);
	return NULL;
}

/*
 * .plt.got: stubs of functions bound at load time (__cxa_finalize), 8 or 16 bytes each
 * (sh_entsize), each an indirect jump through its GOT slot, "jmp *disp32(%rip)" (ff 25)
 * after an endbr64 and a bnd prefix or not; the slot's GLOB_DAT relocation names it.
 */
static int plt_got(Elf *elf, size_t shstrndx,
		   int (*fn)(void *arg, uint64_t addr, uint64_t size, const char *name), void *arg)
{
	GElf_Shdr gsh, rsh;
	Elf_Scn *gscn = section(elf, shstrndx, ".plt.got", &gsh),
		*rscn = section(elf, shstrndx, ".rela.dyn", &rsh);
	Elf_Data *data = gscn ? elf_getdata(gscn, NULL) : NULL;
	const unsigned char *b;
	int ret = 0;

	if (!data || !rscn || gsh.sh_type != SHT_PROGBITS || rsh.sh_type != SHT_RELA ||
	    (gsh.sh_entsize != 8 && gsh.sh_entsize != 16) || data->d_size < gsh.sh_size)
		return 0;
	b = data->d_buf;
	for (uint64_t e = 0; e + gsh.sh_entsize <= gsh.sh_size && !ret; e += gsh.sh_entsize) {
		for (uint64_t k = e; k + 6 <= e + gsh.sh_entsize; k++) {
			int32_t disp;
			const char *name;

			if (b[k] != 0xff || b[k + 1] != 0x25)
				continue;
			memcpy(&disp, b + k + 2, 4);
			name = got_name(elf, rscn, gsh.sh_addr + k + 6 + (int64_t)disp);
			if (name && *name)
				ret = fn(arg, gsh.sh_addr + e, gsh.sh_entsize, name);
			break;
		}
	}
	return ret;
}

int rpt_plt_each(Elf *elf, int (*fn)(void *arg, uint64_t addr, uint64_t size, const char *name),
		 void *arg)
{
	GElf_Shdr rsh, psh, dsh;
	Elf_Scn *rscn, *pscn, *dscn;
	Elf_Data *rel, *dyn;
	GElf_Ehdr eh;
	uint64_t first = 0;
	size_t shstrndx, n;
	int ret = 0;

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 ||
	    elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	ret = plt_got(elf, shstrndx, fn, arg);
	if (ret)
		return ret;
	rscn = section(elf, shstrndx, ".rela.plt", &rsh);
	pscn = section(elf, shstrndx, ".plt.sec", &psh);
	if (!pscn) {
		pscn = section(elf, shstrndx, ".plt", &psh);
		first = STUB; /* the header that calls the dynamic linker */
	}
	if (!rscn || !pscn || rsh.sh_type != SHT_RELA || psh.sh_type != SHT_PROGBITS ||
	    !rsh.sh_entsize || !(dscn = elf_getscn(elf, rsh.sh_link)) ||
	    !gelf_getshdr(dscn, &dsh) || dsh.sh_type != SHT_DYNSYM ||
	    !(rel = elf_getdata(rscn, NULL)) || !(dyn = elf_getdata(dscn, NULL)))
		return 0;
	n = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < n && !ret; i++) {
		uint64_t addr = psh.sh_addr + first + i * STUB;
		const char *name;
		GElf_Rela r;
		GElf_Sym sym;

		if (first + (i + 1) * STUB > psh.sh_size)
			break; /* more relocations than stubs: not a PLT we know */
		if (!gelf_getrela(rel, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(dyn, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		if (name && *name)
			ret = fn(arg, addr, STUB, name);
	}
	return ret;
}
