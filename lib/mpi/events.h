/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: `--trace mpi=full`, one event per MPI call (uprof_mpi_events.c; the file's
 * format: lib/session/mpi_events.h). The wrappers' timing macros make the event of each
 * call (umpi_ev_call); a wrapper then says what the call moved, on the same thread
 * (umpi_ev_send, umpi_ev_recv), and the Wait and Test families link each nonblocking call
 * to the call that completed it (umpi_ev_wait_*), so that a message ends where its data
 * arrived. Events go into a buffer allocated at MPI_Init (a slot taken with one add, no
 * lock, no syscall); calls past its cap are counted, never waited for; the file is
 * written at the rank's flush, async-signal-safe like the .mpi file.
 */
#ifndef UPROF_MPI_EVENTS_H
#define UPROF_MPI_EVENTS_H

#include "mpi/internal.h"
#include "session/mpi_events.h"

struct umpi_events {
	struct ses_mpiev_event *ev; /* [size], NULL: not recording events */
	uint64_t size;		    /* a chunk reused below MPI_THREAD_MULTIPLE, else the cap */
	uint64_t cap;		    /* events recorded at most */
	uint64_t next; /* slots taken, past the cap too: the calls dropped are next - cap */
	/* Below MPI_THREAD_MULTIPLE, the inline path's one bounds check: event next goes in
	 * ev[next - base] while next < lim (the chunk's end or the cap, whichever is first);
	 * 0 under MPI_THREAD_MULTIPLE, where every event takes the atomic path. */
	uint64_t base, lim;
};

extern struct umpi_events umpi_ev;
/* The calling thread's last event (NULL: none, or not recorded): the wrappers' details
 * go into it. */
extern __thread struct ses_mpiev_event *umpi_ev_last __attribute__((tls_model("initial-exec")));

static inline int umpi_ev_on(void)
{
	return __builtin_expect(umpi_ev.ev != NULL, 0);
}

/* After umpi_start chose the clock and the thread level: record events when collect asked
 * (SES_MPIEV_ENV_CAP), into mpi/<pid>.mpiev beneath @dfd. */
void umpi_ev_start(int dfd);
/* The rank's flush (umpi.c, async-signal-safe): mpi/<pid>.mpiev beneath @dfd. */
void umpi_ev_flush(int dfd, uint32_t how);

/* The calling thread's id, kept (a syscall the first time only). */
extern __thread int umpi_ev_tid __attribute__((tls_model("initial-exec")));
int umpi_ev_tid_slow(void);
/* The index of the thread's last event (its requests name it). */
extern __thread uint64_t umpi_ev_last_index __attribute__((tls_model("initial-exec")));

/* The calls the inline path does not take: a full chunk, the cap, MPI_THREAD_MULTIPLE. */
void umpi_ev_record(enum umpi_func f, int64_t t0, int64_t t1);

/* A call of @f from @t0 to @t1 (umpi_ticks(), the times the aggregates took: no clock
 * read of its own): its event, this thread's last. Below MPI_THREAD_MULTIPLE a slot of
 * the chunk is one compare against lim and 64 bytes of stores, no call, no division. */
static inline void umpi_ev_call(enum umpi_func f, int64_t t0, int64_t t1)
{
	uint64_t i = umpi_ev.next;
	struct ses_mpiev_event *e;
	int tid;

	if (!umpi_ev_on())
		return;
	if (__builtin_expect(i >= umpi_ev.lim, 0)) {
		umpi_ev_record(f, t0, t1);
		return;
	}
	tid = umpi_ev_tid ? umpi_ev_tid : umpi_ev_tid_slow();
	e = &umpi_ev.ev[i - umpi_ev.base];
	/* a flush from a signal sees the slot whole or as never filled (func 0): the slot
	 * held an event of the chunk before */
	__atomic_store_n(&e->func, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	umpi_ev.next = i + 1;
	e->begin = t0;
	e->end = t1;
	e->sent = e->recvd = 0;
	e->flags = 0;
	e->tid = tid;
	e->comm = e->done = 0;
	e->dest = e->source = -1;
	e->send_tag = e->recv_tag = 0;
	__atomic_store_n(&e->func, (uint16_t)(f + 1), __ATOMIC_RELEASE);
	umpi_ev_last = e;
	umpi_ev_last_index = i;
}

/* The id of communicator @comm in events (0 the world's, 1 self's, else its group's
 * hash): the world's without a call. */
uint32_t umpi_ev_comm_hashed(MPI_Comm comm);
static inline uint32_t umpi_ev_comm(MPI_Comm comm)
{
	return comm == MPI_COMM_WORLD ? 0 : umpi_ev_comm_hashed(comm);
}

/* The last event sent @bytes to world rank @world (-1 unknown) with @tag over @comm. */
static inline void umpi_ev_send(int world, int tag, MPI_Comm comm, uint64_t bytes)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_SEND;
	e->dest = world;
	e->send_tag = tag;
	e->comm = umpi_ev_comm(comm);
	e->sent = bytes;
}

/* ... received @bytes from world rank @world with @tag over @comm; @status: the three
 * are what arrived (else what was posted: a nonblocking receive's, until it completes). */
static inline void umpi_ev_recv(int world, int tag, MPI_Comm comm, uint64_t bytes, int status)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_RECV | (status ? SES_MPIEV_STATUS : 0);
	e->source = world;
	e->recv_tag = tag;
	e->comm = umpi_ev_comm(comm);
	e->recvd = bytes;
}
/* ... was a collective over @comm (rooted at @root of it, or -1) that sent @sent bytes
 * of this rank's and received @recvd. */
void umpi_ev_coll(MPI_Comm comm, int root, uint64_t sent, uint64_t recvd);
/* ... posted request @req (Isend, Irecv) over @comm: its completion is looked for by the
 * handle (and a receive's status read in @comm). */
void umpi_ev_request(MPI_Request req, MPI_Comm comm);

/* A message of the thread's last call, for a call that moves several (MPI_Startall: one
 * a persistent request started): an event of its own (SES_MPIEV_PART, the call's function
 * and times) made the thread's last, so that umpi_ev_send/_recv/_request describe it. */
void umpi_ev_part(void);
/* MPI_Init, MPI_Init_thread or MPI_Finalize (@f) as a slice from @begin (the hot path's
 * ticks: for an init, the TSC or CLOCK_MONOTONIC read at its entry, as umpi_start chose)
 * to now: the runtime's start and end on the rank's time line (the aggregates keep them
 * apart from MPI time). */
void umpi_ev_lifecycle(enum umpi_func f, int64_t begin);

/* The Wait and Test families: the handles before the call (the library sets the ones it
 * completes to MPI_REQUEST_NULL) and statuses to read the sources from, also when the
 * program ignores them. */
#define UMPI_EV_WAIT_LOCAL 64
struct umpi_ev_wait {
	int n;
	MPI_Request *reqs; /* the handles as they were, or NULL: nothing to link */
	MPI_Status *st;	   /* where the statuses go (the program's, or ours) */
	int own_st;	   /* st is ours */
	int have;	   /* the call's own event was seen: func, end */
	uint16_t func;
	int64_t end;
	MPI_Request local[UMPI_EV_WAIT_LOCAL];
	MPI_Status local_st[UMPI_EV_WAIT_LOCAL];
};
void umpi_ev_wait_setup(struct umpi_ev_wait *w, int n, const MPI_Request *reqs, MPI_Status **st);
void umpi_ev_wait_link(struct umpi_ev_wait *w, int i, int one);
void umpi_ev_wait_free(struct umpi_ev_wait *w);

/* Before a call completing some of @n requests @reqs: *@st is the statuses argument
 * (MPI_STATUS(ES)_IGNORE replaced by ours when recording). */
static inline void umpi_ev_wait_begin(struct umpi_ev_wait *w, int n, const MPI_Request *reqs,
				      MPI_Status **st)
{
	w->reqs = NULL;
	if (umpi_ev_on())
		umpi_ev_wait_setup(w, n, reqs, st);
}

/* After it (its event made): request @i of them completed; its status is w->st[@i], or
 * w->st[0] for the calls of one status (@one). */
static inline void umpi_ev_wait_done(struct umpi_ev_wait *w, int i, int one)
{
	if (w->reqs)
		umpi_ev_wait_link(w, i, one);
}

static inline void umpi_ev_wait_end(struct umpi_ev_wait *w)
{
	if (w->reqs)
		umpi_ev_wait_free(w);
}

#endif
