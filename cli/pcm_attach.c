// SPDX-License-Identifier: MIT
/* uprof pcm --pid / --tid: count a process or thread that is already running (uProf 5.x's
 * -p and --tid), until it ends, -d passes or a signal comes. Its counters are task
 * counters as for a launched program, enabled at once instead of at exec. */
#include "cli/pcm.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "pcm";

/* The state letter of /proc/<id>/stat (the real /proc: the process is real), 0 when the
 * task is gone. */
static char task_state(pid_t id)
{
	char path[64], buf[512], *paren;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)id);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	paren = strrchr(buf, ')'); /* the name may hold spaces and ')' */
	return paren && paren[1] == ' ' && paren[2] ? paren[2] : 0;
}

static int count_threads(pid_t pid)
{
	char path[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

int pcm_attach_parse(struct pcm_state *st, const char *arg, bool tid)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0 || v > 0x3fffffff)
		return cli_error(EXIT_USAGE, CMD,
				 "%s '%s': a process or thread id, a number above 0",
				 tid ? "--tid" : "--pid", arg);
	if (st->attach_id)
		return cli_error(EXIT_USAGE, CMD,
				 "--pid and --tid name one task: give one of them");
	st->attach_id = (pid_t)v;
	st->attach_tid = tid;
	return 0;
}

int pcm_attach_check(struct pcm_state *st)
{
	const char *opt = st->attach_tid ? "--tid" : "--pid";
	char state = task_state(st->attach_id);
	int n;

	if (st->prog_argv)
		return cli_usage_error(CMD,
				       "--pid/--tid count a running task: no program with them");
	if (st->all_cpus || st->cpu_arg[0])
		return cli_usage_error(CMD, "--pid/--tid count the task wherever it runs: not with "
					    "-a or -c");
	if (st->levels & ~(1u << PMC_LEVEL_SYSTEM))
		return cli_usage_error(CMD,
				       "--pid/--tid: a task is counted as a whole (-A system)");
	if (!state || state == 'Z' || state == 'X')
		return cli_error(EXIT_USAGE, CMD, "%s %d: no such %s running", opt,
				 (int)st->attach_id, st->attach_tid ? "thread" : "process");
	if (!st->attach_tid && st->attach_id != 0) {
		char path[64];
		FILE *f;
		char line[256];
		int tgid = -1;

		/* --pid takes a process: its thread-group id, not one of its other threads */
		snprintf(path, sizeof(path), "/proc/%d/status", (int)st->attach_id);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "Tgid: %d", &tgid) == 1)
				break;
		if (f)
			fclose(f);
		if (tgid != st->attach_id)
			return cli_error(EXIT_USAGE, CMD,
					 "--pid %d: a thread of process %d; give --pid %d for the "
					 "process or --tid %d for this thread",
					 (int)st->attach_id, tgid, tgid, (int)st->attach_id);
		n = count_threads(st->attach_id);
		/* perf's inherit follows only tasks created after the counters open */
		if (n > 1)
			fprintf(stderr,
				"uprof pcm: note: --pid %d has %d threads already running: its main "
				"thread and the threads and children it starts from now on are "
				"counted, not the %d others (--tid counts one of them)\n",
				(int)st->attach_id, n, n - 1);
	}
	st->target.pid = st->attach_id;
	st->target.inherit = true;
	return -1;
}

bool pcm_attach_gone(const struct pcm_state *st)
{
	char state;

	if (!st->attach_id)
		return false;
	state = task_state(st->attach_id);
	return !state || state == 'Z' || state == 'X';
}
