// SPDX-License-Identifier: MIT
/*
 * Target for tests/unit/test_symtab.c: functions with known names that the test looks
 * up by file offset. Built at test time as PIE, non-PIE, shared and stripped copies.
 */
volatile int symtab_sink;

__attribute__((noinline)) int c_alpha(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++) {
		s += i * i;
		symtab_sink = s;
	}
	return s;
}

__attribute__((noinline)) int c_beta(int n)
{
	int s = 1;

	for (int i = 0; i < n; i++) {
		s = s * 3 + i;
		symtab_sink = s;
	}
	return s;
}

/* Local: only in .symtab, never in .dynsym, so it needs the debug file once stripped. */
static __attribute__((noinline)) int c_gamma_static(int n)
{
	int s = 7;

	for (int i = 0; i < n; i++) {
		s ^= i << 2;
		symtab_sink = s;
	}
	return s;
}

/* A function symbol without a size (no .size directive), as hand-written asm has. */
__asm__(".text\n"
	".globl c_nosize\n"
	".type c_nosize, %function\n"
	"c_nosize:\n"
	"\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n"
	"\tret\n");

int main(int argc, char **argv)
{
	(void)argv;
	return (c_alpha(argc) + c_beta(argc) + c_gamma_static(argc)) & 1;
}
