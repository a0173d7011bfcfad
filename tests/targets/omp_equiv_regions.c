// SPDX-License-Identifier: MIT
/*
 * Regions and loops with counts known by construction, our own equivalents of what LLVM's
 * openmp/runtime/test/ompt programs check (parallel/, worksharing/for/, teams/, tasks/
 * taskloop), for tests/e2e/omp_llvm_equiv.sh. Each construct is in its own function, so
 * each report row is named "<function>$omp$<kind>:<n>@omp_equiv_regions.c:<line>":
 *
 *   repeated    one parallel region of 2 threads entered REPEAT (5) times
 *   if0         a parallel region with if(0), entered 3 times: a team of 1
 *   nested      a region of 2 threads, each of which opens an inner region of 2 threads
 *               (max active levels 2): outer 1 instance, inner 2 instances, teams of 2
 *   serialized  the same nest with max active levels 1: the inner regions each a team of 1
 *   sections    a parallel sections of 2 threads with 3 sections
 *   sched_static, sched_dynamic, sched_guided
 *               one parallel for of 2 threads each, 120, 90 and 60 iterations
 *   two_loops   one region of 2 threads holding two loops, 100 and 50 iterations (150)
 *   taskloop    one region of 2 threads where one thread runs a taskloop of 40
 *               iterations in num_tasks(4): 4 tasks
 *   teams       host teams: teams num_teams(2) thread_limit(2), each team's master
 *               opening a parallel region of 2 threads (2 instances in all)
 *
 * Every construct counts what it ran (iterations, tasks, threads) and the program checks
 * its own counts: it exits 1 (saying which) when the runtime did not do what the pragma
 * asked, so a test never holds the tool against a run that differed. Built by clang
 * (LLVM libomp, OMPT) and by gcc (libgomp, traced through --openmp-impl omplib).
 */
#include <omp.h>
#include <stdio.h>

#define REPEAT 5

static int bad;

static void expect(const char *what, long got, long want)
{
	if (got != want) {
		fprintf(stderr, "omp_equiv_regions: %s: %ld, not %ld\n", what, got, want);
		bad = 1;
	}
}

static void repeated(void)
{
	long threads = 0;

	for (int r = 0; r < REPEAT; r++) {
#pragma omp parallel num_threads(2) reduction(+ : threads)
		threads += 1;
	}
	expect("repeated: implicit tasks", threads, 2 * REPEAT);
}

static void if0(int never)
{
	long threads = 0;

	for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2) if (never) reduction(+ : threads)
		threads += omp_get_num_threads();
	}
	expect("if0: team sizes summed", threads, 3);
}

static void nested(void)
{
	long inner = 0;

	omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : inner)
	{
#pragma omp parallel num_threads(2) reduction(+ : inner)
		inner += omp_get_num_threads() == 2 && omp_get_level() == 2;
	}
	expect("nested: inner threads at level 2 in teams of 2", inner, 4);
}

static void serialized(void)
{
	long inner = 0;

	omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2) reduction(+ : inner)
	{
#pragma omp parallel num_threads(2) reduction(+ : inner)
		inner += omp_get_num_threads() == 1 && omp_get_level() == 2;
	}
	omp_set_max_active_levels(2);
	expect("serialized: inner teams of 1 at level 2", inner, 2);
}

static void sections(void)
{
	long done = 0;

#pragma omp parallel sections num_threads(2) reduction(+ : done)
	{
#pragma omp section
		done += 1;
#pragma omp section
		done += 10;
#pragma omp section
		done += 100;
	}
	expect("sections: each ran once", done, 111);
}

static void sched_static(void)
{
	long n = 0;

#pragma omp parallel for num_threads(2) schedule(static) reduction(+ : n)
	for (int i = 0; i < 120; i++)
		n++;
	expect("static: iterations", n, 120);
}

static void sched_dynamic(void)
{
	long n = 0;

#pragma omp parallel for num_threads(2) schedule(dynamic, 3) reduction(+ : n)
	for (int i = 0; i < 90; i++)
		n++;
	expect("dynamic: iterations", n, 90);
}

static void sched_guided(void)
{
	long n = 0;

#pragma omp parallel for num_threads(2) schedule(guided) reduction(+ : n)
	for (int i = 0; i < 60; i++)
		n++;
	expect("guided: iterations", n, 60);
}

static void two_loops(void)
{
	long n = 0;

#pragma omp parallel num_threads(2) reduction(+ : n)
	{
#pragma omp for schedule(dynamic, 5)
		for (int i = 0; i < 100; i++)
			n++;
#pragma omp for schedule(dynamic, 5)
		for (int i = 0; i < 50; i++)
			n++;
	}
	expect("two loops: iterations", n, 150);
}

static void taskloop(void)
{
	long n = 0;

#pragma omp parallel num_threads(2) shared(n)
#pragma omp single
	{
		/* num_tasks(4) over 40 iterations: exactly 4 tasks of 10 */
#pragma omp taskloop num_tasks(4) reduction(+ : n)
		for (int i = 0; i < 40; i++)
			n++;
	}
	expect("taskloop: iterations", n, 40);
}

static void teams(void)
{
	long inner = 0;

#pragma omp teams num_teams(2) thread_limit(2) reduction(+ : inner)
	{
#pragma omp parallel num_threads(2) reduction(+ : inner)
		inner += omp_get_num_threads() == 2;
	}
	expect("teams: threads of the teams' regions", inner, 4);
}

int main(int argc, char **argv)
{
	(void)argv;
	repeated();
	if0(argc > 99);
	nested();
	serialized();
	sections();
	sched_static();
	sched_dynamic();
	sched_guided();
	two_loops();
	taskloop();
	teams();
	printf("omp_equiv_regions: %s\n", bad ? "counts differ" : "all counts as built");
	return bad;
}
