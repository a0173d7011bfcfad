// SPDX-License-Identifier: MIT
/*
 * lib/mpi: `--trace mpi=full`'s events (events.h; the file: lib/session/mpi_events.h).
 * One event per MPI call, and one per nonblocking request completed (which call posted
 * it, what arrived). Below MPI_THREAD_MULTIPLE one thread calls MPI at a time: events go
 * into a buffer of UMPI_EV_CHUNK, touched once at MPI_Init, written to the file each time
 * it fills (one pwrite, in the call that finds it full) and reused, so that a call costs
 * a few stores and never a page fault (a first touch of a page costs 70 us on a loaded
 * VM: 1 us a call with a buffer as large as the cap). Those stores are inline in the
 * wrapper (events.h: one bounds check, the times the aggregates already read); this file
 * has the rest: a full chunk, the cap, the completions. Under MPI_THREAD_MULTIPLE a slot
 * is taken with one atomic add in a buffer of the cap's size, written at the flush. Calls
 * past the cap only count. The flush writes what is left with pwrite, openat and
 * renameat alone (async-signal-safe), the events as they lie in the buffer, their times
 * in the hot path's ticks with two (ticks, ns) pairs that turn them into CLOCK_MONOTONIC
 * (the samples' clock) at report time.
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
__thread int umpi_ev_tid __attribute__((tls_model("initial-exec")));
__thread uint64_t umpi_ev_last_index __attribute__((tls_model("initial-exec")));

/* The buffer reused below MPI_THREAD_MULTIPLE: 64 KiB, which stays in the L2 cache
 * between its stores and the pwrite that copies it out (a 1 MiB chunk did not: twice the
 * last-level write misses a call under cachegrind, bench/mpi_instr.sh) at a syscall per
 * 1024 calls. */
#define UMPI_EV_CHUNK 1024

static int64_t ref0_ticks, ref0_ns;
static int ev_fd = -1; /* mpi/<pid>.mpiev.tmp, open from MPI_Init */
static char ev_name[40], ev_tmp[48];
static off_t names_end; /* the file's header and names: where the events begin */
/* Streamed chunks, in one word so that a signal's flush reads it whole: the events
 * written times 2, plus 1 while the next chunk's pwrite is in progress (the flush writes
 * that chunk again whole: its events are still in the buffer). */
static uint64_t progress;
static int stream; /* below MPI_THREAD_MULTIPLE: the buffer is a chunk, reused */

static const struct {
	const char *name;
	uint32_t kind;
} names[UMPI_NFUNCS] = {
#define X(n, k) [UMPI_##n] = { "MPI_" #n, SES_MPI_K_##k },
	UPROF_MPI_FUNCS(X) UPROF_MPI_FUNCS_MORE(X)
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

static int put_at(const void *p, size_t len, off_t off)
{
	for (size_t done = 0; done < len;) {
		ssize_t w = pwrite(ev_fd, (const char *)p + done, len - done, off + (off_t)done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

/* A record of @len bytes at @v (and @tail) at @off. */
static int put_rec_at(uint32_t code, const void *v, size_t len, const void *tail, size_t tail_len,
		      off_t off)
{
	struct ses_mpi_rec_header h = { code, (uint32_t)(len + tail_len) };

	return put_at(&h, sizeof(h), off) || put_at(v, len, off + (off_t)sizeof(h)) ||
	       (tail_len && put_at(tail, tail_len, off + (off_t)(sizeof(h) + len)));
}

/* "<pid>.mpiev" by hand: snprintf is not async-signal-safe (a forked child's flush names
 * its own pid) */
static void file_names(pid_t pid)
{
	char digits[16];
	int k = 0, len;

	for (unsigned v = (unsigned)pid; k == 0 || v; v /= 10)
		digits[k++] = (char)('0' + v % 10);
	for (len = 0; k;)
		ev_name[len++] = digits[--k];
	memcpy(ev_name + len, SES_MPIEV_SUFFIX, sizeof(SES_MPIEV_SUFFIX));
	memcpy(ev_tmp, ev_name, sizeof(ev_name));
	memcpy(ev_tmp + len + sizeof(SES_MPIEV_SUFFIX) - 1, ".tmp", 5);
}

/* The file, its header a placeholder (the flush writes it), then the function names. */
static int file_open(int dfd)
{
	struct ses_mpiev_file_header h = { 0 };
	off_t file_off = sizeof(h);

	file_names(getpid());
	ev_fd = openat(dfd, ev_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (ev_fd < 0)
		return -1;
	if (put_at(&h, sizeof(h), 0))
		return -1;
	for (uint32_t i = 0; i < UMPI_NFUNCS; i++) {
		struct ses_mpiev_rec_name r = { i, names[i].kind };
		size_t len = strlen(names[i].name);

		if (put_rec_at(SES_MPIEV_REC_NAME, &r, sizeof(r), names[i].name, len, file_off))
			return -1;
		file_off += (off_t)(sizeof(struct ses_mpi_rec_header) + sizeof(r) + len);
	}
	names_end = file_off;
	return 0;
}

/* Where the events record of the chunk starting at event @from goes. */
static off_t chunk_off(uint64_t from)
{
	return names_end + (off_t)(from / umpi_ev.size) *
				   (off_t)(sizeof(struct ses_mpi_rec_header) +
					   umpi_ev.size * sizeof(struct ses_mpiev_event));
}

void umpi_ev_start(int dfd)
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
	stream = !umpi.mt;
	umpi_ev.size = stream ? (cap < UMPI_EV_CHUNK ? cap : UMPI_EV_CHUNK) : cap;
	umpi_ev.ev = calloc(umpi_ev.size, sizeof(*umpi_ev.ev));
	if (!umpi_ev.ev || file_open(dfd)) {
		if (ev_fd >= 0) {
			close(ev_fd);
			unlinkat(dfd, ev_tmp, 0);
			ev_fd = -1;
		}
		free(umpi_ev.ev);
		umpi_ev.ev = NULL;
		return;
	}
	if (stream) /* touched now, once: never a page fault in a call */
		memset(umpi_ev.ev, 0, umpi_ev.size * sizeof(*umpi_ev.ev));
	umpi_ev.cap = cap;
	umpi_ev.base = 0;
	umpi_ev.lim = stream ? umpi_ev.size : 0; /* size <= cap */
	clock_pair(&ref0_ticks, &ref0_ns);
}

int umpi_ev_tid_slow(void)
{
	if (!umpi_ev_tid)
		umpi_ev_tid = (int)syscall(SYS_gettid);
	return umpi_ev_tid;
}

/* Below MPI_THREAD_MULTIPLE: the chunk is full, every event in it whole (this thread's
 * calls made them, one after the other): into the file, the buffer reused. A write that
 * fails ends the recording (the calls after it count as past the cap). */
static void chunk_out(void)
{
	uint64_t from = progress / 2;

	__atomic_store_n(&progress, from * 2 + 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (put_rec_at(SES_MPIEV_REC_EVENTS, umpi_ev.ev, umpi_ev.size * sizeof(*umpi_ev.ev), NULL,
		       0, chunk_off(from))) {
		umpi_ev.cap = from; /* nothing more fits: counted as dropped */
		__atomic_store_n(&progress, from * 2, __ATOMIC_RELAXED);
		return;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&progress, (from + umpi_ev.size) * 2, __ATOMIC_RELAXED);
}

/* The slot of event @i, or NULL past the cap. Below MPI_THREAD_MULTIPLE, events
 * base..lim-1 go into the chunk (umpi_ev_call, inline); @i at lim is a full chunk
 * written out, and the next one begins. */
static struct ses_mpiev_event *slot(uint64_t i)
{
	if (i >= umpi_ev.cap)
		return NULL;
	if (!stream)
		return &umpi_ev.ev[i];
	if (i >= umpi_ev.base + umpi_ev.size) {
		chunk_out();
		umpi_ev.base += umpi_ev.size;
		if (i >= umpi_ev.cap)
			return NULL; /* the write failed: cap is what was written */
		umpi_ev.lim = umpi_ev.base + umpi_ev.size < umpi_ev.cap
				      ? umpi_ev.base + umpi_ev.size
				      : umpi_ev.cap;
	}
	return &umpi_ev.ev[i - umpi_ev.base];
}

static struct ses_mpiev_event *take(enum umpi_func f, int64_t t0, int64_t t1, uint16_t flags,
				    uint64_t *index)
{
	uint64_t i = umpi.mt ? __atomic_fetch_add(&umpi_ev.next, 1, __ATOMIC_RELAXED)
			     : umpi_ev.next++;
	struct ses_mpiev_event *e = slot(i);

	if (!e)
		return NULL; /* counted: next - cap */
	/* a flush from a signal sees the slot whole or as never filled (func 0) */
	__atomic_store_n(&e->func, 0, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	e->begin = t0;
	e->end = t1;
	e->sent = e->recvd = 0;
	e->flags = flags;
	e->tid = umpi_ev_tid ? umpi_ev_tid : umpi_ev_tid_slow();
	e->comm = e->done = 0;
	e->dest = e->source = -1;
	e->send_tag = e->recv_tag = 0;
	__atomic_store_n(&e->func, (uint16_t)(f + 1), __ATOMIC_RELEASE);
	*index = i;
	return e;
}

void umpi_ev_record(enum umpi_func f, int64_t t0, int64_t t1)
{
	uint64_t i;

	umpi_ev_last = take(f, t0, t1, 0, &i);
	umpi_ev_last_index = i;
}

void umpi_ev_part(void)
{
	const struct ses_mpiev_event *call = umpi_ev_last;
	uint16_t func;
	int64_t t0, t1;
	uint64_t i = 0;

	if (!call || !umpi_ev_on())
		return; /* the call was past the cap: so are its messages */
	/* copied first: taking a slot may write the chunk out and reuse its buffer */
	func = call->func;
	t0 = call->begin;
	t1 = call->end;
	umpi_ev_last = take((enum umpi_func)(func - 1), t0, t1, SES_MPIEV_PART, &i);
	umpi_ev_last_index = i;
}

void umpi_ev_lifecycle(enum umpi_func f, int64_t begin)
{
	int64_t end = umpi_ticks();

	umpi_ev_call(f, begin < end ? begin : end, end);
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

uint32_t umpi_ev_comm_hashed(MPI_Comm comm)
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

void umpi_ev_coll(MPI_Comm comm, int root, uint64_t sent, uint64_t recvd)
{
	struct ses_mpiev_event *e = umpi_ev_last;

	if (!e)
		return;
	e->flags |= SES_MPIEV_COLL;
	e->sent = sent;
	e->recvd = recvd;
	e->comm = umpi_ev_comm(comm);
	e->dest = root >= 0 ? umpi_world_rank(comm, root) : -1;
}

/* ---- requests: which event posted each live one ---- */

#define REQ_SLOTS 65536 /* a power of two; more live nonblocking requests go unlinked */

struct req_slot {
	MPI_Request req;
	int state; /* 0 never used, 1 being written, 2 live, 3 completed (probe past it) */
	int recv;  /* a receive: its completion says what came */
	MPI_Comm comm;
	uint64_t event; /* the index of the event that posted it */
};

static struct req_slot reqs[REQ_SLOTS];

static uint64_t req_hash(MPI_Request r)
{
	uint64_t k = 0;

	memcpy(&k, &r, sizeof(r) < sizeof(k) ? sizeof(r) : sizeof(k));
	return (k * 0x9e3779b97f4a7c15ULL) >> 48; /* 16 bits: REQ_SLOTS */
}

void umpi_ev_request(MPI_Request req, MPI_Comm comm)
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
		s->recv = (e->flags & SES_MPIEV_RECV) != 0;
		s->comm = comm;
		s->event = umpi_ev_last_index;
		__atomic_store_n(&s->state, 2, __ATOMIC_RELEASE);
		return;
	}
}

/* The slot of live request @req, taken (completed); NULL when none. */
static struct req_slot *req_take(MPI_Request req)
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
			return s;
	}
	return NULL;
}

void umpi_ev_wait_setup(struct umpi_ev_wait *w, int n, const MPI_Request *reqs_in, MPI_Status **st)
{
	w->n = 0;
	w->reqs = NULL;
	w->st = NULL;
	w->own_st = 0;
	w->have = 0;
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

/* A completion event: request @i of @w, posted by event s->event, completed in the call
 * this thread recorded last (the reader links them: a completion belongs to the call
 * before it on its thread). */
void umpi_ev_wait_link(struct umpi_ev_wait *w, int i, int one)
{
	struct ses_mpiev_event *e;
	const MPI_Status *st;
	struct req_slot *s;
	uint64_t posted, index;
	int got, src;

	if (!w->reqs || i < 0 || i >= w->n || w->reqs[i] == MPI_REQUEST_NULL)
		return;
	if (!w->have) { /* the call's own event, just made (its slot may be reused after) */
		w->func = umpi_ev_last ? umpi_ev_last->func : 0; /* 0: it was past the cap */
		w->end = umpi_ev_last ? umpi_ev_last->end : 0;
		w->have = 1;
	}
	s = req_take(w->reqs[i]);
	if (!s)
		return; /* one posted past the cap, or a persistent one not started */
	if (!w->func) { /* past the cap, as its call: counted there */
		if (umpi.mt)
			__atomic_fetch_add(&umpi_ev.next, 1, __ATOMIC_RELAXED);
		else
			umpi_ev.next++;
		return;
	}
	posted = s->event;
	st = w->st ? &w->st[one ? 0 : i] : NULL;
	e = take((enum umpi_func)(w->func - 1), w->end, w->end, SES_MPIEV_COMPLETION, &index);
	if (!e)
		return;
	e->done = (uint32_t)posted + 1;
	if (st && s->recv) {
		if (PMPI_Get_count(st, MPI_BYTE, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
			e->recvd = (uint64_t)got;
		src = st->MPI_SOURCE;
		e->source = src >= 0 ? umpi_world_rank(s->comm, src) : -1;
		e->recv_tag = st->MPI_TAG;
		e->flags |= SES_MPIEV_STATUS;
	}
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

/* Only what is async-signal-safe: pwrite, close, renameat. A chunk's pwrite that a signal
 * interrupted is written again whole at its offset (its events are still in the buffer). */
void umpi_ev_flush(int dfd, uint32_t how)
{
	struct ses_mpiev_file_header h;
	struct ses_mpiev_rec_end end = { 0 };
	uint64_t taken = __atomic_load_n(&umpi_ev.next, __ATOMIC_ACQUIRE);
	uint64_t n = taken < umpi_ev.cap ? taken : umpi_ev.cap;
	uint64_t p = __atomic_load_n(&progress, __ATOMIC_RELAXED), from = p / 2;
	struct ses_mpiev_event *buf = umpi_ev.ev;
	off_t off;
	int bad = 0;

	if (!buf || ev_fd < 0 || dfd < 0)
		return;
	umpi_ev.ev = NULL; /* no more events: the file is being closed */
	if (p & 1)
		n = from + umpi_ev.size; /* the chunk being written, and no slot after it */
	off = chunk_off(from);		 /* names_end without streamed chunks */
	end.nrecords = UMPI_NFUNCS + from / umpi_ev.size;
	if (n > from) {
		size_t len = (n - from) * sizeof(*buf);

		bad = put_rec_at(SES_MPIEV_REC_EVENTS, buf, len, NULL, 0, off);
		off += (off_t)(sizeof(struct ses_mpi_rec_header) + len);
		end.nrecords++;
	}
	end.events = n;
	if (!bad)
		bad = put_rec_at(SES_MPIEV_REC_END, &end, sizeof(end), NULL, 0, off);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SES_MPIEV_MAGIC, 8);
	h.major = SES_MPIEV_MAJOR;
	h.minor = SES_MPIEV_MINOR;
	h.header_size = sizeof(h);
	h.rank = umpi.rank;
	h.size = umpi.size;
	h.pid = (int32_t)getpid();
	h.clock = umpi.tsc ? SES_MPIEV_CLOCK_TSC : SES_MPIEV_CLOCK_NS;
	h.ref0_ticks = ref0_ticks;
	h.ref0_ns = ref0_ns;
	clock_pair(&h.ref1_ticks, &h.ref1_ns);
	h.recorded = n;
	h.dropped = taken - n;
	h.cap = (uint32_t)(umpi_ev.cap > n ? umpi_ev.cap : n);
	h.end_how = how;
	if (!bad)
		bad = put_at(&h, sizeof(h), 0);
	close(ev_fd);
	ev_fd = -1;
	if (bad)
		unlinkat(dfd, ev_tmp, 0);
	else
		renameat(dfd, ev_tmp, dfd, ev_name);
}
