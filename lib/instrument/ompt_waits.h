/* SPDX-License-Identifier: MIT */
/*
 * Waits by type in the OMPT tool (ompt.c): which wait kind an OMPT sync region is, which
 * aggregate field a wait of each kind adds to, and the lumped fields rebuilt from them as
 * they are sent. Header-only: the hot path's one table lookup inlines into the callbacks.
 *
 * Why one add per wait end: the tool's callbacks are meant to cost under 50 ns
 * (docs/DESIGN.md §7). A wait adds its time to exactly one field: its type's
 * (UPROF_OMP_F_WAIT_*, TASKWAIT, TASKGROUP), or the lumped SYNC or LOCKWAIT for kinds
 * with no field of their own (ompt_sync_region_barrier_teams, atomic). SYNC, BARRIER and
 * LOCKWAIT are rebuilt from them when sent (ompt_waits_value), so they mean what they
 * always meant.
 */
#ifndef UPROF_INSTRUMENT_OMPT_WAITS_H
#define UPROF_INSTRUMENT_OMPT_WAITS_H

#include "instrument/ctlpage.h"
#include "instrument/ompt_abi.h"

#include <stdint.h>

/* The wait kind (enum uprof_ctl_omp_wait) of an ompt_sync_region_t. libomp before
 * OpenMP 5.1's kinds says ompt_sync_region_barrier_implicit (or plain barrier) for every
 * implicit barrier: those stay IMPLICIT, as the parallel region's closing one. */
static inline uint32_t ompt_wait_kind(int kind)
{
	switch (kind) {
	case ompt_sync_region_barrier:
	case ompt_sync_region_barrier_implicit:
	case ompt_sync_region_barrier_implicit_parallel:
		return UPROF_OMP_WAIT_BARRIER_IMPLICIT;
	case ompt_sync_region_barrier_implicit_workshare:
		return UPROF_OMP_WAIT_BARRIER_WORKSHARE;
	case ompt_sync_region_barrier_implementation:
		return UPROF_OMP_WAIT_BARRIER_IMPLEMENTATION;
	case ompt_sync_region_barrier_explicit:
		return UPROF_OMP_WAIT_BARRIER_EXPLICIT;
	case ompt_sync_region_taskwait:
		return UPROF_OMP_WAIT_TASKWAIT;
	case ompt_sync_region_taskgroup:
		return UPROF_OMP_WAIT_TASKGROUP;
	case ompt_sync_region_reduction:
		return UPROF_OMP_WAIT_REDUCTION;
	default:
		return UPROF_OMP_WAIT_OTHER;
	}
}

/* Where a row of the tool's aggregates keeps two fields the passive-wait path writes in
 * every region, on each thread: in its first cache line with ITASKS, SPAN and JOINED, in
 * slots no field uses there (there is no field 0; BARRIER is only sent, rebuilt from the
 * types), not in lines of their own (fields 11 and 34: two more lines a region, after a
 * futex sleep two more misses). ompt_waits_value sends them as their fields. */
#define OMPT_AGG_TEAM_INDEX 0
#define OMPT_AGG_WAIT_IMPLICIT UPROF_OMP_F_BARRIER

/* The slot of the row a wait of @kind (enum uprof_ctl_omp_wait, not MUTEX) adds to: its
 * field's, the implicit barrier's OMPT_AGG_WAIT_IMPLICIT. */
static inline int ompt_wait_field(uint32_t kind)
{
	static const unsigned char field[] = {
		[UPROF_OMP_WAIT_BARRIER_IMPLICIT] = OMPT_AGG_WAIT_IMPLICIT,
		[UPROF_OMP_WAIT_BARRIER_EXPLICIT] = UPROF_OMP_F_WAIT_EXPLICIT,
		[UPROF_OMP_WAIT_TASKWAIT] = UPROF_OMP_F_TASKWAIT,
		[UPROF_OMP_WAIT_TASKGROUP] = UPROF_OMP_F_TASKGROUP,
		[UPROF_OMP_WAIT_OTHER] = UPROF_OMP_F_SYNC,
		[UPROF_OMP_WAIT_MUTEX] = UPROF_OMP_F_LOCKWAIT,
		[UPROF_OMP_WAIT_BARRIER_WORKSHARE] = UPROF_OMP_F_WAIT_WORKSHARE,
		[UPROF_OMP_WAIT_BARRIER_IMPLEMENTATION] = UPROF_OMP_F_WAIT_IMPLEMENTATION,
		[UPROF_OMP_WAIT_REDUCTION] = UPROF_OMP_F_WAIT_REDUCTION,
	};

	return kind < sizeof(field) && field[kind] ? field[kind] : UPROF_OMP_F_SYNC;
}

/* The field a wait for a mutex of ompt_mutex_t @kind adds to. */
static inline int ompt_mutex_field(int kind)
{
	switch (kind) {
	case ompt_mutex_lock:
	case ompt_mutex_test_lock:
	case ompt_mutex_nest_lock:
	case ompt_mutex_test_nest_lock:
		return UPROF_OMP_F_WAIT_LOCK;
	case ompt_mutex_critical:
		return UPROF_OMP_F_WAIT_CRITICAL;
	case ompt_mutex_ordered:
		return UPROF_OMP_F_WAIT_ORDERED;
	default:
		return UPROF_OMP_F_LOCKWAIT; /* atomic: no field of its own */
	}
}

/* Field @f of aggregates @a as sent: the lumped fields with their parts added back, the
 * fields kept elsewhere (OMPT_AGG_*) from there, and NEST_LEVEL, stored only when above 1,
 * as 1 for a site the thread ran an implicit task of. */
static inline uint64_t ompt_waits_value(const uint64_t *a, int f)
{
	uint64_t barrier = a[OMPT_AGG_WAIT_IMPLICIT] + a[UPROF_OMP_F_WAIT_WORKSHARE] +
			   a[UPROF_OMP_F_WAIT_EXPLICIT] + a[UPROF_OMP_F_WAIT_IMPLEMENTATION];

	switch (f) {
	case UPROF_OMP_F_BARRIER:
		return barrier;
	case UPROF_OMP_F_WAIT_IMPLICIT:
		return a[OMPT_AGG_WAIT_IMPLICIT];
	case UPROF_OMP_F_TEAM_INDEX:
		return a[OMPT_AGG_TEAM_INDEX];
	case UPROF_OMP_F_NEST_LEVEL:
		return a[f] ? a[f] : a[UPROF_OMP_F_ITASKS] ? 1 : 0;
	case UPROF_OMP_F_SYNC:
		return a[f] + barrier + a[UPROF_OMP_F_TASKWAIT] + a[UPROF_OMP_F_TASKGROUP] +
		       a[UPROF_OMP_F_WAIT_REDUCTION];
	case UPROF_OMP_F_LOCKWAIT:
		return a[f] + a[UPROF_OMP_F_WAIT_LOCK] + a[UPROF_OMP_F_WAIT_CRITICAL] +
		       a[UPROF_OMP_F_WAIT_ORDERED];
	default:
		return a[f];
	}
}

#endif
