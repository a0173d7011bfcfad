// SPDX-License-Identifier: MIT
/*
 * cpu_of CMD [ARGS...]: runs CMD (stdout to /dev/null) and prints on stdout
 * "<user+sys ns> <wall ns> <exit status>" of its whole process tree: wait4's rusage of
 * the child counts every descendant the child waited for (uprof collect waits for its
 * target), at the kernel's microsecond resolution, which /usr/bin/time's %U %S (10 ms)
 * lacks for rounds of a second.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int st, fd;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: cpu_of CMD [ARGS...]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid < 0)
		return perror("cpu_of: fork"), 1;
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 1);
		execvp(argv[1], argv + 1);
		perror("cpu_of: exec");
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) < 0)
		return perror("cpu_of: wait4"), 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld %lld %d\n",
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL,
	       (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec),
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}
