// SPDX-License-Identifier: MIT
/* libFuzzer target for the reader of mpi/<pid>.mpi, the MPI interposer's file
 * (lib/session/mpi.c): any bytes parse or fail cleanly, and what parses is consistent. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_mpi m;
	char err[128];

	if (ses_mpi_parse(data, size, &m, err, sizeof(err)))
		return 0;
	if (m.rank < 0 || m.rank >= m.size || m.npeers > (size_t)m.size ||
	    m.nfuncs > SES_MPI_MAX_FUNCS || m.damaged_at > size)
		abort();
	for (size_t i = 0; i < m.npeers; i++)
		if (m.peers[i].peer < 0 || m.peers[i].peer >= m.size)
			abort();
	for (size_t i = 0; i < m.nfuncs; i++)
		if (strlen(m.funcs[i].name) > SES_MPI_NAME_MAX)
			abort();
	if (m.nrma > (size_t)m.size)
		abort();
	for (size_t i = 0; i < m.nrma; i++) /* RMA targets (1.3) */
		if (m.rma[i].peer < 0 || m.rma[i].peer >= m.size)
			abort();
	if (strlen(m.inflight_name) > SES_MPI_NAME_MAX)
		abort();
	/* call sites (1.2): what mpi_sites.c checked holds for every site it kept */
	if (m.sites.n > SES_MPI_MAX_SITES || (m.sites.n && !m.sites.v))
		abort();
	for (size_t i = 0; i < m.sites.n; i++) {
		const struct ses_mpi_site *s = &m.sites.v[i];
		uint64_t n = 0;

		for (int b = 0; b < SES_MPI_SITE_BUCKETS; b++)
			n += s->hist[b];
		if (!s->name[0] || strlen(s->name) >= SES_MPI_NAME_MAX || n != s->messages ||
		    (s->messages && s->min_bytes > s->max_bytes) || s->nchain > SES_MPI_CHAIN_MAX)
			abort();
	}
	ses_mpi_release(&m);
	return 0;
}
