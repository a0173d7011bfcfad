// SPDX-License-Identifier: MIT
/* AArch64: DWARF x0..x30 and sp, perf's PERF_REG_ARM64_*. No fast CFA path yet. */
#include "arch/arch.h"

#include <asm/perf_regs.h>
#include <linux/perf_event.h>

const struct arch_desc arch_this = {
	.name = "aarch64",
	.user_regs_mask = (1ULL << PERF_REG_ARM64_MAX) - 1,
	.regs_abi = PERF_SAMPLE_REGS_ABI_64,
	.ndwarf = 32,
	.dwarf_to_perf = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		22, 23, 24, 25, 26, 27, 28, 29, PERF_REG_ARM64_LR, PERF_REG_ARM64_SP,
	},
	.perf_sp = PERF_REG_ARM64_SP,
	.perf_pc = PERF_REG_ARM64_PC,
	.dw_sp = -1,
	.dw_bp = -1,
};
