// SPDX-License-Identifier: MIT
/* No disassembler for this architecture (Zydis is x86 only): source lines and sampled
 * addresses still show, the assembly view says why it is missing. */
#include "annotate/annotate.h"

#include <errno.h>
#include <stdio.h>

int rpt_disasm_one(const uint8_t *code, size_t len, uint64_t addr, enum rpt_disasm_style style,
		   char *text)
{
	(void)code, (void)len, (void)addr, (void)style;
	snprintf(text, RPT_DISASM_TEXT,
		 "this build of uprof has no disassembler for its "
		 "architecture");
	return -EOPNOTSUPP;
}
