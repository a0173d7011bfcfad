// SPDX-License-Identifier: MIT
/*
 * perf's JIT maps (/tmp/perf-<pid>.map). The text is untrusted twice over: the JIT may
 * be buggy, and /tmp is writable by every user, so another one may plant a map for a
 * pid they expect us to report (to name our samples as they like, or to make us read a
 * FIFO forever). Every field is bounded by its line, the buffer is never assumed to be
 * NUL-terminated, and the file is checked before a byte of it is read.
 */
#include "symbols/perfmap.h"

#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_CHUNK 65536
/* A JIT that reuses freed code memory writes a new line over an old range; the lookup
 * looks this many symbols back for one that encloses the address. */
#define MAX_NESTED 8

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* A hex number at *p (an optional 0x, at most 16 digits) up to a blank. */
static bool hex_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int ndig = 0, d;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (s < end && (d = util_hex_digit(*s)) >= 0) {
		if (++ndig > 16)
			return false;
		v = v << 4 | (uint64_t)d;
		s++;
	}
	if (!ndig || s >= end || !blank(*s))
		return false;
	while (s < end && blank(*s))
		s++;
	*p = s;
	*out = v;
	return true;
}

/* One line [p, end): its symbol, the name copied into @names at *@used. false: skip. */
static bool parse_line(const char *p, const char *end, char *names, size_t *used,
		       struct rpt_perfmap_sym *sym)
{
	uint64_t start, size;
	size_t n;

	if (!hex_field(&p, end, &start) || !hex_field(&p, end, &size))
		return false;
	while (end > p && blank(end[-1]))
		end--;
	n = (size_t)(end - p);
	if (!n || !size || start + size < start)
		return false;
	if (n > RPT_PERFMAP_MAX_NAME)
		n = RPT_PERFMAP_MAX_NAME;
	/* a NUL inside the name ends it: names are C strings from here on */
	n = strnlen(p, n);
	if (!n)
		return false;
	memcpy(names + *used, p, n);
	names[*used + n] = 0;
	sym->start = start;
	sym->end = start + size;
	sym->name = (const char *)(uintptr_t)*used; /* an offset until names stops moving */
	*used += n + 1;
	return true;
}

struct ordered {
	struct rpt_perfmap_sym sym;
	size_t line;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->sym.start != y->sym.start)
		return x->sym.start < y->sym.start ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int rpt_perfmap_sort(struct rpt_perfmap *pm)
{
	struct ordered *o = malloc(sizeof(*o) * (pm->nsyms ? pm->nsyms : 1));
	size_t n = 0;

	if (!o)
		return -ENOMEM;
	for (size_t i = 0; i < pm->nsyms; i++)
		o[i] = (struct ordered){ pm->syms[i], i };
	util_qsort(o, pm->nsyms, sizeof(*o), cmp_ordered);
	for (size_t i = 0; i < pm->nsyms; i++) {
		if (n && pm->syms[n - 1].start == o[i].sym.start)
			n--;
		pm->syms[n++] = o[i].sym;
	}
	pm->nsyms = n;
	free(o);
	return 0;
}

int rpt_perfmap_parse(struct rpt_perfmap *pm, const char *buf, size_t len)
{
	size_t lines = 1, used = 0;
	const char *p = buf, *end = buf + len;
	int ret;

	rpt_perfmap_release(pm);
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	/* each name and its NUL fit in its line and newline (the last line: +1) */
	pm->names = malloc(len + 1);
	pm->syms = malloc(sizeof(*pm->syms) * lines);
	if (!pm->names || !pm->syms) {
		rpt_perfmap_release(pm);
		return -ENOMEM;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (eol > p) {
			if (parse_line(p, eol, pm->names, &used, &pm->syms[pm->nsyms]))
				pm->nsyms++;
			else
				pm->malformed++;
		}
		p = nl ? nl + 1 : end;
	}
	for (size_t i = 0; i < pm->nsyms; i++)
		pm->syms[i].name = pm->names + (uintptr_t)pm->syms[i].name;
	ret = rpt_perfmap_sort(pm);
	if (ret)
		rpt_perfmap_release(pm);
	return ret;
}

/* The whole of @fd, at most RPT_PERFMAP_MAX_BYTES. 0 or -errno. */
static int slurp(int fd, char **out, size_t *outlen)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	int ret = 0;

	for (;;) {
		ssize_t n;

		if (cap - len < READ_CHUNK) {
			char *b = cap >= RPT_PERFMAP_MAX_BYTES ? NULL
							       : realloc(buf, cap + READ_CHUNK);

			if (!b) {
				ret = cap >= RPT_PERFMAP_MAX_BYTES ? -EFBIG : -ENOMEM;
				break;
			}
			buf = b;
			cap += READ_CHUNK;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	if (ret) {
		free(buf);
		buf = NULL;
		len = 0;
	}
	*out = buf;
	*outlen = len;
	return ret;
}

int rpt_perfmap_open(const char *path, uid_t owner, uint64_t max, uint64_t *size)
{
	struct stat sb;
	int fd, ret;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb))
		ret = -errno;
	else if (!S_ISREG(sb.st_mode))
		ret = -EINVAL;
	else if (sb.st_uid != owner && sb.st_uid != 0)
		ret = -EPERM;
	else if ((uint64_t)sb.st_size > max)
		ret = -EFBIG;
	else
		ret = 0;
	if (ret) {
		close(fd);
		return ret;
	}
	*size = (uint64_t)sb.st_size;
	return fd;
}

int rpt_perfmap_read(struct rpt_perfmap *pm, const char *path, uid_t owner)
{
	char *buf = NULL;
	size_t len = 0;
	uint64_t size;
	int fd, ret;

	rpt_perfmap_release(pm);
	fd = rpt_perfmap_open(path, owner, RPT_PERFMAP_MAX_BYTES, &size);
	if (fd < 0)
		return fd;
	ret = slurp(fd, &buf, &len);
	close(fd);
	if (!ret)
		ret = rpt_perfmap_parse(pm, buf ? buf : "", len);
	free(buf);
	return ret;
}

const struct rpt_perfmap_sym *rpt_perfmap_find(const struct rpt_perfmap *pm, uint64_t addr)
{
	size_t lo = 0, hi = pm->nsyms, mid;

	while (lo < hi) { /* the first symbol that starts above addr */
		mid = lo + (hi - lo) / 2;
		if (pm->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i > 0 && lo - i < MAX_NESTED; i--)
		if (addr < pm->syms[i - 1].end)
			return &pm->syms[i - 1];
	return NULL;
}

void rpt_perfmap_release(struct rpt_perfmap *pm)
{
	free(pm->syms);
	free(pm->names);
	memset(pm, 0, sizeof(*pm));
}

const char *rpt_perfmap_path(int pid, char *buf, size_t len)
{
	snprintf(buf, len, "/tmp/perf-%d.map", pid);
	return buf;
}

bool rpt_perfmap_is_path(const char *path)
{
	const char *p = path;
	size_t ndig = 0;

	if (strncmp(p, "/tmp/perf-", 10))
		return false;
	for (p += 10; *p >= '0' && *p <= '9'; p++)
		ndig++;
	return ndig && ndig <= 10 && !strcmp(p, ".map");
}

/* perf's anonymous memory (util/map.c is_anon_memory): what mmap(MAP_ANONYMOUS) and
 * named anonymous regions (prctl PR_SET_VMA_ANON_NAME) are called in MMAP2 records */
bool rpt_perfmap_anon(const char *path)
{
	return !strcmp(path, "//anon") || !strncmp(path, "[anon:", 6) ||
	       !strncmp(path, "/anon_hugepage", 14) || !strcmp(path, "/dev/zero");
}
