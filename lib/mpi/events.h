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

void umpi_ev_record(enum umpi_func f, int64_t t0, int64_t t1);
/* A call of @f from @t0 to @t1 (umpi_ticks()): its event, this thread's last. */
static inline void umpi_ev_call(enum umpi_func f, int64_t t0, int64_t t1)
{
	if (umpi_ev_on())
		umpi_ev_record(f, t0, t1);
}

/* The last event sent @bytes to world rank @world (-1 unknown) with @tag over @comm. */
void umpi_ev_send(int world, int tag, MPI_Comm comm, uint64_t bytes);
/* ... received @bytes from world rank @world with @tag over @comm; @status: the three
 * are what arrived (else what was posted: a nonblocking receive's, until it completes). */
void umpi_ev_recv(int world, int tag, MPI_Comm comm, uint64_t bytes, int status);
/* ... was a collective over @comm (rooted at @root of it, or -1) that sent @sent bytes
 * of this rank's and received @recvd. */
void umpi_ev_coll(MPI_Comm comm, int root, uint64_t sent, uint64_t recvd);
/* ... posted request @req (Isend, Irecv) over @comm: its completion is looked for by the
 * handle (and a receive's status read in @comm). */
void umpi_ev_request(MPI_Request req, MPI_Comm comm);

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
