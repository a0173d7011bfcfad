// SPDX-License-Identifier: MIT
/*
 * Function Detail Data's arithmetic: samples placed on instructions, instructions
 * gathered into source lines, shares of the function, the hottest lines. Pure: no files,
 * no libraries (tests/unit/test_annot.c).
 */
#include "annotate/annotate.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

double rpt_annot_share(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

long rpt_annot_find(const struct rpt_annot_insn *insns, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) { /* the last instruction starting at or before @addr */
		size_t mid = lo + (hi - lo) / 2;

		if (insns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	lo--;
	if (addr == insns[lo].addr || addr - insns[lo].addr < insns[lo].len)
		return (long)lo;
	return -1;
}

/* NULL sorts first: the function's own line before an inlined one on the same line */
static int cmp_name(const char *a, const char *b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? 1 : -1;
	return strcmp(a, b);
}

static int cmp_pos(const struct rpt_annot_pos *a, const struct rpt_annot_pos *b)
{
	int c = cmp_name(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return cmp_name(a->inlined, b->inlined);
}

/* qsort of instruction indices by their position (ties: address order, for stability) */
static const struct rpt_annot_pos *sort_pos;
static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = cmp_pos(&sort_pos[x], &sort_pos[y]);

	return c ? c : (x < y ? -1 : x > y);
}

int rpt_annot_lines(struct rpt_annot_insn *insns, size_t n, const struct rpt_annot_pos *pos,
		    uint64_t total, struct rpt_annot_line **lines, size_t *nlines)
{
	struct rpt_annot_line *out = NULL;
	size_t *idx = NULL, nout = 0;
	int ret = -ENOMEM;

	for (size_t i = 0; i < n; i++)
		insns[i].share = rpt_annot_share(insns[i].samples, total);
	*lines = NULL;
	*nlines = 0;
	idx = malloc((n ? n : 1) * sizeof(*idx));
	out = calloc(n ? n : 1, sizeof(*out));
	if (!idx || !out)
		goto out;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	sort_pos = pos; /* report is single-threaded (symtab.h): a static comparator context */
	util_qsort(idx, n, sizeof(*idx), cmp_index);
	for (size_t k = 0; k < n; k++) {
		size_t i = idx[k];

		if (!pos[i].file) {
			insns[i].line = -1;
			continue;
		}
		if (!nout || cmp_pos(&pos[i], &(struct rpt_annot_pos){ out[nout - 1].file,
								       out[nout - 1].line,
								       out[nout - 1].inlined }))
			out[nout++] = (struct rpt_annot_line){ .file = pos[i].file,
							       .line = pos[i].line,
							       .inlined = pos[i].inlined };
		out[nout - 1].samples += insns[i].samples;
		insns[i].line = (int)(nout - 1);
	}
	for (size_t l = 0; l < nout; l++)
		out[l].share = rpt_annot_share(out[l].samples, total);
	*lines = out;
	*nlines = nout;
	out = NULL;
	ret = 0;
out:
	free(idx);
	free(out);
	return ret;
}

static const struct rpt_annot_line *hot_lines;
static int cmp_hot(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (hot_lines[x].samples != hot_lines[y].samples)
		return hot_lines[x].samples > hot_lines[y].samples ? -1 : 1;
	return x < y ? -1 : x > y;
}

void rpt_annot_hottest(const struct rpt_annot_line *lines, size_t n, size_t *order)
{
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	hot_lines = lines;
	util_qsort(order, n, sizeof(*order), cmp_hot);
}
