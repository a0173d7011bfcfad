// SPDX-License-Identifier: MIT
/*
 * kallsyms parsing. The text is untrusted (a file the user names): every field is
 * bounded by its line, and the buffer is never assumed to be NUL-terminated.
 * Symbols carry no size, so a symbol runs to the next one, as perf assumes.
 */
#include "symbols/kallsyms.h"

#include "util/util.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Nothing follows the last symbol; like perf, let it cover at most one page. */
#define KSYM_TAIL 4096
#define READ_CHUNK 65536

/* perf keeps text, weak, data and bss symbols; the rest (U, a, N, ...) bound nothing. */
static int type_rank(char t)
{
	switch (t) {
	case 'T':
		return 0;
	case 't':
		return 1;
	case 'W':
	case 'w':
		return 2;
	case 'D':
	case 'd':
	case 'B':
	case 'b':
		return 3;
	default:
		return -1;
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

	while (p < end && (v = util_hex_digit(*p)) >= 0) {
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

/*
 * Symbols as they are parsed: the name as an offset into the names arena (which grows,
 * so no pointer yet) and the type for ordering. The text is parsed a chunk at a time and
 * only the names are kept: a kallsyms of 100k+ lines is several megabytes of text, and
 * reading it whole into a growing buffer cost more (copies, page faults) than parsing.
 */
struct ksym_tmp {
	uint64_t addr;
	uint32_t name; /* offset in the arena */
	char type;
};

struct loader {
	struct ksym_tmp *tmp;
	size_t n, cap;
	char *arena;
	size_t used, capa;
	/* first sizes: growing by realloc copies megabytes; untouched pages cost nothing */
	size_t hint_syms, hint_names;
};

/* A kernel of today: ~120k symbols, 3 MB of names; room for twice that. */
#define HINT_SYMS (1u << 18)
#define HINT_NAMES (8u << 20)

/* By address; at one address the best-ranked type first, then file order. */
static int cmp_tmp(const void *a, const void *b)
{
	const struct ksym_tmp *x = a, *y = b;
	int rx = type_rank(x->type), ry = type_rank(y->type);

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (rx != ry)
		return rx - ry;
	/* names lie in the arena in file order */
	return x->name < y->name ? -1 : x->name > y->name;
}

/* Keep the symbol of line [p, end) if it is one. 0 or -ENOMEM (-EFBIG past 4 GiB). */
static int add_line(struct loader *ld, char *p, char *end)
{
	struct rpt_ksym sym;
	size_t len;
	char type;

	if (parse_line(p, end, &sym, &type))
		return 0;
	len = strlen(sym.name) + 1;
	if (ld->used + len > UINT32_MAX)
		return -EFBIG;
	if (ld->used + len > ld->capa) {
		size_t cap = ld->capa ? ld->capa * 2 : ld->hint_names;
		char *g;

		while (cap < ld->used + len)
			cap *= 2;
		g = realloc(ld->arena, cap);
		if (!g)
			return -ENOMEM;
		ld->arena = g;
		ld->capa = cap;
	}
	if (ld->n == ld->cap) {
		size_t cap = ld->cap ? ld->cap * 2 : ld->hint_syms;
		struct ksym_tmp *g = realloc(ld->tmp, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		ld->tmp = g;
		ld->cap = cap;
	}
	memcpy(ld->arena + ld->used, sym.name, len);
	ld->tmp[ld->n++] = (struct ksym_tmp){ sym.addr, (uint32_t)ld->used, type };
	ld->used += len;
	return 0;
}

/*
 * The complete lines of [buf, buf + len) (all of it when @last: the final line needs no
 * newline); *@done is how much was consumed. @buf has a spare byte after @len, so that
 * the last name can be terminated in place.
 */
static int add_lines(struct loader *ld, char *buf, size_t len, bool last, size_t *done)
{
	char *p = buf, *end = buf + len, *eol;
	int ret;

	for (; p < end; p = eol + 1) {
		eol = memchr(p, '\n', end - p);
		if (!eol) {
			if (!last)
				break;
			eol = end;
		}
		ret = add_line(ld, p, eol);
		if (ret)
			return ret;
	}
	*done = p < end ? (size_t)(p - buf) : len;
	return 0;
}

/* Sort the symbols and keep one per address in ks. Takes the loader's arena. 0 or -ENOMEM. */
static int ksyms_finish(struct rpt_ksyms *ks, struct loader *ld)
{
	struct ksym_tmp *tmp = ld->tmp;
	size_t i, out = 0, n = ld->n;

	/* /proc/kallsyms is in address order already: then only the few symbols sharing an
	 * address need ordering (cmp_tmp is a total order: the result is qsort's) */
	for (i = 1; i < n; i++)
		if (tmp[i].addr < tmp[i - 1].addr)
			break;
	if (n && i < n) { /* tmp is NULL for an empty list, and qsort wants a pointer */
		util_qsort(tmp, n, sizeof(*tmp), cmp_tmp);
	} else {
		for (i = 1; i < n; i++) {
			struct ksym_tmp t = tmp[i];
			size_t j = i;

			/* (a greater address is in place: skip the comparison's type ranks) */
			if (t.addr != tmp[j - 1].addr)
				continue;
			for (; j > 0 && cmp_tmp(&tmp[j - 1], &t) > 0; j--)
				tmp[j] = tmp[j - 1];
			tmp[j] = t;
		}
	}
	ks->names = ld->arena ? ld->arena : malloc(1);
	ld->arena = NULL;
	ks->syms = malloc((n ? n : 1) * sizeof(*ks->syms));
	if (!ks->syms || !ks->names)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (out && ks->syms[out - 1].addr == tmp[i].addr)
			continue;
		ks->syms[out++] = (struct rpt_ksym){ tmp[i].addr, ks->names + tmp[i].name };
	}
	ks->nsyms = out;
	return 0;
}

static int loader_end(struct rpt_ksyms *ks, struct loader *ld, int ret)
{
	if (!ret)
		ret = ksyms_finish(ks, ld);
	free(ld->tmp);
	free(ld->arena);
	if (ret)
		rpt_ksyms_release(ks);
	return ret;
}

int rpt_ksyms_parse(struct rpt_ksyms *ks, const char *buf, size_t len)
{
	/* no name is longer than the text; a symbol's line has 5 bytes or more ("1 T a") */
	struct loader ld = { .hint_syms = len / 4 + 1 < HINT_SYMS ? len / 4 + 1 : HINT_SYMS,
			     .hint_names = len + 1 < HINT_NAMES ? len + 1 : HINT_NAMES };
	size_t done;
	char *copy;
	int ret;

	rpt_ksyms_release(ks);
	/* a copy: parse_line terminates names in place; one spare byte for the last one */
	copy = malloc(len + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	ret = add_lines(&ld, copy, len, true, &done);
	free(copy);
	return loader_end(ks, &ld, ret);
}

int rpt_ksyms_load(struct rpt_ksyms *ks, const char *path)
{
	struct loader ld = { .hint_syms = HINT_SYMS, .hint_names = HINT_NAMES };
	size_t cap = READ_CHUNK, len = 0, done;
	char *buf;
	ssize_t r;
	int fd, ret = 0;

	rpt_ksyms_release(ks);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	/* /proc files report st_size 0: read until the end, a chunk at a time */
	for (;;) {
		if (len == cap) { /* one line longer than the buffer */
			char *g = realloc(buf, cap * 2 + 1);

			if (!g) {
				ret = -ENOMEM;
				break;
			}
			buf = g;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		len += (size_t)r;
		ret = add_lines(&ld, buf, len, !r, &done);
		if (ret || !r)
			break;
		memmove(buf, buf + done, len - done);
		len -= done;
	}
	close(fd);
	free(buf);
	return loader_end(ks, &ld, ret);
}

/* Is @pad the padding symbol the compiler put right before @fn: __pfx_<fn> (the NOPs of
 * CONFIG_FUNCTION_PADDING) or __cfi_<fn> (kCFI's type hash)? */
static bool padding_of(const char *pad, const char *fn)
{
	return (!strncmp(pad, "__pfx_", 6) || !strncmp(pad, "__cfi_", 6)) && !strcmp(pad + 6, fn);
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
	/* nothing runs in a function's padding: an address there is a return address looked
	 * up at - 1 whose "call" pushed the function's entry (a retpoline thunk's target), so
	 * the frame is the function's (perf names it so; beside two hogs a make -j2 had one
	 * such frame as __pfx_blk_stat_timer_fn under __x86_indirect_thunk_rbp) */
	if (lo < ks->nsyms && padding_of(ks->syms[lo - 1].name, ks->syms[lo].name))
		return &ks->syms[lo];
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
