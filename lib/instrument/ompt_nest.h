/* SPDX-License-Identifier: MIT */
/*
 * lib/instrument internal: nested parallelism and host teams in the OMPT tool
 * (ompt_nest.c), called from ompt.c's region callbacks.
 *
 * Each region instance knows the instance whose implicit task encountered it (its
 * parent) and how many thread-ticks members of instances nested in it, at any level,
 * spent there beyond their primary thread (busy): the instance's idle is then the
 * process's threads in no team of it at any level, (live - team) x elapsed - busy.
 *
 * The two calls of parallel_begin are inline: they run for every region instance.
 *
 * Host teams (libomp): a teams construct is a league (parallel_begin with
 * ompt_parallel_league) whose teams' primaries get an initial implicit task each; each
 * team then runs its body in a parallel of the runtime's own, with no code address
 * (without care, a phantom "unknown" region duplicating the inner one). That parallel is
 * hidden: its instance takes the league's site and its implicit tasks are the teams'
 * frames, numbered by team, while its begin and end count no instance of their own.
 */
#ifndef UPROF_OMPT_NEST_H
#define UPROF_OMPT_NEST_H

#include <stdbool.h>
#include <stdint.h>

/* Per region instance (inside ompt.c's struct inst). */
struct ompt_nest {
	uint64_t parent;      /* the instance whose implicit task encountered it (0: none) */
	uint64_t busy;	      /* ticks x threads of nested teams beyond their primary (atomic) */
	uint32_t parent_site; /* that instance's site */
	bool league, hidden;
};

/* Per thread (inside ompt.c's struct othread): the league whose team it is the primary
 * of, while it runs that team's initial task. */
struct ompt_nest_thread {
	uint64_t league; /* instance id, 0: none */
	uint32_t site, team;
};

#define OMPT_NEST_LEAGUE 0x40000000 /* ompt_parallel_league */
#define OMPT_NEST_TEAM 0x80000000u  /* ompt_parallel_team */

/* ompt.c: the nest part of instance @id, NULL once it is gone */
struct ompt_nest *ompt_nest_of(uint64_t id);

/* The id of a new instance of the thread @slot, whose @ninst counts its instances: the
 * next whose place in its table of @insts (a power of two) holds none of the instances
 * still open on it (@open, @nopen of them: a region in a nested loop must not take its
 * enclosing region's place). */
static inline uint64_t ompt_nest_new_id(uint32_t slot, uint64_t *ninst, const uint64_t *open,
					int nopen, uint32_t insts)
{
	uint64_t id;
	bool taken;

	/* at most nopen (<= 8) places are taken of insts (64): ends within nopen + 1 tries */
	do {
		id = (uint64_t)(slot + 1) << 32 | (++*ninst & 0xffffffffu);
		taken = false;
		for (int k = 0; k < nopen; k++)
			taken |= open[k] && ((open[k] ^ id) & (insts - 1)) == 0;
	} while (taken);
	return id;
}

/* parallel_begin: fill @n for an instance begun with @flags at @codeptr inside the
 * implicit task of instance @parent at @parent_site (0: none) by a thread of @t. The
 * site the instance takes when hidden (the league's), else 0. */
static inline uint32_t ompt_nest_begin(struct ompt_nest *n, uint64_t parent, uint32_t parent_site,
				       const struct ompt_nest_thread *t, int flags,
				       const void *codeptr)
{
	n->busy = 0;
	n->league = (flags & OMPT_NEST_LEAGUE) != 0;
	/* a team's own parallel: the runtime's, no code address, run by a league's team
	 * primary outside any region of the program's inside the team */
	n->hidden = !codeptr && ((unsigned)flags & OMPT_NEST_TEAM) && t->league && !n->league;
	n->parent = n->hidden ? t->league : parent;
	n->parent_site = n->hidden ? t->site : parent_site;
	return n->hidden ? t->site : 0;
}

/* parallel_end on the encountering thread: the instance's aggregates into @a (its site's
 * row of the thread's table), its elapsed into @up (the row of the implicit task the
 * thread is in, NULL: none) as nested time, its idle and the busy of its ancestors.
 * @team its size, @e its elapsed in ticks, @live the threads alive. */
void ompt_nest_end(const struct ompt_nest *n, uint64_t *a, uint64_t *up, uint32_t team, uint64_t e,
		   int live);

#endif
