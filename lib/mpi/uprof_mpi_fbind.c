// SPDX-License-Identifier: MIT
/*
 * lib/mpi: the Fortran bindings (gfortran's lower case + '_'), every function of
 * fbind_table.h under each name a family gives it:
 *   mpi_<name>_        mpif.h and `use mpi`, both families;
 *   mpi_<name>_f08_    `use mpi_f08`: Open MPI 4.1 (libmpi_usempif08) for all, MPICH 4.0
 *                      (libmpichfort) for the calls without a buffer;
 *   mpi_<name>_f08ts_  `use mpi_f08`, MPICH's calls with a buffer (an assumed-type,
 *                      assumed-rank argument: a CFI descriptor, TS 29113).
 * Open MPI's Fortran entries call PMPI_* (no C wrapper of ours runs: without these the
 * call is lost, MPI_Init included), MPICH's call MPI_* or PMPI_*: each is counted here
 * once, umpi_in_fortran set while the library's own entry (the next definition after
 * ours, looked up by name) runs, so that a C wrapper reached below does not count it
 * again. A name the library lacks is one nobody calls.
 *
 * One mechanism for all: every argument of a Fortran call is passed by reference (the
 * handles inside type(MPI_Comm) and the like are the Fortran integer handles), and the
 * hidden lengths of character arguments come last by value: all are one machine word
 * each, of the integer class. An entry takes FB_MAXARGS of them and hands all on: the
 * ones past what the program passed are what its registers and its own frame held,
 * which the library's entry, taking fewer, never reads (x86-64 and AArch64 calling
 * conventions: the caller owns and cleans its stack). Bytes are what the C wrappers
 * count (uprof-mpi(7)), but for these differences: a receive and a read count what was
 * posted (a Fortran status is the library's own layout), and MPI_IN_PLACE is not told
 * apart (it is an address in the Fortran library). Under --trace mpi=full each call is
 * an event, with its peer, tag and bytes; a Fortran request is not linked to the Wait
 * that completes it.
 */
#include "mpi/events.h"
#include "mpi/fbind_table.h"
#include "mpi/internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef MPI_Fint F;

#define FB_MAXARGS 16

/* What a call moves, read from its arguments (struct fbind's positions). */
enum fb_shape {
	FB_NONE,	   /* calls and time */
	FB_SEND,	   /* c t to peer, tag, comm */
	FB_ISEND,	   /* ... and its request req */
	FB_RECV,	   /* c t from peer */
	FB_IRECV,	   /* ... and its request req */
	FB_SENDRECV,	   /* c t to peer, c2 t2 from peer2 */
	FB_SEND_INIT,	   /* a persistent send of c t to peer: counted at its start */
	FB_RECV_INIT,	   /* a persistent receive */
	FB_START,	   /* request req started */
	FB_STARTALL,	   /* c requests req[] started */
	FB_COLL,	   /* a collective of no bytes over comm */
	FB_BCAST,	   /* c t from root */
	FB_REDUCE,	   /* c t sent, received by root */
	FB_ALLREDUCE,	   /* c t both ways */
	FB_REDUCE_SCATTER, /* counts c2[] of t2: all sent, own received */
	FB_GATHER,	   /* c t sent; c2 t2 from each rank received by root (-1: all) */
	FB_GATHERV,	   /* c t sent; c2[] of t2 received by root (-1: all) */
	FB_SCATTER,	   /* c t to each rank sent by root; c2 t2 received */
	FB_SCATTERV,	   /* c[] of t sent by root; c2 t2 received */
	FB_ALLTOALL,	   /* c t to each, c2 t2 from each */
	FB_ALLTOALLV,	   /* c[] of t, c2[] of t2 */
	FB_READ,	   /* c t read (received) */
	FB_WRITE,	   /* c t written (sent) */
	FB_PUT,		   /* c t to peer of window win */
	FB_GET,		   /* c t from peer of win */
	FB_GET_ACC,	   /* c t to, c2 t2 from peer of win */
	FB_FETCH,	   /* one t to and from peer of win */
};

/* One function: what it is, and where its arguments are. */
struct fbind {
	enum umpi_func f;
	enum fb_shape shape;
	int c, t, peer, tag, comm, c2, t2, peer2, tag2, root, req, win;
};

/* One entry point of the library: its name, and its definition once looked up. */
struct fb_entry {
	const char *sym;
	void *fn;
};

typedef void (*fb_fn)(void *, void *, void *, void *, void *, void *, void *, void *, void *,
		      void *, void *, void *, void *, void *, void *, void *);

/* The library's definition of @e, looked up once (a race looks it up twice: the same);
 * none is a program calling a name its MPI library does not define: it cannot go on. */
static fb_fn fb_next(struct fb_entry *e)
{
	void *p = __atomic_load_n(&e->fn, __ATOMIC_RELAXED);

	if (!p) {
		p = dlsym(RTLD_NEXT, e->sym);
		if (!p) {
			static const char m1[] = "uprof: the MPI library defines no ";
			static const char m2[] = ", which the program called; run it without "
						 "--trace mpi or report this\n";

			(void)!write(2, m1, sizeof(m1) - 1);
			(void)!write(2, e->sym, strlen(e->sym));
			(void)!write(2, m2, sizeof(m2) - 1);
			abort();
		}
		__atomic_store_n(&e->fn, p, __ATOMIC_RELAXED);
	}
	return (fb_fn)p;
}

static F fint(void *const *a, int i)
{
	return *(const F *)a[i];
}

static uint64_t fbytes(void *const *a, int c, int t)
{
	return umpi_bytes(fint(a, c), PMPI_Type_f2c(fint(a, t)));
}

static MPI_Comm fcomm(void *const *a, const struct fbind *b)
{
	return PMPI_Comm_f2c(fint(a, b->comm));
}

static int comm_rank(MPI_Comm comm)
{
	int r = -1;

	PMPI_Comm_rank(comm, &r);
	return r;
}

static uint64_t comm_size(MPI_Comm comm)
{
	int n = 0;

	PMPI_Comm_size(comm, &n);
	return n > 0 ? (uint64_t)n : 0;
}

/* The bytes of the Fortran counts array at @c, one per rank of @comm, of type @t */
static uint64_t fvsum(void *const *a, int c, int t, MPI_Comm comm)
{
	const F *counts = a[c];
	MPI_Datatype dt = PMPI_Type_f2c(fint(a, t));
	uint64_t b = 0, n = comm_size(comm);

	for (uint64_t i = 0; counts && i < n; i++)
		b += umpi_bytes(counts[i], dt);
	return b;
}

/* A point-to-point message of call @b: sent (@send) or received, to or from its peer. */
static void fb_p2p(const struct fbind *b, void *const *a, int send, int second, int64_t ticks)
{
	int c = second ? b->c2 : b->c, t = second ? b->t2 : b->t;
	int peer = second ? b->peer2 : b->peer, tag = second ? b->tag2 : b->tag;
	MPI_Comm comm = fcomm(a, b);
	uint64_t bytes = fbytes(a, c, t);
	int world = umpi_world_rank(comm, fint(a, peer));

	if (send) {
		umpi_peer_send(world, bytes, ticks);
		umpi_ev_send(world, fint(a, tag), comm, bytes);
	} else {
		umpi_peer_recv(world, bytes);
		umpi_ev_recv(world, fint(a, tag), comm, bytes, 0);
	}
}

/* What a collective of @b moved, this rank's part (uprof_mpi_coll.c's rules). */
static void fb_coll_bytes(const struct fbind *b, void *const *a, uint64_t *s, uint64_t *r)
{
	MPI_Comm comm = fcomm(a, b);
	int me = comm_rank(comm), root = b->root < 0 ? me : fint(a, b->root);
	uint64_t n = comm_size(comm);

	switch (b->shape) {
	case FB_BCAST:
		*s = me == root ? fbytes(a, b->c, b->t) : 0;
		*r = me == root ? 0 : fbytes(a, b->c, b->t);
		break;
	case FB_REDUCE:
		*s = fbytes(a, b->c, b->t);
		*r = me == root ? *s : 0;
		break;
	case FB_ALLREDUCE:
		*s = *r = fbytes(a, b->c, b->t);
		break;
	case FB_REDUCE_SCATTER:
		*s = fvsum(a, b->c2, b->t2, comm);
		*r = me >= 0 && (uint64_t)me < n
			     ? umpi_bytes(((const F *)a[b->c2])[me], PMPI_Type_f2c(fint(a, b->t2)))
			     : 0;
		break;
	case FB_GATHER:
		*s = fbytes(a, b->c, b->t);
		*r = me == root ? fbytes(a, b->c2, b->t2) * n : 0;
		break;
	case FB_GATHERV:
		*s = fbytes(a, b->c, b->t);
		*r = me == root ? fvsum(a, b->c2, b->t2, comm) : 0;
		break;
	case FB_SCATTER:
		*s = me == root ? fbytes(a, b->c, b->t) * n : 0;
		*r = fbytes(a, b->c2, b->t2);
		break;
	case FB_SCATTERV:
		*s = me == root ? fvsum(a, b->c, b->t, comm) : 0;
		*r = fbytes(a, b->c2, b->t2);
		break;
	case FB_ALLTOALL:
		*s = fbytes(a, b->c, b->t) * n;
		*r = fbytes(a, b->c2, b->t2) * n;
		break;
	case FB_ALLTOALLV:
		*s = fvsum(a, b->c, b->t, comm);
		*r = fvsum(a, b->c2, b->t2, comm);
		break;
	default:
		*s = *r = 0;
	}
}

/* One recorded call of @b from @t0 to @t1: its counts, peers and event. */
static void fb_record(const struct fbind *b, void *const *a, int64_t t0, int64_t t1)
{
	uint64_t s = 0, r = 0;

	switch (b->shape) {
	case FB_SEND:
	case FB_ISEND:
		s = fbytes(a, b->c, b->t);
		break;
	case FB_RECV:
	case FB_IRECV:
	case FB_READ:
	case FB_GET:
		r = fbytes(a, b->c, b->t);
		break;
	case FB_SENDRECV:
	case FB_GET_ACC:
		s = fbytes(a, b->c, b->t);
		r = fbytes(a, b->c2, b->t2);
		break;
	case FB_WRITE:
	case FB_PUT:
		s = fbytes(a, b->c, b->t);
		break;
	case FB_FETCH:
		s = r = umpi_bytes(1, PMPI_Type_f2c(fint(a, b->t)));
		break;
	case FB_COLL ... FB_ALLTOALLV:
		fb_coll_bytes(b, a, &s, &r);
		break;
	default:
		break;
	}
	umpi_count(b->f, t1 - t0, s, r);
	umpi_ev_call(b->f, t0, t1);
	switch (b->shape) {
	case FB_SEND:
	case FB_ISEND:
		fb_p2p(b, a, 1, 0, t1 - t0);
		break;
	case FB_RECV:
	case FB_IRECV:
		fb_p2p(b, a, 0, 0, t1 - t0);
		break;
	case FB_SENDRECV:
		fb_p2p(b, a, 1, 0, t1 - t0);
		fb_p2p(b, a, 0, 1, t1 - t0);
		break;
	case FB_SEND_INIT:
	case FB_RECV_INIT:
		umpi_preq_add(PMPI_Request_f2c(fint(a, b->req)), b->shape == FB_SEND_INIT,
			      umpi_world_rank(fcomm(a, b), fint(a, b->peer)),
			      fbytes(a, b->c, b->t), fint(a, b->tag), fcomm(a, b));
		break;
	case FB_COLL ... FB_ALLTOALLV:
		if (umpi_ev_on())
			umpi_ev_coll(fcomm(a, b), -1, s, r);
		break;
	case FB_PUT:
	case FB_GET:
	case FB_GET_ACC:
	case FB_FETCH:
		umpi_rma_peer(umpi_win_world(PMPI_Win_f2c(fint(a, b->win)), fint(a, b->peer)), s,
			      r);
		break;
	default:
		break;
	}
	if ((b->shape == FB_ISEND || b->shape == FB_IRECV) && umpi_ev_on())
		umpi_ev_request(PMPI_Request_f2c(fint(a, b->req)), fcomm(a, b));
}

/* Persistent requests started: their handles before the call (a Fortran handle stays) */
static void fb_started(const struct fbind *b, void *const *a, int64_t ticks)
{
	const F *reqs = a[b->req];
	int n = b->shape == FB_START ? 1 : fint(a, b->c);

	for (int i = 0; i < n; i++)
		umpi_preq_started(b->f, PMPI_Request_f2c(reqs[i]), i ? 0 : ticks,
				  b->shape == FB_STARTALL);
}

/* The library's entry @e for @b, with the program's arguments @a; @ret, @fp: the entry's
 * return address and frame, the call's site. */
static void fb_run(const struct fbind *b, struct fb_entry *e, void *const *a, const void *ret,
		   const void *fp)
{
	fb_fn call = fb_next(e);
	int rec = umpi_active();
	int64_t t0, t1;

	if (!rec) {
		call(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
		     a[12], a[13], a[14], a[15]);
		return;
	}
	t0 = umpi_ticks();
	umpi_site_cur = umpi_site_find(b->f, ret, fp);
	umpi_enter(b->f, t0);
	umpi_in_fortran++;
	call(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
	     a[14], a[15]);
	umpi_in_fortran--;
	umpi_leave();
	t1 = umpi_ticks();
	fb_record(b, a, t0, t1);
	if (b->shape == FB_START || b->shape == FB_STARTALL)
		fb_started(b, a, t1 - t0);
}

#define FB_PARAMS \
	void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6, void *a7, void *a8, \
		void *a9, void *a10, void *a11, void *a12, void *a13, void *a14, void *a15
#define FB_ARGS a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15

#define FB_ENTRY(sym, spec) \
	void sym(FB_PARAMS); \
	void sym(FB_PARAMS) \
	{ \
		static struct fb_entry e_ = { #sym, NULL }; \
		void *a_[FB_MAXARGS] = { FB_ARGS }; \
		fb_run(&spec, &e_, a_, __builtin_return_address(0), \
		       umpi_chain_depth ? __builtin_frame_address(0) : NULL); \
	}

#define X(lo, Name, shape_, ...) \
	static const struct fbind fb_##lo = { .f = UMPI_##Name, .shape = shape_, __VA_ARGS__ }; \
	FB_ENTRY(mpi_##lo##_, fb_##lo) \
	FB_ENTRY(mpi_##lo##_f08_, fb_##lo) FB_ENTRY(mpi_##lo##_f08ts_, fb_##lo)
UMPI_FBINDS(X)
#undef X

/* ---- the runtime's start and end: timed apart, by hand (umpi_lifecycle) ---- */

static void fb_init(struct fb_entry *e, F *required, F *provided, F *ierr)
{
	fb_fn call = fb_next(e);
	int64_t t0 = umpi_now();
	uint64_t tsc0 = uprof_ctl_tsc();
	F err = MPI_SUCCESS;

	umpi_in_fortran++;
	if (required)
		call(required, provided, &err, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	else
		call(&err, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	umpi_in_fortran--;
	if (err == MPI_SUCCESS)
		umpi_start(required ? *provided : MPI_THREAD_SINGLE, t0);
	umpi_lifecycle(required ? UMPI_Init_thread : UMPI_Init, t0);
	if (umpi.on)
		umpi_ev_lifecycle(required ? UMPI_Init_thread : UMPI_Init,
				  umpi_init_ticks(t0, tsc0));
	if (ierr)
		*ierr = err;
}

static void fb_finalize(struct fb_entry *e, F *ierr)
{
	fb_fn call = fb_next(e);
	int64_t t0 = umpi_now(), ticks0 = umpi.on ? umpi_ticks() : 0;

	if (umpi.on)
		umpi_enter(UMPI_Finalize, ticks0);
	umpi_in_fortran++;
	call(ierr, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
	umpi_in_fortran--;
	umpi_leave();
	umpi_lifecycle(UMPI_Finalize, t0);
	if (umpi.on)
		umpi_ev_lifecycle(UMPI_Finalize, ticks0);
	umpi_finalize();
}

#define FB_LIFE(suffix) \
	void mpi_init##suffix(F *ierr); \
	void mpi_init##suffix(F *ierr) \
	{ \
		static struct fb_entry e_ = { "mpi_init" #suffix, NULL }; \
		fb_init(&e_, NULL, NULL, ierr); \
	} \
	void mpi_init_thread##suffix(F *required, F *provided, F *ierr); \
	void mpi_init_thread##suffix(F *required, F *provided, F *ierr) \
	{ \
		static struct fb_entry e_ = { "mpi_init_thread" #suffix, NULL }; \
		fb_init(&e_, required, provided, ierr); \
	} \
	void mpi_finalize##suffix(F *ierr); \
	void mpi_finalize##suffix(F *ierr) \
	{ \
		static struct fb_entry e_ = { "mpi_finalize" #suffix, NULL }; \
		fb_finalize(&e_, ierr); \
	}
FB_LIFE(_)
FB_LIFE(_f08_)
