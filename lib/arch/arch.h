/* SPDX-License-Identifier: MIT */
/*
 * lib/arch: what differs between CPU architectures, in one place: the user registers a
 * dwarf-mode sample copies (collect, lib/pmc), how DWARF registers map to perf's and
 * which the fast CFA path uses (report, lib/report), and the name a session records
 * (session.ini, so that report refuses a session of another architecture), and the
 * vector kernels pcm roofline measures with. One file per architecture, chosen by the
 * Makefile (arch/x86_64.c, arch/aarch64.c, arch/generic.c; arch/roofline_x86_64.c,
 * arch/roofline_generic.c), as Redis picks its ae_*.c: no #ifdef inside the logic. A neutral module: pmc, report
 * and session may all use it.
 */
#ifndef UPROF_ARCH_H
#define UPROF_ARCH_H

#include <stdbool.h>
#include <stddef.h>
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
	int perf_sp, perf_pc;			/* perf's numbers of the stack pointer and the pc */
	int dw_sp, dw_bp; /* DWARF numbers of SP and frame pointer for the fast CFA
				  * path; -1: no fast path (libdwfl unwinds everything) */
};

/* The architecture uprof was built for (and runs on). */
extern const struct arch_desc arch_this;

/* A session written before sessions recorded their architecture was x86_64's. */
#define ARCH_DEFAULT_NAME "x86_64"

/* ---- roofline measuring kernels (roofline_<arch>.c; roofline_generic.c elsewhere) ----
 * One set per vector ISA the architecture has, chosen at run time: each is compiled for
 * its ISA (x86-64: a target attribute), so the binary, built for the baseline, runs on
 * any CPU of the architecture. lib/metric's roofline_bench.c times them; nothing here
 * times or prints. */

/* Independent accumulators of the FMA kernel: enough chains to cover the FMA latency
 * (4 cycles) on 2 pipes (8 in flight) with room. */
#define ARCH_RL_ACC 12

struct arch_rl_kernels {
	const char *isa;     /* "avx512f", "avx2+fma", "sse2"; "generic" */
	const char *fma_how; /* appended to the FMA kernel's description: how it does its 2
			      * FLOPs when not as one fused instruction (" (SSE2: ...)"), or "" */
	int bits;	     /* vector width: bits / 64 doubles, bits / 32 floats per lane set */
	/* @iters iterations of ARCH_RL_ACC accumulators, acc = acc * m + a on every lane;
	 * returns a value that depends on every one (the sum of the accumulators: with
	 * @iters 0, 78 per lane). */
	double (*fma)(bool sp, uint64_t iters);
	/* The sum of @n doubles of @buf (64-byte aligned, @n a multiple of 64), one pass. */
	double (*read)(const double *buf, size_t n);
	/* a[i] = b[i] + s * c[i], i < n (64-byte aligned arrays, @n a multiple of 64),
	 * ordinary stores. */
	void (*triad)(double *a, const double *b, const double *c, double s, size_t n);
};

/* The @i-th set of kernels this CPU runs, widest first (0: the one to measure with);
 * NULL past the last. The sets are static. */
const struct arch_rl_kernels *arch_rl_kernels(int i);

/* 16 dependent integer adds per iteration, one cycle each: the effective clock is
 * 16 x @iters cycles over the time it took. Returns 16 x @iters. */
uint64_t arch_rl_clock_chain(uint64_t iters);

#endif
