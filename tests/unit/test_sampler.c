// SPDX-License-Identifier: MIT
/*
 * lib/sampler: the online CPUs, the ring reader on a hand-made ring (wrap-around, lost
 * records, a failing sink), the start gate and exec errors, and a live run of the real
 * cpu-clock event on a real child (software events: no PMU needed).
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "sampler/internal.h"
#include "session/session.h"

static void test_online_cpus_from_fake_sysfs(void **state)
{
	char root[] = "/tmp/uprof-sysfs.XXXXXX", path[256];
	int cpus[8];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/devices/system/cpu", root);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
		assert_int_equal(system(cmd), 0);
	}
	strcat(path, "/online");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("2-3\n", f);
	fclose(f);
	setenv("UPROF_SYSFS_ROOT", root, 1);
	assert_int_equal(smp_online_cpus(cpus, 8), 2);
	assert_int_equal(cpus[0], 2);
	assert_int_equal(cpus[1], 3);
	/* lib/pmc's parser and limit: the same answers as pmc_cpus_parse */
	static const struct {
		const char *list;
		int ret;
	} cases[] = { { "0-3,8,10-11\n", 7 }, { "0-20", -E2BIG }, { "3-1", -EINVAL },
		      { "1,,2", -EINVAL }, { "", -EINVAL }, { "4096", -EINVAL },
		      { "4095", 1 } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(cases[i].list, f);
		fclose(f);
		assert_int_equal(smp_online_cpus(cpus, 8), cases[i].ret);
	}
	assert_int_equal(cpus[0], 4095);
	unsetenv("UPROF_SYSFS_ROOT");
	unlink(path);
	assert_true(smp_online_cpus(cpus, 8) >= 1);
}

/* ---- a hand-made ring ---- */

struct fake_ring {
	struct perf_event_mmap_page page;
	unsigned char data[256];
};

struct captured {
	unsigned char buf[4096];
	size_t len;
	int calls;
	int fail_at; /* fail the Nth call (1-based), 0 = never */
};

static int capture(void *arg, const void *records, size_t len)
{
	struct captured *c = arg;

	if (++c->calls == c->fail_at)
		return -ENOSPC;
	memcpy(c->buf + c->len, records, len);
	c->len += len;
	return 0;
}

/* Put a record of @size bytes with @type at ring position @pos (absolute). */
static void put_record(struct fake_ring *fr, uint64_t pos, uint32_t type, uint16_t size,
		       unsigned char fill)
{
	unsigned char rec[128];
	struct perf_event_header h = { type, 0, size };

	memset(rec, fill, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	if (type == PERF_RECORD_LOST) {
		uint64_t lost = 5;

		memcpy(rec + 16, &lost, 8);
	}
	for (uint16_t i = 0; i < size; i++)
		fr->data[(pos + i) % sizeof(fr->data)] = rec[i];
}

static void ring_init(struct smp_ring *r, struct fake_ring *fr)
{
	memset(fr, 0, sizeof(*fr));
	r->page = &fr->page;
	r->data = fr->data;
	r->data_size = sizeof(fr->data);
}

static void test_ring_wraps_and_counts(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { .len = 0 };
	unsigned char bounce[65536];
	long n;

	(void)state;
	ring_init(&r, &fr);
	/* start near the end so the second record wraps */
	fr.page.data_tail = 200;
	put_record(&fr, 200, PERF_RECORD_SAMPLE, 48, 0xa1);
	put_record(&fr, 248, PERF_RECORD_SAMPLE, 48, 0xa2); /* 248..295 wraps at 256 */
	put_record(&fr, 296, PERF_RECORD_LOST, 32, 0xa3);
	fr.page.data_head = 328;
	n = smp_ring_drain(&r, &st, bounce, capture, &c);
	assert_int_equal(n, 128);
	assert_int_equal(c.len, 128);
	assert_int_equal(fr.page.data_tail, 328);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 5);
	/* the wrapped record came out whole */
	assert_int_equal(c.buf[48 + 8], 0xa2);
	assert_int_equal(c.buf[48 + 47], 0xa2);
	assert_int_equal(c.buf[96 + 8], 0xa3);
	/* nothing new: nothing drained */
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), 0);
}

static void test_ring_sink_failure_keeps_unsent(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { .fail_at = 2 };
	unsigned char bounce[65536];

	(void)state;
	ring_init(&r, &fr);
	fr.page.data_tail = 200;
	put_record(&fr, 200, PERF_RECORD_SAMPLE, 48, 1);
	put_record(&fr, 248, PERF_RECORD_SAMPLE, 48, 2); /* wraps: flushes the run first */
	fr.page.data_head = 296;
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), -ENOSPC);
	/* the first record went out, the second did not and stays in the ring */
	assert_int_equal(fr.page.data_tail, 248);
}

/* A record ending exactly at the ring's end, then one at its start: two pieces. The
 * reader once sent them as one run, and the second record's bytes came from past the
 * ring's end (samples.data damaged under load with --call-graph dwarf's large records). */
static void test_ring_record_ending_at_the_end(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { .len = 0 };
	unsigned char bounce[65536];

	(void)state;
	ring_init(&r, &fr);
	fr.page.data_tail = 208;
	put_record(&fr, 208, PERF_RECORD_SAMPLE, 48, 0xb1); /* 208..255: ends at the end */
	put_record(&fr, 256, PERF_RECORD_SAMPLE, 40, 0xb2); /* at offset 0 */
	put_record(&fr, 296, PERF_RECORD_SAMPLE, 24, 0xb3);
	fr.page.data_head = 320;
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), 112);
	assert_int_equal(c.len, 112);
	assert_int_equal(c.calls, 2);
	assert_int_equal(st.samples, 3);
	assert_int_equal(c.buf[48 + 8], 0xb2);
	assert_int_equal(c.buf[48 + 39], 0xb2);
	assert_int_equal(c.buf[88 + 8], 0xb3);
	assert_int_equal(fr.page.data_tail, 320);
}

/* Two contiguous records, the sink refuses them: both stay, nothing is counted. */
static void test_ring_failing_sink_keeps_contiguous_run(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { .fail_at = 1 };
	unsigned char bounce[65536];

	(void)state;
	ring_init(&r, &fr);
	put_record(&fr, 0, PERF_RECORD_SAMPLE, 48, 1);
	put_record(&fr, 48, PERF_RECORD_LOST, 48, 2);
	fr.page.data_head = 96;
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), -ENOSPC);
	assert_int_equal(fr.page.data_tail, 0);
	assert_int_equal(c.len, 0);
	assert_int_equal(st.samples, 0);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.bytes, 0);
	/* the next drain, with a sink that takes them, delivers both once */
	c.fail_at = 0;
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), 96);
	assert_int_equal(fr.page.data_tail, 96);
	assert_int_equal(c.len, 96);
	assert_int_equal(c.buf[8], 1);
	assert_int_equal(c.buf[48 + 24], 2);
	assert_int_equal(st.samples, 1);
	assert_int_equal(st.lost, 5);
	assert_int_equal(st.bytes, 96);
}

/* A run delivered, a wrapped record delivered, then a run refused: only the refused run
 * stays, and only what went out is counted. */
static void test_ring_failing_sink_keeps_second_run(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { .fail_at = 3 };
	unsigned char bounce[65536];

	(void)state;
	ring_init(&r, &fr);
	fr.page.data_tail = 160;
	put_record(&fr, 160, PERF_RECORD_SAMPLE, 48, 1); /* run 1: 160..207 */
	put_record(&fr, 208, PERF_RECORD_SAMPLE, 64, 2); /* 208..271 wraps at 256 */
	put_record(&fr, 272, PERF_RECORD_SAMPLE, 48, 3); /* run 2: 272..367 */
	put_record(&fr, 320, PERF_RECORD_LOST, 48, 4);
	fr.page.data_head = 368;
	assert_int_equal(smp_ring_drain(&r, &st, bounce, capture, &c), -ENOSPC);
	assert_int_equal(c.calls, 3);
	assert_int_equal(fr.page.data_tail, 272);
	assert_int_equal(c.len, 112);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 0);
	assert_int_equal(st.bytes, 112);
}

static void test_ring_bad_size_drops_rest(void **state)
{
	struct fake_ring fr;
	struct smp_ring r;
	struct smp_stats st = { 0 };
	struct captured c = { 0 };
	unsigned char bounce[65536];

	(void)state;
	ring_init(&r, &fr);
	put_record(&fr, 0, PERF_RECORD_SAMPLE, 48, 1);
	put_record(&fr, 48, PERF_RECORD_SAMPLE, 4, 1); /* impossible size */
	fr.page.data_head = 100;
	assert_true(smp_ring_drain(&r, &st, bounce, capture, &c) >= 0);
	assert_int_equal(fr.page.data_tail, 100);
	assert_int_equal(c.len, 48);
}

/* ---- the gate and a live run ---- */

static void test_exec_error_comes_back(void **state)
{
	struct smp_child c;
	char *argv[] = { "/nonexistent/prog", NULL };
	const char *what;
	int status;

	(void)state;
	assert_int_equal(smp_child_spawn(&c, argv[0], argv, NULL), 0);
	assert_int_equal(smp_child_release(&c, &what), -ENOENT);
	assert_string_equal(what, "exec");
	assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
	assert_int_equal(WEXITSTATUS(status), 127);
}

static void test_chdir_error_comes_back(void **state)
{
	struct smp_child c;
	char *argv[] = { "/bin/true", NULL };
	const char *what;

	(void)state;
	assert_int_equal(smp_child_spawn(&c, argv[0], argv, "/nonexistent/dir"), 0);
	assert_int_equal(smp_child_release(&c, &what), -ENOENT);
	assert_string_equal(what, "chdir");
	waitpid(c.pid, NULL, 0);
}

static void test_abort_unreleased_child(void **state)
{
	struct smp_child c;
	char *argv[] = { "/bin/true", NULL };

	(void)state;
	assert_int_equal(smp_child_spawn(&c, argv[0], argv, NULL), 0);
	smp_child_abort(&c);
	assert_int_equal(c.pid, -1);
	smp_child_abort(&c); /* twice is fine */
}

static int count_bytes(void *arg, const void *records, size_t len)
{
	(void)records;
	*(size_t *)arg += len;
	return 0;
}

static void test_live_cpu_clock_on_child(void **state)
{
	struct perf_event_attr attr;
	struct smp_child c;
	struct smp *s = NULL;
	struct smp_stats st;
	char *argv[] = { "/bin/sh", "-c", "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", NULL };
	const char *what;
	size_t bytes = 0, nids;
	int failed, ret, status;

	(void)state;
	pmc_timer_attr(&attr, 100000, true);
	assert_int_equal(smp_child_spawn(&c, argv[0], argv, NULL), 0);
	ret = smp_open(&s, &attr, 1, c.pid, NULL, &failed);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOENT) {
		smp_child_abort(&c);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_non_null(smp_ids(s, 0, &nids));
	assert_true(nids >= 1);
	assert_int_equal(smp_child_release(&c, &what), 0);
	while (waitpid(c.pid, &status, WNOHANG) == 0) {
		usleep(10000);
		assert_true(smp_drain(s, count_bytes, &bytes) >= 0);
	}
	assert_true(smp_drain(s, count_bytes, &bytes) >= 0);
	smp_get_stats(s, &st);
	assert_true(st.samples > 10);
	assert_int_equal(st.bytes, bytes);
	assert_int_equal(smp_disable(s), 0);
	smp_close(s);
	smp_close(NULL);
}

/* lib/pmc's seam, replaced here (-Wl,--wrap): the sampler's opens go through it. */
static int seam_mode;	 /* 0: the real syscall */
static int seam_calls;
static uint64_t seam_build_id[4];

int __real_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				   int group_fd, unsigned long flags);
int __wrap_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				   int group_fd, unsigned long flags);
int __wrap_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				   int group_fd, unsigned long flags)
{
	if (!seam_mode)
		return __real_pmc_sys_perf_event_open(attr, pid, cpu, group_fd, flags);
	if (seam_calls < 4)
		seam_build_id[seam_calls] = attr->build_id;
	seam_calls++;
	if (seam_mode == EINVAL && attr->build_id)
		return -EINVAL; /* a kernel before 5.12 */
	return -seam_mode;
}

static void test_open_refused_by_the_seam(void **state)
{
	struct perf_event_attr attr[2];
	struct smp_opts o = { .cpus = (int[]){ 0 }, .ncpus = 1 };
	struct smp *s = (void *)1;
	int failed = -2;

	(void)state;
	pmc_timer_attr(&attr[0], 1000000, true);
	attr[1] = attr[0];
	seam_mode = EACCES, seam_calls = 0;
	assert_int_equal(smp_open(&s, attr, 2, getpid(), &o, &failed), -EACCES);
	seam_mode = 0;
	assert_null(s);
	assert_int_equal(failed, 0);
	assert_int_equal(seam_calls, 1); /* the first refusal ends it */
}

/* EINVAL with build_id set: retried once without it, and the answer to that is final. */
static void test_open_build_id_fallback(void **state)
{
	struct perf_event_attr attr;
	struct smp_opts o = { .cpus = (int[]){ 0 }, .ncpus = 1 };
	struct smp *s;
	int failed;

	(void)state;
	pmc_timer_attr(&attr, 1000000, true);
	attr.mmap2 = attr.build_id = 1;
	seam_mode = EINVAL, seam_calls = 0;
	assert_int_equal(smp_open(&s, &attr, 1, getpid(), &o, &failed), -EINVAL);
	seam_mode = 0;
	assert_int_equal(seam_calls, 2);
	assert_int_equal(seam_build_id[0], 1);
	assert_int_equal(seam_build_id[1], 0);
}

static void test_open_rejects_bad_pages(void **state)
{
	struct perf_event_attr attr;
	struct smp_opts o = { .mmap_pages = 3 };
	struct smp *s;
	int failed;

	(void)state;
	pmc_timer_attr(&attr, 1000000, true);
	assert_int_equal(smp_open(&s, &attr, 1, getpid(), &o, &failed), -EINVAL);
	assert_null(s);
}

static void test_vdso_save(void **state)
{
	char dir[] = "/tmp/uprof-vdso.XXXXXX", path[64];
	unsigned char magic[4];
	struct stat sb;
	int dfd, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	assert_int_equal(smp_vdso_save(dfd, "vdso.so"), 0);
	/* a new file of the session: a name already there is not written through */
	assert_int_equal(smp_vdso_save(dfd, "vdso.so"), -EEXIST);
	close(dfd);
	snprintf(path, sizeof(path), "%s/vdso.so", dir);
	assert_int_equal(stat(path, &sb), 0);
	assert_true(sb.st_size >= 4096);
	assert_int_equal(sb.st_mode & 07777, 0600);
	fd = open(path, 0);
	assert_int_equal(read(fd, magic, 4), 4);
	close(fd);
	assert_memory_equal(magic, "\177ELF", 4);
	unlink(path);
	rmdir(dir);
}

/* A process's start on CLOCK_MONOTONIC: a child forked now started now (to a clock tick). */
static void test_proc_start_time(void **state)
{
	struct timespec ts;
	int64_t before, after, started;
	pid_t pid;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	pid = fork();
	if (!pid) {
		pause();
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	after = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	started = smp_proc_start_mono_ns(pid);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	assert_true(started > before - 20000000 && started < after + 20000000);
	assert_true(smp_proc_start_mono_ns(getpid()) <= before);
	assert_true(smp_proc_start_mono_ns(pid) < 0); /* reaped: gone */
}

/* Every process in /proc: this one among them, and never more than asked for. */
static void test_proc_pids(void **state)
{
	pid_t pids[65536];
	int n = smp_proc_pids(pids, 65536), found = 0;

	(void)state;
	assert_true(n > 1);
	for (int i = 0; i < n; i++)
		found += pids[i] == getpid();
	assert_int_equal(found, 1);
	assert_int_equal(smp_proc_pids(pids, 1), 1);
}

/* ---- synthesized records, on a fake procfs, read back with lib/session's codec ---- */

static void write_file(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_synth_records_decode_with_the_attr(void **state)
{
	char root[] = "/tmp/uprof-proc.XXXXXX", cmd[300];
	/* the tracking attr as collect opens it, and one of another trailer layout */
	struct perf_event_attr a, b;
	const struct perf_event_attr *attrs[2] = { &a, &b };
	pid_t tids[2] = { 4242, 4243 };

	(void)state;
	assert_non_null(mkdtemp(root));
	write_file(root, "4242/comm", "server\n");
	write_file(root, "4243/comm", "a-very-long-thread-name\n");
	write_file(root, "4242/maps",
		   "00400000-00452000 r-xp 00001000 08:01 123456 /usr/bin/server\n"
		   "00652000-00653000 rw-p 00052000 08:01 123456 /usr/bin/server\n"
		   "7ffd1000-7ffd3000 r-xp 00000000 00:00 0 [vdso]\n");
	write_file(root, "kallsyms", "0000000000000000 A fixed_percpu_data\n"
				     "ffffffff81000000 T _text\n");
	setenv("UPROF_PROCFS_ROOT", root, 1);
	pmc_tracking_attr(&a);
	b = a;
	b.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID;
	for (int k = 0; k < 2; k++) {
		struct captured c = { .len = 0 };
		struct ses_decoded d[12];
		size_t off = 0;
		int n = 0;

		assert_int_equal(smp_synth_kernel(attrs[k], 77, 5, capture, &c), 0);
		assert_int_equal(smp_synth_process(4242, tids, 2, attrs[k], 77, 1000, capture, &c),
				 0);
		while (off < c.len) {
			assert_true(n < 12);
			assert_int_equal(ses_decode(attrs[k], c.buf + off, c.len - off, &d[n]), 0);
			off += d[n++].size;
		}
		assert_int_equal(off, c.len);
		/* kernel map, COMM of the process and of its other thread, two code maps */
		assert_int_equal(n, 5);
		assert_int_equal(d[0].type, PERF_RECORD_MMAP);
		assert_int_equal(ses_mmap_kind(&d[0].u.mmap), SES_MAP_KERNEL);
		assert_int_equal(d[0].u.mmap.start, 0xffffffff81000000ULL);
		assert_int_equal(d[0].u.mmap.sid.pid, UINT32_MAX);
		assert_int_equal(d[0].u.mmap.sid.time, 5);
		assert_int_equal(d[0].u.mmap.sid.id, 77);
		assert_int_equal(d[1].type, PERF_RECORD_COMM);
		assert_int_equal(d[1].u.comm.tid, 4242);
		assert_memory_equal(d[1].u.comm.comm, "server", 7);
		assert_int_equal(d[1].u.comm.sid.time, 1000);
		assert_int_equal(d[1].u.comm.sid.id, 77);
		assert_int_equal(d[2].u.comm.tid, 4243);
		assert_int_equal(d[2].u.comm.comm_len, 15); /* the kernel's TASK_COMM_LEN */
		assert_int_equal(d[2].u.comm.sid.tid, 4243);
		assert_int_equal(d[3].type, PERF_RECORD_MMAP2);
		assert_int_equal(d[3].u.mmap.start, 0x400000);
		assert_int_equal(d[3].u.mmap.len, 0x52000);
		assert_int_equal(d[3].u.mmap.pgoff, 0x1000);
		assert_int_equal(d[3].u.mmap.maj, 8);
		assert_int_equal(d[3].u.mmap.min, 1);
		assert_int_equal(d[3].u.mmap.ino, 123456);
		assert_int_equal(d[3].u.mmap.sid.pid, 4242);
		assert_int_equal(d[3].u.mmap.sid.time, 1000);
		assert_int_equal(d[3].u.mmap.sid.id, 77);
		assert_int_equal(ses_mmap_kind(&d[3].u.mmap), SES_MAP_FILE);
		assert_int_equal(ses_mmap_kind(&d[4].u.mmap), SES_MAP_VDSO);
		/* the trailer is the attr's: 32 bytes for both layouts here, different order */
		assert_int_equal(ses_sample_id_size(attrs[k]), 32);
	}
	unsetenv("UPROF_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* With mmap_data (--call-graph dwarf) the readable data mappings come too, marked as the
 * kernel marks them, so perf finds a separate-code binary's headers and unwinds; the
 * unreadable guard page and the code maps stay as they were. */
static void test_synth_data_maps_with_mmap_data(void **state)
{
	char root[] = "/tmp/uprof-proc.XXXXXX", cmd[300];
	struct perf_event_attr a;
	pid_t tid = 4242;

	(void)state;
	assert_non_null(mkdtemp(root));
	write_file(root, "4242/comm", "server\n");
	write_file(root, "4242/maps",
		   "00400000-00401000 r--p 00000000 08:01 123456 /usr/bin/server\n"
		   "00401000-00452000 r-xp 00001000 08:01 123456 /usr/bin/server\n"
		   "00452000-00460000 r--p 00052000 08:01 123456 /usr/bin/server\n"
		   "00660000-00661000 rw-p 00060000 08:01 123456 /usr/bin/server\n"
		   "7f0000000000-7f0000001000 ---p 00000000 00:00 0 \n"
		   "7f0000001000-7f0000003000 rw-p 00000000 00:00 0 \n"
		   "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]\n");
	setenv("UPROF_PROCFS_ROOT", root, 1);
	pmc_tracking_attr(&a);
	for (int data = 0; data < 2; data++) {
		struct captured c = { .len = 0 };
		struct ses_decoded d[12];
		size_t off = 0;
		int n = 0, ndata = 0;

		a.mmap_data = (unsigned)data;
		assert_int_equal(smp_synth_process(4242, &tid, 1, &a, 77, 1000, capture, &c), 0);
		while (off < c.len) {
			assert_true(n < 12);
			assert_int_equal(ses_decode(&a, c.buf + off, c.len - off, &d[n]), 0);
			off += d[n++].size;
		}
		/* COMM, then the maps in /proc's order */
		assert_int_equal(n, data ? 7 : 2);
		for (int i = 1; i < n; i++) {
			bool is_data = d[i].u.mmap.misc & PERF_RECORD_MISC_MMAP_DATA;

			assert_int_equal(is_data, !(d[i].u.mmap.prot & PROT_EXEC));
			ndata += is_data;
		}
		assert_int_equal(ndata, data ? 5 : 0);
		if (data) {
			assert_int_equal(d[1].u.mmap.start, 0x400000);
			assert_int_equal(d[1].u.mmap.pgoff, 0);
			assert_int_equal(d[1].u.mmap.prot, PROT_READ);
			assert_int_equal(d[4].u.mmap.prot, PROT_READ | PROT_WRITE);
			assert_memory_equal(d[5].u.mmap.filename, "//anon", 7);
			assert_memory_equal(d[6].u.mmap.filename, "[stack]", 8);
		}
	}
	unsetenv("UPROF_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* The processes come from lib/pmc's procfs root, the one UPROF_PROCFS_ROOT of uprof. */
static void test_proc_under_procfs_root(void **state)
{
	char root[] = "/tmp/uprof-procfs.XXXXXX", cmd[160];
	pid_t pids[8], tids[8];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/17/task/17 %s/17/task/18 %s/self", root, root,
		 root);
	assert_int_equal(system(cmd), 0);
	setenv("UPROF_PROCFS_ROOT", root, 1);
	assert_int_equal(smp_proc_pids(pids, 8), 1);
	assert_int_equal(pids[0], 17);
	assert_int_equal(smp_proc_threads(17, tids, 8), 2);
	assert_int_equal(tids[0] + tids[1], 35);
	assert_int_equal(smp_proc_threads(19, tids, 8), -ESRCH);
	unsetenv("UPROF_PROCFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

/* User and system ticks, each with the reaped children's, after a name with ") (" in it. */
static void test_proc_cpu_split(void **state)
{
	char root[] = "/tmp/uprof-procfs.XXXXXX", path[64];
	int64_t user = -1, sys = -1;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/23", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/23/stat", root);
	f = fopen(path, "w");
	assert_non_null(f);
	/* fields 14-17: utime stime cutime cstime */
	fprintf(f, "23 (a) (b) R 1 23 23 0 -1 4194304 100 0 0 0 700 300 40 60 20 0 1 0 5 0 0\n");
	fclose(f);
	setenv("UPROF_PROCFS_ROOT", root, 1);
	assert_int_equal(smp_proc_cpu_split(23, &user, &sys), 0);
	assert_int_equal(user, 740);
	assert_int_equal(sys, 360);
	assert_int_equal(smp_proc_cpu_split(24, &user, &sys), -ESRCH);
	unsetenv("UPROF_PROCFS_ROOT");
	unlink(path);
	snprintf(path, sizeof(path), "%s/23", root);
	rmdir(path);
	rmdir(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_online_cpus_from_fake_sysfs),
		cmocka_unit_test(test_ring_wraps_and_counts),
		cmocka_unit_test(test_ring_sink_failure_keeps_unsent),
		cmocka_unit_test(test_ring_failing_sink_keeps_contiguous_run),
		cmocka_unit_test(test_ring_record_ending_at_the_end),
		cmocka_unit_test(test_ring_failing_sink_keeps_second_run),
		cmocka_unit_test(test_ring_bad_size_drops_rest),
		cmocka_unit_test(test_exec_error_comes_back),
		cmocka_unit_test(test_chdir_error_comes_back),
		cmocka_unit_test(test_abort_unreleased_child),
		cmocka_unit_test(test_live_cpu_clock_on_child),
		cmocka_unit_test(test_open_rejects_bad_pages),
		cmocka_unit_test(test_open_refused_by_the_seam),
		cmocka_unit_test(test_open_build_id_fallback),
		cmocka_unit_test(test_vdso_save),
		cmocka_unit_test(test_proc_start_time),
		cmocka_unit_test(test_proc_pids),
		cmocka_unit_test(test_synth_records_decode_with_the_attr),
		cmocka_unit_test(test_synth_data_maps_with_mmap_data),
		cmocka_unit_test(test_proc_under_procfs_root),
		cmocka_unit_test(test_proc_cpu_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
