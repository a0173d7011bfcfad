// SPDX-License-Identifier: MIT
/*
 * Where a tool runs: a forked child of uprof, never uprof itself. The child loads the
 * tool, does the work and writes one answer (a fixed struct) into a pipe; the parent
 * reads it within the time limit and then reaps the child. A signal, a hang (killed at
 * the limit), an exit without an answer: the tool failed, and only its own output is
 * lost. The fork is copy-on-write, so a child reads the whole report model in place.
 */
#include "tool/internal.h"
#include "report/report.h"
#include "session/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct answer {
	int ret;
	char err[1024];
	struct tool_info info;
};

struct job {
	const char *spec;
	bool collect;
	struct rpt *report; /* tool_run */
	FILE *sections;
	const char *session_dir;
	const char *files_dir;
};

/* The child's work: load, and with a report run the callbacks. */
static void child_work(const struct job *j, struct answer *a)
{
	struct tool_host h;

	tool_host_init(&h, j->spec, j->collect, &a->info);
	a->ret = tool_host_load(&h, j->spec, a->err, sizeof(a->err));
	if (!a->ret && j->report) {
		h.report = j->report;
		h.out = j->sections;
		snprintf(h.files_dir, sizeof(h.files_dir), "%s", j->files_dir ? j->files_dir : "");
		a->ret = tool_driver_run(&h, j->session_dir);
		if (a->ret)
			snprintf(a->err, sizeof(a->err), "tool '%s' (%s): %s", a->info.name, h.path,
				 h.error);
		else if (fflush(NULL)) /* h.out, and a tool's own files it left open */
			a->ret = -errno,
			snprintf(a->err, sizeof(a->err), "tool '%s': writing its sections: %s",
				 a->info.name, strerror(errno));
	}
	/* the dlopen'ed tool stays mapped: the child ends right after the answer */
}

static void write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Read the answer until EOF or @deadline; true when it came whole. */
static bool read_answer(int fd, struct answer *a, int64_t deadline, bool *timed_out)
{
	size_t got = 0;

	*timed_out = false;
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int64_t left = deadline - now_ms();
		ssize_t n;
		int pr;

		if (left <= 0) {
			*timed_out = true;
			return false;
		}
		pr = poll(&p, 1, left > 1000 ? 1000 : (int)left);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue;
		n = read(fd, (char *)a + got, got < sizeof(*a) ? sizeof(*a) - got : 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return got == sizeof(*a);
		if (got + (size_t)n > sizeof(*a))
			return false; /* more than an answer: not ours */
		got += (size_t)n;
		if (got ==
		    sizeof(*a)) /* whole: a process the tool left holding the pipe is no wait */
			return true;
	}
}

/* Run @j in a child bounded by @timeout_s; the answer in @a. 0 or -errno with a->err. */
static int in_child(const struct job *j, double timeout_s, struct answer *a)
{
	int what = (int)strcspn(j->spec, ","); /* the tool's path, without its knobs */
	int fds[2], status = 0;
	bool whole, timed_out;
	pid_t pid;

	memset(a, 0, sizeof(*a));
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(NULL); /* nothing buffered is written twice by the child's exit */
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (!pid) {
		static struct answer mine; /* the child's own copy */

		close(fds[0]);
		/* its own process group, ended with uprof: what the tool starts is ended with it */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGPIPE, SIG_IGN);
		/* a tool's crash is a crash of the child, said as such: no handler of ours
		 * (a sanitizer's, say) turns it into an exit */
		signal(SIGSEGV, SIG_DFL);
		signal(SIGBUS, SIG_DFL);
		signal(SIGFPE, SIG_DFL);
		signal(SIGILL, SIG_DFL);
		dup2(STDERR_FILENO, STDOUT_FILENO); /* a tool's printf never lands in the CSV */
		child_work(j, &mine);
		write_all(fds[1], &mine, sizeof(mine));
		_exit(0);
	}
	close(fds[1]);
	whole = read_answer(fds[0], a, now_ms() + (int64_t)(timeout_s * 1000), &timed_out);
	close(fds[0]);
	if (timed_out)
		kill(-pid, SIGKILL);
	/* ended but not reaped: its group id cannot be anyone else's yet */
	while (waitid(P_PID, (id_t)pid, &(siginfo_t){ 0 }, WEXITED | WNOWAIT) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL); /* anything the tool started and left running */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out) {
		snprintf(a->err, sizeof(a->err),
			 "tool %.*s: still running after %g s: stopped "
			 "(a hang? --tool-timeout sets the limit)",
			 what, j->spec, timeout_s);
		return -ETIMEDOUT;
	}
	if (WIFSIGNALED(status)) {
		snprintf(a->err, sizeof(a->err), "tool %.*s: crashed (%s)%s", what, j->spec,
			 strsignal(WTERMSIG(status)),
			 j->report ? "; report.csv holds the report without its sections" : "");
		return -ECHILD;
	}
	if (!whole || WEXITSTATUS(status)) {
		snprintf(a->err, sizeof(a->err),
			 "tool %.*s: exited (status %d) before it was done "
			 "(a tool must not call exit)",
			 what, j->spec, WEXITSTATUS(status));
		return -ECHILD;
	}
	return a->ret;
}

/* The child's message, or (a pipe or fork that failed) one of our own. */
static void say(char *err, size_t errlen, const struct answer *a, const char *spec, int ret)
{
	if (ret && !a->err[0])
		snprintf(err, errlen, "tool %.*s: %s", (int)strcspn(spec, ","), spec,
			 strerror(-ret));
	else
		snprintf(err, errlen, "%s", a->err);
}

int tool_probe(const char *spec, bool collect, double timeout_s, struct tool_info *info, char *err,
	       size_t errlen)
{
	struct job j = { .spec = spec, .collect = collect };
	struct answer *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	ret = in_child(&j, timeout_s, a);
	*info = a->info;
	say(err, errlen, a, spec, ret);
	free(a);
	return ret;
}

/* Remove @dir and the plain files in it (a tool's directory holds nothing else). */
static void remove_flat(const char *dir)
{
	char path[PATH_MAX + 256];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* Keep the files of a tool that succeeded: tools/<name>/, in place of an earlier run's. An
 * empty directory is not kept. 0 or -errno. */
static int keep_files(const char *tools, const char *tmp, const char *name)
{
	char dest[PATH_MAX + 128];

	snprintf(dest, sizeof(dest), "%s/%s", tools, name);
	remove_flat(dest); /* an earlier run's files are never mistaken for this one's */
	if (!rmdir(tmp))   /* nothing written */
		return 0;
	return rename(tmp, dest) ? -errno : 0;
}

int tool_run(const char *spec, struct rpt *r, const char *session_dir, FILE *sections,
	     double timeout_s, struct tool_info *info, char *err, size_t errlen)
{
	char tools[PATH_MAX], tmp[PATH_MAX + 32];
	struct job j = { .spec = spec,
			 .report = r,
			 .sections = sections,
			 .session_dir = session_dir };
	struct answer *a = calloc(1, sizeof(*a));
	int ret, mk;

	if (!a)
		return -ENOMEM;
	snprintf(tools, sizeof(tools), "%s/tools", session_dir);
	snprintf(tmp, sizeof(tmp), "%s/.run-XXXXXX", tools);
	mk = ses_private_mkdir(tools);
	if ((!mk || mk == -EEXIST) && mkdtemp(tmp))
		j.files_dir = tmp; /* else open_file fails, the rest still works */
	ret = in_child(&j, timeout_s, a);
	*info = a->info;
	say(err, errlen, a, spec, ret);
	if (!ret && j.files_dir && (ret = keep_files(tools, tmp, a->info.name)))
		snprintf(err, errlen, "tool '%s': keeping its files in %s: %s", a->info.name, tools,
			 strerror(-ret));
	if (ret && j.files_dir)
		remove_flat(tmp);
	rmdir(tools); /* only when empty: no tool left files */
	free(a);
	return ret;
}
