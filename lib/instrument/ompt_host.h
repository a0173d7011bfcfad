/* SPDX-License-Identifier: MIT */
/*
 * lib/instrument internal: the OMPT tool's host state, shared by ompt.c (regions, tasks,
 * waits and the end) and ompt_locks.c (locks, critical, ordered): the per-thread table,
 * the region instances, and the few helpers every callback runs.
 */
#ifndef UPROF_OMPT_HOST_H
#define UPROF_OMPT_HOST_H

#include "instrument/internal.h"
#include "instrument/ompt_abi.h"
#include "instrument/ompt_nest.h"
#include "instrument/ompt_tool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAX_THREADS 256
#define MAX_SITES 256	  /* site 0 is "none"; loops are sites too (ompt_loops.c) */
#define MAX_DEPTH 8	  /* nested implicit tasks followed per thread */
#define MAX_TASK_DEPTH 16 /* explicit tasks running inside each other on one thread */
#define INSTS 64	  /* a thread's region instances kept (a power of two) */
#define NF UPROF_OMP_F_MAX
#define TLS __thread __attribute__((tls_model("initial-exec")))
/* The few helpers every callback runs: inlined even at -Os, where each was a call (the
 * tool's callbacks are built for size, module.mk). bench/omp_tool_instr.sh counts what
 * this saves: a call, and the reloads of `ompt_me` after it, per use. */
#define HOT static inline __attribute__((always_inline))

struct site {
	uint64_t code; /* codeptr_ra (atomic; 0 = free) */
	uint32_t kind; /* enum uprof_ctl_omp_site */
};

/* Written by the thread that encountered the region, read by every member of its team
 * (at implicit task begin and end): one cache line each, so that a member reading an
 * instance moves one line between CPUs, not two, and never a line its owner writes for
 * another instance or its own bookkeeping (the table sat 40 bytes into struct othread,
 * every instance across two lines). */
struct inst {
	uint64_t id, begin, end; /* atomic; end 0 while the region runs */
	uint32_t site, team;
	ompt_data_t user; /* the chained tool's parallel_data (the runtime's is ours) */
	struct ompt_nest nest;
} __attribute__((aligned(64)));
_Static_assert(sizeof(struct inst) == 64, "an instance is one cache line");

/* One cache line each: an implicit task's callbacks touch its frame only (40 bytes, the
 * frames lay across lines: every other one on two). */
struct frame {
	uint64_t begin, inst, wait_begin;
	uint32_t site, index, wait_kind;
} __attribute__((aligned(64)));

/* Mapped page-aligned (on_thread_begin). The first line holds what every callback reads
 * or writes of the thread itself (the depths, the thread's time in regions, the instance
 * count and site cache), so that a callback touches this line, its frame's, its site's
 * aggregates and its lane slot (bench/omp_tool_instr.sh counts them with D1=). */
struct othread {
	uint32_t tid, slot;
	int depth, pdepth, tdepth;
	uint32_t type;
	uint64_t ninst;	    /* instances this thread encountered */
	uint64_t last_code; /* site_of's cache: the last code address and its site */
	uint32_t last_site, last_kind;
	uint64_t in_regions;
	struct inst insts[INSTS]; /* the regions it encountered, the last INSTS of them */
	uint64_t born, died;
	struct frame fr[MAX_DEPTH];
	uint64_t pinst[MAX_DEPTH];
	uint64_t task_begin[MAX_TASK_DEPTH];
	uint32_t task_wait[MAX_TASK_DEPTH]; /* wait kind a task paused (0: none) */
	uint64_t lock_begin;
	uint32_t lock_site;
	uint32_t lock_test; /* the acquire begun is an omp_test_*lock: no wait */
	struct ompt_nest_thread nt;
	uint64_t agg[MAX_SITES][NF];
};
_Static_assert(offsetof(struct othread, insts) == 64, "the thread's hot fields are one line");

/* the thread's table (NULL: a thread the tool has no table for) */
extern TLS struct othread *ompt_me;
extern int ompt_full_scope; /* --openmp-scope full: wait records too */
extern int ompt_flushed;    /* the aggregates were sent: nothing more is counted */
extern bool ompt_stamp_tsc; /* the page's stamps are TSC ticks (ins_stamp_is_tsc) */

/* the hot path's clock read */
HOT uint64_t stamp(void)
{
	return ompt_stamp_tsc ? uprof_ctl_tsc() : ins_now_ns();
}

/* the innermost implicit task the thread is in, NULL: none (or deeper than followed) */
HOT struct frame *top(void)
{
	return ompt_me->depth > 0 && ompt_me->depth <= MAX_DEPTH ? &ompt_me->fr[ompt_me->depth - 1]
								 : NULL;
}

HOT bool on(void)
{
	return __builtin_expect(ompt_me != NULL, 1) &&
	       !__atomic_load_n(&ompt_flushed, __ATOMIC_RELAXED);
}

/* The site of @code: the thread's last one when it is that (a region in a loop), else
 * the shared table. */
HOT uint32_t site_of(const void *code, uint32_t kind)
{
	uint64_t c = code ? (uint64_t)(uintptr_t)code : 1;

	if (c != ompt_me->last_code || kind != ompt_me->last_kind) {
		ompt_me->last_site = ompt_site(code, kind);
		ompt_me->last_code = c;
		ompt_me->last_kind = kind;
	}
	return ompt_me->last_site;
}

/* ompt_locks.c: register the lock callbacks (at initialize) */
void ompt_locks_init(void);

#endif
