// SPDX-License-Identifier: MIT
/*
 * The control pages of many instrumented processes (bench/pages.sh): forks N children, one
 * every GAP_US, each of which makes its page (a pause, a resume and a task), sleeps
 * HOLD_MS and exits through the library's exit handler. When all are reaped, the CPU
 * time of this process's parent (uprof collect, which launched it) so far is written to
 * OUT: "<utime ticks> <stime ticks> <ticks per second>".
 *   pages_target N GAP_US HOLD_MS OUT
 */
#include <AMDProfileController.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(int hold_ms)
{
	amdDomainHandle d = amdDomainCreate("bench");
	amdStringHandle s = amdStringHandleCreate("child");

	amdProfilePause();
	amdProfileResume();
	amdTaskBegin(d, 0, 0, s);
	amdTaskEnd(d);
	usleep((useconds_t)hold_ms * 1000);
	exit(0);
}

/* utime and stime of @pid (/proc/<pid>/stat fields 14 and 15), its own threads only */
static int cpu_ticks(pid_t pid, unsigned long *ut, unsigned long *st)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the name may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", ut, st) != 2)
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long ut, st;
	int n, gap_us, hold_ms;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: pages_target N GAP_US HOLD_MS OUT\n");
		return 2;
	}
	n = atoi(argv[1]);
	gap_us = atoi(argv[2]);
	hold_ms = atoi(argv[3]);
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0)
			child(hold_ms);
		if (pid < 0)
			return 1;
		usleep((useconds_t)gap_us);
	}
	while (wait(NULL) > 0)
		;
	if (cpu_ticks(getppid(), &ut, &st))
		return 1;
	out = fopen(argv[4], "w");
	if (!out)
		return 1;
	fprintf(out, "%lu %lu %ld\n", ut, st, sysconf(_SC_CLK_TCK));
	return fclose(out) ? 1 : 0;
}
