// SPDX-License-Identifier: MIT
/*
 * jit [MS]: what a JIT does, in miniature. It maps a page of anonymous executable
 * memory, writes a counting loop into it (x86-64 machine code: the "compiled" code),
 * tells perf where that code is and what it is called in /tmp/perf-<pid>.map, and runs
 * it for MS ms of CPU time (default 400). The map stays behind (perf's convention: the
 * profiler reads it at report time); e2e removes it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* mov rcx, rdi; 1: dec rcx; jnz 1b; ret */
	static const unsigned char code[] = { 0x48, 0x89, 0xf9, 0x48, 0xff, 0xc9, 0x75, 0xfb,
					      0xc3 };
	double ms = argc > 1 ? atof(argv[1]) : 400, end;
	void (*spin)(uint64_t);
	char path[64];
	unsigned char *page;
	FILE *f;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* the code is not at the page's start, as a JIT's code mostly is not */
	memcpy(page + 64, code, sizeof(code));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	fprintf(f, "%lx %zx jitted_spin_loop\n", (unsigned long)(uintptr_t)(page + 64),
		sizeof(code));
	if (fclose(f))
		return 1;
	spin = (void (*)(uint64_t))(void *)(page + 64);
	end = cpu_ms() + ms;
	while (cpu_ms() < end)
		spin(1000000);
	printf("jitted_spin_loop at %p\n", (void *)(page + 64));
	return 0;
#else
	(void)argc, (void)argv;
	fprintf(stderr, "jit: x86-64 only\n");
	return 77;
#endif
}
