// SPDX-License-Identifier: MIT
/*
 * Running processes, for attach: their threads, names and CPU time from procfs, and the
 * side-band records the kernel would have sent had we been there when they started
 * (COMM for each thread, MMAP2 for each executable mapping, and for each readable data
 * mapping when the attr asks for data mappings as --call-graph dwarf does), so report can
 * name and symbolize them and perf can read and unwind the file. procfs is read under pmc_procfs_root()
 * ($UPROF_PROCFS_ROOT for tests, else /proc).
 */
#include "sampler/internal.h"
#include "session/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *proc_root(void)
{
	return pmc_procfs_root(); /* the one procfs root of uprof (lib/pmc) */
}

int smp_proc_threads(pid_t pid, pid_t *tids, int max)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%d/task", proc_root(), (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long t = strtol(e->d_name, &end, 10);

		if (!*end && t > 0)
			tids[n++] = (pid_t)t;
	}
	closedir(d);
	return n;
}

int smp_proc_pids(pid_t *pids, int max)
{
	struct dirent *e;
	DIR *d = opendir(proc_root());
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long p = strtol(e->d_name, &end, 10);

		if (!*end && p > 0)
			pids[n++] = (pid_t)p;
	}
	closedir(d);
	return n;
}

/* The value of "Key:" in /proc/<tid>/status. */
static long status_field(pid_t tid, const char *key)
{
	char path[PATH_MAX], line[256];
	size_t klen = strlen(key);
	long v = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", proc_root(), (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':') {
			v = strtol(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

bool smp_proc_ended(pid_t pid)
{
	char path[PATH_MAX], line[64];
	bool ended = true;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", proc_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT || errno == ESRCH;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "State:", 6)) {
			ended = strchr(line + 6, 'Z') || strchr(line + 6, 'X');
			break;
		}
	fclose(f);
	return ended;
}

pid_t smp_proc_tgid(pid_t tid)
{
	return (pid_t)status_field(tid, "Tgid");
}

pid_t smp_proc_ppid(pid_t pid)
{
	return (pid_t)status_field(pid, "PPid");
}

int smp_proc_comm(pid_t tid, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%d/comm", proc_root(), (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -ESRCH;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int64_t smp_proc_cpu_ns(pid_t pid)
{
	char path[PATH_MAX], buf[1024];
	unsigned long long ut, st;
	int64_t ns = -ESRCH;
	char *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	/* the command name may hold spaces and parentheses: fields start after the last ')' */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2)
		ns = (int64_t)(ut + st) * (1000000000 / sysconf(_SC_CLK_TCK));
	fclose(f);
	return ns;
}

int smp_proc_cpu_split(pid_t pid, int64_t *user_ticks, int64_t *sys_ticks)
{
	unsigned long long ut, st, cut, cst;
	char path[PATH_MAX], buf[1024];
	int ret = -ESRCH;
	char *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &ut,
		   &st, &cut, &cst) == 4) {
		*user_ticks = (int64_t)(ut + cut);
		*sys_ticks = (int64_t)(st + cst);
		ret = 0;
	}
	fclose(f);
	return ret;
}

int64_t smp_proc_start_mono_ns(pid_t pid)
{
	char path[PATH_MAX], buf[1024];
	unsigned long long start;
	struct timespec mono, boot;
	int64_t ret = -ESRCH;
	char *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/stat", proc_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	/* field 22, starttime: clock ticks after boot (CLOCK_BOOTTIME, which also counts
	 * suspend); moved onto CLOCK_MONOTONIC by the clocks' current difference */
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 2,
		   "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
		   "%*d %*d %llu",
		   &start) == 1 &&
	    !clock_gettime(CLOCK_MONOTONIC, &mono) && !clock_gettime(CLOCK_BOOTTIME, &boot)) {
		int64_t boot_ns = (int64_t)start * (1000000000 / sysconf(_SC_CLK_TCK));
		int64_t diff = (boot.tv_sec - mono.tv_sec) * 1000000000LL + boot.tv_nsec -
			       mono.tv_nsec;

		ret = boot_ns - diff;
	}
	fclose(f);
	return ret;
}

/* ---- synthesized records: encoded by lib/session's codec ---- */

/* One record's worth: a path of PATH_MAX plus the fixed fields and the trailer. */
#define SYNTH_MAX (PATH_MAX + 256)

static int synth_comm(pid_t pid, pid_t tid, const struct perf_event_attr *attr, uint64_t id,
		      uint64_t time, smp_sink_fn sink, void *arg)
{
	unsigned char buf[256];
	char comm[64];
	struct ses_comm c = { .pid = (uint32_t)pid,
			      .tid = (uint32_t)tid,
			      .comm = comm,
			      .sid = { .pid = (uint32_t)pid,
				       .tid = (uint32_t)tid,
				       .time = time,
				       .id = id,
				       .valid = true } };
	int n;

	if (smp_proc_comm(tid, comm, sizeof(comm)))
		return 0; /* the thread is gone: nothing to name */
	c.comm_len = strlen(comm);
	n = ses_encode_comm(buf, sizeof(buf), attr, &c);
	return n < 0 ? n : sink(arg, buf, (size_t)n);
}

/*
 * One line of /proc/<pid>/maps as an MMAP2 record, if it maps code, or, when the attr has
 * mmap_data, if it is readable: what the kernel sends a launched process then. perf's
 * unwinder finds a binary's load base and its .eh_frame_hdr through the read-only
 * segments (-z separate-code puts them outside the code), so without them perf unwinds
 * nothing past the first frame of an attached process. Data mappings carry
 * PERF_RECORD_MISC_MMAP_DATA, as the kernel's do, so report keeps ignoring them.
 */
static int synth_map(pid_t pid, const char *line, const struct perf_event_attr *attr, uint64_t id,
		     uint64_t time, smp_sink_fn sink, void *arg)
{
	unsigned long long lo, hi, off, ino;
	unsigned int maj, min;
	char perms[8], *path;
	unsigned char buf[SYNTH_MAX];
	struct ses_mmap m;
	bool code;
	int pos = 0, n;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &lo, &hi, perms, &off, &maj, &min,
		   &ino, &pos) < 7 ||
	    strlen(perms) < 4 || hi <= lo)
		return 0;
	code = perms[2] == 'x';
	if (!code && !(attr->mmap_data && perms[0] == 'r'))
		return 0;
	path = (char *)line + pos;
	path[strcspn(path, "\n")] = 0;
	if (!*path)
		path = "//anon";
	if (strlen(path) >= PATH_MAX)
		return 0;
	m = (struct ses_mmap){
		.mmap2 = true,
		.misc = PERF_RECORD_MISC_USER | (code ? 0 : PERF_RECORD_MISC_MMAP_DATA),
		.pid = (uint32_t)pid,
		.tid = (uint32_t)pid,
		.start = lo,
		.len = hi - lo,
		.pgoff = off,
		.maj = maj,
		.min = min,
		.ino = ino,
		.prot = (code ? PROT_EXEC : 0) | (perms[0] == 'r' ? PROT_READ : 0) |
			(perms[1] == 'w' ? PROT_WRITE : 0),
		.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE,
		.filename = path,
		.filename_len = strlen(path),
		.sid = { .pid = (uint32_t)pid,
			 .tid = (uint32_t)pid,
			 .time = time,
			 .id = id,
			 .valid = true },
	};
	n = ses_encode_mmap(buf, sizeof(buf), attr, &m);
	return n < 0 ? n : sink(arg, buf, (size_t)n);
}

int smp_synth_process(pid_t pid, const pid_t *tids, int ntids, const struct perf_event_attr *attr,
		      uint64_t id, uint64_t time, smp_sink_fn sink, void *arg)
{
	char path[PATH_MAX], line[PATH_MAX + 256];
	int ret = 0;
	FILE *f;

	/* the process itself first: its COMM names the process in report */
	ret = synth_comm(pid, pid, attr, id, time, sink, arg);
	for (int i = 0; i < ntids && !ret; i++)
		if (tids[i] != pid)
			ret = synth_comm(pid, tids[i], attr, id, time, sink, arg);
	snprintf(path, sizeof(path), "%s/%d/maps", proc_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return ret ? ret : -ESRCH;
	while (!ret && fgets(line, sizeof(line), f))
		ret = synth_map(pid, line, attr, id, time, sink, arg);
	fclose(f);
	return ret;
}

int smp_synth_kernel(const struct perf_event_attr *attr, uint64_t id, uint64_t time,
		     smp_sink_fn sink, void *arg)
{
	char path[PATH_MAX], line[256];
	unsigned long long addr = 0, a;
	unsigned char buf[256];
	char type, name[128];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/kallsyms", proc_root());
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	for (int i = 0; i < 4096 && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %c %127s", &a, &type, name) == 3 &&
		    (!strcmp(name, "_text") || !strcmp(name, "_stext"))) {
			addr = a;
			break;
		}
	}
	fclose(f);
	if (!addr)
		return -ENOENT;
	n = ses_encode_kernel_map(buf, sizeof(buf), attr, addr, time, id);
	return n < 0 ? n : sink(arg, buf, (size_t)n);
}
