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
	s->early = rpt_leafg_hint(r, &s->early_pct, &s->early_module);
}

/* ---- a growing string ---- */

int rpt_sbuf_add(struct rpt_sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char *g;

		while (cap < b->len + n + 1)
			cap *= 2;
		g = realloc(b->s, cap);
		if (!g)
			return -ENOMEM;
		b->s = g;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
	return 0;
}

/* @name as a folded frame: ';' and line breaks replaced. */
int rpt_sbuf_frame(struct rpt_sbuf *b, const char *name)
{
	size_t start = b->len, n = strlen(name);
	int ret = rpt_sbuf_add(b, name, n);

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
		struct rpt_sbuf b = { 0 };

		if (!s->count)
			continue;
		ret = rpt_sbuf_frame(&b, rpt_export_comm(r, s->proc));
		for (uint32_t k = s->n; !ret && k-- > 0;) {
			ret = rpt_sbuf_add(&b, ";", 1);
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

/* ---- escaping for XML and JSON ---- */

/* Length of the valid UTF-8 sequence at @s (1..4), or 0 if it is not one. Valid as
 * RFC 3629 has it (what JSON and XML parsers check): no overlong forms, no surrogates
 * (U+D800..DFFF), nothing above U+10FFFF; and not U+FFFE/U+FFFF, which XML forbids. */
static int utf8_len(const unsigned char *s)
{
	int n = s[0] < 0x80 ? 1 : s[0] < 0xc2 ? 0 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3
		: s[0] < 0xf5 ? 4 : 0;
	/* the range of the second byte, narrower after these lead bytes */
	unsigned lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;

	if (n > 1 && (s[1] < lo || s[1] > hi))
		return 0;
	for (int i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return n;
}

void rpt_put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	rpt_put_escaped(f, s ? s : "", RPT_ESC_CSV); /* names from targets may be any bytes */
	fputc('"', f);
}

void rpt_put_escaped(FILE *f, const char *str, enum rpt_escape how)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		int n = utf8_len(s);

		if (!n) { /* not UTF-8: the replacement character */
			fputs(how == RPT_ESC_JSON || how == RPT_ESC_JSON_FRAME ? "\\ufffd"
									       : "\xef\xbf\xbd",
			      f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		if (how == RPT_ESC_CSV || how == RPT_ESC_TEXT) {
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s < 0x20 ? '?' : *s, f);
			if (*s == '"' && how == RPT_ESC_CSV)
				fputc('"', f);
		} else if (how == RPT_ESC_XML) {
			switch (*s) {
			case '&': fputs("&amp;", f); break;
			case '<': fputs("&lt;", f); break;
			case '>': fputs("&gt;", f); break;
			case '"': fputs("&quot;", f); break;
			case '\'': fputs("&apos;", f); break;
			default: fputc(*s < 0x20 ? '?' : *s, f);
			}
		} else if (*s == ';' && how == RPT_ESC_JSON_FRAME) {
			fputc(':', f);
		} else if (*s == '"' || *s == '\\') {
			fputc('\\', f);
			fputc(*s, f);
		} else if (*s < 0x20) {
			fprintf(f, "\\u%04x", *s);
		} else {
			fputc(*s, f);
		}
		s++;
	}
}
