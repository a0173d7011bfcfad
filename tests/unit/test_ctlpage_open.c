// SPDX-License-Identifier: MIT
/*
 * Opening a control page that a hostile process may have made (issue 12, items 1-3):
 * pages are files in a tmpdir, the processes they name are a fake procfs
 * ($UPROF_PROCFS_ROOT). A page must be a regular file (not a link, a FIFO, a directory)
 * owned by a uid of the process its name gives, its header must name that pid and give
 * the file's exact size; each refusal says why. A page truncated while it is read makes
 * every call a no-op instead of a SIGBUS, and a SIGBUS that is not the page's still
 * kills as before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "instrument/ctlpage.h"
#include "sampler/sampler.h"

#define PID 4242
#define RING 64
#define PAUSES 16
#define STR_BYTES 4096
#define SIZE (UPROF_CTL_HEADER_BYTES + STR_BYTES + (RING + PAUSES) * sizeof(struct uprof_ctl_record))

struct fixture {
	char dir[64];	 /* the pages */
	char procfs[80]; /* the processes */
	char page[128];	 /* <dir>/uprof.<PID> */
};

/* A page as the library lays it out for @pid, with one string and one task record. */
static void make_page(unsigned char *m, int pid)
{
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots;
	uint32_t l = 3;

	memset(m, 0, SIZE);
	h->version = UPROF_CTL_VERSION;
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
	h->mono0 = 1000;
	slots = (struct uprof_ctl_record *)(m + h->ring.offset);
	for (uint32_t i = 0; i < RING; i++)
		slots[i].seq = i;
	slots[0] = (struct uprof_ctl_record){ 1, 5000, 77, UPROF_REC_TASK_BEGIN, 0, 1, 1 };
	slots = (struct uprof_ctl_record *)(m + h->pauses.offset);
	for (uint32_t i = 0; i < PAUSES; i++)
		slots[i].seq = i;
	h->magic = UPROF_CTL_MAGIC;
}

/* Write the page file @path for @pid, @extra bytes longer than its header says. */
static void write_page(const char *path, int pid, size_t extra)
{
	unsigned char *m = calloc(1, SIZE + extra);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_non_null(m);
	assert_true(fd >= 0);
	make_page(m, pid);
	assert_int_equal(write(fd, m, SIZE + extra), (ssize_t)(SIZE + extra));
	close(fd);
	free(m);
}

/* <procfs>/<pid>/status with the uids @r, @e, @s, @f. */
static void fake_process(struct fixture *f, int pid, unsigned r, unsigned e, unsigned s,
			 unsigned fs)
{
	char path[160];
	FILE *st;

	snprintf(path, sizeof(path), "%s/%d", f->procfs, pid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/status", f->procfs, pid);
	st = fopen(path, "w");
	assert_non_null(st);
	fprintf(st, "Name:\ttarget\nPid:\t%d\nPPid:\t1\nUid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n",
		pid, r, e, s, fs);
	fclose(st);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/uprof-pages.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->procfs, sizeof(f->procfs), "%s/proc", f->dir);
	assert_int_equal(mkdir(f->procfs, 0700), 0);
	snprintf(f->page, sizeof(f->page), "%s/" UPROF_CTL_SHM_PREFIX "%d", f->dir, PID);
	setenv("UPROF_PROCFS_ROOT", f->procfs, 1);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	unsetenv("UPROF_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

static void count_record(void *arg, const struct uprof_ctl_record *r)
{
	(void)r;
	(*(int *)arg)++;
}

static int open_page(struct fixture *f, struct smp_page **p, struct smp_page_why *why)
{
	return smp_page_open_at(p, f->dir, PID, NULL, 7, why);
}

/* The page of a process of our uid: taken, its record read back. */
static void own_page_taken(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p;
	int n = 0;

	write_page(f->page, PID, 0);
	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	assert_int_equal(open_page(f, &p, &why), 0);
	assert_int_equal(why.reason, SMP_PAGE_OK);
	assert_int_equal(smp_page_pid(p), PID);
	assert_int_equal(smp_page_drain(p, false, count_record, &n), 1);
	assert_int_equal(n, 1);
	assert_false(smp_page_faulted(p));
	smp_page_close(p);
}

/* A page owned by a uid the process does not have (a page made by another user, named
 * after a busy process of root's: issue 12, item 2) is refused, naming both uids; a
 * process that has our uid as any of its four (a setuid program) owns it. */
static void foreign_owner_refused(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p = (struct smp_page *)1;
	unsigned me = getuid(), other = me + 12345;

	write_page(f->page, PID, 0);
	fake_process(f, PID, other, other + 1, other, other);
	assert_int_equal(open_page(f, &p, &why), -EPERM);
	assert_null(p);
	assert_int_equal(why.reason, SMP_PAGE_OWNER);
	assert_int_equal(why.owner, me);
	assert_int_equal(why.uid, other + 1); /* the effective uid */
	fake_process(f, PID, other, other, me, other); /* saved uid: it can become us */
	assert_int_equal(open_page(f, &p, &why), 0);
	smp_page_close(p);
}

/* Launch mode (a session token given): the page of a process of the run that ended
 * before it was found is left for us (issue 12, item 4), so with no process to ask it is
 * taken when the file is our own uid's and the token is ours; a file of another uid, a
 * token of another run, or attach mode (no token) is refused as before. */
static void gone_process_own_page_launch_mode(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p = NULL;
	int n = 0;

	write_page(f->page, PID, 0);
	{ /* the token of the run, as collect sets UPROF_SESSION */
		int fd = open(f->page, O_RDWR);
		struct uprof_ctl_header h;

		assert_true(fd >= 0);
		assert_int_equal(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
		snprintf(h.session, sizeof(h.session), "%s", "4100.77");
		assert_int_equal(pwrite(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
		close(fd);
	}
	assert_int_equal(smp_page_open_at(&p, f->dir, PID, "4100.77", 7, &why), 0);
	assert_int_equal(smp_page_drain(p, false, count_record, &n), 1);
	assert_int_equal(n, 1);
	smp_page_close(p);
	assert_int_equal(smp_page_open_at(&p, f->dir, PID, NULL, 7, &why), -ESRCH);
	assert_int_equal(why.reason, SMP_PAGE_NO_PROCESS);
	assert_int_equal(smp_page_open_at(&p, f->dir, PID, "4100.78", 7, &why), -EINVAL);
	if (geteuid() == 0) { /* a file another uid made: nobody vouches for it */
		assert_int_equal(chown(f->page, 65534, 65534), 0);
		assert_int_equal(smp_page_open_at(&p, f->dir, PID, "4100.77", 7, &why), -ESRCH);
		assert_int_equal(why.reason, SMP_PAGE_NO_PROCESS);
	}
}

/* No process with that pid: refused at once (not left to wait for publication). */
static void no_process_refused(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p;

	write_page(f->page, PID, 0);
	assert_int_equal(open_page(f, &p, &why), -ESRCH);
	assert_int_equal(why.reason, SMP_PAGE_NO_PROCESS);
	/* an empty file is also refused at once when its owner is not the process's: it
	 * never takes a place among the pages waiting to be published (item 3) */
	assert_int_equal(truncate(f->page, 0), 0);
	fake_process(f, PID, getuid() + 1, getuid() + 1, getuid() + 1, getuid() + 1);
	assert_int_equal(open_page(f, &p, &why), -EPERM);
	assert_int_equal(why.reason, SMP_PAGE_OWNER);
}

/* A symbolic link is not followed, a FIFO does not block, a directory is no page. */
static void not_regular_refused(void **state)
{
	struct fixture *f = *state;
	char real[160];
	struct smp_page_why why;
	struct smp_page *p;

	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	snprintf(real, sizeof(real), "%s/real", f->dir);
	write_page(real, PID, 0);
	assert_int_equal(symlink(real, f->page), 0);
	assert_int_equal(open_page(f, &p, &why), -EPERM);
	assert_int_equal(why.reason, SMP_PAGE_LINK);
	unlink(f->page);
	assert_int_equal(mkfifo(f->page, 0600), 0);
	assert_int_equal(open_page(f, &p, &why), -EPERM); /* returns: nobody writes to it */
	assert_int_equal(why.reason, SMP_PAGE_NOT_REGULAR);
	unlink(f->page);
	assert_int_equal(mkdir(f->page, 0700), 0);
	assert_int_equal(open_page(f, &p, &why), -EPERM);
	assert_int_equal(why.reason, SMP_PAGE_NOT_REGULAR);
	rmdir(f->page);
}

/* Sizes: empty is a page being made (retry); shorter than a header, or not the size its
 * header gives, is refused with both sizes. */
static void sizes_refused(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p;

	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	write_page(f->page, PID, 0);
	assert_int_equal(truncate(f->page, 0), 0);
	assert_int_equal(open_page(f, &p, &why), -EAGAIN);
	assert_int_equal(truncate(f->page, 100), 0);
	assert_int_equal(open_page(f, &p, &why), -EINVAL);
	assert_int_equal(why.reason, SMP_PAGE_SIZE);
	assert_int_equal(why.size, 100);
	assert_int_equal(why.want, 0);
	write_page(f->page, PID, 4096);
	assert_int_equal(open_page(f, &p, &why), -EINVAL);
	assert_int_equal(why.reason, SMP_PAGE_SIZE);
	assert_int_equal(why.size, SIZE + 4096);
	assert_int_equal(why.want, SIZE);
}

/* A page whose header names another process than its file name: refused (a page copied
 * or forged under a victim's name). */
static void pid_mismatch_refused(void **state)
{
	struct fixture *f = *state;
	struct smp_page_why why;
	struct smp_page *p;

	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	write_page(f->page, PID + 1, 0);
	assert_int_equal(open_page(f, &p, &why), -EINVAL);
	assert_int_equal(why.reason, SMP_PAGE_PID);
	assert_int_equal(why.page_pid, PID + 1);
}

static int count_string(void *arg, uint32_t id, const char *s, size_t len)
{
	(void)id, (void)s, (void)len;
	(*(int *)arg)++;
	return 0;
}

/* Truncated under us (to @to bytes) after it was taken: no SIGBUS; the page is faulted
 * and every call is a no-op; close only unmaps. */
static void truncated_to(struct fixture *f, off_t to)
{
	struct smp_page *p;
	uint64_t records = 1, names = 1;
	int n = 0;

	write_page(f->page, PID, 0);
	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	assert_int_equal(open_page(f, &p, NULL), 0);
	assert_int_equal(truncate(f->page, to), 0);
	assert_int_equal(smp_page_drain(p, false, count_record, &n), 0);
	assert_int_equal(n, 0);
	assert_true(smp_page_faulted(p));
	assert_int_equal(smp_page_drain(p, true, count_record, &n), 0);
	assert_int_equal(smp_page_strings(p, count_string, &n), 0);
	assert_false(smp_page_wait(p, 1000)); /* at once, not after a second */
	smp_page_ack(p);
	smp_page_set_active(p, true);
	assert_false(smp_page_exiting(p));
	smp_page_dropped(p, &records, &names);
	assert_int_equal(records + names, 0);
	assert_int_equal(n, 0);
	smp_page_close(p);
}

static void truncated_page_faults_softly(void **state)
{
	truncated_to(*state, 0);
	/* the header still there, the rings gone: the first access past it faults */
	truncated_to(*state, UPROF_CTL_HEADER_BYTES);
}

/* While one thread's page faults, another thread's page is read normally: guards are
 * per thread. */
struct reader {
	struct smp_page *p;
	int records;
};

static void *read_page(void *arg)
{
	struct reader *r = arg;

	for (int i = 0; i < 1000; i++)
		smp_page_drain(r->p, false, count_record, &r->records);
	return NULL;
}

static void guards_are_per_thread(void **state)
{
	struct fixture *f = *state;
	char other[160];
	struct reader good = { 0 }, bad = { 0 };
	pthread_t t;

	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	write_page(f->page, PID, 0);
	snprintf(other, sizeof(other), "%s/" UPROF_CTL_SHM_PREFIX "%d", f->dir, PID + 1);
	write_page(other, PID + 1, 0);
	fake_process(f, PID + 1, getuid(), getuid(), getuid(), getuid());
	assert_int_equal(open_page(f, &bad.p, NULL), 0);
	assert_int_equal(smp_page_open_at(&good.p, f->dir, PID + 1, NULL, 7, NULL), 0);
	assert_int_equal(truncate(f->page, 0), 0);
	assert_int_equal(pthread_create(&t, NULL, read_page, &good), 0);
	read_page(&bad);
	pthread_join(t, NULL);
	assert_true(smp_page_faulted(bad.p));
	assert_false(smp_page_faulted(good.p));
	assert_int_equal(good.records, 1);
	smp_page_close(bad.p);
	smp_page_close(good.p);
}

/* A SIGBUS that is not a page's (another mapping of ours) still kills, as before the
 * guard was installed: the guard only catches what it guards. */
static void other_sigbus_still_kills(void **state)
{
	struct fixture *f = *state;
	struct smp_page *p;
	int status;
	pid_t child;

	write_page(f->page, PID, 0);
	fake_process(f, PID, getuid(), getuid(), getuid(), getuid());
	assert_int_equal(open_page(f, &p, NULL), 0); /* the handler is installed */
	smp_page_close(p);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char path[160];
		int fd;
		volatile unsigned char *m;

		/* the default action beneath the guard, as in collect (not cmocka's handler) */
		signal(SIGBUS, SIG_DFL);
		if (open_page(f, &p, NULL))
			_exit(4);
		snprintf(path, sizeof(path), "%s/other", f->dir);
		fd = open(path, O_RDWR | O_CREAT, 0600);
		if (fd < 0 || ftruncate(fd, 8192))
			_exit(2);
		m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED || ftruncate(fd, 0))
			_exit(3);
		m[4096] = 1; /* SIGBUS */
		_exit(0);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGBUS);
}

/* A page's token, peeked at without mapping it: what collect counts a page over the
 * bound by. A page not published yet has none; a link or a FIFO is not read at all. */
static void session_peeked(void **state)
{
	struct fixture *f = *state;
	unsigned char m[SIZE];
	char tok[64], other[160];
	FILE *fp;

	assert_int_equal(smp_page_peek_session(f->dir, PID, tok, sizeof(tok)), -ENOENT);
	fp = fopen(f->page, "w"); /* made, nothing in it yet */
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(smp_page_peek_session(f->dir, PID, tok, sizeof(tok)), -EAGAIN);
	memset(m, 0, sizeof(m));
	make_page(m, PID);
	snprintf(((struct uprof_ctl_header *)m)->session, UPROF_CTL_SESSION_MAX, "77.123");
	fp = fopen(f->page, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(m, 1, sizeof(m), fp), sizeof(m));
	fclose(fp);
	assert_int_equal(smp_page_peek_session(f->dir, PID, tok, sizeof(tok)), 0);
	assert_string_equal(tok, "77.123");
	snprintf(other, sizeof(other), "%s/" UPROF_CTL_SHM_PREFIX "%d", f->dir, PID + 1);
	assert_int_equal(symlink(f->page, other), 0);
	assert_int_equal(smp_page_peek_session(f->dir, PID + 1, tok, sizeof(tok)), -EPERM);
	unlink(other);
	assert_int_equal(mkfifo(other, 0600), 0);
	assert_int_equal(smp_page_peek_session(f->dir, PID + 1, tok, sizeof(tok)), -EPERM);
	unlink(other);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(own_page_taken, setup, teardown),
		cmocka_unit_test_setup_teardown(session_peeked, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_owner_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(no_process_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(gone_process_own_page_launch_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(not_regular_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(sizes_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(pid_mismatch_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(truncated_page_faults_softly, setup, teardown),
		cmocka_unit_test_setup_teardown(guards_are_per_thread, setup, teardown),
		cmocka_unit_test_setup_teardown(other_sigbus_still_kills, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
