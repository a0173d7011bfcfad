// SPDX-License-Identifier: MIT
/*
 * lib/mpi: point-to-point calls (blocking, nonblocking, persistent) and the Wait/Test
 * families. A send counts its bytes to its peer when it is posted (MPI_Isend, MPI_Start
 * of a persistent send): a transfer is the message, however it completes. A receive
 * counts what arrived (from its status) when it completes in the call itself, else what
 * was posted; MPI_ANY_SOURCE is resolved from the status where there is one.
 */
#include "mpi/events.h" /* --trace mpi=full: an event per call */
#include "mpi/internal.h"
#include "mpi/wrap.h" /* the bodies the large-count wrappers share */

#include <string.h>

#define TIMED(f, call, sent, recv) UMPI_TIMED(f, call)

/* What a completed receive of @count elements of @dt brought: its status's count. */
static uint64_t got_bytes(const MPI_Status *st, int count, MPI_Datatype dt)
{
	int got;

	if (PMPI_Get_count(st, dt, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
		return umpi_bytes(got, dt);
	return umpi_bytes(count, dt);
}

static void p2p_send(enum umpi_func f, const void *buf, int count, MPI_Datatype dt, int dest,
		     int tag, MPI_Comm comm, int64_t ns)
{
	(void)buf;
	umpi_p2p_sent(f, umpi_bytes(count, dt), dest, tag, comm, ns);
}

/* What a completed receive brought (@st NULL: posted only), and from whom. */
static void recv_done(enum umpi_func f, const MPI_Status *st, int count, MPI_Datatype dt,
		      int source, int tag, MPI_Comm comm)
{
	umpi_p2p_received(f, st, st ? got_bytes(st, count, dt) : umpi_bytes(count, dt), source, tag,
			  comm);
}

UMPI_SEND_WRAPPER(Send, , int, umpi_bytes)
UMPI_SEND_WRAPPER(Ssend, , int, umpi_bytes)
UMPI_SEND_WRAPPER(Bsend, , int, umpi_bytes)
UMPI_SEND_WRAPPER(Rsend, , int, umpi_bytes)
UMPI_ISEND_WRAPPER(Isend, , int, umpi_bytes)
UMPI_ISEND_WRAPPER(Issend, , int, umpi_bytes)
UMPI_ISEND_WRAPPER(Ibsend, , int, umpi_bytes)
UMPI_ISEND_WRAPPER(Irsend, , int, umpi_bytes)
UMPI_RECV_WRAPPER(, int, got_bytes)
UMPI_IRECV_WRAPPER(, int, umpi_bytes)

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
		 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
		 MPI_Status *status)
{
	MPI_Status local;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source,
				     rtag, comm, status);
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	TIMED(UMPI_Sendrecv,
	      PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag,
			    comm, status),
	      0, 0);
	p2p_send(UMPI_Sendrecv, sbuf, scount, stype, dest, stag, comm, ns);
	if (ret == MPI_SUCCESS)
		recv_done(UMPI_Sendrecv, status, rcount, rtype, source, rtag, comm);
	return ret;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int source,
			 int rtag, MPI_Comm comm, MPI_Status *status)
{
	MPI_Status local;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm,
					     status);
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	TIMED(UMPI_Sendrecv_replace,
	      PMPI_Sendrecv_replace(buf, count, dt, dest, stag, source, rtag, comm, status), 0, 0);
	p2p_send(UMPI_Sendrecv_replace, buf, count, dt, dest, stag, comm, ns);
	if (ret == MPI_SUCCESS)
		recv_done(UMPI_Sendrecv_replace, status, count, dt, source, rtag, comm);
	return ret;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Probe(source, tag, comm, status);
	TIMED(UMPI_Probe, PMPI_Probe(source, tag, comm, status), 0, 0);
	return ret;
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Iprobe(source, tag, comm, flag, status);
	TIMED(UMPI_Iprobe, PMPI_Iprobe(source, tag, comm, flag, status), 0, 0);
	return ret;
}

/* ---- persistent requests: what each one moves, kept at *_init for MPI_Start ---- */

#define PREQ_SLOTS 4096 /* a power of two; more live persistent requests go uncounted */

struct preq {
	MPI_Request req;
	int used;  /* 0 free, 1 being written, 2 ready */
	int send;  /* 1 send, 0 receive */
	int world; /* the peer, or -1 */
	int tag;   /* for --trace mpi=full's events */
	MPI_Comm comm;
	uint64_t bytes;
};

static struct preq preqs[PREQ_SLOTS];

static uint64_t req_hash(MPI_Request r)
{
	uint64_t k = 0;

	memcpy(&k, &r, sizeof(r) < sizeof(k) ? sizeof(r) : sizeof(k));
	return (k * 0x9e3779b97f4a7c15ULL) >> 52; /* 12 bits: PREQ_SLOTS */
}

void umpi_preq_add(MPI_Request r, int send, int world, uint64_t bytes, int tag, MPI_Comm comm)
{
	uint64_t h = req_hash(r);

	for (int i = 0; i < PREQ_SLOTS; i++) {
		struct preq *p = &preqs[(h + i) & (PREQ_SLOTS - 1)];
		int expect = 0;

		/* a handle the library reuses after MPI_Request_free: take its slot again */
		if (__atomic_load_n(&p->used, __ATOMIC_ACQUIRE) == 2 &&
		    !memcmp(&p->req, &r, sizeof(r))) {
			__atomic_store_n(&p->used, 1, __ATOMIC_RELAXED);
		} else if (!__atomic_compare_exchange_n(&p->used, &expect, 1, false,
							__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			continue;
		}
		p->req = r;
		p->send = send;
		p->world = world;
		p->bytes = bytes;
		p->tag = tag;
		p->comm = comm;
		__atomic_store_n(&p->used, 2, __ATOMIC_RELEASE);
		return;
	}
}

static const struct preq *preq_find(MPI_Request r)
{
	uint64_t h = req_hash(r);

	for (int i = 0; i < PREQ_SLOTS; i++) {
		const struct preq *p = &preqs[(h + i) & (PREQ_SLOTS - 1)];
		int used = __atomic_load_n(&p->used, __ATOMIC_ACQUIRE);

		if (!used)
			return NULL;
		if (used == 2 && !memcmp(&p->req, &r, sizeof(r)))
			return p;
	}
	return NULL;
}

#define SEND_INIT_WRAPPER(name) \
	int MPI_##name(const void *buf, int count, MPI_Datatype dt, int dest, int tag, \
		       MPI_Comm comm, MPI_Request *req) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name(buf, count, dt, dest, tag, comm, req); \
		TIMED(UMPI_##name, PMPI_##name(buf, count, dt, dest, tag, comm, req), 0, 0); \
		(void)ns; \
		if (ret == MPI_SUCCESS) \
			umpi_preq_add(*req, 1, umpi_world_rank(comm, dest), umpi_bytes(count, dt), \
				      tag, comm); \
		return ret; \
	}
SEND_INIT_WRAPPER(Send_init)
SEND_INIT_WRAPPER(Ssend_init)
SEND_INIT_WRAPPER(Bsend_init)
SEND_INIT_WRAPPER(Rsend_init)

int MPI_Recv_init(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		  MPI_Request *req)
{
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Recv_init(buf, count, dt, source, tag, comm, req);
	TIMED(UMPI_Recv_init, PMPI_Recv_init(buf, count, dt, source, tag, comm, req), 0, 0);
	(void)ns;
	if (ret == MPI_SUCCESS)
		umpi_preq_add(*req, 0, umpi_world_rank(comm, source), umpi_bytes(count, dt), tag,
			      comm);
	return ret;
}

/* A persistent request started: its message counts now, as an Isend's or Irecv's, and
 * is followed like theirs (a receive's status says what came, at its completion). */
void umpi_preq_started(enum umpi_func f, MPI_Request r, int64_t ns, int part)
{
	const struct preq *p = preq_find(r);

	if (!p)
		return;
	umpi_hist(f, p->bytes);
	if (p->send) {
		umpi_add(&umpi.f[f].sent, p->bytes);
		umpi_peer_send(p->world, p->bytes, ns);
	} else {
		umpi_add(&umpi.f[f].recv, p->bytes);
		umpi_peer_recv(p->world, p->bytes);
	}
	if (!umpi_ev_on())
		return;
	if (part)
		umpi_ev_part();
	if (p->send)
		umpi_ev_send(p->world, p->tag, p->comm, p->bytes);
	else
		umpi_ev_recv(p->world, p->tag, p->comm, p->bytes, 0);
	umpi_ev_request(r, p->comm);
}

int MPI_Start(MPI_Request *req)
{
	MPI_Request r = *req;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Start(req);
	TIMED(UMPI_Start, PMPI_Start(req), 0, 0);
	if (ret == MPI_SUCCESS)
		umpi_preq_started(UMPI_Start, r, ns, 0);
	return ret;
}

int MPI_Startall(int count, MPI_Request reqs[])
{
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Startall(count, reqs);
	TIMED(UMPI_Startall, PMPI_Startall(count, reqs), 0, 0);
	for (int i = 0; ret == MPI_SUCCESS && i < count; i++)
		umpi_preq_started(UMPI_Startall, reqs[i], i ? 0 : ns, 1);
	return ret;
}

/* ---- Wait and Test: time only (what they complete was counted when posted) ---- */

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Wait(req, status);
	umpi_ev_wait_begin(&w, 1, req, &status);
	TIMED(UMPI_Wait, PMPI_Wait(req, status), 0, 0);
	if (ret == MPI_SUCCESS)
		umpi_ev_wait_done(&w, 0, 1);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Waitall(count, reqs, statuses);
	umpi_ev_wait_begin(&w, count, reqs, &statuses);
	TIMED(UMPI_Waitall, PMPI_Waitall(count, reqs, statuses), 0, 0);
	for (int i = 0; ret == MPI_SUCCESS && i < count; i++)
		umpi_ev_wait_done(&w, i, 0);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Waitany(count, reqs, index, status);
	umpi_ev_wait_begin(&w, count, reqs, &status);
	TIMED(UMPI_Waitany, PMPI_Waitany(count, reqs, index, status), 0, 0);
	if (ret == MPI_SUCCESS)
		umpi_ev_wait_done(&w, *index, 1);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		 MPI_Status statuses[])
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
	umpi_ev_wait_begin(&w, incount, reqs, &statuses);
	TIMED(UMPI_Waitsome, PMPI_Waitsome(incount, reqs, outcount, indices, statuses), 0, 0);
	for (int i = 0; ret == MPI_SUCCESS && *outcount != MPI_UNDEFINED && i < *outcount; i++)
		umpi_ev_wait_done(&w, indices[i], 0);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Test(req, flag, status);
	umpi_ev_wait_begin(&w, 1, req, &status);
	TIMED(UMPI_Test, PMPI_Test(req, flag, status), 0, 0);
	if (ret == MPI_SUCCESS && *flag)
		umpi_ev_wait_done(&w, 0, 1);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Testall(count, reqs, flag, statuses);
	umpi_ev_wait_begin(&w, count, reqs, &statuses);
	TIMED(UMPI_Testall, PMPI_Testall(count, reqs, flag, statuses), 0, 0);
	for (int i = 0; ret == MPI_SUCCESS && *flag && i < count; i++)
		umpi_ev_wait_done(&w, i, 0);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Testany(count, reqs, index, flag, status);
	umpi_ev_wait_begin(&w, count, reqs, &status);
	TIMED(UMPI_Testany, PMPI_Testany(count, reqs, index, flag, status), 0, 0);
	if (ret == MPI_SUCCESS && *flag)
		umpi_ev_wait_done(&w, *index, 1);
	umpi_ev_wait_end(&w);
	return ret;
}

int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		 MPI_Status statuses[])
{
	struct umpi_ev_wait w;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Testsome(incount, reqs, outcount, indices, statuses);
	umpi_ev_wait_begin(&w, incount, reqs, &statuses);
	TIMED(UMPI_Testsome, PMPI_Testsome(incount, reqs, outcount, indices, statuses), 0, 0);
	for (int i = 0; ret == MPI_SUCCESS && *outcount != MPI_UNDEFINED && i < *outcount; i++)
		umpi_ev_wait_done(&w, indices[i], 0);
	umpi_ev_wait_end(&w);
	return ret;
}
