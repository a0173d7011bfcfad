// SPDX-License-Identifier: MIT
/*
 * A deterministic workload for comparing uprof pcm -m swi with perf stat: touches a fixed
 * number of fresh pages (page faults), then alternates a fixed amount of arithmetic with
 * short sleeps (voluntary context switches), single-threaded.
 *   pcm_work [rounds] [pages]   (default 400 rounds, 2048 pages: about 0.4 s)
 * With PCM_WORK_GATE=FIFO it waits, before any of that, until one byte can be read from
 * FIFO: a test then attaches `perf stat -p` and opens the gate, so perf stat and uprof pcm
 * count the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <time.h>

static volatile double sink;

__attribute__((noinline)) static void compute(long n)
{
	double x = sink;

	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void wait_at_gate(const char *fifo)
{
	char byte;
	int fd = open(fifo, O_RDONLY);

	if (fd < 0 || read(fd, &byte, 1) != 1) {
		perror(fifo);
		exit(1);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 400;
	long pages = argc > 2 ? atol(argv[2]) : 2048;
	struct timespec nap = { 0, 300000 };
	const char *gate = getenv("PCM_WORK_GATE");
	char *mem;

	if (gate)
		wait_at_gate(gate);
	mem = mmap(NULL, (size_t)pages * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);

	if (mem == MAP_FAILED)
		return 1;
	for (long i = 0; i < pages; i++)
		mem[i * 4096] = (char)i;
	for (long r = 0; r < rounds; r++) {
		compute(150000);
		nanosleep(&nap, NULL);
	}
	printf("pcm_work done: %g\n", sink);
	return 0;
}
