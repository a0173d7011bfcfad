/* SPDX-License-Identifier: MIT */
/*
 * lib/instrument internal: what the OMPT tool's files share. ompt.c has the host
 * callbacks and their end (the aggregates sent at finalize or exit), ompt_locks.c the lock
 * callbacks (with ompt.c's state, ompt_host.h); ompt_chain.c the
 * start and the chaining to a user's tool; ompt_target.c the target offload callbacks
 * (EMI) and the device-tracing consumer (docs/DESIGN.md §9).
 */
#ifndef UPROF_OMPT_TOOL_H
#define UPROF_OMPT_TOOL_H

#include "instrument/ctlpage.h"
#include "instrument/ompt_abi.h"

#include <stdbool.h>
#include <stdint.h>

/* ompt.c: the chained user tool's callback for each event (NULL: none), set by
 * ompt_chain.c */
extern ompt_callback_t ompt_next_cb[ompt_callback_max];
/* ompt.c: note the scope (@full: --openmp-scope full) and the runtime's version strings
 * (said again in a forked child), and name the runtime on the page (at ompt_start_tool) */
void ompt_host_start(bool full, const char *runtime_version, unsigned int omp_version);
/* ompt.c: start the clock, register the host callbacks, the target ones
 * (ompt_target_init), the exit hook and the fork handler (at initialize) */
void ompt_host_init(void);
/* ompt.c: send the aggregates, once (at finalize, or exit) */
void ompt_flush(void);

/* ompt_chain.c: register @cb for @ev with the runtime, noted for the chaining; the code */
int ompt_reg(int ev, ompt_callback_t cb);
/* ompt_chain.c: a bit per event the runtime calls always (ompt_set_always), sent at the
 * flush */
extern uint64_t ompt_callbacks_always;
/* ompt.c: the site id of @code for a construct of @kind (UPROF_OMP_SITE_*), 0 when the
 * table is full (counted) */
uint32_t ompt_site(const void *code, uint32_t kind);

/* ompt_loops.c: a loop or taskloop of ompt_work_t @wstype and @count iterations begun at
 * @codeptr by team member @index of region site @region, into the thread's table @agg
 * (per site, UPROF_OMP_F_*) */
void ompt_loop_begin(uint64_t (*agg)[UPROF_OMP_F_MAX], uint32_t region, uint32_t index, int wstype,
		     uint64_t count, const void *codeptr);

/* ompt_target.c: register the target and device callbacks (at initialize) */
void ompt_target_init(void);
/* ompt_target.c: stop device tracing, so its buffers come in before the aggregates
 * (at finalize or exit) */
void ompt_target_flush(void);

/* Set once a tool behind us registers a callback (ompt_chain.c): until then OMPT_NEXT
 * reads this word, defined beside ompt_flushed (ompt.c) which every callback reads, and
 * not ompt_next_cb, whose lines a callback would otherwise touch each time for nothing
 * (bench/README.md, cache lines per callback). */
extern int ompt_chained;

#define OMPT_NEXT(ev, type, ...) \
	do { \
		if (__builtin_expect(__atomic_load_n(&ompt_chained, __ATOMIC_RELAXED), 0)) { \
			ompt_callback_t n_ = ompt_next_cb[ev]; \
			if (n_) \
				((type)n_)(__VA_ARGS__); \
		} \
	} while (0)

#endif
