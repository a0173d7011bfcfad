/* SPDX-License-Identifier: MIT */
/* tests/e2e/rates.sh: a loop of user work and write(2)s (a good share of system time);
 * argv: rounds, the file its own getrusage CPU time (us) goes to, writes per round */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>
__attribute__((noinline)) double user_part(long n)
{ volatile double x = 0; for (long i = 0; i < n; i++) x += i * 0.5; return x; }
__attribute__((noinline)) void sys_part(int fd, long n)
{ char c = 0; for (long i = 0; i < n; i++) if (write(fd, &c, 1) != 1) exit(2); }
int main(int argc, char **argv)
{
	long rounds = atol(argv[1]), writes = argc > 3 ? atol(argv[3]) : 20000;
	int fd = open("/dev/null", O_WRONLY);
	struct rusage ru;
	FILE *f;
	for (long r = 0; r < rounds; r++) {
		user_part(2000000);
		sys_part(fd, writes);
	}
	getrusage(RUSAGE_SELF, &ru);
	f = fopen(argv[2], "w");
	fprintf(f, "%ld\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	fclose(f);
	return 0;
}
