// SPDX-License-Identifier: MIT
/*
 * Source text for Function Detail Data: where the file DWARF names is (its path, made
 * absolute by libdw from the unit's DW_AT_comp_dir, else under --src-path), and its text
 * split into lines. A source file is untrusted input (fuzz/fuzz_srcfile.c): any bytes,
 * bounded size, no assumption of a final newline or of no NUL bytes.
 */
#include "annotate/annotate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rpt_srcfile_parse(struct rpt_srcfile *s, char *buf, size_t len)
{
	size_t n = 1, cap = 1024, *v;

	memset(s, 0, sizeof(*s));
	s->buf = buf;
	s->len = len;
	v = malloc(cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[0] = 0;
	for (size_t i = 0; i < len && n < RPT_SRC_MAX_LINES; i++) {
		if (buf[i] != '\n' || i + 1 == len)
			continue;
		if (n == cap) {
			size_t *g = realloc(v, cap * 2 * sizeof(*v));

			if (!g) {
				free(v);
				return -ENOMEM;
			}
			v = g;
			cap *= 2;
		}
		v[n++] = i + 1;
	}
	s->starts = v;
	s->nlines = len ? n : 0;
	return 0;
}

const char *rpt_srcfile_line(const struct rpt_srcfile *s, int line, size_t *len)
{
	size_t i, from, to;

	*len = 0;
	if (line <= 0 || (size_t)line > s->nlines)
		return NULL;
	i = (size_t)line - 1;
	from = s->starts[i];
	to = i + 1 < s->nlines ? s->starts[i + 1] : s->len;
	if (to > from && s->buf[to - 1] == '\n')
		to--;
	if (to > from && s->buf[to - 1] == '\r')
		to--;
	*len = to - from;
	return s->buf + from;
}

void rpt_srcfile_release(struct rpt_srcfile *s)
{
	free(s->buf);
	free(s->starts);
	memset(s, 0, sizeof(*s));
}

/* Read @path whole if it is a regular file within the bound. 0, -ENOENT, -EFBIG, -ENOMEM */
static int slurp(struct rpt_srcfile *s, const char *path)
{
	struct stat sb;
	char *buf;
	size_t got = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -ENOENT;
	}
	if ((uint64_t)sb.st_size > RPT_SRC_MAX_BYTES) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)sb.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)sb.st_size) { /* a file that shrinks as it is read: what is there */
		ssize_t k = read(fd, buf + got, (size_t)sb.st_size - got);

		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fd);
	ret = rpt_srcfile_parse(s, buf, got);
	if (ret)
		rpt_srcfile_release(s);
	return ret;
}

int rpt_srcfile_read(struct rpt_srcfile *s, const char *file, const char *const *dirs, int ndirs,
		     char *found, size_t foundlen)
{
	int ret = slurp(s, file);

	if (ret != -ENOENT) {
		if (!ret)
			snprintf(found, foundlen, "%s", file);
		return ret;
	}
	for (int d = 0; d < ndirs; d++) {
		/* DIR/<whole path>, then with one leading component less each time: a tree
		 * moved from /build/x/src/a.c is found as DIR/src/a.c or DIR/a.c */
		for (const char *p = file; p && *p;) {
			char path[PATH_MAX];

			while (*p == '/')
				p++;
			if (!*p ||
			    snprintf(path, sizeof(path), "%s/%s", dirs[d], p) >= (int)sizeof(path))
				break;
			ret = slurp(s, path);
			if (ret != -ENOENT) {
				if (!ret)
					snprintf(found, foundlen, "%s", path);
				return ret;
			}
			p = strchr(p, '/');
		}
	}
	return -ENOENT;
}
