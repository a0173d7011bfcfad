// SPDX-License-Identifier: MIT
/*
 * kallsyms parsing. The text is untrusted (a file the user names): every field is
 * bounded by its line, and the buffer is never assumed to be NUL-terminated.
 * Symbols carry no size, so a symbol runs to the next one, as perf assumes.
 */
#include "report/kallsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Nothing follows the last symbol; like perf, let it cover at most one page. */
#define KSYM_TAIL 4096
#define READ_CHUNK 65536

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* perf keeps text, weak, data and bss symbols; the rest (U, a, N, ...) bound nothing. */
static int type_rank(char t)
{
	switch (t) {
	case 'T': return 0;
	case 't': return 1;
	case 'W': case 'w': return 2;
	case 'D': case 'd': case 'B': case 'b': return 3;
	default: return -1;
	}
}

/*
 * Parse one line [p, end) in place: NUL-terminate the name inside it. 0 and *sym
 * filled, or -1 when the line is not a symbol we keep.
 */
static int parse_line(char *p, char *end, struct rpt_ksym *sym, char *type)
{
	uint64_t addr = 0;
	int ndig = 0, v;
	char *name;

	while (p < end && (v = hexval(*p)) >= 0) {
		if (++ndig > 16)
			return -1;
		addr = addr << 4 | (uint64_t)v;
		p++;
	}
	if (!ndig || p >= end || (*p != ' ' && *p != '\t'))
		return -1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p + 1 >= end || type_rank(*p) < 0 || (p[1] != ' ' && p[1] != '\t'))
		return -1;
	*type = *p;
	p += 2;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	name = p;
	while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
		p++;
	if (p == name || !addr)
		return -1;
	*p = '\0'; /* the line's separator (or the spare byte after the text) */
	sym->addr = addr;
	sym->name = name;
	return 0;
}

struct ksym_tmp {
	struct rpt_ksym sym;
	char type;
};

/* By address; at one address the best-ranked type first, then file order. */
static int cmp_tmp(const void *a, const void *b)
{
	const struct ksym_tmp *x = a, *y = b;
	int rx = type_rank(x->type), ry = type_rank(y->type);

	if (x->sym.addr != y->sym.addr)
		return x->sym.addr < y->sym.addr ? -1 : 1;
	if (rx != ry)
		return rx - ry;
	/* names lie in the arena in file order */
	return x->sym.name < y->sym.name ? -1 : x->sym.name > y->sym.name;
}

/* Sort @tmp and copy one symbol per address into ks->syms. 0 or -ENOMEM. */
static int ksyms_finish(struct rpt_ksyms *ks, struct ksym_tmp *tmp, size_t n)
{
	size_t i, out = 0;

	/* /proc/kallsyms is in address order already: then only the few symbols sharing an
	 * address need ordering (cmp_tmp is a total order: the result is qsort's) */
	for (i = 1; i < n; i++)
		if (tmp[i].sym.addr < tmp[i - 1].sym.addr)
			break;
	if (n && i < n) { /* tmp is NULL for an empty list, and qsort wants a pointer */
		qsort(tmp, n, sizeof(*tmp), cmp_tmp);
	} else {
		for (i = 1; i < n; i++) {
			struct ksym_tmp t = tmp[i];
			size_t j = i;

			for (; j > 0 && cmp_tmp(&tmp[j - 1], &t) > 0; j--)
				tmp[j] = tmp[j - 1];
			tmp[j] = t;
		}
	}
	ks->syms = malloc((n ? n : 1) * sizeof(*ks->syms));
	if (!ks->syms)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (out && ks->syms[out - 1].addr == tmp[i].sym.addr)
			continue;
		ks->syms[out++] = tmp[i].sym;
	}
	ks->nsyms = out;
	return 0;
}

/* Parse @len bytes of text at @names (malloc'ed, @len + 1 bytes, taken over: the names
 * are terminated in place and the symbols point into it). */
static int parse_taken(struct rpt_ksyms *ks, char *names, size_t len)
{
	struct ksym_tmp *tmp = NULL, *grown;
	size_t n = 0, cap = 0;
	char *p, *end, *eol;
	int ret = -ENOMEM;

	ks->names = names;
	ks->names[len] = '\0';
	end = ks->names + len;
	for (p = ks->names; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol)
			eol = end;
		if (n == cap) {
			/* about 40 bytes a line: one allocation for a whole kallsyms */
			cap = cap ? cap * 2 : len / 32 + 1024;
			grown = realloc(tmp, cap * sizeof(*tmp));
			if (!grown)
				goto out;
			tmp = grown;
		}
		if (!parse_line(p, eol, &tmp[n].sym, &tmp[n].type))
			n++;
	}
	ret = ksyms_finish(ks, tmp, n);
out:
	free(tmp);
	if (ret)
		rpt_ksyms_release(ks);
	return ret;
}

int rpt_ksyms_parse(struct rpt_ksyms *ks, const char *buf, size_t len)
{
	/* one spare byte so that the last name can be terminated in place */
	char *names = malloc(len + 1);

	rpt_ksyms_release(ks);
	if (!names)
		return -ENOMEM;
	memcpy(names, buf, len);
	return parse_taken(ks, names, len);
}

/* Read all of @fd into a malloc'ed buffer; /proc files report st_size 0, so grow. */
static int read_all(int fd, char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *grown;
	ssize_t r;
	int ret = 0;

	for (;;) {
		if (cap - len < READ_CHUNK) {
			cap = cap ? cap * 2 : 4 * READ_CHUNK;
			grown = realloc(buf, cap);
			if (!grown) {
				ret = -ENOMEM;
				goto out;
			}
			buf = grown;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (!r)
			break;
		len += r;
	}
out:
	if (ret) {
		free(buf);
		buf = NULL;
		len = 0;
	}
	*bufp = buf;
	*lenp = len;
	return ret;
}

int rpt_ksyms_load(struct rpt_ksyms *ks, const char *path)
{
	char *buf = NULL;
	size_t len;
	int fd, ret;

	rpt_ksyms_release(ks);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_all(fd, &buf, &len);
	close(fd);
	if (!ret)
		return parse_taken(ks, buf, len); /* read_all leaves a spare byte */
	free(buf);
	return ret;
}

const struct rpt_ksym *rpt_ksyms_find(const struct rpt_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nsyms, mid;

	/* first symbol above addr */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (lo == ks->nsyms && addr - ks->syms[lo - 1].addr >= KSYM_TAIL)
		return NULL;
	return &ks->syms[lo - 1];
}

void rpt_ksyms_release(struct rpt_ksyms *ks)
{
	free(ks->syms);
	free(ks->names);
	ks->syms = NULL;
	ks->names = NULL;
	ks->nsyms = 0;
}
