// SPDX-License-Identifier: MIT
/*
 * The MPI part of a trace, before it is written (export_perfetto_mpi.c writes it): the
 * ranks' calls kept under the cap (the earliest, RPT_MPI_SLICES_MAX), and each message
 * matched from the call that sent it to the call where it arrived. MPI's non-overtaking
 * rule makes the match exact: messages of one (communicator, source, destination, tag)
 * arrive in the order they were sent, and each receive takes the first that matches it,
 * in the order the receives were posted; a receive's source and tag are the status's
 * (what came, also for MPI_ANY_SOURCE / MPI_ANY_TAG) where the interposer had one. A
 * nonblocking receive's message arrives in the Wait or Test that completed it.
 */
#include "export/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One end of a message, sortable by its key then its order of posting. */
struct end {
	uint32_t comm;
	int src, dst, tag;
	uint32_t rank; /* index into the ranks */
	uint32_t call;
};

static int cmp_end(const void *a, const void *b)
{
	const struct end *x = a, *y = b;

	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	/* posting order: the calls of one rank in the order they were recorded */
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->call < y->call ? -1 : x->call > y->call;
}

static int cmp_key(const struct end *x, const struct end *y)
{
	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

bool rpt_pf_mpi_kept(const struct rpt_pf_mpi *m, size_t rank, size_t call)
{
	const struct ses_mpiev_call *c = &m->ranks[rank].ev->calls[call];

	return !m->cut || c->begin_ns + m->ranks[rank].offset_ns < m->cut_ns;
}

/* The cut: the begin of the first call past RPT_MPI_SLICES_MAX, in time order. */
static int cut(struct rpt_pf_mpi *m, size_t max)
{
	int64_t *t;
	size_t n = 0;

	m->ncalls = 0;
	for (size_t i = 0; i < m->nranks; i++)
		m->ncalls += m->ranks[i].ev ? m->ranks[i].ev->ncalls : 0;
	if (m->ncalls <= max)
		return 0;
	t = malloc(sizeof(*t) * m->ncalls);
	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < m->nranks; i++)
		for (size_t k = 0; m->ranks[i].ev && k < m->ranks[i].ev->ncalls; k++)
			t[n++] = m->ranks[i].ev->calls[k].begin_ns + m->ranks[i].offset_ns;
	util_qsort(t, n, sizeof(*t), cmp_i64);
	m->cut = true;
	m->cut_ns = t[max];
	free(t);
	return 0;
}

/* Sends and receives of the kept calls into @s and @r (room for every call each). */
static void ends(struct rpt_pf_mpi *m, struct end *s, size_t *ns, struct end *r, size_t *nr)
{
	for (size_t i = 0; i < m->nranks; i++) {
		const struct ses_mpiev *ev = m->ranks[i].ev;
		int me = m->ranks[i].rank;

		for (size_t k = 0; ev && k < ev->ncalls; k++) {
			const struct ses_mpiev_call *c = &ev->calls[k];

			if (!rpt_pf_mpi_kept(m, i, k) || (c->flags & SES_MPIEV_COLL))
				continue;
			if ((c->flags & SES_MPIEV_SEND) && c->dest >= 0)
				s[(*ns)++] = (struct end){ c->comm,	me,	     c->dest,
							   c->send_tag, (uint32_t)i, (uint32_t)k };
			else if (c->flags & SES_MPIEV_SEND)
				m->unmatched_sends++; /* MPI_PROC_NULL, or a peer not in the world */
			if (!(c->flags & SES_MPIEV_RECV))
				continue;
			/* a wildcard never resolved (its completion not recorded) matches nothing */
			if (c->source < 0 || c->recv_tag < 0) {
				m->unmatched_recvs++;
				continue;
			}
			r[(*nr)++] = (struct end){ c->comm,	c->source,   me,
						   c->recv_tag, (uint32_t)i, (uint32_t)k };
		}
	}
}

/* Where the message of receive call @k of rank @i arrived: the call that completed it. */
static uint32_t arrival(const struct rpt_pf_mpi *m, uint32_t i, uint32_t k)
{
	const struct ses_mpiev_call *c = &m->ranks[i].ev->calls[k];

	if ((c->flags & SES_MPIEV_NONBLOCKING) && c->done && rpt_pf_mpi_kept(m, i, c->done - 1))
		return c->done - 1;
	return k;
}

static int match(struct rpt_pf_mpi *m, struct end *s, size_t ns, struct end *r, size_t nr)
{
	size_t a = 0, b = 0;

	util_qsort(s, ns, sizeof(*s), cmp_end);
	util_qsort(r, nr, sizeof(*r), cmp_end);
	m->flows = malloc(sizeof(*m->flows) * ((ns < nr ? ns : nr) + 1));
	if (!m->flows)
		return -ENOMEM;
	while (a < ns || b < nr) {
		int c = a == ns ? 1 : b == nr ? -1 : cmp_key(&s[a], &r[b]);

		if (c < 0) {
			m->unmatched_sends++, a++;
		} else if (c > 0) {
			m->unmatched_recvs++, b++;
		} else {
			m->flows[m->nflows++] = (struct rpt_pf_mpi_flow){
				s[a].rank, s[a].call, r[b].rank, arrival(m, r[b].rank, r[b].call),
				r[b].call
			};
			a++, b++;
		}
	}
	return 0;
}

int rpt_pf_mpi_new(struct rpt_pf_mpi **out, const struct rpt_mpi_rank *ranks, size_t n,
		   size_t max_slices)
{
	struct rpt_pf_mpi *m = calloc(1, sizeof(*m));
	struct end *s = NULL, *r = NULL;
	size_t ns = 0, nr = 0;
	int ret = -ENOMEM;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->ranks = ranks;
	m->nranks = n;
	for (size_t i = 0; i < n; i++)
		if (ranks[i].ev)
			m->dropped += ranks[i].ev->dropped, m->unfilled += ranks[i].ev->unfilled,
				m->unlinked += ranks[i].ev->unlinked;
	ret = cut(m, max_slices);
	if (ret)
		goto out;
	s = malloc(sizeof(*s) * (m->ncalls + 1));
	r = malloc(sizeof(*r) * (m->ncalls + 1));
	ret = -ENOMEM;
	if (!s || !r)
		goto out;
	ends(m, s, &ns, r, &nr);
	ret = match(m, s, ns, r, nr);
out:
	free(s);
	free(r);
	if (ret)
		rpt_pf_mpi_free(m);
	else
		*out = m;
	return ret;
}

void rpt_pf_mpi_free(struct rpt_pf_mpi *m)
{
	if (!m)
		return;
	free(m->flows);
	free(m);
}
