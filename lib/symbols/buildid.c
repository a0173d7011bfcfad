// SPDX-License-Identifier: MIT
/*
 * The build-id cache, filled by collect for the files a session mapped executable, in
 * perf's layout (tools/perf/util/build-id.c; checked against perf buildid-cache -a):
 *
 *   <cache>/<file's absolute path>/<build id in hex>/elf      a copy of the file
 *   <cache>/.build-id/<first byte>/<the other bytes>          -> ../../<path>/<build id>
 *
 * so that `perf report` finds them by the build ids of the MMAP2 records as well as
 * report does (locate.c). The build id comes from the record (the kernel read it from
 * the file mapped, Linux 5.12+), and a file is copied only while it still has it: the
 * file at a path may have been rebuilt since it was mapped. perf hard-links where it can;
 * this copies, mode 0600 in 0700 directories, as the session's own files are (§4: a
 * private binary's code stays private): a copy made once per build id.
 */
#include "session/session.h"
#include "symbols/symbols.h"
#include "util/util.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CACHED_FILE (1ULL << 30) /* a file bigger than this is not copied */

/* mkdir -p @path (0700 for what it makes). 0 or -errno. */
static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, 0700) && errno != EEXIST) {
			int ret = -errno;

			*p = '/';
			return ret;
		}
		*p = '/';
	}
	return mkdir(path, 0700) && errno != EEXIST ? -errno : 0;
}

/* Copy the open file @in (@size bytes) to @to, made 0600, through a temporary name so
 * that a cut copy never stands as the cache's file. 0 or -errno. */
static int copy_to(int in, uint64_t size, const char *to)
{
	char tmp[PATH_MAX + 16];
	char buf[1 << 16];
	uint64_t done = 0;
	int out, ret = 0;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", to, (int)getpid());
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	while (!ret && done < size) {
		ssize_t n = pread(in, buf, sizeof(buf), (off_t)done);

		if (n <= 0) {
			ret = n ? -errno : -EIO;
			break;
		}
		for (ssize_t w = 0; w < n && !ret;) {
			ssize_t k = write(out, buf + w, (size_t)(n - w));

			if (k < 0)
				ret = -errno;
			else
				w += k;
		}
		done += (uint64_t)n;
	}
	if (close(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, to))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* Is the file open as @fd the one of build id @id? */
static bool has_build_id(int fd, const struct rpt_file_id *id)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const void *bits;
	ssize_t n;
	bool same;

	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return false;
	}
	n = dwelf_elf_gnu_build_id(elf, &bits);
	same = n > 0 && !rpt_build_id_differs(bits, n, id);
	elf_end(elf);
	return same;
}

/* Add @path of build id @id to @cache. */
static void add_file(const char *cache, const char *path, const struct rpt_file_id *id,
		     struct rpt_cache_stats *st)
{
	char hex[41], dir[PATH_MAX], elf[PATH_MAX + 8], link[PATH_MAX], target[PATH_MAX + 48];
	struct stat sb;
	int fd = -1, ret = 0, n;

	for (int i = 0; i < id->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", id->build_id[i]);
	n = snprintf(dir, sizeof(dir), "%s%s/%s", cache, path, hex);
	if (n < 0 || (size_t)n >= sizeof(dir) ||
	    !rpt_buildid_link(link, sizeof(link), cache, id->build_id, id->build_id_len)) {
		st->skipped++;
		return;
	}
	snprintf(elf, sizeof(elf), "%s/elf", dir);
	if (!lstat(link, &sb) && !stat(elf, &sb)) {
		st->present++;
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
	    (uint64_t)sb.st_size > MAX_CACHED_FILE || !has_build_id(fd, id)) {
		st->skipped++;
		goto out;
	}
	ret = make_dirs(dir);
	if (!ret && stat(elf, &sb))
		ret = copy_to(fd, (uint64_t)sb.st_size, elf);
	if (!ret) {
		char *slash = strrchr(link, '/');

		/* the link is relative, as perf's: the cache can move with the home */
		*slash = 0;
		ret = make_dirs(link);
		*slash = '/';
		snprintf(target, sizeof(target), "../..%s/%s", path, hex);
		if (!ret && symlink(target, link) && errno != EEXIST)
			ret = -errno;
	}
	if (ret) {
		if (!st->failed++)
			st->first_error = ret;
	} else {
		st->added++;
	}
out:
	if (fd >= 0)
		close(fd);
}

int rpt_buildid_cache_fill(const char *dir, const char *cache_dir, struct rpt_cache_stats *st)
{
	char path[PATH_MAX + 32], why[256], name[PATH_MAX];
	struct util_strmap seen = { 0 };
	struct ses_reader *rd = NULL;
	struct ses_record rec;
	struct ses_decoded d;
	int ret;

	memset(st, 0, sizeof(*st));
	elf_version(EV_CURRENT);
	snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, dir);
	ret = ses_reader_open_file(&rd, path, why, sizeof(why));
	if (ret)
		return ret;
	while ((ret = ses_reader_next(rd, &rec)) == 1) {
		const struct ses_mmap *m = &d.u.mmap;
		struct rpt_file_id id = { 0 };

		if (rec.type != PERF_RECORD_MMAP2 || ses_reader_decode(rd, &rec, &d) ||
		    !m->build_id_form || !m->build_id_size || !(m->prot & PROT_EXEC) ||
		    ses_mmap_kind(m) != SES_MAP_FILE || !m->filename_len ||
		    m->filename_len >= sizeof(name) || m->filename[0] != '/')
			continue;
		memcpy(name, m->filename, m->filename_len);
		name[m->filename_len] = 0;
		if (strlen(name) != m->filename_len || strstr(name, "/../") ||
		    util_strmap_get(&seen, name))
			continue;
		ret = util_strmap_put(&seen, name, (void *)1);
		if (ret)
			break;
		id.build_id_len = m->build_id_size;
		memcpy(id.build_id, m->build_id, m->build_id_size);
		add_file(cache_dir, name, &id, st);
	}
	util_strmap_release(&seen);
	ses_reader_free(rd);
	return ret < 0 ? ret : 0;
}
