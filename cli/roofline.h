/* SPDX-License-Identifier: MIT */
/*
 * uprof pcm roofline: the machine's ceilings measured by built-in kernels, and the
 * program's point from its FP and DRAM counters where the PMU has them.
 *   roofline.c          options, the command's flow, the program's counters
 *   roofline_bench.c    timing: threads pinned per CPU, best of N, thread CPU time and
 *                       wall; cache sizes from sysfs; the nominal peak from cpuinfo
 *   roofline_kernels.c  the kernels, one per ISA (runtime dispatch)
 *   roofline_html.c     --html: the log-log chart
 * The file format and the point's arithmetic are lib/metric's (mtr_rl_*), shared with -i.
 */
#ifndef UPROF_CLI_ROOFLINE_H
#define UPROF_CLI_ROOFLINE_H

#include "metric/metric.h"
#include "pmc/pmc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rl_isa { RL_ISA_SSE2, RL_ISA_AVX2, RL_ISA_AVX512 };

/* roofline_kernels.c */
enum rl_isa rl_isa_best(void); /* the widest this CPU runs */
const char *rl_isa_name(enum rl_isa isa);
int rl_isa_bits(enum rl_isa isa);
/* FLOPs one iteration of rl_fma does. */
double rl_fma_flops_per_iter(enum rl_isa isa, bool sp);
/* @iters iterations of the FMA kernel; returns a value that depends on every one. */
double rl_fma(enum rl_isa isa, bool sp, uint64_t iters);
/* Sum @n doubles of @buf (64-byte aligned, @n a multiple of 64) @passes times. */
double rl_read(enum rl_isa isa, const double *buf, size_t n, unsigned passes);
/* a[i] = b[i] + s * c[i], i < n (64-byte aligned arrays, n a multiple of 64). */
void rl_triad(enum rl_isa isa, double *a, const double *b, const double *c, double s, size_t n);

/* 16 dependent adds per iteration: 16 x @iters cycles (the effective clock). */
uint64_t rl_clock_chain(uint64_t iters);

/* roofline_bench.c */
struct rl_bench {
	enum rl_isa isa;
	struct pmc_cpus cpus; /* one pinned thread per CPU for the all-cores figures */
	int ncpus, ncores;
};
/*
 * Measure every ceiling into @r (compute, memory, nominal) and add the facts about how.
 * 0, -ENOMEM, or -errno of a thread that could not be started or pinned (@err says).
 */
int rl_bench_run(const struct rl_bench *b, struct mtr_roofline *r, char *err, size_t errlen);

/* roofline_html.c: write @r as a self-contained page at @path. 0 or -errno. */
int rl_html_write(const struct mtr_roofline *r, const char *path);

#endif
