// SPDX-License-Identifier: MIT
/*
 * swaptrace: a deterministic attacker for the directory-fd rule (docs/DESIGN.md §4).
 *
 *   swaptrace --count -- CMD...
 *   swaptrace --at K --dir D --victim V [--uid U] [--plant NAME]... -- CMD...
 *
 * Runs CMD under ptrace, with its threads (PTRACE_O_TRACECLONE) but not the processes it
 * starts (no TRACEFORK/TRACEVFORK: the profiled program runs untraced), and counts the
 * syscall-entry stops of the calls that name or change a file (open, mkdir, rename,
 * unlink, chmod, chown, symlink, link, truncate and their *at forms); with --dir D only
 * those that name something under D (a path under it, or a name relative to a directory
 * fd or working directory under it): a swap between two calls that touch D is the same as
 * a swap at the entry of the second. --count prints that number. --at K stops CMD at the K-th such entry and, before the call runs, does what
 * another user who can write D would do then: every entry of D not moved yet is renamed
 * to NAME.moved and a symlink NAME -> V put in its place; each --plant NAME also becomes a
 * symlink to V. The moves run as uid/gid U (--uid, e.g. 65534), as that user could. A
 * program that resolves a path again after the swap then reaches V; one that holds the
 * directory open does not. The tests (tests/e2e/race_collect.sh) then look at V.
 *
 * stderr gets one line "swaptrace: N file calls" (--count), or "swaptrace: at K: <call>,
 * M entries moved" when the swap happened; the exit status is CMD's (128 + signal).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PLANT 16
#define MAX_TIDS 4096

static const struct {
	long nr;
	const char *name;
} file_calls[] = {
#define C(x) { SYS_##x, #x }
#ifdef SYS_open
	C(open),
#endif
#ifdef SYS_creat
	C(creat),
#endif
#ifdef SYS_mkdir
	C(mkdir),
#endif
#ifdef SYS_rmdir
	C(rmdir),
#endif
#ifdef SYS_rename
	C(rename),
#endif
#ifdef SYS_unlink
	C(unlink),
#endif
#ifdef SYS_chmod
	C(chmod),
#endif
#ifdef SYS_chown
	C(chown),
#endif
#ifdef SYS_lchown
	C(lchown),
#endif
#ifdef SYS_symlink
	C(symlink),
#endif
#ifdef SYS_link
	C(link),
#endif
#ifdef SYS_openat2
	C(openat2),
#endif
#ifdef SYS_fchmodat2
	C(fchmodat2),
#endif
	C(openat),    C(mkdirat), C(renameat), C(renameat2), C(unlinkat),
	C(fchmodat),  C(fchmod),  C(fchown),   C(fchownat),  C(symlinkat),
	C(linkat),    C(truncate),
#undef C
};

static struct {
	bool count_only;
	long at;
	const char *dir, *victim;
	const char *plant[MAX_PLANT];
	int nplant;
	long uid; /* -1: the moves run as we do */
} opt = { .at = -1, .uid = -1 };

/* Where each call names a file: the argument index of a directory fd (-1: the working
 * directory, -2: none) and of the path (-1: none), for up to two names. */
struct names {
	int dfd[2], path[2];
};

static struct names names_of(long nr)
{
	struct names n = { { -2, -2 }, { -1, -1 } };

	if (nr == SYS_openat || nr == SYS_mkdirat || nr == SYS_unlinkat || nr == SYS_fchmodat ||
	    nr == SYS_fchownat
#ifdef SYS_openat2
	    || nr == SYS_openat2
#endif
#ifdef SYS_fchmodat2
	    || nr == SYS_fchmodat2
#endif
	) {
		n.dfd[0] = 0, n.path[0] = 1;
	} else if (nr == SYS_renameat || nr == SYS_renameat2 || nr == SYS_linkat) {
		n.dfd[0] = 0, n.path[0] = 1, n.dfd[1] = 2, n.path[1] = 3;
	} else if (nr == SYS_symlinkat) {
		n.dfd[0] = 1, n.path[0] = 2;
	} else if (nr == SYS_fchmod || nr == SYS_fchown) {
		n.dfd[0] = 0; /* the fd itself */
#if defined(SYS_rename) && defined(SYS_link)
	} else if (nr == SYS_rename || nr == SYS_link) {
		n.dfd[0] = n.dfd[1] = -1, n.path[0] = 0, n.path[1] = 1;
#endif
#ifdef SYS_symlink
	} else if (nr == SYS_symlink) {
		n.dfd[0] = -1, n.path[0] = 1;
#endif
	} else {
		n.dfd[0] = -1, n.path[0] = 0;
	}
	return n;
}

/* A NUL-terminated string of the tracee at @addr, read through /proc/<tid>/mem a page
 * piece at a time (a string may end just before an unmapped page). */
static bool read_string(pid_t tid, uint64_t addr, char *buf, size_t len)
{
	char mem[64];
	size_t got = 0;
	int fd;

	snprintf(mem, sizeof(mem), "/proc/%d/mem", (int)tid);
	fd = open(mem, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while (got < len - 1) {
		size_t room = 4096 - (size_t)((addr + got) & 4095);
		ssize_t n;

		if (room > len - 1 - got)
			room = len - 1 - got;
		n = pread(fd, buf + got, room, (off_t)(addr + got));
		if (n <= 0)
			break;
		if (memchr(buf + got, 0, (size_t)n)) {
			close(fd);
			return true;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = 0;
	return got > 0;
}

/* Is @path (as the tracee @tid names it, relative to fd @dfd or its cwd) under opt.dir? */
static bool under_dir(pid_t tid, long dfd, const char *path)
{
	char link[64], full[2 * PATH_MAX + 2];
	size_t dl = strlen(opt.dir);
	ssize_t n = 0;

	if (path && path[0] == '/') {
		snprintf(full, sizeof(full), "%s", path);
	} else {
		if (dfd == AT_FDCWD || dfd < 0)
			snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tid);
		else
			snprintf(link, sizeof(link), "/proc/%d/fd/%ld", (int)tid, dfd);
		n = readlink(link, full, PATH_MAX);
		if (n <= 0)
			return false;
		full[n] = 0;
		if (path && *path)
			snprintf(full + n, sizeof(full) - (size_t)n, "/%s", path);
	}
	return !strncmp(full, opt.dir, dl) && (full[dl] == '/' || !full[dl]);
}

/* Does the call @si of @tid name something under opt.dir (every call when there is none)? */
static bool touches_dir(pid_t tid, const struct __ptrace_syscall_info *si)
{
	struct names n = names_of((long)si->entry.nr);

	if (!opt.dir)
		return true;
	for (int i = 0; i < 2; i++) {
		char path[PATH_MAX];
		long dfd = n.dfd[i] >= 0 ? (long)(int)si->entry.args[n.dfd[i]] : AT_FDCWD;

		if (n.path[i] < 0 && n.dfd[i] < 0)
			continue;
		if (n.path[i] < 0) {
			if (under_dir(tid, dfd, NULL))
				return true;
			continue;
		}
		if (read_string(tid, si->entry.args[n.path[i]], path, sizeof(path)) &&
		    under_dir(tid, dfd, path))
			return true;
	}
	return false;
}

static const char *file_call(long nr)
{
	for (size_t i = 0; i < sizeof(file_calls) / sizeof(file_calls[0]); i++)
		if (file_calls[i].nr == nr)
			return file_calls[i].name;
	return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);

	return n >= k && !strcmp(s + n - k, tail);
}

/* The attacker's move, in D: run in a child as the other user; the number of entries
 * moved is its exit status (capped). */
static int attack(void)
{
	char from[PATH_MAX], to[PATH_MAX + 8];
	struct dirent *e;
	int moved = 0, status;
	pid_t pid = fork();
	DIR *d;

	if (pid < 0)
		return -1;
	if (pid > 0) {
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			return -1;
		return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
	}
	if (opt.uid >= 0 && (setgroups(0, NULL) || setresgid((gid_t)opt.uid, (gid_t)opt.uid,
							      (gid_t)opt.uid) ||
			     setresuid((uid_t)opt.uid, (uid_t)opt.uid, (uid_t)opt.uid)))
		_exit(255);
	d = opendir(opt.dir);
	if (!d)
		_exit(255);
	while ((e = readdir(d))) {
		struct stat sb;

		if (e->d_name[0] == '.' || ends_with(e->d_name, ".moved"))
			continue;
		snprintf(from, sizeof(from), "%s/%s", opt.dir, e->d_name);
		/* a symlink is one we put there before: moved already */
		if (lstat(from, &sb) || S_ISLNK(sb.st_mode))
			continue;
		snprintf(to, sizeof(to), "%s.moved", from);
		if (rename(from, to) || symlink(opt.victim, from))
			continue;
		moved++;
	}
	closedir(d);
	for (int i = 0; i < opt.nplant; i++) {
		snprintf(from, sizeof(from), "%s/%s", opt.dir, opt.plant[i]);
		symlink(opt.victim, from); /* EEXIST: planted or made already */
	}
	_exit(moved > 254 ? 254 : moved);
}

static int usage(void)
{
	fprintf(stderr, "usage: swaptrace --count [--dir D] -- CMD...\n"
			"       swaptrace --at K --dir D --victim V [--uid U] [--plant NAME]... "
			"-- CMD...\n");
	return 2;
}

static int parse(int argc, char **argv)
{
	int i = 1;

	for (; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--count")) {
			opt.count_only = true;
			continue;
		}
		if (!v)
			return -1;
		if (!strcmp(a, "--at"))
			opt.at = atol(v);
		else if (!strcmp(a, "--dir"))
			opt.dir = v;
		else if (!strcmp(a, "--victim"))
			opt.victim = v;
		else if (!strcmp(a, "--uid"))
			opt.uid = atol(v);
		else if (!strcmp(a, "--plant") && opt.nplant < MAX_PLANT)
			opt.plant[opt.nplant++] = v;
		else
			return -1;
		i++;
	}
	if (i + 1 >= argc)
		return -1;
	if (!opt.count_only && (opt.at < 1 || !opt.dir || !opt.victim))
		return -1;
	if (opt.dir) {
		/* compared with what the kernel says of fds and the cwd: symlinks resolved */
		static char real[PATH_MAX];

		if (!realpath(opt.dir, real))
			return -1;
		opt.dir = real;
	}
	return i + 1;
}

int main(int argc, char **argv)
{
	int first = parse(argc, argv), status, exit_code = 1;
	long count = 0;
	bool swapped = false;
	pid_t child, seen[MAX_TIDS];
	int nseen = 0;

	if (first < 0)
		return usage();
	child = fork();
	if (child < 0)
		return 1;
	if (!child) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execvp(argv[first], argv + first);
		fprintf(stderr, "swaptrace: cannot run %s: %s\n", argv[first], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		return 1;
	/* threads traced, processes not: the profiled program runs as it would */
	ptrace(PTRACE_SETOPTIONS, child, NULL,
	       (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC |
			      PTRACE_O_EXITKILL));
	seen[nseen++] = child;
	ptrace(PTRACE_SYSCALL, child, NULL, NULL);
	for (;;) {
		pid_t tid = waitpid(-1, &status, __WALL);
		int sig = 0;

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: every tracee gone */
		}
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == child)
				exit_code = WIFEXITED(status) ? WEXITSTATUS(status)
							      : 128 + WTERMSIG(status);
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
			struct __ptrace_syscall_info si;

			if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(si), &si) > 0 &&
			    si.op == PTRACE_SYSCALL_INFO_ENTRY && file_call((long)si.entry.nr) &&
			    touches_dir(tid, &si)) {
				count++;
				if (!opt.count_only && !swapped && count == opt.at) {
					int moved = attack();

					swapped = true;
					fprintf(stderr, "swaptrace: at %ld: %s, %d entries moved\n",
						count, file_call((long)si.entry.nr), moved);
				}
			}
		} else if (status >> 16) {
			/* a ptrace event (clone, exec): nothing to pass on */
		} else {
			bool known = false;

			for (int i = 0; i < nseen && !known; i++)
				known = seen[i] == tid;
			if (!known && WSTOPSIG(status) == SIGSTOP) {
				/* a new thread's first stop, from the auto-attach */
				if (nseen < MAX_TIDS)
					seen[nseen++] = tid;
			} else {
				sig = WSTOPSIG(status);
			}
		}
		ptrace(PTRACE_SYSCALL, tid, NULL, (void *)(long)sig);
	}
	if (opt.count_only)
		fprintf(stderr, "swaptrace: %ld file calls\n", count);
	else if (!swapped)
		fprintf(stderr, "swaptrace: at %ld: never reached (%ld file calls)\n", opt.at,
			count);
	return exit_code;
}
