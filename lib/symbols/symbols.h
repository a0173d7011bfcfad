/* SPDX-License-Identifier: MIT */
/*
 * lib/symbols: from a sampled address in a module file to a name. The symbol tables of
 * ELF files (symtab.c, with PLT stubs in plt.c and CFI function bounds in fdes.c), the
 * kernel's (kallsyms.c), JIT maps and dumps (perfmap.c, jitdump.c), DWARF inline chains
 * and lines (inline.c, dwfl.c); where a module's file is now (locate.c: recorded path,
 * build-id cache, --bin-path, --symbol-path) and the build-id cache itself (buildid.c),
 * which collect fills and report reads.
 */
#ifndef UPROF_SYMBOLS_H
#define UPROF_SYMBOLS_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * symtab.c: symbolization of sampled addresses with libdw/libelf.
 *
 * A symtab caches one entry per module file (opened once, symbols sorted once), the
 * kernel's symbols from kallsyms, and the vDSO image. Lookups take the *file offset* of
 * the sampled address (ip - mmap.start + mmap.pgoff), so results survive ASLR and PIE.
 * Only lib/symbols touches libdw/libelf.
 * Lookups fill these caches, so a symtab must not be shared between threads.
 */

struct rpt_symtab;

struct rpt_sym {
	const char *name;   /* demangled function name (C++: "ns::Tmpl<double>::step(int)"),
			     * or "basename!0x<addr>" when unresolved, where <addr>
			     * is the function's start when the CFI knows it;
			     * never NULL.
			     * Owned by the symtab, valid until rpt_symtab_free(). */
	const char *module; /* module path as it should be reported (the mapped path,
			     * "[vdso]", "[kernel.kallsyms]"); owned by the symtab */
	uint64_t sym_addr;  /* start of the function (module-relative vaddr): its
			     * symbol's, or with no symbol its CFI's (FDE); 0 when
			     * neither is known */
	bool resolved;	    /* a symbol named it */
};

/* What the profiled file was, from its MMAP2 record: its build id (Linux 5.12+), else
 * its device and inode. Both zero: nothing recorded, nothing to check. */
struct rpt_file_id {
	unsigned char build_id[20];
	unsigned char build_id_len; /* 0: no build id recorded */
	uint32_t maj, min;
	uint64_t ino; /* 0: no inode recorded */
};

/* How a module's file compared with the one profiled, once it was looked up. */
enum rpt_file_state {
	RPT_FILE_OK,	     /* read, and the same file (or nothing recorded to tell) */
	RPT_FILE_MISSING,    /* no such file any more (deleted or moved) */
	RPT_FILE_CHANGED,    /* a different file now: build id or inode differ (rebuilt) */
	RPT_FILE_UNREADABLE, /* there, but not an ELF file we could read */
};

/*
 * New cache. @session_dir (borrowed, may be NULL) is where collect saved "vdso.so";
 * @kallsyms (borrowed, may be NULL = "/proc/kallsyms") is the kernel symbol list.
 * NULL on out-of-memory.
 */
struct rpt_symtab *rpt_symtab_new(const char *session_dir, const char *kallsyms);
/* Instead of a session_dir path: the vDSO's image is the file @vdso_file (borrowed; a
 * private copy of the session's vdso.so that report made; NULL: none, this process's own
 * vDSO), and the perf maps read must be @owner's (the session's owner). 0 or -ENOMEM. */
int rpt_symtab_set_vdso(struct rpt_symtab *st, const char *vdso_file, uid_t owner);
void rpt_symtab_free(struct rpt_symtab *st);

/*
 * Resolve @file_offset inside the file mapped as @path (an MMAP2 filename: absolute path,
 * "[vdso]", "//anon", "/x (deleted)", ...). Never fails: an unreadable file or an address
 * outside every symbol gives resolved = false and the "basename!0x..." name, where the
 * number is the module-relative virtual address (what `nm` would print) when the file
 * could be read, else the file offset. When no symbol covers the address but an FDE of
 * the file's call frame information does, the number (and sym_addr) is that function's
 * start, so all its addresses share one name. @id (borrowed, may be NULL) is what the profiled
 * file was; the first lookup of @path compares it with the file there now, and a
 * different file is not symbolized at all (its symbols would name the wrong code).
 */
void rpt_symtab_lookup(struct rpt_symtab *st, const char *path, const struct rpt_file_id *id,
		       uint64_t file_offset, struct rpt_sym *out);
/* Whether @name is what a lookup gives when no symbol covers an address
 * ("<module>!0x<hex>", or "[unknown]" out of memory): exports in other tools' schemas
 * write such samples as those tools' "unknown". */
bool rpt_symtab_unresolved(const char *name);

/* The state of @path's file as its first lookup found it; RPT_FILE_OK when it has not
 * been looked up, or is no file ("[vdso]", "//anon", ...). */
enum rpt_file_state rpt_symtab_file_state(const struct rpt_symtab *st, const char *path);

/* Read module files where @loc (borrowed, outlives @st) finds them; without it, at their
 * recorded paths only. */
struct rpt_locator;
void rpt_symtab_set_locator(struct rpt_symtab *st, struct rpt_locator *loc);
/* Where @path's file was found and read (enum rpt_found, locate.h); 0 when it was not
 * read or not looked up. */
int rpt_symtab_file_found(const struct rpt_symtab *st, const char *path);

/* fileid.c: is a file another one than @id (may be NULL) describes? By build id when one
 * was recorded, else by inode on the same device; false when nothing tells. */
struct stat;
struct Elf;
bool rpt_file_id_differs(struct Elf *elf, const struct stat *sb, const struct rpt_file_id *id);
/* @bits: @n bytes of the file's build id (n <= 0: none found) */
bool rpt_build_id_differs(const void *bits, long n, const struct rpt_file_id *id);
bool rpt_inode_differs(const struct stat *sb, const struct rpt_file_id *id);
/* The build id of the ELF file at @path in hex into @hex ("" when it has none), unless
 * the file there is not the one @id (may be NULL) recorded: 0, -ENOENT or -errno. */
int rpt_file_build_id_hex(const char *path, const struct rpt_file_id *id, char *hex, size_t len);

/*
 * funcs.c: each function symbol of the ELF file @path (a PLT stub is none), as a lookup
 * names them (the raw ELF name, one per address, in address order), with the file offset
 * of its entry: @fn(@arg, name, offset) until it returns non-zero. 0, @fn's value, -errno
 * of the file (-ENOENT), -ENOEXEC (not an ELF file, or unreadable) or -ENOMEM.
 */
int rpt_symtab_each_function(struct rpt_symtab *st, const char *path,
			     int (*fn)(void *arg, const char *name, uint64_t offset), void *arg);
/* Resolve a kernel address against kallsyms; module "[kernel.kallsyms]". */
void rpt_symtab_lookup_kernel(struct rpt_symtab *st, uint64_t addr, struct rpt_sym *out);

/* ---- symshare.c: symbols read once for many reports (the ranks of an MPI job) ---- */

/*
 * A share holds module files' symbol tables, keyed by host, path and the file's recorded
 * identity (build id, else device and inode), and the kernel's symbol list, keyed by its
 * path: the symtabs that use it read each once, however many sessions name them (the
 * files a job's ranks ran on one host are the same files). The symtabs of one share must
 * have the same locator options (one report's options), and must not be used from two
 * threads at once. NULL on out-of-memory.
 */
struct rpt_symshare;
struct rpt_symshare *rpt_symshare_new(void);
/* After every symtab that used it: names it returned die with it. NULL is fine. */
void rpt_symshare_free(struct rpt_symshare *sh);
/* @st (before its first lookup) takes module files and kallsyms from @sh (borrowed, must
 * outlive @st) as the symtab of a session of host @host (copied; NULL: ""). 0 or -ENOMEM. */
int rpt_symtab_share(struct rpt_symtab *st, struct rpt_symshare *sh, const char *host);

/* What a share saved: module files read and lookups answered from them by another
 * symtab; kallsyms lists read and answered again. */
struct rpt_symshare_counts {
	uint64_t files_read, files_shared;
	uint64_t kallsyms_read, kallsyms_shared;
};
void rpt_symshare_counts(const struct rpt_symshare *sh, struct rpt_symshare_counts *c);

/* ---- locate.c: where a module's file is now ---- */

/*
 * locate.c: where the file of a profiled module is now, the one home of that
 * question for symbols (symtab.c), inlined frames (inline.c) and unwinding
 * (lib/unwind/unwind.c).
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
	const char *file;	   /* the file to read (owned by the locator), NULL: none */
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
bool rpt_buildid_link(char *buf, size_t len, const char *dir, const unsigned char *bits, size_t n);

/* ---- the build-id cache (buildid.c), in perf's ~/.debug layout, so that perf and report
 * find a profiled binary after it moved or was rebuilt ---- */

/* $PERF_BUILDID_DIR (perf's override), else $HOME/.debug (the home of the user from the
 * password database when HOME is unset), into @buf; false when there is no home. */
bool rpt_buildid_default_dir(char *buf, size_t len);

struct rpt_cache_stats {
	int added;	 /* files copied into the cache */
	int present;	 /* already there */
	int skipped;	 /* not added: gone, another file now, too big, or not an ELF file */
	int failed;	 /* could not be written (the cache's file system full, permissions) */
	int first_error; /* -errno of the first failure */
};

/* Add every file the session in @dir (borrowed) mapped executable, with the build id its
 * MMAP2 record carries, to the cache in @cache_dir: the file copied to
 * <cache_dir>/<its path>/<build id>/elf (mode 0600, directories 0700) and linked from
 * <cache_dir>/.build-id/<xx>/<rest>. A file whose build id differs from the recorded one
 * now is not added. 0 or -errno (samples.data unreadable, out of memory); @st counts. */
int rpt_buildid_cache_fill(const char *dir, const char *cache_dir, struct rpt_cache_stats *st);

/* ---- inline.c: inline chains from DWARF, cached per module file ---- */

struct rpt_inlines;
struct rpt_inlines *rpt_inlines_new(const struct rpt_locator *loc);
void rpt_inlines_free(struct rpt_inlines *il);
/* Close @path's DWARF (NULL @il or an unknown path: nothing); a later lookup opens it
 * again. */
void rpt_inlines_close(struct rpt_inlines *il, const char *path);
/*
 * The functions inlined at @file_offset of @path, innermost first, as names borrowed from
 * @il (valid until it is freed): up to @max. 0 when there is no DWARF or nothing inlined.
 */
int rpt_inlines_at(struct rpt_inlines *il, const char *path, uint64_t file_offset,
		   const char **names, int max);
/* The source file and line of @file_offset of @path from its DWARF line table (the
 * innermost: an inlined function's own line). 0, or -ENOENT (no DWARF, no line); *@file
 * is borrowed from @il. */
int rpt_inlines_line(struct rpt_inlines *il, const char *path, uint64_t file_offset,
		     const char **file, int *line);
/* The same, and the directory a relative *@file is relative to (DW_AT_comp_dir of its
 * unit; NULL when none is recorded), borrowed from @il. */
int rpt_inlines_srcline(struct rpt_inlines *il, const char *path, uint64_t file_offset,
			const char **file, int *line, const char **comp_dir);

/*
 * The function the source has @file_offset of @path in, named as rpt_inlines_at names
 * (demangled linkage name, else DW_AT_name; borrowed from @il): the innermost inlined
 * subroutine or subprogram whose code holds it. Compilers move a construct's body (an
 * OpenMP region's) into a function of their own: gcc's "<f>._omp_fn.<n>" is nested in
 * <f> and passed over; clang's ".omp_outlined." is a function of the unit, and for an
 * address in it the function is the one defined in @line_file (the file of the address's
 * source line, @line) that begins last at or before @line: its declaration's file and
 * line both, so a header's inline function is never taken for a .c file's. 0, or -ENOENT
 * (no DWARF, no function found).
 */
int rpt_inlines_function(struct rpt_inlines *il, const char *path, uint64_t file_offset,
			 const char *line_file, int line, const char **name);

/* ---- fdes.c: function bounds from call frame information ---- */

/* The code range [start, end) of one FDE, in the file's link-time virtual addresses. */
struct rpt_fde {
	uint64_t start, end;
};

/* Embedded in its owner; zero-initialise, then parse or read, then release. */
struct rpt_fdes {
	struct rpt_fde *v; /* sorted by start, non-empty ranges */
	size_t n, cap;
};
/* Parse and sort the .eh_frame of @elf (borrowed), or its .debug_frame when it has no
 * .eh_frame FDEs. A file without either leaves @f empty. 0 or -ENOMEM. */
int rpt_fdes_read(struct rpt_fdes *f, struct Elf *elf);

/* The FDE whose range holds @vaddr, or NULL; valid until @f is released. */
const struct rpt_fde *rpt_fdes_find(const struct rpt_fdes *f, uint64_t vaddr);

/* Free the contents; safe on a zeroed or already released table. */
void rpt_fdes_release(struct rpt_fdes *f);

/* ---- dwfl.c ---- */

/* Modules come from rpt_dwfl_report_elf on files report opened and checked; separate
 * debuginfo is looked for under the locator's --symbol-path directories, then in
 * libdwfl's standard places (build id, .debug, /usr/lib/debug) and, when DEBUGINFOD_URLS
 * is set, from debuginfod (libdwfl asks it through libdebuginfod). */
extern const Dwfl_Callbacks rpt_dwfl_file_callbacks;

/* dwfl_report_elf of @file as module @name at @base, whose debuginfo is then looked for
 * under @loc's --symbol-path (borrowed: it must outlive @dwfl; NULL: none). */
Dwfl_Module *rpt_dwfl_report_elf(Dwfl *dwfl, const struct rpt_locator *loc, const char *name,
				 const char *file, GElf_Addr base);

/* ---- perfmap.c and jitdump.c: JIT code ---- */

/* Where the JIT of process @pid writes its map: "/tmp/perf-<pid>.map" (perf's place,
 * fixed: JITs do not ask). @buf of @len bytes; returns @buf. */
const char *rpt_perfmap_path(int pid, char *buf, size_t len);
/* Is @path such a map's name? (a module named so is read as a perf map, not an ELF) */
bool rpt_perfmap_is_path(const char *path);
/* Is an MMAP2 filename @path anonymous memory, where only a perf map can name code? */
bool rpt_perfmap_anon(const char *path);
/* The pid in @path's last component if that is "jit-<digits>.dump" (perf's pattern;
 * @len bytes, no NUL needed), else -1. */
int rpt_jitdump_path_pid(const char *path, size_t len);
/* Is NUL-terminated @path a jitdump's name? (its module is read as one, not an ELF) */
bool rpt_jitdump_is_path(const char *path);

#endif
