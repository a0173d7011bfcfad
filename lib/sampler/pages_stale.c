// SPDX-License-Identifier: MIT
/*
 * Named control pages of dead processes (docs/DESIGN.md §5): a process SIGKILLed, or one
 * whose collect was killed first and that was killed after it, leaves /dev/shm/uprof.<pid>
 * behind, 2 MiB of memory each, for good; every later collect would open and map each one
 * at start (issue 27: 365 of them tripled the fixed cost of `collect /bin/true`). At each
 * collect's start the files of our own uid whose process is gone, or whose pid a process
 * younger than the file has now, are removed: one readdir and a stat each, nothing
 * opened or mapped. Another uid's files are not ours to judge.
 */
#include "sampler/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The start time of a process is kept in clock ticks (10 ms), the file's times in ns:
 * a page counts as older than its process only past this. */
#define SLACK_NS 50000000LL

static int name_pid(const char *name)
{
	size_t plen = strlen(UPROF_CTL_SHM_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, UPROF_CTL_SHM_PREFIX, plen) || !name[plen])
		return -1;
	pid = strtol(name + plen, &end, 10);
	return *end || pid <= 0 || pid > 0x7fffffff ? -1 : (int)pid;
}

/* CLOCK_REALTIME @t on CLOCK_MONOTONIC, by the clocks' current difference. */
static int64_t real_to_mono(const struct timespec *t)
{
	struct timespec r, m;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	return (int64_t)(t->tv_sec - r.tv_sec + m.tv_sec) * 1000000000LL + t->tv_nsec - r.tv_nsec +
	       m.tv_nsec;
}

/* Is the page of @pid, made at @made (its ctime), a dead process's? */
static bool stale(int pid, const struct timespec *made)
{
	int64_t started;

	if (kill(pid, 0) && errno == ESRCH)
		return true;
	/* a process now has the pid: the page is its own unless it is older than it */
	started = smp_proc_start_mono_ns(pid);
	return started > 0 && real_to_mono(made) + SLACK_NS < started;
}

uint64_t smp_pages_remove_stale(const char *dir, uint32_t uid)
{
	uint64_t removed = 0;
	struct dirent *e;
	DIR *d;
	int dfd;

	d = opendir(dir ? dir : "/dev/shm");
	if (!d)
		return 0;
	dfd = dirfd(d);
	while ((e = readdir(d))) {
		int pid = name_pid(e->d_name);
		struct stat sb;

		if (pid <= 0 || fstatat(dfd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW))
			continue;
		/* ours and a plain file; /dev/shm is sticky: only ours could be removed */
		if (!S_ISREG(sb.st_mode) || sb.st_uid != uid || !stale(pid, &sb.st_ctim))
			continue;
		if (!unlinkat(dfd, e->d_name, 0))
			removed++;
	}
	closedir(d);
	return removed;
}
