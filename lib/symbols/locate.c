// SPDX-License-Identifier: MIT
/* Where a profiled module's file is now (locate.h). */
#include "symbols/symbols.h"
#include "util/util.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct found {
	char *file; /* NULL: none */
	enum rpt_file_state state;
	enum rpt_found how;
};

struct rpt_locator {
	char **bin, **sym;
	int nbin, nsym;
	char *cache;		 /* NULL: no build-id cache */
	struct util_strmap done; /* recorded path -> struct found (owned) */
};

bool rpt_buildid_link(char *buf, size_t len, const char *dir, const unsigned char *bits, size_t n)
{
	size_t at;
	int w;

	if (!n || !dir)
		return false;
	w = snprintf(buf, len, "%s/.build-id/%02x/", dir, bits[0]);
	if (w < 0 || (size_t)w >= len)
		return false;
	at = (size_t)w;
	for (size_t i = 1; i < n; i++, at += 2)
		if (at + 3 > len)
			return false;
		else
			snprintf(buf + at, 3, "%02x", bits[i]);
	return true;
}

bool rpt_buildid_default_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME"), *perf = getenv("PERF_BUILDID_DIR");
	struct passwd *pw;
	int n;

	if (perf && *perf) { /* perf's own override: one cache for both */
		n = snprintf(buf, len, "%s", perf);
		return n > 0 && (size_t)n < len;
	}
	if (!home || !*home) {
		pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home || !*home)
		return false;
	n = snprintf(buf, len, "%s/.debug", home);
	return n > 0 && (size_t)n < len;
}

/* What the file at @file is against @id: OK, MISSING, CHANGED or UNREADABLE. Only regular
 * ELF files are read (a FIFO would block). */
static enum rpt_file_state check_file(const char *file, const struct rpt_file_id *id)
{
	enum rpt_file_state st = RPT_FILE_UNREADABLE;
	struct stat sb;
	Elf *elf = NULL;
	int fd;

	if (stat(file, &sb))
		return errno == ENOENT || errno == ENOTDIR ? RPT_FILE_MISSING : RPT_FILE_UNREADABLE;
	if (!S_ISREG(sb.st_mode))
		return RPT_FILE_UNREADABLE;
	if (rpt_inode_differs(&sb, id))
		return RPT_FILE_CHANGED;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return RPT_FILE_UNREADABLE;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		st = rpt_file_id_differs(elf, &sb, id) ? RPT_FILE_CHANGED : RPT_FILE_OK;
	elf_end(elf);
	close(fd);
	return st;
}

/* A file found elsewhere is taken when its build id is the recorded one; with no build id
 * recorded, any ELF file of that name (its inode is another one by nature). */
static bool candidate_ok(const char *file, const struct rpt_file_id *id)
{
	struct rpt_file_id bid = { 0 };

	if (id && id->build_id_len) {
		memcpy(bid.build_id, id->build_id, sizeof(bid.build_id));
		bid.build_id_len = id->build_id_len;
	}
	return check_file(file, &bid) == RPT_FILE_OK;
}

/* The cache's copy of the file of build id @id: perf's "<link>/elf", or an older perf's
 * link to the file itself. */
static char *from_cache(const struct rpt_locator *l, const struct rpt_file_id *id)
{
	char link[PATH_MAX], file[PATH_MAX + 8];
	struct stat sb;

	if (!l->cache || !id || !id->build_id_len ||
	    !rpt_buildid_link(link, sizeof(link), l->cache, id->build_id, id->build_id_len))
		return NULL;
	snprintf(file, sizeof(file), "%s/elf", link);
	if (candidate_ok(file, id))
		return strdup(file);
	if (!stat(link, &sb) && S_ISREG(sb.st_mode) && candidate_ok(link, id))
		return strdup(link);
	return NULL;
}

static char *from_bin_paths(const struct rpt_locator *l, const char *path,
			    const struct rpt_file_id *id)
{
	const char *base = strrchr(path, '/');
	char file[PATH_MAX * 2];

	base = base ? base + 1 : path;
	for (int i = 0; i < l->nbin && *base; i++) {
		snprintf(file, sizeof(file), "%s/%s", l->bin[i], base);
		if (candidate_ok(file, id))
			return strdup(file);
		/* a tree that holds the target's files at their paths (a sysroot) */
		snprintf(file, sizeof(file), "%s%s", l->bin[i], path);
		if (candidate_ok(file, id))
			return strdup(file);
	}
	return NULL;
}

static int find(const struct rpt_locator *l, const char *path, const struct rpt_file_id *id,
		struct found *f)
{
	f->state = check_file(path, id);
	f->how = RPT_FOUND_NONE;
	f->file = NULL;
	if (f->state == RPT_FILE_OK || f->state == RPT_FILE_UNREADABLE) {
		/* an unreadable file is read (and fails) where it is: it was not moved */
		f->file = strdup(path);
		f->how = f->state == RPT_FILE_OK ? RPT_FOUND_PATH : RPT_FOUND_NONE;
		return f->file ? 0 : -ENOMEM;
	}
	errno = 0;
	f->file = from_cache(l, id);
	if (f->file) {
		f->how = RPT_FOUND_CACHE;
		return 0;
	}
	f->file = from_bin_paths(l, path, id);
	if (f->file)
		f->how = RPT_FOUND_BIN_PATH;
	return !f->file && errno == ENOMEM ? -ENOMEM : 0;
}

void rpt_locate(struct rpt_locator *l, const char *path, const struct rpt_file_id *id,
		struct rpt_located *out)
{
	static struct found none = { NULL, RPT_FILE_UNREADABLE, RPT_FOUND_NONE }; /* no memory */
	struct found *f = util_strmap_get(&l->done, path);

	if (!f) {
		f = calloc(1, sizeof(*f));
		if (!f || find(l, path, id, f) || util_strmap_put(&l->done, path, f)) {
			if (f)
				free(f->file);
			free(f);
			f = &none;
		}
	}
	out->file = f->file;
	out->state = f->state;
	out->how = f->how;
}

const char *const *rpt_locator_symbol_paths(const struct rpt_locator *l, int *n)
{
	*n = l ? l->nsym : 0;
	return l ? (const char *const *)l->sym : NULL;
}

static char **copy_list(const char *const *v, int n)
{
	char **out = calloc((size_t)n + 1, sizeof(*out));

	for (int i = 0; out && i < n; i++) {
		out[i] = strdup(v[i]);
		if (!out[i]) {
			for (int j = 0; j < i; j++)
				free(out[j]);
			free(out);
			out = NULL;
		}
	}
	return out;
}

static void free_list(char **v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

struct rpt_locator *rpt_locator_new(const struct rpt_locate_opts *o)
{
	struct rpt_locator *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	elf_version(EV_CURRENT);
	l->nbin = o ? o->nbin_paths : 0;
	l->nsym = o ? o->nsymbol_paths : 0;
	l->bin = copy_list(o ? o->bin_paths : NULL, l->nbin);
	l->sym = copy_list(o ? o->symbol_paths : NULL, l->nsym);
	l->cache = o && o->buildid_dir ? strdup(o->buildid_dir) : NULL;
	if (!l->bin || !l->sym || (o && o->buildid_dir && !l->cache)) {
		rpt_locator_free(l);
		l = NULL;
	}
	return l;
}

void rpt_locator_free(struct rpt_locator *l)
{
	if (!l)
		return;
	util_strmap_for_each(&l->done, e)
	{
		struct found *f = e->val;

		free(f->file);
		free(f);
	}
	util_strmap_release(&l->done);
	free_list(l->bin, l->nbin);
	free_list(l->sym, l->nsym);
	free(l->cache);
	free(l);
}
