// SPDX-License-Identifier: MIT
/*
 * lib/mpi: collectives. Bytes are the rank's own part, as the application gave it (not
 * the library's internal traffic, which Open MPI's pml_monitoring counts): "sent" is what
 * the rank contributes from its send buffer (for the root of a scatter, every rank's
 * part), "received" what lands in its receive buffer (for the root of a gather, every
 * rank's part). MPI_IN_PLACE contributes the receive buffer's part. Ranks that take no
 * part in a rooted call's direction count 0 for it.
 */
#include "mpi/events.h" /* --trace mpi=full: an event per call */
#include "mpi/internal.h"

static int comm_size(MPI_Comm comm)
{
	int n = 0;

	PMPI_Comm_size(comm, &n);
	return n;
}

static int comm_rank(MPI_Comm comm)
{
	int r = -1;

	PMPI_Comm_rank(comm, &r);
	return r;
}

static uint64_t vsum(const int counts[], MPI_Datatype dt, int n)
{
	uint64_t b = 0;

	for (int i = 0; counts && i < n; i++)
		b += umpi_bytes(counts[i], dt);
	return b;
}

/* Every collective wrapper names its communicator comm: its event's. */
#define COLL(f, call, sent, recv) \
	do { \
		int64_t t0_ = umpi_call_begin(f), t1_; \
		ret = (call); \
		t1_ = umpi_call_end(); \
		umpi_count(f, t1_ - t0_, sent, recv); \
		if (umpi_ev_on()) { \
			umpi_ev_record(f, t0_, t1_); \
			umpi_ev_coll(comm, -1, sent, recv); \
		} \
	} while (0)

int MPI_Barrier(MPI_Comm comm)
{
	int ret;

	if (!umpi_active())
		return PMPI_Barrier(comm);
	COLL(UMPI_Barrier, PMPI_Barrier(comm), 0, 0);
	return ret;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm)
{
	uint64_t b;
	int ret, me;

	if (!umpi_active())
		return PMPI_Bcast(buf, count, dt, root, comm);
	b = umpi_bytes(count, dt);
	me = comm_rank(comm);
	COLL(UMPI_Bcast, PMPI_Bcast(buf, count, dt, root, comm), me == root ? b : 0,
	     me == root ? 0 : b);
	return ret;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
	       MPI_Comm comm)
{
	uint64_t b;
	int ret;

	if (!umpi_active())
		return PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm);
	b = umpi_bytes(count, dt);
	COLL(UMPI_Reduce, PMPI_Reduce(sbuf, rbuf, count, dt, op, root, comm), b,
	     comm_rank(comm) == root ? b : 0);
	return ret;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
		  MPI_Comm comm)
{
	uint64_t b;
	int ret;

	if (!umpi_active())
		return PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm);
	b = umpi_bytes(count, dt);
	COLL(UMPI_Allreduce, PMPI_Allreduce(sbuf, rbuf, count, dt, op, comm), b, b);
	return ret;
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
	uint64_t b;
	int ret;

	if (!umpi_active())
		return PMPI_Scan(sbuf, rbuf, count, dt, op, comm);
	b = umpi_bytes(count, dt);
	COLL(UMPI_Scan, PMPI_Scan(sbuf, rbuf, count, dt, op, comm), b, b);
	return ret;
}

int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
	uint64_t b;
	int ret;

	if (!umpi_active())
		return PMPI_Exscan(sbuf, rbuf, count, dt, op, comm);
	b = umpi_bytes(count, dt);
	COLL(UMPI_Exscan, PMPI_Exscan(sbuf, rbuf, count, dt, op, comm), b, b);
	return ret;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt,
		       MPI_Op op, MPI_Comm comm)
{
	int ret, n, me;

	if (!umpi_active())
		return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm);
	n = comm_size(comm);
	me = comm_rank(comm);
	COLL(UMPI_Reduce_scatter, PMPI_Reduce_scatter(sbuf, rbuf, rcounts, dt, op, comm),
	     vsum(rcounts, dt, n), me >= 0 && me < n ? umpi_bytes(rcounts[me], dt) : 0);
	return ret;
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
	       MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int ret, root_me;
	uint64_t s, r;

	if (!umpi_active())
		return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	root_me = comm_rank(comm) == root;
	r = root_me ? umpi_bytes(rcount, rtype) * (uint64_t)comm_size(comm) : 0;
	s = sbuf == MPI_IN_PLACE ? umpi_bytes(rcount, rtype) : umpi_bytes(scount, stype);
	COLL(UMPI_Gather, PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm), s, r);
	return ret;
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
		const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int ret, root_me;
	uint64_t r;

	if (!umpi_active())
		return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
	root_me = comm_rank(comm) == root;
	r = root_me ? vsum(rcounts, rtype, comm_size(comm)) : 0;
	COLL(UMPI_Gatherv,
	     PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm),
	     sbuf == MPI_IN_PLACE ? 0 : umpi_bytes(scount, stype), r);
	return ret;
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		  MPI_Datatype rtype, MPI_Comm comm)
{
	int ret;
	uint64_t s, r;

	if (!umpi_active())
		return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	r = umpi_bytes(rcount, rtype) * (uint64_t)comm_size(comm);
	s = sbuf == MPI_IN_PLACE ? umpi_bytes(rcount, rtype) : umpi_bytes(scount, stype);
	COLL(UMPI_Allgather, PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm), s, r);
	return ret;
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
		   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
	int ret;

	if (!umpi_active())
		return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
	COLL(UMPI_Allgatherv,
	     PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm),
	     sbuf == MPI_IN_PLACE ? 0 : umpi_bytes(scount, stype),
	     vsum(rcounts, rtype, comm_size(comm)));
	return ret;
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int ret, root_me;
	uint64_t s, r;

	if (!umpi_active())
		return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
	root_me = comm_rank(comm) == root;
	s = root_me ? umpi_bytes(scount, stype) * (uint64_t)comm_size(comm) : 0;
	r = rbuf == MPI_IN_PLACE ? 0 : umpi_bytes(rcount, rtype);
	COLL(UMPI_Scatter, PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm), s,
	     r);
	return ret;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
		 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
	int ret, root_me;

	if (!umpi_active())
		return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
	root_me = comm_rank(comm) == root;
	COLL(UMPI_Scatterv,
	     PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm),
	     root_me ? vsum(scounts, stype, comm_size(comm)) : 0,
	     rbuf == MPI_IN_PLACE ? 0 : umpi_bytes(rcount, rtype));
	return ret;
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
		 MPI_Datatype rtype, MPI_Comm comm)
{
	int ret;
	uint64_t n;

	if (!umpi_active())
		return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
	n = (uint64_t)comm_size(comm);
	COLL(UMPI_Alltoall, PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm),
	     sbuf == MPI_IN_PLACE ? umpi_bytes(rcount, rtype) * n : umpi_bytes(scount, stype) * n,
	     umpi_bytes(rcount, rtype) * n);
	return ret;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
		  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
		  MPI_Comm comm)
{
	int ret, n;

	if (!umpi_active())
		return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
				      comm);
	n = comm_size(comm);
	COLL(UMPI_Alltoallv,
	     PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm),
	     sbuf == MPI_IN_PLACE ? vsum(rcounts, rtype, n) : vsum(scounts, stype, n),
	     vsum(rcounts, rtype, n));
	return ret;
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req)
{
	int ret;

	if (!umpi_active())
		return PMPI_Ibarrier(comm, req);
	COLL(UMPI_Ibarrier, PMPI_Ibarrier(comm, req), 0, 0);
	return ret;
}

int MPI_Ibcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm, MPI_Request *req)
{
	uint64_t b;
	int ret, me;

	if (!umpi_active())
		return PMPI_Ibcast(buf, count, dt, root, comm, req);
	b = umpi_bytes(count, dt);
	me = comm_rank(comm);
	COLL(UMPI_Ibcast, PMPI_Ibcast(buf, count, dt, root, comm, req), me == root ? b : 0,
	     me == root ? 0 : b);
	return ret;
}

int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
		   MPI_Comm comm, MPI_Request *req)
{
	uint64_t b;
	int ret;

	if (!umpi_active())
		return PMPI_Iallreduce(sbuf, rbuf, count, dt, op, comm, req);
	b = umpi_bytes(count, dt);
	COLL(UMPI_Iallreduce, PMPI_Iallreduce(sbuf, rbuf, count, dt, op, comm, req), b, b);
	return ret;
}
