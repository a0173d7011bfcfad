// SPDX-License-Identifier: MIT
/*
 * The job report's RMA COMMUNICATION MATRIX: one-sided traffic per origin ---> target
 * pair, from the origins' RMA records (lib/session/mpi.h, 1.3). Kept apart from the
 * COMMUNICATION MATRIX, which stays mpiP's and uProf's point-to-point one: a put moves
 * bytes from the origin to the target, a get from the target to the origin, both
 * started by the origin; a get-accumulate, fetch-and-op or compare-and-swap does both.
 * Written only when some rank recorded a one-sided operation.
 */
#include "job/internal.h"

#include <inttypes.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void rpt_job_mpi_rma_write(const struct rpt_job *j, FILE *f)
{
	uint64_t total = 0;
	bool any = false;

	for (int i = 0; i < j->nranks; i++)
		for (size_t k = 0; j->mpi[i].has && k < j->mpi[i].m.nrma; k++) {
			const struct ses_mpi_rma *p = &j->mpi[i].m.rma[k];

			total += p->put_bytes + p->get_bytes;
			any = true;
		}
	if (!any)
		return;
	fprintf(f, "\nRMA COMMUNICATION MATRIX\nOrigin ---> Target,Operations,Put(Bytes),"
		   "Get(Bytes),Volume(Bytes),Volume(%%)\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		for (size_t k = 0; j->mpi[i].has && k < m->nrma; k++) {
			const struct ses_mpi_rma *p = &m->rma[k];

			fprintf(f,
				"%d ---> %d, %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64
				", %g\n",
				m->rank, p->peer, p->ops, p->put_bytes, p->get_bytes,
				p->put_bytes + p->get_bytes,
				pct(p->put_bytes + p->get_bytes, total));
		}
	}
}
