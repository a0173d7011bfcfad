// SPDX-License-Identifier: MIT
/*
 * The MPI family of an interpreter's MPI (launcher.h). python3 links no libmpi: mpi4py's
 * extension module (mpi4py/MPI.<abi>.so) does, and the interpreter loads it only when the
 * script imports it. Which modules a script imports is not knowable before it runs (an
 * import may be computed, or sit in another module), so the interpreter itself is asked
 * where its mpi4py.MPI would come from (importlib's find_spec: mpi4py's __init__ runs, MPI
 * is neither loaded nor initialised), and that file's libraries tell the family, as a
 * program's do (family.c).
 */
#include "launcher/launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* An interpreter starts in ~50 ms on a quiet machine; measured 0.7-1.1 s here with 2 CPUs
 * busy, and every rank of a job asks at once: 10 s before its answer is given up */
#define ASK_TIMEOUT_MS 10000

static const char ask[] = "import importlib.util as u\n"
			  "s = u.find_spec('mpi4py.MPI')\n"
			  "print(s.origin if s and s.origin else '')\n";

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Read what @fd gives into @buf (@size, NUL-terminated) until EOF or @deadline_ms. */
static void read_until(int fd, char *buf, size_t size, int64_t deadline_ms)
{
	size_t n = 0;

	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int64_t left = deadline_ms - now_ms();
		ssize_t r;

		if (left <= 0 || n + 1 >= size)
			break;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		r = read(fd, buf + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
}

/* The path of @python's mpi4py.MPI extension into @out, "" when it has none (or did not
 * say within ASK_TIMEOUT_MS: then it is killed). */
static void ask_mpi4py(const char *python, char *out, size_t size)
{
	int fds[2], status;
	pid_t pid;

	out[0] = 0;
	if (pipe2(fds, O_CLOEXEC))
		return;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 0), dup2(null, 2);
		execl(python, python, "-c", ask, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	if (pid > 0) {
		read_until(fds[0], out, size, now_ms() + ASK_TIMEOUT_MS);
		kill(pid, SIGKILL); /* gone already, or too slow: either way, done */
		waitpid(pid, &status, 0);
	}
	close(fds[0]);
	out[strcspn(out, "\n")] = 0;
	if (out[0] != '/') /* an answer that is no file name: none */
		out[0] = 0;
}

int launcher_mpi_family_interp(const char *prog, char *lib, size_t len, char *module, size_t modlen)
{
	char ext[PATH_MAX];
	int family;

	if (module && modlen)
		module[0] = 0;
	ask_mpi4py(prog, ext, sizeof(ext));
	if (!ext[0])
		return 0;
	family = launcher_mpi_family(ext, lib, len);
	if (family && module && modlen)
		snprintf(module, modlen, "%s", ext);
	return family;
}
