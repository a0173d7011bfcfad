// SPDX-License-Identifier: MIT
/*
 * The job report's message sizes of each rank (job_mpi.c writes them summed over the
 * ranks): MPI MESSAGE SIZES (Per Rank), a row per rank, function and size range that has
 * messages, in rank order and each rank's functions in its file's order. The ranges are
 * the .mpi file's powers of two (lib/session/mpi.h).
 */
#include "job/internal.h"

#include <inttypes.h>

void rpt_job_sizes_per_rank(const struct rpt_job *j, FILE *f)
{
	fprintf(f, "\nMPI MESSAGE SIZES (Per Rank)\nRank,Function,Min Size(Bytes),Max "
		   "Size(Bytes),Messages\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		for (size_t k = 0; j->mpi[i].has && k < m->nfuncs; k++)
			for (int b = 0; b < SES_MPI_HIST_BUCKETS; b++) {
				uint64_t lo = b ? 1ULL << (b - 1) : 0, hi = b ? (1ULL << b) - 1 : 0;
				uint64_t n = m->funcs[k].hist[b];

				if (!n)
					continue;
				fprintf(f, "%d, %s, %" PRIu64 ", ", j->ranks[i].rank,
					m->funcs[k].name, lo);
				if (b == SES_MPI_HIST_BUCKETS - 1)
					fprintf(f, "-, %" PRIu64 "\n", n);
				else
					fprintf(f, "%" PRIu64 ", %" PRIu64 "\n", hi, n);
			}
	}
}
