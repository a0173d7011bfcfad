// SPDX-License-Identifier: MIT
/* x86-64: psABI DWARF numbering, perf's PERF_REG_X86_*. */
#include "arch/arch.h"

#include <asm/perf_regs.h>
#include <linux/perf_event.h>

const struct arch_desc arch_this = {
	.name = "x86_64",
	/* every general register; the kernel samples no segment registers on x86-64 */
	.user_regs_mask = ((1ULL << PERF_REG_X86_64_MAX) - 1) &
			  ~((1ULL << PERF_REG_X86_DS) | (1ULL << PERF_REG_X86_ES) |
			    (1ULL << PERF_REG_X86_FS) | (1ULL << PERF_REG_X86_GS)),
	.leaf_regs_mask = (1ULL << PERF_REG_X86_IP) | (1ULL << PERF_REG_X86_SP) |
			  (1ULL << PERF_REG_X86_BP),
	.regs_abi = PERF_SAMPLE_REGS_ABI_64,
	.ndwarf = 17,
	.dwarf_to_perf = {
		PERF_REG_X86_AX, PERF_REG_X86_DX, PERF_REG_X86_CX, PERF_REG_X86_BX,
		PERF_REG_X86_SI, PERF_REG_X86_DI, PERF_REG_X86_BP, PERF_REG_X86_SP,
		PERF_REG_X86_R8, PERF_REG_X86_R9, PERF_REG_X86_R10, PERF_REG_X86_R11,
		PERF_REG_X86_R12, PERF_REG_X86_R13, PERF_REG_X86_R14, PERF_REG_X86_R15,
		PERF_REG_X86_IP,
	},
	.perf_sp = PERF_REG_X86_SP,
	.perf_pc = PERF_REG_X86_IP,
	.dw_sp = 7,
	.dw_bp = 6,
};
