// SPDX-License-Identifier: MIT
/*
 * Nested parallelism, both halves: the OMPT tool's instance bookkeeping
 * (lib/instrument/ompt_nest.c: ids that never take an open instance's place, idle less the
 * nested teams' threads, nested time, team sizes, the hidden per-team parallel of a teams
 * construct) on made-up instances, and the report's model of it (lib/openmp/openmp_nest.c:
 * Work less Nested, Thread Count, parents and levels, teams sites) on made-up fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "instrument/ctlpage.h"
#include "instrument/ompt_nest.h"
#include "instrument/ompt_waits.h"
#include "openmp/openmp.h"

/* ompt.c's instance table, here: id -> its nest part */
static struct {
	uint64_t id;
	struct ompt_nest n;
} insts[8];

struct ompt_nest *ompt_nest_of(uint64_t id)
{
	for (size_t i = 0; i < sizeof(insts) / sizeof(insts[0]); i++)
		if (insts[i].id == id && id)
			return &insts[i].n;
	return NULL;
}

static void new_id_skips_open_places(void **state)
{
	uint64_t n = 63, open[2];
	uint64_t id;

	(void)state;
	id = ompt_nest_new_id(2, &n, NULL, 0, 64);
	assert_int_equal(id, (3ULL << 32) | 64); /* place 0 */
	open[0] = id;
	n = 127; /* the next would be place 0 again: taken by the open instance */
	id = ompt_nest_new_id(2, &n, open, 1, 64);
	assert_int_equal(id, (3ULL << 32) | 129);
	open[1] = id;
	n = 127;
	id = ompt_nest_new_id(2, &n, open, 2, 64); /* places 0 and 1 taken */
	assert_int_equal(id & 63, 2);
	assert_int_equal(n, 130);
}

/* outer team of 2 (instance A) with a nested team of 2 (B) in one member for 30 of its
 * 100 ticks, in a process of 4 threads: idle of A = (4 - 2) x 100 - (2 - 1) x 30 */
static void idle_less_nested_teams(void **state)
{
	struct ompt_nest_thread t = { 0, 0, 0 };
	uint64_t a[UPROF_OMP_F_MAX] = { 0 }, b[UPROF_OMP_F_MAX] = { 0 },
		 up[UPROF_OMP_F_MAX] = { 0 };
	struct ompt_nest *A, *B;

	(void)state;
	memset(insts, 0, sizeof(insts));
	insts[0].id = 100;
	insts[1].id = 200;
	A = ompt_nest_of(100);
	B = ompt_nest_of(200);
	assert_int_equal(ompt_nest_begin(A, 0, 0, &t, 0x80000001, (void *)0x1000), 0);
	assert_int_equal(ompt_nest_begin(B, 100, 7, &t, 0x80000001, (void *)0x2000), 0);
	assert_false(B->hidden);
	assert_int_equal(B->parent, 100);
	ompt_nest_end(B, b, up, 2, 30, 4);
	assert_int_equal(b[UPROF_OMP_F_IDLE], 2 * 30); /* its own: the other 2 threads */
	assert_int_equal(b[UPROF_OMP_F_REGIONS], 1);
	assert_int_equal(b[UPROF_OMP_F_TEAM_MAX], 2);
	assert_int_equal(b[UPROF_OMP_F_TEAM_MIN], 2);
	assert_int_equal(b[UPROF_OMP_F_ENCLOSED], (1ULL << 32) | 7);
	assert_int_equal(up[UPROF_OMP_F_NESTED], 30); /* the enclosing task's row */
	assert_int_equal(A->busy, 30);
	ompt_nest_end(A, a, NULL, 2, 100, 4);
	assert_int_equal(a[UPROF_OMP_F_IDLE], 2 * 100 - 30);
	assert_int_equal(a[UPROF_OMP_F_ENCLOSED], 0);
	assert_int_equal(a[UPROF_OMP_F_JOINED], 100);
	assert_int_equal(a[UPROF_OMP_F_TEAM_SUM], 2);
	/* a second instance with a team of 4: the sizes' range */
	A->busy = 0;
	ompt_nest_end(A, a, NULL, 4, 10, 4);
	assert_int_equal(a[UPROF_OMP_F_TEAM_MAX], 4);
	assert_int_equal(a[UPROF_OMP_F_TEAM_MIN], 2);
	assert_int_equal(a[UPROF_OMP_F_IDLE], 2 * 100 - 30); /* no one outside a team of 4 */
}

/* a teams construct: the league (L), a team's hidden parallel (H, no code address) taking
 * the league's site, a parallel (P) inside the team: P's threads are busy in L */
static void teams_hidden_parallel(void **state)
{
	struct ompt_nest_thread none = { 0, 0, 0 }, team1 = { 300, 9, 1 };
	uint64_t l[UPROF_OMP_F_MAX] = { 0 }, h[UPROF_OMP_F_MAX] = { 0 }, p[UPROF_OMP_F_MAX] = { 0 };
	struct ompt_nest *L, *H, *P;

	(void)state;
	memset(insts, 0, sizeof(insts));
	insts[0].id = 300;
	insts[1].id = 301;
	insts[2].id = 302;
	L = ompt_nest_of(300);
	H = ompt_nest_of(301);
	P = ompt_nest_of(302);
	assert_int_equal(ompt_nest_begin(L, 0, 0, &none, 0x40000002, (void *)0x1000), 0);
	assert_true(L->league);
	/* the hidden parallel takes the league's site */
	assert_int_equal(ompt_nest_begin(H, 0, 0, &team1, (int)0x80000002, NULL), 9);
	assert_true(H->hidden);
	assert_int_equal(H->parent, 300);
	/* without a league a parallel without a code address is a region of its own */
	assert_int_equal(ompt_nest_begin(P, 0, 0, &none, (int)0x80000002, NULL), 0);
	assert_false(P->hidden);
	assert_int_equal(ompt_nest_begin(P, 301, 9, &team1, (int)0x80000002, (void *)0x2000), 0);
	ompt_nest_end(P, p, h, 2, 50, 4);
	assert_int_equal(H->busy, 50);
	assert_int_equal(L->busy, 50);
	assert_int_equal(p[UPROF_OMP_F_ENCLOSED], (1ULL << 32) | 9);
	ompt_nest_end(H, h, NULL, 2, 60, 4);
	assert_int_equal(h[UPROF_OMP_F_REGIONS], 0); /* no instance of its own */
	assert_int_equal(h[UPROF_OMP_F_JOINED], 0);
	assert_int_equal(h[UPROF_OMP_F_NESTED], 50); /* P's, in the team's frame */
	ompt_nest_end(L, l, NULL, 2, 70, 4);
	assert_int_equal(l[UPROF_OMP_F_REGIONS], 1);
	assert_int_equal(l[UPROF_OMP_F_ENCLOSED], 1ULL << 33);
	assert_int_equal(l[UPROF_OMP_F_IDLE], 2 * 70 - 50);
}

/* a site with threads whose fields are @f (each thread the same) */
static void site(struct rpt_omp_site *s, uint32_t id, int nthreads, const uint64_t *f)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->kind = SES_OMPT_SITE_PARALLEL;
	s->threads = calloc((size_t)nthreads, sizeof(*s->threads));
	assert_non_null(s->threads);
	s->nthreads = s->capthreads = nthreads;
	for (int k = 0; k < nthreads; k++) {
		memcpy(s->threads[k].f, f, sizeof(s->threads[k].f));
		s->threads[k].slot = (uint32_t)k + 1;
	}
	snprintf(s->name, sizeof(s->name), "f$omp$parallel:%u@x.c:%u", id, id);
}

static void model_parents_levels_teams(void **state)
{
	struct rpt_omp_site sites[3];
	struct rpt_omp_proc p;
	uint64_t f0[SES_OMPT_F_MAX] = { 0 }, f1[SES_OMPT_F_MAX] = { 0 }, f2[SES_OMPT_F_MAX] = { 0 };
	char team[64];
	double w, y, o;

	(void)state;
	f0[SES_OMPT_F_ENCLOSED] = SES_OMPT_ENCLOSED_TEAMS;
	f0[SES_OMPT_F_TEAM_MAX] = f0[SES_OMPT_F_TEAM_MIN] = 2;
	f1[SES_OMPT_F_ENCLOSED] = SES_OMPT_ENCLOSED_NESTED | 5;
	f1[SES_OMPT_F_TEAM_MAX] = 4;
	f1[SES_OMPT_F_TEAM_MIN] = 2;
	f2[SES_OMPT_F_ENCLOSED] = SES_OMPT_ENCLOSED_NESTED | 6;
	site(&sites[0], 5, 2, f0);
	site(&sites[1], 6, 3, f1);
	site(&sites[2], 7, 1, f2);
	sites[2].threads[0].f[SES_OMPT_F_TEAM_MAX] = 0; /* a file from before team sizes */
	memset(&p, 0, sizeof(p));
	p.sites = sites;
	p.nsites = 3;
	rpt_omp_nest_prepare(&p);
	rpt_omp_nest_link(&p);
	assert_true(sites[0].teams);
	assert_false(sites[1].teams);
	assert_int_equal(sites[0].parent, -1);
	assert_int_equal(sites[1].parent, 0);
	assert_int_equal(sites[2].parent, 1);
	assert_int_equal(sites[0].level, 1);
	assert_int_equal(sites[1].level, 2);
	assert_int_equal(sites[2].level, 3);
	rpt_omp_team_size(&sites[0], team, sizeof(team));
	assert_string_equal(team, "2");
	rpt_omp_team_size(&sites[1], team, sizeof(team));
	assert_string_equal(team, "4 (2-4)");
	rpt_omp_team_size(&sites[2], team, sizeof(team));
	assert_string_equal(team, "1");
	/* a cycle (a forged file): the level stops, no loop forever */
	sites[0].nested = true;
	sites[0].parent_id = 7;
	rpt_omp_nest_link(&p);
	assert_int_equal(sites[2].level, 64); /* MAX_LEVEL: cut there */
	/* Work is the span less sync, lock waits and the nested regions' elapsed */
	f0[SES_OMPT_F_SPAN] = 1000;
	f0[SES_OMPT_F_SYNC] = 100;
	f0[SES_OMPT_F_LOCKWAIT] = 50;
	f0[SES_OMPT_F_NESTED] = 300;
	f0[SES_OMPT_F_JOINED] = 1100;
	rpt_omp_split(f0, &w, &y, &o);
	assert_true(w == 550 && y == 100 && o == 100);
	f0[SES_OMPT_F_NESTED] = 2000; /* more than the span (a forged file): no negative work */
	rpt_omp_split(f0, &w, &y, &o);
	assert_true(w == 0);
	for (int i = 0; i < 3; i++)
		free(sites[i].threads);
}

/* The fields a team member adds to in every region are kept in the row's first line
 * (OMPT_AGG_*) and sent as their own fields; NEST_LEVEL 1 is sent from ITASKS. */
static void hot_fields_sent_as_their_own(void **state)
{
	uint64_t a[UPROF_OMP_F_MAX] = { 0 };

	(void)state;
	a[UPROF_OMP_F_ITASKS] = 2;
	a[OMPT_AGG_TEAM_INDEX] = 3;
	a[ompt_wait_field(UPROF_OMP_WAIT_BARRIER_IMPLICIT)] = 5;
	a[ompt_wait_field(UPROF_OMP_WAIT_BARRIER_EXPLICIT)] = 7;
	a[ompt_wait_field(UPROF_OMP_WAIT_TASKWAIT)] = 11;
	assert_true(ompt_wait_field(UPROF_OMP_WAIT_BARRIER_IMPLICIT) < 8); /* the first line */
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_TEAM_INDEX), 3);
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_WAIT_IMPLICIT), 5);
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_WAIT_EXPLICIT), 7);
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_BARRIER), 12);
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_SYNC), 23);
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_NEST_LEVEL), 1);
	a[UPROF_OMP_F_NEST_LEVEL] = 2; /* a nested team stores its level */
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_NEST_LEVEL), 2);
	memset(a, 0, sizeof(a)); /* a site the thread ran no implicit task of */
	assert_int_equal(ompt_waits_value(a, UPROF_OMP_F_NEST_LEVEL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_id_skips_open_places),
		cmocka_unit_test(hot_fields_sent_as_their_own),
		cmocka_unit_test(idle_less_nested_teams),
		cmocka_unit_test(teams_hidden_parallel),
		cmocka_unit_test(model_parents_levels_teams),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
