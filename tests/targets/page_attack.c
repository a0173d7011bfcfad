// SPDX-License-Identifier: MIT
/*
 * Attacks on collect through control pages (tests/e2e/hostile_pages.sh, issue 12):
 *   page_attack forge PID        write /dev/shm/uprof.PID as a page of PID would be, with a
 *                                pause in its ring, and leave it (run as another user)
 *   page_attack empty PID...     make empty /dev/shm/uprof.PID files and leave them
 *   page_attack shrink SECONDS   an instrumented target that truncates its own page once
 *                                a profiler reads it, then spins SECONDS and _exits (its
 *                                own exit handler would fault on the page too)
 *   page_attack future SECONDS   an instrumented target that puts a pause stamped in the
 *                                far future in its own ring, spins SECONDS, resumes with
 *                                the API, spins SECONDS more; prints "t0 t1 t2" (CLOCK_
 *                                MONOTONIC ns: before the pause, before and after the resume)
 *   page_attack strict FILE N    an instrumented target that waits for a profiler, then
 *                                for FILE to exist (the profiler is SIGKILLed first), then
 *                                makes N strict pause/resume pairs; prints "attached",
 *                                then how many calls failed (timed out) and the page's
 *                                attached word after
 *   page_attack late FILE N      an instrumented target that waits until FILE exists
 *                                before its first call, then forks N children; each
 *                                process runs one task Late/Proc
 *   page_attack squat FILE N     the same, but each child prints "child PID" and its task
 *                                spins 1 s (alive while a profiler looks at it again)
 */
#include <AMDProfileController.h>
#include "instrument/ctlpage.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static volatile uint64_t sink;

static void spin(double seconds)
{
	int64_t end = mono() + (int64_t)(seconds * 1e9);

	while (mono() < end)
		for (int i = 0; i < 100000; i++)
			sink += (uint64_t)i * i;
}

static void page_name(char *buf, size_t len, int pid)
{
	snprintf(buf, len, "/dev/shm/" UPROF_CTL_SHM_PREFIX "%d", pid);
}

/* Map our own page (the library made it on the first call). */
static struct uprof_ctl_header *own_page(int *fd_out)
{
	char name[64];
	struct stat sb;
	void *m;
	int fd;

	page_name(name, sizeof(name), (int)getpid());
	fd = open(name, O_RDWR);
	if (fd < 0 || fstat(fd, &sb)) {
		perror(name);
		exit(1);
	}
	m = mmap(NULL, (size_t)sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		exit(1);
	*fd_out = fd;
	return m;
}

static void wait_attached(const struct uprof_ctl_header *h)
{
	for (int i = 0; i < 10000 && !__atomic_load_n(&h->attached, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	if (!__atomic_load_n(&h->attached, __ATOMIC_ACQUIRE)) {
		fprintf(stderr, "page_attack: no profiler attached in 10 s\n");
		exit(1);
	}
}

/* Put one record in @h's pause ring as a producer would (ctlpage.h's protocol). */
static void push_pause(struct uprof_ctl_header *h, uint16_t kind, uint64_t stamp)
{
	struct uprof_ctl_record *slots = (struct uprof_ctl_record *)((char *)h + h->pauses.offset);
	uint64_t pos = __atomic_fetch_add(&h->pauses.head, 1, __ATOMIC_RELAXED);
	struct uprof_ctl_record *slot = &slots[pos & (h->pauses.records - 1)];

	slot->time_ns = stamp;
	slot->tid = (uint32_t)getpid();
	slot->kind = kind;
	slot->how = UPROF_HOW_API;
	__atomic_store_n(&slot->seq, pos + 1, __ATOMIC_RELEASE);
}

/* A page as lib/instrument lays it out, for @pid (attach mode: no session token). */
static int forge(int pid)
{
	size_t str = UPROF_CTL_STR_BYTES, ring = UPROF_CTL_RING_RECORDS,
	       pauses = UPROF_CTL_PAUSE_RECORDS;
	struct uprof_ctl_header *h;
	struct uprof_ctl_record *slots;
	char name[64];
	int fd;

	page_name(name, sizeof(name), pid);
	fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, UPROF_CTL_SIZE)) {
		perror(name);
		return 1;
	}
	h = mmap(NULL, UPROF_CTL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (h == MAP_FAILED)
		return 1;
	h->version = UPROF_CTL_VERSION;
	h->size = UPROF_CTL_SIZE;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->pid = pid;
	h->str_offset = UPROF_CTL_HEADER_BYTES;
	h->str_bytes = (uint32_t)str;
	h->ring.offset = (uint32_t)(UPROF_CTL_HEADER_BYTES + str);
	h->ring.records = (uint32_t)ring;
	h->pauses.offset = (uint32_t)(h->ring.offset + ring * sizeof(struct uprof_ctl_record));
	h->pauses.records = (uint32_t)pauses;
	h->clock_kind = UPROF_CLOCK_MONO;
	h->mono0 = (uint64_t)mono(); /* "made just now": defeats a check of stamps alone */
	slots = (struct uprof_ctl_record *)((char *)h + h->ring.offset);
	for (size_t i = 0; i < ring; i++)
		slots[i].seq = i;
	slots = (struct uprof_ctl_record *)((char *)h + h->pauses.offset);
	for (size_t i = 0; i < pauses; i++)
		slots[i].seq = i;
	push_pause(h, UPROF_REC_PAUSE, (uint64_t)mono());
	__atomic_store_n(&h->magic, UPROF_CTL_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

static int empty(int argc, char **argv)
{
	char name[64];

	for (int i = 2; i < argc; i++) {
		int fd;

		page_name(name, sizeof(name), atoi(argv[i]));
		fd = open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

static int shrink(double seconds)
{
	amdDomainHandle d = amdDomainCreate("Shrink");
	amdStringHandle n = amdStringHandleCreate("Before");
	struct uprof_ctl_header *h;
	int fd;

	amdTaskBegin(d, 0, 0, n);
	amdTaskEnd(d);
	h = own_page(&fd);
	wait_attached(h);
	if (ftruncate(fd, 0))
		return 1;
	printf("truncated\n");
	fflush(stdout);
	spin(seconds); /* no API call from here on: the library's page is gone too */
	_exit(0);
}

static int future(double seconds)
{
	struct uprof_ctl_header *h;
	int64_t t0, t1, t2;
	int fd;

	amdProfileResume(); /* makes the page */
	h = own_page(&fd);
	wait_attached(h);
	t0 = mono();
	push_pause(h, UPROF_REC_PAUSE, (uint64_t)INT64_MAX);
	spin(seconds);
	t1 = mono();
	amdProfileResume();
	t2 = mono();
	spin(seconds);
	printf("%lld %lld %lld\n", (long long)t0, (long long)t1, (long long)t2);
	return 0;
}

static int strict(const char *go, int pairs)
{
	struct uprof_ctl_header *h;
	int failed = 0, fd;

	amdProfileResume(); /* makes the page */
	h = own_page(&fd);
	wait_attached(h);
	printf("attached\n");
	fflush(stdout);
	for (int i = 0; i < 60000 && access(go, F_OK); i++)
		usleep(1000);
	for (int i = 0; i < pairs; i++) {
		failed += !amdProfileStrictPause();
		failed += !amdProfileStrictResume();
	}
	printf("failed=%d attached=%u\n", failed, __atomic_load_n(&h->attached, __ATOMIC_ACQUIRE));
	return 0;
}

static int late(const char *go, int children, double child_s)
{
	amdDomainHandle d;
	amdStringHandle n;

	for (int i = 0; i < 60000 && access(go, F_OK); i++)
		usleep(1000);
	d = amdDomainCreate("Late");
	n = amdStringHandleCreate("Proc");
	for (int i = 0; i < children; i++) {
		pid_t c = fork();

		if (c == 0) {
			amdTaskBegin(d, 0, 0, n);
			spin(child_s);
			amdTaskEnd(d);
			exit(0);
		}
		if (c > 0 && child_s > 0.01) {
			printf("child %d\n", (int)c);
			fflush(stdout);
		}
	}
	amdTaskBegin(d, 0, 0, n);
	spin(0.01);
	amdTaskEnd(d);
	while (wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	/* the attacks are on named pages (the fallback of docs/DESIGN.md §5, attach mode): a
	 * page handed over collect's channel has no name to squat or open, and is sealed
	 * against shrinking */
	unsetenv("UPROF_PAGE_CHANNEL");

	if (!strcmp(mode, "forge") && argc == 3)
		return forge(atoi(argv[2]));
	if (!strcmp(mode, "empty"))
		return empty(argc, argv);
	if (!strcmp(mode, "shrink") && argc == 3)
		return shrink(atof(argv[2]));
	if (!strcmp(mode, "future") && argc == 3)
		return future(atof(argv[2]));
	if (!strcmp(mode, "strict") && argc == 4)
		return strict(argv[2], atoi(argv[3]));
	if (!strcmp(mode, "late") && argc == 4)
		return late(argv[2], atoi(argv[3]), 0.01);
	if (!strcmp(mode, "squat") && argc == 4)
		return late(argv[2], atoi(argv[3]), 1.0);
	fprintf(stderr, "usage: page_attack forge PID | empty PID... | shrink S | future S | "
			"strict FILE N | late FILE N | squat FILE N\n");
	return 2;
}
