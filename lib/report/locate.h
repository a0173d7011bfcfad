/* SPDX-License-Identifier: MIT */
/*
 * lib/report/locate.c: where the file of a profiled module is now, the one home of that
 * question for symbols (symtab.c), inlined frames (inline.c) and unwinding (unwind.c).
 *
 * A module is named by the path its MMAP2 record gave. That path is used when the file
 * there is still the file profiled (build id, else inode: fileid.c). When it is gone or
 * another file now, the file is looked for
 *   1. in the build-id cache (perf's ~/.debug layout: .build-id/<xx>/<rest of the id>
 *      is a link to <path>/<build id>/, which holds "elf"), by the recorded build id;
 *   2. under each --bin-path DIR, as DIR/<base name> and DIR/<recorded path>, taken only
 *      when its build id is the recorded one (any ELF file when the session recorded no
 *      build id: nothing can tell).
 * Separate debug files are found under --symbol-path (rpt_dwfl_find_debuginfo, dwfl.h)
 * before libdwfl's standard places and debuginfod (DEBUGINFOD_URLS).
 */
#ifndef UPROF_REPORT_LOCATE_H
#define UPROF_REPORT_LOCATE_H

#include "report/symtab.h"

#include <stddef.h>

struct rpt_locate_opts {
	const char *const *bin_paths; /* --bin-path directories (borrowed, copied) */
	int nbin_paths;
	const char *const *symbol_paths; /* --symbol-path directories */
	int nsymbol_paths;
	const char *buildid_dir; /* the build-id cache (~/.debug); NULL: none */
};

/* Where a module's file was found. */
enum rpt_found {
	RPT_FOUND_NONE,	    /* nowhere: the recorded path's state says why */
	RPT_FOUND_PATH,	    /* at its recorded path */
	RPT_FOUND_CACHE,    /* in the build-id cache */
	RPT_FOUND_BIN_PATH, /* under a --bin-path directory */
};

struct rpt_located {
	const char *file;	  /* the file to read (owned by the locator), NULL: none */
	enum rpt_file_state state; /* of the recorded path */
	enum rpt_found how;
};

struct rpt_locator;

/* NULL on out-of-memory. Everything in @o is copied. */
struct rpt_locator *rpt_locator_new(const struct rpt_locate_opts *o);
void rpt_locator_free(struct rpt_locator *l);

/*
 * The file of the module mapped as @path (an absolute file name) and profiled as @id
 * (borrowed, may be NULL: nothing to check). The answer is kept per path: the first
 * lookup decides (with @id), later ones return it whatever their @id. A file found elsewhere was checked here; callers read
 * it without checking it against @id again (its inode is another one).
 */
void rpt_locate(struct rpt_locator *l, const char *path, const struct rpt_file_id *id,
		struct rpt_located *out);

/* The --symbol-path directories, for dwfl.c's find_debuginfo. */
const char *const *rpt_locator_symbol_paths(const struct rpt_locator *l, int *n);

/* The cache's entry for a build id: "<dir>/.build-id/<xx>/<rest>" into @buf (@len bytes).
 * false when it does not fit or @n is 0. */
bool rpt_buildid_link(char *buf, size_t len, const char *dir, const unsigned char *bits,
		      size_t n);


#endif
