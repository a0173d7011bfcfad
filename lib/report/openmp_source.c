// SPDX-License-Identifier: MIT
/*
 * Where an OpenMP site is in the source (openmp.c names the sites): the line the DWARF
 * line table gives the code before its return address, moved to the construct's pragma
 * where compilers give the call another line (pragma_line says which), and a function
 * name without the compiler's outlining where no DWARF names the function.
 */
#include "report/internal.h"
#include "symbols/symbols.h"
#include "openmp/openmp.h"

#include <dwarf.h>
#include <gelf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unit of @mod's DWARF that holds @addr, found by walking the units: clang emits no
 * .debug_aranges, and libdw 0.188's lookup (dwfl_module_getsrc) relies on them. */
static bool unit_of(Dwfl_Module *mod, GElf_Addr addr, Dwarf_Die *cu, Dwarf_Addr *bias)
{
	Dwarf *dw = dwfl_module_getdwarf(mod, bias);
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!dw)
		return false;
	for (int n = 0; n < 100000 && !dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL);
	     n++, off = next)
		if (dwarf_offdie(dw, off + hsize, cu) && dwarf_haspc(cu, addr - *bias) > 0)
			return true;
	return false;
}

static const char *line_at(Dwfl_Module *mod, GElf_Addr addr, int *line)
{
	Dwfl_Line *l = dwfl_module_getsrc(mod, addr);
	Dwarf_Addr bias = 0;
	Dwarf_Line *dl;
	Dwarf_Die cu;

	*line = 0;
	if (l)
		return dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
	if (!unit_of(mod, addr, &cu, &bias) || !(dl = dwarf_getsrc_die(&cu, addr - bias)) ||
	    dwarf_lineno(dl, line))
		return NULL;
	return dwarf_linesrc(dl, NULL, NULL);
}

/* Where the line table puts a site's code: its line, or for code of line 0 the nearest
 * line before it (not exact) and the next line after it in the same file (0: none). */
struct code_line {
	int line, next;
	bool exact;
	bool gomp_sections; /* the call is gcc's GOMP_parallel_sections */
};

/* The source line of @vaddr in @mod, or the nearest one at most @most bytes before it (a
 * line 0) and the first at most @most bytes after it. */
static void line_of(Dwfl_Module *mod, GElf_Addr addr, char *file, size_t flen, GElf_Addr most,
		    struct code_line *cl)
{
	for (GElf_Addr back = 0; back < most && back <= addr && !cl->line; back++) {
		int line = 0;
		const char *src = line_at(mod, addr - back, &line);

		if (src && line > 0) {
			snprintf(file, flen, "%s", src);
			cl->line = line;
			cl->exact = back == 0;
		}
	}
	for (GElf_Addr fwd = 1; cl->line && !cl->exact && fwd < most; fwd++) {
		int line = 0;
		const char *src = line_at(mod, addr + fwd, &line);

		if (src && line > 0) {
			cl->next = strcmp(src, file) ? 0 : line;
			break;
		}
	}
}

/* Is @vaddr of @mod the start of one of gcc's outlined functions ("<f>._omp_fn.<n>")? */
static bool gcc_omp_fn(Dwfl_Module *mod, GElf_Addr vaddr)
{
	GElf_Off offset = 1;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(mod, vaddr, &offset, &sym, NULL, NULL, NULL);

	return name && offset == 0 && strstr(name, "._omp_fn.");
}

/*
 * gcc passes a region's outlined function "<f>._omp_fn.<n>" to the runtime (GOMP_parallel,
 * GOMP_parallel_loop_*, GOMP_parallel_sections) in %rdi, set by a "lea disp32(%rip),%rdi"
 * (48 8d 3d) or, in code that is not position independent, a "mov $imm32,%edi" (bf) a few
 * instructions before the call that ends at @ret: that function (checked by its symbol),
 * or 0. It identifies the region where the line table does not: gcc -O2 gives two calls
 * of two regions the first one's line.
 */
#define OUTLINED_SCAN 64
static GElf_Addr gcc_outlined(Dwfl_Module *mod, Elf *elf, GElf_Addr bias, GElf_Addr ret)
{
	GElf_Addr start = ret > OUTLINED_SCAN ? ret - OUTLINED_SCAN : 0, link = start - bias;
	size_t n = (size_t)(ret - start);
	const unsigned char *code;
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && link >= sh.sh_addr &&
		    link - sh.sh_addr + n <= sh.sh_size)
			break;
	if (!scn || n < 10 || !(data = elf_getdata(scn, NULL)) || !data->d_buf ||
	    link - sh.sh_addr + n > data->d_size)
		return 0;
	code = (const unsigned char *)data->d_buf + (link - sh.sh_addr);
	/* the closest before the call (its 5 bytes: e8 rel32) first */
	for (size_t i = n - 5; i-- > 0;) {
		GElf_Addr target = 0;
		int32_t disp;
		uint32_t imm;

		if (i + 7 <= n - 5 && code[i] == 0x48 && code[i + 1] == 0x8d &&
		    code[i + 2] == 0x3d) {
			memcpy(&disp, code + i + 3, 4);
			target = start + i + 7 + (GElf_Addr)(int64_t)disp;
		} else if (i + 5 <= n - 5 && code[i] == 0xbf) {
			memcpy(&imm, code + i + 1, 4);
			target = imm + bias;
		}
		if (target && gcc_omp_fn(mod, target))
			return target;
	}
	return 0;
}

/* Is the gcc region whose runtime call returns to @ret, of outlined function @fn, a
 * "parallel sections" (openmp_gomp.c)? */
static bool gcc_sections(Dwfl_Module *mod, Elf *elf, GElf_Addr bias, GElf_Addr ret, GElf_Addr fn)
{
	GElf_Off offset = 1;
	GElf_Sym sym;
	char callee[64];

	if (rpt_omp_gomp_callee(elf, ret - bias, callee, sizeof(callee)) &&
	    !strcmp(callee, "GOMP_parallel_sections"))
		return true;
	return dwfl_module_addrinfo(mod, fn, &offset, &sym, NULL, NULL, NULL) && offset == 0 &&
	       (rpt_omp_gomp_calls(elf, fn - bias, sym.st_size, "GOMP_sections_start") ||
		rpt_omp_gomp_calls(elf, fn - bias, sym.st_size, "GOMP_sections2_start"));
}

/* The line of the first row of the line table at @addr of @mod (gcc gives an outlined
 * function's entry its pragma's line first, then its body's at the same address, and
 * dwfl_module_getsrc takes the last), its file into @file; 0 when none. */
static int entry_line(Dwfl_Module *mod, GElf_Addr addr, char *file, size_t flen)
{
	Dwarf_Addr bias = 0, at;
	Dwarf_Lines *lines;
	Dwarf_Line *l;
	Dwarf_Die cu;
	const char *src;
	size_t n;
	int line;

	if (!unit_of(mod, addr, &cu, &bias) || dwarf_getsrclines(&cu, &lines, &n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((l = dwarf_onesrcline(lines, i)) && !dwarf_lineaddr(l, &at) &&
		    at == addr - bias && !dwarf_lineno(l, &line) && line > 0 &&
		    (src = dwarf_linesrc(l, NULL, NULL))) {
			snprintf(file, flen, "%s", src);
			return line;
		}
	return 0;
}

/* file:line of @file_offset in the ELF file @path, from its DWARF (0 when not known; a
 * line 0 looked around at most @most bytes). With @parallel, a call to gcc's runtime is
 * placed by the outlined function it was given (*@outlined, its link-time address; 0:
 * none found): the line of its entry. */
static void srcline(const char *path, uint64_t file_offset, char *file, size_t flen, GElf_Addr most,
		    bool parallel, struct code_line *cl, uint64_t *outlined)
{
	Dwfl *d = dwfl_begin(&rpt_dwfl_file_callbacks);
	Dwfl_Module *mod;
	GElf_Addr bias = 0, va, fn;
	GElf_Phdr ph;
	size_t phnum;
	Elf *elf;

	memset(cl, 0, sizeof(*cl));
	*outlined = 0;
	if (!d)
		return;
	dwfl_report_begin(d);
	mod = dwfl_report_elf(d, path, path, -1, 0, true);
	if (dwfl_report_end(d, NULL, NULL) || !mod || !(elf = dwfl_module_getelf(mod, &bias)) ||
	    elf_getphdrnum(elf, &phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    file_offset < ph.p_offset || file_offset - ph.p_offset >= ph.p_filesz)
			continue;
		va = file_offset - ph.p_offset + ph.p_vaddr + bias;
		if (parallel && (fn = gcc_outlined(mod, elf, bias, va + 1)))
			cl->gomp_sections = gcc_sections(mod, elf, bias, va + 1, fn);
		if (parallel && fn && (cl->line = entry_line(mod, fn, file, flen))) {
			cl->exact = true;
			*outlined = fn - bias;
		}
		if (!cl->line)
			line_of(mod, va, file, flen, most, cl);
		break;
	}
out:
	dwfl_end(d);
}

/* Is @p (a pragma's text after "#pragma omp ") the construct of site @s? A target site's
 * kind says which target directive: "target data" begins (enter) and ends (exit) a data
 * region; a plain target ("target teams ...") is none of the data directives. With
 * @standalone, an exit is only "target exit data". */
static bool pragma_is(const char *p, const struct rpt_omp_site *s, bool standalone)
{
	static const char *const data_words[] = { "enter", "exit", "update", "data" };
	uint16_t tk = s->tgt ? s->tgt->kind & (uint16_t)~SES_OMPT_TGT_NOWAIT : 0;
	const char *w;

	switch (s->kind) {
	case SES_OMPT_SITE_PARALLEL:
		return strstr(p, s->teams ? "teams" : "parallel");
	case SES_OMPT_SITE_CRITICAL:
		return strstr(p, "critical");
	case SES_OMPT_SITE_LOOP:
		return strstr(p, "for");
	case SES_OMPT_SITE_TASKLOOP:
		return strstr(p, "taskloop");
	case SES_OMPT_SITE_TARGET:
		break;
	default:
		return false;
	}
	if (strncmp(p, "target", 6) || (p[6] != ' ' && p[6] != '\t' && p[6] != '\n'))
		return false;
	for (w = p + 6; *w == ' ' || *w == '\t';)
		w++;
	switch (tk) {
	case SES_OMPT_TGT_ENTER_DATA:
		return !strncmp(w, "enter data", 10) || !strncmp(w, "data", 4);
	case SES_OMPT_TGT_EXIT_DATA:
		return !strncmp(w, "exit data", 9) || (!standalone && !strncmp(w, "data", 4));
	case SES_OMPT_TGT_UPDATE:
		return !strncmp(w, "update", 6);
	case SES_OMPT_TGT_REGION:
		for (size_t i = 0; i < sizeof(data_words) / sizeof(data_words[0]); i++)
			if (!strncmp(w, data_words[i], strlen(data_words[i])))
				return false;
		return true;
	default:
		return true; /* no instance told the kind: any target directive */
	}
}

/* Is line @text a pragma of site @s's construct? */
static bool line_is(const char *text, const struct rpt_omp_site *s, bool standalone)
{
	while (*text == ' ' || *text == '\t')
		text++;
	return !strncmp(text, "#pragma omp ", 12) && pragma_is(text + 12, s, standalone);
}

/*
 * gcc gives the runtime call of a construct (and the outlined function) the line of the
 * statement or brace before the pragma, clang the pragma's own. clang 19 gives the launch
 * of a target region and the ends of "target data" regions line 0: between the line
 * before and the line after it is the last such pragma (for an exit, "target exit
 * data"); the end of a "target data" region, when none is, is the nearest "target data"
 * before. Otherwise, when the source is there and line @cl->line is not site @s's
 * pragma, the first such pragma in the next lines is taken (a lock call is its own line:
 * only parallel, critical and target sites move).
 */
#define PRAGMA_LOOKAHEAD 16
#define PRAGMA_LOOKBACK 256
static int pragma_line(const char *src, const struct code_line *cl, const struct rpt_omp_site *s)
{
	typedef char text_line[256];
	int line = cl->line, got = line, n = 0, have = 0;
	int first = line > PRAGMA_LOOKBACK ? line - PRAGMA_LOOKBACK + 1 : 1;
	int last = line + PRAGMA_LOOKAHEAD - 1 > cl->next ? line + PRAGMA_LOOKAHEAD - 1 : cl->next;
	bool exit_data = s->kind == SES_OMPT_SITE_TARGET && s->tgt &&
			 (s->tgt->kind & (uint16_t)~SES_OMPT_TGT_NOWAIT) == SES_OMPT_TGT_EXIT_DATA;
	text_line *text;
	char buf[512];
	bool line_start = true;
	FILE *f;

	if (line <= 0 || last - first > 4096 || !(f = fopen(src, "re")))
		return line;
	text = malloc(sizeof(*text) * (size_t)(last - first + 1));
	/* lines [first, last] kept, each its first 255 bytes (a longer line is read in
	 * pieces: one line still) */
	while (text && n < last && fgets(buf, sizeof(buf), f)) {
		if (line_start && ++n >= first)
			snprintf(text[have++], sizeof(text[0]), "%s", buf);
		line_start = strchr(buf, '\n') != NULL;
	}
	fclose(f);
	/* a file shorter than @line is not the source compiled */
	if (!text || line - first >= have)
		goto out;
	for (int i = cl->next - first; !cl->exact && cl->next > line && i >= line - first; i--)
		if (i < have && line_is(text[i], s, exit_data)) {
			got = first + i;
			goto out;
		}
	if (line_is(text[line - first], s, false))
		goto out;
	/* gcc gives a loop's dispatch call the line of its for statement, the pragma's next */
	if (s->kind == SES_OMPT_SITE_LOOP && line > first &&
	    line_is(text[line - first - 1], s, false)) {
		got = line - 1;
		goto out;
	}
	/* the end of a data region is after its block, the pragma before it */
	for (int i = line - first - 1; exit_data && i >= 0; i--)
		if (line_is(text[i], s, false)) {
			got = first + i;
			goto out;
		}
	for (int i = line - first + 1; i < have && i <= line - first + PRAGMA_LOOKAHEAD - 1; i++)
		if (line_is(text[i], s, exit_data)) {
			got = first + i;
			break;
		}
out:
	free(text);
	return got;
}

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* clang names a target region's function "__omp_offloading_<device>_<file>_<function>_l<line>"
 * (its outlined bodies after it: "..._l<line>_debug__.omp_outlined"), <function> the
 * (mangled) function the target construct is in: into @func, demangled. */
static bool offload_function(char *func, size_t flen)
{
	const char *p = func + 17, *end = NULL;
	char host[192], *dem = NULL;
	int status = -1;

	if (strncmp(func, "__omp_offloading_", 17))
		return false;
	for (int k = 0; k < 2; k++) {
		p += strspn(p, "0123456789abcdef");
		if (*p++ != '_')
			return false;
	}
	for (const char *q = p; (q = strstr(q, "_l")); q++)
		if (q[2] >= '0' && q[2] <= '9')
			end = q; /* the last: a function's own name may have "_l1" in it */
	if (!end || end == p || end - p >= (ptrdiff_t)sizeof(host))
		return false;
	memcpy(host, p, (size_t)(end - p));
	host[end - p] = 0;
	if (!strncmp(host, "_Z", 2))
		dem = __cxa_demangle(host, NULL, NULL, &status);
	snprintf(func, flen, "%s", status == 0 && dem ? dem : host);
	free(dem);
	return true;
}

/* A symbol's name without the compiler's outlining, where there is no DWARF to name the
 * function: gcc's "<f>._omp_fn.<n>" and its demangled form "<f> [clone ._omp_fn.<n>]",
 * clang's offloaded target regions. */
void rpt_omp_unoutline(char *func, size_t flen)
{
	char *c = strstr(func, " [clone ._omp_fn.");

	if (!c)
		c = strstr(func, "._omp_fn.");
	if (c)
		*c = 0;
	else
		offload_function(func, flen);
}

int rpt_omp_source_outlined_line(const char *path, uint64_t file_offset, char *src, size_t srclen)
{
	Dwfl *d = dwfl_begin(&rpt_dwfl_file_callbacks);
	Dwfl_Module *mod;
	GElf_Addr bias = 0;
	GElf_Off offset = 0;
	GElf_Phdr ph;
	GElf_Sym sym;
	size_t phnum;
	const char *name;
	Elf *elf;
	int line = 0;

	if (!d)
		return 0;
	dwfl_report_begin(d);
	mod = dwfl_report_elf(d, path, path, -1, 0, true);
	if (dwfl_report_end(d, NULL, NULL) || !mod || !(elf = dwfl_module_getelf(mod, &bias)) ||
	    elf_getphdrnum(elf, &phnum))
		goto out;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Addr va;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    file_offset < ph.p_offset || file_offset - ph.p_offset >= ph.p_filesz)
			continue;
		va = file_offset - ph.p_offset + ph.p_vaddr + bias;
		name = dwfl_module_addrinfo(mod, va, &offset, &sym, NULL, NULL, NULL);
		if (name && strstr(name, "._omp_fn."))
			line = entry_line(mod, va - offset, src, srclen);
		break;
	}
out:
	dwfl_end(d);
	return line;
}

void rpt_omp_source_locate(const char *path, uint64_t file_offset, struct rpt_omp_site *s,
			   char *src, size_t srclen)
{
	struct code_line cl;

	/* clang 19 gives a target construct's whole launch sequence line 0 (about 200
	 * bytes): the lines around it, then its pragma among them (pragma_line) */
	srcline(path, file_offset, src, srclen, s->kind == SES_OMPT_SITE_TARGET ? 1024 : 16,
		s->kind == SES_OMPT_SITE_PARALLEL, &cl, &s->outlined);
	s->line = cl.line;
	if (s->kind == SES_OMPT_SITE_PARALLEL || s->kind == SES_OMPT_SITE_CRITICAL ||
	    s->kind == SES_OMPT_SITE_TARGET || s->kind == SES_OMPT_SITE_LOOP ||
	    s->kind == SES_OMPT_SITE_TASKLOOP)
		s->line = pragma_line(src, &cl, s);
	s->line_exact = cl.exact && s->line == cl.line;
	s->gomp_sections = cl.gomp_sections;
}
