// SPDX-License-Identifier: MIT
/*
 * Known call stacks for -g / --call-graph (tests/e2e/callgraph.sh), built twice: with
 * and without frame pointers.
 *   callgraph [units] [mode]
 *   chain (default)  70%: main -> chain_a -> chain_b -> chain_leaf
 *                    30%: main -> recurse (5 levels) -> recurse_leaf
 *                    and a little in outer_with_inline, whose helper is always inlined
 *   chain-inline     the same with about 1 ms a unit in outer_with_inline, so that it is
 *                    sampled on every run (tests/e2e/tool_resolve.sh)
 *   deep             recurse 1000 levels deep, then spin at the bottom
 *   corrupt          overwrite the stack above the spinning function (its own return
 *                    address, main's frame, libc's) with 0x4141...; exits with _exit
 *   corrupt-loop     the same with words that point at themselves (a frame-pointer
 *                    chain that loops)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile double sink;

/* Each leaf has its own loop (no shared helper) so samples land in the leaf itself, and a
 * volatile local: GCC 12 leaves out the frame pointer of a leaf without a stack frame even
 * with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer. */
__attribute__((noinline)) void chain_leaf(long n)
{
	volatile double x = sink;

	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void chain_b(long n)
{
	chain_leaf(n);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void chain_a(long n)
{
	chain_b(n);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void recurse_leaf(long n)
{
	volatile double x = sink;

	for (long i = 0; i < n; i++)
		x = x * 1.0000003 + 1e-9;
	sink = x;
}

/* Not a tail call and not a loop: the volatile frame keeps every level on the stack. */
__attribute__((noinline)) long recurse(int depth, long n)
{
	volatile long pad[2] = { depth, n };

	if (depth > 0)
		pad[1] = recurse(depth - 1, n);
	else
		recurse_leaf(n);
	return pad[0] + pad[1];
}

static inline __attribute__((always_inline)) void inlined_helper(long n)
{
	double x = sink;

	for (long i = 0; i < n; i++)
		x = x * 1.0000005 + 1e-9;
	sink = x;
}

__attribute__((noinline)) void outer_with_inline(long n)
{
	volatile long frame = n;

	inlined_helper(frame);
	__asm__ volatile("" ::: "memory");
}

/* Never returns: the frames it overwrote are gone. */
__attribute__((noinline, noreturn)) void corrupt_and_spin(long n, int loop)
{
	volatile uintptr_t *p = (volatile uintptr_t *)__builtin_frame_address(0);
	double x = sink;

	for (int i = 0; i < 64; i++)
		p[i] = loop ? (uintptr_t)&p[i] : (uintptr_t)0x4141414141414141ULL;
	for (long i = 0; i < n; i++)
		x = x * 1.0000007 + 1e-9;
	sink = x;
	_exit(0);
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 1000;
	const char *mode = argc > 2 ? argv[2] : "chain";

	if (!strncmp(mode, "corrupt", 7)) {
		printf("callgraph corrupting its stack\n");
		fflush(stdout);
		corrupt_and_spin(units * 100000, !strcmp(mode, "corrupt-loop"));
	}
	if (!strcmp(mode, "deep")) {
		for (long i = 0; i < units; i++)
			recurse(1000, 100000);
	} else { /* chain or chain-inline */
		for (long i = 0; i < units / 10; i++) {
			for (int k = 0; k < 7; k++)
				chain_a(100000);
			for (int k = 0; k < 3; k++)
				recurse(5, 100000);
		}
		/* chain-inline: enough time in the inlined helper that cpu-clock
		 * samples it on every run (about 1 ms a unit); chain: a little. */
		outer_with_inline(units * (strcmp(mode, "chain-inline") ? 1000 : 100000));
	}
	printf("callgraph done: %g\n", sink);
	return 0;
}
