// SPDX-License-Identifier: MIT
/*
 * lib/instrument inside a real process, read back through lib/sampler's page reader:
 * the header's gate, the page life cycle (create, fork, exit), records and their
 * time stamps (TSC converted back to CLOCK_MONOTONIC), the full ring (drops counted,
 * the next record flagged as after a gap), and errno kept. The library's state is
 * per process, so each scenario runs in a forked child and reports through its exit
 * status and a message pipe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <AMDProfileController.h>
#include "instrument/ctlpage.h"
#include "instrument/internal.h"
#include "sampler/sampler.h"

static char msg[512];
static int msg_fd = -1;
static pid_t last_child; /* in the parent: the child in_child ran last */

/* In the child: fail with a message the parent prints. */
#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			int n_ = snprintf(msg, sizeof(msg), __VA_ARGS__); \
			(void)!write(msg_fd, msg, (size_t)n_); \
			_exit(1); \
		} \
	} while (0)

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Run @fn in a child with @env set ("NAME=value" or NULL), fail the test with its
 * message if it fails. */
static void in_child(void (*fn)(void), const char *env1, const char *env2)
{
	int p[2], status;
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		msg_fd = p[1];
		unsetenv("UPROF_SESSION");
		unsetenv("AMDUPROF_INSTRUMENT_ENABLE");
		if (env1)
			putenv((char *)env1);
		if (env2)
			putenv((char *)env2);
		fn();
		exit(0); /* not _exit: the library's exit handler removes the page */
	}
	close(p[1]);
	last_child = pid;
	n = read(p[0], msg, sizeof(msg) - 1);
	close(p[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	msg[n > 0 ? n : 0] = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail_msg("child failed: %s", msg[0] ? msg : "(crashed)");
}

/* ---- scenarios ---- */

/* Handles live as long as the process (the API has no destroy call); keeping them here
 * keeps them reachable for LeakSanitizer. */
static void *keep[8];
static int nkeep;

static void *kept(void *h)
{
	if (nkeep < 8)
		keep[nkeep++] = h;
	return h;
}

static void gate_off_without_session(void)
{
	amdDomainHandle d = kept(amdDomainCreate("D"));

	CHECK(amdProfileControllerGate == 1, "gate must start open (setup not done)");
	amdTaskBegin(d, 0, 0, kept(amdStringHandleCreate("T")));
	CHECK(amdProfileControllerGate == 0, "no session: gate closes after the first call");
	CHECK(access("/dev/shm/uprof.0", F_OK) != 0, "impossible page");
	amdTaskEnd(d); /* a load and a branch now */
	CHECK(amdProfileResume(), "resume without a profiler returns true");
}

static void gate_off_when_disabled(void)
{
	amdProfilePause();
	CHECK(amdProfileControllerGate == 0, "AMDUPROF_INSTRUMENT_ENABLE=0 closes the gate");
}

struct got {
	struct uprof_ctl_record r[8];
	int n;
	char names[4][32];
	int nnames;
};

static void on_rec(void *arg, const struct uprof_ctl_record *r)
{
	struct got *g = arg;

	if (g->n < 8)
		g->r[g->n] = *r;
	g->n++;
}

static int on_str(void *arg, uint32_t id, const char *s, size_t len)
{
	struct got *g = arg;

	(void)id;
	if (g->nnames < 4)
		snprintf(g->names[g->nnames++], 32, "%.*s", (int)len, s);
	return 0;
}

/* Pages of [@off, @off + @len) of the page that are in memory (mincore: a page of the
 * shared memory nobody wrote or read has none). */
static int resident_pages(size_t off, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = (len + pg - 1) / pg;
	unsigned char vec[1024];
	int k = 0;

	if (n > sizeof(vec) || off % pg || mincore((char *)ins_page + off, len, vec))
		return -1;
	for (size_t i = 0; i < n; i++)
		k += vec[i] & 1;
	return k;
}

static void records_round_trip(void)
{
	amdDomainHandle d = kept(amdDomainCreate("Dom"));
	amdStringHandle t = kept(amdStringHandleCreate("Task"));
	struct smp_page *page;
	struct got g = { .n = 0 };
	int64_t t0, t1, t2;

	t0 = now_ns();
	errno = 1234;
	amdTaskBegin(d, 0, 0, t);
	CHECK(errno == 1234, "errno changed by the first call (setup): %d", errno);
	t1 = now_ns();
	amdTaskEnd(d);
	amdProfilePause();
	t2 = now_ns();
	/* making the page wrote none of the rings' slots (zeroed slots are free in the first
	 * lap, ctlpage.h): only the page holding the first records is in memory */
	CHECK(resident_pages(UPROF_CTL_HEADER_BYTES + UPROF_CTL_STR_BYTES,
			     UPROF_CTL_RING_RECORDS * sizeof(struct uprof_ctl_record)) == 1,
	      "task ring: %d pages in memory, want 1",
	      resident_pages(UPROF_CTL_HEADER_BYTES + UPROF_CTL_STR_BYTES,
			     UPROF_CTL_RING_RECORDS * sizeof(struct uprof_ctl_record)));
	CHECK(resident_pages(UPROF_CTL_HEADER_BYTES + UPROF_CTL_STR_BYTES +
				     UPROF_CTL_RING_RECORDS * sizeof(struct uprof_ctl_record),
			     UPROF_CTL_PAUSE_RECORDS * sizeof(struct uprof_ctl_record)) == 1,
	      "pause ring: pages in memory, want 1");
	CHECK(amdProfileControllerGate == 1, "session set: gate stays open");
	CHECK(smp_page_open(&page, getpid(), "test-session", 7) == 0, "page not found");
	/* the library writes the ABI version it was built for, and names its release (2.1) */
	CHECK(smp_page_version(page) == UPROF_CTL_VERSION_OF(UPROF_CTL_MAJOR, UPROF_CTL_MINOR),
	      "version word %#x", smp_page_version(page));
	CHECK(!strncmp(smp_page_lib_version(page), UPROF_VERSION, 15), "lib_version '%s'",
	      smp_page_lib_version(page));
	smp_page_sync_clock(page);
	smp_page_strings(page, on_str, &g);
	CHECK(g.nnames == 2 && !strcmp(g.names[0], "Dom") && !strcmp(g.names[1], "Task"),
	      "strings: %d %s %s", g.nnames, g.names[0], g.names[1]);
	CHECK(smp_page_drain(page, false, on_rec, &g) == 2, "task records: %d", g.n);
	CHECK(g.r[0].kind == UPROF_REC_TASK_BEGIN && g.r[1].kind == UPROF_REC_TASK_END,
	      "kinds %u %u", g.r[0].kind, g.r[1].kind);
	CHECK(g.r[0].tid == (uint32_t)getpid(), "tid %u", g.r[0].tid);
	/* converted stamps land where the calls were made (100 us slack for the conversion) */
	CHECK((int64_t)g.r[0].time_ns >= t0 - 100000 && (int64_t)g.r[0].time_ns <= t1 + 100000,
	      "begin stamp %llu outside [%lld, %lld]", (unsigned long long)g.r[0].time_ns,
	      (long long)t0, (long long)t1);
	CHECK(g.r[1].time_ns >= g.r[0].time_ns, "end before begin");
	g.n = 0;
	CHECK(smp_page_drain(page, true, on_rec, &g) == 1, "pause records: %d", g.n);
	CHECK(g.r[0].kind == UPROF_REC_PAUSE && g.r[0].how == UPROF_HOW_API, "pause record");
	CHECK((int64_t)g.r[0].time_ns <= t2 + 1000000 && g.r[0].time_ns >= g.r[1].time_ns - 1000000,
	      "pause stamp out of order");
	smp_page_close(page);
}

static void full_ring_counts_and_flags_gap(void)
{
	amdDomainHandle d = kept(amdDomainCreate("Dom"));
	amdStringHandle t = kept(amdStringHandleCreate("Task"));
	struct smp_page *page;
	struct got g = { .n = 0 };
	uint64_t dropped, names;
	long total = 0, n;

	amdTaskBegin(d, 0, 0, t); /* creates the page; launch mode keeps records */
	for (int i = 0; i < UPROF_CTL_RING_RECORDS + 99; i++)
		amdTaskEnd(d);
	CHECK(smp_page_open(&page, getpid(), "test-session", 7) == 0, "page not found");
	smp_page_dropped(page, &dropped, &names);
	CHECK(dropped == 100, "dropped %llu, want 100", (unsigned long long)dropped);
	while ((n = smp_page_drain(page, false, on_rec, &g)) > 0)
		total += n;
	CHECK(total == UPROF_CTL_RING_RECORDS, "kept %ld", total);
	g.n = 0;
	amdTaskEnd(d);
	CHECK(smp_page_drain(page, false, on_rec, &g) == 1, "record after the drops");
	CHECK(g.r[0].how & UPROF_FLAG_GAP, "first record after drops carries the gap flag");
	g.n = 0;
	amdTaskEnd(d);
	smp_page_drain(page, false, on_rec, &g);
	CHECK(!(g.r[0].how & UPROF_FLAG_GAP), "and only the first one");
	smp_page_close(page);
}

static void fork_child_gets_own_page(void)
{
	amdDomainHandle d = kept(amdDomainCreate("Dom"));
	amdStringHandle t = kept(amdStringHandleCreate("Task"));
	struct smp_page *page;
	struct got g = { .n = 0 };
	int status;
	pid_t child;

	amdTaskBegin(d, 0, 0, t);
	child = fork();
	if (child == 0) {
		amdTaskEnd(d); /* must go to the child's own page */
		_exit(access("/dev/shm/uprof.0", F_OK) == 0);
	}
	/* the child's exit handler waits (launch mode) for a profiler: take its page */
	for (int i = 0; i < 200; i++) {
		if (smp_page_open(&page, child, "test-session", 7) == 0)
			break;
		page = NULL;
		usleep(5000);
	}
	CHECK(page, "the child made no page of its own");
	for (int i = 0; i < 200 && g.n == 0; i++) {
		smp_page_sync_clock(page);
		smp_page_drain(page, false, on_rec, &g);
		usleep(2000);
	}
	CHECK(g.n == 1 && g.r[0].kind == UPROF_REC_TASK_END && g.r[0].tid == (uint32_t)child,
	      "child's page: %d records", g.n);
	smp_page_close(page);
	waitpid(child, &status, 0);
	{
		char name[64]; /* the child ended with _exit: its page is ours to remove */

		snprintf(name, sizeof(name), "/uprof.%d", (int)child);
		shm_unlink(name);
	}
	g.n = 0;
	CHECK(smp_page_open(&page, getpid(), "test-session", 7) == 0, "parent's page");
	smp_page_drain(page, false, on_rec, &g);
	CHECK(g.n == 1 && g.r[0].kind == UPROF_REC_TASK_BEGIN, "parent's page got %d", g.n);
	smp_page_close(page);
}

/* The profiler that attached was SIGKILLed (issue 12, item 7): a strict call stops
 * waiting at once and detaches for it, so the calls after it do not wait either; while
 * the profiler lives and does not answer, the call waits out its bound and stays
 * attached (the check tells the two apart). */
static void strict_call_notices_dead_profiler(void)
{
	struct uprof_ctl_header *h;
	struct smp_page *page;
	char name[64];
	pid_t dead;
	int fd, status;

	amdProfileResume(); /* makes the page */
	CHECK(smp_page_open(&page, getpid(), "test-session", 7) == 0, "page not found");
	snprintf(name, sizeof(name), "/dev/shm/uprof.%d", (int)getpid());
	fd = open(name, O_RDWR);
	CHECK(fd >= 0, "cannot open %s", name);
	h = mmap(NULL, UPROF_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(h != MAP_FAILED, "cannot map the page");
	close(fd);
	/* alive (ourselves) and never acknowledging: the bounded wait, still attached */
	CHECK(!amdProfileStrictPause(), "a strict call with nobody acknowledging succeeded");
	CHECK(h->attached == 7, "detached from a live profiler (%u)", h->attached);
	dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, &status, 0);
	h->profiler_pid = (uint32_t)dead; /* the profiler is gone now */
	CHECK(amdProfileStrictResume(), "a strict call with a dead profiler failed");
	CHECK(h->attached == 0, "still attached to the dead profiler %d", (int)dead);
	CHECK(amdProfileStrictPause(), "the next strict call waited");
	munmap(h, UPROF_CTL_SIZE);
	smp_page_close(page);
}

/* Threads that record for as long as the process lives: tasks (the path ITT's tasks take
 * too, ins_record) and pause/resume pairs (the state word, then the pause ring). */
#define EXIT_THREADS 16
static void *record_forever(void *arg)
{
	amdDomainHandle d = arg;
	amdStringHandle s = amdStringHandleCreate("busy");

	kept(s);
	for (;;) {
		amdTaskBegin(d, 0, 0, s);
		amdTaskEnd(d);
		amdProfilePause();
		amdProfileResume();
	}
	return NULL;
}

/* main returns while EXIT_THREADS threads still record: the exit handler must leave
 * them a page to write to (it turns recording off; the kernel unmaps at _exit). */
/* Exit work of the program that runs after the library's exit handler (registered
 * before it, so run after it): the threads go on recording meanwhile. */
static void slow_exit_work(void)
{
	usleep(5000);
}

static void exit_while_threads_record(void)
{
	amdDomainHandle d = kept(amdDomainCreate("exit"));
	pthread_t t;

	atexit(slow_exit_work);
	amdTaskBegin(d, 0, 0, NULL); /* the page exists before the threads start */
	amdTaskEnd(d);
	for (int i = 0; i < EXIT_THREADS; i++)
		CHECK(!pthread_create(&t, NULL, record_forever, d), "pthread_create");
	usleep(2000);
}

/* ---- lanes (ctlpage.h, 2.6) ---- */

#define LANE_THREAD_RECORDS 1000

static void *write_lane(void *arg)
{
	uint32_t domain = (uint32_t)(uintptr_t)arg;

	for (uint64_t k = 0; k < LANE_THREAD_RECORDS; k++)
		ins_emit_lane(UPROF_REC_OMP_VALUE, 1, 0, domain, 0, k);
	return NULL;
}

struct lane_got {
	uint64_t next[4]; /* per domain: the value expected next */
	long n, bad;
};

static void on_lane_rec(void *arg, const struct uprof_ctl_record *r)
{
	struct lane_got *g = arg;

	g->n++;
	if (r->kind != UPROF_REC_OMP_VALUE)
		return;
	if (r->domain >= 4 || r->time_ns != g->next[r->domain]++)
		g->bad++;
}

/* UPROF_CTL_LANES=2: main takes lane 0 and overfills it (drops counted), a thread lane
 * 1, the next thread finds none and writes the shared ring; every thread's records come
 * back whole and in its order. A forked child's page has lanes of its own, and its first
 * record takes its lane 0 (the parent's choice is not inherited). */
static void lanes_per_thread(void)
{
	amdDomainHandle d = kept(amdDomainCreate("Dom"));
	struct lane_got g = { .n = 0 };
	struct smp_page *page;
	uint64_t dropped, names;
	pthread_t t[2];
	long n;
	int status;
	pid_t child;

	amdTaskBegin(d, 0, 0, kept(amdStringHandleCreate("T"))); /* the page */
	CHECK(ins_page && ins_page->lane_count == 2 && ins_page->lanes_offset == UPROF_CTL_SIZE,
	      "lanes of the page: %u at %u", ins_page ? ins_page->lane_count : 0,
	      ins_page ? ins_page->lanes_offset : 0);
	for (uint64_t k = 0; k < UPROF_CTL_LANE_RECORDS + 5; k++)
		ins_emit_lane(UPROF_REC_OMP_VALUE, 1, 0, 1, 0, k);
	CHECK(!pthread_create(&t[0], NULL, write_lane, (void *)2), "thread");
	CHECK(!pthread_join(t[0], NULL), "join");
	CHECK(!pthread_create(&t[1], NULL, write_lane, (void *)3), "thread");
	CHECK(!pthread_join(t[1], NULL), "join");
	CHECK(ins_page->lanes_claimed == 3, "lanes claimed %u", ins_page->lanes_claimed);
	CHECK(smp_page_open(&page, getpid(), "test-session", 7) == 0, "page not found");
	smp_page_dropped(page, &dropped, &names);
	CHECK(dropped == 5, "dropped %llu, want 5", (unsigned long long)dropped);
	while ((n = smp_page_drain(page, false, on_lane_rec, &g)) > 0)
		;
	CHECK(g.bad == 0, "%ld records out of order", g.bad);
	CHECK(g.next[1] == UPROF_CTL_LANE_RECORDS && g.next[2] == LANE_THREAD_RECORDS &&
		      g.next[3] == LANE_THREAD_RECORDS,
	      "kept %llu %llu %llu", (unsigned long long)g.next[1], (unsigned long long)g.next[2],
	      (unsigned long long)g.next[3]);
	CHECK(g.n == UPROF_CTL_LANE_RECORDS + 2 * LANE_THREAD_RECORDS + 1, "records %ld", g.n);
	smp_page_close(page);
	child = fork();
	if (child == 0) {
		amdTaskEnd(d); /* the child's own page */
		ins_emit_lane(UPROF_REC_OMP_VALUE, 1, 0, 1, 0, 0);
		/* its record is the first slot of its page's lane 0 */
		_exit(ins_page && ins_page->lanes_claimed == 1 &&
				      ((struct uprof_ctl_record *)((char *)ins_page +
								   UPROF_CTL_SIZE +
								   UPROF_CTL_LANE_CTL_BYTES))
						      ->seq == 1
			      ? 0
			      : 1);
	}
	CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		      WEXITSTATUS(status) == 0,
	      "the child's first record did not take its own lane 0");
}

/* UPROF_CTL_LANES that is not a count: no lanes (the page as an older profiler asks for
 * it); one past the bound: UPROF_CTL_MAX_LANES. The parent sets lanes_want before the fork. */
static unsigned lanes_want;
static void lanes_env_checked(void)
{
	amdDomainHandle d = kept(amdDomainCreate("Dom"));
	unsigned want = lanes_want;

	amdTaskBegin(d, 0, 0, kept(amdStringHandleCreate("T")));
	CHECK(ins_page && ins_page->lane_count == want &&
		      (want ? ins_page->lanes_offset == UPROF_CTL_SIZE
			    : ins_page->lanes_offset == 0),
	      "UPROF_CTL_LANES=%s: %u lanes at %u, want %u", getenv("UPROF_CTL_LANES"),
	      ins_page ? ins_page->lane_count : 0, ins_page ? ins_page->lanes_offset : 0, want);
}

/* ---- tests ---- */

static void test_gate_closes_without_session(void **state)
{
	(void)state;
	in_child(gate_off_without_session, NULL, NULL);
}

static void test_gate_closes_when_disabled(void **state)
{
	(void)state;
	in_child(gate_off_when_disabled, "AMDUPROF_INSTRUMENT_ENABLE=0",
		 "UPROF_SESSION=test-session");
}

static void test_records_round_trip(void **state)
{
	(void)state;
	in_child(records_round_trip, "UPROF_SESSION=test-session", NULL);
}

static void test_full_ring(void **state)
{
	(void)state;
	in_child(full_ring_counts_and_flags_gap, "UPROF_SESSION=test-session", NULL);
}

static void test_dead_profiler(void **state)
{
	(void)state;
	in_child(strict_call_notices_dead_profiler, "UPROF_SESSION=test-session", NULL);
}

static void test_lanes(void **state)
{
	(void)state;
	in_child(lanes_per_thread, "UPROF_SESSION=test-session", "UPROF_CTL_LANES=2");
}

static void test_lanes_env(void **state)
{
	static const struct {
		const char *env;
		unsigned want;
	} cases[] = {
		{ "UPROF_CTL_LANES=abc", 0 },
		{ "UPROF_CTL_LANES=-3", 0 },
		{ "UPROF_CTL_LANES=", 0 },
		{ "UPROF_CTL_LANES=4x", 0 },
		{ "UPROF_CTL_LANES=1000", UPROF_CTL_MAX_LANES },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		lanes_want = cases[i].want;
		in_child(lanes_env_checked, "UPROF_SESSION=test-session", cases[i].env);
	}
}

static void test_fork(void **state)
{
	(void)state;
	in_child(fork_child_gets_own_page, "UPROF_SESSION=test-session", NULL);
}

/* Runs of exit_while_threads_record: a page torn down under the threads (a NULL page or
 * an unmapped one) crashed the first run or so on the old exit handler. */
#define EXIT_RUNS 10
static void test_exit_while_threads_record(void **state)
{
	char name[64];

	(void)state;
	/* attach mode with no profiler: the exit handler has nothing to wait for, so main's
	 * return meets the threads at once */
	for (int run = 0; run < EXIT_RUNS; run++) {
		in_child(exit_while_threads_record, "AMDUPROF_INSTRUMENT_ENABLE=1", NULL);
		snprintf(name, sizeof(name), "/dev/shm/uprof.%d", (int)last_child);
		assert_int_equal(access(name, F_OK), -1); /* unlinked all the same */
	}
}

/* Launch mode: records go to the rings while the exit handler waits its second for a
 * profiler that never comes. */
static void test_exit_while_threads_record_launch(void **state)
{
	char name[64];

	(void)state;
	for (int run = 0; run < 3; run++) {
		in_child(exit_while_threads_record, "UPROF_SESSION=test-session", NULL);
		snprintf(name, sizeof(name), "/dev/shm/uprof.%d", (int)last_child);
		assert_int_equal(access(name, F_OK), -1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gate_closes_without_session),
		cmocka_unit_test(test_gate_closes_when_disabled),
		cmocka_unit_test(test_records_round_trip),
		cmocka_unit_test(test_full_ring),
		cmocka_unit_test(test_fork),
		cmocka_unit_test(test_lanes),
		cmocka_unit_test(test_lanes_env),
		cmocka_unit_test(test_dead_profiler),
		cmocka_unit_test(test_exit_while_threads_record),
		cmocka_unit_test(test_exit_while_threads_record_launch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
