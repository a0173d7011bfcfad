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
#include "mpi/wrap.h" /* the int-count wrappers' bodies */

#if MPI_VERSION >= 4

/* Bytes of @count elements of @dt (0 for a bad type), without an int's limit */
static uint64_t cbytes(MPI_Count count, MPI_Datatype dt)
{
	MPI_Count size;

	if (count <= 0 || PMPI_Type_size_c(dt, &size) != MPI_SUCCESS || size < 0)
		return 0;
	return (uint64_t)count * (uint64_t)size;
}

/* What a completed receive brought: its status's count */
static uint64_t got_cbytes(const MPI_Status *st, MPI_Count count, MPI_Datatype dt)
{
	MPI_Count got;

	if (PMPI_Get_count_c(st, dt, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
		return cbytes(got, dt);
	return cbytes(count, dt);
}

#define LC_TIMED(f, call) UMPI_TIMED(f, call)

UMPI_SEND_WRAPPER(Send, _c, MPI_Count, cbytes)
UMPI_SEND_WRAPPER(Ssend, _c, MPI_Count, cbytes)
UMPI_SEND_WRAPPER(Bsend, _c, MPI_Count, cbytes)
UMPI_SEND_WRAPPER(Rsend, _c, MPI_Count, cbytes)
UMPI_ISEND_WRAPPER(Isend, _c, MPI_Count, cbytes)
UMPI_ISEND_WRAPPER(Issend, _c, MPI_Count, cbytes)
UMPI_ISEND_WRAPPER(Ibsend, _c, MPI_Count, cbytes)
UMPI_ISEND_WRAPPER(Irsend, _c, MPI_Count, cbytes)
UMPI_RECV_WRAPPER(_c, MPI_Count, got_cbytes)
UMPI_IRECV_WRAPPER(_c, MPI_Count, cbytes)

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
