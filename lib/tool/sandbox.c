// SPDX-License-Identifier: MIT
/*
 * The tool's cell, entered by the worker process (child.c) before the tool is loaded:
 * resource limits, no inherited fd it could write through, and a Landlock domain in which
 * the whole file system is read-only but the tool's own directory (tools/.run-XXXXXX,
 * kept as tools/<name>/), and no signal reaches a process outside (uprof, the supervisor).
 * uprof usually runs as root, so permissions alone would stop nothing: Landlock is the
 * kernel's unprivileged sandbox (5.13+) and works for root as for anyone. On a kernel
 * without it the tool reaches the session only through the fds opened for it, but
 * nothing stops it opening paths: tool_sandbox_enter says which of the two it got.
 */
#include "tool/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The rights and the attribute's fields of later ABI versions than the system header may
 * know: the kernel's values (include/uapi/linux/landlock.h). */
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#define FS_TRUNCATE (1ULL << 14)	       /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15)	       /* ABI 5 */
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)	       /* ABI 6 */

struct ruleset_attr { /* landlock_ruleset_attr as of ABI 6; its size says which fields */
	uint64_t handled_access_fs;
	uint64_t handled_access_net; /* ABI 4 */
	uint64_t scoped;	     /* ABI 6 */
};

#define FS_READ \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* what the tool may do in its own directory: plain files, made, written, removed */
#define FS_OWN \
	(FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_MAKE_REG | \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE)

/* Every file-system right the kernel of ABI @abi knows (each is denied unless a rule
 * grants it). */
static uint64_t handled_fs(int abi)
{
	uint64_t fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1; /* ABI 1: bits 0-12 */

	if (abi >= 2)
		fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		fs |= FS_TRUNCATE;
	if (abi >= 5)
		fs |= FS_IOCTL_DEV;
	return fs;
}

static int add_rule(int ruleset, int dirfd, uint64_t allowed)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = allowed, .parent_fd = dirfd };

	return syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) ? -errno
											   : 0;
}

/* The domain: "/" readable, @files_dfd (-1: none) the tool's, /dev/null writable. Returns
 * the ABI version in force (> 0), 0 on a kernel without Landlock, or -errno. */
static int landlock(int files_dfd)
{
	struct ruleset_attr attr = { 0 };
	size_t size = sizeof(attr.handled_access_fs);
	int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			       LANDLOCK_CREATE_RULESET_VERSION);
	int rs, root = -1, null = -1, ret;

	if (abi < 0)
		return errno == ENOSYS || errno == EOPNOTSUPP ? 0 : -errno;
	attr.handled_access_fs = handled_fs(abi);
	if (abi >= 6) { /* no kill() of uprof or the supervisor, no abstract socket outside */
		attr.scoped = SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET;
		size = sizeof(attr);
	}
	rs = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (rs < 0)
		return -errno;
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	null = open("/dev/null", O_PATH | O_CLOEXEC);
	ret = root < 0 ? -errno : add_rule(rs, root, FS_READ | (abi >= 5 ? FS_IOCTL_DEV : 0));
	if (!ret && null >= 0)
		ret = add_rule(rs, null,
			       LANDLOCK_ACCESS_FS_WRITE_FILE | (abi >= 3 ? FS_TRUNCATE : 0));
	if (!ret && files_dfd >= 0)
		ret = add_rule(rs, files_dfd, FS_OWN | (abi >= 3 ? FS_TRUNCATE : 0));
	if (!ret && syscall(SYS_landlock_restrict_self, rs, 0))
		ret = -errno;
	if (root >= 0)
		close(root);
	if (null >= 0)
		close(null);
	close(rs);
	return ret ? ret : abi;
}

static bool kept(int fd, const int *keep, int nkeep)
{
	for (int i = 0; i < nkeep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* Close every fd above stderr not in @keep that is open for writing: a copy of report's
 * own (report.csv being written, a session file) is no way around the domain. Read-only
 * ones stay: the report model may read through them (a module's ELF file). */
static int close_writable(const int *keep, int nkeep)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int self;

	if (!d)
		return -errno;
	self = dirfd(d);
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name), fl;

		if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd <= STDERR_FILENO || fd == self ||
		    kept(fd, keep, nkeep))
			continue;
		fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY)
			close(fd);
	}
	closedir(d);
	return 0;
}

/* The address space in use now, in bytes (the report model the worker shares). */
static uint64_t vm_size(void)
{
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static int limit(int what, rlim_t soft, rlim_t hard)
{
	struct rlimit rl = { soft, hard };

	return setrlimit(what, &rl) ? -errno : 0;
}

int tool_sandbox_enter(const struct tool_limits *lim, int files_dfd, const int *keep, int nkeep)
{
	int ret = 0;

	/* a crash dumps no core of uprof's memory (the whole report model) anywhere */
	ret = limit(RLIMIT_CORE, 0, 0);
	/* SIGXCPU at the limit, SIGKILL a second later if it is caught */
	if (!ret && lim->cpu_s > 0)
		ret = limit(RLIMIT_CPU, (rlim_t)(lim->cpu_s + 0.999),
			    (rlim_t)(lim->cpu_s + 0.999) + 1);
	/* on top of what the worker shares with report: the tool's own allocations */
	if (!ret && lim->memory_mib) {
		rlim_t as = vm_size() + (rlim_t)lim->memory_mib * 1024 * 1024;

		ret = limit(RLIMIT_AS, as, as);
	}
	if (!ret)
		ret = close_writable(keep, nkeep);
	/* Landlock's condition for an unprivileged domain, and no setuid program run by the
	 * tool gains what the domain denies */
	if (!ret && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		ret = -errno;
	return ret ? ret : landlock(files_dfd);
}
