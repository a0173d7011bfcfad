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
 * count (uprof-mpi(7)): a blocking receive counts what arrived, and a blocking file read
 * or write what it moved, from its status (PMPI_Status_f2c: the Fortran
 * status has the C one's size in both families, `use mpi_f08`'s type(MPI_Status) too);
 * a program's MPI_STATUS_IGNORE is replaced by a status of ours. MPI_IN_PLACE is the
 * address of the family's Fortran sentinel (fb_is_in_place), told apart as the C
 * wrappers tell MPI_IN_PLACE. Under --trace mpi=full each call is an event, with its
 * peer, tag and bytes, and a Fortran request (an integer handle, the C request behind it
 * found with PMPI_Request_f2c before the Wait or Test frees it) is linked to the call
 * that completes it as a C one is (uprof_mpi_fwait.c).
 */
#include "mpi/events.h"
#include "mpi/fbind.h"
#include "mpi/fbind_table.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* What a receive (or a file read or write) of @c elements of Fortran type @t moved, by
 * its status @st (NULL: none, what was posted), as the C wrappers count it. */
static uint64_t fb_got(void *const *a, int c, int t, const MPI_Status *st)
{
	MPI_Datatype dt = PMPI_Type_f2c(fint(a, t));
	int got;

	if (st && PMPI_Get_count(st, dt, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
		return umpi_bytes(got, dt);
	return umpi_bytes(fint(a, c), dt);
}

/* A point-to-point message of call @b: sent (@send) or received, to or from its peer
 * (a receive's: the source, tag and bytes of its status @st, when it has one). */
static void fb_p2p(const struct fbind *b, void *const *a, int send, int second, int64_t ticks,
		   const MPI_Status *st)
{
	int c = second ? b->c2 : b->c, t = second ? b->t2 : b->t;
	int peer = second ? b->peer2 : b->peer, tag = second ? b->tag2 : b->tag;
	MPI_Comm comm = fcomm(a, b);
	uint64_t bytes = send ? fbytes(a, c, t) : fb_got(a, c, t, st);
	int world = umpi_world_rank(comm, st && !send ? st->MPI_SOURCE : fint(a, peer));

	if (send) {
		umpi_peer_send(world, bytes, ticks);
		umpi_ev_send(world, fint(a, tag), comm, bytes);
	} else {
		umpi_peer_recv(world, bytes);
		umpi_ev_recv(world, st ? st->MPI_TAG : fint(a, tag), comm, bytes, st != NULL);
	}
}

/* What a collective of @b moved, this rank's part (uprof_mpi_coll.c's rules, MPI_IN_PLACE
 * too); @ts: its buffers are CFI descriptors (MPICH's _f08ts_ entries). */
static void fb_coll_bytes(const struct fbind *b, void *const *a, int ts, uint64_t *s, uint64_t *r)
{
	MPI_Comm comm = fcomm(a, b);
	int me = comm_rank(comm), root = b->root < 0 ? me : fint(a, b->root);
	int ip = b->in_place && fb_is_in_place(a[b->in_place - 1], ts);
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
	case FB_GATHER: /* in place: the root's own part, from the receive buffer */
		*s = ip ? fbytes(a, b->c2, b->t2) : fbytes(a, b->c, b->t);
		*r = me == root ? fbytes(a, b->c2, b->t2) * n : 0;
		break;
	case FB_GATHERV:
		*s = ip ? 0 : fbytes(a, b->c, b->t);
		*r = me == root ? fvsum(a, b->c2, b->t2, comm) : 0;
		break;
	case FB_SCATTER: /* in place: the root's part stays where it is */
		*s = me == root ? fbytes(a, b->c, b->t) * n : 0;
		*r = ip ? 0 : fbytes(a, b->c2, b->t2);
		break;
	case FB_SCATTERV:
		*s = me == root ? fvsum(a, b->c, b->t, comm) : 0;
		*r = ip ? 0 : fbytes(a, b->c2, b->t2);
		break;
	case FB_ALLTOALL:
		*s = (ip ? fbytes(a, b->c2, b->t2) : fbytes(a, b->c, b->t)) * n;
		*r = fbytes(a, b->c2, b->t2) * n;
		break;
	case FB_ALLTOALLV:
		*s = ip ? fvsum(a, b->c2, b->t2, comm) : fvsum(a, b->c, b->t, comm);
		*r = fvsum(a, b->c2, b->t2, comm);
		break;
	default:
		*s = *r = 0;
	}
}

/* One recorded call of @b from @t0 to @t1: its counts, peers and event; @st: a blocking
 * receive's status (NULL none), @ts: buffers are CFI descriptors. */
static void fb_record(const struct fbind *b, void *const *a, int64_t t0, int64_t t1,
		      const MPI_Status *st, int ts)
{
	uint64_t s = 0, r = 0;

	switch (b->shape) {
	case FB_SEND:
	case FB_ISEND:
		s = fbytes(a, b->c, b->t);
		break;
	case FB_RECV:
		r = fb_got(a, b->c, b->t, st);
		break;
	case FB_READ: /* a blocking one: what it read (its status); a nonblocking: posted */
		r = fb_got(a, b->c, b->t, st);
		break;
	case FB_IRECV:
	case FB_GET:
		r = fbytes(a, b->c, b->t);
		break;
	case FB_SENDRECV:
		s = fbytes(a, b->c, b->t);
		r = fb_got(a, b->c2, b->t2, st);
		break;
	case FB_GET_ACC:
		s = fbytes(a, b->c, b->t);
		r = fbytes(a, b->c2, b->t2);
		break;
	case FB_WRITE:
		s = fb_got(a, b->c, b->t, st);
		break;
	case FB_PUT:
		s = fbytes(a, b->c, b->t);
		break;
	case FB_FETCH:
		s = r = umpi_bytes(1, PMPI_Type_f2c(fint(a, b->t)));
		break;
	case FB_COLL ... FB_ALLTOALLV:
		fb_coll_bytes(b, a, ts, &s, &r);
		break;
	default:
		break;
	}
	umpi_count(b->f, t1 - t0, s, r);
	umpi_ev_call(b->f, t0, t1);
	switch (b->shape) {
	case FB_SEND:
	case FB_ISEND:
		fb_p2p(b, a, 1, 0, t1 - t0, NULL);
		break;
	case FB_RECV:
	case FB_IRECV:
		fb_p2p(b, a, 0, 0, t1 - t0, st);
		break;
	case FB_SENDRECV:
		fb_p2p(b, a, 1, 0, t1 - t0, NULL);
		fb_p2p(b, a, 0, 1, t1 - t0, st);
		break;
	case FB_SEND_INIT:
	case FB_RECV_INIT:
		umpi_preq_add(PMPI_Request_f2c(fint(a, b->req)), b->shape == FB_SEND_INIT,
			      umpi_world_rank(fcomm(a, b), fint(a, b->peer)), fbytes(a, b->c, b->t),
			      fint(a, b->tag), fcomm(a, b));
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

/* The library's entry @call with the arguments @a, timed (@t0, @t1) as a call of @b at
 * site @ret, @fp. */
static void fb_timed(const struct fbind *b, fb_fn call, void *const *a, const void *ret,
		     const void *fp, int64_t *t0, int64_t *t1)
{
	*t0 = umpi_ticks();
	umpi_site_cur = umpi_site_find(b->f, ret, fp);
	umpi_enter(b->f, *t0);
	umpi_in_fortran++;
	call(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
	     a[14], a[15]);
	umpi_in_fortran--;
	umpi_leave();
	*t1 = umpi_ticks();
}

/* A blocking receive, file read or write: what moved is its status's (the program's, or
 * ours in place of its MPI_STATUS_IGNORE). */
static void fb_run_recv(const struct fbind *b, fb_fn call, void **a, const void *ret,
			const void *fp, int ts)
{
	F own[FB_STATUS_INTS];
	MPI_Status st;
	int64_t t0, t1;

	if (fb_status_ignored(a[b->st]))
		a[b->st] = own;
	fb_timed(b, call, a, ret, fp, &t0, &t1);
	fb_record(b, a, t0, t1, PMPI_Status_f2c(a[b->st], &st) == MPI_SUCCESS ? &st : NULL, ts);
}

/* A Wait or Test family call under --trace mpi=full: followed to where its requests
 * complete (its state, about 4 KB, on this frame only). */
static __attribute__((noinline)) void fb_run_wait(const struct fbind *b, fb_fn call, void **a,
						  const void *ret, const void *fp)
{
	struct fb_wait fw;
	int64_t t0, t1;

	fb_wait_before(&fw, b, a);
	fb_timed(b, call, a, ret, fp, &t0, &t1);
	fb_record(b, a, t0, t1, NULL, 0);
	fb_wait_after(&fw, b, a);
}

/* The library's entry @e for @b, with the program's arguments @a; @ret, @fp: the entry's
 * return address and frame, the call's site; @ts: an _f08ts_ entry. */
static void fb_run(const struct fbind *b, struct fb_entry *e, void **a, const void *ret,
		   const void *fp, int ts)
{
	fb_fn call = fb_next(e);
	int64_t t0, t1;

	if (!umpi_active()) {
		call(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
		     a[12], a[13], a[14], a[15]);
		return;
	}
	/* a blocking receive, file read or write: what moved is its status's (the table
	 * gives the blocking file calls their status argument, st > 0) */
	if (b->shape == FB_RECV || b->shape == FB_SENDRECV ||
	    ((b->shape == FB_READ || b->shape == FB_WRITE) && b->st > 0)) {
		fb_run_recv(b, call, a, ret, fp, ts);
		return;
	}
	if (b->shape >= FB_WAIT && umpi_ev_on()) {
		fb_run_wait(b, call, a, ret, fp);
		return;
	}
	fb_timed(b, call, a, ret, fp, &t0, &t1);
	fb_record(b, a, t0, t1, NULL, ts);
	if (b->shape == FB_START || b->shape == FB_STARTALL)
		fb_started(b, a, t1 - t0);
}

#define FB_PARAMS \
	void *a0, void *a1, void *a2, void *a3, void *a4, void *a5, void *a6, void *a7, void *a8, \
		void *a9, void *a10, void *a11, void *a12, void *a13, void *a14, void *a15
#define FB_ARGS a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15

#define FB_ENTRY(sym, spec, ts) \
	void sym(FB_PARAMS); \
	void sym(FB_PARAMS) \
	{ \
		static struct fb_entry e_ = { #sym, NULL }; \
		void *a_[FB_MAXARGS] = { FB_ARGS }; \
		fb_run(&spec, &e_, a_, __builtin_return_address(0), \
		       umpi_chain_depth ? __builtin_frame_address(0) : NULL, ts); \
	}

#define X(lo, Name, shape_, ...) \
	static const struct fbind fb_##lo = { .f = UMPI_##Name, .shape = shape_, __VA_ARGS__ }; \
	FB_ENTRY(mpi_##lo##_, fb_##lo, 0) \
	FB_ENTRY(mpi_##lo##_f08_, fb_##lo, 0) FB_ENTRY(mpi_##lo##_f08ts_, fb_##lo, 1)
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
