/* SPDX-License-Identifier: MIT */
/*
 * lib/arch: what differs between CPU architectures, in one place: the user registers a
 * dwarf-mode sample copies (collect, lib/pmc), how DWARF registers map to perf's and
 * which the fast CFA path uses (report, lib/report), and the name a session records
 * (session.ini, so that report refuses a session of another architecture). One file per
 * architecture, chosen by the Makefile (arch/x86_64.c, arch/aarch64.c, arch/generic.c),
 * as Redis picks its ae_*.c: no #ifdef inside the logic. A neutral module: pmc, report
 * and session may all use it.
 */
#ifndef UPROF_ARCH_H
#define UPROF_ARCH_H

#include <stdint.h>

#define ARCH_MAX_DWARF_REGS 64

struct arch_desc {
	const char *name;	 /* "x86_64", "aarch64": session.ini's [system] arch */
	uint64_t user_regs_mask; /* sample_regs_user of dwarf stacks; 0: dwarf unsupported */
	uint64_t leaf_regs_mask; /* fp stacks' leaf copy: what one CFI step from a leaf
				  * reads (pc, sp, frame pointer); 0: no leaf copy */
	int64_t regs_abi;	 /* PERF_SAMPLE_REGS_ABI_* of those samples; -1: none */
	int ndwarf;		 /* DWARF registers 0 .. ndwarf-1 are unwound */
	int dwarf_to_perf[ARCH_MAX_DWARF_REGS]; /* DWARF register n is perf register [n] */
	int perf_sp, perf_pc;	 /* perf's numbers of the stack pointer and the pc */
	int dw_sp, dw_bp;	 /* DWARF numbers of SP and frame pointer for the fast CFA
				  * path; -1: no fast path (libdwfl unwinds everything) */
};

/* The architecture uprof was built for (and runs on). */
extern const struct arch_desc arch_this;

/* A session written before sessions recorded their architecture was x86_64's. */
#define ARCH_DEFAULT_NAME "x86_64"

#endif
