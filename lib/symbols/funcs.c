// SPDX-License-Identifier: MIT
/*
 * Every function of an ELF file with its file offset, for collect --func (uprobes are
 * placed at a file offset): the same symbol table a lookup reads (symtab.c: function
 * symbols and PLT stubs, sorted, one per address), so that a probed function and a
 * sampled one have the same name.
 */
#include "symbols/internal.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

/* The file offset of @vaddr inside one of @d's PT_LOAD segments: false if none holds it. */
static bool vaddr_to_offset(const struct dso *d, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < d->nsegs; i++) {
		if (vaddr >= d->segs[i].vaddr && vaddr - d->segs[i].vaddr < d->segs[i].filesz) {
			*off = vaddr - d->segs[i].vaddr + d->segs[i].off;
			return true;
		}
	}
	return false;
}

int rpt_symtab_each_function(struct rpt_symtab *st, const char *path,
			     int (*fn)(void *arg, const char *name, uint64_t offset), void *arg)
{
	struct stat sb;
	struct dso *d;
	int ret = 0;

	if (stat(path, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return -ENOEXEC;
	d = rpt_dso_new(st, path, NULL, &st->strs);
	if (!d)
		return -ENOMEM;
	if (!d->readable) {
		rpt_dso_free(d);
		return -ENOEXEC;
	}
	for (size_t i = 0; i < d->nsyms && !ret; i++) {
		const struct sym *s = &d->syms[i];
		uint64_t off;

		/* a PLT stub ("puts@plt") is the caller's jump, not the function */
		if (strstr(s->raw, "@plt") || !vaddr_to_offset(d, s->addr, &off))
			continue;
		ret = fn(arg, s->raw, off);
	}
	rpt_dso_free(d);
	return ret;
}
