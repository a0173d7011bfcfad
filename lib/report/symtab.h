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
			     * or "basename!0x<addr>" when unresolved; never NULL.
			     * Owned by the symtab, valid until rpt_symtab_free(). */
	const char *module; /* module path as it should be reported (the mapped path,
			     * "[vdso]", "[kernel.kallsyms]"); owned by the symtab */
	uint64_t sym_addr;  /* start of the symbol (module-relative vaddr), 0 unresolved */
	bool resolved;
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
 * could be read, else the file offset.
 */
void rpt_symtab_lookup(struct rpt_symtab *st, const char *path, uint64_t file_offset,
		       struct rpt_sym *out);

/* Resolve a kernel address against kallsyms; module "[kernel.kallsyms]". */
void rpt_symtab_lookup_kernel(struct rpt_symtab *st, uint64_t addr, struct rpt_sym *out);

#endif
