// SPDX-License-Identifier: MIT
/*
 * The leaf unwinder's CFI rows shared by the reports of a job's ranks. A -g rank's
 * frame-pointer samples each want one CFI row, at the leaf's pc (rpt_unwind_leaf); read
 * through a Dwfl of the rank's own address space, that was a dwfl_report_elf of every
 * module the rank mapped, per rank (338 ms a rank of a 256-rank job, bench/README.md),
 * although every rank of a host ran the same files. Here a module file is opened once per
 * job and its .eh_frame read directly (dwarf_getcfi_elf), and a row is read once per
 * (file, address in the file): ranks that mapped a library at another address find the
 * same row.
 *
 * A file is keyed like the symbol share (lib/symbols/symshare.c): the host of the session
 * that profiled it, its recorded path and identity (build id, else device and inode), and
 * where the locator found it now; the session's vDSO copy by its host and its bytes. A
 * row the .eh_frame does not have (a .debug_frame module, code without CFI) is not the
 * share's to say: the rank's own Dwfl decides, as in a report of its own, so a report is
 * the same with or without the share.
 */
#include "unwind/internal.h"
#include "util/util.h"

#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define VDSO_MAX (1 << 20) /* a vDSO copy is a few KiB: a bigger file is not shared */

/* A module file, open for the job. */
struct sfile {
	uint64_t index; /* the rows' key */
	int fd;		/* -1: not usable (state, or no file) */
	Elf *elf;
	Dwarf_CFI *eh; /* its .eh_frame's CFI, NULL: none */
	struct rpt_unwind_modinfo mi;
};

struct rpt_unwind_share {
	struct util_strmap files; /* key -> struct sfile (owned) */
	uint64_t nfiles;
	struct rpt_unwind_rules rows; /* by (file index, address in the file) */
	struct rpt_unwind_share_counts counts;
};

struct rpt_unwind_share *rpt_unwind_share_new(void)
{
	return calloc(1, sizeof(struct rpt_unwind_share));
}

static void sfile_free(struct sfile *f)
{
	if (f->eh)
		dwarf_cfi_end(f->eh);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	free(f);
}

void rpt_unwind_share_free(struct rpt_unwind_share *sh)
{
	if (!sh)
		return;
	util_strmap_for_each(&sh->files, e) sfile_free(e->val);
	util_strmap_release(&sh->files);
	rpt_unwind_rules_release(&sh->rows);
	free(sh);
}

void rpt_unwind_share_counts(const struct rpt_unwind_share *sh, struct rpt_unwind_share_counts *c)
{
	*c = sh->counts;
}

/* The vDSO copy's identity: its size and bytes' hash ("" when unreadable or too big). */
static void vdso_ident(const char *file, char *out, size_t len)
{
	struct stat sb;
	unsigned char *buf;
	ssize_t n;
	int fd = open(file, O_RDONLY | O_CLOEXEC);

	*out = 0;
	if (fd < 0)
		return;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0 && sb.st_size <= VDSO_MAX &&
	    (buf = malloc((size_t)sb.st_size))) {
		n = pread(fd, buf, (size_t)sb.st_size, 0);
		if (n == sb.st_size)
			snprintf(out, len, "vdso:%" PRIu64 ":%016" PRIx64, (uint64_t)n,
				 rpt_tr_hash(RPT_TR_HASH0, buf, (size_t)n));
		free(buf);
	}
	close(fd);
}

/* "host\x1fpath\x1fidentity\x1ffile" (NULL: out of memory, or a vDSO not to share). */
static char *file_key(const char *host, const char *path, const struct rpt_file_id *id,
		      const char *file, bool vdso)
{
	char ident[2 * sizeof(id->build_id) + 64] = "", *k = NULL;

	if (vdso) {
		vdso_ident(file, ident, sizeof(ident));
		if (!*ident)
			return NULL;
		file = "";
	} else if (id && id->build_id_len) {
		for (size_t i = 0; i < id->build_id_len && i < sizeof(id->build_id); i++)
			snprintf(ident + 2 * i, 3, "%02x", id->build_id[i]);
	} else if (id && id->ino) {
		snprintf(ident, sizeof(ident), "%" PRIu32 ":%" PRIu32 ":%" PRIu64, id->maj, id->min,
			 id->ino);
	}
	if (asprintf(&k, "%s\x1f%s\x1f%s\x1f%s", host ? host : "", path, ident, file) < 0)
		return NULL;
	return k;
}

/* @file opened for the job, checked against @id as the unwinder checks it. */
static struct sfile *sfile_open(struct rpt_unwind_share *sh, const char *file,
				const struct rpt_file_id *id)
{
	struct sfile *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->index = ++sh->nfiles;
	f->fd = -1;
	rpt_unwind_read_modinfo(&f->mi, file, id);
	if (f->mi.state <= 0)
		return f;
	f->fd = open(file, O_RDONLY | O_CLOEXEC);
	if (f->fd >= 0)
		f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (f->elf)
		f->eh = dwarf_getcfi_elf(f->elf);
	sh->counts.files_read++;
	return f;
}

/* The job's file for map @m of a process, as the unwinder's Dwfl would report it. */
static struct sfile *sfile_for(struct rpt_unwind_share *sh, const char *host, const char *vdso,
			       const struct rpt_locator *loc, const struct rpt_unwind_map *m)
{
	const char *file = m->path;
	const struct rpt_file_id *id = m->id;
	bool is_vdso = !strcmp(m->path, "[vdso]");
	struct sfile *f;
	char *k;

	if (is_vdso) {
		file = vdso;
		id = NULL;
	} else if (m->path[0] != '/') {
		return NULL;
	} else if (id && loc) {
		struct rpt_located at;

		rpt_locate((struct rpt_locator *)loc, m->path, id, &at);
		file = at.file;
		id = NULL; /* checked there */
	}
	if (!file || !(k = file_key(host, m->path, m->id, file, is_vdso)))
		return NULL;
	f = util_strmap_get(&sh->files, k);
	if (!f && (f = sfile_open(sh, file, id)) && util_strmap_put(&sh->files, k, f)) {
		sfile_free(f);
		f = NULL;
	}
	free(k);
	return f;
}

int rpt_unwind_share_rule(struct rpt_unwind_share *sh, const char *host, const char *vdso,
			  const struct rpt_locator *loc, const struct rpt_unwind_proc *p,
			  uint64_t pc, struct rpt_unwind_rule *ru)
{
	int at = rpt_unwind_map_index(p, pc);
	const struct rpt_unwind_map *m = at >= 0 ? &p->maps[at] : NULL;
	struct rpt_unwind_rule *row;
	Dwarf_Frame *frame = NULL;
	struct sfile *f;
	uint64_t bias;
	bool fresh;

	if (!m || !(f = sfile_for(sh, host, vdso, loc, m)) || f->mi.state <= 0 || !f->eh ||
	    !rpt_unwind_load_bias(&f->mi, m->start, m->pgoff, &bias) ||
	    !(row = rpt_unwind_rules_get(&sh->rows, f->index, pc - bias, &fresh)))
		goto theirs;
	if (fresh) {
		if (dwarf_cfi_addrframe(f->eh, pc - bias, &frame))
			row->nocfi = true; /* perhaps .debug_frame's: the rank's Dwfl looks */
		else
			rpt_unwind_rule_of(frame, row);
		free(frame);
	}
	*ru = *row;
	if (ru->nocfi)
		goto theirs;
	if (fresh)
		sh->counts.rows_read++;
	else
		sh->counts.rows_shared++;
	return 1;
theirs:
	sh->counts.rows_theirs++;
	return 0;
}
