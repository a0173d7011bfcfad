// SPDX-License-Identifier: MIT
/*
 * Inlined frames: which functions were inlined at an address, from the DWARF scopes
 * (DW_TAG_inlined_subroutine) around it, innermost first. Each module file with DWARF is
 * opened once with libdwfl at its link-time addresses (and read for source lines too,
 * rpt_inlines_line) and kept open (up to MAX_OPEN of
 * them) until rpt_inlines_close(); a file without DWARF is remembered as such and costs
 * nothing more.
 */
#include "symbols/dwfl.h"
#include "symbols/symbols.h"
#include "util/util.h"

#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define MAX_OPEN 64
#define MAX_SEGS 16

struct imod {
	char *path;
	Dwfl *dwfl; /* NULL: no DWARF (or not readable) */
	Dwfl_Module *mod;
	bool closed; /* rpt_inlines_close()d: opened again when asked */
	int nsegs;
	struct {
		uint64_t off, vaddr, filesz;
	} segs[MAX_SEGS];
};

struct rpt_inlines {
	struct imod *mods;
	int nmods, capmods, nopen;
	struct util_strmap index;      /* path -> mod + 1 (as a pointer-sized number) */
	struct util_strmap names;      /* interned function names */
	const struct rpt_locator *loc; /* borrowed; NULL: files at their recorded paths */
};

/* Open @m->path if it has DWARF; leaves m->dwfl NULL otherwise. */
static void open_module(struct rpt_inlines *il, struct imod *m)
{
	const char *file = m->path;
	struct rpt_located at;
	GElf_Addr bias = 0;
	struct stat sb;
	GElf_Phdr ph;
	size_t phnum;
	Elf *elf;

	if (il->loc) { /* symtab.c looked this path up first, with its build id */
		rpt_locate((struct rpt_locator *)il->loc, m->path, NULL, &at);
		file = at.file;
	}
	if (il->nopen >= MAX_OPEN || !file || stat(file, &sb) || !S_ISREG(sb.st_mode))
		return;
	m->dwfl = dwfl_begin(&rpt_dwfl_file_callbacks);
	if (!m->dwfl)
		return;
	dwfl_report_begin(m->dwfl);
	m->mod = rpt_dwfl_report_elf(m->dwfl, il->loc, m->path, file, 0);
	if (dwfl_report_end(m->dwfl, NULL, NULL) || !m->mod ||
	    !dwfl_module_getdwarf(m->mod, &bias) || !(elf = dwfl_module_getelf(m->mod, &bias)) ||
	    elf_getphdrnum(elf, &phnum)) {
		dwfl_end(m->dwfl);
		m->dwfl = NULL;
		return;
	}
	for (size_t i = 0; i < phnum && m->nsegs < MAX_SEGS; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		m->segs[m->nsegs].off = ph.p_offset;
		m->segs[m->nsegs].vaddr = ph.p_vaddr;
		m->segs[m->nsegs].filesz = ph.p_filesz;
		m->nsegs++;
	}
	il->nopen++;
}

static struct imod *module_for(struct rpt_inlines *il, const char *path)
{
	uintptr_t got = (uintptr_t)util_strmap_get(&il->index, path);
	struct imod *m;

	if (got) {
		m = &il->mods[got - 1];
		if (m->closed) {
			m->closed = false;
			open_module(il, m);
		}
		return m;
	}
	if (il->nmods == il->capmods) {
		int cap = il->capmods ? il->capmods * 2 : 16;
		struct imod *g = realloc(il->mods, sizeof(*g) * cap);

		if (!g)
			return NULL;
		il->mods = g;
		il->capmods = cap;
	}
	m = &il->mods[il->nmods];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	if (!m->path || util_strmap_put(&il->index, path, (void *)(uintptr_t)(il->nmods + 1))) {
		free(m->path);
		return NULL;
	}
	open_module(il, m);
	il->nmods++;
	return m;
}

/* The name of an inlined subroutine's function: demangled linkage name, else DW_AT_name. */
static const char *die_name(struct rpt_inlines *il, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *link = NULL, *name, *out;
	char *dem = NULL;
	int status = -1;

	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr))
		link = dwarf_formstring(&attr);
	if (link && !strncmp(link, "_Z", 2))
		dem = __cxa_demangle(link, NULL, NULL, &status);
	name = status == 0 && dem ? dem : dwarf_diename(die);
	out = name ? util_strmap_intern(&il->names, name) : NULL;
	free(dem);
	return out;
}

/* The link-time address of @file_offset in @m's loaded segments. */
static bool link_address(const struct imod *m, uint64_t file_offset, Dwarf_Addr *vaddr)
{
	for (int i = 0; i < m->nsegs; i++)
		if (file_offset >= m->segs[i].off &&
		    file_offset - m->segs[i].off < m->segs[i].filesz) {
			*vaddr = file_offset - m->segs[i].off + m->segs[i].vaddr;
			return true;
		}
	return false;
}

int rpt_inlines_line(struct rpt_inlines *il, const char *path, uint64_t file_offset,
		     const char **file, int *line)
{
	return rpt_inlines_srcline(il, path, file_offset, file, line, NULL);
}

int rpt_inlines_srcline(struct rpt_inlines *il, const char *path, uint64_t file_offset,
			const char **file, int *line, const char **comp_dir)
{
	struct imod *m = module_for(il, path);
	Dwarf_Addr vaddr = 0;
	Dwfl_Line *l;
	int lineno = 0;

	*file = NULL;
	*line = 0;
	if (comp_dir)
		*comp_dir = NULL;
	if (!m || !m->dwfl || !link_address(m, file_offset, &vaddr))
		return -ENOENT;
	l = dwfl_module_getsrc(m->mod, vaddr);
	*file = l ? dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (!*file || lineno <= 0) {
		*file = NULL;
		return -ENOENT;
	}
	*line = lineno;
	if (comp_dir)
		*comp_dir = dwfl_line_comp_dir(l);
	return 0;
}

int rpt_inlines_at(struct rpt_inlines *il, const char *path, uint64_t file_offset,
		   const char **names, int max)
{
	struct imod *m = module_for(il, path);
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias = 0, vaddr = 0;
	int n = 0, ns;

	if (!m || !m->dwfl || !link_address(m, file_offset, &vaddr))
		return 0;
	cu = dwfl_module_addrdie(m->mod, vaddr, &bias);
	if (!cu)
		return 0;
	/*
	 * dwarf_getscopes() goes from the innermost inlined instance into its abstract
	 * definition's scopes, which leaves the instances it was inlined into (each inlined
	 * call of the chain) out; the scopes of the innermost DIE itself, from
	 * dwarf_getscopes_die(), are the concrete chain up to the real function, as
	 * eu-addr2line -i and perf --inline walk it.
	 */
	ns = dwarf_getscopes(cu, vaddr - bias, &scopes);
	if (ns > 0 && dwarf_tag(&scopes[0]) != DW_TAG_subprogram) { /* else: nothing inlined */
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		ns = dwarf_getscopes_die(&inner, &scopes);
	}
	for (int i = 0; i < ns && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag == DW_TAG_inlined_subroutine) {
			const char *name = die_name(il, &scopes[i]);

			if (name)
				names[n++] = name;
		}
	}
	free(scopes);
	return n;
}

/* The unit of @m's DWARF that holds @vaddr: through the address ranges, else by walking
 * the units (clang emits no .debug_aranges, and libdw 0.188's lookup relies on them). */
static bool unit_at(struct imod *m, Dwarf_Addr vaddr, Dwarf_Die *cu, Dwarf_Addr *bias)
{
	Dwarf_Die *got = dwfl_module_addrdie(m->mod, vaddr, bias);
	Dwarf *dw = dwfl_module_getdwarf(m->mod, bias);
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (got) {
		*cu = *got;
		return true;
	}
	if (!dw)
		return false;
	for (int n = 0; n < 100000 && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL);
	     n++, off = next)
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, vaddr - *bias) > 0)
			return true;
	return false;
}

/* Is @die a function a compiler made of a construct's body, not one the source has: clang's
 * ".omp_outlined.", ".omp_outlined._debug__", ".omp_task_entry.", "__omp_offloading_*"
 * (clang 19: "<f>.omp_outlined", "<f>.omp_outlined_debug__", artificial); gcc's
 * "<f>._omp_fn.<n>", "<f>._omp_cpyfn.<n>" (artificial, nested in <f>). */
static bool outlined(Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Attribute a;
	bool artificial = false;

	if (dwarf_attr_integrate(die, DW_AT_artificial, &a))
		dwarf_formflag(&a, &artificial);
	return artificial || !name || name[0] == '.' || !strncmp(name, "__omp_offloading_", 17) ||
	       strstr(name, ".omp_outlined") || strstr(name, "._omp_fn.") ||
	       strstr(name, "._omp_cpyfn.");
}

static bool same_file(const char *a, const char *b, bool by_base)
{
	const char *ba = strrchr(a, '/'), *bb = strrchr(b, '/');

	if (!by_base)
		return !strcmp(a, b);
	return !strcmp(ba ? ba + 1 : a, bb ? bb + 1 : b);
}

struct src_pick {
	const char *file;
	int line, best;
	bool by_base;
	Dwarf_Files *files; /* of the unit */
	size_t nfiles;
	Dwarf_Die die;
};

/* The file a function is declared in. Not dwarf_decl_file: libdw 0.188 takes index 0 for
 * "no file", which DWARF 5 (clang 14 on) made the unit's primary source file. */
static const char *decl_file(Dwarf_Die *die, const struct src_pick *pick)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;

	if (!dwarf_attr_integrate(die, DW_AT_decl_file, &a) || dwarf_formudata(&a, &idx) ||
	    idx >= pick->nfiles)
		return NULL;
	return dwarf_filesrc(pick->files, idx, NULL, NULL);
}

/* The function defined in @pick->file whose declaration begins last at or before
 * @pick->line, among @parent's children (and those of its namespaces): a definition (code,
 * or an abstract instance of an inlined one), not a declaration, not outlined. */
static void pick_by_line(Dwarf_Die *parent, struct src_pick *pick, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child), decl = 0;
		const char *file;

		if (tag == DW_TAG_namespace) {
			pick_by_line(&child, pick, depth + 1);
			continue;
		}
		if (tag != DW_TAG_subprogram || dwarf_hasattr(&child, DW_AT_declaration) ||
		    !(dwarf_hasattr(&child, DW_AT_low_pc) || dwarf_hasattr(&child, DW_AT_ranges) ||
		      dwarf_hasattr(&child, DW_AT_inline)) ||
		    outlined(&child) || dwarf_decl_line(&child, &decl) || decl > pick->line ||
		    decl <= pick->best || !(file = decl_file(&child, pick)) ||
		    !same_file(file, pick->file, pick->by_base))
			continue;
		pick->best = decl;
		pick->die = child;
	} while (dwarf_siblingof(&child, &child) == 0);
}

int rpt_inlines_function(struct rpt_inlines *il, const char *path, uint64_t file_offset,
			 const char *line_file, int line, const char **name)
{
	struct imod *m = module_for(il, path);
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Addr bias = 0, vaddr = 0;
	struct src_pick pick = { .file = line_file, .line = line, .best = -1, .files = NULL };
	int ns, ret = -ENOENT;

	*name = NULL;
	if (!m || !m->dwfl || !link_address(m, file_offset, &vaddr) ||
	    !unit_at(m, vaddr, &cu, &bias))
		return -ENOENT;
	/* the concrete chain from the innermost scope out, as rpt_inlines_at walks it */
	ns = dwarf_getscopes(&cu, vaddr - bias, &scopes);
	if (ns > 0 && dwarf_tag(&scopes[0]) != DW_TAG_subprogram) {
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		ns = dwarf_getscopes_die(&inner, &scopes);
	}
	for (int i = 0; i < ns && !*name; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) &&
		    !outlined(&scopes[i]))
			*name = die_name(il, &scopes[i]);
	}
	free(scopes);
	/* clang's outlined functions are children of the unit, not of the function they were
	 * taken from: that one is found by where the source has it */
	if (!*name && line_file && line > 0 && dwarf_getsrcfiles(&cu, &pick.files, &pick.nfiles))
		line = 0;
	for (int by_base = 0; !*name && line_file && line > 0 && by_base < 2; by_base++) {
		pick.by_base = by_base;
		pick_by_line(&cu, &pick, 0);
		if (pick.best >= 0)
			*name = die_name(il, &pick.die);
	}
	if (*name)
		ret = 0;
	return ret;
}

void rpt_inlines_close(struct rpt_inlines *il, const char *path)
{
	uintptr_t got = il ? (uintptr_t)util_strmap_get(&il->index, path) : 0;
	struct imod *m = got ? &il->mods[got - 1] : NULL;

	if (!m || !m->dwfl)
		return;
	dwfl_end(m->dwfl);
	m->dwfl = NULL;
	m->mod = NULL;
	m->nsegs = 0;
	m->closed = true;
	il->nopen--;
}

struct rpt_inlines *rpt_inlines_new(const struct rpt_locator *loc)
{
	struct rpt_inlines *il = calloc(1, sizeof(struct rpt_inlines));

	if (il)
		il->loc = loc;
	return il;
}

void rpt_inlines_free(struct rpt_inlines *il)
{
	if (!il)
		return;
	for (int i = 0; i < il->nmods; i++) {
		if (il->mods[i].dwfl)
			dwfl_end(il->mods[i].dwfl);
		free(il->mods[i].path);
	}
	util_strmap_release(&il->names);
	free(il->mods);
	util_strmap_release(&il->index);
	free(il);
}
