// SPDX-License-Identifier: MIT
/*
 * The supervisor: a process between uprof and the tool's worker that is the subreaper
 * (PR_SET_CHILD_SUBREAPER) of everything the tool starts. A process the tool leaves,
 * even one that called setsid() or forked twice, is reparented to the supervisor when its
 * parent ends, never to init; so once the worker has ended (or was killed at the time
 * limit) the supervisor kills its children, reaps them, kills those reparented to it in
 * turn, until it has no child left. The whole tree is gone before uprof goes on.
 * A cgroup would do the same in one write (cgroup.kill), but needs a delegated cgroup v2
 * tree that uprof cannot count on (this machine has cgroup v1 only); /proc is always there.
 */
#include "tool/internal.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The parent of process @pid from /proc/<pid>/stat, or -1 (gone); a zombie's is -1 too
 * (already dead: reaped, not killed). The name in parentheses may hold anything, ") "
 * included: the fields start after the last ')'. */
static pid_t live_parent_of(const char *pid)
{
	char path[64], buf[512], *p, state = 0;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
	    sscanf(p + 1, " %c %d", &state, &ppid) != 2)
		ppid = -1;
	fclose(f);
	return state == 'Z' ? -1 : ppid;
}

/* SIGKILL every living child of ours; how many there were. */
static int kill_children(void)
{
	pid_t me = getpid();
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9' || live_parent_of(e->d_name) != me)
			continue;
		kill((pid_t)atoi(e->d_name), SIGKILL);
		n++;
	}
	if (d)
		closedir(d);
	return n;
}

/* End every process below us; the number of living ones killed. */
static int end_tree(void)
{
	int killed = 0;

	for (;;) {
		/* every living process below us has an ancestor that is our child (those
		 * between died and were reparented to us): no child, nothing left. The
		 * /proc walk (a read of every process's stat) only when there is one. */
		pid_t pid = waitpid(-1, NULL, __WALL | WNOHANG);

		if (pid > 0 || (pid < 0 && errno == EINTR))
			continue; /* a zombie reaped: its children are ours by now */
		if (pid < 0)
			return killed; /* ECHILD */
		killed += kill_children();
		while (waitpid(-1, NULL, __WALL) < 0 && errno == EINTR)
			;
	}
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until @worker ends (1), @ms pass (0) or uprof ends (-1). uprof's end comes as
 * SIGTERM, the supervisor's parent-death signal, blocked by the caller: taken from a
 * signalfd polled beside the worker's pidfd; without pidfd_open (before 5.3), a look
 * every 10 ms. */
static int ended_within(pid_t worker, int64_t ms)
{
	int64_t deadline = now_ms() + ms;
	int pfd = (int)syscall(SYS_pidfd_open, worker, 0);
	sigset_t term;
	bool ended = false, gone = false;
	int sfd;

	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sfd = signalfd(-1, &term, SFD_CLOEXEC | SFD_NONBLOCK);
	while (!ended) {
		int64_t left = deadline - now_ms();

		if (left <= 0)
			break;
		if (pfd >= 0) {
			struct pollfd p[2] = { { pfd, POLLIN, 0 }, { sfd, POLLIN, 0 } };

			if (poll(p, sfd >= 0 ? 2 : 1, left > 60000 ? 60000 : (int)left) < 0)
				continue;
			if (p[1].revents) {
				gone = true; /* uprof is gone: nothing waits for the tool */
				break;
			}
			ended = p[0].revents;
		} else {
			siginfo_t si = { 0 };

			ended = !waitid(P_PID, (id_t)worker, &si, WEXITED | WNOHANG | WNOWAIT) &&
				si.si_pid == worker;
			if (!ended &&
			    sigtimedwait(&term, NULL, &(struct timespec){ 0, 10 * 1000 * 1000 }) ==
				    SIGTERM)
				break;
		}
	}
	if (pfd >= 0)
		close(pfd);
	if (sfd >= 0)
		close(sfd);
	return ended ? 1 : gone ? -1 : 0;
}

void tool_supervise(pid_t worker, double timeout_s, struct tool_verdict *v)
{
	struct rusage ru;
	int status = 0;

	memset(v, 0, sizeof(*v));
	int ended = ended_within(worker, (int64_t)(timeout_s * 1000));

	if (ended <= 0) {
		v->timed_out = !ended;
		v->orphaned = ended < 0;
		kill(worker, SIGKILL);
	}
	while (wait4(worker, &status, 0, &ru) < 0 && errno == EINTR)
		;
	v->status = status;
	v->cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		   (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	v->maxrss_kib = ru.ru_maxrss;
	v->left = end_tree();
}
