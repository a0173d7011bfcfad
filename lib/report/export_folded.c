// SPDX-License-Identifier: MIT
/*
 * Folded stacks (Brendan Gregg's collapsed format, read by flamegraph.pl, speedscope,
 * inferno): one line per distinct stack, "comm;outermost;...;leaf count", sorted, the
 * counts summing to the samples of the report. Frame names cannot hold ';' (the
 * separator) or line breaks: those become ':' and ' '.
 */
#include "report/stacks.h"
#include "report/export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void rpt_stack_summary(const struct rpt *r, struct rpt_stack_summary *s)
{
	const struct rpt_stacks *st = r->stacks;

	memset(s, 0, sizeof(*s));
	if (!st)
		return;
	s->collected = st->collected;
	s->stacks = st->nstacks;
	s->truncated = st->truncated;
	s->unwind_failed = st->unwind_failed;
	s->leaf_fixed = st->leaf_fixed;
	s->leaf_note = st->leaf_note[0] ? st->leaf_note : NULL;
	s->early = rpt_fpstack_hint(r, &s->early_pct, &s->early_module);
}

/* @name as a folded frame: ';' and line breaks replaced. */
int rpt_sbuf_frame(struct util_sbuf *b, const char *name)
{
	size_t start = b->len, n = strlen(name);
	int ret = util_sbuf_add(b, name, n);

	for (size_t i = start; !ret && i < b->len; i++)
		if (b->s[i] == ';')
			b->s[i] = ':';
		else if (b->s[i] == '\n' || b->s[i] == '\r')
			b->s[i] = ' ';
	return ret;
}

const char *rpt_export_comm(const struct rpt *r, uint32_t proc)
{
	return r->world.procs[proc].comm;
}

/* ---- folded ---- */

struct line {
	char *text;
	uint64_t count;
};

static int cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

int rpt_export_folded(const struct rpt *r, FILE *f)
{
	const struct rpt_stacks *st = r->stacks;
	struct line *lines = calloc(st->nsyms ? st->nsyms : 1, sizeof(*lines));
	size_t n = 0;
	int ret = 0;

	if (!lines)
		return -ENOMEM;
	for (size_t i = 0; i < st->nsyms && !ret; i++) {
		const struct rpt_symstack *s = &st->syms[i];
		const uint32_t *v = &st->fids[s->first];
		struct util_sbuf b = { 0 };

		if (!s->count)
			continue;
		ret = rpt_sbuf_frame(&b, rpt_export_comm(r, s->proc));
		for (uint32_t k = s->n; !ret && k-- > 0;) {
			ret = util_sbuf_add(&b, ";", 1);
			if (!ret)
				ret = rpt_sbuf_frame(&b, st->funcs[v[k]].name);
		}
		if (ret) {
			free(b.s);
			break;
		}
		lines[n++] = (struct line){ b.s, s->count };
	}
	if (!ret) {
		qsort(lines, n, sizeof(*lines), cmp_line);
		for (size_t i = 0; i < n; i++) {
			uint64_t c = lines[i].count;

			while (i + 1 < n && !strcmp(lines[i].text, lines[i + 1].text))
				c += lines[++i].count;
			fprintf(f, "%s %" PRIu64 "\n", lines[i].text, c);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(lines[i].text);
	free(lines);
	return ret;
}
