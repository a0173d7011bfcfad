// SPDX-License-Identifier: MIT
/*
 * The launched target and its start gate. The child is forked first and blocks reading
 * a pipe, so the profiler can open events on its pid before it runs a single
 * instruction of the program; events are enable_on_exec, so nothing of uprof's own code
 * in the child is sampled. A CLOEXEC error pipe tells the parent whether exec worked:
 * EOF means it did, four bytes carry the errno of a failed chdir or exec.
 */
#include "sampler/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { STAGE_CHDIR = 1, STAGE_EXEC = 2 };

static void child_fail(int fd, int stage, int err)
{
	int32_t msg[2] = { stage, err };

	(void)!write(fd, msg, sizeof(msg));
	_exit(127);
}

static void child_main(int gate, int errfd, const char *path, char *const argv[],
		       const char *workdir)
{
	sigset_t none;
	char c;
	ssize_t n;

	/* undo what the profiler may set up for itself */
	for (int sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	do
		n = read(gate, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* the profiler went away before releasing us */
	close(gate);
	if (workdir && chdir(workdir))
		child_fail(errfd, STAGE_CHDIR, errno);
	execv(path, argv);
	child_fail(errfd, STAGE_EXEC, errno);
}

int smp_child_spawn(struct smp_child *c, const char *path, char *const argv[], const char *workdir)
{
	int gate[2], errp[2];
	pid_t pid;

	c->pid = -1;
	c->gate_fd = c->error_fd = -1;
	if (pipe2(gate, O_CLOEXEC))
		return -errno;
	if (pipe2(errp, O_CLOEXEC)) {
		int e = errno;

		close(gate[0]);
		close(gate[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(gate[0]), close(gate[1]), close(errp[0]), close(errp[1]);
		return -e;
	}
	if (pid == 0) {
		close(gate[1]);
		close(errp[0]);
		child_main(gate[0], errp[1], path, argv, workdir);
	}
	close(gate[0]);
	close(errp[1]);
	c->pid = pid;
	c->gate_fd = gate[1];
	c->error_fd = errp[0];
	return 0;
}

int smp_child_release(struct smp_child *c, const char **what)
{
	int32_t msg[2] = { 0, 0 };
	ssize_t n;
	char go = 1;
	int ret = 0;

	*what = NULL;
	do
		n = write(c->gate_fd, &go, 1);
	while (n < 0 && errno == EINTR);
	close(c->gate_fd);
	c->gate_fd = -1;
	if (n != 1)
		ret = -EPIPE;
	do
		n = read(c->error_fd, msg, sizeof(msg));
	while (n < 0 && errno == EINTR);
	close(c->error_fd);
	c->error_fd = -1;
	if (!ret && n == (ssize_t)sizeof(msg)) {
		*what = msg[0] == STAGE_CHDIR ? "chdir" : "exec";
		ret = msg[1] > 0 ? -msg[1] : -EIO;
	}
	return ret;
}

void smp_child_abort(struct smp_child *c)
{
	if (c->gate_fd >= 0)
		close(c->gate_fd);
	if (c->error_fd >= 0)
		close(c->error_fd);
	c->gate_fd = c->error_fd = -1;
	if (c->pid > 0) {
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		c->pid = -1;
	}
}
