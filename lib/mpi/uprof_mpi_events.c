// SPDX-License-Identifier: MIT
/*
 * lib/mpi: `--trace mpi=full`'s events (events.h; the file: lib/session/mpi_events.h).
 * One event per MPI call into a buffer allocated at MPI_Init: a slot is taken with one
 * add (atomic under MPI_THREAD_MULTIPLE), calls past the cap only count; the file is
 * written at the flush with openat, write and renameat alone, the events as they lie in
 * the buffer, their times in the hot path's ticks with two (ticks, ns) pairs that turn
 * them into CLOCK_MONOTONIC (the samples' clock) at report time.
 */
#include "mpi/events.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct umpi_events umpi_ev;
__thread struct ses_mpiev_event *umpi_ev_last __attribute__((tls_model("initial-exec")));
static __thread int my_tid __attribute__((tls_model("initial-exec")));

static int64_t ref0_ticks, ref0_ns;

static const struct {
	const char *name;
	uint32_t kind;
} names[UMPI_NFUNCS] = {
#define X(n, k) [UMPI_##n] = { "MPI_" #n, SES_MPI_K_##k },
	UPROF_MPI_FUNCS(X)
#undef X
};

/* A (ticks, CLOCK_MONOTONIC ns) pair read together: the tightest of a few tries, the ticks
 * at the middle of the two around the clock read. A thread preempted between two reads
 * (a loaded 2-CPU VM does it) would shift every event's time by its wait. */
static void clock_pair(int64_t *ticks, int64_t *ns)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 8; i++) {
		int64_t a = umpi_ticks(), n = umpi_now(), b = umpi_ticks();

		if (b - a < best) {
			best = b - a;
			*ticks = a + (b - a) / 2;
			*ns = n;
		}
	}
}

void umpi_ev_start(void)
{
	const char *s = getenv(SES_MPIEV_ENV_CAP);
	unsigned long cap;
	char *end;

	if (!s || !*s)
		return;
	errno = 0;
	cap = strtoul(s, &end, 10);
	if (errno || *end || !cap)
		return;
	if (cap > SES_MPIEV_CAP_MAX)
		cap = SES_MPIEV_CAP_MAX;
	/* calloc: the pages are the kernel's zero pages until a call touches them */
	umpi_ev.ev = calloc(cap, sizeof(*umpi_ev.ev));
	if (!umpi_ev.ev)
		return;
	umpi_ev.cap = cap;
	clock_pair(&ref0_ticks, &ref0_ns);
}

static int tid(void)
{
	if (!my_tid)
		my_tid = (int)syscall(SYS_gettid);
	return my_tid;
}

void umpi_ev_record(enum umpi_func f, int64_t t0, int64_t t1)
{
	uint64_t i = umpi.mt ? __atomic_fetch_add(&umpi_ev.next, 1, __ATOMIC_RELAXED)
			     : umpi_ev.next++;
	struct ses_mpiev_event *e;

	umpi_ev_last = NULL;
	if (i >= umpi_ev.cap)
		return; /* counted: next - cap */
	e = &umpi_ev.ev[i];
	e->begin = t0;
	e->end = t1;
	e->tid = tid();
	e->dest = e->source = -1;
	/* filled last: a flush from a signal sees a slot whole or as never filled */
	__atomic_store_n(&e->func, (uint16_t)(f + 1), __ATOMIC_RELEASE);
	umpi_ev_last = e;
}

/* ---- communicator ids: the same on every rank ---- */

#define COMM_CACHE 64

static struct {
	MPI_Comm comm;
	uint32_t id;
} comm_cache[COMM_CACHE];
static int comm_cached;

/* FNV-1a of the group's world ranks, in the group's order: two communicators of one group
 * (a dup) share an id, and their messages are told apart by tag only. */
static uint32_t comm_hash(MPI_Comm comm)
{
	MPI_Group g, world;
	int n = 0, *in = NULL, *out = NULL;
	uint32_t h = 2166136261u;

	if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
		return 2;
	if (PMPI_Group_size(g, &n) == MPI_SUCCESS && n > 0 &&
	    PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
		in = malloc(sizeof(int) * (size_t)n);
		out = malloc(sizeof(int) * (size_t)n);
		for (int i = 0; in && i < n; i++)
			in[i] = i;
		if (in && out && PMPI_Group_translate_ranks(g, n, in, world, out) == MPI_SUCCESS)
			for (int i = 0; i < n; i++)
				for (int b = 0; b < 4; b++)
					h = (h ^ (uint8_t)((uint32_t)out[i] >> (8 * b))) *
					    16777619u;
		free(in);
		free(out);
		PMPI_Group_free(&world);
	}
	PMPI_Group_free(&g);
	return h < 2 ? h + 2 : h; /* 0 and 1 are the world's and self's */
}

static uint32_t comm_id(MPI_Comm comm)
{
	uint32_t id;

	if (comm == MPI_COMM_WORLD)
		return 0;
	if (comm == MPI_COMM_SELF)
		return 1;
	/* one thread calls MPI at a time below MPI_THREAD_MULTIPLE: the cache is its own
	 * (a freed handle the library reuses for another group keeps the first's id) */
	for (int i = 0; !umpi.mt && i < comm_cached; i++)
		if (!memcmp(&comm_cache[i].comm, &comm, sizeof(comm)))
			return comm_cache[i].id;
	id = comm_hash(comm);
	if (!umpi.mt && comm_cached < COMM_CACHE) {
		comm_cache[comm_cached].comm = comm;
		comm_cache[comm_cached++].id = id;
	}
	return id;
}

void umpi_ev_send(int world, int tag, MPI_Comm comm, uint64_t bytes)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_SEND;
	e->dest = world;
	e->send_tag = tag;
	e->comm = comm_id(comm);
	e->sent = bytes;
}

void umpi_ev_recv(int world, int tag, MPI_Comm comm, uint64_t bytes, int status)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_RECV | (status ? SES_MPIEV_STATUS : 0);
	e->source = world;
	e->recv_tag = tag;
	e->comm = comm_id(comm);
	e->recvd = bytes;
}

void umpi_ev_coll(MPI_Comm comm, int root, uint64_t sent, uint64_t recvd)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_COLL;
	e->sent = sent;
	e->recvd = recvd;
	e->comm = comm_id(comm);
	e->dest = root >= 0 ? umpi_world_rank(comm, root) : -1;
}

/* ---- requests: which event posted each live one ---- */

#define REQ_SLOTS 65536 /* a power of two; more live nonblocking requests go unlinked */

struct req_slot {
	MPI_Request req;
	int state; /* 0 never used, 1 being written, 2 live, 3 completed (probe past it) */
	uint32_t event;
};

static struct req_slot reqs[REQ_SLOTS];

static uint64_t req_hash(MPI_Request r)
{
	uint64_t k = 0;

	memcpy(&k, &r, sizeof(r) < sizeof(k) ? sizeof(r) : sizeof(k));
	return (k * 0x9e3779b97f4a7c15ULL) >> 48; /* 16 bits: REQ_SLOTS */
}

void umpi_ev_request(MPI_Request req)
{
	struct ses_mpiev_event *e = umpi_ev_last;
	uint64_t h = req_hash(req);

	if (!e || req == MPI_REQUEST_NULL)
		return;
	e->flags |= SES_MPIEV_NONBLOCKING;
	for (int i = 0; i < REQ_SLOTS; i++) {
		struct req_slot *s = &reqs[(h + i) & (REQ_SLOTS - 1)];
		int st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

		/* a handle never completed here (MPI_Request_free) and now reused: take it */
		if (!(st == 2 && !memcmp(&s->req, &req, sizeof(req))) &&
		    !((st == 0 || st == 3) &&
		      __atomic_compare_exchange_n(&s->state, &st, 1, false, __ATOMIC_ACQ_REL,
						  __ATOMIC_RELAXED)))
			continue;
		s->req = req;
		s->event = (uint32_t)(e - umpi_ev.ev);
		__atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
		return;
	}
}

/* The event that posted @req, its slot freed; NULL when none. */
static struct ses_mpiev_event *req_take(MPI_Request req)
{
	uint64_t h = req_hash(req);

	for (int i = 0; i < REQ_SLOTS; i++) {
		struct req_slot *s = &reqs[(h + i) & (REQ_SLOTS - 1)];
		int st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

		if (!st)
			return NULL;
		if (st == 2 && !memcmp(&s->req, &req, sizeof(req)) &&
		    __atomic_compare_exchange_n(&s->state, &st, 3, false, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return &umpi_ev.ev[s->event];
	}
	return NULL;
}

void umpi_ev_wait_setup(struct umpi_ev_wait *w, int n, const MPI_Request *reqs_in, MPI_Status **st)
{
	w->n = 0;
	w->reqs = NULL;
	w->st = NULL;
	w->own_st = 0;
	if (n <= 0 || !reqs_in)
		return;
	w->reqs = n <= UMPI_EV_WAIT_LOCAL ? w->local : malloc(sizeof(*w->reqs) * (size_t)n);
	if (!w->reqs)
		return;
	memcpy(w->reqs, reqs_in, sizeof(*w->reqs) * (size_t)n);
	w->n = n;
	/* MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE: ours, for the sources */
	if (*st == MPI_STATUS_IGNORE || *st == MPI_STATUSES_IGNORE) {
		w->st = n <= UMPI_EV_WAIT_LOCAL ? w->local_st : malloc(sizeof(*w->st) * (size_t)n);
		if (w->st)
			*st = w->st;
		w->own_st = w->st != NULL;
	} else {
		w->st = *st;
	}
}

void umpi_ev_wait_link(struct umpi_ev_wait *w, int i, int one)
{
	struct ses_mpiev_event *done = umpi_ev_last, *e;
	const MPI_Status *st;
	int got;

	if (!w->reqs || i < 0 || i >= w->n || w->reqs[i] == MPI_REQUEST_NULL || !done)
		return;
	e = req_take(w->reqs[i]);
	if (!e)
		return; /* a persistent request's, or one posted before the cap */
	st = w->st ? &w->st[one ? 0 : i] : NULL;
	if (st && (e->flags & SES_MPIEV_RECV)) {
		if (PMPI_Get_count(st, MPI_BYTE, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
			e->recvd = (uint64_t)got;
		e->source = st->MPI_SOURCE >= 0 ? umpi_world_rank(MPI_COMM_WORLD, st->MPI_SOURCE)
						: -1;
		e->recv_tag = st->MPI_TAG;
		e->flags |= SES_MPIEV_STATUS;
	}
	__atomic_store_n(&e->done, (uint32_t)(done - umpi_ev.ev) + 1, __ATOMIC_RELEASE);
}

void umpi_ev_wait_free(struct umpi_ev_wait *w)
{
	if (w->reqs && w->reqs != w->local)
		free(w->reqs);
	if (w->own_st && w->st != w->local_st)
		free(w->st);
	w->reqs = NULL;
	w->st = NULL;
}

/* ---- the flush ---- */

static int put_all(int fd, const void *p, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t w = write(fd, (const char *)p + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

static int put_rec(int fd, uint32_t code, const void *v, size_t len, const void *tail,
		   size_t tail_len)
{
	struct ses_mpi_rec_header h = { code, (uint32_t)(len + tail_len) };

	return put_all(fd, &h, sizeof(h)) || put_all(fd, v, len) ||
	       (tail_len && put_all(fd, tail, tail_len));
}

/* Only what is async-signal-safe: snprintf is not used, the names are constants. */
void umpi_ev_flush(int dfd, uint32_t how)
{
	struct ses_mpiev_file_header h;
	struct ses_mpiev_rec_end end = { 0 };
	uint64_t taken = __atomic_load_n(&umpi_ev.next, __ATOMIC_ACQUIRE);
	uint64_t n = taken < umpi_ev.cap ? taken : umpi_ev.cap;
	char name[40], tmp[48];
	int fd, bad = 0, len;
	pid_t pid = getpid();

	if (!umpi_ev_on() || dfd < 0)
		return;
	/* "<pid>.mpiev" by hand: snprintf is not async-signal-safe */
	{
		char digits[16];
		int k = 0;

		for (unsigned v = (unsigned)pid; k == 0 || v; v /= 10)
			digits[k++] = (char)('0' + v % 10);
		for (len = 0; k;)
			name[len++] = digits[--k];
		memcpy(name + len, SES_MPIEV_SUFFIX, sizeof(SES_MPIEV_SUFFIX));
		memcpy(tmp, name, sizeof(name));
		memcpy(tmp + len + sizeof(SES_MPIEV_SUFFIX) - 1, ".tmp", 5);
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SES_MPIEV_MAGIC, 8);
	h.major = SES_MPIEV_MAJOR;
	h.minor = SES_MPIEV_MINOR;
	h.header_size = sizeof(h);
	h.rank = umpi.rank;
	h.size = umpi.size;
	h.pid = (int32_t)pid;
	h.clock = umpi.tsc ? SES_MPIEV_CLOCK_TSC : SES_MPIEV_CLOCK_NS;
	h.ref0_ticks = ref0_ticks;
	h.ref0_ns = ref0_ns;
	clock_pair(&h.ref1_ticks, &h.ref1_ns);
	h.recorded = n;
	h.dropped = taken - n;
	h.cap = (uint32_t)umpi_ev.cap;
	h.end_how = how;
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return;
	bad = put_all(fd, &h, sizeof(h));
	for (uint32_t i = 0; !bad && i < UMPI_NFUNCS; i++) {
		struct ses_mpiev_rec_name r = { i, names[i].kind };

		bad = put_rec(fd, SES_MPIEV_REC_NAME, &r, sizeof(r), names[i].name,
			      strlen(names[i].name));
		end.nrecords++;
	}
	for (uint64_t i = 0; !bad && i < n; i += SES_MPIEV_CHUNK) {
		uint64_t k = n - i < SES_MPIEV_CHUNK ? n - i : SES_MPIEV_CHUNK;

		bad = put_rec(fd, SES_MPIEV_REC_EVENTS, &umpi_ev.ev[i], k * sizeof(*umpi_ev.ev),
			      NULL, 0);
		end.nrecords++;
		end.events += k;
	}
	if (!bad)
		bad = put_rec(fd, SES_MPIEV_REC_END, &end, sizeof(end), NULL, 0);
	close(fd);
	if (bad)
		unlinkat(dfd, tmp, 0);
	else
		renameat(dfd, tmp, dfd, name);
}
