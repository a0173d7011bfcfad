// SPDX-License-Identifier: MIT
/*
 * The profiler side of the control page. The target may scribble on its page at any
 * time, so: the layout is validated once at open and our own copy of the offsets is used
 * from then on; string bytes are copied into private memory before anything reads them;
 * a record is copied out of its slot and checked before use; every loop is bounded by a
 * ring's capacity; nothing here waits for the target. Versions follow ctlpage.h's
 * rules: any minor of our major is read, each field only where the page's minor has it;
 * another major is refused before anything of the page past its first 24 bytes is read or
 * written.
 */
#include "sampler/internal.h"
#include "instrument/ctlpage.h"

#include <errno.h>
#include <fcntl.h>
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

struct page_ring {
	struct uprof_ctl_record *slots;
	uint64_t *head, *tail, *dropped;
	uint64_t records;
	uint64_t pos; /* our consumer position: the page's tail is only ever written by us */
};

struct smp_page {
	struct uprof_ctl_header *h;
	size_t map_len; /* bytes mapped (owned pages) */
	uint32_t size;	/* the page's size, checked against what is mapped */
	uint32_t version;
	char lib_version[sizeof(((struct uprof_ctl_header *)0)->lib_version)];
	int pid;
	struct page_ring ring, pauses;
	const char *strtab;	/* in the page */
	uint32_t str_bytes;
	char *strs;		/* our copy of the table */
	uint32_t str_copied;
	uint32_t str_walked;	/* entries already handed out */
	uint32_t seen_req;
	bool owned; /* we mapped it: unmap on close */
	bool tsc;   /* records carry TSC stamps: converted as they are drained */
	uint64_t tsc0;
	int64_t mono0;
	bool map_ok; /* smp_page_sync_clock() found a usable rate */
	double ns_per_tick;
	uint64_t map_tsc;
	int64_t map_mono;
};

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

/* The fields of 2.1 and later minors, where the page's minor has them. */
static void take_minor_fields(struct smp_page *p, uint32_t minor)
{
	if (minor >= 1) {
		memcpy(p->lib_version, p->h->lib_version, sizeof(p->lib_version));
		p->lib_version[sizeof(p->lib_version) - 1] = 0;
	}
}

/* @len: bytes of the page we can read. */
static int validate(struct smp_page *p, size_t len, const char *session)
{
	struct uprof_ctl_header *h = p->h;

	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != UPROF_CTL_MAGIC)
		return -EAGAIN;
	p->version = h->version;
	if (UPROF_CTL_MAJOR_OF(p->version) != UPROF_CTL_MAJOR)
		return -EPROTONOSUPPORT; /* nothing past the first 24 bytes means what we think */
	p->size = h->size;
	if (p->size < UPROF_CTL_HEADER_BYTES || p->size > UPROF_CTL_MAX_SIZE || p->size > len ||
	    h->header_size != UPROF_CTL_HEADER_BYTES)
		return -EINVAL;
	if (session && strncmp(h->session, session, UPROF_CTL_SESSION_MAX))
		return -EINVAL; /* another run's instrumented process */
	if (!session && h->session[0] && __atomic_load_n(&h->launch_mode, __ATOMIC_ACQUIRE))
		return -EBUSY; /* launched by another uprof collect: that one drains it */
	if (!inside(h->str_offset, h->str_bytes, p->size) || h->str_bytes > (16u << 20))
		return -EINVAL;
	p->strtab = (const char *)h + h->str_offset;
	p->str_bytes = h->str_bytes;
	if (take_ring(&p->ring, h, &h->ring, 1u << 22, p->size) ||
	    take_ring(&p->pauses, h, &h->pauses, 1u << 16, p->size))
		return -EINVAL;
	if (h->clock_kind != UPROF_CLOCK_MONO && h->clock_kind != UPROF_CLOCK_TSC)
		return -EINVAL;
	p->tsc = h->clock_kind == UPROF_CLOCK_TSC;
	p->tsc0 = h->tsc0;
	p->mono0 = (int64_t)h->mono0;
	if (p->tsc && (!p->tsc0 || !uprof_ctl_tsc()))
		return -EINVAL; /* claims a TSC this machine does not have */
	take_minor_fields(p, UPROF_CTL_MINOR_OF(p->version));
	return 0;
}

/* Validate the page at @m (@len bytes) and take it; @owned: unmap it on close. */
static int take_page(struct smp_page **out, void *m, size_t len, bool owned, int pid,
		     const char *session, uint32_t generation)
{
	struct smp_page *p;
	pid_t other;
	int ret;

	if (len < UPROF_CTL_HEADER_BYTES)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->h = m;
	p->map_len = len;
	p->pid = pid;
	p->owned = owned;
	ret = validate(p, len, session);
	if (!ret) {
		p->strs = malloc(p->str_bytes + 1);
		ret = p->strs ? 0 : -ENOMEM;
	}
	if (ret) {
		free(p);
		return ret;
	}
	/* a ring has one reader: a page another live profiler holds stays with it */
	other = (pid_t)__atomic_load_n(&p->h->profiler_pid, __ATOMIC_ACQUIRE);
	if (owned && __atomic_load_n(&p->h->attached, __ATOMIC_ACQUIRE) && other > 0 &&
	    other != getpid() && !kill(other, 0)) {
		free(p->strs);
		free(p);
		return -EBUSY;
	}
	p->seen_req = __atomic_load_n(&p->h->req_seq, __ATOMIC_ACQUIRE);
	p->h->profiler_pid = (uint32_t)getpid();
	__atomic_store_n(&p->h->attached, generation ? generation : 1, __ATOMIC_RELEASE);
	*out = p;
	return 0;
}

int smp_page_open_mem(struct smp_page **out, void *mem, size_t len, const char *session)
{
	*out = NULL;
	return take_page(out, mem, len, false, 0, session, 1);
}

int smp_page_open(struct smp_page **out, int pid, const char *session, uint32_t generation)
{
	char name[64];
	struct stat sb;
	size_t len;
	void *m;
	int fd, ret;

	*out = NULL;
	snprintf(name, sizeof(name), "/" UPROF_CTL_SHM_PREFIX "%d", pid);
	fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || sb.st_size < (off_t)UPROF_CTL_HEADER_BYTES) {
		close(fd);
		return sb.st_size == 0 ? -EAGAIN : -EINVAL;
	}
	/* a page too large to take is still mapped far enough to say what version it is */
	len = sb.st_size > (off_t)UPROF_CTL_MAX_SIZE ? UPROF_CTL_HEADER_BYTES : (size_t)sb.st_size;
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return -errno;
	ret = take_page(out, m, len, true, pid, session, generation);
	if (ret)
		munmap(m, len);
	return ret;
}

int smp_page_peek_version(int pid, uint32_t *version)
{
	unsigned char head[24];
	char name[64];
	uint64_t magic;
	ssize_t n;
	int fd;

	snprintf(name, sizeof(name), "/" UPROF_CTL_SHM_PREFIX "%d", pid);
	fd = shm_open(name, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n != (ssize_t)sizeof(head))
		return n < 0 ? -errno : -EINVAL;
	memcpy(&magic, head, 8);
	if (magic != UPROF_CTL_MAGIC)
		return -EINVAL;
	memcpy(version, head + 8, 4);
	return 0;
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
	if (!p)
		return;
	/* detached for good: the target stops buffering and does not wait for us at exit */
	__atomic_store_n(&p->h->launch_mode, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&p->h->attached, 0, __ATOMIC_RELEASE);
	syscall(SYS_futex, &p->h->ack_seq, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
	if (p->owned)
		munmap(p->h, p->map_len);
	free(p->strs);
	free(p);
}

int smp_page_pid(const struct smp_page *p)
{
	return p->pid;
}

int64_t smp_page_created_mono_ns(const struct smp_page *p)
{
	return p->mono0;
}

int smp_page_strings(struct smp_page *p, smp_page_str_fn fn, void *arg)
{
	uint32_t used = __atomic_load_n(&p->h->str_used, __ATOMIC_ACQUIRE);
	int n = 0, ret;

	if (used > p->str_bytes)
		used = p->str_bytes;
	if (used > p->str_copied) { /* append-only: bytes below str_copied are ours already */
		memcpy(p->strs + p->str_copied, p->strtab + p->str_copied, used - p->str_copied);
		p->str_copied = used;
	}
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
	       r->kind == UPROF_REC_THREAD_NAME;
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
	uint64_t tsc = uprof_ctl_tsc();
	int64_t mono = mono_ns();

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

long smp_page_drain(struct smp_page *p, bool pauses, smp_page_rec_fn fn, void *arg)
{
	struct page_ring *r = pauses ? &p->pauses : &p->ring;
	long n = 0;

	if (p->tsc && !p->map_ok)
		smp_page_sync_clock(p);
	for (uint64_t i = 0; i < r->records; i++) {
		struct uprof_ctl_record *slot = &r->slots[r->pos & (r->records - 1)];
		struct uprof_ctl_record copy;

		if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != r->pos + 1)
			break; /* not yet published (or scribbled on: we wait, harmlessly) */
		memcpy(&copy, slot, sizeof(copy));
		__atomic_store_n(&slot->seq, r->pos + r->records, __ATOMIC_RELEASE);
		r->pos++;
		if (valid_record(&copy, pauses)) {
			if (p->tsc)
				copy.time_ns = tsc_to_mono(p, copy.time_ns);
			fn(arg, &copy);
			n++;
		}
	}
	/* once per drain, not per record: tail shares a cache line with the producers' head,
	 * and the target reads it only to know, at exit, that everything was drained */
	__atomic_store_n(r->tail, r->pos, __ATOMIC_RELEASE);
	return n;
}

bool smp_page_wait(struct smp_page *p, int timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
	uint32_t now = __atomic_load_n(&p->h->req_seq, __ATOMIC_ACQUIRE);

	if (now == p->seen_req)
		syscall(SYS_futex, &p->h->req_seq, FUTEX_WAIT, now, &ts, NULL, 0);
	now = __atomic_load_n(&p->h->req_seq, __ATOMIC_ACQUIRE);
	if (now == p->seen_req)
		return false;
	p->seen_req = now;
	return true;
}

void smp_page_ack(struct smp_page *p)
{
	__atomic_store_n(&p->h->ack_seq, p->seen_req, __ATOMIC_RELEASE);
	syscall(SYS_futex, &p->h->ack_seq, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

void smp_page_set_active(struct smp_page *p, bool active)
{
	__atomic_store_n(&p->h->sampling_active, active, __ATOMIC_RELEASE);
}

bool smp_page_exiting(const struct smp_page *p)
{
	return __atomic_load_n(&p->h->exiting, __ATOMIC_ACQUIRE) != 0;
}

void smp_page_dropped(const struct smp_page *p, uint64_t *records, uint64_t *names)
{
	*records = __atomic_load_n(p->ring.dropped, __ATOMIC_RELAXED) +
		   __atomic_load_n(p->pauses.dropped, __ATOMIC_RELAXED);
	*names = __atomic_load_n(&p->h->str_dropped, __ATOMIC_RELAXED);
}
