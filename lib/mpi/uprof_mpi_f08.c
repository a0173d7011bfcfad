// SPDX-License-Identifier: MIT
/*
 * lib/mpi: the `use mpi_f08` bindings (gfortran's lower case + '_'). A program using the
 * mpi_f08 module calls entry points of their own, which neither the C wrappers nor the
 * mpif.h ones (uprof_mpi_f.c) see whole:
 *   Open MPI 4.1: mpi_<name>_f08_ (libmpi_usempif08) calls ompi_<name>_f, which calls
 *     PMPI_<Name>: no wrapper of ours ran, MPI_Init included.
 *   MPICH 4.0: mpi_<name>_f08ts_ for calls with a buffer (an assumed-type, assumed-rank
 *     argument: a CFI descriptor, TS 29113) calls MPI_<Name>; mpi_<name>_f08_ for the
 *     others (Init, Finalize, Wait, Waitall, Barrier) calls PMPI_<Name>.
 * Each is interposed here under both names where a family has both, counted once with
 * umpi_in_fortran set (a C wrapper reached below does not count it again), and calls the
 * library's own entry: the next definition after ours (MPICH exports no pmpi_*_f08ts_).
 * Every argument is passed by reference; the optional ierror may be NULL (absent). The
 * handles inside type(MPI_Comm) and type(MPI_Datatype) are the Fortran integer handles.
 */
#include "mpi/internal.h"

#include <dlfcn.h>
#include <stddef.h>

typedef MPI_Fint F;

/* One entry point of the library: its name, and its definition once looked up. */
struct entry {
	const char *sym;
	void *fn;
};

/* The library's definition of @e, looked up once (a race looks it up twice: the same) */
static void *next_entry(struct entry *e)
{
	void *p = __atomic_load_n(&e->fn, __ATOMIC_RELAXED);

	if (!p) {
		p = dlsym(RTLD_NEXT, e->sym);
		__atomic_store_n(&e->fn, p, __ATOMIC_RELAXED);
	}
	return p;
}

static void fail(F *ierr)
{
	if (ierr)
		*ierr = MPI_ERR_OTHER;
}

/*
 * Run the library's entry @e (a function of type @proto) with @args, the C wrappers
 * quiet, the call named in progress (where a hung rank hangs); then, when it was
 * recorded, ns is its time. @f: the function counted.
 */
#define F08CALL(f, e, proto, ...) \
	void(*call_) proto = (void(*) proto)next_entry(e); \
	int rec = umpi_active(); \
	int64_t t0 = umpi_ticks(), ns; \
	if (!call_) { \
		fail(ierr); \
		return; \
	} \
	if (rec) \
		umpi_enter(f, t0); \
	umpi_in_fortran++; \
	call_(__VA_ARGS__); \
	umpi_in_fortran--; \
	if (rec) \
		umpi_leave(); \
	ns = umpi_ticks() - t0; \
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

static int frank(const F *comm)
{
	int me = -1;

	PMPI_Comm_rank(PMPI_Comm_f2c(*comm), &me);
	return me;
}

/* ---- init and finalize: the runtime's start and end, timed apart ---- */

void mpi_init_f08_(F *ierr)
{
	static struct entry e_ = { "mpi_init_f08_", NULL };
	void (*call)(F *) = (void (*)(F *))next_entry(&e_);
	int64_t t0 = umpi_now();
	F err = MPI_SUCCESS;

	if (!call) {
		fail(ierr);
		return;
	}
	umpi_in_fortran++;
	call(&err);
	umpi_in_fortran--;
	if (err == MPI_SUCCESS)
		umpi_start(MPI_THREAD_SINGLE, t0);
	umpi_lifecycle(UMPI_Init, t0);
	if (ierr)
		*ierr = err;
}

void mpi_init_thread_f08_(F *required, F *provided, F *ierr)
{
	static struct entry e_ = { "mpi_init_thread_f08_", NULL };
	void (*call)(F *, F *, F *) = (void (*)(F *, F *, F *))next_entry(&e_);
	int64_t t0 = umpi_now();
	F err = MPI_SUCCESS;

	if (!call) {
		fail(ierr);
		return;
	}
	umpi_in_fortran++;
	call(required, provided, &err);
	umpi_in_fortran--;
	if (err == MPI_SUCCESS)
		umpi_start(*provided, t0);
	umpi_lifecycle(UMPI_Init_thread, t0);
	if (ierr)
		*ierr = err;
}

void mpi_finalize_f08_(F *ierr)
{
	static struct entry e_ = { "mpi_finalize_f08_", NULL };
	void (*call)(F *) = (void (*)(F *))next_entry(&e_);
	int64_t t0 = umpi_now();

	if (!call) {
		fail(ierr);
		return;
	}
	umpi_in_fortran++;
	call(ierr);
	umpi_in_fortran--;
	umpi_lifecycle(UMPI_Finalize, t0);
	umpi_finalize();
}

/* ---- point to point ---- */

/* A call with a buffer is mpi_<name>_f08_ in Open MPI, mpi_<name>_f08ts_ in MPICH: one
 * body, both names. */
#define BOTH(name, params, args) \
	void mpi_##name##_f08_ params \
	{ \
		static struct entry e_ = { "mpi_" #name "_f08_", NULL }; \
		name##_f08(&e_, args); \
	} \
	void mpi_##name##_f08ts_ params \
	{ \
		static struct entry e_ = { "mpi_" #name "_f08ts_", NULL }; \
		name##_f08(&e_, args); \
	}
#define P(...) (__VA_ARGS__)
#define A(...) __VA_ARGS__

static void xsend_f08(struct entry *e, enum umpi_func f, void *buf, F *count, F *type, F *dest,
		      F *tag, F *comm, F *ierr)
{
	F08CALL(f, e, (void *, F *, F *, F *, F *, F *, F *), buf, count, type, dest, tag, comm,
		ierr);
	umpi_count(f, ns, fbytes(count, type), 0);
	umpi_peer_send(fpeer(comm, dest), fbytes(count, type), ns);
}

static void send_f08(struct entry *e, void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		     F *ierr)
{
	xsend_f08(e, UMPI_Send, buf, count, type, dest, tag, comm, ierr);
}
BOTH(send, P(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr),
     A(buf, count, type, dest, tag, comm, ierr))

static void ssend_f08(struct entry *e, void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		      F *ierr)
{
	xsend_f08(e, UMPI_Ssend, buf, count, type, dest, tag, comm, ierr);
}
BOTH(ssend, P(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *ierr),
     A(buf, count, type, dest, tag, comm, ierr))

/* The posted count and source, as the mpif.h bindings count a receive. */
static void recv_f08(struct entry *e, void *buf, F *count, F *type, F *src, F *tag, F *comm,
		     void *status, F *ierr)
{
	F08CALL(UMPI_Recv, e, (void *, F *, F *, F *, F *, F *, void *, F *), buf, count, type, src,
		tag, comm, status, ierr);
	umpi_count(UMPI_Recv, ns, 0, fbytes(count, type));
	umpi_peer_recv(fpeer(comm, src), fbytes(count, type));
}
BOTH(recv, P(void *buf, F *count, F *type, F *src, F *tag, F *comm, void *status, F *ierr),
     A(buf, count, type, src, tag, comm, status, ierr))

static void isend_f08(struct entry *e, void *buf, F *count, F *type, F *dest, F *tag, F *comm,
		      F *req, F *ierr)
{
	F08CALL(UMPI_Isend, e, (void *, F *, F *, F *, F *, F *, F *, F *), buf, count, type, dest,
		tag, comm, req, ierr);
	umpi_count(UMPI_Isend, ns, fbytes(count, type), 0);
	umpi_peer_send(fpeer(comm, dest), fbytes(count, type), ns);
}
BOTH(isend, P(void *buf, F *count, F *type, F *dest, F *tag, F *comm, F *req, F *ierr),
     A(buf, count, type, dest, tag, comm, req, ierr))

static void irecv_f08(struct entry *e, void *buf, F *count, F *type, F *src, F *tag, F *comm,
		      F *req, F *ierr)
{
	F08CALL(UMPI_Irecv, e, (void *, F *, F *, F *, F *, F *, F *, F *), buf, count, type, src,
		tag, comm, req, ierr);
	umpi_count(UMPI_Irecv, ns, 0, fbytes(count, type));
	umpi_peer_recv(fpeer(comm, src), fbytes(count, type));
}
BOTH(irecv, P(void *buf, F *count, F *type, F *src, F *tag, F *comm, F *req, F *ierr),
     A(buf, count, type, src, tag, comm, req, ierr))

static void sendrecv_f08(struct entry *e, void *sbuf, F *scount, F *stype, F *dest, F *stag,
			 void *rbuf, F *rcount, F *rtype, F *src, F *rtag, F *comm, void *status,
			 F *ierr)
{
	F08CALL(UMPI_Sendrecv, e,
		(void *, F *, F *, F *, F *, void *, F *, F *, F *, F *, F *, void *, F *), sbuf,
		scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status, ierr);
	umpi_count(UMPI_Sendrecv, ns, fbytes(scount, stype), fbytes(rcount, rtype));
	umpi_peer_send(fpeer(comm, dest), fbytes(scount, stype), ns);
	umpi_peer_recv(fpeer(comm, src), fbytes(rcount, rtype));
}
BOTH(sendrecv,
     P(void *sbuf, F *scount, F *stype, F *dest, F *stag, void *rbuf, F *rcount, F *rtype, F *src,
       F *rtag, F *comm, void *status, F *ierr),
     A(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status, ierr))

/* ---- completion and collectives without a buffer: mpi_<name>_f08_ in both ---- */

void mpi_wait_f08_(F *req, void *status, F *ierr)
{
	static struct entry e_ = { "mpi_wait_f08_", NULL };

	F08CALL(UMPI_Wait, &e_, (F *, void *, F *), req, status, ierr);
	umpi_count(UMPI_Wait, ns, 0, 0);
}

void mpi_waitall_f08_(F *count, F *reqs, void *statuses, F *ierr)
{
	static struct entry e_ = { "mpi_waitall_f08_", NULL };

	F08CALL(UMPI_Waitall, &e_, (F *, F *, void *, F *), count, reqs, statuses, ierr);
	umpi_count(UMPI_Waitall, ns, 0, 0);
}

void mpi_barrier_f08_(F *comm, F *ierr)
{
	static struct entry e_ = { "mpi_barrier_f08_", NULL };

	F08CALL(UMPI_Barrier, &e_, (F *, F *), comm, ierr);
	umpi_count(UMPI_Barrier, ns, 0, 0);
}

/* ---- collectives with a buffer ---- */

static void bcast_f08(struct entry *e, void *buf, F *count, F *type, F *root, F *comm, F *ierr)
{
	int me = umpi_active() ? frank(comm) : -1;

	F08CALL(UMPI_Bcast, e, (void *, F *, F *, F *, F *, F *), buf, count, type, root, comm,
		ierr);
	umpi_count(UMPI_Bcast, ns, me == *root ? fbytes(count, type) : 0,
		   me == *root ? 0 : fbytes(count, type));
}
BOTH(bcast, P(void *buf, F *count, F *type, F *root, F *comm, F *ierr),
     A(buf, count, type, root, comm, ierr))

static void reduce_f08(struct entry *e, void *sbuf, void *rbuf, F *count, F *type, F *op, F *root,
		       F *comm, F *ierr)
{
	int me = umpi_active() ? frank(comm) : -1;

	F08CALL(UMPI_Reduce, e, (void *, void *, F *, F *, F *, F *, F *, F *), sbuf, rbuf, count,
		type, op, root, comm, ierr);
	umpi_count(UMPI_Reduce, ns, fbytes(count, type), me == *root ? fbytes(count, type) : 0);
}
BOTH(reduce, P(void *sbuf, void *rbuf, F *count, F *type, F *op, F *root, F *comm, F *ierr),
     A(sbuf, rbuf, count, type, op, root, comm, ierr))

static void allreduce_f08(struct entry *e, void *sbuf, void *rbuf, F *count, F *type, F *op,
			  F *comm, F *ierr)
{
	F08CALL(UMPI_Allreduce, e, (void *, void *, F *, F *, F *, F *, F *), sbuf, rbuf, count,
		type, op, comm, ierr);
	umpi_count(UMPI_Allreduce, ns, fbytes(count, type), fbytes(count, type));
}
BOTH(allreduce, P(void *sbuf, void *rbuf, F *count, F *type, F *op, F *comm, F *ierr),
     A(sbuf, rbuf, count, type, op, comm, ierr))
