// SPDX-License-Identifier: MIT
/*
 * lib/sampler's page set (smp_pageset_*): what left cli/collect_pages.c. Real page files
 * in a tmpdir, the processes they name a fake procfs ($UPROF_PROCFS_ROOT), attach mode
 * (the set's owns callback says which pids are ours). Discovery (a page there before
 * start, one made after it through inotify), the one drain thread (task records and
 * names into instrument/<pid>.tasks, exact counts), pause arbitration across two pages
 * (the sampling callback and pauses.csv), a strict caller acknowledged through the
 * doorbell, the drain thread's sleep (doorbell pages vs older minors), a refused page
 * said once, the bound on pages counted, and an ended process's page removed at stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "instrument/ctlpage.h"
#include "sampler/sampler.h"
#include "session/session.h"
#include "tmpdir.h"

#define PID_A 4242
#define PID_B 4343
#define RING 64
#define PAUSES 16
#define STR_BYTES 4096
#define SIZE \
	(UPROF_CTL_HEADER_BYTES + STR_BYTES + (RING + PAUSES) * sizeof(struct uprof_ctl_record))

struct fixture {
	char dir[128];	  /* the pages */
	char procfs[160]; /* the processes */
	char session[160];
	int session_fd; /* the session directory held open, as collect holds it */
	/* what the set told us */
	int sampling_calls;
	bool sampling_on;
	int said[16];
	int said_pid;
	enum smp_page_reason said_reason;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A page as the library lays it out for @pid, of minor @minor, with @ntasks task records
 * (begin/end pairs on domain "Dom") and the string "Dom". */
static void make_page(unsigned char *m, int pid, int minor, int ntasks)
{
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots;
	uint32_t l = 3;
	int64_t t = now_ns() - 500000000;

	memset(m, 0, SIZE);
	h->version = UPROF_CTL_VERSION_OF(UPROF_CTL_MAJOR, minor);
	h->size = SIZE;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->pid = pid;
	h->str_offset = UPROF_CTL_HEADER_BYTES;
	h->str_bytes = STR_BYTES;
	memcpy(m + h->str_offset, &l, 4);
	memcpy(m + h->str_offset + 4, "Dom", 4);
	h->str_used = 8;
	h->ring.offset = h->str_offset + STR_BYTES;
	h->ring.records = RING;
	h->pauses.offset = h->ring.offset + RING * sizeof(struct uprof_ctl_record);
	h->pauses.records = PAUSES;
	h->clock_kind = UPROF_CLOCK_MONO;
	h->mono0 = (uint64_t)t;
	slots = (struct uprof_ctl_record *)(m + h->ring.offset);
	for (uint32_t i = 0; i < RING; i++)
		slots[i].seq = i;
	for (int i = 0; i < ntasks; i++)
		slots[i] = (struct uprof_ctl_record){
			(uint64_t)i + 1,
			(uint64_t)(t + i),
			77,
			i % 2 ? UPROF_REC_TASK_END : UPROF_REC_TASK_BEGIN,
			0,
			1,
			0
		};
	h->ring.head = (uint64_t)ntasks;
	slots = (struct uprof_ctl_record *)(m + h->pauses.offset);
	for (uint32_t i = 0; i < PAUSES; i++)
		slots[i].seq = i;
	h->magic = UPROF_CTL_MAGIC;
}

static void page_path(const struct fixture *f, int pid, char *buf, size_t len)
{
	snprintf(buf, len, "%s/" UPROF_CTL_SHM_PREFIX "%d", f->dir, pid);
}

static void write_page(const struct fixture *f, int pid, int minor, int ntasks, size_t extra)
{
	unsigned char *m = calloc(1, SIZE + extra);
	char path[256];
	int fd;

	page_path(f, pid, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_non_null(m);
	assert_true(fd >= 0);
	make_page(m, pid, minor, ntasks);
	assert_int_equal(write(fd, m, SIZE + extra), (ssize_t)(SIZE + extra));
	close(fd);
	free(m);
}

/* The page file of @pid, mapped as its process would (to post records, ring). */
static struct uprof_ctl_header *map_page(const struct fixture *f, int pid)
{
	char path[256];
	void *m;
	int fd;

	page_path(f, pid, path, sizeof(path));
	fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	assert_true(m != MAP_FAILED);
	return m;
}

/* What lib/instrument does for a pause or resume call: the state word, the record, and
 * (2.4) the doorbell. */
static void post_pause(struct uprof_ctl_header *h, bool paused, int64_t t, bool strict)
{
	struct uprof_ctl_record *slots = (struct uprof_ctl_record *)((char *)h + h->pauses.offset);
	uint64_t pos = h->pauses.head;
	struct uprof_ctl_record *s = &slots[pos % PAUSES];

	__atomic_store_n(&h->state, paused, __ATOMIC_RELEASE);
	s->time_ns = (uint64_t)t;
	s->tid = 1;
	s->kind = paused ? UPROF_REC_PAUSE : UPROF_REC_RESUME;
	s->how = strict ? UPROF_HOW_API_STRICT : UPROF_HOW_API;
	__atomic_store_n(&h->pauses.head, pos + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&s->seq, pos + 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&h->req_seq, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &h->req_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
}

static void fake_process(const struct fixture *f, int pid)
{
	char path[256];
	FILE *st;

	snprintf(path, sizeof(path), "%s/%d", f->procfs, pid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/status", f->procfs, pid);
	st = fopen(path, "w");
	assert_non_null(st);
	fprintf(st,
		"Name:\ttarget\nState:\tS (sleeping)\nPid:\t%d\nPPid:\t1\n"
		"Uid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n",
		pid, getuid(), getuid(), getuid(), getuid());
	fclose(st);
}

static void end_process(const struct fixture *f, int pid)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%d/status", f->procfs, pid);
	unlink(path);
	snprintf(path, sizeof(path), "%s/%d", f->procfs, pid);
	rmdir(path);
}

static void on_sampling(void *arg, bool on)
{
	struct fixture *f = arg;

	__atomic_add_fetch(&f->sampling_calls, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&f->sampling_on, on, __ATOMIC_RELEASE);
}

static bool owns(void *arg, int pid)
{
	(void)arg;
	return pid == PID_A || pid == PID_B;
}

static void on_say(void *arg, enum smp_pageset_what what, int pid, int err,
		   const struct smp_page_why *why)
{
	struct fixture *f = arg;

	(void)err;
	f->said[what]++;
	f->said_pid = pid;
	if (why)
		f->said_reason = why->reason;
}

static struct smp_pageset *start(struct fixture *f, int max_pages)
{
	struct smp_pageset_opts o = {
		.dir = f->dir,
		.session_dir = f->session,
		.session_dfd = f->session_fd,
		.max_pages = max_pages,
		.set_sampling = on_sampling,
		.owns = owns,
		.say = on_say,
		.arg = f,
	};
	struct smp_pageset *s;

	assert_int_equal(smp_pageset_start(&s, &o), 0);
	assert_int_equal(smp_pageset_fd(s) >= 0, 1);
	return s;
}

/* Poll the set until @n pages are taken (2 s at most). */
static void poll_until(struct smp_pageset *s, int n)
{
	for (int i = 0; i < 2000 && smp_pageset_npages(s) < n; i++) {
		smp_pageset_poll(s);
		usleep(1000);
	}
	assert_int_equal(smp_pageset_npages(s), n);
}

static void read_tasks(const struct fixture *f, int pid, struct ses_tasks *t)
{
	char path[256], err[128];
	static char buf[1 << 16];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/instrument/%d.tasks", f->session, pid);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	assert_true(n > 0);
	assert_int_equal(ses_tasks_parse(buf, (size_t)n, t, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	test_tmp_path(f->dir, sizeof(f->dir), "uprof-pageset.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->procfs, sizeof(f->procfs), "%s-proc", f->dir);
	assert_int_equal(mkdir(f->procfs, 0700), 0);
	snprintf(f->session, sizeof(f->session), "%s-ses", f->dir);
	assert_int_equal(mkdir(f->session, 0700), 0);
	f->session_fd = open(f->session, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(f->session_fd >= 0);
	setenv("UPROF_PROCFS_ROOT", f->procfs, 1);
	fake_process(f, PID_A);
	fake_process(f, PID_B);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[512];

	unsetenv("UPROF_PROCFS_ROOT");
	close(f->session_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s' '%s'", f->dir, f->procfs, f->session);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

/* A page there before start (the rescan) and one made after it (inotify): both taken,
 * every task record and the name in each .tasks file; the page of a process that ended
 * is removed at stop, the live one's stays. */
static void finds_and_drains(void **state)
{
	struct fixture *f = *state;
	struct smp_pageset_counts c;
	struct smp_pageset *s;
	struct ses_tasks t;
	char path[256];

	write_page(f, PID_A, UPROF_CTL_DOORBELL_MINOR, 10, 0);
	s = start(f, 0);
	assert_int_equal(smp_pageset_npages(s), 1);
	write_page(f, PID_B, UPROF_CTL_DOORBELL_MINOR, 7, 0);
	poll_until(s, 2);
	end_process(f, PID_B);
	smp_pageset_stop(s);
	smp_pageset_counts(s, &c);
	assert_int_equal(c.over_pages, 0);
	assert_int_equal(c.lost_task_records, 0);
	smp_pageset_free(s);
	read_tasks(f, PID_A, &t);
	assert_int_equal(t.nrecords, 10);
	assert_int_equal(t.records[0].kind, SES_TASK_BEGIN);
	assert_int_equal(t.records[1].kind, SES_TASK_END);
	assert_string_equal(ses_tasks_string(&t, 1), "Dom");
	ses_tasks_release(&t);
	read_tasks(f, PID_B, &t);
	assert_int_equal(t.nrecords, 7);
	ses_tasks_release(&t);
	page_path(f, PID_A, path, sizeof(path));
	assert_int_equal(access(path, F_OK), 0);
	page_path(f, PID_B, path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(f->said[SMP_PAGESET_REFUSED], 0);
}

/* Waits (2 s at most) until @cond holds. */
#define WAIT_FOR(cond) \
	do { \
		for (int i_ = 0; i_ < 2000 && !(cond); i_++) \
			usleep(1000); \
		assert_true(cond); \
	} while (0)

/* Two processes: A pauses, B resumes later: the sampling goes off, then on (the newest
 * call decides, whichever page it came from), a strict caller is acknowledged, and
 * pauses.csv holds the one interval between the two calls. */
static void arbitrates_across_pages(void **state)
{
	struct fixture *f = *state;
	int64_t t0 = now_ns() - 400000000, end;
	struct uprof_ctl_header *a, *b;
	struct smp_pageset_pauses r;
	struct smp_pageset *s;
	char path[256], buf[512];
	FILE *csv;

	write_page(f, PID_A, UPROF_CTL_DOORBELL_MINOR, 0, 0);
	write_page(f, PID_B, UPROF_CTL_DOORBELL_MINOR, 0, 0);
	s = start(f, 0);
	assert_int_equal(smp_pageset_npages(s), 2);
	a = map_page(f, PID_A);
	b = map_page(f, PID_B);
	post_pause(a, true, t0 + 100000000, false);
	WAIT_FOR(__atomic_load_n(&f->sampling_calls, __ATOMIC_ACQUIRE) == 1);
	assert_false(f->sampling_on);
	post_pause(b, false, t0 + 300000000, true);
	WAIT_FOR(__atomic_load_n(&b->ack_seq, __ATOMIC_ACQUIRE) ==
		 __atomic_load_n(&b->req_seq, __ATOMIC_ACQUIRE));
	assert_int_equal(f->sampling_calls, 2);
	assert_true(f->sampling_on);
	assert_int_equal(a->sampling_active, 0); /* told when its call was applied */
	assert_int_equal(b->sampling_active, 1);
	smp_pageset_stop(s);
	end = now_ns();
	smp_pageset_write_pauses(s, t0, end, &r);
	smp_pageset_free(s);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.write_err, 0);
	assert_int_equal(r.total_ns, 200000000);
	assert_int_equal(r.gap_records, 0);
	snprintf(path, sizeof(path), "%s/pauses.csv", f->session);
	csv = fopen(path, "r");
	assert_non_null(csv);
	assert_non_null(fgets(buf, sizeof(buf), csv)); /* the header */
	assert_non_null(fgets(buf, sizeof(buf), csv));
	snprintf(path, sizeof(path), "%d,%lld,%lld,api\n", PID_A, (long long)(t0 + 100000000),
		 (long long)(t0 + 300000000));
	assert_string_equal(buf, path);
	assert_null(fgets(buf, sizeof(buf), csv));
	fclose(csv);
	munmap(a, SIZE);
	munmap(b, SIZE);
}

/* The drain thread sleeps on the doorbells: with only 2.4 pages it wakes every 100 ms
 * at most on its own (a few times in half a second); with a page of 2.3 (no doorbell
 * for plain records) it looks every 10 ms. */
static void sleeps_on_doorbells(void **state)
{
	struct fixture *f = *state;
	struct smp_pageset *s;
	uint64_t w0, quiet, polling;

	write_page(f, PID_A, UPROF_CTL_DOORBELL_MINOR, 0, 0);
	s = start(f, 0);
	usleep(50000);
	w0 = smp_pageset_wakeups(s);
	usleep(500000);
	quiet = smp_pageset_wakeups(s) - w0;
	write_page(f, PID_B, UPROF_CTL_DOORBELL_MINOR - 1, 0, 0);
	poll_until(s, 2);
	usleep(50000);
	w0 = smp_pageset_wakeups(s);
	usleep(500000);
	polling = smp_pageset_wakeups(s) - w0;
	smp_pageset_free(s);
	assert_in_range(quiet, 1, 7);
	assert_in_range(polling, 15, 60);
}

/* A page of this run the set cannot read (the wrong size) is said once, however often it
 * is looked at; a page over the bound on pages read at once is counted once. */
static void refusals_said_once_and_bounds_counted(void **state)
{
	struct fixture *f = *state;
	struct smp_pageset_counts c;
	struct smp_pageset *s;

	write_page(f, PID_A, UPROF_CTL_DOORBELL_MINOR, 0, 100);
	s = start(f, 0);
	smp_pageset_add_pid(s, PID_A);
	smp_pageset_poll(s);
	assert_int_equal(smp_pageset_npages(s), 0);
	assert_int_equal(f->said[SMP_PAGESET_REFUSED], 1);
	assert_int_equal(f->said_pid, PID_A);
	assert_int_equal(f->said_reason, SMP_PAGE_SIZE);
	smp_pageset_free(s);

	write_page(f, PID_A, UPROF_CTL_DOORBELL_MINOR, 0, 0);
	write_page(f, PID_B, UPROF_CTL_DOORBELL_MINOR, 0, 0);
	s = start(f, 1);
	smp_pageset_add_pid(s, PID_A);
	smp_pageset_add_pid(s, PID_B);
	smp_pageset_stop(s); /* its rescan tries again: still one count a pid */
	smp_pageset_counts(s, &c);
	assert_int_equal(c.over_pages, 1);
	assert_int_equal(c.max_pages, 1);
	smp_pageset_free(s);
	assert_int_equal(f->said[SMP_PAGESET_REFUSED], 1);
}

/* Send @fd (or none: -1) to the abstract socket @name, as lib/instrument/channel.c does. */
static void hand_over(const char *name, int fd, int pid)
{
	struct uprof_ctl_handoff msg = { UPROF_CTL_HANDOFF_MAGIC, pid, UPROF_CTL_VERSION };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	struct iovec iov = { &msg, sizeof(msg) };
	struct msghdr mh = { .msg_name = &to,
			     .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(&ctl, 0, sizeof(ctl));
	memcpy(to.sun_path + 1, name, strlen(name));
	mh.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	if (sendmsg(sock, &mh, 0) != (ssize_t)sizeof(msg))
		_exit(3);
	close(sock);
}

/* A page laid out in a memfd for @pid, with the run's token and @ntasks task records. */
static int memfd_page(int pid, const char *token, int ntasks)
{
	int fd = (int)syscall(SYS_memfd_create, "uprof.test", MFD_CLOEXEC);
	unsigned char *m;

	if (fd < 0 || ftruncate(fd, SIZE))
		_exit(4);
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		_exit(5);
	make_page(m, pid, UPROF_CTL_DOORBELL_MINOR, ntasks);
	snprintf(((struct uprof_ctl_header *)m)->session, UPROF_CTL_SESSION_MAX, "%s", token);
	munmap(m, SIZE);
	return fd;
}

/* Launch mode's channel (issue 27): a page handed over by a child of ours (the fake
 * procfs says whose child it is) is taken and drained with no file in the directory; one
 * handed over by a process not of the run (this one: no parent of ours) is refused and
 * counted; nothing is left in the pages' directory. */
static void channel_takes_the_runs_pages_only(void **state)
{
	struct fixture *f = *state;
	struct smp_pageset_opts o = {
		.dir = f->dir,
		.token = "99.1",
		.session_dir = f->session,
		.session_dfd = f->session_fd,
		.channel = true,
		.say = on_say,
		.arg = f,
	};
	struct smp_pageset_counts c;
	struct ses_tasks t;
	struct smp_pageset *s;
	int go[2], status, fd;
	char name[UPROF_CTL_CHANNEL_MAX], path[256];
	pid_t kid;

	assert_int_equal(smp_pageset_start(&s, &o), 0);
	assert_non_null(smp_pageset_channel(s));
	snprintf(name, sizeof(name), "%s", smp_pageset_channel(s));
	fd = memfd_page((int)getpid(), "99.1", 2);
	hand_over(name, fd, (int)getpid()); /* ours is no process of the run */
	close(fd);
	assert_int_equal(pipe(go), 0);
	kid = fork();
	assert_true(kid >= 0);
	if (!kid) {
		char b;

		close(go[1]);
		if (read(go[0], &b, 1) != 1)
			_exit(2);
		fd = memfd_page((int)getpid(), "99.1", 6);
		hand_over(name, fd, (int)getpid());
		_exit(0);
	}
	close(go[0]);
	fake_process(f, kid);
	snprintf(path, sizeof(path), "%s/%d/status", f->procfs, kid); /* our child */
	{
		FILE *st = fopen(path, "w");

		assert_non_null(st);
		fprintf(st,
			"Name:\tkid\nState:\tS (sleeping)\nPid:\t%d\nPPid:\t%d\nUid:\t%u\t%u\t%u\t%u\n",
			kid, (int)getpid(), getuid(), getuid(), getuid(), getuid());
		fclose(st);
	}
	assert_int_equal(write(go[1], "x", 1), 1);
	close(go[1]);
	assert_int_equal(waitpid(kid, &status, 0), kid);
	assert_int_equal(status, 0);
	poll_until(s, 1);
	smp_pageset_stop(s);
	smp_pageset_counts(s, &c);
	assert_int_equal(c.handed, 1);
	assert_int_equal(c.named, 0);
	assert_int_equal(c.channel_refused, 1);
	assert_int_equal(c.not_followed, 0);
	read_tasks(f, kid, &t);
	assert_int_equal(t.nrecords, 6);
	ses_tasks_release(&t);
	smp_pageset_free(s);
	end_process(f, kid);
	page_path(f, kid, path, sizeof(path));
	assert_int_equal(access(path, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(finds_and_drains, setup, teardown),
		cmocka_unit_test_setup_teardown(arbitrates_across_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(sleeps_on_doorbells, setup, teardown),
		cmocka_unit_test_setup_teardown(refusals_said_once_and_bounds_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(channel_takes_the_runs_pages_only, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
