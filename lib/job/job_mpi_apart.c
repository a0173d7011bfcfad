// SPDX-License-Identifier: MIT
/*
 * The job report's MPI time, with MPI_Init, MPI_Init_thread and MPI_Finalize apart: they
 * are the runtime's start and end (the launcher's wire-up, shared memory set up, a
 * Python interpreter's imports before MPI_Init returns), not communication, and they cost
 * the most where ranks start one after another on a loaded machine (mpi4py's MPI_Init was
 * 78 % of its MPI time). Counted in MPI Time, they made every other share small and put
 * the imbalance flag on the start-up order; they get columns and rows of their own
 * instead (uprof-mpi(7)). And the MPI lines of the job's terminal summary.
 */
#include "job/internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const lifecycle[] = { "MPI_Init", "MPI_Init_thread", "MPI_Finalize" };

bool rpt_job_mpi_lifecycle(const char *name)
{
	for (size_t i = 0; i < sizeof(lifecycle) / sizeof(lifecycle[0]); i++)
		if (!strcmp(name, lifecycle[i]))
			return true;
	return false;
}

bool rpt_job_mpi_before(const char *a, uint64_t a_ns, const char *b, uint64_t b_ns)
{
	bool la = rpt_job_mpi_lifecycle(a), lb = rpt_job_mpi_lifecycle(b);

	return la == lb ? a_ns > b_ns : lb;
}

uint64_t rpt_job_rank_mpi_ns(const struct ses_mpi *m)
{
	uint64_t t = 0;

	for (size_t k = 0; k < m->nfuncs; k++)
		if (!rpt_job_mpi_lifecycle(m->funcs[k].name))
			t += m->funcs[k].time_ns;
	return t;
}

uint64_t rpt_job_rank_init_ns(const struct ses_mpi *m)
{
	uint64_t t = 0;

	for (size_t k = 0; k < m->nfuncs; k++)
		if (!strcmp(m->funcs[k].name, "MPI_Init") ||
		    !strcmp(m->funcs[k].name, "MPI_Init_thread"))
			t += m->funcs[k].time_ns;
	return t;
}

uint64_t rpt_job_rank_finalize_ns(const struct ses_mpi *m)
{
	uint64_t t = 0;

	for (size_t k = 0; k < m->nfuncs; k++)
		if (!strcmp(m->funcs[k].name, "MPI_Finalize"))
			t += m->funcs[k].time_ns;
	return t;
}

uint64_t rpt_job_rank_app_ns(const struct ses_mpi *m)
{
	uint64_t all, apart = rpt_job_rank_init_ns(m) + rpt_job_rank_finalize_ns(m);

	if (m->end_mono_ns <= m->init_mono_ns)
		return 0;
	/* init_mono_ns is when MPI_Init began, end_mono_ns the flush after MPI_Finalize */
	all = (uint64_t)(m->end_mono_ns - m->init_mono_ns);
	return all > apart ? all - apart : 0;
}

/* One function over the ranks with data: its total, and the slowest rank's time. */
struct fsum {
	const char *name; /* borrowed from a rank's record */
	double sum, max;
	int max_rank;
};

/* Every function but MPI_Init/Finalize summed over the ranks into a malloc'ed array:
 * how many, or -1 (no memory). A linear search per record: a job calls a few dozen
 * functions, so ranks x functions x a few dozen compares (mpiP's scale, not quadratic in
 * ranks). */
static int sum_functions(const struct rpt_job *j, struct fsum **out)
{
	struct fsum *v = NULL;
	int n = 0, cap = 0;

	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		for (size_t k = 0; j->mpi[i].has && k < m->nfuncs; k++) {
			const struct ses_mpi_func *f = &m->funcs[k];
			double t = (double)f->time_ns / 1e9;
			int x = 0;

			if (rpt_job_mpi_lifecycle(f->name))
				continue;
			while (x < n && strcmp(v[x].name, f->name))
				x++;
			if (x == n) {
				if (n == cap) {
					struct fsum *g = realloc(
						v, sizeof(*v) * (cap = cap ? cap * 2 : 32));

					if (!g) {
						free(v);
						return -1;
					}
					v = g;
				}
				v[n++] = (struct fsum){ f->name, 0, 0, -1 };
			}
			v[x].sum += t;
			/* a rank that never called it counts 0: the max is over those that did */
			if (v[x].max_rank < 0 || t > v[x].max)
				v[x].max = t, v[x].max_rank = j->ranks[i].rank;
		}
	}
	*out = v;
	return n;
}

void rpt_job_mpi_summary(const struct rpt_job *j, struct rpt_job_mpi_summary *s)
{
	double max_rank_s = 0;
	struct fsum *v = NULL;
	int n;

	memset(s, 0, sizeof(*s));
	s->traced = j->ntraced;
	s->imbalance_rank = -1;
	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;
		double mpi;

		if (!j->mpi[i].has)
			continue;
		s->ranks++;
		mpi = (double)rpt_job_rank_mpi_ns(m) / 1e9;
		s->mpi_s += mpi;
		max_rank_s = mpi > max_rank_s ? mpi : max_rank_s;
		s->init_s += (double)rpt_job_rank_init_ns(m) / 1e9;
		s->finalize_s += (double)rpt_job_rank_finalize_ns(m) / 1e9;
		s->elapsed_s += (double)rpt_job_rank_app_ns(m) / 1e9;
	}
	n = sum_functions(j, &v);
	for (int x = 0; x < n; x++) {
		/* the flag of the job's MPI IMBALANCE table (job_mpi.c), its largest */
		double avg = v[x].sum / s->ranks, imb = avg > 0 ? v[x].max / avg - 1 : 0;

		if (v[x].sum > s->top_s) {
			s->top_s = v[x].sum;
			snprintf(s->top, sizeof(s->top), "%s", v[x].name);
		}
		if (s->ranks < 2 || imb <= RPT_JOB_IMBALANCE_FLAG ||
		    v[x].max < RPT_JOB_IMBALANCE_MIN_SHARE * max_rank_s || imb <= s->imbalance)
			continue;
		snprintf(s->imbalanced, sizeof(s->imbalanced), "%s", v[x].name);
		s->imbalance = imb;
		s->imbalance_rank = v[x].max_rank;
	}
	free(v);
}
