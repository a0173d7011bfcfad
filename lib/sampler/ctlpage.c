// SPDX-License-Identifier: MIT
/*
 * The profiler side of the control page. The target may scribble on its page at any
 * time, so: the layout is validated once at open and our own copy of the offsets is used
 * from then on; string bytes are copied into private memory before anything reads them;
 * a record is copied out of its slot and checked before use; every loop is bounded by a
 * ring's capacity; nothing here waits for the target. Versions follow ctlpage.h's
 * rules: any minor of our major is read, each field only where the page's minor has it;
 * another major is refused before anything of the page past its first 24 bytes is read or
 * written. A page file is checked before it is mapped (what it is, who owns it: anyone
 * can make /dev/shm/uprof.<pid> for any pid), and every access to the mapping runs under
 * pageguard.c's SIGBUS guard, so a page its process truncates under us becomes "faulted"
 * and is no longer touched; callbacks run outside the guard, on private copies.
 */
#include "sampler/internal.h"
#include "instrument/ctlpage.h"
#include "sampler/ctlpage_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static bool pow2(uint64_t n)
{
	return n && !(n & (n - 1));
}

/* Is [off, off + len) inside the page and past the header? */
static bool inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off >= UPROF_CTL_HEADER_BYTES && off <= size && len <= size - off;
}

static int take_ring(struct page_ring *r, struct uprof_ctl_header *h, struct uprof_ctl_ring *src,
		     uint32_t max_records, uint32_t size)
{
	uint32_t off = src->offset, n = src->records;

	if (!pow2(n) || n > max_records || off % 8 ||
	    !inside(off, (uint64_t)n * sizeof(struct uprof_ctl_record), size))
		return -EINVAL;
	r->slots = (struct uprof_ctl_record *)((char *)h + off);
	r->records = n;
	r->head = &src->head;
	r->tail = &src->tail;
	r->dropped = &src->dropped;
	r->pos = __atomic_load_n(r->tail, __ATOMIC_ACQUIRE);
	return 0;
}

/* 2.6's lanes, where the page has them: each checked as a ring is, all inside the page.
 * 0, or -EINVAL (or -ENOMEM). */
static int take_lanes(struct smp_page *p)
{
	struct uprof_ctl_header *h = p->h;
	uint32_t off = h->lanes_offset, n = h->lane_count, recs = h->lane_records;
	uint64_t slots_off, bytes;

	if (!off)
		return 0;
	if (!n || n > UPROF_CTL_MAX_LANES || !pow2(recs) || recs > (1u << 20) || off % 64)
		return -EINVAL;
	bytes = UPROF_CTL_LANE_CTL_BYTES + (uint64_t)n * recs * sizeof(struct uprof_ctl_record);
	slots_off = (uint64_t)off + UPROF_CTL_LANE_CTL_BYTES;
	if (!inside(off, bytes, p->size))
		return -EINVAL;
	p->lanes = calloc(n, sizeof(*p->lanes));
	if (!p->lanes)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		struct uprof_ctl_lane *l = (struct uprof_ctl_lane *)((char *)h + off) + i;
		struct page_ring *r = &p->lanes[i];

		r->slots = (struct uprof_ctl_record *)((char *)h + slots_off) + (uint64_t)i * recs;
		r->records = recs;
		r->head = NULL; /* a lane has none: only the pause ring's is read (look_at_drops) */
		r->tail = &l->tail;
		r->dropped = &l->dropped;
		r->pos = __atomic_load_n(r->tail, __ATOMIC_ACQUIRE);
	}
	p->nlanes = n;
	p->lanes_claimed = &h->lanes_claimed;
	return 0;
}

/* Lanes a thread has taken (the rest were never written). */
static uint32_t lanes_in_use(const struct smp_page *p)
{
	uint32_t claimed;

	if (!p->nlanes)
		return 0;
	claimed = __atomic_load_n(p->lanes_claimed, __ATOMIC_ACQUIRE);
	return claimed < p->nlanes ? claimed : p->nlanes;
}

/* The fields of 2.1 and later minors, where the page's minor has them. */
static void take_minor_fields(struct smp_page *p, uint32_t minor)
{
	if (minor >= 1) {
		memcpy(p->lib_version, p->h->lib_version, sizeof(p->lib_version));
		p->lib_version[sizeof(p->lib_version) - 1] = 0;
	}
}

/* @len: bytes of the page we can read. */
static int validate(struct smp_page *p, size_t len, const struct open_ctx *o)
{
	struct uprof_ctl_header *h = p->h;
	const char *session = o->session;

	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != UPROF_CTL_MAGIC)
		return -EAGAIN;
	/* the first 24 bytes mean the same in every version: a page named after one
	 * process that says it is another's was not made by that process */
	if (o->pid && h->pid != o->pid) {
		if (o->why)
			o->why->page_pid = h->pid;
		return smp_page_refuse(o->why, SMP_PAGE_PID, -EINVAL);
	}
	p->version = h->version;
	if (UPROF_CTL_MAJOR_OF(p->version) != UPROF_CTL_MAJOR)
		return -EPROTONOSUPPORT; /* nothing past the first 24 bytes means what we think */
	p->size = h->size;
	if (o->file_size && p->size != o->file_size) {
		if (o->why) {
			o->why->size = o->file_size;
			o->why->want = p->size;
		}
		return smp_page_refuse(o->why, SMP_PAGE_SIZE, -EINVAL);
	}
	if (p->size < UPROF_CTL_HEADER_BYTES || p->size > UPROF_CTL_MAX_SIZE || p->size > len ||
	    h->header_size != UPROF_CTL_HEADER_BYTES)
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT, -EINVAL);
	if (session && strncmp(h->session, session, UPROF_CTL_SESSION_MAX))
		return smp_page_refuse(o->why, SMP_PAGE_OTHER_SESSION,
				       -EINVAL); /* another run's process */
	if (!session && h->session[0] && __atomic_load_n(&h->launch_mode, __ATOMIC_ACQUIRE))
		return -EBUSY; /* launched by another uprof collect: that one drains it */
	if (!inside(h->str_offset, h->str_bytes, p->size) || h->str_bytes > (16u << 20))
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT, -EINVAL);
	p->strtab = (const char *)h + h->str_offset;
	p->str_bytes = h->str_bytes;
	if (take_ring(&p->ring, h, &h->ring, 1u << 22, p->size) ||
	    take_ring(&p->pauses, h, &h->pauses, 1u << 16, p->size))
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT, -EINVAL);
	if (h->clock_kind != UPROF_CLOCK_MONO && h->clock_kind != UPROF_CLOCK_TSC)
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT, -EINVAL);
	p->tsc = h->clock_kind == UPROF_CLOCK_TSC;
	p->tsc0 = h->tsc0;
	p->mono0 = (int64_t)h->mono0;
	if (p->tsc && (!p->tsc0 || !uprof_ctl_tsc()))
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT,
				       -EINVAL); /* a TSC this machine lacks */
	take_minor_fields(p, UPROF_CTL_MINOR_OF(p->version));
	if (UPROF_CTL_MINOR_OF(p->version) >= UPROF_CTL_LANES_MINOR && take_lanes(p))
		return smp_page_refuse(o->why, SMP_PAGE_LAYOUT, -EINVAL);
	smp_gap_init(&p->gap, __atomic_load_n(p->pauses.dropped, __ATOMIC_ACQUIRE),
		     __atomic_load_n(p->pauses.head, __ATOMIC_ACQUIRE), p->pauses.pos,
		     p->pauses.records);
	return 0;
}

/* Is another live profiler reading @p? (A ring has one reader.) */
static bool held_elsewhere(const struct smp_page *p)
{
	pid_t other = (pid_t)__atomic_load_n(&p->h->profiler_pid, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&p->h->attached, __ATOMIC_ACQUIRE) && other > 0 &&
	       other != getpid() && !kill(other, 0);
}

/* Validate the page at @m (@len bytes) and take it; @owned: unmap it on close. Every
 * access is guarded: the file may shrink under us at any moment. */
int smp_page_take(struct smp_page **out, void *m, size_t len, bool owned, const struct open_ctx *o)
{
	struct smp_guard g;
	struct smp_page *p;
	int ret;

	if (len < UPROF_CTL_HEADER_BYTES)
		return smp_page_refuse(o->why, SMP_PAGE_SIZE, -EINVAL);
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->h = m;
	p->map_len = len;
	p->pid = o->pid;
	p->owned = owned;
	smp_guard_push(&g, m, len);
	if (sigsetjmp(g.jump, 0)) {
		free(p->strs);
		free(p->lanes);
		free(p);
		return smp_page_refuse(o->why, SMP_PAGE_FAULTED, -EFAULT);
	}
	ret = validate(p, len, o);
	if (!ret && owned && held_elsewhere(p))
		ret = -EBUSY; /* a page another live profiler holds stays with it */
	if (!ret) {
		p->strs = malloc(p->str_bytes + 1);
		ret = p->strs ? 0 : -ENOMEM;
	}
	if (!ret) {
		p->seen_req = __atomic_load_n(&p->h->req_seq, __ATOMIC_ACQUIRE);
		p->h->profiler_pid = (uint32_t)getpid();
		__atomic_store_n(&p->h->attached, o->generation ? o->generation : 1,
				 __ATOMIC_RELEASE);
	}
	smp_guard_pop(&g);
	if (ret) {
		free(p->strs);
		free(p->lanes);
		free(p);
		return ret;
	}
	*out = p;
	return 0;
}

int smp_page_open_mem(struct smp_page **out, void *mem, size_t len, const char *session)
{
	struct open_ctx o = { 0, 0, session, 1, NULL };

	*out = NULL;
	if (smp_guard_install())
		return -ENOTSUP;
	return smp_page_take(out, mem, len, false, &o);
}

uint32_t smp_page_version(const struct smp_page *p)
{
	return p->version;
}

const char *smp_page_lib_version(const struct smp_page *p)
{
	return p->lib_version;
}

void smp_page_close(struct smp_page *p)
{
	struct smp_guard g;

	if (!p)
		return;
	if (!p->faulted) {
		GUARD(p, g, goto out);
		/* detached for good: the target stops buffering, does not wait for us at exit */
		__atomic_store_n(&p->h->launch_mode, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&p->h->attached, 0, __ATOMIC_RELEASE);
		smp_guard_pop(&g);
		/* a futex on a page gone is EFAULT, not a signal */
		syscall(SYS_futex, &p->h->ack_seq, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
	}
out:
	if (p->owned)
		munmap(p->h, p->map_len);
	free(p->strs);
	free(p->lanes);
	free(p);
}

bool smp_page_faulted(const struct smp_page *p)
{
	return p->faulted;
}

int smp_page_pid(const struct smp_page *p)
{
	return p->pid;
}

int64_t smp_page_created_mono_ns(const struct smp_page *p)
{
	return p->mono0;
}

/* Copy the bytes of the string table published since the last call into our own. */
static int copy_strings(struct smp_page *p)
{
	struct smp_guard g;
	uint32_t used;

	GUARD(p, g, return -EFAULT);
	used = __atomic_load_n(&p->h->str_used, __ATOMIC_ACQUIRE);
	if (used > p->str_bytes)
		used = p->str_bytes;
	if (used > p->str_copied) { /* append-only: bytes below str_copied are ours already */
		memcpy(p->strs + p->str_copied, p->strtab + p->str_copied, used - p->str_copied);
		p->str_copied = used;
	}
	smp_guard_pop(&g);
	return 0;
}

int smp_page_strings(struct smp_page *p, smp_page_str_fn fn, void *arg)
{
	int n = 0, ret;

	if (p->faulted || copy_strings(p))
		return 0;
	/* from here on only our copy is read */
	while (p->str_walked + 4 <= p->str_copied) {
		uint32_t len, need;

		memcpy(&len, p->strs + p->str_walked, 4);
		need = (4 + len + 1 + 3) & ~3u;
		if (len > UPROF_CTL_NAME_MAX || need > p->str_copied - p->str_walked)
			break; /* garbage or not yet complete: stop here for now */
		ret = fn(arg, p->str_walked + 1, p->strs + p->str_walked + 4, len);
		if (ret)
			return ret;
		p->str_walked += need;
		n++;
	}
	return n;
}

static bool valid_record(const struct uprof_ctl_record *r, bool pauses)
{
	if (pauses)
		return (r->kind == UPROF_REC_PAUSE || r->kind == UPROF_REC_RESUME) &&
		       r->how >= UPROF_HOW_API && r->how <= UPROF_HOW_ITT;
	return (r->kind >= UPROF_REC_TASK_BEGIN && r->kind <= UPROF_REC_EVENT_END) ||
	       r->kind == UPROF_REC_THREAD_NAME ||
	       (r->kind >= UPROF_REC_OMP_FIRST && r->kind <= UPROF_REC_OMP_LAST);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * TSC -> CLOCK_MONOTONIC: the rate from the page's creation pair to a pair taken at the
 * last smp_page_sync_clock() (a long baseline: ppm-exact), anchored at that pair. Task
 * and pause records drained after one sync share one map, so their order and distances
 * are kept exactly. A TSC reading the target made up lands within [creation, sync + 10 s].
 */
#define MAX_AHEAD_NS 10000000000LL

void smp_page_sync_clock(struct smp_page *p)
{
	uint64_t tsc;
	int64_t mono;

	uprof_ctl_clock_pair(mono_ns, &tsc, &mono);
	p->map_ok = false;
	if (!p->tsc || tsc <= p->tsc0 || mono <= p->mono0)
		return;
	p->ns_per_tick = (double)(mono - p->mono0) / (double)(tsc - p->tsc0);
	p->map_tsc = tsc;
	p->map_mono = mono;
	p->map_ok = p->ns_per_tick > 0.01 && p->ns_per_tick < 100.0;
}

static uint64_t tsc_to_mono(const struct smp_page *p, uint64_t tsc)
{
	double d;

	if (!p->map_ok)
		return (uint64_t)mono_ns();
	d = ((double)tsc - (double)p->map_tsc) * p->ns_per_tick;
	if (d < (double)(p->mono0 - p->map_mono))
		return (uint64_t)p->mono0;
	if (d > (double)MAX_AHEAD_NS)
		d = (double)MAX_AHEAD_NS;
	return (uint64_t)(p->map_mono + (int64_t)d);
}

#define BATCH 64 /* records copied out under one guard, then handed to the callback */

/* Copy up to @max published records of @r into @out and free their slots, taking at most
 * *@budget more (0 once the ring is empty). The count, or -EFAULT. */
static int take_batch(struct smp_page *p, struct page_ring *r, struct uprof_ctl_record *out,
		      int max, uint64_t *budget)
{
	struct smp_guard g;
	int k = 0;

	GUARD(p, g, return -EFAULT);
	while (k < max && *budget) {
		struct uprof_ctl_record *slot = &r->slots[r->pos & (r->records - 1)];

		if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != r->pos + 1) {
			*budget = 0; /* not yet published (or scribbled on: we wait, harmlessly) */
			break;
		}
		memcpy(&out[k++], slot, sizeof(*out));
		__atomic_store_n(&slot->seq, r->pos + r->records, __ATOMIC_RELEASE);
		r->pos++;
		(*budget)--;
	}
	/* once per batch, not per record: tail shares a cache line with the producers'
	 * head, and the target reads it only to know, at exit, that everything was drained */
	__atomic_store_n(r->tail, r->pos, __ATOMIC_RELEASE);
	smp_guard_pop(&g);
	return k;
}

/* A look at the pause ring's drop count and head (pausegap.c), every record below our
 * position taken. */
static void look_at_drops(struct smp_page *p)
{
	struct page_ring *r = &p->pauses;
	struct smp_pause_gap gap;
	uint64_t dropped, head;
	struct smp_guard g;
	uint32_t state;

	GUARD_VOID(p, g);
	dropped = __atomic_load_n(r->dropped, __ATOMIC_ACQUIRE);
	head = __atomic_load_n(r->head, __ATOMIC_ACQUIRE);
	state = __atomic_load_n(&p->h->state, __ATOMIC_ACQUIRE); /* after them: see internal.h */
	smp_guard_pop(&g);
	if (smp_gap_observe(&p->gap, dropped, head, r->pos, r->records,
			    state <= 1 ? (int)state : -1, mono_ns(), &gap) &&
	    p->gap_fn)
		p->gap_fn(p->gap_arg, &gap);
}

/* Hand out what @r holds: one ring's worth at most, bounded however fast it fills. */
static long drain_ring(struct smp_page *p, struct page_ring *r, bool pauses, smp_page_rec_fn fn,
		       void *arg)
{
	struct uprof_ctl_record batch[BATCH];
	uint64_t budget = r->records;
	struct smp_pause_gap gap;
	long n = 0;
	int got;

	if (pauses)
		look_at_drops(p);
	do {
		uint64_t first = r->pos;

		got = take_batch(p, r, batch, BATCH, &budget);
		for (int i = 0; i < got; i++) {
			bool valid = valid_record(&batch[i], pauses);

			/* OpenMP aggregates carry values, not stamps (ctlpage.h 2.2) */
			if (valid && p->tsc && uprof_ctl_kind_stamped(batch[i].kind))
				batch[i].time_ns = tsc_to_mono(p, batch[i].time_ns);
			if (pauses &&
			    smp_gap_taken(&p->gap, first + (uint64_t)i, valid,
					  (int64_t)batch[i].time_ns, &gap) &&
			    p->gap_fn)
				p->gap_fn(p->gap_arg, &gap);
			if (!valid)
				continue;
			fn(arg, &batch[i]);
			n++;
		}
		if (pauses && got > 0)
			look_at_drops(p);
	} while (got == BATCH && !p->faulted);
	return n;
}

/* The lanes threads took, read under the guard (0 on a fault). */
static uint32_t lanes_taken(struct smp_page *p)
{
	struct smp_guard g;
	uint32_t n;

	if (!p->nlanes)
		return 0;
	GUARD(p, g, return 0);
	n = lanes_in_use(p);
	smp_guard_pop(&g);
	return n;
}

long smp_page_drain(struct smp_page *p, bool pauses, smp_page_rec_fn fn, void *arg)
{
	uint32_t nl;
	long n = 0;

	if (p->faulted)
		return 0;
	if (p->tsc && !p->map_ok)
		smp_page_sync_clock(p);
	if (pauses)
		return drain_ring(p, &p->pauses, true, fn, arg);
	/* the lanes first: a record the exit flush writes on the shared ring for another
	 * thread comes after that thread's own, long published on its lane (ctlpage.h) */
	nl = lanes_taken(p);
	for (uint32_t i = 0; i < nl && !p->faulted; i++)
		n += drain_ring(p, &p->lanes[i], false, fn, arg);
	if (!p->faulted)
		n += drain_ring(p, &p->ring, false, fn, arg);
	return n;
}

void smp_page_on_gap(struct smp_page *p, smp_page_gap_fn fn, void *arg)
{
	p->gap_fn = fn;
	p->gap_arg = arg;
}

void smp_page_flush_gap(struct smp_page *p)
{
	struct smp_pause_gap gap;

	if (!p->faulted)
		look_at_drops(p);
	if (smp_gap_flush(&p->gap, &gap) && p->gap_fn)
		p->gap_fn(p->gap_arg, &gap);
}

bool smp_page_take_signal(struct smp_page *p)
{
	struct smp_guard g;
	uint32_t now;
	bool signaled;

	if (p->faulted)
		return false;
	GUARD(p, g, return false);
	now = __atomic_load_n(&p->h->req_seq, __ATOMIC_ACQUIRE);
	smp_guard_pop(&g);
	signaled = now != p->seen_req;
	p->seen_req = now;
	return signaled;
}

bool smp_page_wait(struct smp_page *p, int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
	uint32_t seen = p->seen_req;

	if (p->faulted)
		return false;
	/* EFAULT, not a signal, if the page is gone meanwhile */
	syscall(SYS_futex, &p->h->req_seq, FUTEX_WAIT, seen, &ts, NULL, 0);
	return smp_page_take_signal(p);
}

uint32_t *smp_page_doorbell(struct smp_page *p, uint32_t *seen)
{
	*seen = p->seen_req;
	return p->faulted ? NULL : &p->h->req_seq;
}

bool smp_page_gap_open(const struct smp_page *p)
{
	return p->gap.open;
}

bool smp_page_rings(const struct smp_page *p)
{
	return UPROF_CTL_MINOR_OF(p->version) >= UPROF_CTL_DOORBELL_MINOR;
}

/* Is the next record of any ring or lane published? Called under the guard. */
static bool published(const struct smp_page *p)
{
	uint32_t nl = lanes_in_use(p);

	for (uint32_t i = 0; i < 2 + nl; i++) {
		const struct page_ring *r = i == 0   ? &p->pauses
					    : i == 1 ? &p->ring
						     : &p->lanes[i - 2];
		struct uprof_ctl_record *slot = &r->slots[r->pos & (r->records - 1)];

		if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) == r->pos + 1)
			return true;
	}
	return false;
}

bool smp_page_pending(struct smp_page *p)
{
	struct smp_guard g;
	bool pending;

	if (p->faulted)
		return false;
	GUARD(p, g, return false);
	pending = published(p);
	smp_guard_pop(&g);
	return pending;
}

void smp_page_ack(struct smp_page *p)
{
	struct smp_guard g;

	if (p->faulted)
		return;
	GUARD_VOID(p, g);
	__atomic_store_n(&p->h->ack_seq, p->seen_req, __ATOMIC_RELEASE);
	smp_guard_pop(&g);
	syscall(SYS_futex, &p->h->ack_seq, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

void smp_page_set_active(struct smp_page *p, bool active)
{
	struct smp_guard g;

	if (p->faulted)
		return;
	GUARD_VOID(p, g);
	__atomic_store_n(&p->h->sampling_active, active, __ATOMIC_RELEASE);
	smp_guard_pop(&g);
}

bool smp_page_exiting(const struct smp_page *p)
{
	struct smp_guard g;
	bool exiting;

	if (p->faulted)
		return false;
	GUARD(p, g, return false);
	exiting = __atomic_load_n(&p->h->exiting, __ATOMIC_ACQUIRE) != 0;
	smp_guard_pop(&g);
	return exiting;
}

void smp_page_dropped(const struct smp_page *p, uint64_t *records, uint64_t *names)
{
	struct smp_guard g;

	*records = *names = 0;
	if (p->faulted)
		return;
	GUARD_VOID(p, g);
	/* the pause ring's drops are not lost tasks: they are gaps (smp_page_on_gap) */
	*records = __atomic_load_n(p->ring.dropped, __ATOMIC_RELAXED);
	for (uint32_t i = 0, nl = lanes_in_use(p); i < nl; i++)
		*records += __atomic_load_n(p->lanes[i].dropped, __ATOMIC_RELAXED);
	*names = __atomic_load_n(&p->h->str_dropped, __ATOMIC_RELAXED);
	smp_guard_pop(&g);
}

unsigned smp_page_lanes_wanted(void)
{
	const char *v = getenv(UPROF_CTL_LANES_ENV);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned long n;
	char *end;

	if (v && *v) {
		errno = 0;
		n = strtoul(v, &end, 10);
		if (!errno && !*end && v[0] != '-')
			return n > UPROF_CTL_MAX_LANES ? UPROF_CTL_MAX_LANES : (unsigned)n;
	}
	n = cpus > 0 ? (unsigned long)cpus + 4 : 8;
	return n < 8 ? 8 : n > UPROF_CTL_MAX_LANES ? UPROF_CTL_MAX_LANES : (unsigned)n;
}
