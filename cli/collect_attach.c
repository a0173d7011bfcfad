// SPDX-License-Identifier: MIT
/*
 * uprof collect -p PID[,PID..] / --tid TID[,TID..]: attach to running processes.
 *
 * Every existing thread gets its own per-CPU events (inherited by what it creates later);
 * threads born while we attach are caught by scanning again until the list is stable.
 * What existed before we came (thread names, code mappings) is synthesized from /proc
 * into samples.data. The targets are never stopped or signalled; when we leave, they
 * run on untouched.
 */
#include "cli/collect.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "collect";

#define MAX_THREADS 65536
#define MAX_SYSTEM_PIDS 65536 /* processes synthesized for -a */
#define RESCANS 8

int collect_attach_parse(struct collect_state *st, const char *arg, bool tids)
{
	const char *p = arg;

	st->attach = true;
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > 0x3fffffff || (*end && *end != ','))
			return cli_error(EXIT_USAGE, CMD,
					 "%s '%s': expected a comma-separated list of numbers",
					 tids ? "--tid" : "-p/--pid", arg);
		if (tids ? st->ntids_only >= SES_MAX_PIDS : st->nattach >= SES_MAX_PIDS)
			return cli_error(EXIT_USAGE, CMD, "at most %d %s", SES_MAX_PIDS,
					 tids ? "threads" : "processes");
		if (tids)
			st->tids_only[st->ntids_only++] = (pid_t)v;
		else
			st->attach_pids[st->nattach++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return -1;
}

static bool have_pid(const struct collect_state *st, pid_t pid)
{
	for (int i = 0; i < st->nattach; i++)
		if (st->attach_pids[i] == pid)
			return true;
	return false;
}

int collect_attach_prepare(struct collect_state *st)
{
	char path[64], comm[64];
	ssize_t n;

	if (st->system_wide) { /* uProf names such sessions SWP (system-wide profile) */
		snprintf(st->prog_path, sizeof(st->prog_path), "SWP");
		return -1;
	}
	/* --tid: the threads' processes are the ones we report on */
	for (int i = 0; i < st->ntids_only; i++) {
		pid_t tgid = smp_proc_tgid(st->tids_only[i]);

		if (tgid < 0)
			return cli_error(1, CMD, "no thread with tid %d; check with 'ps -eLf'",
					 (int)st->tids_only[i]);
		if (!have_pid(st, tgid) && st->nattach < SES_MAX_PIDS)
			st->attach_pids[st->nattach++] = tgid;
	}
	for (int i = 0; i < st->nattach; i++) {
		pid_t tids[1];

		if (st->attach_pids[i] == getpid())
			return cli_error(1, CMD, "pid %d is uprof itself", (int)getpid());
		if (smp_proc_threads(st->attach_pids[i], tids, 1) < 0)
			return cli_error(1, CMD, "no process with pid %d; check with 'ps -p %d'",
					 (int)st->attach_pids[i], (int)st->attach_pids[i]);
	}
	/* the session is named after the (first) process's executable */
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)st->attach_pids[0]);
	n = readlink(path, st->prog_path, sizeof(st->prog_path) - 1);
	if (n > 0) {
		st->prog_path[n] = 0;
	} else {
		smp_proc_comm(st->attach_pids[0], comm, sizeof(comm));
		snprintf(st->prog_path, sizeof(st->prog_path), "%s", comm);
	}
	for (int i = 0; i < st->nattach; i++) {
		st->pidfds[i] = (int)syscall(SYS_pidfd_open, st->attach_pids[i], 0);
		st->cpu_start[i] = st->cpu_last[i] = collect_cpu_ns(st->attach_pids[i]);
		collect_cpu_split_ns(st->attach_pids[i], &st->user_start[i], &st->sys_start[i]);
	}
	return -1;
}

static bool wanted_tid(const struct collect_state *st, pid_t tid)
{
	if (!st->ntids_only)
		return true;
	for (int i = 0; i < st->ntids_only; i++)
		if (st->tids_only[i] == tid)
			return true;
	return false;
}

/* Open events on every thread of @pid not opened yet. Returns threads added or -errno. */
static int open_threads(struct collect_state *st, pid_t pid, pid_t *done, int *ndone)
{
	pid_t *tids = malloc(sizeof(pid_t) * MAX_THREADS);
	int n, added = 0, failed, ret = 0;

	if (!tids)
		return -ENOMEM;
	n = smp_proc_threads(pid, tids, MAX_THREADS);
	for (int i = 0; i < n && !ret; i++) {
		bool seen = false;

		for (int k = 0; k < *ndone && !seen; k++)
			seen = done[k] == tids[i];
		if (seen || !wanted_tid(st, tids[i]) || *ndone >= MAX_THREADS)
			continue;
		ret = smp_add_task(st->smp, tids[i], &failed);
		if (ret == -ESRCH) {
			ret = 0; /* the thread ended meanwhile */
			continue;
		}
		if (!ret) {
			done[(*ndone)++] = tids[i];
			added++;
		}
	}
	free(tids);
	return ret ? ret : (n < 0 ? n : added);
}

/* Open the events on every thread of the processes (or, -a, every task), once: 0 or
 * -errno, with *@bad_pid the process and *@failed the event that failed (or -1). On
 * failure nothing stays open. */
static int attach_once(struct collect_state *st, pid_t *done, int *bad_pid, int *failed)
{
	struct smp_opts opts = { .mmap_pages = st->mmap_pages,
				 .cpus = st->sample_cpus,
				 .ncpus = st->nsample_cpus };
	int ndone = 0, ret;

	*bad_pid = 0;
	*failed = -1;
	collect_events_build(st, false); /* enabled by us once everything is open */
	ret = smp_new(&st->smp, st->attrs, st->nattrs, &opts);
	if (st->system_wide) {
		ret = ret ? ret : smp_add_task(st->smp, -1, failed); /* pid -1: every task */
		goto out;
	}
	for (int round = 0; !ret && round < RESCANS; round++) {
		int added = 0;

		for (int i = 0; i < st->nattach && ret >= 0; i++) {
			ret = open_threads(st, st->attach_pids[i], done, &ndone);
			if (ret == -ESRCH && ndone)
				ret = 0; /* that process ended while we attached: the others go on */
			if (ret < 0)
				*bad_pid = st->attach_pids[i];
			added += ret > 0 ? ret : 0;
		}
		if (ret > 0)
			ret = 0;
		if (!added)
			break;
	}
	if (!ret && !ndone)
		ret = -ESRCH;
out:
	if (ret) {
		smp_close(st->smp);
		st->smp = NULL;
	}
	return ret;
}

int collect_attach_open(struct collect_state *st)
{
	pid_t *done = malloc(sizeof(pid_t) * MAX_THREADS);
	int bad_pid, failed, ret;

	if (!done)
		return cli_error(1, CMD, "out of memory");
	ret = attach_once(st, done, &bad_pid, &failed);
	if (ret && !st->system_wide && collect_user_only_retry(st, ret))
		ret = attach_once(st, done, &bad_pid, &failed);
	free(done);
	if (!ret)
		collect_user_only_said(st);
	if (ret == -ESRCH)
		return cli_error(1, CMD, "the process%s ended before uprof could attach",
				 st->nattach > 1 ? "es" : "");
	if (ret)
		return collect_explain_open_error(st, ret, st->system_wide ? failed : -1,
						  st->system_wide ? 0
						  : bad_pid	  ? bad_pid
								  : st->attach_pids[0]);
	return -1;
}

static int sink_to_writer(void *arg, const void *records, size_t len)
{
	return ses_writer_write(arg, records, len);
}

int collect_attach_synth(struct collect_state *st)
{
	uint64_t now = (uint64_t)cli_now_ns(CLOCK_MONOTONIC);
	pid_t *tids = malloc(sizeof(pid_t) * MAX_THREADS);
	size_t nids;
	const uint64_t *ids = smp_ids(st->smp, COLLECT_TRACKING, &nids);
	pid_t *pids = st->attach_pids;
	int npids = st->nattach;

	if (!tids)
		return cli_error(1, CMD, "out of memory");
	if (st->system_wide) { /* every process there is now; the kernel tells of new ones */
		pids = malloc(sizeof(pid_t) * MAX_SYSTEM_PIDS);
		npids = pids ? smp_proc_pids(pids, MAX_SYSTEM_PIDS) : -ENOMEM;
	}
	for (int i = 0; i < npids; i++) {
		int n = smp_proc_threads(pids[i], tids, MAX_THREADS);

		if (n >= 0)
			smp_synth_process(pids[i], tids, n, &st->attrs[COLLECT_TRACKING],
					  nids ? ids[0] : 0, now, sink_to_writer, st->writer);
	}
	if (pids != st->attach_pids)
		free(pids);
	free(tids);
	return -1;
}

bool collect_attach_alive(struct collect_state *st)
{
	if (st->system_wide)
		return true; /* until -d or Ctrl-C */
	for (int i = 0; i < st->nattach; i++) {
		struct pollfd p = { .fd = st->pidfds[i], .events = POLLIN };

		if (st->pidfds[i] >= 0 ? poll(&p, 1, 0) == 0
				       : kill(st->attach_pids[i], 0) == 0 || errno != ESRCH)
			return true;
	}
	return false;
}

void collect_attach_cpu(struct collect_state *st)
{
	for (int i = 0; i < st->nattach; i++) {
		int64_t ns = collect_cpu_ns(st->attach_pids[i]);

		if (ns > 0)
			st->cpu_last[i] = ns;
	}
}

int64_t collect_attach_cpu_ns(const struct collect_state *st)
{
	int64_t total = 0;

	/* the timer runs on every CPU, idle or not: the CPU time is the run's, on each */
	if (st->system_wide)
		return st->info.end_mono_ns > st->info.start_mono_ns
			       ? (st->info.end_mono_ns - st->info.start_mono_ns) *
					 (st->nsample_cpus ? st->nsample_cpus : st->info.ncpus)
			       : 0;
	for (int i = 0; i < st->nattach; i++)
		if (st->cpu_start[i] >= 0 && st->cpu_last[i] >= st->cpu_start[i])
			total += st->cpu_last[i] - st->cpu_start[i];
	return total;
}

bool collect_attach_owns(const struct collect_state *st, int pid)
{
	if (st->system_wide)
		return true;
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		if (have_pid(st, pid))
			return true;
		pid = smp_proc_ppid(pid);
	}
	return false;
}
