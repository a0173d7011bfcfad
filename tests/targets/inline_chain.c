// SPDX-License-Identifier: MIT
/*
 * Three functions inlined into each other, for tests/unit/test_unwind.c: in chain_outer's
 * code, the loop of chain_c3 sits inside chain_c2 inside chain_c1, so its addresses have
 * the inline chain chain_c3, chain_c2, chain_c1 (innermost first); never run by the tests.
 */
static volatile unsigned sink;

static inline __attribute__((always_inline)) unsigned chain_c3(unsigned x)
{
	for (unsigned i = 0; i < x; i++)
		sink += i * x;
	return sink;
}

static inline __attribute__((always_inline)) unsigned chain_c2(unsigned x)
{
	sink ^= x;
	return chain_c3(x + 1) + 1;
}

static inline __attribute__((always_inline)) unsigned chain_c1(unsigned x)
{
	sink += 3;
	return chain_c2(x * 2) * 3;
}

__attribute__((noinline)) unsigned chain_outer(unsigned x)
{
	return chain_c1(x) + 7;
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)chain_outer((unsigned)argc * 1000) & 1;
}
