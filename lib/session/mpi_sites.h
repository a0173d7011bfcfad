/* SPDX-License-Identifier: MIT */
/*
 * mpi/<pid>.mpi's call-site records (version 1.2; codes 40-49 are theirs), included by
 * session/mpi.h. The interposer keeps, per MPI function and return address (the
 * instruction after the program's call of MPI_*, or of the Fortran binding), calls,
 * time and the sizes of the messages it moved; the report finds the address's
 * function and file:line in the rank's own mappings (lib/job/job_sites.c).
 *   SITE   one call site: the MPI function, the return address in the rank's address
 *          space, calls, time, messages (count, total, min, max bytes) and their sizes
 *          in HIST's powers of two
 *   SITES  the table's own counts: sites it held, its capacity, and the calls it could
 *          not place (full): what the SITE records leave out
 *   SITE_CHAIN  (collect -g) the callers above the SITE record before it: the return
 *          addresses of up to SES_MPI_CHAIN_MAX frames, innermost first; a site is then
 *          (function, return address, callers)
 */
#ifndef UPROF_SESSION_MPI_SITES_H
#define UPROF_SESSION_MPI_SITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_MPI_REC_SITE 40
#define SES_MPI_REC_SITES 41
#define SES_MPI_REC_SITE_CHAIN 42
#define SES_MPI_SITES_KNOWN \
	(1ull << SES_MPI_REC_SITE | 1ull << SES_MPI_REC_SITES | 1ull << SES_MPI_REC_SITE_CHAIN)
/* collect -g tells the interposer how many callers to keep per site (0-SES_MPI_CHAIN_MAX) */
#define SES_MPI_ENV_CHAIN "UPROF_MPI_CHAIN"
#define SES_MPI_CHAIN_MAX 4
/* the most sites a reader keeps of one rank (the interposer's table is smaller) */
#define SES_MPI_MAX_SITES 65536
#define SES_MPI_SITE_BUCKETS 32 /* SES_MPI_HIST_BUCKETS: the same powers of two */

struct ses_mpi_rec_site {
	char name[32]; /* SES_MPI_NAME_MAX, NUL-padded: "MPI_Send" */
	uint64_t addr; /* the return address of the call */
	uint64_t calls, time_ns;
	uint64_t messages, bytes;      /* messages moved by the calls, and their bytes */
	uint64_t min_bytes, max_bytes; /* of one message; both 0 without messages */
	uint64_t hist[SES_MPI_SITE_BUCKETS];
};
_Static_assert(sizeof(struct ses_mpi_rec_site) == 344, "site record is 344 bytes");

struct ses_mpi_rec_sites {
	uint64_t nsites;     /* SITE records written */
	uint64_t capacity;   /* the interposer's table */
	uint64_t lost_calls; /* calls of a site the full table had no room for */
	uint64_t pad;
};
_Static_assert(sizeof(struct ses_mpi_rec_sites) == 32, "sites record is 32 bytes");

struct ses_mpi_rec_site_chain {
	uint64_t depth;			    /* frames used, 1..SES_MPI_CHAIN_MAX */
	uint64_t frames[SES_MPI_CHAIN_MAX]; /* return addresses, the site's caller's first */
};
_Static_assert(sizeof(struct ses_mpi_rec_site_chain) == 40, "site chain record is 40 bytes");

/* ---- the reader (not in the interposer) ---- */

struct ses_mpi_site {
	char name[33];
	uint64_t addr, calls, time_ns, messages, bytes, min_bytes, max_bytes;
	uint64_t hist[SES_MPI_SITE_BUCKETS];
	uint32_t nchain; /* SITE_CHAIN: callers above the site, 0 without -g */
	uint64_t chain[SES_MPI_CHAIN_MAX];
};

struct ses_mpi_sites {
	struct ses_mpi_site *v; /* owned: ses_mpi_release() */
	size_t n, cap;
	bool counted; /* a SITES record was read: capacity and lost_calls are known */
	uint64_t capacity, lost_calls;
};

struct ses_mpi;
/* For mpi.c's parse: a SITE or SITES record of @len bytes at @p (untrusted), at file
 * offset @off. 0; 1 when it is malformed (@m's damage said, the parse stops); -ENOMEM. */
int ses_mpi_sites_record(struct ses_mpi *m, uint32_t code, const uint8_t *p, uint32_t len,
			 size_t off);
void ses_mpi_sites_release(struct ses_mpi_sites *s); /* safe twice */

#endif
