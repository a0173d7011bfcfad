/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: the Fortran bindings' shared parts: what a call moves and where its arguments
 * are (struct fbind, one per fbind_table.h line; uprof_mpi_fbind.c forwards and counts),
 * and what uprof_mpi_fwait.c adds to them: the family's Fortran sentinels (MPI_IN_PLACE,
 * MPI_STATUS(ES)_IGNORE) and the Wait and Test families' requests followed to where they
 * complete, as the C wrappers follow theirs (events.h).
 */
#ifndef UPROF_MPI_FBIND_H
#define UPROF_MPI_FBIND_H

#include "mpi/events.h"
#include "mpi/internal.h"

typedef MPI_Fint F;

#define FB_MAXARGS 16

/* A Fortran status, of mpif.h, `use mpi` and `use mpi_f08` alike: the C MPI_Status's size
 * in both families (MPI_STATUS_SIZE 6 in Open MPI, 5 in MPICH), which PMPI_Status_f2c
 * reads. */
#define FB_STATUS_INTS (sizeof(MPI_Status) / sizeof(F))
#ifdef MPI_F_STATUS_SIZE
_Static_assert(FB_STATUS_INTS == MPI_F_STATUS_SIZE, "a Fortran status is a C one's size");
#endif

/* What a call moves, read from its arguments (struct fbind's positions). */
enum fb_shape {
	FB_NONE,	   /* calls and time */
	FB_SEND,	   /* c t to peer, tag, comm */
	FB_ISEND,	   /* ... and its request req */
	FB_RECV,	   /* c t from peer, what arrived in its status st */
	FB_IRECV,	   /* c t from peer, and its request req */
	FB_SENDRECV,	   /* c t to peer, c2 t2 from peer2 (what arrived: st) */
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
	FB_READ,	   /* c t read (received): a blocking one's from its status st */
	FB_WRITE,	   /* c t written (sent): a blocking one's from its status st */
	FB_PUT,		   /* c t to peer of window win */
	FB_GET,		   /* c t from peer of win */
	FB_GET_ACC,	   /* c t to, c2 t2 from peer of win */
	FB_FETCH,	   /* one t to and from peer of win */
	/* the Wait and Test families: time only; under --trace mpi=full the requests req[]
	 * (c of them, or one) they complete, the statuses st (one for the calls of one) */
	FB_WAIT,     /* req, st */
	FB_WAITALL,  /* c req[] st[] */
	FB_WAITANY,  /* c req[], the 1-based index idx, st */
	FB_WAITSOME, /* c req[], out of them completed, their 1-based indices idx[], st[] */
	FB_TEST,     /* req, flag (a LOGICAL), st */
	FB_TESTALL,  /* c req[], flag, st[] */
	FB_TESTANY,  /* c req[], idx, flag, st */
	FB_TESTSOME, /* as FB_WAITSOME */
};

/* One function: what it is, and where its arguments are (0-based; st, idx, flag and out
 * are never the first argument: 0 is none). in_place: 1 + the position of the buffer
 * that may be MPI_IN_PLACE (sendbuf, or a scatter's recvbuf), 0 none. */
struct fbind {
	enum umpi_func f;
	enum fb_shape shape;
	int c, t, peer, tag, comm, c2, t2, peer2, tag2, root, req, win;
	int st, idx, flag, out, in_place;
};

/* @p is the family's Fortran MPI_STATUS_IGNORE or MPI_STATUSES_IGNORE (or NULL). */
int fb_status_ignored(const void *p);
/* Argument @p (the address the program passed, or for MPICH's _f08ts_ entries, @ts, a
 * CFI descriptor whose base address is its first member) is the family's Fortran
 * MPI_IN_PLACE. */
int fb_is_in_place(const void *p, int ts);

/* A Wait or Test family call followed under --trace mpi=full: its requests as C handles
 * before it ran (it frees them), and where the library writes the statuses (ours when
 * the program ignores them). */
struct fb_wait {
	struct umpi_ev_wait w;
	int n, one;
	F *fst; /* the Fortran statuses the library writes, or NULL */
	F *own; /* ours, malloc'ed (NULL: local, or none) */
	MPI_Request creq_local[UMPI_EV_WAIT_LOCAL];
	F fst_local[UMPI_EV_WAIT_LOCAL * FB_STATUS_INTS];
};
/* Before the call of @b with the program's arguments @a (a status argument the program
 * ignores is replaced by ours in @a). */
void fb_wait_before(struct fb_wait *fw, const struct fbind *b, void **a);
/* After it, its event made: each request it completed linked to it. */
void fb_wait_after(struct fb_wait *fw, const struct fbind *b, void *const *a);

static inline F fint(void *const *a, int i)
{
	return *(const F *)a[i];
}

#endif
