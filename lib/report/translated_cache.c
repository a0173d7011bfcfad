// SPDX-License-Identifier: MIT
/*
 * The report's side of translated.bin (its format: lib/unwind/unwind.h): a report uses
 * the unwinds stored there while the file still matches what they were made from, and
 * unwinds itself otherwise; `uprof translate` (and report --retranslate) writes it.
 *
 * It matches when samples.data has the size, mtime and first 64 KiB it had; when the
 * options that change an unwind (--bin-path, --symbol-path, the build-id cache,
 * DEBUGINFOD_URLS, uprof's version) are the same; and when every module file the
 * translation read (where it was found then), and the session's vDSO copy, has the size,
 * mtime, inode and device it had, or is still missing. Each entry also records the frame
 * limit it was unwound with, and a sample the file has no entry for is unwound here: a
 * report with and without the file writes the same report.csv.
 *
 * A file that is not a regular file of ours (a link, a FIFO, another user's, writable by
 * others), that does not parse, or that does not match, is not used: one note says why
 * (rpt_translated_note), and the report goes the normal way.
 */
#include "report/internal.h"
#include "symbols/symbols.h"
#include "report/stacks.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEAD_BYTES 65536

struct rpt_trstate {
	struct rpt_tr *cache; /* in use: it matches */
	struct rpt_tr_writer w;
	bool record; /* keep every unwind for rpt_translated_write */
	bool have_key;
	struct rpt_tr_key key; /* samples.data as this report opened it */
	char note[640];
	uint64_t hits, misses;
};

/* ---- the key ---- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	return rpt_tr_hash(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static uint64_t hash_paths(uint64_t h, const char *const *p, int n)
{
	h = rpt_tr_hash(h, &n, sizeof(n));
	for (int i = 0; i < n; i++)
		h = hash_str(h, p[i]);
	return h;
}

/* The options that change what an unwind finds. --time-filter and -p do not: a sample
 * they leave out has no entry, and is unwound by a report that keeps it. */
static uint64_t opts_hash(const struct rpt_options *o)
{
	uint64_t h = hash_str(RPT_TR_HASH0, UPROF_VERSION);

	h = hash_paths(h, o->bin_paths, o->nbin_paths);
	h = hash_paths(h, o->symbol_paths, o->nsymbol_paths);
	h = hash_str(h, o->buildid_dir);
	return hash_str(h, getenv("DEBUGINFOD_URLS"));
}

/* Which samples a translation covers: 0 for all, else the filters' hash. */
static uint64_t scope_hash(const struct rpt_options *o)
{
	uint64_t h = RPT_TR_HASH0;

	if (!o->time_filter && !o->nonly_pids)
		return 0;
	h = rpt_tr_hash(h, &o->time_filter, sizeof(o->time_filter));
	h = rpt_tr_hash(h, &o->time_from_s, sizeof(o->time_from_s));
	h = rpt_tr_hash(h, &o->time_to_s, sizeof(o->time_to_s));
	h = rpt_tr_hash(h, o->only_pids, sizeof(int) * (size_t)o->nonly_pids);
	return h | 1;
}

/* samples.data's size, mtime and first 64 KiB. 0 or -errno. */
static int data_key(const char *dir, const struct rpt_options *o, struct rpt_tr_key *k)
{
	char path[PATH_MAX + 32];
	unsigned char *head = NULL;
	struct stat sb;
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, dir);
	fd = ses_file_open_read(path, NULL, NULL, 0);
	if (fd < 0)
		return fd;
	head = malloc(HEAD_BYTES);
	if (!head || fstat(fd, &sb)) {
		ret = head ? -errno : -ENOMEM;
		goto out;
	}
	do
		n = pread(fd, head, HEAD_BYTES, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	*k = (struct rpt_tr_key){ (uint64_t)sb.st_size, sb.st_mtim.tv_sec,
				  sb.st_mtim.tv_nsec,	rpt_tr_hash(RPT_TR_HASH0, head, (size_t)n),
				  opts_hash(o),		scope_hash(o) };
out:
	free(head);
	close(fd);
	return ret;
}

/* ---- files ---- */

static void file_path(const char *dir, const char *path, char *buf, size_t len)
{
	if (path[0] == '/')
		snprintf(buf, len, "%s", path);
	else
		snprintf(buf, len, "%s/%s", dir, path);
}

static void stat_file(const char *dir, struct rpt_tr_file *f)
{
	char full[PATH_MAX + 64];
	struct stat sb;

	file_path(dir, f->path, full, sizeof(full));
	if (stat(full, &sb)) {
		f->missing = true;
		f->size = f->ino = f->dev = 0;
		f->mtime_s = f->mtime_ns = 0;
		return;
	}
	f->missing = false;
	f->size = (uint64_t)sb.st_size;
	f->ino = (uint64_t)sb.st_ino;
	f->dev = (uint64_t)sb.st_dev;
	f->mtime_s = sb.st_mtim.tv_sec;
	f->mtime_ns = sb.st_mtim.tv_nsec;
}

/* The first recorded file that is not as it was, or NULL. */
static const struct rpt_tr_file *changed_file(const char *dir, const struct rpt_tr *t)
{
	for (uint32_t i = 0; i < t->nfiles; i++) {
		struct rpt_tr_file now = { .path = t->files[i].path };

		stat_file(dir, &now);
		if (now.missing != t->files[i].missing || now.size != t->files[i].size ||
		    now.ino != t->files[i].ino || now.dev != t->files[i].dev ||
		    now.mtime_s != t->files[i].mtime_s || now.mtime_ns != t->files[i].mtime_ns)
			return &t->files[i];
	}
	return NULL;
}

/* ---- reading ---- */

/* translated.bin of @dir, parsed, if it is a regular file of ours. 0 with *@out; -ENOENT
 * (none: nothing to say); else -errno with @why. */
static int load(const char *dir, struct rpt_tr **out, char *why, size_t len)
{
	char path[PATH_MAX + 32], err[256];
	struct stat sb;
	char *buf;
	size_t n;
	int ret;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/" RPT_TR_FILE, dir);
	if (lstat(path, &sb))
		return errno == ENOENT ? -ENOENT
				       : (snprintf(why, len, "%s", strerror(errno)), -errno);
	if (S_ISLNK(sb.st_mode)) {
		snprintf(why, len, "a symbolic link, not a file translate wrote");
		return -ELOOP;
	}
	if (S_ISREG(sb.st_mode) && (sb.st_uid != geteuid() || (sb.st_mode & 022))) {
		snprintf(why, len, "%s",
			 sb.st_uid != geteuid() ? "owned by another user" : "writable by others");
		return -EPERM;
	}
	ret = ses_file_read_all(path, RPT_TR_MAX_SIZE, &buf, &n, err, sizeof(err));
	if (ret) {
		snprintf(why, len, "%s", err);
		return ret;
	}
	return rpt_tr_parse((unsigned char *)buf, n, out, why, len);
}

/* Does @t still match @key and the files? 0, or 1 with @why. */
static int stale(const char *dir, const struct rpt_tr *t, const struct rpt_tr_key *key, char *why,
		 size_t len)
{
	const struct rpt_tr_file *f;

	if (t->key.data_size != key->data_size || t->key.data_mtime_s != key->data_mtime_s ||
	    t->key.data_mtime_ns != key->data_mtime_ns || t->key.data_head != key->data_head) {
		snprintf(why, len, "samples.data changed");
		return 1;
	}
	if (t->key.opts != key->opts) {
		snprintf(why, len,
			 "--bin-path, --symbol-path, the build-id cache, "
			 "DEBUGINFOD_URLS or uprof's version differ from translate's");
		return 1;
	}
	f = changed_file(dir, t);
	if (f) {
		snprintf(why, len, "%s %s", f->path, f->missing ? "appeared" : "changed");
		return 1;
	}
	return 0;
}

int rpt_tr_open(struct rpt *r)
{
	struct rpt_trstate *s = calloc(1, sizeof(*s));
	char why[512];
	int ret;

	if (!s)
		return -ENOMEM;
	r->tr = s;
	s->record = r->opts.retranslate;
	s->have_key = !data_key(r->dir, &r->opts, &s->key);
	if (r->opts.retranslate || !s->have_key)
		return 0;
	ret = load(r->dir, &s->cache, why, sizeof(why));
	if (ret == -ENOENT)
		return 0;
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		snprintf(s->note, sizeof(s->note), RPT_TR_FILE " is unusable (%s): unwinding again",
			 why);
	else if (stale(r->dir, s->cache, &s->key, why, sizeof(why)))
		snprintf(s->note, sizeof(s->note), RPT_TR_FILE " is stale (%s): unwinding again",
			 why);
	if (s->note[0]) {
		rpt_tr_free(s->cache);
		s->cache = NULL;
	}
	return 0;
}

void rpt_tr_close(struct rpt *r)
{
	if (!r->tr)
		return;
	rpt_tr_free(r->tr->cache);
	rpt_tr_writer_release(&r->tr->w);
	free(r->tr);
	r->tr = NULL;
}

int rpt_tr_unwound(struct rpt *r, int max, uint64_t *pcs, bool *act, int *end)
{
	struct rpt_trstate *s = r->tr;
	int n;

	if (!s || !s->cache)
		return -1;
	n = rpt_tr_lookup(s->cache, r->tr_seq, max, pcs, act, end);
	if (n < 0)
		s->misses++;
	else
		s->hits++;
	return n;
}

void rpt_tr_keep(struct rpt *r, int max, int n, const uint64_t *pcs, const bool *act, int end)
{
	if (r->tr && r->tr->record)
		rpt_tr_writer_note(&r->tr->w, r->tr_seq, max, n, pcs, act, end);
}

/* ---- writing ---- */

/* Every module file the unwinder may have read, where it was found, and the vDSO copy. */
static int list_files(struct rpt *r, struct rpt_tr_file **out, uint32_t *n)
{
	struct rpt_tr_file *f = calloc((size_t)r->world.nmodules + 1, sizeof(*f));
	uint32_t k = 0;

	*out = f;
	if (!f)
		return -ENOMEM;
	for (int i = 0; i < r->world.nmodules; i++) {
		const struct rpt_module *m = &r->world.modules[i];
		struct rpt_located at = { 0 };

		if (m->path[0] != '/')
			continue;
		rpt_locate(r->locator, m->path, &m->id, &at);
		f[k].path = strdup(at.file ? at.file : m->path);
		if (!f[k].path)
			goto nomem;
		stat_file(r->dir, &f[k++]);
	}
	f[k].path = strdup("vdso.so");
	if (!f[k].path)
		goto nomem;
	stat_file(r->dir, &f[k++]);
	*n = k;
	return 0;
nomem:
	*n = k;
	return -ENOMEM;
}

static int write_file(const char *dir, const unsigned char *buf, size_t len)
{
	char path[PATH_MAX + 32], tmp[PATH_MAX + 48];
	size_t done = 0;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/" RPT_TR_FILE, dir);
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	unlink(tmp);
	fd = ses_file_create(tmp, O_WRONLY | O_TRUNC | O_EXCL);
	if (fd < 0)
		return fd;
	while (done < len && !ret) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno != EINTR)
			ret = -errno;
		else if (w > 0)
			done += (size_t)w;
	}
	if (close(fd) && !ret)
		ret = -errno;
	/* rename replaces a link, a FIFO or a damaged file in its place, never follows it */
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int rpt_translated_write(struct rpt *r, char *err, size_t errlen)
{
	struct rpt_trstate *s = r->tr;
	struct rpt_tr_file *files = NULL;
	unsigned char *buf = NULL;
	uint32_t nfiles = 0;
	size_t len;
	int ret;

	if (!s || !s->record || !s->have_key) {
		snprintf(err, errlen, "nothing was kept to write (internal)");
		return -EINVAL;
	}
	ret = list_files(r, &files, &nfiles);
	if (!ret)
		ret = rpt_tr_serialize(&s->w, &s->key, files, nfiles, &buf, &len);
	if (!ret)
		ret = write_file(r->dir, buf, len);
	if (ret)
		snprintf(err, errlen, "writing %s/" RPT_TR_FILE " failed: %s", r->dir,
			 strerror(-ret));
	for (uint32_t i = 0; i < nfiles; i++)
		free(files[i].path);
	free(files);
	free(buf);
	return ret;
}

const char *rpt_translated_note(const struct rpt *r)
{
	return r->tr && r->tr->note[0] ? r->tr->note : NULL;
}

void rpt_translated_stats(const struct rpt *r, struct rpt_translated_stats *out)
{
	const struct rpt_trstate *s = r->tr;

	*out = (struct rpt_translated_stats){ 0 };
	if (!s)
		return;
	out->used = s->cache != NULL;
	out->stacks = s->cache ? s->cache->nentries : s->w.nentries;
	out->hits = s->hits;
	out->misses = s->misses;
}

int rpt_translated_check(const char *dir, const struct rpt_options *opts, char *why, size_t len)
{
	struct rpt_tr_key key;
	struct rpt_tr *t = NULL;
	bool current = false;
	char w[512];
	int ret = data_key(dir, opts, &key);

	if (ret) {
		snprintf(why, len, "samples.data cannot be read: %s", strerror(-ret));
		return 1;
	}
	ret = load(dir, &t, w, sizeof(w));
	if (ret == -ENOMEM)
		return ret;
	if (ret == -ENOENT)
		snprintf(why, len, "there is no " RPT_TR_FILE " yet");
	else if (ret)
		snprintf(why, len, RPT_TR_FILE " is unusable (%s)", w);
	else if (stale(dir, t, &key, w, sizeof(w)))
		snprintf(why, len, RPT_TR_FILE " is stale (%s)", w);
	else if (t->key.scope && t->key.scope != key.scope)
		snprintf(why, len,
			 RPT_TR_FILE " holds only the samples of another "
				     "--time-filter or -p");
	else
		current = true;
	if (current)
		snprintf(why, len, RPT_TR_FILE " is up to date (%u stacks)", t->nentries);
	ret = current ? 0 : 1;
	rpt_tr_free(t);
	return ret;
}
