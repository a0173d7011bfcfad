/* SPDX-License-Identifier: MIT */
/*
 * lib/report internal: symbolization of sampled addresses with libdw/libelf.
 *
 * A symtab caches one entry per module file (opened once, symbols sorted once), the
 * kernel's symbols from kallsyms, and the vDSO image. Lookups take the *file offset* of
 * the sampled address (ip - mmap.start + mmap.pgoff), so results survive ASLR and PIE.
 * Only this file (and symtab.c) touch libdw/libelf.
 * Lookups fill these caches, so a symtab must not be shared between threads.
 */
#ifndef UPROF_REPORT_SYMTAB_H
#define UPROF_REPORT_SYMTAB_H

#include <stdbool.h>
#include <stdint.h>

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
	bool resolved;      /* a symbol named it */
};

/* What the profiled file was, from its MMAP2 record: its build id (Linux 5.12+), else
 * its device and inode. Both zero: nothing recorded, nothing to check. */
struct rpt_file_id {
	unsigned char build_id[20];
	unsigned char build_id_len; /* 0: no build id recorded */
	uint32_t maj, min;
	uint64_t ino;		    /* 0: no inode recorded */
};

/* How a module's file compared with the one profiled, once it was looked up. */
enum rpt_file_state {
	RPT_FILE_OK,	  /* read, and the same file (or nothing recorded to tell) */
	RPT_FILE_MISSING, /* no such file any more (deleted or moved) */
	RPT_FILE_CHANGED, /* a different file now: build id or inode differ (rebuilt) */
	RPT_FILE_UNREADABLE, /* there, but not an ELF file we could read */
};

/*
 * New cache. @session_dir (borrowed, may be NULL) is where collect saved "vdso.so";
 * @kallsyms (borrowed, may be NULL = "/proc/kallsyms") is the kernel symbol list.
 * NULL on out-of-memory.
 */
struct rpt_symtab *rpt_symtab_new(const char *session_dir, const char *kallsyms);
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

/* Resolve a kernel address against kallsyms; module "[kernel.kallsyms]". */
void rpt_symtab_lookup_kernel(struct rpt_symtab *st, uint64_t addr, struct rpt_sym *out);

#endif
