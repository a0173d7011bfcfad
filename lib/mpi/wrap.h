/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: the point-to-point and reduction wrappers' one body, for each count type: the
 * int-count entry points (uprof_mpi_p2p.c, uprof_mpi_coll.c) and MPI 4.0's large-count
 * ones (uprof_mpi_large.c: MPI_Send_c, ... counted under the int form's name). A macro
 * takes the name's suffix (empty or _c), the count's type and the bytes function of that
 * type (umpi_bytes, or large's cbytes); a receive also the bytes its status says arrived.
 */
#ifndef UPROF_MPI_WRAP_H
#define UPROF_MPI_WRAP_H

#include "mpi/events.h"
#include "mpi/internal.h"

/* @call of @f timed into ns, counted (calls, time) and made an event; ret its result */
#define UMPI_TIMED(f, call) \
	do { \
		int64_t t0_ = umpi_call_begin(f); \
		ret = (call); \
		ns = umpi_call_end() - t0_; \
		umpi_count(f, ns, 0, 0); \
		umpi_ev_call(f, t0_, t0_ + ns); \
	} while (0)

/* A send of @b bytes to rank @dest of @comm, @ns long: its bytes, size, peer and event. */
static inline void umpi_p2p_sent(enum umpi_func f, uint64_t b, int dest, int tag, MPI_Comm comm,
				 int64_t ns)
{
	int world = umpi_world_rank(comm, dest);

	umpi_add(&umpi.f[f].sent, b);
	umpi_hist(f, b);
	umpi_peer_send(world, b, ns);
	umpi_ev_send(world, tag, comm, b);
}

/* A receive of @b bytes (what arrived, with status @st; else what was posted) from rank
 * @source of @comm (@st's, when there is one). */
static inline void umpi_p2p_received(enum umpi_func f, const MPI_Status *st, uint64_t b, int source,
				     int tag, MPI_Comm comm)
{
	if (st) {
		source = st->MPI_SOURCE;
		tag = st->MPI_TAG;
	}
	umpi_add(&umpi.f[f].recv, b);
	umpi_hist(f, b);
	source = umpi_world_rank(comm, source);
	umpi_peer_recv(source, b);
	umpi_ev_recv(source, tag, comm, b, st != NULL);
}

#define UMPI_SEND_WRAPPER(name, sfx, ctype, bytes) \
	int MPI_##name##sfx(const void *buf, ctype count, MPI_Datatype dt, int dest, int tag, \
			    MPI_Comm comm) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name##sfx(buf, count, dt, dest, tag, comm); \
		UMPI_TIMED(UMPI_##name, PMPI_##name##sfx(buf, count, dt, dest, tag, comm)); \
		umpi_p2p_sent(UMPI_##name, bytes(count, dt), dest, tag, comm, ns); \
		return ret; \
	}

#define UMPI_ISEND_WRAPPER(name, sfx, ctype, bytes) \
	int MPI_##name##sfx(const void *buf, ctype count, MPI_Datatype dt, int dest, int tag, \
			    MPI_Comm comm, MPI_Request *req) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name##sfx(buf, count, dt, dest, tag, comm, req); \
		UMPI_TIMED(UMPI_##name, PMPI_##name##sfx(buf, count, dt, dest, tag, comm, req)); \
		umpi_p2p_sent(UMPI_##name, bytes(count, dt), dest, tag, comm, ns); \
		if (ret == MPI_SUCCESS && umpi_ev_on()) \
			umpi_ev_request(*req, comm); \
		return ret; \
	}

/* @got(status, count, dt): the bytes a completed receive brought */
#define UMPI_RECV_WRAPPER(sfx, ctype, got) \
	int MPI_Recv##sfx(void *buf, ctype count, MPI_Datatype dt, int source, int tag, \
			  MPI_Comm comm, MPI_Status *status) \
	{ \
		MPI_Status local; \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_Recv##sfx(buf, count, dt, source, tag, comm, status); \
		if (status == MPI_STATUS_IGNORE) \
			status = &local; \
		UMPI_TIMED(UMPI_Recv, PMPI_Recv##sfx(buf, count, dt, source, tag, comm, status)); \
		if (ret == MPI_SUCCESS) \
			umpi_p2p_received(UMPI_Recv, status, got(status, count, dt), source, tag, \
					  comm); \
		return ret; \
	}

#define UMPI_IRECV_WRAPPER(sfx, ctype, bytes) \
	int MPI_Irecv##sfx(void *buf, ctype count, MPI_Datatype dt, int source, int tag, \
			   MPI_Comm comm, MPI_Request *req) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_Irecv##sfx(buf, count, dt, source, tag, comm, req); \
		UMPI_TIMED(UMPI_Irecv, PMPI_Irecv##sfx(buf, count, dt, source, tag, comm, req)); \
		if (ret == MPI_SUCCESS) \
			umpi_p2p_received(UMPI_Irecv, NULL, bytes(count, dt), source, tag, comm); \
		if (ret == MPI_SUCCESS && umpi_ev_on()) \
			umpi_ev_request(*req, comm); \
		return ret; \
	}

#endif
