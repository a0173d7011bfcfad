// SPDX-License-Identifier: MIT
/*
 * Symbols read once for many reports. A job report opens one report per rank, and every
 * rank of a host ran the same program, the same libmpi and its plugins, the same libc and
 * the same kernel: read per rank, /proc/kallsyms (~200 k lines formatted by the kernel at
 * each read) and the libraries' symbol tables cost ~40 ms of CPU a rank, most of a job
 * report's time (bench/mpi_scale.sh). A share keeps them for the whole job.
 *
 * A module is keyed by the host of the session that profiled it, its path and the
 * identity the session recorded for the file (its build id, else its device and inode):
 * what rpt_symtab_lookup's first lookup of a path decides with. Two ranks that recorded
 * the same file get the one answer a lone report of each would have found; a rank that
 * recorded another file at that path (a rebuilt program, another host's) gets its own.
 * The kernel's list is keyed by its path: report reads this machine's, whatever the host.
 */
#include "symbols/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rpt_symshare {
	struct util_strmap dsos;  /* key() -> struct dso (owned) */
	struct util_strmap names; /* their demangled names */
	struct util_strmap ksyms; /* kallsyms path -> struct rpt_ksyms (owned) */
	struct rpt_symshare_counts counts;
};

struct rpt_symshare *rpt_symshare_new(void)
{
	return calloc(1, sizeof(struct rpt_symshare));
}

void rpt_symshare_free(struct rpt_symshare *sh)
{
	if (!sh)
		return;
	util_strmap_for_each(&sh->dsos, e) rpt_dso_free(e->val);
	util_strmap_release(&sh->dsos);
	util_strmap_for_each(&sh->ksyms, e)
	{
		rpt_ksyms_release(e->val);
		free(e->val);
	}
	util_strmap_release(&sh->ksyms);
	util_strmap_release(&sh->names);
	free(sh);
}

int rpt_symtab_share(struct rpt_symtab *st, struct rpt_symshare *sh, const char *host)
{
	char *copy = strdup(host ? host : "");

	if (!copy)
		return -ENOMEM;
	free(st->host);
	st->host = copy;
	st->share = sh;
	return 0;
}

void rpt_symshare_counts(const struct rpt_symshare *sh, struct rpt_symshare_counts *c)
{
	*c = sh->counts;
}

/* "host\x1fpath\x1fidentity", malloc'ed; NULL on out-of-memory. No host name holds the
 * unit separator; a path that does could only meet another such path of its host. */
static char *key(const char *host, const char *path, const struct rpt_file_id *id)
{
	char ident[2 * sizeof(id->build_id) + 64] = "", *k = NULL;

	if (id && id->build_id_len) {
		for (size_t i = 0; i < id->build_id_len && i < sizeof(id->build_id); i++)
			snprintf(ident + 2 * i, 3, "%02x", id->build_id[i]);
	} else if (id && id->ino) {
		snprintf(ident, sizeof(ident), "%" PRIu32 ":%" PRIu32 ":%" PRIu64, id->maj, id->min,
			 id->ino);
	}
	if (asprintf(&k, "%s\x1f%s\x1f%s", host, path, ident) < 0)
		return NULL;
	return k;
}

struct dso *rpt_symshare_dso(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id)
{
	struct rpt_symshare *sh = st->share;
	char *k = key(st->host ? st->host : "", path, id);
	struct dso *d = k ? util_strmap_get(&sh->dsos, k) : NULL;

	if (!k || d) {
		sh->counts.files_shared += d != NULL;
		goto out;
	}
	d = rpt_dso_new(st, path, id, &sh->names);
	if (!d)
		goto out;
	d->shared = true;
	if (util_strmap_put(&sh->dsos, k, d)) {
		rpt_dso_free(d);
		d = NULL;
		goto out;
	}
	sh->counts.files_read++;
out:
	free(k);
	return d;
}

const struct rpt_ksyms *rpt_symshare_ksyms(struct rpt_symshare *sh, const char *path)
{
	struct rpt_ksyms *ks = util_strmap_get(&sh->ksyms, path);

	if (ks) {
		sh->counts.kallsyms_shared++;
		return ks;
	}
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return NULL;
	/* an unreadable list leaves an empty table: every kernel address unresolved, as in
	 * a report of its own */
	rpt_ksyms_load(ks, path);
	if (util_strmap_put(&sh->ksyms, path, ks)) {
		rpt_ksyms_release(ks);
		free(ks);
		return NULL;
	}
	sh->counts.kallsyms_read++;
	return ks;
}
