/* SPDX-License-Identifier: MIT */
/*
 * Frames whose call frame information is known to the byte, for tests/unit/test_unwind.c,
 * which builds dwarf samples (registers and a stack copy) in them by hand; never run.
 * Linked with uw_entry as its ELF entry point:
 *   uw_entry     the entry point: no CFI and no function symbol (ld.so's _start)
 *   uw_rsp_func  CFA from %rsp
 *   uw_fp_func   CFA from %rbp: its caller's %rbp must be right to go on
 *   uw_leaf      saves %rbp, and pops it in its epilogue (uw_leaf_after_pop: the save
 *                slot is below %rsp there, outside the stack copy)
 *   uw_nocfi     code without CFI that is not the entry point
 */
	.text
	.globl uw_entry
uw_entry:
	mov %rsp, %rdi
	call uw_rsp_func
	.globl uw_entry_ret
uw_entry_ret:
	hlt

	.globl uw_rsp_func
	.type uw_rsp_func, @function
uw_rsp_func:
	.cfi_startproc
	sub $8, %rsp
	.cfi_def_cfa_offset 16
	call uw_fp_func
	.globl uw_rsp_ret
uw_rsp_ret:
	add $8, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size uw_rsp_func, .-uw_rsp_func

	.globl uw_fp_func
	.type uw_fp_func, @function
uw_fp_func:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	call uw_leaf
	.globl uw_fp_ret
uw_fp_ret:
	pop %rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size uw_fp_func, .-uw_fp_func

	.globl uw_leaf
	.type uw_leaf, @function
uw_leaf:
	.cfi_startproc
	push %rbp
	.cfi_def_cfa_offset 16
	.cfi_offset %rbp, -16
	nop
	pop %rbp
	.cfi_def_cfa_offset 8
	.globl uw_leaf_after_pop
uw_leaf_after_pop:
	ret
	.cfi_endproc
	.size uw_leaf, .-uw_leaf

	/* far from the entry point: more than its 64 bytes away */
	.skip 128, 0x90
	.globl uw_nocfi
	.type uw_nocfi, @function
uw_nocfi:
	nop
	nop
	ret
	.size uw_nocfi, .-uw_nocfi

	.section .note.GNU-stack, "", @progbits
