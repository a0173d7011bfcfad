/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: the PMPI interposer's state, shared by its C bindings (uprof_mpi.c) and its
 * Fortran ones (uprof_mpi_fbind.c). Built against one MPI family's mpi.h at a time
 * (lib/mpi/module.mk): libuprof_mpi_openmpi.so, libuprof_mpi_mpich.so.
 *
 * Hot path: a relaxed atomic add per counter (a plain one below MPI_THREAD_MULTIPLE), no
 * lock, no allocation, two reads of the call's clock and no other; nothing at all when no
 * uprof collect asked for it. A function's counters are one cache line, a site's too.
 */
#ifndef UPROF_MPI_INTERNAL_H
#define UPROF_MPI_INTERNAL_H

#include <mpi.h>
#include <stdint.h>
#include <time.h>

#include "instrument/ctlpage.h" /* uprof_ctl_tsc(): the one TSC reader */
#include "session/container.h"	/* the encoder of every side file */
#include "session/mpi.h"
#include "mpi/funcs_more.h" /* IO, COMM and RMA functions: the X-list goes on */

#define UPROF_MPI_FUNCS(X) \
	X(Init, OTHER) \
	X(Init_thread, OTHER) \
	X(Finalize, OTHER) \
	X(Send, P2P) \
	X(Ssend, P2P) X(Bsend, P2P) X(Rsend, P2P) X(Recv, P2P) X(Sendrecv, P2P) X( \
		Sendrecv_replace, P2P) X(Isend, P2P) X(Issend, P2P) X(Ibsend, P2P) X(Irsend, P2P) \
		X(Irecv, P2P) X(Send_init, P2P) X(Ssend_init, P2P) X(Recv_init, P2P) X( \
			Start, P2P) X(Startall, P2P) X(Probe, P2P) X(Iprobe, P2P) X(Wait, WAIT) \
			X(Waitall, WAIT) X(Waitany, WAIT) X(Waitsome, WAIT) X(Test, WAIT) X( \
				Testall, WAIT) X(Testany, WAIT) X(Testsome, WAIT) X(Barrier, COLL) \
				X(Bcast, COLL) X(Reduce, COLL) X(Allreduce, COLL) X(Gather, COLL) \
					X(Gatherv, COLL) X(Allgather, COLL) X(Allgatherv, COLL) X( \
						Scatter, COLL) X(Scatterv, COLL) X(Alltoall, COLL) \
						X(Alltoallv, COLL) X(Reduce_scatter, COLL) \
							X(Scan, COLL) X(Exscan, COLL) \
								X(Ibarrier, COLL) X(Ibcast, COLL) \
									X(Iallreduce, COLL)

enum umpi_func {
#define X(name, kind) UMPI_##name,
	UPROF_MPI_FUNCS(X) UPROF_MPI_FUNCS_MORE(X)
#undef X
		UMPI_NFUNCS
};

struct umpi_fstat {
	uint64_t calls, ticks, sent, recv; /* ticks: umpi_ticks() units */
	uint64_t direct_ns;		   /* MPI_Init's time, taken before the clock was chosen */
} __attribute__((aligned(64)));		   /* a call's adds touch one line */

struct umpi_peer {
	uint64_t send_calls, send_bytes, send_ticks, recv_calls, recv_bytes;
	uint64_t rma_ops, rma_put, rma_get; /* one-sided operations this rank targeted at it */
};

struct umpi_state {
	int on;	    /* collect asked for it (UPROF_MPI_DIR) and MPI_Init ran */
	int paused; /* MPI_Pcontrol(0) */
	int rank, size;
	int mt;		/* MPI_THREAD_MULTIPLE: counters need atomic adds */
	int cur;	/* the call in progress + 1, 0 none (below MPI_THREAD_MULTIPLE) */
	int64_t cur_t0; /* when it began, in ticks */
	int tsc;	/* time in TSC ticks (constant, nonstop TSC): a third of a clock read */
	/* umpi_ticks() from which the next snapshot may be due: the hot path's one compare,
	 * with the clock it already read (umpi_snapshot checks the time in ns, snap_due) */
	int64_t snap_check;
	int64_t snap_due; /* CLOCK_MONOTONIC_COARSE ns: the next snapshot (umpi_snapshot) */
	struct umpi_fstat f[UMPI_NFUNCS];
	uint64_t hist[UMPI_NFUNCS][SES_MPI_HIST_BUCKETS]; /* messages by size */
	struct umpi_peer *peers;			  /* [size], calloc'ed at MPI_Init */
};

extern struct umpi_state umpi;
/* > 0 while a Fortran binding runs: the C binding it may call does not count again */
extern __thread int umpi_in_fortran __attribute__((tls_model("initial-exec")));

static inline int umpi_active(void)
{
	return __builtin_expect(umpi.on && !umpi.paused && !umpi_in_fortran, 0);
}

static inline int64_t umpi_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* The hot path's clock: TSC ticks where they tick at one rate everywhere, else ns;
 * the flush converts ticks to ns over the rank's whole life (init to flush). */
static inline int64_t umpi_ticks(void)
{
	return umpi.tsc ? (int64_t)uprof_ctl_tsc() : umpi_now();
}

/* One thread calls MPI at a time below MPI_THREAD_MULTIPLE (@mt 0): a plain add is exact,
 * and a signal handler's read of an aligned 64-bit word is whole. The hot path's inline
 * functions read umpi.mt once and pass it as a constant (umpi_count, umpi_hist): the
 * compiler reloads umpi.mt after every atomic store otherwise. */
static inline __attribute__((always_inline)) void umpi_add_as(int mt, uint64_t *p, uint64_t v)
{
	if (mt)
		__atomic_fetch_add(p, v, __ATOMIC_RELAXED);
	else
		__atomic_store_n(p, *p + v, __ATOMIC_RELAXED);
}

static inline void umpi_add(uint64_t *p, uint64_t v)
{
	umpi_add_as(umpi.mt, p, v);
}

/* A call of @f begins at @t0 / has ended: what a signal's flush names as the call the
 * rank was in (where a hung rank hangs). One thread calls MPI at a time below
 * MPI_THREAD_MULTIPLE; with several, no call is named. */
static inline void umpi_enter(enum umpi_func f, int64_t t0)
{
	if (umpi.mt)
		return;
	umpi.cur_t0 = t0;
	__atomic_signal_fence(__ATOMIC_RELEASE); /* the handler sees t0 before cur */
	__atomic_store_n(&umpi.cur, (int)f + 1, __ATOMIC_RELAXED);
}

/*
 * A snapshot of what the rank recorded, written as mpi/<pid>.mpi marked
 * SES_MPI_END_SNAPSHOT, at most once a second, from the exit path of an MPI call: a rank
 * SIGKILLed (MPICH's launcher kills every rank's process group when one rank dies) keeps
 * its data up to its last snapshot. The check is a compare of the call's end time (the
 * clock the call was timed with: no read of its own) with umpi.snap_check, the tick from
 * which umpi_snapshot reads the real time (the TSC's rate is learnt as the rank runs) and
 * writes when a second has passed; the write is the flush's (1.9 KB for a rank of 4,
 * 0.3-3.6 ms under strace on this project's loaded 2-CPU VM). The snapshot's own time
 * counts in the call it is taken in.
 */
void umpi_snapshot(int64_t now_ticks);

/* The call in progress has ended at @t1 (umpi_ticks()). */
static inline void umpi_leave_at(int64_t t1)
{
	__atomic_store_n(&umpi.cur, 0, __ATOMIC_RELAXED);
	/* the call's own counts come after: not in this snapshot */
	if (__builtin_expect(t1 >= __atomic_load_n(&umpi.snap_check, __ATOMIC_RELAXED), 0))
		umpi_snapshot(t1);
}

static inline void umpi_leave(void)
{
	umpi_leave_at(umpi_ticks());
}

#include "mpi/sites.h" /* per call site: umpi_site_here(), umpi_site_call_as(), _msg_as() */

/* The start of a recorded call of @f in a wrapper's own body (its site is the wrapper's
 * return address: a macro): its time (umpi_ticks()), its site named, the call in progress.
 * umpi_call_end(): its end time, the call over. Every C wrapper's timing is these two. */
#define umpi_call_begin(f) \
	({ \
		int64_t t_ = umpi_ticks(); \
		umpi_site_here(f); \
		umpi_enter((f), t_); \
		t_; \
	})

static inline int64_t umpi_call_end(void)
{
	int64_t t = umpi_ticks();

	umpi_leave_at(t);
	return t;
}

/* The size histogram's bucket of a message of @bytes: 0 for none, else its bit length. */
static inline int umpi_hist_bucket(uint64_t bytes)
{
	int b = bytes ? 64 - __builtin_clzll(bytes) : 0;

	return b < SES_MPI_HIST_BUCKETS ? b : SES_MPI_HIST_BUCKETS - 1;
}

static inline __attribute__((always_inline)) void umpi_hist_as(int mt, enum umpi_func f,
							       uint64_t bytes)
{
	int b = umpi_hist_bucket(bytes);

	umpi_add_as(mt, &umpi.hist[f][b], 1);
	umpi_site_msg_as(mt, f, bytes, b);
}

/* A message of @bytes through @f, into its size histogram. */
static inline __attribute__((always_inline)) void umpi_hist(enum umpi_func f, uint64_t bytes)
{
	if (umpi.mt)
		umpi_hist_as(1, f, bytes);
	else
		umpi_hist_as(0, f, bytes);
}

static inline __attribute__((always_inline)) void
umpi_count_as(int mt, enum umpi_func f, int64_t ticks, uint64_t sent, uint64_t recv)
{
	uint64_t t = (uint64_t)(ticks > 0 ? ticks : 0);

	umpi_add_as(mt, &umpi.f[f].calls, 1);
	umpi_add_as(mt, &umpi.f[f].ticks, t);
	umpi_site_call_as(mt, f, t);
	if (sent)
		umpi_add_as(mt, &umpi.f[f].sent, sent);
	if (recv)
		umpi_add_as(mt, &umpi.f[f].recv, recv);
	if (sent || recv) /* a collective's (or Fortran call's) message: the larger side */
		umpi_hist_as(mt, f, sent > recv ? sent : recv);
}

/* One call of @f: @ticks in it, @sent and @recv bytes. */
static inline __attribute__((always_inline)) void umpi_count(enum umpi_func f, int64_t ticks,
							     uint64_t sent, uint64_t recv)
{
	if (umpi.mt)
		umpi_count_as(1, f, ticks, sent, recv);
	else
		umpi_count_as(0, f, ticks, sent, recv);
}

/* After the library's MPI_Init (C or Fortran) returned: start recording when collect
 * asked (UPROF_MPI_DIR); @t0 when the init call began. umpi_finalize: the flush. */
void umpi_start(int provided, int64_t t0);
void umpi_finalize(void);
/* One call of @f (MPI_Init, MPI_Init_thread, MPI_Finalize: the runtime's start and end,
 * which the report keeps apart from MPI time) that began at @t0 (umpi_now()) and has
 * returned; counted only once recording is on, whatever a Fortran binding set. */
void umpi_lifecycle(enum umpi_func f, int64_t t0);
/* An init call's begin in the hot path's ticks, once umpi_start chose them: the TSC
 * (@tsc0, uprof_ctl_tsc()) or CLOCK_MONOTONIC (@t0, umpi_now()) read at its entry. */
int64_t umpi_init_ticks(int64_t t0, uint64_t tsc0);
/* Bytes of @count elements of @dt (0 for a bad type); none without a call. */
uint64_t umpi_type_bytes(int count, MPI_Datatype dt);
static inline uint64_t umpi_bytes(int count, MPI_Datatype dt)
{
	return count > 0 ? umpi_type_bytes(count, dt) : 0;
}

/* The world rank of rank @r of @comm, or -1 (MPI_PROC_NULL, MPI_ANY_SOURCE, unknown):
 * the world's own and the negative ones without a call. */
int umpi_comm_world_rank(MPI_Comm comm, int r);
static inline int umpi_world_rank(MPI_Comm comm, int r)
{
	if (r < 0)
		return -1; /* MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ROOT are negative */
	if (comm == MPI_COMM_WORLD)
		return r < umpi.size ? r : -1;
	return umpi_comm_world_rank(comm, r);
}

/* A message to (from) world rank @world (-1: none, unknown) of @bytes. */
static inline void umpi_peer_send(int world, uint64_t bytes, int64_t ticks)
{
	struct umpi_peer *p;

	if (world < 0 || !umpi.peers)
		return;
	p = &umpi.peers[world];
	umpi_add(&p->send_calls, 1);
	umpi_add(&p->send_bytes, bytes);
	umpi_add(&p->send_ticks, (uint64_t)(ticks > 0 ? ticks : 0));
}

static inline void umpi_peer_recv(int world, uint64_t bytes)
{
	if (world < 0 || !umpi.peers)
		return;
	umpi_add(&umpi.peers[world].recv_calls, 1);
	umpi_add(&umpi.peers[world].recv_bytes, bytes);
}
/* A one-sided operation targeting world rank @world (-1 unknown): @put bytes from this
 * rank (the origin) to it, @got from it. */
void umpi_rma_peer(int world, uint64_t put, uint64_t got);
/* The world rank of rank @r of window @win's group, or -1 (uprof_mpi_rma.c). */
int umpi_win_world(MPI_Win win, int r);
/* A persistent request @r made (MPI_Send_init: @send, MPI_Recv_init) to or from world
 * rank @world, of @bytes, with @tag over @comm: kept for its starts. Fortran's bindings
 * too (uprof_mpi_fbind.c). */
void umpi_preq_add(MPI_Request r, int send, int world, uint64_t bytes, int tag, MPI_Comm comm);
/* Persistent request @r started by a call of @f (@ticks long): its message counts now,
 * and under --trace mpi=full it is the call's event's message (MPI_Start), or a PART event
 * of it (@part: MPI_Startall's), followed to the Wait or Test that completes it. */
void umpi_preq_started(enum umpi_func f, MPI_Request r, int64_t ticks, int part);
/* @ticks as ns, as the flush converts them (uprof_mpi.c): for the sites' flush */
uint64_t umpi_ticks_ns(uint64_t ticks, int64_t now_ns, uint64_t now_tsc);

#endif
