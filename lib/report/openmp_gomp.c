// SPDX-License-Identifier: MIT
/*
 * gcc's calls into the runtime, told apart by the entry point they call. gcc lowers
 * "parallel sections" to GOMP_parallel_sections(fn, ..., count, ...), or to GOMP_parallel
 * of an outlined function that calls GOMP_sections_start(count) (gcc 11 at -O1); LLVM's
 * libomp, which runs gcc's code through its GOMP shim (--openmp-impl omplib), starts the
 * sections as a dynamic loop of `count` iterations, and its OMPT work callback says a loop
 * (ompt_work_loop, with no code address), so the region looked like a parallel for of
 * one iteration per section. What the region's call, or its outlined function, calls
 * through the PLT (or the GOT, with -fno-plt) names the construct.
 */
#include "report/internal.h"
#include "openmp/openmp.h"

#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* @n bytes at link-time address @addr of @elf's executable sections, or NULL. */
static const unsigned char *code_at(Elf *elf, GElf_Addr addr, size_t n)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_PROGBITS &&
		    (sh.sh_flags & SHF_EXECINSTR) && addr >= sh.sh_addr &&
		    addr - sh.sh_addr + n <= sh.sh_size)
			break;
	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_buf ||
	    addr - sh.sh_addr + n > data->d_size)
		return NULL;
	return (const unsigned char *)data->d_buf + (addr - sh.sh_addr);
}

/* The symbol a dynamic relocation at GOT slot @got binds (its name into @name), or false. */
static bool got_symbol(Elf *elf, GElf_Addr got, char *name, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, symsh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *rel, *syms;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !(symscn = elf_getscn(elf, sh.sh_link)) || !gelf_getshdr(symscn, &symsh) ||
		    !(rel = elf_getdata(scn, NULL)) || !(syms = elf_getdata(symscn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;
			const char *s;

			if (!gelf_getrela(rel, (int)i, &r) || r.r_offset != got ||
			    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
			    !(s = elf_strptr(elf, symsh.sh_link, sym.st_name)))
				continue;
			snprintf(name, len, "%s", s);
			return true;
		}
	}
	return false;
}

bool rpt_omp_gomp_callee(Elf *elf, uint64_t ret, char *name, size_t len)
{
	const unsigned char *c = ret >= 6 ? code_at(elf, ret - 6, 6) : NULL, *plt;
	GElf_Addr target, at;
	int32_t disp;

	if (!c)
		return false;
	if (c[0] == 0xff && c[1] == 0x15) { /* -fno-plt: call *slot(%rip) */
		memcpy(&disp, c + 2, 4);
		return got_symbol(elf, ret + (GElf_Addr)(int64_t)disp, name, len);
	}
	if (c[1] != 0xe8) /* call rel32 */
		return false;
	memcpy(&disp, c + 2, 4);
	target = ret + (GElf_Addr)(int64_t)disp;
	/* the PLT entry: jmp *slot(%rip), after an endbr64 and a bnd prefix (.plt.sec) */
	if (!(plt = code_at(elf, target, 11)))
		return false;
	at = 0;
	if (plt[0] == 0xf3 && plt[1] == 0x0f && plt[2] == 0x1e && plt[3] == 0xfa)
		at = 4;
	if (plt[at] == 0xf2)
		at++;
	if (plt[at] != 0xff || plt[at + 1] != 0x25)
		return false;
	memcpy(&disp, plt + at + 2, 4);
	return got_symbol(elf, target + at + 6 + (GElf_Addr)(int64_t)disp, name, len);
}

bool rpt_omp_gomp_calls(struct Elf *elf, uint64_t fn, uint64_t size, const char *prefix)
{
	const unsigned char *c = size >= 5 && size < (1 << 20) ? code_at(elf, fn, size) : NULL;
	char name[64];

	/* every e8 in the function taken for a call: one that is not reaches no PLT entry */
	for (uint64_t i = 0; c && i + 5 <= size; i++)
		if (c[i] == 0xe8 && rpt_omp_gomp_callee(elf, fn + i + 5, name, sizeof(name)) &&
		    !strncmp(name, prefix, strlen(prefix)))
			return true;
	return false;
}

static void no_loops(uint64_t *f)
{
	static const int loop_fields[] = { SES_OMPT_F_LOOPS,	 SES_OMPT_F_LOOP_ITERS,
					   SES_OMPT_F_LOOP_KIND, SES_OMPT_F_WS_LOOPS,
					   SES_OMPT_F_WS_ITERS,	 SES_OMPT_F_WS_SCHEDS };

	for (size_t i = 0; i < sizeof(loop_fields) / sizeof(loop_fields[0]); i++)
		f[loop_fields[i]] = 0;
}

/* Is loop site @l the shim's loop of gcc's sections: every region it ran in one? (gcc's
 * sections loops have no code address: one site for all of them.) */
static bool sections_loop(const struct rpt_omp_proc *p, const struct rpt_omp_site *l)
{
	bool any = false;

	for (int k = 0; l->kind == SES_OMPT_SITE_LOOP && k < l->nthreads; k++) {
		uint64_t id = l->threads[k].f[SES_OMPT_F_LOOP_REGION];
		const struct rpt_omp_site *r = id && id <= UINT32_MAX
						       ? rpt_omp_site_by_id(p, (uint32_t)id)
						       : NULL;

		if (!r || !r->gomp_sections)
			return false;
		any = true;
	}
	return any;
}

/* Does a loop of a real code address (a loop of the user's) run in region @r? */
static bool user_loop_in(const struct rpt_omp_proc *p, const struct rpt_omp_site *r)
{
	for (int i = 0; i < p->nsites; i++) {
		const struct rpt_omp_site *l = &p->sites[i];

		if (l->kind != SES_OMPT_SITE_LOOP || !(l->code & SES_OMPT_SITE_ADDR_MASK))
			continue;
		for (int k = 0; k < l->nthreads; k++)
			if (l->threads[k].f[SES_OMPT_F_LOOP_REGION] == r->id)
				return true;
	}
	return false;
}

void rpt_omp_gomp_sections(struct rpt_omp_proc *p)
{
	int n = 0;

	/* a region of sections and loops of the user's keeps its figures: they mix */
	for (int i = 0; i < p->nsites; i++)
		if (p->sites[i].gomp_sections && user_loop_in(p, &p->sites[i]))
			p->sites[i].gomp_sections = false;
	for (int i = 0; i < p->nsites; i++) {
		if (sections_loop(p, &p->sites[i]))
			p->sites[i].kind = 0; /* dropped below, once all are looked at */
	}
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];

		if (s->kind == SES_OMPT_SITE_PARALLEL && s->gomp_sections) {
			no_loops(s->f);
			for (int k = 0; k < s->nthreads; k++)
				no_loops(s->threads[k].f);
		}
		if (!s->kind) {
			free(s->threads);
			continue;
		}
		p->sites[n++] = *s;
	}
	p->nsites = n;
}

/*
 * gcc's host teams: GOMP_teams_reg(fn, ...) in the user's code, and libomp's shim forks
 * the league itself, so the teams construct's code address is inside libomp (no line,
 * "GOMP_teams_reg@unknown"). The regions its teams ran are called from the teams'
 * outlined function "<f>._omp_fn.<n>", whose entry gcc gives the teams pragma's line:
 * the league is named from a region it encloses, that function's line and file.
 */
void rpt_omp_gomp_leagues(struct rpt *r, struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];

		if (!s->teams || s->line > 0)
			continue;
		for (int j = 0; j < p->nsites; j++) {
			const struct rpt_omp_site *c = &p->sites[j];
			const struct rpt_map *m;
			char src[PATH_MAX] = "";
			const char *base;
			int line;

			if (c->kind != SES_OMPT_SITE_PARALLEL || !c->nested ||
			    c->parent_id != s->id || c->line <= 0 || c->code <= 1 ||
			    !(m = rpt_world_find_map(&r->world, p->pid, c->code - 1)))
				continue;
			line = rpt_omp_source_outlined_line(r->world.modules[m->module].path,
							    c->code - 1 - m->start + m->pgoff, src,
							    sizeof(src));
			if (line <= 0)
				continue;
			base = strrchr(src, '/');
			snprintf(s->func, sizeof(s->func), "%s", c->func);
			snprintf(s->file, sizeof(s->file), "%s", base ? base + 1 : src);
			s->line = line;
			s->line_exact = true;
			break;
		}
	}
}
