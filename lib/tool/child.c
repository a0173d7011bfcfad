// SPDX-License-Identifier: MIT
/*
 * Where a tool runs: never in uprof itself. uprof forks a supervisor (supervise.c), the
 * subreaper of the tool's tree, which forks the worker: its own process group, in its
 * cell (sandbox.c), it loads the tool, does the work and writes one answer (a fixed
 * struct) into a pipe to uprof. The supervisor waits for the worker within the time
 * limit, ends whatever it left, and writes its verdict (how the worker ended, its CPU time
 * and memory) into a second pipe. A signal, a hang, a limit, an exit without an answer:
 * the tool failed, and only its own output is lost. The forks are copy-on-write, so the
 * worker reads the whole report model in place.
 */
#include "tool/internal.h"
#include "report/report.h"
#include "session/session.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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
	struct rpt *report;	      /* tool_run */
	const struct rpt_job *jobrep; /* tool_run_job */
	FILE *sections;
	const char *session_dir;
	int files_dfd; /* the tool's directory, -1: none */
	/* where it is: removed by the supervisor when uprof ends under it */
	int session_dfd, tools_dfd;
	const char *run;	    /* files_dfd's name beneath tools_dfd */
	const char *const *earlier; /* the names of the tools run before in this report */
	int nearlier;
	uint8_t *drop; /* tool_filter: the bits to set, shared with the parent */
	size_t ndrop;
};

/* @a's label: its name, or "name.N" when N - 1 tools of that name ran before. */
static void label_of(const struct job *j, struct tool_info *in)
{
	int n = 1;

	for (int i = 0; i < j->nearlier; i++)
		n += !strcmp(j->earlier[i], in->name);
	if (n == 1)
		snprintf(in->label, sizeof(in->label), "%s", in->name);
	else
		snprintf(in->label, sizeof(in->label), "%s.%d", in->name, n);
}

/* The child's work: load, and with a report run the callbacks. */
static void child_work(const struct job *j, struct answer *a)
{
	struct tool_host h;

	tool_host_init(&h, j->spec, j->collect, &a->info);
	a->ret = tool_host_load(&h, j->spec, a->err, sizeof(a->err));
	if (!a->ret) {
		label_of(j, &a->info);
		h.label = a->info.label;
	}
	if (!a->ret && j->report && j->drop) { /* the filter pass: nothing but the bits */
		h.report = j->report;
		a->ret = h.desc.filter_sample ? tool_driver_filter(&h, j->drop, j->ndrop) : 0;
		if (a->ret)
			snprintf(a->err, sizeof(a->err), "tool '%s' (%s): %s", a->info.name, h.path,
				 h.error);
		return;
	}
	if (!a->ret && (j->report || j->jobrep)) {
		h.report = j->report;
		h.job = j->jobrep;
		h.out = j->sections;
		h.files_dfd = j->files_dfd;
		a->ret = j->jobrep ? tool_driver_run_job(&h, j->session_dir)
				   : tool_driver_run(&h, j->session_dir);
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

/* Read @len bytes of @fd until EOF or @deadline; true when they came whole. */
static bool read_fixed(int fd, void *buf, size_t len, int64_t deadline, bool *timed_out)
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
		n = read(fd, (char *)buf + got, got < len ? len - got : 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return got == len;
		if (got + (size_t)n > len)
			return false; /* more than an answer: not ours */
		got += (size_t)n;
		if (got == len) /* whole: a process the tool left holding the pipe is no wait */
			return true;
	}
}

static void remove_flat(int dfd, const char *name);

/* The worker: its own process group, in its cell, loads the tool and answers. */
static _Noreturn void worker(const struct job *j, const struct tool_limits *lim, int answer_fd)
{
	static struct answer mine; /* the worker's own copy */
	int keep[] = { answer_fd, j->sections ? fileno(j->sections) : -1, j->files_dfd };
	int sandbox;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* ended with its supervisor */
	signal(SIGPIPE, SIG_IGN);
	/* a tool's crash is a crash of the worker, said as such: no handler of ours (a
	 * sanitizer's, say) turns it into an exit */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
	signal(SIGXCPU, SIG_DFL);
	dup2(STDERR_FILENO, STDOUT_FILENO); /* a tool's printf never lands in the CSV */
	sandbox = tool_sandbox_enter(lim, j->files_dfd, keep, 3);
	if (sandbox < 0) {
		mine.ret = sandbox;
		snprintf(mine.err, sizeof(mine.err), "tool %.*s: cannot enter its sandbox: %s",
			 (int)strcspn(j->spec, ","), j->spec, strerror(-sandbox));
	} else {
		child_work(j, &mine);
		mine.info.landlock = sandbox;
	}
	write_all(answer_fd, &mine, sizeof(mine));
	_exit(0);
}

/* The supervisor: the subreaper of all the tool starts (supervise.c). */
static _Noreturn void supervisor(const struct job *j, const struct tool_limits *lim, pid_t uprof,
				 const int answer[2], const int verdict[2])
{
	struct tool_verdict v = { 0 };
	sigset_t term, old;
	pid_t pid;

	close(answer[0]);
	close(verdict[0]);
	setpgid(0, 0);
	/* uprof's end (killed, say) is a SIGTERM that ends the wait for the worker: what the
	 * tool started is still killed and reaped, never left to init */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != uprof) /* uprof ended before the line above */
		_exit(1);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		v.status = -errno;
		goto out;
	}
	pid = fork();
	if (!pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(verdict[1]);
		worker(j, lim, answer[1]);
	}
	close(answer[1]);
	if (pid < 0)
		v.status = -errno;
	else
		tool_supervise(pid, lim->timeout_s, &v);
	if (v.orphaned && j->run) { /* uprof cannot clean up: its run directory goes here */
		remove_flat(j->tools_dfd, j->run);
		util_at_unlink(j->session_dfd, "tools", AT_REMOVEDIR); /* only when empty */
	}
out:
	write_all(verdict[1], &v, sizeof(v));
	_exit(0);
}

/* Why a worker that ended without its answer failed, in @a->err. */
static int why_failed(const struct job *j, const struct tool_limits *lim,
		      const struct tool_verdict *v, bool whole, struct answer *a)
{
	int what = (int)strcspn(j->spec, ","); /* the tool's path, without its knobs */
	int sig = WIFSIGNALED(v->status) ? WTERMSIG(v->status) : 0;
	char limit[160] = "";

	if (v->timed_out) {
		snprintf(a->err, sizeof(a->err),
			 "tool %.*s: still running after %g s: stopped "
			 "(a hang? --tool-timeout sets the limit)",
			 what, j->spec, lim->timeout_s);
		return -ETIMEDOUT;
	}
	if (!sig && whole && !WEXITSTATUS(v->status))
		return a->ret;
	/* SIGXCPU at RLIMIT_CPU's soft limit, SIGKILL at its hard one */
	if (sig && lim->cpu_s > 0 &&
	    (sig == SIGXCPU || (sig == SIGKILL && v->cpu_s >= lim->cpu_s - 0.5)))
		snprintf(limit, sizeof(limit),
			 " at its CPU limit (%g s of CPU; --tool-cpu raises it)", lim->cpu_s);
	/* malloc fails at RLIMIT_AS and a tool that does not check dies of it (a sanitizer's
	 * malloc exits); which allocation failed is not known afterwards, so it is said as
	 * likely when the tool's resident memory came past half its limit */
	else if (lim->memory_mib && (uint64_t)v->maxrss_kib >= lim->memory_mib * 1024 / 2)
		snprintf(limit, sizeof(limit),
			 " near its memory limit (%ld MiB resident, %" PRIu64
			 " MiB allowed; --tool-memory raises it)",
			 v->maxrss_kib / 1024, lim->memory_mib);
	if (sig)
		snprintf(a->err, sizeof(a->err), "tool %.*s: crashed (%s)%s%s", what, j->spec,
			 strsignal(sig), limit,
			 j->report || j->jobrep
				 ? "; report.csv holds the report without its sections"
				 : "");
	else
		snprintf(a->err, sizeof(a->err),
			 "tool %.*s: exited (status %d) before it was done%s%s", what, j->spec,
			 WEXITSTATUS(v->status), limit,
			 limit[0] ? "" : " (a tool must not call exit)");
	return -ECHILD;
}

/* Run @j under a supervisor, bounded by @lim; the answer in @a. 0 or -errno with a->err. */
static int in_child(const struct job *j, const struct tool_limits *lim, struct answer *a)
{
	/* past the limit, the supervisor's own work: killing and reaping what was left */
	int64_t deadline = now_ms() + (int64_t)(lim->timeout_s * 1000) + 30000;
	int answer[2] = { -1, -1 }, verdict[2] = { -1, -1 }, ret = 0;
	struct tool_verdict v = { 0 };
	bool whole, got, late;
	pid_t uprof = getpid(), pid;

	memset(a, 0, sizeof(*a));
	if (pipe2(answer, O_CLOEXEC) || pipe2(verdict, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	fflush(NULL); /* nothing buffered is written twice by a child's exit */
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (!pid)
		supervisor(j, lim, uprof, answer, verdict);
	close(answer[1]);
	close(verdict[1]);
	answer[1] = verdict[1] = -1;
	whole = read_fixed(answer[0], a, sizeof(*a), deadline, &late);
	got = read_fixed(verdict[0], &v, sizeof(v), deadline, &late);
	if (!got) /* a supervisor that never answered: nothing of its tree is kept */
		kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (!got) {
		snprintf(a->err, sizeof(a->err), "tool %.*s: its supervisor %s",
			 (int)strcspn(j->spec, ","), j->spec,
			 late ? "did not end it in time" : "failed");
		ret = -ECHILD;
	} else if (v.status < 0) {
		ret = v.status; /* no subreaper, no fork: nothing of the tool ran */
	} else {
		ret = why_failed(j, lim, &v, whole, a);
		a->info.left = v.left;
	}
out:
	for (int i = 0; i < 2; i++) {
		if (answer[i] >= 0)
			close(answer[i]);
		if (verdict[i] >= 0)
			close(verdict[i]);
	}
	return ret;
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

int tool_probe(const char *spec, bool collect, const struct tool_limits *lim,
	       struct tool_info *info, char *err, size_t errlen)
{
	struct job j = { .spec = spec, .collect = collect, .files_dfd = -1 };
	struct answer *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	ret = in_child(&j, lim, a);
	*info = a->info;
	say(err, errlen, a, spec, ret);
	free(a);
	return ret;
}

/* Remove the directory @name beneath @dfd and the plain files in it (a tool's directory
 * holds nothing else: its domain lets it make no other kind). */
static void remove_flat(int dfd, const char *name)
{
	int fd = util_at_dir(dfd, name);
	struct dirent *e;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(fd, e->d_name, 0);
	closedir(d);
	util_at_unlink(dfd, name, AT_REMOVEDIR);
}

/* Keep the files of a tool that succeeded: tools/<name>/ (beneath @tools_dfd), in place
 * of an earlier run's. An empty directory is not kept. 0 or -errno. */
static int keep_files(int tools_dfd, const char *run, const char *name)
{
	remove_flat(tools_dfd, name); /* an earlier run's files are never mistaken for this one's */
	if (!util_at_unlink(tools_dfd, run, AT_REMOVEDIR)) /* nothing written */
		return 0;
	return util_at_rename(tools_dfd, run, name);
}

/* A new directory .run-XXXXXX beneath @tools_dfd, its name in @run: its fd or -errno. */
static int run_dir(int tools_dfd, char run[16])
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	int ret = -EEXIST;

	for (int tries = 0; tries < 100 && ret == -EEXIST; tries++) {
		uint64_t r = (uint64_t)now_ms() * 2654435761u ^ (uint64_t)getpid() << 20 ^
			     (uint64_t)tries * 0x9e3779b97f4a7c15ull;

		memcpy(run, ".run-", 5);
		for (int i = 5; i < 11; i++, r /= 36)
			run[i] = letters[r % 36];
		run[11] = 0;
		ret = util_at_mkdir(tools_dfd, run, 0700, false);
	}
	return ret;
}

int tool_filter(const char *spec, struct rpt *r, const struct tool_limits *lim, uint8_t *drop,
		size_t nsamples, char *err, size_t errlen)
{
	struct job j = { .spec = spec,
			 .report = r,
			 .files_dfd = -1,
			 .drop = drop,
			 .ndrop = nsamples };
	struct answer *a = calloc(1, sizeof(*a));
	int ret;

	if (!a)
		return -ENOMEM;
	ret = in_child(&j, lim, a);
	say(err, errlen, a, spec, ret);
	free(a);
	return ret;
}

int tool_run(const char *spec, struct rpt *r, const char *session_dir, FILE *sections,
	     const struct tool_limits *lim, struct tool_info *info, char *err, size_t errlen)
{
	return tool_run_after(spec, r, session_dir, sections, lim, NULL, 0, info, err, errlen);
}

/* Run @j (a report's or a job's) with its files in tools/ beneath @dfd (the directory
 * the report reads: docs/DESIGN.md §4). */
static int run_in(struct job *j, int dfd, const struct tool_limits *lim, struct tool_info *info,
		  char *err, size_t errlen)
{
	struct answer *a = calloc(1, sizeof(*a));
	int ret, session_dfd, tools_dfd = -1;
	char run[16] = "";

	if (!a)
		return -ENOMEM;
	/* tools/ and the run's directory made beneath the fd the report reads the session by
	 * (docs/DESIGN.md §4), never its path again: failing that, open_file fails and the
	 * rest still works */
	session_dfd = dfd < 0 ? -EBADF : fcntl(dfd, F_DUPFD_CLOEXEC, 3);
	if (session_dfd >= 0)
		tools_dfd = util_at_mkdir(session_dfd, "tools", 0700, true);
	if (tools_dfd >= 0)
		j->files_dfd = run_dir(tools_dfd, run);
	if (j->files_dfd >= 0)
		j->session_dfd = session_dfd, j->tools_dfd = tools_dfd, j->run = run;
	ret = in_child(j, lim, a);
	*info = a->info;
	say(err, errlen, a, j->spec, ret);
	if (!ret && j->files_dfd >= 0 && (ret = keep_files(tools_dfd, run, a->info.label)))
		snprintf(err, errlen, "tool '%s': keeping its files in %s/tools: %s", a->info.name,
			 j->session_dir, strerror(-ret));
	if (ret && j->files_dfd >= 0)
		remove_flat(tools_dfd, run);
	if (j->files_dfd >= 0)
		close(j->files_dfd);
	if (tools_dfd >= 0)
		close(tools_dfd);
	if (session_dfd >= 0) {
		util_at_unlink(session_dfd, "tools", AT_REMOVEDIR); /* only when empty */
		close(session_dfd);
	}
	free(a);
	return ret;
}

int tool_run_after(const char *spec, struct rpt *r, const char *session_dir, FILE *sections,
		   const struct tool_limits *lim, const char *const *earlier, int nearlier,
		   struct tool_info *info, char *err, size_t errlen)
{
	struct job j = { .spec = spec,
			 .report = r,
			 .sections = sections,
			 .session_dir = session_dir,
			 .files_dfd = -1,
			 .earlier = earlier,
			 .nearlier = nearlier };

	return run_in(&j, rpt_dir_fd(r), lim, info, err, errlen);
}

int tool_run_job(const char *spec, const struct rpt_job *job, int job_dfd, const char *job_dir,
		 FILE *sections, const struct tool_limits *lim, const char *const *earlier,
		 int nearlier, struct tool_info *info, char *err, size_t errlen)
{
	struct job j = { .spec = spec,
			 .jobrep = job,
			 .sections = sections,
			 .session_dir = job_dir,
			 .files_dfd = -1,
			 .earlier = earlier,
			 .nearlier = nearlier };

	return run_in(&j, job_dfd, lim, info, err, errlen);
}
