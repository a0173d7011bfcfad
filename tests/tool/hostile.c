// SPDX-License-Identifier: MIT
/*
 * Tools that attack the report they run in, one per -DKIND, for tests/e2e/tool_isolation.sh:
 * the base report, the session and the machine must come out as they were.
 *   entrysegv  SIGSEGV in its entry point
 *   escape     setsid() and a grandchild that sleeps forever (SIGTERM, SIGHUP ignored),
 *              its section written as if nothing happened; with hang=1 it then sleeps
 *              itself, for a test that kills report under it
 *   leak       malloc + memset 64 MiB at a time until mb=<n> MiB (default 4096), then a
 *              section saying how much it got
 *   spin       a busy loop in its entry point
 *   tamper     opens report.csv and session.ini for writing, truncates them, unlinks and
 *              renames samples.data, makes a file in the session and in /tmp, writes
 *              through every fd it inherited on a session file, kills its parent: a
 *              section with what each attempt got (an errno name, or "DONE")
 * Knob marker=<text>: put in the title of what it leaves behind (escape: the grandchild's
 * command line, for a pgrep that cannot match anything else).
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <uprof_tool.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define STR2(x) #x
#define STR(x) STR2(x)

static const struct uprof_tool_core *core;
static const char *marker;
static int64_t leak_mb;
static bool hang;

#if KIND_escape
/* setsid(), then a grandchild that outlives its parent: reparented, in another session
 * and process group than the tool's */
static void escape(void)
{
	pid_t pid = fork();

	if (pid) {
		if (pid > 0) /* the grandchild is an orphan from here on */
			waitpid(pid, NULL, 0);
		return;
	}
	setsid();
	if (fork() == 0) {
		char name[200];

		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGINT, SIG_IGN);
		snprintf(name, sizeof(name), "escapee-%s", marker);
		/* ignored signals stay ignored across exec: a sleep that only SIGKILL ends,
		 * with the marker as its argv[0] */
		execl("/bin/sleep", name, "100000", (char *)NULL);
		for (;;)
			pause();
	}
	_exit(0);
}
#endif

#if KIND_tamper
static const char *outcome(int ok)
{
	return ok ? "DONE" : strerrorname_np(errno) ? strerrorname_np(errno) : "?";
}

static int row(const char *what, const char *got)
{
	return core->cell_text(core, what) || core->cell_text(core, got) || core->row_end(core);
}

/* Every attempt on the session, each said in a row. */
static int tamper(const char *dir)
{
	char path[PATH_MAX], to[PATH_MAX];
	int fd, ret = core->section(core, "TAMPERING", "ATTEMPT,RESULT");
	int hits = 0, tried = 0;

	snprintf(path, sizeof(path), "%s/report.csv", dir);
	fd = open(path, O_WRONLY | O_APPEND);
	ret = ret || row("open report.csv for writing", outcome(fd >= 0));
	if (fd >= 0)
		(void)!write(fd, "tampered\n", 9), close(fd);
	ret = ret || row("truncate report.csv", outcome(!truncate(path, 0)));
	snprintf(path, sizeof(path), "%s/session.ini", dir);
	fd = open(path, O_RDWR);
	ret = ret || row("open session.ini for writing", outcome(fd >= 0));
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	ret = ret || row("unlink samples.data", outcome(!unlink(path)));
	snprintf(to, sizeof(to), "%s/samples.old", dir);
	ret = ret || row("rename samples.data", outcome(!rename(path, to)));
	snprintf(path, sizeof(path), "%s/planted", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ret = ret || row("create a file in the session", outcome(fd >= 0));
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "/tmp/hostile-tamper-%s", marker);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	ret = ret || row("create a file in /tmp", outcome(fd >= 0));
	if (fd >= 0)
		close(fd);
	/* an fd of report's own on a session file, open for writing */
	for (int i = 3; i < 1024; i++) {
		char link[64], target[PATH_MAX];
		ssize_t n;

		snprintf(link, sizeof(link), "/proc/self/fd/%d", i);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (strncmp(target, dir, strlen(dir)) || strstr(target, "/tools/"))
			continue;
		tried++;
		if (write(i, "", 0) == 0 && write(i, "x", 1) == 1)
			hits++;
	}
	ret = ret || row("write through an inherited session fd", hits ? "DONE" : "none writable");
	(void)tried;
	ret = ret || row("kill its parent", outcome(!kill(getppid(), SIGKILL)));
	return ret;
}
#endif

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
#if KIND_escape
	escape();
	while (hang)
		pause();
	return core->section(core, "ESCAPED", "MARKER") || core->cell_text(core, marker) ||
	       core->row_end(core);
#elif KIND_leak
	int64_t got = 0;

	while (got < leak_mb) {
		char *p = malloc(64 << 20);

		memset(p, 0x5a, 64 << 20); /* p NULL at the limit: the crash a careless tool has */
		got += 64;
	}
	return core->section(core, "LEAKED", "MIB") || core->cell_int(core, got) ||
	       core->row_end(core);
#elif KIND_tamper
	return tamper(s->dir);
#else
	(void)s;
	return 0;
#endif
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
#if KIND_entrysegv
	static volatile uintptr_t null;

	*(volatile int *)null = 1;
#elif KIND_spin
	for (volatile unsigned long i = 0;; i++)
		;
#endif
	c->knob_string(c, "marker", &marker, "none", "a text put in what it leaves behind");
	c->knob_int(c, "mb", &leak_mb, 4096, "MiB to allocate (leak)");
	c->knob_bool(c, "hang", &hang, false, "sleep after escaping (escape)");
	d.name = "hostile-" STR(KIND);
	d.session_end = on_end;
	return c->register_tool(c, &d);
}
