// SPDX-License-Identifier: MIT
/*
 * cfa_rbx: a stack whose unwinding needs a register the callee's CFI says it lost, as
 * ld.so's _dl_runtime_resolve_xsavec (its CFA is %rbx, the stack realigned under it) needs
 * %rbx from _dl_fixup. Here main -> outer_rbx_cfa (CFA = %rbx + 16) -> leaf_undef_rbx
 * (.cfi_undefined %rbx) -> spin_cut, which spins ~0.3 s: no unwinder can get past
 * outer_rbx_cfa, and the stack must not be taken to end there. Beside it, main ->
 * spin_plain spins as long with ordinary frames, which unwind to the start.
 */
#include <time.h>

static volatile double sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double s)
{
	double end = now() + s, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x += i;
	sink = x;
}

__attribute__((noinline, used)) void spin_cut(void)
{
	spin(0.3);
}

__attribute__((noinline)) void spin_plain(void)
{
	spin(0.3);
	sink = sink + 1; /* not a tail call: the frame stays */
}

void outer_rbx_cfa(void);
__asm__(".text\n"
	".globl outer_rbx_cfa\n"
	".type outer_rbx_cfa, @function\n"
	"outer_rbx_cfa:\n"
	"	.cfi_startproc\n"
	"	push %rbx\n"
	"	.cfi_def_cfa_offset 16\n"
	"	.cfi_offset %rbx, -16\n"
	"	mov %rsp, %rbx\n"
	"	.cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	call leaf_undef_rbx\n"
	"	mov %rbx, %rsp\n"
	"	.cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	"	.cfi_def_cfa_offset 8\n"
	"	.cfi_restore %rbx\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size outer_rbx_cfa, .-outer_rbx_cfa\n"
	".globl leaf_undef_rbx\n"
	".type leaf_undef_rbx, @function\n"
	"leaf_undef_rbx:\n"
	"	.cfi_startproc\n"
	"	.cfi_undefined %rbx\n"
	"	sub $8, %rsp\n"
	"	.cfi_def_cfa_offset 16\n"
	"	call spin_cut\n"
	"	add $8, %rsp\n"
	"	.cfi_def_cfa_offset 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	".size leaf_undef_rbx, .-leaf_undef_rbx\n");

int main(void)
{
	outer_rbx_cfa();
	spin_plain();
	return 0;
}
