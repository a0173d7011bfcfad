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
static int data_key(int dfd, const struct rpt_options *o, struct rpt_tr_key *k)
{
	unsigned char *head = NULL;
	struct stat sb;
	ssize_t n;
	int fd, ret = 0;

	fd = ses_file_open_read_at(dfd, SES_DATA_FILE, NULL, NULL, 0);
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

/* A module's file: an absolute path as recorded, or one of the session's ("vdso.so")
 * beneath its fd, no symlink followed (docs/DESIGN.md §4). 0 or -1 with errno. */
static int stat_path(int dfd, const char *path, struct stat *sb)
{
	int fd, ret;

	if (path[0] == '/')
		return stat(path, sb);
	fd = util_at_open(dfd, path, O_PATH, 0);
	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	ret = fstat(fd, sb);
	close(fd);
	return ret;
}

static void stat_file(int dfd, struct rpt_tr_file *f)
{
	struct stat sb;

	if (stat_path(dfd, f->path, &sb)) {
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
static const struct rpt_tr_file *changed_file(int dfd, const struct rpt_tr *t)
{
	for (uint32_t i = 0; i < t->nfiles; i++) {
		struct rpt_tr_file now = { .path = t->files[i].path };

		stat_file(dfd, &now);
		if (now.missing != t->files[i].missing || now.size != t->files[i].size ||
		    now.ino != t->files[i].ino || now.dev != t->files[i].dev ||
		    now.mtime_s != t->files[i].mtime_s || now.mtime_ns != t->files[i].mtime_ns)
			return &t->files[i];
	}
	return NULL;
}

/* ---- reading ---- */

/* All of the open regular file @fd, @size bytes at most, into a malloc'ed *@out. */
static int read_fd(int fd, uint64_t size, unsigned char **out, size_t *n)
{
	unsigned char *buf = malloc(size ? (size_t)size : 1);
	size_t got = 0;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	while (got < size) {
		ssize_t r = read(fd, buf + got, (size_t)size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (!r)
			break;
		got += (size_t)r;
	}
	*out = buf;
	*n = got;
	return 0;
}

/* translated.bin beneath @dfd, parsed, if it is a regular file of ours. 0 with *@out;
 * -ENOENT (none: nothing to say); else -errno with @why. Owner and mode are checked on
 * the fd that is read, so no file put there after the check is read. */
static int load(int dfd, struct rpt_tr **out, char *why, size_t len)
{
	unsigned char *buf = NULL;
	char err[256];
	struct stat sb;
	uint64_t size;
	size_t n = 0;
	int fd, ret;

	*out = NULL;
	fd = ses_file_open_read_at(dfd, RPT_TR_FILE, &size, err, sizeof(err));
	if (fd == -ENOENT)
		return -ENOENT;
	if (fd == -ELOOP) {
		snprintf(why, len, "a symbolic link, not a file translate wrote");
		return -ELOOP;
	}
	if (fd < 0) {
		snprintf(why, len, "%s", err);
		return fd;
	}
	ret = fstat(fd, &sb) ? -errno : 0;
	if (ret) {
		snprintf(why, len, "cannot stat: %s", strerror(-ret));
	} else if (sb.st_uid != geteuid() || (sb.st_mode & 022)) {
		snprintf(why, len, "%s",
			 sb.st_uid != geteuid() ? "owned by another user" : "writable by others");
		ret = -EPERM;
	} else if (size > RPT_TR_MAX_SIZE) {
		snprintf(why, len, "is %llu bytes, more than the %llu this file can be",
			 (unsigned long long)size, (unsigned long long)RPT_TR_MAX_SIZE);
		ret = -EFBIG;
	} else {
		ret = read_fd(fd, size, &buf, &n);
		if (ret)
			snprintf(why, len, "cannot read: %s", strerror(-ret));
	}
	close(fd);
	if (ret)
		return ret;
	return rpt_tr_parse(buf, n, out, why, len);
}

/* Does @t still match @key and the files? 0, or 1 with @why. */
static int stale(int dfd, const struct rpt_tr *t, const struct rpt_tr_key *key, char *why,
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
	f = changed_file(dfd, t);
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
	s->have_key = !data_key(r->dfd, &r->opts, &s->key);
	if (r->opts.retranslate || !s->have_key)
		return 0;
	ret = load(r->dfd, &s->cache, why, sizeof(why));
	if (ret == -ENOENT)
		return 0;
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		snprintf(s->note, sizeof(s->note), RPT_TR_FILE " is unusable (%s): unwinding again",
			 why);
	else if (stale(r->dfd, s->cache, &s->key, why, sizeof(why)))
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
		stat_file(r->dfd, &f[k++]);
	}
	f[k].path = strdup("vdso.so");
	if (!f[k].path)
		goto nomem;
	stat_file(r->dfd, &f[k++]);
	*n = k;
	return 0;
nomem:
	*n = k;
	return -ENOMEM;
}

/* translated.bin beneath @dfd, replaced whole: a new temporary file (O_EXCL, 0600) renamed
 * over it, so a link, a FIFO or a damaged file in its place is replaced, never followed. */
static int write_file(int dfd, const unsigned char *buf, size_t len)
{
	char tmp[NAME_MAX + 1];
	size_t done = 0;
	int fd, ret = 0;

	fd = util_at_replace_open(dfd, RPT_TR_FILE, SES_FILE_MODE, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	while (done < len && !ret) {
		ssize_t w = write(fd, buf + done, len - done);

		if (w < 0 && errno != EINTR)
			ret = -errno;
		else if (w > 0)
			done += (size_t)w;
	}
	if (ret) {
		close(fd);
		util_at_unlink(dfd, tmp, 0);
		return ret;
	}
	return util_at_replace_commit(dfd, tmp, RPT_TR_FILE, fd, false);
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
		ret = write_file(r->dfd, buf, len);
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

int rpt_translated_check(int dfd, const struct rpt_options *opts, char *why, size_t len)
{
	struct rpt_tr_key key;
	struct rpt_tr *t = NULL;
	bool current = false;
	char w[512];
	int ret = data_key(dfd, opts, &key);

	if (ret) {
		snprintf(why, len, "samples.data cannot be read: %s", strerror(-ret));
		return 1;
	}
	ret = load(dfd, &t, w, sizeof(w));
	if (ret == -ENOMEM)
		return ret;
	if (ret == -ENOENT)
		snprintf(why, len, "there is no " RPT_TR_FILE " yet");
	else if (ret)
		snprintf(why, len, RPT_TR_FILE " is unusable (%s)", w);
	else if (stale(dfd, t, &key, w, sizeof(w)))
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
