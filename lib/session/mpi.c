// SPDX-License-Identifier: MIT
/*
 * mpi/<pid>.mpi (format in mpi.h): the bounded reader, over the side-file container's
 * (container.c). The file is written by the PMPI
 * interposer inside the rank, which may have been killed while writing, or be anyone's
 * program: every length is checked against what remains, counts are capped before
 * anything is allocated, and a record that cannot be read ends the parse with what came
 * before kept and the damage said.
 */
#include "session/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

const char *ses_mpi_end_name(uint32_t end_how)
{
	switch (end_how) {
	case SES_MPI_END_FINALIZE:
		return "MPI_Finalize";
	case SES_MPI_END_SIGNAL:
		return "signal";
	case SES_MPI_END_EXIT:
		return "exit without MPI_Finalize";
	case SES_MPI_END_SNAPSHOT:
		return "snapshot";
	}
	return "unknown";
}

static void damage(struct ses_mpi *m, size_t off, const char *why)
{
	m->damaged_at = off;
	snprintf(m->damage, sizeof(m->damage), "%s", why);
}

static const struct ses_ct_kind mpi_kind = {
	.magic = SES_MPI_MAGIC,
	.what = "MPI",
	.major = SES_MPI_MAJOR,
	.min_header = sizeof(struct ses_mpi_file_header),
	.known = 1u << SES_MPI_REC_ENV | 1u << SES_MPI_REC_FUNC | 1u << SES_MPI_REC_PEER |
		 1u << SES_MPI_REC_END | 1u << SES_MPI_REC_INFLIGHT | 1u << SES_MPI_REC_HIST |
		 1u << SES_MPI_REC_RMA | SES_MPI_SITES_KNOWN,
};

/* The kind's header fields (the container checked the prefix and the size). */
static int header(const struct ses_ct_reader *r, struct ses_mpi *m, char *err, size_t errlen)
{
	struct ses_mpi_file_header h;

	memcpy(&h, r->buf, sizeof(h));
	if (h.size < 1 || h.size > SES_MPI_MAX_WORLD || h.rank < 0 || h.rank >= h.size) {
		ses_errf(err, errlen, "rank %d of %d ranks is impossible", h.rank, h.size);
		return -EINVAL;
	}
	m->rank = h.rank;
	m->size = h.size;
	m->pid = h.pid;
	m->family = h.family;
	m->end_how = h.end_how;
	m->signal = h.signal;
	m->init_mono_ns = h.init_mono_ns;
	m->end_mono_ns = h.end_mono_ns;
	return 0;
}

static int add_func(struct ses_mpi *m, const struct ses_mpi_rec_func *r, size_t *cap)
{
	struct ses_mpi_func *f;

	if (m->nfuncs == *cap) {
		size_t n = *cap ? *cap * 2 : 64;

		f = realloc(m->funcs, n * sizeof(*f));
		if (!f)
			return -ENOMEM;
		m->funcs = f;
		*cap = n;
	}
	f = &m->funcs[m->nfuncs++];
	memset(f, 0, sizeof(*f));
	memcpy(f->name, r->name, SES_MPI_NAME_MAX);
	f->name[SES_MPI_NAME_MAX] = 0;
	f->kind = r->kind;
	f->calls = r->calls;
	f->time_ns = r->time_ns;
	f->bytes_sent = r->bytes_sent;
	f->bytes_recv = r->bytes_recv;
	return 0;
}

static int add_peer(struct ses_mpi *m, const struct ses_mpi_rec_peer *r, size_t *cap)
{
	struct ses_mpi_peer *p;

	if (m->npeers == *cap) {
		size_t n = *cap ? *cap * 2 : 64;

		p = realloc(m->peers, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		m->peers = p;
		*cap = n;
	}
	p = &m->peers[m->npeers++];
	p->peer = r->peer;
	p->send_calls = r->send_calls;
	p->send_bytes = r->send_bytes;
	p->send_time_ns = r->send_time_ns;
	p->recv_calls = r->recv_calls;
	p->recv_bytes = r->recv_bytes;
	return 0;
}

/* An RMA record: one a target, a world rank */
static int add_rma(struct ses_mpi *m, const struct ses_mpi_rec_rma *r, size_t off)
{
	struct ses_mpi_rma *p;

	if (r->peer < 0 || r->peer >= m->size || m->nrma >= (size_t)m->size) {
		damage(m, off, "an RMA target outside the job's ranks");
		return 1;
	}
	if (!m->rma) {
		m->rma = calloc((size_t)m->size, sizeof(*m->rma));
		if (!m->rma)
			return -ENOMEM;
	}
	p = &m->rma[m->nrma++];
	p->peer = r->peer;
	p->ops = r->ops;
	p->put_bytes = r->put_bytes;
	p->get_bytes = r->get_bytes;
	return 0;
}

/* One record at @p of @len payload bytes. 0, 1 to stop (damage said), -ENOMEM. */
static int record(struct ses_mpi *m, uint32_t code, const uint8_t *p, uint32_t len, size_t off,
		  uint64_t nrec, size_t *fcap, size_t *pcap)
{
	union {
		struct ses_mpi_rec_env env;
		struct ses_mpi_rec_func func;
		struct ses_mpi_rec_peer peer;
		struct ses_mpi_rec_end end;
		struct ses_mpi_rec_inflight in;
		struct ses_mpi_rec_hist hist;
		struct ses_mpi_rec_rma rma;
	} u;

	switch (code) {
	case SES_MPI_REC_ENV:
		if (len < sizeof(u.env) || len - sizeof(u.env) >= sizeof(m->lib_version))
			goto bad;
		memcpy(&u.env, p, sizeof(u.env));
		m->thread_level = u.env.thread_level;
		m->std_major = u.env.std_major;
		m->std_minor = u.env.std_minor;
		memcpy(m->lib_version, p + sizeof(u.env), len - sizeof(u.env));
		m->lib_version[len - sizeof(u.env)] = 0;
		m->lib_version[strnlen(m->lib_version, len - sizeof(u.env))] = 0;
		return 0;
	case SES_MPI_REC_FUNC:
		if (len != sizeof(u.func))
			goto bad;
		if (m->nfuncs >= SES_MPI_MAX_FUNCS) {
			damage(m, off, "more MPI functions than a rank can have");
			return 1;
		}
		memcpy(&u.func, p, sizeof(u.func));
		return add_func(m, &u.func, fcap);
	case SES_MPI_REC_PEER:
		if (len != sizeof(u.peer))
			goto bad;
		memcpy(&u.peer, p, sizeof(u.peer));
		if (u.peer.peer < 0 || u.peer.peer >= m->size || m->npeers >= (size_t)m->size) {
			damage(m, off, "a peer outside the job's ranks");
			return 1;
		}
		return add_peer(m, &u.peer, pcap);
	case SES_MPI_REC_RMA:
		if (len != sizeof(u.rma))
			goto bad;
		memcpy(&u.rma, p, sizeof(u.rma));
		return add_rma(m, &u.rma, off);
	case SES_MPI_REC_INFLIGHT:
		if (len != sizeof(u.in))
			goto bad;
		memcpy(&u.in, p, sizeof(u.in));
		m->inflight = true;
		memcpy(m->inflight_name, u.in.name, SES_MPI_NAME_MAX);
		m->inflight_name[SES_MPI_NAME_MAX] = 0;
		m->inflight_ns = u.in.elapsed_ns;
		return 0;
	case SES_MPI_REC_HIST:
		if (len != sizeof(u.hist))
			goto bad;
		memcpy(&u.hist, p, sizeof(u.hist));
		for (size_t i = m->nfuncs; i-- > 0;) /* its function came just before */
			if (!strncmp(m->funcs[i].name, u.hist.name, SES_MPI_NAME_MAX)) {
				memcpy(m->funcs[i].hist, u.hist.count, sizeof(u.hist.count));
				return 0;
			}
		damage(m, off, "a size histogram of a function the file does not have");
		return 1;
	case SES_MPI_REC_SITE:
	case SES_MPI_REC_SITES:
	case SES_MPI_REC_SITE_CHAIN:
		return ses_mpi_sites_record(m, code, p, len, off);
	case SES_MPI_REC_END:
		if (len != sizeof(u.end))
			goto bad;
		memcpy(&u.end, p, sizeof(u.end));
		if (u.end.nrecords != nrec) {
			damage(m, off, "the end record counts other records than the file holds");
			return 1;
		}
		m->complete = true;
		m->mpi_time_ns = u.end.mpi_time_ns;
		m->wait_ns = u.end.wait_ns;
		m->calls = u.end.calls;
		return 1; /* nothing after the end is read */
	}
	return 0; /* a newer minor version's record */
bad:
	damage(m, off, "a record of the wrong length");
	return 1;
}

int ses_mpi_parse(const void *buf, size_t len, struct ses_mpi *m, char *err, size_t errlen)
{
	struct ses_ct_reader r;
	struct ses_ct_record rec;
	size_t fcap = 0, pcap = 0;
	int ret;

	memset(m, 0, sizeof(*m));
	if (len > SES_MPI_MAX_BYTES) {
		ses_errf(err, errlen, "file is %zu bytes, more than an MPI data file can be", len);
		return -EFBIG;
	}
	ret = ses_ct_open(&r, &mpi_kind, buf, len, err, errlen);
	if (!ret)
		ret = header(&r, m, err, errlen);
	if (ret)
		return ret;
	while (ses_ct_next(&r, &rec)) {
		/* END counts every record before it, of types this reader knows or not */
		ret = record(m, rec.type, rec.value, rec.len, rec.offset, r.records - 1 + r.unknown,
			     &fcap, &pcap);
		if (ret < 0) {
			ses_mpi_release(m);
			return ret;
		}
		if (ret)
			break;
	}
	m->unknown_records = r.unknown;
	if (r.damage)
		damage(m, r.damaged_at, r.damage);
	if (!m->complete && !m->damage[0])
		damage(m, r.pos,
		       "no end record (the rank was killed while writing, or the file was cut)");
	return 0;
}

int ses_mpi_read(const char *path, struct ses_mpi *m, char *err, size_t errlen)
{
	return ses_mpi_read_at(AT_FDCWD, path, m, err, errlen);
}

int ses_mpi_read_at(int dfd, const char *name, struct ses_mpi *m, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = ses_file_read_all_at(dfd, name, SES_MPI_MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = ses_mpi_parse(buf, len, m, err, errlen);
	free(buf);
	return ret;
}

void ses_mpi_release(struct ses_mpi *m)
{
	if (!m)
		return;
	free(m->funcs);
	free(m->peers);
	free(m->rma);
	m->rma = NULL;
	m->nrma = 0;
	ses_mpi_sites_release(&m->sites);
	m->funcs = NULL;
	m->peers = NULL;
	m->nfuncs = m->npeers = 0;
}
