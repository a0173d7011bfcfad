// SPDX-License-Identifier: MIT
/*
 * Nested OpenMP teams with known answers for tests/e2e/omp_nested.sh. Every figure the
 * test holds the report against is measured here, by the program itself, on the same
 * run: wall times with omp_get_wtime, team sizes with omp_get_num_threads, the threads
 * that took part by gettid, CPU time with CLOCK_THREAD_CPUTIME_ID. Work burns this
 * thread's CPU time (so the CPU figures hold on a loaded machine, while the wall ones
 * stretch with the load, on both sides alike).
 *
 *   omp_nested nest O I [R [K]]  R rounds (default 8) of an outer region of O threads
 *                             in which each member works A = 20 ms, then opens K
 *                             (default 1) inner regions of I threads one after the
 *                             other, whose members each work B = 20 / K ms
 *   omp_nested vary [R]       R rounds (default 8) of a region whose team is 2 threads
 *                             in even rounds and 4 in odd ones, each member working 10 ms
 *   omp_nested teams          a host teams construct (2 teams of up to 2 threads) whose
 *                             teams each open a parallel region of 2 threads working
 *                             10 ms (clang only: gcc has no host teams through OMPT)
 *
 * nest prints one line: "nest" and key=value pairs, times in ms:
 *   outer_n, inner_n    region instances (inner: all teams' instances)
 *   outer_tmin/tmax, inner_tmin/tmax   team sizes seen inside the regions
 *   outer_el, inner_el  elapsed summed over instances, on the thread that encountered
 *                       each: from parallel_begin to parallel_end, as the stamps tool
 *                       (omp_nested_stamps.c, OMP_NESTED_STAMPS its path, loaded through
 *                       OMP_TOOL_LIBRARIES) saw them; without it, from before the pragma
 *                       to after it
 *   stamped             the instances timed by the stamps tool (outer_n + inner_n when
 *                       it ran)
 *   outer_work          the outer members' own work (their 20 ms each, not the inner)
 *   outer_nested        the outer members' time in the inner regions (= inner_el)
 *   inner_work          the inner members' work
 *   threads             distinct threads that were in a team
 *   outer_idle          what the idle of the outer region is by its definition (the
 *                       process's threads in no team of it at any level): sum over outer
 *                       instances of (live - its team) x its elapsed - sum over inner
 *                       instances of (its team - 1) x its elapsed, live the process's
 *                       OpenMP threads at the instance's end (the stamps tool's count;
 *                       without it, threads)
 *   inner_idle          sum over inner instances of (live - its team) x its elapsed
 *   cpu                 the CPU time all threads spent in their work
 *   outer_cpu, inner_cpu    of that, in the outer members' own work and in the inner
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <dlfcn.h>

#define MAX_SEEN 256

static double (*stamps_last)(int *live);
static int nstamped;

/* The elapsed ms of the region this thread has just ended, from parallel_begin to
 * parallel_end by the stamps tool, and in *@live the process's threads then; @own (the
 * program's clock around the pragma) and 0 where the tool is not loaded. The tool
 * is looked up at the first region's end: the runtime has loaded it by then. */
static double region_ms(double own, int *live)
{
	double v = -1;

	if (!__atomic_load_n(&stamps_last, __ATOMIC_ACQUIRE)) {
		const char *path = getenv("OMP_NESTED_STAMPS");
		void *h = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : NULL;

		if (h)
			__atomic_store_n(&stamps_last,
					 (double (*)(int *))dlsym(h, "omp_nested_stamps_last"),
					 __ATOMIC_RELEASE);
	}
	if (stamps_last)
		v = stamps_last(live);
	if (v < 0) {
		*live = 0;
		return own;
	}
	__atomic_add_fetch(&nstamped, 1, __ATOMIC_RELAXED);
	return v;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return omp_get_wtime() * 1e3;
}

/* Burn @ms of this thread's CPU time; adds it to *@cpu. */
static double work(double ms, double *cpu)
{
	double c0 = cpu_ms(), end = c0 + ms, x = 1, c;

	while ((c = cpu_ms()) < end)
		for (int i = 0; i < 2000; i++)
			x = x * 1.0000001 + 1e-9;
#pragma omp atomic
	*cpu += c - c0;
	return x;
}

static long seen[MAX_SEEN];
static int nseen;

/* The calling thread, counted once. */
static void saw(void)
{
	long tid = syscall(SYS_gettid);

#pragma omp critical(omp_nested_seen)
	{
		int k = 0;

		while (k < nseen && seen[k] != tid)
			k++;
		if (k == nseen && nseen < MAX_SEEN)
			seen[nseen++] = tid;
	}
}

struct team_stat {
	int n, tmin, tmax;
	double el, work, idle_team; /* idle_team: sum of team x elapsed */
};

static void team_seen(struct team_stat *s, int size, double el)
{
#pragma omp critical(omp_nested_stat)
	{
		s->n++;
		s->el += el;
		s->idle_team += (size - 1) * el;
		if (!s->tmin || size < s->tmin)
			s->tmin = size;
		if (size > s->tmax)
			s->tmax = size;
	}
}

static double nest(int outer, int inner, int rounds, int k)
{
	struct team_stat o = { 0 }, in = { 0 };
	double sum = 0, cpu[2] = { 0, 0 }, nested = 0;
	size_t max_inner = (size_t)rounds * (size_t)outer * (size_t)(k > 0 ? k : 1);
	/* per instance: elapsed, team, live threads at its end (0: not known, all seen) */
	double *inner_el = calloc(max_inner, sizeof(double));
	double *outer_el = calloc((size_t)rounds, sizeof(double));
	int *inner_team = calloc(max_inner, sizeof(int)), ni = 0;
	int *inner_live = calloc(max_inner, sizeof(int));
	int *outer_team = calloc((size_t)rounds, sizeof(int));
	int *outer_live = calloc((size_t)rounds, sizeof(int));

	if (!inner_el || !outer_el || !inner_team || !inner_live || !outer_team || !outer_live ||
	    k < 1)
		return 0;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_ms(), el;
		int size = 0, live;

#pragma omp parallel num_threads(outer) reduction(+ : sum)
		{
			double b = now_ms(), w, t1, e;
			int isize = 0, ilive;

			saw();
			if (omp_get_thread_num() == 0)
				size = omp_get_num_threads();
			sum += work(20, &cpu[0]);
			w = now_ms() - b;
#pragma omp atomic
			o.work += w;
			for (int j = 0; j < k; j++) {
				t1 = now_ms();
#pragma omp parallel num_threads(inner) reduction(+ : sum)
				{
					double ib = now_ms(), iw;

					saw();
					if (omp_get_thread_num() == 0)
						isize = omp_get_num_threads();
					sum += work(20.0 / k, &cpu[1]);
					iw = now_ms() - ib;
#pragma omp atomic
					in.work += iw;
				}
				e = region_ms(now_ms() - t1, &ilive);
#pragma omp atomic
				nested += e;
				team_seen(&in, isize, e);
#pragma omp critical(omp_nested_stat)
				{
					if ((size_t)ni < max_inner) {
						inner_el[ni] = e;
						inner_live[ni] = ilive;
						inner_team[ni++] = isize;
					}
				}
			}
		}
		el = region_ms(now_ms() - t0, &live);
		team_seen(&o, size, el);
		outer_el[r] = el;
		outer_team[r] = size;
		outer_live[r] = live;
	}
	{
		double oidle = 0, iidle = 0;

		for (int r = 0; r < rounds; r++)
			oidle += ((outer_live[r] ? outer_live[r] : nseen) - outer_team[r]) * outer_el[r];
		for (int k = 0; k < ni; k++) {
			oidle -= (inner_team[k] - 1) * inner_el[k];
			iidle += ((inner_live[k] ? inner_live[k] : nseen) - inner_team[k]) * inner_el[k];
		}
		printf("nest outer_n=%d outer_tmin=%d outer_tmax=%d outer_el=%.3f outer_work=%.3f "
		       "outer_nested=%.3f inner_n=%d inner_tmin=%d inner_tmax=%d inner_el=%.3f "
		       "inner_work=%.3f threads=%d outer_idle=%.3f inner_idle=%.3f cpu=%.3f "
		       "outer_cpu=%.3f inner_cpu=%.3f stamped=%d\n",
		       o.n, o.tmin, o.tmax, o.el, o.work, nested, in.n, in.tmin, in.tmax, in.el,
		       in.work, nseen, oidle, iidle, cpu[0] + cpu[1], cpu[0], cpu[1], nstamped);
	}
	free(inner_el);
	free(outer_el);
	free(inner_team);
	free(inner_live);
	free(outer_team);
	free(outer_live);
	return sum;
}

static double vary(int rounds)
{
	double sum = 0, cpu = 0;

	for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(r % 2 ? 4 : 2) reduction(+ : sum)
		sum += work(10, &cpu);
	}
	printf("vary rounds=%d cpu=%.3f\n", rounds, cpu);
	return sum;
}

#if defined(__clang__)
static double teams(void)
{
	double sum = 0, cpu = 0;
	int nteams = 0, sizes[2] = { 0, 0 };

#pragma omp teams num_teams(2) thread_limit(2) reduction(+ : sum)
	{
		int t = omp_get_team_num();

		if (t == 0)
			nteams = omp_get_num_teams();
#pragma omp parallel num_threads(2) reduction(+ : sum)
		{
			if (omp_get_thread_num() == 0 && t < 2)
				sizes[t] = omp_get_num_threads();
			sum += work(10, &cpu);
		}
	}
	printf("teams num_teams=%d team0=%d team1=%d cpu=%.3f\n", nteams, sizes[0], sizes[1], cpu);
	return sum;
}
#endif

int main(int argc, char **argv)
{
	double sum = 0;

	if (argc >= 4 && !strcmp(argv[1], "nest"))
		sum = nest(atoi(argv[2]), atoi(argv[3]), argc > 4 ? atoi(argv[4]) : 8,
			   argc > 5 ? atoi(argv[5]) : 1);
	else if (argc >= 2 && !strcmp(argv[1], "vary"))
		sum = vary(argc > 2 ? atoi(argv[2]) : 8);
#if defined(__clang__)
	else if (argc >= 2 && !strcmp(argv[1], "teams"))
		sum = teams();
#endif
	else {
		fprintf(stderr, "usage: omp_nested nest O I [R [K]] | vary [R] | teams\n");
		return 2;
	}
	return sum < 0;
}
