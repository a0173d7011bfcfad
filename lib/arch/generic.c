// SPDX-License-Identifier: MIT
/* Any other architecture: timer and frame-pointer profiles work; dwarf stacks are
 * refused at collect (no user register mask) and nothing is unwound at report. */
#include "arch/arch.h"

const struct arch_desc arch_this = {
	.name = "unknown",
	.user_regs_mask = 0,
	.regs_abi = -1,
	.ndwarf = 0,
	.perf_sp = 0,
	.perf_pc = 0,
	.dw_sp = -1,
	.dw_bp = -1,
};
