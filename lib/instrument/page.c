// SPDX-License-Identifier: MIT
/*
 * The target side of the control page: creating it on first use, the string table, the
 * two rings and the lanes, the strict-mode futex handshake, fork and exit.
 */
#include "instrument/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int ins_state = INS_UNINIT;
/* The header's inline test (AMDProfileController.h): 0 only once we know we are off. */
__attribute__((visibility("default"))) volatile int amdProfileControllerGate = 1;
/* initial-exec: a plain %fs-relative load instead of a __tls_get_addr call per record; the
 * few bytes fit glibc's static TLS reserve when the library is dlopen()ed (ITT, Python) */
#define INS_TLS __thread __attribute__((tls_model("initial-exec")))
static INS_TLS bool my_gap; /* a record of this thread was dropped since its last one */
static bool use_tsc;	    /* task records carry TSC stamps (see ctlpage.h) */
struct uprof_ctl_header *ins_page;
void (*ins_exit_hook)(void);
static uint32_t page_gen; /* bumped for every page this process creates */
static size_t page_bytes; /* the page's size: UPROF_CTL_SIZE and its lanes */
static uint32_t nlanes;	  /* lanes of the page (our own copy: never read back) */
/* the page's launch_mode, our own copy: every record asks, and the header's first line
 * is one the profiler's doorbell and the string table write (a line per record less) */
static bool page_launch;
/* This thread's lane (ctlpage.h, 2.6), for the page of generation @gen (0: not chosen
 * yet); @idx -1: none (the shared ring). @pos: the next position, @tail: the profiler's
 * position last read, so the lane's tail is read only when the lane looks full. */
static INS_TLS struct {
	uint32_t gen;
	int32_t idx;
	uint64_t pos, tail;
} my_lane;
static INS_TLS uint32_t my_tid;
static char page_name[64];
static pid_t launcher; /* launch mode: the uprof collect of UPROF_SESSION ("<pid>.<ns>") */

#define ATTACH_WAIT_MS 1000 /* launch mode: wait at exit for a profiler that is coming */
#define DRAIN_WAIT_MS 1000  /* wait at exit for an attached profiler to drain */
#define STRICT_WAIT_MS 200  /* longest a strict pause/resume waits for the profiler */

#ifdef UPROF_VERSION
#define LIB_VERSION UPROF_VERSION
#else
#define LIB_VERSION ""
#endif

uint64_t ins_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The target laid its page out itself: it uses its own constants, never offsets read
 * back from shared memory, so a scribbled page cannot send it astray. */
#define STR_OFFSET UPROF_CTL_HEADER_BYTES
#define RING_OFFSET (STR_OFFSET + UPROF_CTL_STR_BYTES)
#define PAUSE_OFFSET (RING_OFFSET + UPROF_CTL_RING_RECORDS * sizeof(struct uprof_ctl_record))
#define LANES_OFFSET UPROF_CTL_SIZE
#define LANE_SLOTS(h, i) \
	((struct uprof_ctl_record *)((char *)(h) + LANES_OFFSET + UPROF_CTL_LANE_CTL_BYTES) + \
	 (size_t)(i)*UPROF_CTL_LANE_RECORDS)
#define LANE(h, i) ((struct uprof_ctl_lane *)((char *)(h) + LANES_OFFSET) + (i))
#define MAX_SPINS 64 /* bounded retries: contention, or a page someone scribbled on */

/* Out of line and cold: a system call inside emit() made every record save and restore
 * six registers for it (bench/omp_tool_instr.sh counts them). */
static __attribute__((noinline, cold)) uint32_t tid_first(void)
{
	my_tid = (uint32_t)syscall(SYS_gettid);
	return my_tid;
}

static inline uint32_t tid(void)
{
	return __builtin_expect(my_tid != 0, 1) ? my_tid : tid_first();
}

static long futex(uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	/* shared (not FUTEX_PRIVATE): the other side is another process */
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

static int64_t now_signed(void)
{
	return (int64_t)ins_now_ns();
}

/* TSC time stamps only where CLOCK_MONOTONIC is itself kept on the TSC. */
static uint32_t pick_clock(void)
{
	char buf[32] = "";
	ssize_t n;
	int fd;

	if (!uprof_ctl_tsc())
		return UPROF_CLOCK_MONO;
	fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		  O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return UPROF_CLOCK_MONO;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n >= 3 && !strncmp(buf, "tsc", 3) && (n == 3 || buf[3] == '\n') ? UPROF_CLOCK_TSC
									       : UPROF_CLOCK_MONO;
}

static void lay_out(struct uprof_ctl_header *h, const char *session, bool launch)
{
	h->version = UPROF_CTL_VERSION;
	h->size = (uint32_t)page_bytes;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->pid = getpid();
	h->launch_mode = launch;
	page_launch = launch;
	h->str_offset = STR_OFFSET;
	h->str_bytes = UPROF_CTL_STR_BYTES;
	h->ring.offset = RING_OFFSET;
	h->ring.records = UPROF_CTL_RING_RECORDS;
	h->pauses.offset = PAUSE_OFFSET;
	h->pauses.records = UPROF_CTL_PAUSE_RECORDS;
	h->clock_kind = pick_clock();
	{
		uint64_t tsc;
		int64_t mono;

		uprof_ctl_clock_pair(now_signed, &tsc, &mono);
		h->tsc0 = tsc;
		h->mono0 = (uint64_t)mono;
	}
	use_tsc = h->clock_kind == UPROF_CLOCK_TSC;
	if (session)
		snprintf(h->session, sizeof(h->session), "%s", session);
	if (UPROF_CTL_MINOR >= 1) /* a library built as 2.0 (tests) leaves 2.1's fields out */
		snprintf(h->lib_version, sizeof(h->lib_version), "%s", LIB_VERSION);
	if (nlanes) { /* their slots need no seq: zeroed memory reads as unpublished */
		h->lanes_offset = LANES_OFFSET;
		h->lane_count = nlanes;
		h->lane_records = UPROF_CTL_LANE_RECORDS;
	}
	/* the rings' slots are left as the page came, zeroed: a slot of the first lap reads
	 * as free to a producer (emit) and as unpublished to the profiler, as seq = i would,
	 * and the 2 MiB are touched only as records fill them (ctlpage.h) */
	/* publish last: a profiler that maps early sees no magic and retries */
	__atomic_store_n(&h->magic, UPROF_CTL_MAGIC, __ATOMIC_RELEASE);
}

/* Launch mode's page with no name (channel.c): laid out before it is handed over, so
 * collect takes it published. NULL: make the named page. */
static struct uprof_ctl_header *handed_page(const char *session)
{
	struct uprof_ctl_header *h;
	int fd = ins_channel_memfd(page_bytes);

	if (fd < 0)
		return NULL;
	h = mmap(NULL, page_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED) {
		close(fd);
		return NULL;
	}
	lay_out(h, session, true);
	if (!ins_channel_send(fd)) {
		munmap(h, page_bytes);
		h = NULL;
	}
	close(fd); /* the mapping (and collect's) keeps the memory */
	return h;
}

/* The lanes the profiler that launched us reads (ctlpage.h, 2.6), at most
 * UPROF_CTL_MAX_LANES; 0 when it asked for none (an older profiler never does). */
static uint32_t lanes_asked(void)
{
	const char *v = getenv(UPROF_CTL_LANES_ENV);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || v[0] == '-')
		return 0;
	return n > UPROF_CTL_MAX_LANES ? UPROF_CTL_MAX_LANES : (uint32_t)n;
}

static struct uprof_ctl_header *create_page(const char *session, bool launch)
{
	struct uprof_ctl_header *h;
	int fd;

	page_name[0] = 0; /* a page with no name has nothing to unlink at exit */
	nlanes = launch && UPROF_CTL_MINOR >= UPROF_CTL_LANES_MINOR ? lanes_asked() : 0;
	page_bytes = UPROF_CTL_SIZE + UPROF_CTL_LANES_BYTES(nlanes);
	if (launch && (h = handed_page(session)))
		return h;
	snprintf(page_name, sizeof(page_name), "/" UPROF_CTL_SHM_PREFIX "%d", (int)getpid());
	fd = shm_open(page_name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		/* left by an earlier process with our pid that died without cleaning up */
		shm_unlink(page_name);
		fd = shm_open(page_name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0)
		return NULL;
	if (ftruncate(fd, (off_t)page_bytes)) {
		close(fd);
		shm_unlink(page_name);
		return NULL;
	}
	h = mmap(NULL, page_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (h == MAP_FAILED) {
		shm_unlink(page_name);
		return NULL;
	}
	lay_out(h, session, launch);
	return h;
}

static void at_fork_child(void)
{
	/* the inherited mapping is the parent's page: never write to it */
	if (ins_page)
		munmap(ins_page, page_bytes);
	ins_page = NULL;
	my_tid = 0;
	my_gap = false;
	__atomic_store_n(&ins_state, INS_UNINIT, __ATOMIC_RELEASE);
	amdProfileControllerGate = 1; /* the child decides for itself on its first call */
}

/* Is the profiler that attached to @h gone (SIGKILLed, crashed)? Then nobody will ever
 * acknowledge: detach for it, so this and every later call stops waiting at once and
 * records are dropped, as with no profiler (docs/DESIGN.md §5). Only a profiler that is
 * surely gone counts: EPERM (it runs as root, we do not) means it is there. A pid reused
 * since is taken for the profiler: the bounded wait still ends it. The caller keeps
 * errno. */
static bool profiler_gone(struct uprof_ctl_header *h, uint32_t gen)
{
	uint32_t pid = __atomic_load_n(&h->profiler_pid, __ATOMIC_ACQUIRE);

	if (!pid || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return false;
	/* unless a new profiler attached meanwhile (its generation is another) */
	__atomic_compare_exchange_n(&h->attached, &gen, 0, false, __ATOMIC_ACQ_REL,
				    __ATOMIC_ACQUIRE);
	return true;
}

static bool drained(const struct uprof_ctl_header *h)
{
	uint32_t claimed = __atomic_load_n(&h->lanes_claimed, __ATOMIC_ACQUIRE);

	if (__atomic_load_n(&h->ring.tail, __ATOMIC_ACQUIRE) <
		    __atomic_load_n(&h->ring.head, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&h->pauses.tail, __ATOMIC_ACQUIRE) <
		    __atomic_load_n(&h->pauses.head, __ATOMIC_ACQUIRE))
		return false;
	for (uint32_t i = 0; i < nlanes && i < claimed; i++) {
		/* a thread publishes its lane in order: nothing at the tail, nothing after it */
		uint64_t tail = __atomic_load_n(&LANE(h, i)->tail, __ATOMIC_ACQUIRE);
		const struct uprof_ctl_record *at = LANE_SLOTS(h, i) +
						    (tail & (UPROF_CTL_LANE_RECORDS - 1));

		if (__atomic_load_n(&at->seq, __ATOMIC_ACQUIRE) == tail + 1)
			return false;
	}
	return true;
}

/* Is the uprof collect that launched us still running? (EPERM: it is, as root.) */
static bool launcher_alive(void)
{
	return launcher > 0 && (kill(launcher, 0) == 0 || errno == EPERM);
}

/* At exit: turn recording off, give the profiler a bounded chance to take what is in the
 * rings, then remove the page's name. The mapping stays: other threads may still be
 * inside a call that passed ins_on() before recording went off, and write to the page
 * until _exit ends them; the kernel unmaps it then (a page unmapped or a NULL ins_page
 * here crashed such a thread: tests/unit/test_instrument.c, exit_while_threads_record). A launch-mode page the profiler has not found yet, while that
 * profiler runs, is left for it: it reads the page of an ended process and removes it
 * (1000 children exiting at once on 2 CPUs kept collect from finding some within the
 * second, and their tasks were lost unsaid; issue 12, item 4). */
static void at_exit(void)
{
	struct uprof_ctl_header *h = ins_page;
	int saved = errno;
	bool leave;

	if (!h || __atomic_load_n(&ins_state, __ATOMIC_ACQUIRE) != INS_ON)
		return;
	if (ins_exit_hook)
		ins_exit_hook(); /* the OMPT tool's aggregates, before the drain wait */
	/* no new call records from here (the rings can drain while threads still run) */
	__atomic_store_n(&ins_state, INS_OFF, __ATOMIC_RELEASE);
	amdProfileControllerGate = 0;
	__atomic_store_n(&h->exiting, 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&h->req_seq, 1, __ATOMIC_RELEASE);
	futex(&h->req_seq, FUTEX_WAKE, 1, NULL);
	for (int ms = 0; ms < (h->launch_mode ? ATTACH_WAIT_MS : 0) &&
			 !__atomic_load_n(&h->attached, __ATOMIC_ACQUIRE);
	     ms++)
		usleep(1000);
	leave = h->launch_mode && !__atomic_load_n(&h->attached, __ATOMIC_ACQUIRE) &&
		launcher_alive();
	for (int ms = 0;
	     ms < DRAIN_WAIT_MS && __atomic_load_n(&h->attached, __ATOMIC_ACQUIRE) && !drained(h);
	     ms++) {
		uint32_t gen = __atomic_load_n(&h->attached, __ATOMIC_ACQUIRE);

		if (ms % 10 == 0 && gen && profiler_gone(h, gen))
			break; /* nobody will drain it */
		usleep(1000);
	}
	if (!leave && page_name[0])
		shm_unlink(page_name);
	errno = saved;
}

bool ins_setup(void)
{
	const char *enable = getenv("AMDUPROF_INSTRUMENT_ENABLE");
	const char *session = getenv("UPROF_SESSION");
	static int registered;
	int expected = INS_UNINIT, saved = errno;
	bool on;

	if (!__atomic_compare_exchange_n(&ins_state, &expected, INS_BUSY, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		while ((expected = __atomic_load_n(&ins_state, __ATOMIC_ACQUIRE)) == INS_BUSY)
			sched_yield();
		return expected == INS_ON;
	}
	on = enable ? strcmp(enable, "0") != 0 : session && *session;
	launcher = session ? (pid_t)strtol(session, NULL, 10) : 0;
	if (on)
		ins_page = create_page(session, session && *session);
	if (ins_page) {
		page_gen++;
		if (!registered) {
			registered = 1;
			pthread_atfork(NULL, NULL, at_fork_child);
			atexit(at_exit);
		}
	}
	__atomic_store_n(&ins_state, ins_page ? INS_ON : INS_OFF, __ATOMIC_RELEASE);
	amdProfileControllerGate = ins_page != NULL;
	errno = saved;
	return ins_page != NULL;
}

/* Append @name to the string table; its id, or 0 when the table is full. */
static uint32_t intern(struct uprof_ctl_header *h, const char *name)
{
	size_t len = strnlen(name, UPROF_CTL_NAME_MAX);
	size_t need = (4 + len + 1 + 3) & ~(size_t)3;
	uint32_t used, id = 0;
	char *table = (char *)h + STR_OFFSET;
	int spins = 0;

	while (__atomic_exchange_n(&h->str_lock, 1, __ATOMIC_ACQUIRE)) {
		if (++spins > 1000)
			return 0; /* a lock nobody releases: the page is not sane */
		sched_yield();
	}
	used = __atomic_load_n(&h->str_used, __ATOMIC_RELAXED);
	if (used <= UPROF_CTL_STR_BYTES - need && used % 4 == 0) {
		uint32_t l32 = (uint32_t)len;

		memcpy(table + used, &l32, 4);
		memcpy(table + used + 4, name, len);
		memset(table + used + 4 + len, 0, need - 4 - len);
		id = used + 1;
		__atomic_store_n(&h->str_used, used + (uint32_t)need, __ATOMIC_RELEASE);
	} else {
		__atomic_add_fetch(&h->str_dropped, 1, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&h->str_lock, 0, __ATOMIC_RELEASE);
	return id;
}

uint32_t ins_handle_register(struct ins_handle *h)
{
	uint32_t id = intern(ins_page, h->name);

	if (id)
		__atomic_store_n(&h->idgen, (uint64_t)page_gen << 32 | id, __ATOMIC_RELEASE);
	return id;
}

static inline uint32_t handle_id(struct ins_handle *h)
{
	uint64_t v;

	if (!h)
		return 0;
	v = __atomic_load_n(&h->idgen, __ATOMIC_ACQUIRE);
	if (__builtin_expect((uint32_t)(v >> 32) == page_gen && (uint32_t)v, 1))
		return (uint32_t)v;
	return ins_handle_register(h);
}

/* Fill the slot of position @pos and publish it: the record's fields, then its seq with
 * release (what the profiler waits for: ctlpage.h). The rings' and the lanes' one way. */
static inline __attribute__((always_inline)) void
publish(struct uprof_ctl_record *slot, uint64_t pos, uint64_t time, uint16_t kind, uint16_t how,
	uint32_t domain, uint32_t name, uint32_t who)
{
	slot->time_ns = time;
	slot->tid = who ? who : tid();
	slot->kind = kind;
	slot->how = how;
	slot->domain = domain;
	slot->name = name;
	__atomic_store_n(&slot->seq, pos + 1, __ATOMIC_RELEASE);
}

/* Claim a slot of @ring (Vyukov, see ctlpage.h) and publish one record in it. Inlined
 * into both callers so that the task path, the one docs/DESIGN.md §7 puts a price on, is one
 * function: a TSC read, a CAS, the record's stores and the publishing one. */
static inline __attribute__((always_inline)) bool
emit(struct uprof_ctl_ring *ring, struct uprof_ctl_record *slots, uint64_t mask, uint64_t now,
     uint16_t kind, uint16_t how, uint32_t domain, uint32_t name, uint32_t who, uint64_t *at)
{
	uint64_t pos = __atomic_load_n(&ring->head, __ATOMIC_RELAXED), seq;
	struct uprof_ctl_record *slot;

	for (int spins = 0;; spins++) {
		int64_t dif;

		if (spins > MAX_SPINS)
			goto dropped;
		slot = &slots[pos & mask];
		seq = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
		/* 0 in the first lap: a slot nobody used yet (ctlpage.h: zeroed, not seq = i) */
		dif = seq == 0 && pos <= mask ? 0 : (int64_t)(seq - pos);
		if (dif == 0) {
			if (__atomic_compare_exchange_n(&ring->head, &pos, pos + 1, true,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED))
				break;
		} else if (dif < 0) {
			goto dropped;
		} else {
			pos = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
		}
	}
	publish(slot, pos, now, kind, how, domain, name, who);
	*at = pos;
	return true;
dropped:
	__atomic_add_fetch(&ring->dropped, 1, __ATOMIC_RELAXED);
	return false;
}

static inline bool nobody_to_read(const struct uprof_ctl_header *h)
{
	/* attach mode with nobody attached: a record outside any session is noise */
	return !page_launch && !__atomic_load_n(&h->attached, __ATOMIC_RELAXED);
}

/* The doorbell (ctlpage.h, 2.4): wake the profiler's drain thread. Cold, as tid_first. */
static __attribute__((noinline, cold)) void ring_doorbell(struct uprof_ctl_header *h)
{
	__atomic_add_fetch(&h->req_seq, 1, __ATOMIC_RELEASE);
	futex(&h->req_seq, FUTEX_WAKE, 1, NULL);
}

void ins_emit_pause(uint16_t kind, uint16_t how)
{
	struct uprof_ctl_header *h = ins_page;
	uint64_t pos;

	if (nobody_to_read(h))
		return;
	if (!emit(&h->pauses, (struct uprof_ctl_record *)((char *)h + PAUSE_OFFSET),
		  UPROF_CTL_PAUSE_RECORDS - 1, use_tsc ? uprof_ctl_tsc() : ins_now_ns(), kind, how,
		  0, 0, 0, &pos))
		return;
	/* ring when the profiler has taken everything before this record: it may sleep.
	 * The fence pairs with the drain thread's after it stores the tail and before it
	 * looks for a published record (lib/sampler/pageset.c): one of the two sees the
	 * other, so a record never waits for the safety timeout. A storm of calls between
	 * two drains rings once. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&h->pauses.tail, __ATOMIC_RELAXED) == pos)
		ring_doorbell(h);
}

/* A quarter of the task ring filled since the last ring: the hot path pays a mask and a
 * branch; a lone record waits for the profiler's next look (it wakes at least every
 * 100 ms, and at exit the page rings). */
static inline void task_posted(struct uprof_ctl_header *h, uint64_t pos)
{
	if (__builtin_expect(((pos + 1) & (UPROF_CTL_RING_RECORDS / 4 - 1)) == 0, 0))
		ring_doorbell(h);
}

/* The hot path. Nothing here can touch errno: setup (the only step that can) keeps it. */
void ins_record(uint16_t kind, struct ins_handle *domain, struct ins_handle *name)
{
	struct uprof_ctl_header *h;
	uint32_t d, n;
	uint64_t pos;

	if (!ins_on())
		return;
	h = ins_page;
	if (nobody_to_read(h))
		return; /* not even a clock read */
	d = handle_id(domain);
	n = handle_id(name);
	/* the first record after a drop on this thread says so: report then forgets the
	 * thread's open tasks instead of pairing this end with the wrong begin */
	if (emit(&h->ring, (struct uprof_ctl_record *)((char *)h + RING_OFFSET),
		 UPROF_CTL_RING_RECORDS - 1, use_tsc ? uprof_ctl_tsc() : ins_now_ns(), kind,
		 my_gap ? UPROF_FLAG_GAP : 0, d, n, 0, &pos)) {
		my_gap = false;
		task_posted(h, pos);
	} else {
		my_gap = true;
	}
}

#define GONE_CHECK_NS 10000000ULL /* while waiting, look for a dead profiler this often */

bool ins_wait_applied(void)
{
	struct uprof_ctl_header *h = ins_page;
	uint32_t want = __atomic_add_fetch(&h->req_seq, 1, __ATOMIC_ACQ_REL);
	uint64_t deadline = ins_now_ns() + STRICT_WAIT_MS * 1000000ULL;
	uint32_t gen;

	futex(&h->req_seq, FUTEX_WAKE, 1, NULL);
	gen = __atomic_load_n(&h->attached, __ATOMIC_ACQUIRE);
	if (!gen || profiler_gone(h, gen))
		return true; /* no profiler: nothing to wait for */
	for (;;) {
		uint32_t ack = __atomic_load_n(&h->ack_seq, __ATOMIC_ACQUIRE);
		uint64_t now = ins_now_ns(), slice;
		struct timespec ts;

		if ((int32_t)(ack - want) >= 0)
			return true;
		if (now >= deadline)
			return false;
		slice = deadline - now < GONE_CHECK_NS ? deadline - now : GONE_CHECK_NS;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)slice;
		if (futex(&h->ack_seq, FUTEX_WAIT, ack, &ts) < 0 && errno == ETIMEDOUT &&
		    profiler_gone(h, gen))
			return true;
	}
}

uint64_t ins_stamp(void)
{
	return use_tsc ? uprof_ctl_tsc() : ins_now_ns();
}

bool ins_stamp_is_tsc(void)
{
	return use_tsc;
}

void ins_clock_pair(uint64_t *stamp, uint64_t *ns)
{
	int64_t mono;

	if (!use_tsc) {
		*stamp = *ns = ins_now_ns();
		return;
	}
	uprof_ctl_clock_pair(now_signed, stamp, &mono);
	*ns = (uint64_t)mono;
}

uint32_t ins_intern(const char *s)
{
	return ins_page ? intern(ins_page, s) : 0;
}

bool ins_emit_raw(uint16_t kind, uint16_t how, uint32_t who, uint32_t domain, uint32_t name,
		  uint64_t value)
{
	struct uprof_ctl_header *h = ins_page;
	uint64_t pos;

	if (!h || nobody_to_read(h))
		return true; /* nobody will ever read it: not a loss to count */
	if (!emit(&h->ring, (struct uprof_ctl_record *)((char *)h + RING_OFFSET),
		  UPROF_CTL_RING_RECORDS - 1, value, kind, how, domain, name, who, &pos))
		return false;
	task_posted(h, pos);
	return true;
}

/* This thread's first per-region record on this page: take the next lane, or none when
 * they are all taken (then every one of its records goes to the shared ring). */
static __attribute__((noinline, cold)) void lane_claim(struct uprof_ctl_header *h)
{
	uint32_t i;

	my_lane.gen = page_gen;
	my_lane.idx = -1;
	my_lane.pos = my_lane.tail = 0;
	if (!nlanes)
		return;
	i = __atomic_fetch_add(&h->lanes_claimed, 1, __ATOMIC_ACQ_REL);
	if (i >= nlanes)
		return;
	LANE(h, i)->tid = tid();
	my_lane.idx = (int32_t)i;
	/* fault the lane's memory in now, not a page every 128 records on the hot path (a lane
	 * written for the first time cost 42-56 ns a callback against the ring's 33, whose
	 * slots are touched when the page is made). MADV_POPULATE_WRITE on this shared memory
	 * left the faults where they were (Linux 6.18 in a VM): a write per page does it. Each
	 * page's first word is the seq of a slot nobody has published: 0 stays 0. */
	for (size_t off = 0; off < (size_t)UPROF_CTL_LANE_RECORDS * sizeof(struct uprof_ctl_record);
	     off += 4096)
		__atomic_store_n((uint64_t *)((char *)LANE_SLOTS(h, i) + off), 0, __ATOMIC_RELAXED);
}

void ins_lane_ready(void)
{
	struct uprof_ctl_header *h = ins_page;

	if (h && !nobody_to_read(h) && my_lane.gen != page_gen)
		lane_claim(h);
}

bool ins_emit_lane(uint16_t kind, uint16_t how, uint32_t who, uint32_t domain, uint32_t name,
		   uint64_t value)
{
	struct uprof_ctl_header *h = ins_page;
	struct uprof_ctl_record *slot;
	struct uprof_ctl_lane *lane;
	uint64_t pos;

	if (!h || nobody_to_read(h))
		return true; /* nobody will ever read it: not a loss to count */
	if (__builtin_expect(my_lane.gen != page_gen, 0))
		lane_claim(h);
	if (my_lane.idx < 0)
		return ins_emit_raw(kind, how, who, domain, name, value);
	lane = LANE(h, my_lane.idx);
	pos = my_lane.pos;
	if (__builtin_expect(pos - my_lane.tail >= UPROF_CTL_LANE_RECORDS, 0)) {
		my_lane.tail = __atomic_load_n(&lane->tail, __ATOMIC_ACQUIRE);
		if (pos - my_lane.tail >= UPROF_CTL_LANE_RECORDS) {
			__atomic_store_n(&lane->dropped,
					 __atomic_load_n(&lane->dropped, __ATOMIC_RELAXED) + 1,
					 __ATOMIC_RELAXED);
			return false;
		}
	}
	slot = LANE_SLOTS(h, my_lane.idx) + (pos & (UPROF_CTL_LANE_RECORDS - 1));
	publish(slot, pos, value, kind, how, domain, name, who);
	my_lane.pos = pos + 1;
	if (__builtin_expect(((pos + 1) & (UPROF_CTL_LANE_RECORDS / 4 - 1)) == 0, 0))
		ring_doorbell(h); /* a quarter of the lane since the last ring, as task_posted */
	return true;
}
