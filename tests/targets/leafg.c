// SPDX-License-Identifier: MIT
/*
 * A frameless leaf with two callers (tests/e2e/leafg.sh). Built gcc -O2
 * -fno-omit-frame-pointer: gcc still gives leaf functions no frame (they never push
 * %rbp), so the kernel's frame-pointer walk from the leaf starts at its caller's frame and
 * skips the caller. The source's stacks:
 *   2/3 of the time  main -> caller_a -> leaf
 *   1/3 of the time  main -> caller_b -> leaf
 * Usage: leafg [UNITS]   (a unit is one round: leaf twice from caller_a, once from caller_b)
 */
#include <stdio.h>
#include <stdlib.h>

#define WORK 2000000UL

unsigned long sink;

/* frameless: no calls, a few registers, nothing on the stack */
__attribute__((noinline)) unsigned long leaf(unsigned long n)
{
	unsigned long x = n;

	for (unsigned long i = 0; i < WORK; i++)
		x = x * 6364136223846793005UL + i;
	return x;
}

/* the result is used after the call: a call, not a jump (no sibling call) */
__attribute__((noinline)) unsigned long caller_a(unsigned long n)
{
	unsigned long r = leaf(n);

	__asm__ volatile("" ::: "memory");
	return r ^ (n << 1);
}

__attribute__((noinline)) unsigned long caller_b(unsigned long n)
{
	unsigned long r = leaf(n + 7);

	__asm__ volatile("" ::: "memory");
	return r ^ (n << 2);
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 300;

	for (long u = 0; u < units; u++) {
		sink += caller_a((unsigned long)u);
		sink += caller_a((unsigned long)u + 1);
		sink += caller_b((unsigned long)u);
	}
	printf("%lu\n", sink & 1);
	return 0;
}
