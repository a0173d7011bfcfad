/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols internal: the symbol table's model, shared by symtab.c (one report's
 * lookups) and symshare.c (module files and kallsyms read once for many reports: the
 * ranks of a job). No other module includes it.
 */
#ifndef UPROF_SYMBOLS_INTERNAL_H
#define UPROF_SYMBOLS_INTERNAL_H

#include "symbols/symbols.h"
#include "symbols/fdes.h"
#include "symbols/kallsyms.h"
#include "symbols/perfmap.h"
#include "util/util.h"

#include <stdbool.h>
#include <sys/types.h>

/* A function symbol; addresses are module-relative virtual addresses. */
struct sym {
	uint64_t addr;
	uint64_t end;	    /* exclusive: addr + size, or the next symbol/section end */
	const char *raw;    /* name as in the ELF file, in dso->strs */
	const char *name;   /* demangled and interned on first use, else NULL */
	unsigned char rank; /* tie-break at one address, only while sorting */
};

/* A PT_LOAD segment, to turn file offsets into virtual addresses. */
struct seg {
	uint64_t off, filesz, vaddr;
};

struct dso {
	char *path; /* the mapped name, also reported as the module */
	char *file; /* the file read: path, or where locate.c found it; NULL: none */
	enum rpt_found found;
	const char *module; /* path, or VDSO_NAME */
	const char *base;   /* last component of path, for unresolved names */
	bool readable;	    /* an ELF file was read (segs are valid) */
	enum rpt_file_state state;
	struct seg *segs;
	size_t nsegs;
	struct sym *syms; /* sorted by addr, one per address */
	size_t nsyms;
	char *strs;	      /* raw names */
	struct rpt_fdes fdes; /* function ranges from the CFI, read on first need */
	bool fdes_read;
	bool jit;		/* a perf map (/tmp/perf-<pid>.map) or jitdump, not an ELF */
	struct rpt_perfmap map; /* its symbols (absolute addresses) */
	/* where its demangled names are interned: its symtab's pool, or for a module of a
	 * rpt_symshare (shared: owned by it, not by the symtabs that look it up) the
	 * share's, so that the names outlive every report that used them */
	struct util_strmap *names;
	bool shared;
};

struct rpt_symtab {
	char *session_dir;
	bool vdso_set; /* rpt_symtab_set_vdso: vdso_file (NULL: our own vDSO) */
	char *vdso_file;
	char *kallsyms_path;
	struct util_strmap dsos; /* path -> struct dso (owned unless shared) */
	struct util_strmap strs; /* interned names */
	struct rpt_ksyms ksyms;
	bool ksyms_loaded;
	struct rpt_locator *loc; /* where module files are now (borrowed, or own_loc) */
	bool own_loc;
	uid_t owner; /* who may have written a perf map we read: the session's owner (the
		      * pid's uid is not recorded; a launched target ran as the collector) */
	struct rpt_symshare *share;	 /* module files and kallsyms from here (borrowed) */
	char *host;			 /* the session's host: the share's key */
	const struct rpt_ksyms *kshared; /* the share's kallsyms, once looked up */
};

/* symtab.c: read @path (if it is the file @id describes) into a new module, its names
 * interned in @names (borrowed); NULL on out-of-memory only. Free with rpt_dso_free. */
struct dso *rpt_dso_new(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id,
			struct util_strmap *names);
void rpt_dso_free(struct dso *d);
/* Is @path a file's name, that could be gone since collection? Not "[vdso]", "//anon",
 * memfd or SysV memory, nor a file already deleted when it was mapped. */
bool rpt_dso_names_file(const char *path);

/* symshare.c: @path's module as @st's share holds it for @st's host and @id, read now
 * through @st when it is not there yet; NULL on out-of-memory. Owned by the share. */
struct dso *rpt_symshare_dso(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id);
/* The kernel's symbols from @path, read once per share. Owned by the share. */
const struct rpt_ksyms *rpt_symshare_ksyms(struct rpt_symshare *sh, const char *path);

#endif
