// SPDX-License-Identifier: MIT
/*
 * A hostile target: it makes API calls so uprof attaches to its control page, then maps
 * its own /dev/shm/uprof.<pid> and scribbles random bytes over all of it (header, string
 * table, rings) again and again while still calling the API. uprof must neither crash
 * nor hang, and must still write a session that report reads.
 *   hostile [rounds]
 */
#include <AMDProfileController.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	/* before the first call: the page is named (the fallback of docs/DESIGN.md §5), not
	 * handed over collect's channel, so that we can open it and scribble on it */
	int rounds = (unsetenv("UPROF_PAGE_CHANNEL"), argc > 1 ? atoi(argv[1]) : 200);
	amdDomainHandle d = amdDomainCreate("Hostile");
	amdStringHandle n = amdStringHandleCreate("Task");
	char name[64];
	struct stat sb;
	unsigned char *p;
	uint64_t x = 88172645463325252ULL;
	int fd;

	amdTaskBegin(d, 0, 0, n);
	amdTaskEnd(d);
	amdProfileResume();
	usleep(100000); /* let uprof attach */
	snprintf(name, sizeof(name), "/dev/shm/uprof.%d", (int)getpid());
	fd = open(name, O_RDWR);
	if (fd < 0 || fstat(fd, &sb)) {
		perror(name);
		return 1;
	}
	p = mmap(NULL, sb.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	for (int r = 0; r < rounds; r++) {
		for (off_t i = 0; i < sb.st_size; i += 8) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
			if ((x & 7) < (unsigned)(r % 8))
				*(uint64_t *)(p + i) = x;
		}
		/* the library itself now reads garbage: it must not crash us either, but
		 * that is the target's own business; keep calling */
		if (r % 4 == 0) {
			amdProfilePause();
			amdProfileResume();
		}
		usleep(1000);
	}
	printf("scribbled %d rounds\n", rounds);
	return 0;
}
