// SPDX-License-Identifier: MIT
/*
 * lib/mpi: MPI 4.0's large-count entry points (MPICH 4.0: MPI_Send_c, ... with an
 * MPI_Count count), counted under the same names as their int-count forms (MPI_Send_c is
 * a call of MPI_Send in every table): the program's traffic is one whatever count type it
 * passed, and a message beyond 2^31 bytes counts whole (64-bit bytes throughout). The
 * point-to-point sends and receives, blocking and nonblocking, and the broadcast and
 * reductions; the rest of the _c family goes uncounted, as any function uprof does not
 * trace. Open MPI 4.1 (MPI 3.1) has none: nothing here is built for it.
 */
#include "mpi/events.h"
#include "mpi/internal.h"

#if MPI_VERSION >= 4

/* Bytes of @count elements of @dt (0 for a bad type), without an int's limit */
static uint64_t cbytes(MPI_Count count, MPI_Datatype dt)
{
	MPI_Count size;

	if (count <= 0 || PMPI_Type_size_c(dt, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* @call of @f timed into @ns, counted (calls, time) and made an event; ret its result */
#define LC_TIMED(f, call) \
	do { \
		int64_t t0_ = umpi_call_begin(f); \
		ret = (call); \
		ns = umpi_call_end() - t0_; \
		umpi_count(f, ns, 0, 0); \
		umpi_ev_call(f, t0_, t0_ + ns); \
	} while (0)

static void lc_send(enum umpi_func f, uint64_t b, int dest, int tag, MPI_Comm comm, int64_t ns)
{
	int world = umpi_world_rank(comm, dest);

	umpi_add(&umpi.f[f].sent, b);
	umpi_hist(f, b);
	umpi_peer_send(world, b, ns);
	umpi_ev_send(world, tag, comm, b);
}

/* What a receive brought (its status's count, when it completed) and from whom */
static void lc_recv(enum umpi_func f, const MPI_Status *st, MPI_Count count, MPI_Datatype dt,
		    int source, int tag, MPI_Comm comm)
{
	uint64_t b = cbytes(count, dt);
	MPI_Count got;

	if (st) {
		if (PMPI_Get_count_c(st, dt, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
			b = cbytes(got, dt);
		source = st->MPI_SOURCE;
		tag = st->MPI_TAG;
	}
	umpi_add(&umpi.f[f].recv, b);
	umpi_hist(f, b);
	source = umpi_world_rank(comm, source);
	umpi_peer_recv(source, b);
	umpi_ev_recv(source, tag, comm, b, st != NULL);
}

#define LC_SEND(name) \
	int MPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, \
			   MPI_Comm comm) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name##_c(buf, count, dt, dest, tag, comm); \
		LC_TIMED(UMPI_##name, PMPI_##name##_c(buf, count, dt, dest, tag, comm)); \
		lc_send(UMPI_##name, cbytes(count, dt), dest, tag, comm, ns); \
		return ret; \
	}
LC_SEND(Send)
LC_SEND(Ssend)
LC_SEND(Bsend)
LC_SEND(Rsend)

#define LC_ISEND(name) \
	int MPI_##name##_c(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag, \
			   MPI_Comm comm, MPI_Request *req) \
	{ \
		int64_t ns; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name##_c(buf, count, dt, dest, tag, comm, req); \
		LC_TIMED(UMPI_##name, PMPI_##name##_c(buf, count, dt, dest, tag, comm, req)); \
		lc_send(UMPI_##name, cbytes(count, dt), dest, tag, comm, ns); \
		if (ret == MPI_SUCCESS && umpi_ev_on()) \
			umpi_ev_request(*req, comm); \
		return ret; \
	}
LC_ISEND(Isend)
LC_ISEND(Issend)
LC_ISEND(Ibsend)
LC_ISEND(Irsend)

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
	       MPI_Status *status)
{
	MPI_Status local;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Recv_c(buf, count, dt, source, tag, comm, status);
	if (status == MPI_STATUS_IGNORE)
		status = &local;
	LC_TIMED(UMPI_Recv, PMPI_Recv_c(buf, count, dt, source, tag, comm, status));
	if (ret == MPI_SUCCESS)
		lc_recv(UMPI_Recv, status, count, dt, source, tag, comm);
	return ret;
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
		MPI_Request *req)
{
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Irecv_c(buf, count, dt, source, tag, comm, req);
	LC_TIMED(UMPI_Irecv, PMPI_Irecv_c(buf, count, dt, source, tag, comm, req));
	if (ret == MPI_SUCCESS)
		lc_recv(UMPI_Irecv, NULL, count, dt, source, tag, comm);
	if (ret == MPI_SUCCESS && umpi_ev_on())
		umpi_ev_request(*req, comm);
	return ret;
}

/* A collective's bytes (uprof_mpi_coll.c's rules), counted with its event */
static void lc_coll(enum umpi_func f, MPI_Comm comm, uint64_t sent, uint64_t recv)
{
	umpi_add(&umpi.f[f].sent, sent);
	umpi_add(&umpi.f[f].recv, recv);
	if (sent || recv)
		umpi_hist(f, sent > recv ? sent : recv);
	if (umpi_ev_on())
		umpi_ev_coll(comm, -1, sent, recv);
}

static int comm_rank(MPI_Comm comm)
{
	int r = -1;

	PMPI_Comm_rank(comm, &r);
	return r;
}

int MPI_Bcast_c(void *buf, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	uint64_t b;
	int64_t ns;
	int ret, me;

	if (!umpi_active())
		return PMPI_Bcast_c(buf, count, dt, root, comm);
	b = cbytes(count, dt);
	me = comm_rank(comm);
	LC_TIMED(UMPI_Bcast, PMPI_Bcast_c(buf, count, dt, root, comm));
	lc_coll(UMPI_Bcast, comm, me == root ? b : 0, me == root ? 0 : b);
	return ret;
}

int MPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
		 int root, MPI_Comm comm)
{
	uint64_t b;
	int64_t ns;
	int ret, me;

	if (!umpi_active())
		return PMPI_Reduce_c(sbuf, rbuf, count, dt, op, root, comm);
	b = cbytes(count, dt);
	me = comm_rank(comm);
	LC_TIMED(UMPI_Reduce, PMPI_Reduce_c(sbuf, rbuf, count, dt, op, root, comm));
	lc_coll(UMPI_Reduce, comm, b, me == root ? b : 0);
	return ret;
}

int MPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
		    MPI_Comm comm)
{
	uint64_t b;
	int64_t ns;
	int ret;

	if (!umpi_active())
		return PMPI_Allreduce_c(sbuf, rbuf, count, dt, op, comm);
	b = cbytes(count, dt);
	LC_TIMED(UMPI_Allreduce, PMPI_Allreduce_c(sbuf, rbuf, count, dt, op, comm));
	lc_coll(UMPI_Allreduce, comm, b, b);
	return ret;
}

#endif /* MPI_VERSION >= 4 */
