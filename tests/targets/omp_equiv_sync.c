// SPDX-License-Identifier: MIT
/*
 * Synchronization and tasks with counts known by construction, our own equivalents of
 * what LLVM's openmp/runtime/test/ompt programs check (synchronization/ lock, nest_lock,
 * test_lock, critical, ordered, barrier; tasks/ explicit task, task if(0), taskwait,
 * taskgroup), for tests/e2e/omp_llvm_equiv_sync.sh. Each construct is in its own
 * function, so each row is "<function>$omp$<kind>:<n>@omp_equiv_sync.c:<line>"; every
 * region has 2 threads and runs once:
 *
 *   lock        each thread sets and unsets one lock ROUNDS (25) times at one call site
 *   nest_lock   each thread ROUNDS times sets a nestable lock, sets it again inside (a
 *               second call site, the nested acquire), unsets twice
 *   test_lock   thread 0 takes a lock, thread 1 tests it while it is held (fails: no
 *               acquire) and after it is let go (succeeds): 1 + 1 acquires at 2 sites
 *   critical    each thread enters one critical section ROUNDS times
 *   ordered     a for ordered schedule(static, 1) of ORDERED (30) iterations, each
 *               entering its ordered block once
 *   barrier     each thread passes BARRIERS (4) explicit barriers
 *   tasks       one thread creates TASKS (6) tasks then waits for them (taskwait)
 *   taskgroup   one thread creates GROUP (3) tasks in a taskgroup
 *   undeferred  one thread creates 2 tasks with if(0), run at once
 *   depend      one thread creates a chain of CHAIN (4) tasks, each depend(inout) on
 *               the one before, then waits
 *   joinbarrier each thread creates one task and waits for none: the region's closing
 *               barrier runs them (2 tasks)
 *
 * The program counts what ran and exits 1, saying what, when the runtime did not do what
 * the pragmas asked. Built by clang (LLVM libomp, OMPT) and by gcc (libgomp, traced
 * through --openmp-impl omplib).
 */
#include <omp.h>
#include <stdio.h>

#define ROUNDS 25
#define ORDERED 30
#define BARRIERS 4
#define TASKS 6
#define GROUP 3
#define CHAIN 4

static int bad;

static void expect(const char *what, long got, long want)
{
	if (got != want) {
		fprintf(stderr, "omp_equiv_sync: %s: %ld, not %ld\n", what, got, want);
		bad = 1;
	}
}

static void lock(void)
{
	omp_lock_t l;
	long n = 0;

	omp_init_lock(&l);
#pragma omp parallel num_threads(2)
	for (int r = 0; r < ROUNDS; r++) {
		omp_set_lock(&l);
		n++;
		omp_unset_lock(&l);
	}
	omp_destroy_lock(&l);
	expect("lock: entries", n, 2 * ROUNDS);
}

static void nest_lock(void)
{
	omp_nest_lock_t l;
	long depth2 = 0;

	omp_init_nest_lock(&l);
#pragma omp parallel num_threads(2)
	for (int r = 0; r < ROUNDS; r++) {
		omp_set_nest_lock(&l);
		omp_set_nest_lock(&l);
		depth2 += omp_test_nest_lock(&l) == 3;
		omp_unset_nest_lock(&l);
		omp_unset_nest_lock(&l);
		omp_unset_nest_lock(&l);
	}
	omp_destroy_nest_lock(&l);
	expect("nest_lock: third levels reached", depth2, 2 * ROUNDS);
}

static void test_lock(void)
{
	omp_lock_t l;
	int held_fail = -1, free_ok = -1;

	omp_init_lock(&l);
#pragma omp parallel num_threads(2)
	{
		if (omp_get_thread_num() == 0)
			omp_set_lock(&l);
#pragma omp barrier
		if (omp_get_thread_num() == 1)
			held_fail = omp_test_lock(&l);
#pragma omp barrier
		if (omp_get_thread_num() == 0)
			omp_unset_lock(&l);
#pragma omp barrier
		if (omp_get_thread_num() == 1) {
			free_ok = omp_test_lock(&l);
			if (free_ok)
				omp_unset_lock(&l);
		}
	}
	omp_destroy_lock(&l);
	expect("test_lock: test of the held lock", held_fail, 0);
	expect("test_lock: test of the free lock", free_ok, 1);
}

static void critical(void)
{
	long n = 0;

#pragma omp parallel num_threads(2)
	for (int r = 0; r < ROUNDS; r++) {
#pragma omp critical
		n++;
	}
	expect("critical: entries", n, 2 * ROUNDS);
}

static void ordered(void)
{
	long next = 0, in_order = 0;

#pragma omp parallel for ordered schedule(static, 1) num_threads(2)
	for (int i = 0; i < ORDERED; i++) {
#pragma omp ordered
		{
			in_order += next == i;
			next = i + 1;
		}
	}
	expect("ordered: iterations in order", in_order, ORDERED);
}

static void barrier(void)
{
	long passed = 0;

#pragma omp parallel num_threads(2) reduction(+ : passed)
	for (int b = 0; b < BARRIERS; b++) {
#pragma omp barrier
		passed++;
	}
	expect("barrier: passes", passed, 2 * BARRIERS);
}

static void tasks(void)
{
	long ran = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
		for (int t = 0; t < TASKS; t++) {
#pragma omp task shared(ran)
			{
#pragma omp atomic
				ran++;
			}
		}
#pragma omp taskwait
		expect("tasks: ran before the taskwait ended", ran, TASKS);
	}
}

static void taskgroup(void)
{
	long ran = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
#pragma omp taskgroup
		{
			for (int t = 0; t < GROUP; t++) {
#pragma omp task shared(ran)
				{
#pragma omp atomic
					ran++;
				}
			}
		}
		expect("taskgroup: ran before the group ended", ran, GROUP);
	}
}

static void undeferred(int never)
{
	long ran = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
		for (int t = 0; t < 2; t++) {
			long before = ran;

#pragma omp task if (never) shared(ran)
			ran++;
			/* if(0): the task ran before the construct returned */
			expect("undeferred: ran at once", ran, before + 1);
		}
	}
}

static void depend(void)
{
	long last = -1, in_order = 0;

#pragma omp parallel num_threads(2)
#pragma omp single
	{
		for (int t = 0; t < CHAIN; t++) {
#pragma omp task depend(inout : last) shared(last, in_order)
			{
				in_order += last == t - 1;
				last = t;
			}
		}
#pragma omp taskwait
		expect("depend: tasks ran in their chain's order", in_order, CHAIN);
	}
}

static void joinbarrier(void)
{
	long ran = 0;

#pragma omp parallel num_threads(2) shared(ran)
	{
#pragma omp task shared(ran)
		{
#pragma omp atomic
			ran++;
		}
	}
	expect("joinbarrier: tasks run by the closing barrier", ran, 2);
}

int main(int argc, char **argv)
{
	(void)argv;
	lock();
	nest_lock();
	test_lock();
	critical();
	ordered();
	barrier();
	tasks();
	taskgroup();
	undeferred(argc > 99);
	depend();
	joinbarrier();
	printf("omp_equiv_sync: %s\n", bad ? "counts differ" : "all counts as built");
	return bad;
}
