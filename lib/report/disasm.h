/* SPDX-License-Identifier: MIT */
/*
 * lib/report internal: machine code to text for the assembly view (annotate.c). One file
 * per architecture, chosen by the Makefile as lib/arch chooses its own (disasm_x86_64.c
 * through Zydis 4, disasm_generic.c for the rest): no #ifdef in the logic. Only these
 * files touch the disassembler library.
 *
 * Zydis rather than Capstone: uprof profiles x86-64 (uProf's platform) and Zydis 4 is
 * x86-only but current (Debian 12 has 4.0.0, 2022; Capstone is 4.0.2, from 2020, which
 * misses later AVX-512 and AMX forms), decodes the whole ISA table-driven, and has
 * Intel and AT&T formatters of its own.
 */
#ifndef UPROF_REPORT_DISASM_H
#define UPROF_REPORT_DISASM_H

#include <stddef.h>
#include <stdint.h>

enum rpt_disasm_style { RPT_DISASM_INTEL, RPT_DISASM_ATT };

#define RPT_DISASM_TEXT 96

/*
 * Decode one instruction from @code (@len bytes, borrowed, untrusted) at address @addr,
 * its text in @style into @text (RPT_DISASM_TEXT bytes, NUL-terminated; branch targets
 * as absolute addresses). Returns its length in bytes (1..15), -EILSEQ for bytes that
 * are no instruction (the caller steps one byte: "(bad)"), -EOPNOTSUPP when this build
 * has no disassembler (@text then says why).
 */
int rpt_disasm_one(const uint8_t *code, size_t len, uint64_t addr, enum rpt_disasm_style style,
		   char *text);

#endif
