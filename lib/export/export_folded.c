// SPDX-License-Identifier: MIT
/*
 * Folded stacks (Brendan Gregg's collapsed format, read by flamegraph.pl, speedscope,
 * inferno): one line per distinct stack, "comm;outermost;...;leaf count", sorted, the
 * counts summing to the samples of the report. Frame names cannot hold ';' (the
 * separator) or line breaks: those become ':' and ' '.
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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
	struct rpt_process_view p;

	rpt_process_at(r, (int)proc, &p);
	return p.comm;
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
	struct rpt_stacks_facts facts;
	struct line *lines;
	size_t n = 0;
	int ret = 0;

	rpt_stacks_facts(r, &facts);
	lines = calloc(facts.nstacks ? facts.nstacks : 1, sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	for (size_t i = 0; i < facts.nstacks && !ret; i++) {
		struct rpt_stack_view s;
		struct util_sbuf b = { 0 };

		rpt_stack_at(r, i, &s);
		if (!s.count)
			continue;
		ret = rpt_sbuf_frame(&b, rpt_export_comm(r, s.proc));
		for (uint32_t k = s.nfuncs; !ret && k-- > 0;) {
			struct rpt_stack_fn fn;

			rpt_stack_func(r, s.funcs[k], &fn);
			ret = util_sbuf_add(&b, ";", 1);
			if (!ret)
				ret = rpt_sbuf_frame(&b, fn.name);
		}
		if (ret) {
			free(b.s);
			break;
		}
		lines[n++] = (struct line){ b.s, s.count };
	}
	if (!ret) {
		util_qsort(lines, n, sizeof(*lines), cmp_line);
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
