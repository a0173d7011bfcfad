// SPDX-License-Identifier: MIT
/*
 * perf's jitdump files (jit-<pid>.dump). The bytes are the JIT's, and the file may sit
 * anywhere its MMAP record says, so it is read as perf maps are (rpt_perfmap_open's
 * checks) and every length in it is bounded by what is left of its record and of the
 * file. A dump is mostly code bytes, which we never need: a file is read through a
 * window, record by record, and the code is skipped, not held.
 */
#include "symbols/jitdump.h"

#include "util/util.h"

#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER_SIZE 40 /* magic version total_size elf_mach pad1 pid timestamp flags */
#define PREFIX_SIZE 16 /* id total_size timestamp */
#define LOAD_SIZE 56   /* prefix pid tid vma code_addr code_size code_index, then name */
#define MOVE_SIZE 64   /* prefix pid tid vma old_addr new_addr code_size code_index */
#define WINDOW 65536   /* bytes of a file read at once */

/* The dump's bytes: a buffer, or a file read through a window. */
struct src {
	const unsigned char *buf;
	uint64_t len;
	int fd; /* -1: buf */
	unsigned char *win;
	uint64_t win_off, win_len;
	int err; /* -errno of a failed read */
};

/* @n bytes at @off, valid until the next call; NULL past the end (or s->err set). */
static const unsigned char *src_at(struct src *s, uint64_t off, size_t n)
{
	if (off > s->len || n > s->len - off)
		return NULL;
	if (s->fd < 0)
		return s->buf + off;
	if (off < s->win_off || off + n > s->win_off + s->win_len) {
		size_t want = n > WINDOW ? n : WINDOW, got = 0;

		if (!s->win && !(s->win = malloc(WINDOW + RPT_JITDUMP_MAX_NAME_SCAN + LOAD_SIZE))) {
			s->err = -ENOMEM;
			return NULL;
		}
		s->win_off = off;
		s->win_len = 0;
		while (got < want) {
			ssize_t r = pread(s->fd, s->win + got, want - got, (off_t)(off + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0) {
				s->err = -errno;
				return NULL;
			}
			if (!r)
				break;
			got += (size_t)r;
		}
		s->win_len = got;
		if (got < n) /* the file shrank since fstat: its end is here */
			return NULL;
	}
	return s->win + (off - s->win_off);
}

struct parse {
	struct rpt_perfmap *pm;
	struct rpt_jitdump_stats *st;
	bool swap;
	size_t cap, names_used, names_cap;
	struct util_hash by_index; /* code_index -> offset of its latest name in names + 1 */
};

static uint32_t u32(const struct parse *ps, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return ps->swap ? bswap_32(v) : v;
}

static uint64_t u64(const struct parse *ps, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return ps->swap ? bswap_64(v) : v;
}

/* Add [start, start + size) named by the name at @name_off. 0, 1 (malformed) or -ENOMEM. */
static int add_sym(struct parse *ps, uint64_t start, uint64_t size, size_t name_off)
{
	struct rpt_perfmap *pm = ps->pm;

	if (!size || start + size < start)
		return 1;
	if (pm->nsyms == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 64;
		struct rpt_perfmap_sym *s = realloc(pm->syms, cap * sizeof(*s));

		if (!s)
			return -ENOMEM;
		pm->syms = s;
		ps->cap = cap;
	}
	/* an offset until names stops moving */
	pm->syms[pm->nsyms++] = (struct rpt_perfmap_sym){ start, start + size,
							  (const char *)(uintptr_t)name_off };
	return 0;
}

/* A copy of @n bytes of name at @p, NUL added; its offset in names, or -ENOMEM. */
static long long add_name(struct parse *ps, const unsigned char *p, size_t n)
{
	size_t off = ps->names_used;

	if (ps->names_cap - ps->names_used < n + 1) {
		size_t cap = 2 * ps->names_cap + n + 1;
		char *b = realloc(ps->pm->names, cap);

		if (!b)
			return -ENOMEM;
		ps->pm->names = b;
		ps->names_cap = cap;
	}
	memcpy(ps->pm->names + off, p, n);
	ps->pm->names[off + n] = 0;
	ps->names_used += n + 1;
	return (long long)off;
}

/* The CODE_LOAD record of @size bytes at @off. 0, 1 (malformed) or -errno. */
static int code_load(struct parse *ps, struct src *s, uint64_t off, uint64_t size)
{
	const unsigned char *p = src_at(s, off, LOAD_SIZE), *name, *nul;
	uint64_t addr, code_size, index, region;
	uint64_t *slot;
	long long name_off;
	size_t n;
	int ret;

	if (!p || size < LOAD_SIZE + 1)
		return s->err ? s->err : 1;
	addr = u64(ps, p + 32);
	code_size = u64(ps, p + 40);
	index = u64(ps, p + 48);
	if (code_size > size - LOAD_SIZE - 1)
		return 1;
	/* the name and its NUL, then the code (and perhaps padding after it) */
	region = size - LOAD_SIZE - code_size;
	if (region > RPT_JITDUMP_MAX_NAME_SCAN)
		region = RPT_JITDUMP_MAX_NAME_SCAN;
	name = src_at(s, off + LOAD_SIZE, (size_t)region);
	if (!name)
		return s->err ? s->err : 1;
	nul = memchr(name, 0, (size_t)region);
	if (!nul || nul == name)
		return 1;
	n = (size_t)(nul - name);
	if (!code_size || addr + code_size < addr)
		return 1;
	name_off = add_name(ps, name, n > RPT_PERFMAP_MAX_NAME ? RPT_PERFMAP_MAX_NAME : n);
	if (name_off < 0)
		return (int)name_off;
	ret = add_sym(ps, addr, code_size, (size_t)name_off);
	if (ret)
		return ret;
	slot = util_hash_slot(&ps->by_index, index, 0, 0);
	if (!slot)
		return -ENOMEM;
	*slot = (uint64_t)name_off + 1;
	ps->st->loads++;
	return 0;
}

/* The CODE_MOVE record of @size bytes at @off. 0, 1 (malformed) or -errno. */
static int code_move(struct parse *ps, struct src *s, uint64_t off, uint64_t size)
{
	const unsigned char *p = size < MOVE_SIZE ? NULL : src_at(s, off, MOVE_SIZE);
	uint64_t *slot;
	int ret;

	if (!p)
		return s->err ? s->err : 1;
	slot = util_hash_find(&ps->by_index, u64(ps, p + 56), 0, 0);
	if (!slot) {
		ps->st->unmatched++;
		return 0;
	}
	ret = add_sym(ps, u64(ps, p + 40), u64(ps, p + 48), (size_t)(*slot - 1));
	if (!ret)
		ps->st->moves++;
	return ret;
}

/* The header; the offset of the first record in *@first. 0 or -errno. */
static int header(struct parse *ps, struct src *s, uint64_t *first)
{
	const unsigned char *p = src_at(s, 0, HEADER_SIZE);
	uint32_t magic;

	if (!p)
		return s->err ? s->err : -EINVAL;
	memcpy(&magic, p, sizeof(magic));
	if (magic != RPT_JITDUMP_MAGIC && magic != bswap_32(RPT_JITDUMP_MAGIC))
		return -EINVAL;
	ps->swap = ps->st->swapped = magic != RPT_JITDUMP_MAGIC;
	if (u32(ps, p + 4) > RPT_JITDUMP_VERSION)
		return -EPROTO;
	*first = u32(ps, p + 8);
	if (*first < HEADER_SIZE)
		return -EINVAL;
	ps->st->elf_mach = u32(ps, p + 12);
	ps->st->pid = u32(ps, p + 20);
	return 0;
}

static int walk(struct parse *ps, struct src *s)
{
	uint64_t off = 0;
	int ret = header(ps, s, &off);

	while (!ret && off < s->len) {
		const unsigned char *p = src_at(s, off, PREFIX_SIZE);
		uint32_t id, size;

		if (!p) {
			ps->st->truncated = !s->err;
			ret = s->err;
			break;
		}
		id = u32(ps, p);
		size = u32(ps, p + 4);
		if (size < PREFIX_SIZE) {
			ps->st->damaged = true; /* no way to the next record */
			break;
		}
		if (size > s->len - off) {
			ps->st->truncated = true;
			break;
		}
		if (id == RPT_JIT_CODE_LOAD)
			ret = code_load(ps, s, off, size);
		else if (id == RPT_JIT_CODE_MOVE)
			ret = code_move(ps, s, off, size);
		else
			ps->st->skipped++;
		if (ret == 1) {
			ps->st->malformed++;
			ret = 0;
		}
		off += size;
	}
	if (off > s->len)
		ps->st->truncated = true; /* the header's size points past the end */
	return ret;
}

static int parse_src(struct rpt_perfmap *pm, struct rpt_jitdump_stats *st, struct src *s)
{
	struct rpt_jitdump_stats ignored;
	struct parse ps = { .pm = pm, .st = st ? st : &ignored };
	int ret;

	rpt_perfmap_release(pm);
	memset(ps.st, 0, sizeof(*ps.st));
	ret = walk(&ps, s);
	for (size_t i = 0; !ret && i < pm->nsyms; i++)
		pm->syms[i].name = pm->names + (uintptr_t)pm->syms[i].name;
	if (!ret)
		ret = rpt_perfmap_sort(pm);
	if (ret)
		rpt_perfmap_release(pm);
	util_hash_release(&ps.by_index);
	return ret;
}

int rpt_jitdump_parse(struct rpt_perfmap *pm, struct rpt_jitdump_stats *st, const void *buf,
		      size_t len)
{
	struct src s = { .buf = buf, .len = len, .fd = -1 };

	return parse_src(pm, st, &s);
}

int rpt_jitdump_read(struct rpt_perfmap *pm, struct rpt_jitdump_stats *st, const char *path,
		     uid_t owner)
{
	struct src s = { .fd = -1 };
	int ret;

	rpt_perfmap_release(pm);
	s.fd = rpt_perfmap_open(path, owner, RPT_JITDUMP_MAX_BYTES, &s.len);
	if (s.fd < 0)
		return s.fd;
	ret = parse_src(pm, st, &s);
	free(s.win);
	close(s.fd);
	return ret;
}

int rpt_jitdump_path_pid(const char *path, size_t len)
{
	const char *base = path, *p, *end = path + len;
	long pid = 0;

	for (p = path; p < end; p++)
		if (*p == '/')
			base = p + 1;
	if (end - base < 10 || memcmp(base, "jit-", 4) || memcmp(end - 5, ".dump", 5))
		return -1;
	for (p = base + 4; p < end - 5; p++) {
		if (*p < '0' || *p > '9' || pid > 0x7fffffff / 10)
			return -1;
		pid = pid * 10 + (*p - '0');
	}
	return pid <= 0x7fffffff ? (int)pid : -1;
}

bool rpt_jitdump_is_path(const char *path)
{
	return rpt_jitdump_path_pid(path, strlen(path)) >= 0;
}
