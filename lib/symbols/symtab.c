// SPDX-License-Identifier: MIT
/*
 * Symbolization. Each module file is read once with libdwfl, which finds separate
 * debuginfo (build-id, .gnu_debuglink) and prefers .symtab over .dynsym for us. Its
 * function symbols, its code labels that no function covers (is_label()) and names for
 * its PLT stubs ("malloc@plt", plt.c), as perf names them all, are then copied into one
 * sorted array per module, so that a lookup
 * is a hash of the path plus a binary search, and libdwfl is closed again (no file
 * descriptors stay open however many modules a profile touches). Demangled names are
 * made on first use and interned, so each name exists once however often it is hit.
 *
 * An address no symbol covers (a stripped file, a library's internal functions that
 * only .symtab named) is placed in its function by the call frame information: the
 * first such lookup in a module reads its FDEs (fdes.c) once, and the address is named
 * "basename!0x<function start>", so that one function's samples stay one row.
 *
 * Files are untrusted: anything libelf/libdwfl cannot read leaves a module with no
 * symbols, whose addresses come out as "basename!0x<addr>".
 */
#include "symbols/internal.h"
#include "symbols/dwfl.h"
#include "symbols/plt.h"
#include "symbols/jitdump.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* From libstdc++ (REPORT_LDLIBS has -lstdc++); declared here to keep this file C. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

#define VDSO_NAME "[vdso]"
#define KERNEL_NAME "[kernel.kallsyms]"
#define KALLSYMS_DEFAULT "/proc/kallsyms"
/* Returned only when memory ran out while making a better answer. */
#define OOM_NAME "[unknown]"
/* How far back a lookup looks for a symbol that encloses smaller ones. */
#define MAX_NESTED 8

/* The interned copy of @s, owned by @st; NULL on out-of-memory. */
static const char *intern(struct rpt_symtab *st, const char *s)
{
	return util_strmap_intern(&st->strs, s);
}

/* ---- reading a module ---- */

#define RANK_LABEL 8 /* and above: a label (STT_NOTYPE), see is_label() */

/* At one address prefer a sized symbol, then global over weak over local; a label last. */
static unsigned char sym_rank(const GElf_Sym *s)
{
	unsigned char r = GELF_ST_TYPE(s->st_info) == STT_NOTYPE ? RANK_LABEL : s->st_size ? 0 : 4;

	switch (GELF_ST_BIND(s->st_info)) {
	case STB_GLOBAL:
		return r;
	case STB_WEAK:
		return r + 1;
	default:
		return r + 2;
	}
}

static int lead_underscores(const char *s)
{
	int n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	if (x->end != y->end) /* bigger first: the enclosing symbol */
		return x->end > y->end ? -1 : 1;
	/* like perf: "malloc" over its alias "__libc_malloc" */
	if (lead_underscores(x->raw) != lead_underscores(y->raw))
		return lead_underscores(x->raw) - lead_underscores(y->raw);
	return strcmp(x->raw, y->raw);
}

/* End of the section @shndx of @elf, in module-relative addresses. */
static uint64_t section_end(Elf *elf, GElf_Word shndx, uint64_t adjust)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

	if (!scn || !gelf_getshdr(scn, &shdr) || !shdr.sh_size)
		return UINT64_MAX;
	return shdr.sh_addr + shdr.sh_size + adjust;
}

/*
 * A code label perf names addresses by too: an STT_NOTYPE symbol in an executable
 * section, visible (assembly entry points such as ld.so's _start and _dl_start_user,
 * which have no STT_FUNC symbol and no size). Labels that fall inside a function
 * symbol are dropped once sorted (read_syms), so they only name code no function covers.
 */
static bool is_label(const GElf_Sym *sym, Elf *elf, GElf_Word shndx)
{
	int vis = GELF_ST_VISIBILITY(sym->st_other);
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;
	GElf_Shdr shdr;

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && vis != STV_HIDDEN &&
	       vis != STV_INTERNAL && scn && gelf_getshdr(scn, &shdr) &&
	       (shdr.sh_flags & SHF_EXECINSTR); /* NOBITS in a separate debug file */
}

/* Append one raw name to the growing string block. 0 or -ENOMEM; *off is its offset. */
static int strs_add(char **strs, size_t *len, size_t *cap, const char *s, size_t *off)
{
	size_t n = strlen(s) + 1;
	char *grown;

	if (*len + n > *cap) {
		*cap = (*len + n) * 2;
		grown = realloc(*strs, *cap);
		if (!grown)
			return -ENOMEM;
		*strs = grown;
	}
	memcpy(*strs + *len, s, n);
	*off = *len;
	*len += n;
	return 0;
}

/* PLT stubs (plt.c) as symbols "name@plt", as perf names them; sized, local. */
struct plt_add {
	struct dso *d;
	size_t len, cap; /* of d->strs, which read_syms goes on filling */
};

static int plt_count(void *arg, uint64_t addr, uint64_t size, const char *name)
{
	(void)addr;
	(void)size;
	(void)name;
	++*(int *)arg;
	return 0;
}

static int plt_add(void *arg, uint64_t addr, uint64_t size, const char *name)
{
	struct plt_add *pa = arg;
	struct sym *s = &pa->d->syms[pa->d->nsyms];
	char buf[512];
	size_t off;
	int ret;

	if ((size_t)snprintf(buf, sizeof(buf), "%s@plt", name) >= sizeof(buf))
		return 0; /* no name that long is worth a cut copy */
	ret = strs_add(&pa->d->strs, &pa->len, &pa->cap, buf, &off);
	if (ret)
		return ret;
	pa->d->nsyms++;
	*s = (struct sym){ addr, addr + size, (const char *)(uintptr_t)off, NULL, 2 };
	return 0;
}

/*
 * Copy the function symbols and code labels (is_label()) of @mod, and the PLT stubs of its
 * file @file, into d->syms, with sizes; @mainbias turns dwfl's addresses into
 * module-relative ones. Zero-sized symbols
 * are bounded by the next symbol and their section here, so that a lookup only compares
 * with one end.
 */
static int read_syms(struct dso *d, Dwfl_Module *mod, Elf *file, GElf_Addr mainbias)
{
	struct plt_add pa = { d, 0, 0 };
	uint64_t cover = 0; /* end of the sized symbols so far */
	int n = dwfl_module_getsymtab(mod), ndx, ret = 0, nplt = 0;
	size_t off, i, out;
	GElf_Addr addr, bias;
	GElf_Word shndx;
	const char *name;
	struct sym *s;
	GElf_Sym sym;
	Elf *elf;

	rpt_plt_each(file, plt_count, &nplt);
	if (n <= 0 && !nplt)
		goto out;
	d->syms = calloc((n > 0 ? n : 0) + nplt, sizeof(*d->syms));
	if (!d->syms) {
		ret = -ENOMEM;
		goto out;
	}
	ret = rpt_plt_each(file, plt_add, &pa);
	if (ret)
		goto out;
	for (ndx = 1; ndx < n; ndx++) {
		name = dwfl_module_getsym_info(mod, ndx, &sym, &addr, &shndx, &elf, &bias);
		if (!name || !*name || shndx == SHN_UNDEF || shndx == (GElf_Word)-1 ||
		    shndx == SHN_ABS)
			continue;
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC && !is_label(&sym, elf, shndx))
			continue;
		ret = strs_add(&d->strs, &pa.len, &pa.cap, name, &off);
		if (ret)
			goto out;
		s = &d->syms[d->nsyms++];
		s->addr = addr - mainbias;
		/* end of the section until sorted, when zero-sized symbols need it */
		s->end = sym.st_size ? s->addr + sym.st_size
				     : section_end(elf, shndx, bias - mainbias);
		/* an offset for now: d->strs may still move */
		s->raw = (const char *)(uintptr_t)off;
		s->rank = sym_rank(&sym);
	}
	for (i = 0; i < d->nsyms; i++) /* the block has stopped moving */
		d->syms[i].raw = d->strs + (uintptr_t)d->syms[i].raw;
	util_qsort(d->syms, d->nsyms, sizeof(*d->syms), cmp_sym);
	for (i = 0, out = 0; i < d->nsyms; i++) {
		if (out && d->syms[out - 1].addr == d->syms[i].addr)
			continue;
		if (d->syms[i].rank < 4 && d->syms[i].end > cover)
			cover = d->syms[i].end;
		else if (d->syms[i].rank >= RANK_LABEL && d->syms[i].addr < cover)
			continue; /* a label inside a function: the function names it */
		d->syms[out++] = d->syms[i];
	}
	d->nsyms = out;
	for (i = 0; i < d->nsyms; i++) {
		s = &d->syms[i];
		if (s->rank >= 4 && i + 1 < d->nsyms && d->syms[i + 1].addr < s->end)
			s->end = d->syms[i + 1].addr;
	}
out:
	return ret;
}

static int read_segs(struct dso *d, Elf *elf)
{
	size_t phnum, i;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &phnum))
		return 0;
	d->segs = calloc(phnum ? phnum : 1, sizeof(*d->segs));
	if (!d->segs)
		return -ENOMEM;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[d->nsegs++] = (struct seg){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

/* Read the module @mod reported in @dwfl into @d, if it is the file @id (may be NULL)
 * describes. 0 (also when unreadable or another file) or -ENOMEM. */
static int read_module(struct dso *d, Dwfl *dwfl, Dwfl_Module *mod, const struct rpt_file_id *id)
{
	GElf_Addr mainbias = 0;
	bool changed = false;
	Elf *elf;
	int ret = 0;

	d->state = RPT_FILE_UNREADABLE;
	if (!mod || dwfl_report_end(dwfl, NULL, NULL))
		goto out;
	elf = dwfl_module_getelf(mod, &mainbias);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	if (id && id->build_id_len) {
		const unsigned char *bits;
		GElf_Addr vaddr;
		int n = dwfl_module_build_id(mod, &bits, &vaddr);

		changed = rpt_build_id_differs(bits, n, id);
	}
	if (changed) {
		d->state = RPT_FILE_CHANGED;
		goto out;
	}
	d->state = RPT_FILE_OK;
	ret = read_segs(d, elf);
	if (!ret)
		ret = read_syms(d, mod, elf, mainbias);
	if (!ret)
		d->readable = true;
out:
	return ret;
}

/* Read @file into @d, if it is the file @id (borrowed, may be NULL) describes; d->state
 * says what was found. 0 or -ENOMEM. */
static int load_file(struct rpt_symtab *st, struct dso *d, const char *file,
		     const struct rpt_file_id *id)
{
	Dwfl_Module *mod;
	struct stat sb;
	Dwfl *dwfl;
	int ret;

	if (stat(file, &sb)) {
		d->state = errno == ENOENT || errno == ENOTDIR ? RPT_FILE_MISSING
							       : RPT_FILE_UNREADABLE;
		return 0;
	}
	/* only regular files: a FIFO would block, a device may never end */
	if (!S_ISREG(sb.st_mode)) {
		d->state = RPT_FILE_UNREADABLE;
		return 0;
	}
	if (rpt_inode_differs(&sb, id)) {
		d->state = RPT_FILE_CHANGED;
		return 0;
	}
	dwfl = dwfl_begin(&rpt_dwfl_file_callbacks);
	if (!dwfl)
		return -ENOMEM;
	dwfl_report_begin(dwfl);
	/* base 0 with p_vaddr added: the module lies at its link-time addresses */
	mod = rpt_dwfl_report_elf(dwfl, st->loc, d->module, file, 0);
	ret = read_module(d, dwfl, mod, id);
	dwfl_end(dwfl);
	return ret;
}

/* ---- the vDSO ---- */

/* The size of the mapping that starts at @start, from /proc/self/maps; 0 if none. */
static size_t self_map_len(uintptr_t start)
{
	unsigned long lo, hi;
	size_t len = 0, cap = 0;
	char *line = NULL;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == start && hi > lo) {
			len = hi - lo;
			break;
		}
	}
	free(line);
	fclose(f);
	return len;
}

/*
 * The vDSO of this process, which is the one the profiled process had when collect
 * did not save it (same kernel, same machine). Read from a copy: libelf may write to
 * the image it parses, and the live one is read-only.
 */
static int load_own_vdso(struct dso *d)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR);
	struct rpt_dwfl_image img = { NULL, base ? self_map_len(base) : 0 };
	Dwfl_Module *mod;
	void **userdata;
	Dwfl *dwfl;
	int ret = 0;

	if (!img.len)
		goto out;
	ret = -ENOMEM;
	img.buf = malloc(img.len);
	if (!img.buf)
		goto out;
	memcpy(img.buf, (const void *)base, img.len);
	dwfl = dwfl_begin(&rpt_dwfl_image_callbacks);
	if (!dwfl)
		goto out;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_module(dwfl, VDSO_NAME, 0, img.len);
	if (mod && dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL))
		*userdata = &img;
	ret = read_module(d, dwfl, mod, NULL);
	dwfl_end(dwfl);
out:
	free(img.buf);
	return ret;
}

static int load_vdso(struct rpt_symtab *st, struct dso *d)
{
	char *file = NULL;
	int ret;

	if (st->vdso_set)
		return st->vdso_file ? load_file(st, d, st->vdso_file, NULL) : load_own_vdso(d);
	if (st->session_dir && asprintf(&file, "%s/vdso.so", st->session_dir) < 0)
		return -ENOMEM;
	if (file && !access(file, R_OK))
		ret = load_file(st, d, file, NULL);
	else
		ret = load_own_vdso(d);
	free(file);
	return ret;
}

/* ---- the module cache ---- */

void rpt_dso_free(struct dso *d)
{
	if (!d)
		return;
	free(d->path);
	free(d->file);
	free(d->segs);
	free(d->syms);
	free(d->strs);
	rpt_fdes_release(&d->fdes);
	rpt_perfmap_release(&d->map);
	free(d);
}

/* Is @path a file's name, that could be gone since collection? Not "//anon", "[heap]",
 * memfd or SysV memory, nor a file already deleted when it was mapped. */
bool rpt_dso_names_file(const char *path)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(path);

	return path[0] == '/' && path[1] != '/' && strncmp(path, "/memfd:", 7) &&
	       strncmp(path, "/SYSV", 5) &&
	       (len < sizeof(deleted) - 1 || strcmp(path + len - (sizeof(deleted) - 1), deleted));
}

struct dso *rpt_dso_new(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id,
			struct util_strmap *names)
{
	struct dso *d = calloc(1, sizeof(*d));
	const char *slash;
	int ret = -ENOMEM;

	if (!d)
		goto out;
	d->names = names;
	d->path = strdup(path);
	if (!d->path)
		goto out;
	slash = strrchr(d->path, '/');
	d->base = slash && slash[1] ? slash + 1 : d->path;
	if (!strcmp(path, VDSO_NAME)) {
		d->module = VDSO_NAME;
		ret = load_vdso(st, d);
	} else if (rpt_perfmap_is_path(path) || rpt_jitdump_is_path(path)) {
		/* a JIT's map or dump: one we may not read (another user's) names nothing */
		d->module = d->path;
		d->jit = d->fdes_read = true;
		ret = rpt_perfmap_is_path(path) ? rpt_perfmap_read(&d->map, path, st->owner)
						: rpt_jitdump_read(&d->map, NULL, path, st->owner);
		ret = ret == -ENOMEM ? -ENOMEM : 0;
	} else if (rpt_dso_names_file(path)) {
		struct rpt_located at;

		d->module = d->path;
		rpt_locate(st->loc, path, id, &at);
		d->state = at.state;
		d->found = at.how;
		d->file = at.file ? strdup(at.file) : NULL;
		/* checked against @id where it was found */
		ret = at.file && !d->file ? -ENOMEM : d->file ? load_file(st, d, d->file, NULL) : 0;
		if (!ret && d->state != RPT_FILE_OK && d->readable)
			d->state = RPT_FILE_OK; /* moved or rebuilt, and found */
	} else {
		d->module = d->path;
		ret = load_file(st, d, path, id);
		d->state = RPT_FILE_OK;
	}
	/* an unreadable file still gets its entry, so that it is tried only once */
out:
	if (ret) {
		rpt_dso_free(d);
		d = NULL;
	}
	return d;
}

static struct dso *dso_get(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id)
{
	struct dso *d = util_strmap_get(&st->dsos, path);

	if (d)
		return d;
	/* a file's symbols are the same for every report of its host that profiled it:
	 * read once for them all (a job's ranks); a JIT map is its process's own */
	if (st->share && rpt_dso_names_file(path) && !rpt_perfmap_is_path(path) &&
	    !rpt_jitdump_is_path(path))
		d = rpt_symshare_dso(st, path, id);
	else
		d = rpt_dso_new(st, path, id, &st->strs);
	if (d && util_strmap_put(&st->dsos, d->path, d)) {
		if (!d->shared)
			rpt_dso_free(d);
		d = NULL;
	}
	return d;
}

/* ---- lookups ---- */

static bool offset_to_vaddr(const struct dso *d, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < d->nsegs; i++) {
		if (off >= d->segs[i].off && off - d->segs[i].off < d->segs[i].filesz) {
			*vaddr = off - d->segs[i].off + d->segs[i].vaddr;
			return true;
		}
	}
	return false;
}

static struct sym *sym_find(struct dso *d, uint64_t vaddr)
{
	size_t lo = 0, hi = d->nsyms, mid, i;

	while (lo < hi) { /* first symbol above vaddr */
		mid = lo + (hi - lo) / 2;
		if (d->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the nearest symbol may be nested in (or follow) a bigger one that holds vaddr */
	for (i = lo; i > 0 && lo - i < MAX_NESTED; i--)
		if (vaddr < d->syms[i - 1].end)
			return &d->syms[i - 1];
	return NULL;
}

/*
 * Read the FDEs of @d's file, if it is still the file @id (borrowed, may be NULL)
 * describes. The module was read and checked once already, but its libdwfl handle is
 * closed: the file is opened again, only for modules with an address no symbol covers.
 * Not for the vDSO (whose symbols cover its code) nor names of no file. Failure leaves
 * no FDEs.
 */
static void read_fdes(struct dso *d, const struct rpt_file_id *id)
{
	struct stat sb;
	Elf *elf = NULL;
	int fd;

	d->fdes_read = true;
	if (!rpt_dso_names_file(d->path) || !d->file)
		return;
	if (d->found != RPT_FOUND_PATH)
		id = NULL; /* found elsewhere: checked by its build id there */
	fd = open(d->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode))
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !rpt_file_id_differs(elf, &sb, id) &&
	    rpt_fdes_read(&d->fdes, elf))
		rpt_fdes_release(&d->fdes); /* out of memory: per-address names */
	elf_end(elf);
	close(fd);
}

/* The FDE of the function that holds @vaddr, for an address no symbol covers. */
static const struct rpt_fde *fde_find(struct dso *d, const struct rpt_file_id *id, uint64_t vaddr)
{
	if (!d->fdes_read)
		read_fdes(d, id);
	return rpt_fdes_find(&d->fdes, vaddr);
}

static const char *sym_name(struct dso *d, struct sym *s)
{
	char *demangled = NULL, *bare = NULL, *plt = NULL;
	const char *raw = s->raw, *at;
	int status = -1;
	bool stub;

	if (s->name)
		return s->name;
	/* .dynsym names carry their symbol version ("clock_gettime@@GLIBC_2.17"); users
	 * (and perf) call the function by its name. A PLT stub keeps its "@plt" after the
	 * (demangled) name of the function it jumps to. */
	at = strchr(raw, '@');
	stub = at && !strcmp(at, "@plt");
	if (at && at != raw) {
		bare = strndup(raw, (size_t)(at - raw));
		if (bare)
			raw = bare;
	}
	if (!strncmp(raw, "_Z", 2))
		demangled = __cxa_demangle(raw, NULL, NULL, &status);
	if (status == 0 && demangled)
		raw = demangled;
	if (stub && asprintf(&plt, "%s@plt", raw) > 0)
		raw = plt;
	s->name = util_strmap_intern(d->names, stub && !plt ? s->raw : raw);
	free(plt);
	free(demangled);
	free(bare);
	/* out of memory: the raw name still lives as long as the symtab */
	return s->name ? s->name : s->raw;
}

static const char *unresolved_name(struct rpt_symtab *st, const char *base, uint64_t addr)
{
	char stackbuf[256], *buf = stackbuf;
	const char *name = NULL;
	int n;

	n = snprintf(buf, sizeof(stackbuf), "%s!0x%" PRIx64, base, addr);
	if (n >= (int)sizeof(stackbuf) && asprintf(&buf, "%s!0x%" PRIx64, base, addr) < 0)
		buf = NULL;
	if (n >= 0 && buf)
		name = intern(st, buf);
	if (buf != stackbuf)
		free(buf);
	return name ? name : OOM_NAME;
}

void rpt_symtab_lookup(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id,
		       uint64_t file_offset, struct rpt_sym *out)
{
	struct dso *d = dso_get(st, path, id);
	const struct rpt_fde *fde = NULL;
	uint64_t addr = file_offset;
	struct sym *s = NULL;

	*out = (struct rpt_sym){ .name = OOM_NAME, .module = OOM_NAME };
	if (!d)
		return;
	out->module = d->module;
	if (d->jit) {
		const struct rpt_perfmap_sym *js = rpt_perfmap_find(&d->map, file_offset);

		out->name = js ? intern(st, js->name) : NULL;
		out->sym_addr = js ? js->start : 0;
		out->resolved = out->name != NULL;
		if (!out->name)
			out->name = unresolved_name(st, d->base, file_offset);
		return;
	}
	/* the label is the vaddr when the file told us one, else the offset */
	if (d->readable && offset_to_vaddr(d, file_offset, &addr)) {
		s = sym_find(d, addr);
		if (!s)
			fde = fde_find(d, id, addr);
	}
	if (s) {
		out->name = sym_name(d, s);
		out->sym_addr = s->addr;
		out->resolved = true;
	} else if (fde) {
		/* no name, but the function is known: one row for all its addresses */
		out->name = unresolved_name(st, d->base, fde->start);
		out->sym_addr = fde->start;
	} else {
		out->name = unresolved_name(st, d->base, addr);
	}
}

enum rpt_file_state rpt_symtab_file_state(const struct rpt_symtab *st, const char *path)
{
	const struct dso *d = util_strmap_get(&st->dsos, path);

	return d ? d->state : RPT_FILE_OK;
}

int rpt_symtab_file_found(const struct rpt_symtab *st, const char *path)
{
	const struct dso *d = util_strmap_get(&st->dsos, path);

	return d && d->readable ? (int)d->found : 0;
}

void rpt_symtab_set_locator(struct rpt_symtab *st, struct rpt_locator *loc)
{
	if (st->own_loc)
		rpt_locator_free(st->loc);
	st->loc = loc;
	st->own_loc = false;
}

void rpt_symtab_lookup_kernel(struct rpt_symtab *st, uint64_t addr, struct rpt_sym *out)
{
	const struct rpt_ksym *k;

	*out = (struct rpt_sym){ .module = KERNEL_NAME };
	/* read on first use: most reports of user-only profiles never need it */
	if (!st->ksyms_loaded) {
		st->ksyms_loaded = true;
		/* an unreadable list just leaves every kernel address unresolved; a shared
		 * one was read by the first report that needed it (NULL: out of memory) */
		if (st->share)
			st->kshared = rpt_symshare_ksyms(st->share, st->kallsyms_path);
		else
			rpt_ksyms_load(&st->ksyms, st->kallsyms_path);
	}
	k = rpt_ksyms_find(st->kshared ? st->kshared : &st->ksyms, addr);
	if (k) {
		out->name = k->name;
		out->sym_addr = k->addr;
		out->resolved = true;
	} else {
		out->name = unresolved_name(st, KERNEL_NAME, addr);
	}
}

/* ---- lifetime ---- */

struct rpt_symtab *rpt_symtab_new(const char *session_dir, const char *kallsyms)
{
	struct rpt_symtab *st = calloc(1, sizeof(*st));
	struct stat sb;

	if (!st)
		goto out;
	elf_version(EV_CURRENT);
	st->kallsyms_path = strdup(kallsyms ? kallsyms : KALLSYMS_DEFAULT);
	st->session_dir = session_dir ? strdup(session_dir) : NULL;
	st->owner = session_dir && !stat(session_dir, &sb) ? sb.st_uid : geteuid();
	/* until rpt_symtab_set_locator: files at their recorded paths only */
	st->loc = rpt_locator_new(NULL);
	st->own_loc = true;
	if (!st->kallsyms_path || (session_dir && !st->session_dir) || !st->loc) {
		rpt_symtab_free(st);
		st = NULL;
	}
out:
	return st;
}

int rpt_symtab_set_vdso(struct rpt_symtab *st, const char *vdso_file, uid_t owner)
{
	free(st->vdso_file);
	st->vdso_file = vdso_file ? strdup(vdso_file) : NULL;
	st->vdso_set = true;
	st->owner = owner;
	return vdso_file && !st->vdso_file ? -ENOMEM : 0;
}

void rpt_symtab_free(struct rpt_symtab *st)
{
	if (!st)
		return;
	util_strmap_for_each(&st->dsos, e) if (!((struct dso *)e->val)->shared)
		rpt_dso_free(e->val);
	util_strmap_release(&st->dsos);
	util_strmap_release(&st->strs);
	rpt_ksyms_release(&st->ksyms);
	if (st->own_loc)
		rpt_locator_free(st->loc);
	free(st->session_dir);
	free(st->vdso_file);
	free(st->kallsyms_path);
	free(st->host);
	free(st);
}

bool rpt_symtab_unresolved(const char *name)
{
	const char *bang;

	if (!strcmp(name, OOM_NAME))
		return true;
	bang = strrchr(name, '!'); /* unresolved_name(): "<module>!0x<hex>" */
	if (!bang || strncmp(bang, "!0x", 3) || !bang[3])
		return false;
	return strspn(bang + 3, "0123456789abcdef") == strlen(bang + 3);
}
