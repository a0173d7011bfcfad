// SPDX-License-Identifier: MIT
/*
 * Function Detail Data: for the chosen functions (named, or the hottest), the samples of
 * each instruction (the samples' own IPs, never callchain frames) and of each source
 * line (DWARF's line table through inline.c, so that inlined code counts on the inlined
 * function's own lines), the function's code disassembled (lib/annotate), and the source
 * text (annot_src.c). Built once by rpt_open() with opts.annotate; read by the CSV
 * writer and, through rpt_annots(), by `uprof annotate`.
 */
#include "annotate/annotate.h"
#include "report/internal.h"
#include "report/stacks.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FUNCS 1000	 /* details kept at most (--cutoff 0 of a huge profile) */
#define MAX_SRCFILES 256 /* source files kept read */

/* One function's build state: its sampled offsets, then its view. */
struct afunc {
	int func;
	struct {
		uint64_t off, samples;
	} * hits;
	size_t nhits, caphits;
	struct rpt_annot_insn *insns;
	struct rpt_annot_line *lines;
	size_t *hottest;
};

struct srcent {
	const char *name; /* interned DWARF name */
	bool found;
	struct rpt_srcfile text;
};

struct rpt_annots {
	struct rpt_annot *views;
	struct afunc *af;
	int n;
	const char **unmatched;
	int nunmatched;
	struct rpt_strpool pool; /* file names and messages */
	struct srcent *src;
	int nsrc;
};

/* Is @name (a report function name) what the user named @want? Whole, or the part
 * before its argument list: "step" names "step(double)" and "ns::step(int)" does not. */
static bool name_matches(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strcmp(name, want) || (!strncmp(name, want, n) && name[n] == '(');
}

static int choose_named(struct rpt *r, struct rpt_annots *a)
{
	a->unmatched = calloc(r->opts.nfunctions ? r->opts.nfunctions : 1, sizeof(char *));
	a->af = calloc(MAX_FUNCS, sizeof(*a->af));
	if (!a->unmatched || !a->af)
		return -ENOMEM;
	for (int k = 0; k < r->opts.nfunctions; k++) {
		bool any = false;

		for (int i = 0; i < r->nfuncs && a->n < MAX_FUNCS; i++) {
			bool dup = false;

			if (!r->funcs[i].samples ||
			    !name_matches(r->funcs[i].name, r->opts.functions[k]))
				continue;
			any = true;
			for (int j = 0; j < a->n && !dup; j++)
				dup = a->af[j].func == i;
			if (!dup)
				a->af[a->n++].func = i;
		}
		if (!any)
			a->unmatched[a->nunmatched++] = r->opts.functions[k];
	}
	return 0;
}

static int choose_hottest(struct rpt *r, struct rpt_annots *a)
{
	int max = r->opts.cutoff > 0 && r->opts.cutoff < MAX_FUNCS ? r->opts.cutoff : MAX_FUNCS;

	/* an export's page alone asks: its few hottest, whatever --cutoff says of tables */
	if (!r->opts.annotate && max > RPT_ANNOT_EXPORT_FUNCS)
		max = RPT_ANNOT_EXPORT_FUNCS;
	struct rpt_row *rows = calloc(max, sizeof(*rows));
	int n;

	a->af = calloc(max, sizeof(*a->af));
	if (!rows || !a->af) {
		free(rows);
		return -ENOMEM;
	}
	n = rpt_rows(r, RPT_FUNCTIONS, rows, max);
	for (int i = 0; i < n; i++)
		a->af[a->n++].func = rows[i].item;
	free(rows);
	return 0;
}

/* Add @samples at @off to chosen function @k; @index maps (k, off) to a hit + 1. */
static int add_hit(struct rpt_annots *a, struct util_hash *index, int k, uint64_t off,
		   uint64_t samples)
{
	uint64_t *slot = util_hash_slot(index, (uint64_t)k, off, 1);
	struct afunc *f = &a->af[k];

	if (!slot)
		return -ENOMEM;
	if (*slot) { /* another thread's samples at the same address */
		f->hits[*slot - 1].samples += samples;
		return 0;
	}
	if (f->nhits == f->caphits) {
		size_t cap = f->caphits ? f->caphits * 2 : 64;
		void *g = realloc(f->hits, cap * sizeof(*f->hits));

		if (!g)
			return -ENOMEM;
		f->hits = g;
		f->caphits = cap;
	}
	f->hits[f->nhits].off = off;
	f->hits[f->nhits++].samples = samples;
	*slot = f->nhits;
	return 0;
}

/* Every sampled (thread, module, offset) of a chosen function, summed over threads. */
static int gather(struct rpt *r, struct rpt_annots *a)
{
	struct util_hash chosen = { 0 }, index = { 0 }; /* func -> afunc + 1; add_hit's */
	int ret = 0;

	for (int i = 0; i < a->n && !ret; i++) {
		uint64_t *slot = util_hash_slot(&chosen, (uint64_t)a->af[i].func, 0, 0);

		if (!slot)
			ret = -ENOMEM;
		else
			*slot = (uint64_t)i + 1;
	}
	for (size_t i = 0; i < r->addr_counts.cap && !ret; i++) {
		const struct util_hent *e = &r->addr_counts.e[i];
		uint64_t *slot;
		int func, proc;

		if (!e->used || !e->val)
			continue;
		ret = rpt_resolve(r, (int)e->a, (int)e->b, e->c, &func, &proc);
		if (!ret && (slot = util_hash_find(&chosen, (uint64_t)func, 0, 0)))
			ret = add_hit(a, &index, (int)(*slot - 1), e->c, e->val);
	}
	util_hash_release(&chosen);
	util_hash_release(&index);
	return ret;
}

static int cmp_insn(const void *x, const void *y)
{
	const struct rpt_annot_insn *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Instructions of @code, or none with *@why set. -ENOMEM only. */
static int disassemble(struct rpt *r, const struct rpt_annot_code *code,
		       struct rpt_annot_insn **out, size_t *nout, char *why, size_t whylen)
{
	size_t len = code->end - code->start, n = 0, cap = 256;
	struct rpt_annot_insn *v = malloc(cap * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t off = 0; off < len;) {
		struct rpt_annot_insn *in;
		int k;

		if (n == cap) { /* grown as decoded: a byte each at worst, 4 on average */
			struct rpt_annot_insn *g = realloc(v, cap * 2 * sizeof(*v));

			if (!g) {
				free(v);
				return -ENOMEM;
			}
			v = g;
			cap *= 2;
		}
		in = memset(&v[n], 0, sizeof(*in));
		k = rpt_disasm_one(code->bytes + off, len - off, code->start + off,
				   r->opts.att ? RPT_DISASM_ATT : RPT_DISASM_INTEL, in->text);

		if (k == -EOPNOTSUPP) {
			snprintf(why, whylen, "%s", in->text);
			free(v);
			*out = NULL;
			*nout = 0;
			return 0;
		}
		in->addr = code->start + off;
		in->len = (uint8_t)(k > 0 ? k : 1);
		in->line = -1;
		off += in->len;
		n++;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* The samples of @f onto its instructions; a sampled address no instruction holds
 * (no disassembly, or code outside the symbol's range) becomes an entry of its own. */
static int place(struct afunc *f, const struct rpt_annot_code *code, struct rpt_annot_insn **v,
		 size_t *n)
{
	size_t extra = 0, cap = *n + f->nhits;
	struct rpt_annot_insn *g = realloc(*v, (cap ? cap : 1) * sizeof(*g));

	if (!g)
		return -ENOMEM;
	*v = g;
	for (size_t i = 0; i < f->nhits; i++) {
		uint64_t addr = f->hits[i].off;
		long at;

		if (code->nsegs && !rpt_annot_code_vaddr(code, f->hits[i].off, &addr))
			addr = f->hits[i].off;
		/* hits are distinct offsets, so an address left over is new among the extras */
		at = rpt_annot_find(g, *n, addr);
		if (at < 0) {
			at = (long)(*n + extra++);
			g[at] = (struct rpt_annot_insn){ .addr = addr, .line = -1 };
		}
		g[at].samples += f->hits[i].samples;
	}
	*n += extra;
	if (extra)
		util_qsort(g, *n, sizeof(*g), cmp_insn);
	return 0;
}

/* The file offset of link-time address @vaddr (the inverse of rpt_annot_code_vaddr). */
static bool code_offset(const struct rpt_annot_code *code, uint64_t vaddr, uint64_t *off)
{
	for (int i = 0; i < code->nsegs; i++)
		if (vaddr >= code->segs[i].vaddr &&
		    vaddr - code->segs[i].vaddr < code->segs[i].filesz) {
			*off = vaddr - code->segs[i].vaddr + code->segs[i].off;
			return true;
		}
	return false;
}

static const char *fmt_intern(struct rpt_annots *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static const char *fmt_intern(struct rpt_annots *a, const char *fmt, ...)
{
	char buf[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return rpt_strpool_intern(&a->pool, buf);
}

/* The source text of @name, read once (NULL: not found). */
static const struct srcent *source(struct rpt *r, struct rpt_annots *a, const char *name)
{
	char found[PATH_MAX];
	struct srcent *e;

	for (int i = 0; i < a->nsrc; i++)
		if (a->src[i].name == name)
			return &a->src[i];
	if (a->nsrc == MAX_SRCFILES)
		return NULL;
	if (!a->src && !(a->src = calloc(MAX_SRCFILES, sizeof(*a->src))))
		return NULL;
	e = &a->src[a->nsrc++];
	e->name = name;
	e->found = !rpt_srcfile_read(&e->text, name, r->opts.src_paths, r->opts.nsrc_paths, found,
				     sizeof(found));
	return e;
}

/* Source lines of @v's instructions, their text, and what is missing. */
static int add_lines(struct rpt *r, struct rpt_annots *a, struct afunc *f, struct rpt_annot *v,
		     const struct rpt_annot_code *code, const char *path)
{
	struct rpt_annot_pos *pos = calloc(v->ninsns ? v->ninsns : 1, sizeof(*pos));
	struct rpt_stacks *st = r->stacks;
	size_t known = 0;
	int ret = -ENOMEM;

	if (!pos)
		return -ENOMEM;
	if (!st->inlines)
		st->inlines = rpt_inlines_new(r->locator);
	if (!st->inlines)
		goto out;
	for (size_t i = 0; i < v->ninsns; i++) {
		const char *file, *dir, *names[1];
		uint64_t off;
		int line;

		if (!code_offset(code, f->insns[i].addr, &off) ||
		    rpt_inlines_srcline(st->inlines, path, off, &file, &line, &dir))
			continue;
		/* a name relative to the unit's build directory is shown (and looked for)
		 * whole: "/build/src/a.c"; --src-path then finds it under another root */
		pos[i].file = *file != '/' && dir && *dir ? fmt_intern(a, "%s/%s", dir, file)
							  : rpt_strpool_intern(&a->pool, file);
		pos[i].line = line;
		if (rpt_inlines_at(st->inlines, path, off, names, 1) == 1)
			pos[i].inlined = names[0];
		if (!pos[i].file)
			goto out;
		known++;
	}
	ret = rpt_annot_lines(f->insns, v->ninsns, pos, v->samples, &f->lines, &v->nlines);
	if (ret)
		goto out;
	v->lines = f->lines;
	if (!known && code->nsegs) /* without the file, the note on the assembly says why */
		v->no_source = !code->has_symtab && !code->has_debug_line
				       ? fmt_intern(a,
						    "%s is stripped: no .symtab and no DWARF "
						    "line table (nor a separate debug file found, "
						    "see --symbol-path); assembly only",
						    path)
				       : fmt_intern(a,
						    "no DWARF line table for its code in %s (built "
						    "without -g, or its debug file not found: see "
						    "--symbol-path); assembly only",
						    path);
	for (size_t l = 0; l < v->nlines; l++) {
		const struct srcent *e = source(r, a, f->lines[l].file);

		if (e && e->found)
			f->lines[l].text = rpt_srcfile_line(&e->text, f->lines[l].line,
							    &f->lines[l].text_len);
		else if (!v->no_text)
			v->no_text = fmt_intern(a,
						"source file %s not found (give its directory "
						"with --src-path)",
						f->lines[l].file);
	}
out:
	free(pos);
	return ret;
}

static const char *disasm_why(struct rpt_annots *a, int err, const char *path)
{
	switch (err) {
	case -ENOENT:
		return fmt_intern(a,
				  "%s could not be read (gone, rebuilt, or not a file: see "
				  "--bin-path); sampled addresses only",
				  path);
	case -EFBIG:
		return fmt_intern(a, "its code range is over %u KiB; sampled addresses only",
				  RPT_ANNOT_MAX_CODE >> 10);
	default:
		return fmt_intern(a,
				  "no symbol or call frame information of %s gives its "
				  "code range; sampled addresses only",
				  path);
	}
}

static int build_one(struct rpt *r, struct rpt_annots *a, int k)
{
	struct afunc *f = &a->af[k];
	struct rpt_annot *v = &a->views[k];
	const struct rpt_func *fn = &r->funcs[f->func];
	const char *path = r->world.modules[fn->module].path;
	struct rpt_annot_code code = { 0 };
	char why[RPT_DISASM_TEXT] = "";
	int ret = 0, got = -ENOENT;

	v->function = fn->name;
	v->module = path;
	for (size_t i = 0; i < f->nhits; i++)
		v->samples += f->hits[i].samples;
	if (fn->module != RPT_MODULE_KERNEL && fn->module != RPT_MODULE_UNKNOWN && f->nhits)
		got = rpt_annot_code_read(r->locator, path, f->hits[0].off, &code);
	if (got && (fn->module == RPT_MODULE_KERNEL || *path != '/')) {
		/* the kernel, [vdso], anonymous (JIT) code: no file of its code is read */
		v->no_disasm = fmt_intern(a,
					  "%s: no file of its code is read (kernel, vDSO or "
					  "JIT code); sampled addresses only",
					  path);
	} else if (!got) {
		v->start = code.start;
		v->end = code.end;
		ret = disassemble(r, &code, &f->insns, &v->ninsns, why, sizeof(why));
		if (!ret && *why)
			v->no_disasm = rpt_strpool_intern(&a->pool, why);
	} else {
		v->no_disasm = disasm_why(a, got, path);
	}
	if (!ret)
		ret = place(f, &code, &f->insns, &v->ninsns);
	v->insns = f->insns;
	if (!ret && !r->opts.disasm_only)
		ret = add_lines(r, a, f, v, &code, path);
	for (size_t i = 0; !ret && r->opts.disasm_only && i < v->ninsns; i++)
		f->insns[i].share = rpt_annot_share(f->insns[i].samples, v->samples);
	free(code.bytes);
	if (ret)
		return ret;
	f->hottest = calloc(v->nlines ? v->nlines : 1, sizeof(*f->hottest));
	if (!f->hottest)
		return -ENOMEM;
	rpt_annot_hottest(f->lines, v->nlines, f->hottest);
	v->hottest = f->hottest;
	return 0;
}

int rpt_annot_build(struct rpt *r)
{
	struct rpt_annots *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	r->annots = a;
	ret = r->opts.nfunctions ? choose_named(r, a) : choose_hottest(r, a);
	if (!ret)
		ret = gather(r, a);
	if (!ret && !(a->views = calloc(a->n ? a->n : 1, sizeof(*a->views))))
		ret = -ENOMEM;
	for (int i = 0; i < a->n && !ret; i++)
		ret = build_one(r, a, i);
	return ret;
}

void rpt_annot_free(struct rpt *r)
{
	struct rpt_annots *a = r->annots;

	if (!a)
		return;
	for (int i = 0; a->af && i < a->n; i++) {
		free(a->af[i].hits);
		free(a->af[i].insns);
		free(a->af[i].lines);
		free(a->af[i].hottest);
	}
	for (int i = 0; i < a->nsrc; i++)
		rpt_srcfile_release(&a->src[i].text);
	free(a->src);
	free(a->af);
	free(a->views);
	free(a->unmatched);
	rpt_strpool_release(&a->pool);
	free(a);
	r->annots = NULL;
}

int rpt_annots(const struct rpt *r, const struct rpt_annot **out)
{
	*out = r->annots ? r->annots->views : NULL;
	return r->annots ? r->annots->n : 0;
}

int rpt_annot_unmatched(const struct rpt *r, const char *const **names)
{
	*names = r->annots ? r->annots->unmatched : NULL;
	return r->annots ? r->annots->nunmatched : 0;
}
