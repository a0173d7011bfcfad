// SPDX-License-Identifier: MIT
/*
 * A region's imbalance over its team, both ways (openmp.h): of Work, which is wall time
 * (uProf's), and of CPU time, from the timer samples of each thread's implicit tasks.
 * Both are needed: on a loaded machine a thread with half the work of another may be
 * given the CPU half as often, and then their wall times in work are about equal while
 * their CPU times still say 1:2.
 */
#include "openmp/openmp.h"

#include <math.h>

/* Sums over a team, one value a thread. */
struct spread {
	double sum, sq, max;
};

static void spread_add(struct spread *s, double v)
{
	s->sum += v;
	s->sq += v * v;
	s->max = v > s->max ? v : s->max;
}

/* max/avg - 1 and the population coefficient of variation of @n values; 0 and 0 when
 * they are all 0 (nothing to be imbalanced). */
static void spread_result(const struct spread *s, int n, double *imb, double *cv)
{
	double mean;

	*imb = *cv = 0;
	if (n < 1 || s->sum <= 0)
		return;
	mean = s->sum / n;
	*imb = s->max / mean - 1;
	*cv = sqrt(fmax(s->sq / n - mean * mean, 0)) / mean;
}

void rpt_omp_imbalance(const struct rpt_omp_site *s, struct rpt_omp_imbalance *out)
{
	struct spread wall = { 0 }, cpu = { 0 };

	for (int k = 0; k < s->nthreads; k++) {
		double w, y, o;

		rpt_omp_split(s->threads[k].f, &w, &y, &o);
		spread_add(&wall, w);
		/* samples, not seconds: one period for all, which the ratio cancels */
		spread_add(&cpu, (double)s->threads[k].samples);
	}
	spread_result(&wall, s->nthreads, &out->wall, &out->wall_cv);
	spread_result(&cpu, s->nthreads, &out->cpu, &out->cpu_cv);
	out->cpu_samples = (uint64_t)cpu.sum;
}
