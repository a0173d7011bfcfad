// SPDX-License-Identifier: MIT
/*
 * Nested parallelism and host teams in the OMPT tool (ompt_nest.h): which instance a
 * region was encountered in, what its nested teams kept busy, its team sizes, and the
 * runtime's hidden per-team parallel of a teams construct. Called from ompt.c's
 * parallel_begin and parallel_end only (never per implicit task or wait).
 */
#include "instrument/ctlpage.h"
#include "instrument/ompt_nest.h"

#define MAX_CHAIN 16 /* ancestors followed (the tool follows 8 levels per thread) */

void ompt_nest_end(const struct ompt_nest *n, uint64_t *a, uint64_t *up, uint32_t team, uint64_t e,
		   int live)
{
	uint64_t busy = __atomic_load_n(&n->busy, __ATOMIC_ACQUIRE), idle = 0;
	struct ompt_nest *anc;
	uint64_t id = n->parent;

	/* its frames are the teams' (numbered by team): team 0's primary joins the league
	 * at the league's end, the others' frames add theirs as they close (ompt.c) */
	if (n->hidden)
		return;
	a[UPROF_OMP_F_REGIONS]++;
	a[UPROF_OMP_F_ELAPSED] += e;
	a[UPROF_OMP_F_TEAM_SUM] += team;
	a[UPROF_OMP_F_JOINED] += e; /* the encountering thread is member 0 */
	if (team > a[UPROF_OMP_F_TEAM_MAX])
		a[UPROF_OMP_F_TEAM_MAX] = team;
	if (!a[UPROF_OMP_F_TEAM_MIN] || team < a[UPROF_OMP_F_TEAM_MIN])
		a[UPROF_OMP_F_TEAM_MIN] = team;
	if (live > (int)team)
		idle = (uint64_t)(live - (int)team) * e;
	/* threads of its nested teams are in a team of it, at another level: not idle */
	a[UPROF_OMP_F_IDLE] += idle > busy ? idle - busy : 0;
	if (n->league)
		a[UPROF_OMP_F_ENCLOSED] |= 1ULL << 33;
	if (!n->parent)
		return;
	a[UPROF_OMP_F_ENCLOSED] = (a[UPROF_OMP_F_ENCLOSED] & (1ULL << 33)) | 1ULL << 32 |
				  n->parent_site;
	if (up)
		up[UPROF_OMP_F_NESTED] += e;
	/* its members beyond the primary were busy in each enclosing instance */
	for (int k = 0; team > 1 && id && k < MAX_CHAIN && (anc = ompt_nest_of(id)); k++) {
		__atomic_add_fetch(&anc->busy, (uint64_t)(team - 1) * e, __ATOMIC_RELAXED);
		id = anc->parent;
	}
}
