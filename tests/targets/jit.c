// SPDX-License-Identifier: MIT
/*
 * jit [MS [DIR]]: what a JIT does, in miniature. It maps a page of anonymous executable
 * memory, writes a counting loop into it (x86-64 machine code: the "compiled" code),
 * tells perf where that code is and what it is called in /tmp/perf-<pid>.map, and runs
 * it for MS ms of CPU time (default 400). The map stays behind (perf's convention: the
 * profiler reads it at report time); e2e removes it.
 *
 * With DIR it writes no perf map but a jitdump, DIR/jit-<pid>.dump, as node --perf-prof
 * or LLVM's PerfJITEventListener do: the header, a DEBUG_INFO record (to be skipped), a
 * CODE_LOAD of the loop as jitdump_spin_loop with its code bytes, then (the code copied
 * elsewhere in the page, as a moving GC does) a CODE_MOVE; the file is mapped
 * PROT_READ|PROT_EXEC so that the kernel's MMAP record names it, after the code page
 * (report must name code mapped before the dump too). The moved copy is what runs.
 */
#include <fcntl.h>
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

#if defined(__x86_64__)
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int put(int fd, const void *p, size_t n)
{
	return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/* DIR/jit-<pid>.dump naming @len bytes of @code at @at, moved to @moved; mapped exec. */
static int write_jitdump(const char *dir, const unsigned char *at, const unsigned char *moved,
			 size_t len)
{
	static const char name[] = "jitdump_spin_loop";
	struct { uint32_t magic, version, total_size, elf_mach, pad1, pid; uint64_t ts, flags; }
		hdr = { 0x4A695444, 1, sizeof(hdr), 62 /* EM_X86_64 */, 0, (uint32_t)getpid(),
			now_ns(), 0 };
	struct { uint32_t id, total_size; uint64_t ts; } pre;
	struct { uint32_t pid, tid; uint64_t vma, code_addr, code_size, code_index; } load = {
		(uint32_t)getpid(), (uint32_t)getpid(), (uintptr_t)at, (uintptr_t)at, len, 7 };
	struct { uint32_t pid, tid; uint64_t vma, old_addr, new_addr, code_size, code_index; }
		move = { (uint32_t)getpid(), (uint32_t)getpid(), (uintptr_t)moved, (uintptr_t)at,
			 (uintptr_t)moved, len, 7 };
	struct { uint64_t code_addr, nr_entry; } dbg = { (uintptr_t)at, 0 };
	char path[4096];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0600);
	if (fd < 0) {
		perror(path);
		return -1;
	}
	ret |= put(fd, &hdr, sizeof(hdr));
	pre = (typeof(pre)){ 2, sizeof(pre) + sizeof(dbg), now_ns() };
	ret |= put(fd, &pre, sizeof(pre)) | put(fd, &dbg, sizeof(dbg));
	pre = (typeof(pre)){ 0, sizeof(pre) + sizeof(load) + sizeof(name) + len, now_ns() };
	ret |= put(fd, &pre, sizeof(pre)) | put(fd, &load, sizeof(load));
	ret |= put(fd, name, sizeof(name)) | put(fd, at, len);
	pre = (typeof(pre)){ 1, sizeof(pre) + sizeof(move), now_ns() };
	ret |= put(fd, &pre, sizeof(pre)) | put(fd, &move, sizeof(move));
	/* what a runtime does so that perf finds the file: an executable mapping of it */
	if (!ret && mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
		ret = -1;
	close(fd);
	if (ret)
		fprintf(stderr, "jit: cannot write %s\n", path);
	return ret;
}
#endif

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
	if (argc > 2) {
		memcpy(page + 2048, code, sizeof(code));
		if (write_jitdump(argv[2], page + 64, page + 2048, sizeof(code)))
			return 1;
		spin = (void (*)(uint64_t))(void *)(page + 2048);
		end = cpu_ms() + ms;
		while (cpu_ms() < end)
			spin(1000000);
		printf("jitdump_spin_loop at %p\n", (void *)(page + 2048));
		return 0;
	}
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
