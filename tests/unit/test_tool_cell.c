// SPDX-License-Identifier: MIT
/* lib/tool: the worker's cell (sandbox.c) and the supervisor's clean-up (supervise.c), each
 * in a forked process of its own, as uprof uses them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tool/internal.h"

#define NO_LANDLOCK 100 /* the child's exit status on a kernel without Landlock */

static char dir[64];
static int own_dfd = -1;

static int setup(void **state)
{
	char path[128];
	int fd;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_tool_cell.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/report.csv", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write(fd, "base\n", 5) != 5)
		return -1;
	close(fd);
	snprintf(path, sizeof(path), "%s/own", dir);
	if (mkdir(path, 0700))
		return -1;
	own_dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return own_dfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	close(own_dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* Each check in the cell: the number of the first one that failed, as the exit status. */
static int in_cell(int writable_fd, int readonly_fd)
{
	const struct tool_limits lim = { .timeout_s = 60, .cpu_s = 10, .memory_mib = 256 };
	char path[128];
	struct rlimit rl;
	int ret = tool_sandbox_enter(&lim, own_dfd, NULL, 0), fd;

	if (ret == 0)
		return NO_LANDLOCK;
	if (ret < 0)
		return 1;
	/* report's writable fd is closed, its read-only one kept */
	if (fcntl(writable_fd, F_GETFD) != -1 || errno != EBADF)
		return 2;
	if (fcntl(readonly_fd, F_GETFD) == -1)
		return 3;
	/* the session: nothing written, truncated, removed, renamed or made */
	snprintf(path, sizeof(path), "%s/report.csv", dir);
	if (open(path, O_WRONLY) != -1 || errno != EACCES)
		return 4;
	if (truncate(path, 0) != -1 || errno != EACCES)
		return 5;
	if (unlink(path) != -1 || errno != EACCES)
		return 6;
	if (open(path, O_RDONLY) < 0) /* read it may */
		return 7;
	snprintf(path, sizeof(path), "%s/planted", dir);
	if (open(path, O_WRONLY | O_CREAT, 0600) != -1 || errno != EACCES)
		return 8;
	/* its own directory: plain files made, written, removed */
	fd = openat(own_dfd, "mine.txt", O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || write(fd, "x", 1) != 1 || close(fd) || unlinkat(own_dfd, "mine.txt", 0))
		return 9;
	if (mkdirat(own_dfd, "sub", 0700) != -1 || errno != EACCES) /* plain files only */
		return 10;
	/* the limits */
	if (getrlimit(RLIMIT_CPU, &rl) || rl.rlim_cur != 10 || rl.rlim_max != 11)
		return 11;
	if (getrlimit(RLIMIT_CORE, &rl) || rl.rlim_cur != 0)
		return 12;
	/* mmap, not malloc: a sanitizer's malloc aborts where glibc's returns NULL */
	if (mmap(NULL, 512u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) !=
		    MAP_FAILED ||
	    errno != ENOMEM) /* more than the 256 MiB on top of what it had */
		return 13;
	if (mmap(NULL, 64u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) ==
	    MAP_FAILED) /* less is fine */
		return 14;
	/* no signal out of the domain (Landlock ABI 6) */
	if (ret >= 6 && (kill(getppid(), 0) != -1 || errno != EPERM))
		return 15;
	return 0;
}

static void the_cell_leaves_only_its_directory_writable(void **state)
{
	char path[128], buf[16] = "";
	int w, r, status;
	pid_t pid;

	(void)state;
	snprintf(path, sizeof(path), "%s/report.csv", dir);
	w = open(path, O_WRONLY | O_APPEND);
	r = open(path, O_RDONLY);
	assert_true(w >= 0 && r >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid)
		_exit(in_cell(w, r));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(w);
	close(r);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == NO_LANDLOCK)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0); /* else: the number of the check failed */
	r = open(path, O_RDONLY);
	assert_true(r >= 0);
	assert_int_equal(read(r, buf, sizeof(buf)), 5);
	close(r);
	assert_string_equal(buf, "base\n");
}

/* ---- the supervisor ---- */

/* A worker that leaves a grandchild in a session of its own (its pid into @fd), ignoring
 * SIGTERM and SIGHUP; then ends, or with @hang sleeps. */
static _Noreturn void escaping_worker(int fd, bool hang)
{
	pid_t mid = fork();

	if (!mid) {
		pid_t g;

		setsid();
		g = fork();
		if (!g) {
			signal(SIGTERM, SIG_IGN);
			signal(SIGHUP, SIG_IGN);
			for (;;)
				pause();
		}
		(void)!write(fd, &g, sizeof(g));
		_exit(0);
	}
	waitpid(mid, NULL, 0);
	while (hang)
		pause();
	_exit(0);
}

/* As child.c's supervisor: subreaper, the worker forked, tool_supervise, the verdict and
 * the grandchild's pid back through pipes. */
static void supervise(bool hang, double timeout_s, struct tool_verdict *v, pid_t *grandchild)
{
	int g[2], out[2], status;
	pid_t pid;

	assert_int_equal(pipe(g), 0);
	assert_int_equal(pipe(out), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct tool_verdict mine;
		pid_t w;

		prctl(PR_SET_CHILD_SUBREAPER, 1);
		w = fork();
		if (!w)
			escaping_worker(g[1], hang);
		tool_supervise(w, timeout_s, &mine);
		(void)!write(out[1], &mine, sizeof(mine));
		_exit(0);
	}
	assert_int_equal(read(g[0], grandchild, sizeof(*grandchild)), sizeof(*grandchild));
	assert_int_equal(read(out[0], v, sizeof(*v)), sizeof(*v));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	close(g[0]), close(g[1]), close(out[0]), close(out[1]);
}

static void the_escaped_grandchild_is_ended(void **state)
{
	struct tool_verdict v;
	pid_t g;

	(void)state;
	supervise(false, 60, &v, &g);
	assert_false(v.timed_out);
	assert_true(WIFEXITED(v.status) && WEXITSTATUS(v.status) == 0);
	assert_int_equal(v.left, 1);
	/* killed and reaped by the supervisor: no such process any more */
	assert_int_equal(kill(g, 0), -1);
	assert_int_equal(errno, ESRCH);
}

static void a_worker_past_its_time_is_killed_with_its_tree(void **state)
{
	struct tool_verdict v;
	pid_t g;

	(void)state;
	supervise(true, 0.2, &v, &g);
	assert_true(v.timed_out);
	assert_true(WIFSIGNALED(v.status) && WTERMSIG(v.status) == SIGKILL);
	assert_int_equal(v.left, 1);
	assert_int_equal(kill(g, 0), -1);
	assert_int_equal(errno, ESRCH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_cell_leaves_only_its_directory_writable),
		cmocka_unit_test(the_escaped_grandchild_is_ended),
		cmocka_unit_test(a_worker_past_its_time_is_killed_with_its_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
