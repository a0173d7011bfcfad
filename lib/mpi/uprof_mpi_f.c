// SPDX-License-Identifier: MIT
/*
 * lib/mpi: the Fortran (mpif.h, gfortran's lower case + '_') bindings. Open MPI's Fortran
 * layer calls PMPI_* (the C wrappers never see a Fortran program's calls), MPICH's calls
 * MPI_* (they do): each binding here counts the call itself and calls the library's own
 * Fortran entry (pmpi_*_, weak: a C program has none), with umpi_in_fortran set so that a
 * C wrapper it reaches does not count it again. Both families, one count. Each call's
 * site (umpi_site_here) is the Fortran program's call of the binding, not our C one.
 */
#include "mpi/internal.h"

typedef MPI_Fint F;

#define FDECL(name, ...) extern void pmpi_##name##_(__VA_ARGS__) __attribute__((weak))

FDECL(init, F *);
FDECL(init_thread, F *, F *, F *);
FDECL(finalize, F *);
FDECL(send, void *, F *, F *, F *, F *, F *, F *);
FDECL(ssend, void *, F *, F *, F *, F *, F *, F *);
FDECL(recv, void *, F *, F *, F *, F *, F *, F *, F *);
FDECL(isend, void *, F *, F *, F *, F *, F *, F *, F *);
FDECL(irecv, void *, F *, F *, F *, F *, F *, F *, F *);
FDECL(sendrecv, void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, F *, F *);
FDECL(wait, F *, F *, F *);
FDECL(waitall, F *, F *, F *, F *);
FDECL(barrier, F *, F *);
FDECL(bcast, void *, F *, F *, F *, F *, F *);
FDECL(reduce, void *, void *, F *, F *, F *, F *, F *, F *);
FDECL(allreduce, void *, void *, F *, F *, F *, F *, F *);

/* Run @call with the C wrappers quiet; @rec: count it here. */
#define FCALL(name, ...) \
	int rec = umpi_active(); \
	int64_t t0 = umpi_ticks(), ns; \
	if (!pmpi_##name##_) { \
		*ierr = MPI_ERR_OTHER; \
		return; \
	} \
	umpi_in_fortran++; \
	pmpi_##name##_(__VA_ARGS__); \
	umpi_in_fortran--; \
	ns = umpi_ticks() - t0; \
	if (rec) \
		umpi_snapshot_check(); /* as the C bindings' umpi_leave */ \
	if (!rec) \
	return

static uint64_t fbytes(const F *count, const F *type)
{
	return umpi_bytes(*count, PMPI_Type_f2c(*type));
}

static int fpeer(const F *comm, const F *r)
{
	return umpi_world_rank(PMPI_Comm_f2c(*comm), *r);
}

/* Open MPI's Fortran MPI_INIT calls PMPI_Init: the C MPI_Init never runs */
void mpi_init_(F *ierr)
{
	int64_t t0 = umpi_now();

	if (!pmpi_init_) {
		*ierr = MPI_ERR_OTHER;
		return;
	}
	umpi_in_fortran++;
	pmpi_init_(ierr);
	umpi_in_fortran--;
	if (*ierr == MPI_SUCCESS)
		umpi_start(MPI_THREAD_SINGLE, t0);
	if (umpi.on)
		umpi_add(&umpi.f[UMPI_Init].calls, 1),
			umpi_add(&umpi.f[UMPI_Init].direct_ns, (uint64_t)(umpi_now() - t0));
}

void mpi_init_thread_(F *required, F *provided, F *ierr)
{
	int64_t t0 = umpi_now();

	if (!pmpi_init_thread_) {
		*ierr = MPI_ERR_OTHER;
		return;
	}
	umpi_in_fortran++;
	pmpi_init_thread_(required, provided, ierr);
	umpi_in_fortran--;
	if (*ierr == MPI_SUCCESS)
		umpi_start(*provided, t0);
	if (umpi.on)
		umpi_add(&umpi.f[UMPI_Init_thread].calls, 1),
			umpi_add(&umpi.f[UMPI_Init_thread].direct_ns, (uint64_t)(umpi_now() - t0));
}

/* flushed after the library's finalize, as MPI_Finalize is (uprof_mpi.c) */
void mpi_finalize_(F *ierr)
{
	int64_t t0 = umpi_now();

	if (!pmpi_finalize_) {
		*ierr = MPI_ERR_OTHER;
		return;
	}
	umpi_in_fortran++;
	pmpi_finalize_(ierr);
	umpi_in_fortran--;
	umpi_lifecycle(UMPI_Finalize, t0);
	umpi_finalize();
}

void mpi_send_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(send, buf, count, type, dest, tag, comm, ierr);
	umpi_site_here(UMPI_Send);
	umpi_count(UMPI_Send, ns, fbytes(count, type), 0);
	umpi_peer_send(fpeer(comm, dest), fbytes(count, type), ns);
}

void mpi_ssend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr)
{
	FCALL(ssend, buf, count, type, dest, tag, comm, ierr);
	umpi_site_here(UMPI_Ssend);
	umpi_count(UMPI_Ssend, ns, fbytes(count, type), 0);
	umpi_peer_send(fpeer(comm, dest), fbytes(count, type), ns);
}

/* The posted count and source: a Fortran status is the library's own layout. */
void mpi_recv_(void *buf, F *count, F *type, F *src, F *tag, F *comm, F *status, F *ierr)
{
	FCALL(recv, buf, count, type, src, tag, comm, status, ierr);
	umpi_site_here(UMPI_Recv);
	umpi_count(UMPI_Recv, ns, 0, fbytes(count, type));
	umpi_peer_recv(fpeer(comm, src), fbytes(count, type));
}

void mpi_isend_(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(isend, buf, count, type, dest, tag, comm, req, ierr);
	umpi_site_here(UMPI_Isend);
	umpi_count(UMPI_Isend, ns, fbytes(count, type), 0);
	umpi_peer_send(fpeer(comm, dest), fbytes(count, type), ns);
}

void mpi_irecv_(void *buf, F *count, F *type, F *src, F *tag, F *comm, F *req, F *ierr)
{
	FCALL(irecv, buf, count, type, src, tag, comm, req, ierr);
	umpi_site_here(UMPI_Irecv);
	umpi_count(UMPI_Irecv, ns, 0, fbytes(count, type));
	umpi_peer_recv(fpeer(comm, src), fbytes(count, type));
}

void mpi_sendrecv_(void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount,
		   F *rtype, F *src, F *rtag, F *comm, F *status, F *ierr)
{
	FCALL(sendrecv, sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm,
	      status, ierr);
	umpi_site_here(UMPI_Sendrecv);
	umpi_count(UMPI_Sendrecv, ns, fbytes(scount, stype), fbytes(rcount, rtype));
	umpi_peer_send(fpeer(comm, dest), fbytes(scount, stype), ns);
	umpi_peer_recv(fpeer(comm, src), fbytes(rcount, rtype));
}

void mpi_wait_(F *req, F *status, F *ierr)
{
	FCALL(wait, req, status, ierr);
	umpi_site_here(UMPI_Wait);
	umpi_count(UMPI_Wait, ns, 0, 0);
}

void mpi_waitall_(F *count, F *reqs, F *statuses, F *ierr)
{
	FCALL(waitall, count, reqs, statuses, ierr);
	umpi_site_here(UMPI_Waitall);
	umpi_count(UMPI_Waitall, ns, 0, 0);
}

void mpi_barrier_(F *comm, F *ierr)
{
	FCALL(barrier, comm, ierr);
	umpi_site_here(UMPI_Barrier);
	umpi_count(UMPI_Barrier, ns, 0, 0);
}

void mpi_bcast_(void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	int me = -1;

	PMPI_Comm_rank(PMPI_Comm_f2c(*comm), &me);
	{
		FCALL(bcast, buf, count, type, root, comm, ierr);
		umpi_site_here(UMPI_Bcast);
		umpi_count(UMPI_Bcast, ns, me == *root ? fbytes(count, type) : 0,
			   me == *root ? 0 : fbytes(count, type));
	}
}

void mpi_reduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr)
{
	int me = -1;

	PMPI_Comm_rank(PMPI_Comm_f2c(*comm), &me);
	{
		FCALL(reduce, sbuf, rbuf, count, type, op, root, comm, ierr);
		umpi_site_here(UMPI_Reduce);
		umpi_count(UMPI_Reduce, ns, fbytes(count, type),
			   me == *root ? fbytes(count, type) : 0);
	}
}

void mpi_allreduce_(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr)
{
	FCALL(allreduce, sbuf, rbuf, count, type, op, comm, ierr);
	umpi_site_here(UMPI_Allreduce);
	umpi_count(UMPI_Allreduce, ns, fbytes(count, type), fbytes(count, type));
}
