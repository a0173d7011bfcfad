/* SPDX-License-Identifier: MIT */
/*
 * lib/unwind's own: what unwind.c (one report's unwinder) and unwind_share.c (the CFI rows
 * of a job's module files, read once for all its ranks) both use.
 */
#ifndef UPROF_UNWIND_INTERNAL_H
#define UPROF_UNWIND_INTERNAL_H

#include "unwind/unwind.h"
#include "util/util.h"

#include <elfutils/libdw.h>
#include <stdbool.h>
#include <stdint.h>

#define RPT_UNWIND_MAX_SEGS 16

/* One CFI row in the simple form the fast path handles. */
struct rpt_unwind_rule {
	bool usable;	/* else: libdwfl for the whole sample */
	bool outermost; /* the return address is undefined: the stack ends here */
	bool nocfi;	/* no CFI at all for the pc (not usable either) */
	int8_t cfa_reg; /* DW_SP or DW_BP */
	int8_t bp_rule; /* 0 same value, 1 saved at CFA + bp_off, 2 undefined */
	int64_t cfa_off, ra_off, bp_off;
};

/* CFI rows by a two-word key, each read once (rule_table.c): the fast path's by (Dwfl
 * build, pc), the job share's by (module file, address in it). */
struct rpt_unwind_rules {
	struct util_hash index; /* key -> v's index + 1 */
	struct rpt_unwind_rule *v;
	size_t n, cap;
};
/* The row of (@k1, @k2): the one read before, or a new zeroed one with *@fresh set, for the
 * caller to read now. NULL when out of memory. Valid until the next new row. */
struct rpt_unwind_rule *rpt_unwind_rules_get(struct rpt_unwind_rules *t, uint64_t k1,
					     uint64_t k2, bool *fresh);
void rpt_unwind_rules_release(struct rpt_unwind_rules *t);

/* What the program headers of one module file say (read once per module). */
struct rpt_unwind_modinfo {
	int state; /* 0 not read, 1 usable, -1 not an ELF file we can use */
	bool exec; /* ET_EXEC: lives at its link addresses */
	int nsegs;
	struct {
		uint64_t off, vaddr, filesz;
	} segs[RPT_UNWIND_MAX_SEGS];
	/* the Dwfl build that reported it last, at which bias, and the module it made: a
	 * file loaded twice (dlopen, dlclose, dlopen elsewhere) is reported at each of its
	 * biases */
	uint64_t stamp, bias;
	struct Dwfl_Module *reported;
};

/*
 * The index of @p's mapping that holds @pc, -1: none. The one lookup of a pc's module, for
 * the job's shared rows and a process's own Dwfl alike: the mappings never overlap (a
 * later mmap cuts away what it covers), where the ranges of the modules a Dwfl reports
 * do: a dlclosed library's mapping that no munmap record removed spans, with its whole
 * ELF image, the library mapped into its place, and libdwfl's dwfl_addrmodule answers by
 * address, not by which mapping is live (Open MPI's dlopened components).
 */
int rpt_unwind_map_index(const struct rpt_unwind_proc *p, uint64_t pc);

/* @mi from @file's program headers, when it is still the file profiled (@id, NULL: no
 * check). */
void rpt_unwind_read_modinfo(struct rpt_unwind_modinfo *mi, const char *file,
			     const struct rpt_file_id *id);
/* Load bias of a mapping at @start of file offset @pgoff, or false if no segment has it. */
bool rpt_unwind_load_bias(const struct rpt_unwind_modinfo *mi, uint64_t start, uint64_t pgoff,
			  uint64_t *bias);
/* @ru from CFI row @frame (the fast path's form, or not usable). */
void rpt_unwind_rule_of(Dwarf_Frame *frame, struct rpt_unwind_rule *ru);

/*
 * unwind_share.c: the leaf rule at @pc of process @p from @sh, keyed by @host, the module
 * file and the pc's address in it: read from the file's .eh_frame on first sight, without
 * a per-process Dwfl. @vdso, @loc: as the unwinder's. 1 with *@ru; 0 when the share
 * cannot say (no file, no .eh_frame row: the unwinder's own path decides, as alone).
 */
int rpt_unwind_share_rule(struct rpt_unwind_share *sh, const char *host, const char *vdso,
			  const struct rpt_locator *loc, const struct rpt_unwind_proc *p,
			  uint64_t pc, struct rpt_unwind_rule *ru);

#endif
