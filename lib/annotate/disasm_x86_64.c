// SPDX-License-Identifier: MIT
/* The assembly view's disassembler on x86-64: Zydis 4 (annotate.h says why Zydis). */
#include "annotate/annotate.h"

#include <Zydis/Zydis.h>
#include <errno.h>
#include <stdio.h>

/* Decoders and formatters are plain structs that Zydis fills in; made on each call (a
 * few hundred ns, beside the decode) so that nothing global needs a lock or an init. */
int rpt_disasm_one(const uint8_t *code, size_t len, uint64_t addr, enum rpt_disasm_style style,
		   char *text)
{
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	ZydisDecodedInstruction insn;
	ZydisFormatter fmt;
	ZydisDecoder dec;

	text[0] = 0;
	if (!len)
		return -EILSEQ;
	if (ZYAN_FAILED(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
	    ZYAN_FAILED(ZydisFormatterInit(&fmt, style == RPT_DISASM_ATT
							 ? ZYDIS_FORMATTER_STYLE_ATT
							 : ZYDIS_FORMATTER_STYLE_INTEL)))
		return -EOPNOTSUPP;
	/* branch targets as objdump and perf print them: "jle 0x14a0", not 0x00000000000014A0 */
	ZydisFormatterSetProperty(&fmt, ZYDIS_FORMATTER_PROP_ADDR_PADDING_ABSOLUTE,
				  ZYDIS_PADDING_DISABLED);
	ZydisFormatterSetProperty(&fmt, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE);
	if (ZYAN_FAILED(ZydisDecoderDecodeFull(&dec, code, len, &insn, ops))) {
		snprintf(text, RPT_DISASM_TEXT, "(bad)");
		return -EILSEQ;
	}
	if (ZYAN_FAILED(ZydisFormatterFormatInstruction(&fmt, &insn, ops,
							insn.operand_count_visible, text,
							RPT_DISASM_TEXT, addr, NULL)))
		snprintf(text, RPT_DISASM_TEXT, "(unformattable)");
	return insn.length;
}
