// SPDX-License-Identifier: MIT
/*
 * forker MS PROG...: spins MS ms of CPU itself, then starts one child per PROG that
 * exec's it (looked up in PATH, as make runs a compiler: a symlink keeps its name) with
 * the argument MS, one after the other, and waits for each. by_program.sh counts the
 * processes of each program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) static void forker_spin(double ms)
{
	double end = cpu_ms() + ms, x = sink;

	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: forker MS [PROG...]\n");
		return 2;
	}
	forker_spin(atof(argv[1]));
	for (int i = 2; i < argc; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return 1;
		if (!pid) {
			execlp(argv[i], argv[i], argv[1], (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	return 0;
}
