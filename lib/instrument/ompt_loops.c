// SPDX-License-Identifier: MIT
/*
 * Worksharing loops and taskloops in the OMPT tool (ompt.c calls ompt_loop_begin from its
 * work callback). Each loop construct is a site of its own (UPROF_OMP_SITE_LOOP or
 * _TASKLOOP, keyed by its return address with UPROF_OMP_SITE_LOOP_KEY set), with its
 * instances, iterations, the schedules the runtime named and the region it ran in (a
 * taskloop: keyed by its region's site id too, in bits 48..62); the
 * region gets the same sums over all its loops (ctlpage.h's UPROF_OMP_F_WS_*).
 *
 * Counting. Every member of a team gets a worksharing loop's begin with the whole loop's
 * count (libomp: the trip count, whatever the thread's share), so an instance is counted
 * by team member 0 only: counting all and averaging made a region with loops of 100 and
 * 50 iterations show 75. A taskloop is the encountering thread's alone (each thread that
 * meets one makes its own tasks), so every begin counts.
 *
 * Schedules. OpenMP 5.2's ompt_work_loop_static/dynamic/guided/other say the schedule
 * the runtime determined (LLVM 19); OpenMP 5.0's ompt_work_loop does not (LLVM 14). A
 * bit per ompt_work_t is kept, so that a loop or region that ran under several says so.
 * No OMPT callback gives the chunk size.
 *
 * Cost: one site lookup (the thread's last loop cached) and a few adds on the thread's
 * own table, once per loop instance and thread; nothing per iteration or chunk.
 */
#include "instrument/ctlpage.h"
#include "instrument/ompt_tool.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

static TLS uint64_t last_code;
static TLS uint32_t last_site;

static bool is_ws_loop(int wstype)
{
	return wstype == ompt_work_loop ||
	       (wstype >= ompt_work_loop_static && wstype <= ompt_work_loop_other);
}

/* The loop site of @code in region site @region (the thread's last one when it is that: a
 * loop in a loop). libomp gives a taskloop's callbacks a return address inside itself, the
 * same for every taskloop of the program: a taskloop is keyed by its region too. */
static uint32_t loop_site(const void *code, uint32_t kind, uint32_t region)
{
	uint64_t key = ((uint64_t)(uintptr_t)code & UPROF_OMP_SITE_ADDR_MASK) |
		       UPROF_OMP_SITE_LOOP_KEY;

	if (kind == UPROF_OMP_SITE_TASKLOOP)
		key |= (uint64_t)(region & 0x7fff) << 48;

	if (key != last_code) {
		last_site = ompt_site((const void *)(uintptr_t)key, kind);
		last_code = key;
	}
	return last_site;
}

void ompt_loop_begin(uint64_t (*agg)[UPROF_OMP_F_MAX], uint32_t region, uint32_t index, int wstype,
		     uint64_t count, const void *codeptr)
{
	bool taskloop = wstype == ompt_work_taskloop;
	uint64_t bit = wstype > 0 && wstype < 64 ? 1ULL << wstype : 0;
	uint32_t site;

	if (!(taskloop || (is_ws_loop(wstype) && index == 0)))
		return;
	site = loop_site(codeptr, taskloop ? UPROF_OMP_SITE_TASKLOOP : UPROF_OMP_SITE_LOOP, region);
	agg[region][UPROF_OMP_F_WS_LOOPS]++;
	agg[region][UPROF_OMP_F_WS_ITERS] += count;
	agg[region][UPROF_OMP_F_WS_SCHEDS] |= bit;
	if (!site)
		return; /* the site table is full: counted there, the region has the sums */
	agg[site][UPROF_OMP_F_LOOP_INSTANCES]++;
	agg[site][UPROF_OMP_F_LOOP_COUNT] += count;
	agg[site][UPROF_OMP_F_LOOP_SCHEDS] |= bit;
	agg[site][UPROF_OMP_F_LOOP_REGION] = region;
}
