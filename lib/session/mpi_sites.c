// SPDX-License-Identifier: MIT
/*
 * mpi/<pid>.mpi's call-site records (format in mpi_sites.h), for mpi.c's parse. Every
 * site is checked for the sums the interposer keeps in step (its histogram counts its
 * messages; min <= max; a site without messages has no bytes), so a corrupted record
 * is said, not reported as data.
 */
#include "session/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int bad(struct ses_mpi *m, size_t off, const char *why)
{
	m->damaged_at = off;
	snprintf(m->damage, sizeof(m->damage), "%s", why);
	return 1;
}

static const char *check(const struct ses_mpi_rec_site *r)
{
	uint64_t n = 0;

	if (!r->name[0] || memchr(r->name, 0, sizeof(r->name)) == NULL)
		return "a call site without a function name";
	for (int b = 0; b < SES_MPI_SITE_BUCKETS; b++) {
		if (n + r->hist[b] < n)
			return "a call site's size histogram overflows";
		n += r->hist[b];
	}
	if (n != r->messages)
		return "a call site's size histogram does not count its messages";
	if (!r->messages ? r->bytes || r->min_bytes || r->max_bytes
			 : r->min_bytes > r->max_bytes || r->bytes < r->max_bytes)
		return "a call site's message sizes contradict each other";
	return NULL;
}

static int add_site(struct ses_mpi_sites *s, const struct ses_mpi_rec_site *r)
{
	struct ses_mpi_site *o;

	if (s->n == s->cap) {
		size_t n = s->cap ? s->cap * 2 : 64;

		o = realloc(s->v, n * sizeof(*o));
		if (!o)
			return -ENOMEM;
		s->v = o;
		s->cap = n;
	}
	o = &s->v[s->n++];
	memset(o, 0, sizeof(*o));
	memcpy(o->name, r->name, sizeof(r->name));
	o->addr = r->addr;
	o->calls = r->calls;
	o->time_ns = r->time_ns;
	o->messages = r->messages;
	o->bytes = r->bytes;
	o->min_bytes = r->min_bytes;
	o->max_bytes = r->max_bytes;
	memcpy(o->hist, r->hist, sizeof(o->hist));
	return 0;
}

int ses_mpi_sites_record(struct ses_mpi *m, uint32_t code, const uint8_t *p, uint32_t len,
			 size_t off)
{
	struct ses_mpi_rec_site site;
	struct ses_mpi_rec_sites sites;
	const char *why;

	if (code == SES_MPI_REC_SITES) {
		if (len != sizeof(sites))
			return bad(m, off, "a record of the wrong length");
		memcpy(&sites, p, sizeof(sites));
		if (sites.nsites != m->sites.n || sites.nsites > sites.capacity)
			return bad(m, off, "the call-site count differs from the sites read");
		m->sites.counted = true;
		m->sites.capacity = sites.capacity;
		m->sites.lost_calls = sites.lost_calls;
		return 0;
	}
	if (code == SES_MPI_REC_SITE_CHAIN) {
		struct ses_mpi_rec_site_chain c;
		struct ses_mpi_site *s;

		if (len != sizeof(c))
			return bad(m, off, "a record of the wrong length");
		memcpy(&c, p, sizeof(c));
		s = m->sites.n ? &m->sites.v[m->sites.n - 1] : NULL;
		if (!s || s->nchain)
			return bad(m, off, "a caller chain without its call site");
		if (!c.depth || c.depth > SES_MPI_CHAIN_MAX)
			return bad(m, off, "a caller chain of an impossible depth");
		s->nchain = (uint32_t)c.depth;
		memcpy(s->chain, c.frames, c.depth * sizeof(c.frames[0]));
		return 0;
	}
	if (code != SES_MPI_REC_SITE)
		return 0;
	if (len != sizeof(site))
		return bad(m, off, "a record of the wrong length");
	if (m->sites.n >= SES_MPI_MAX_SITES)
		return bad(m, off, "more call sites than a rank can have");
	memcpy(&site, p, sizeof(site));
	why = check(&site);
	if (why)
		return bad(m, off, why);
	return add_site(&m->sites, &site);
}

void ses_mpi_sites_release(struct ses_mpi_sites *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
