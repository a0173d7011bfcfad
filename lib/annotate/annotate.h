/* SPDX-License-Identifier: MIT */
/*
 * lib/annotate: the pure parts of Function Detail Data, where inside a function the
 * samples fell (lib/report's annotate.c builds it from the report, annot_csv.c writes it,
 * rpt_annots() hands it to the terminal view). Nothing here knows the report, so that
 * cmocka tests drive it with made-up input:
 *   annot_lines.c  samples placed on instructions, instructions gathered into source
 *                  lines, shares of the function, the hottest lines
 *   annot_src.c    a source file's text split into lines (untrusted bytes: fuzzed), and
 *                  where a file DWARF names is found (its path, then --src-path)
 *   annot_elf.c    the code of a function from its module file: range and bytes
 *   disasm_*.c     machine code to text for the assembly view
 */
#ifndef UPROF_ANNOTATE_H
#define UPROF_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One source line of a function and its samples. */
struct rpt_annot_line {
	const char *file; /* as DWARF names it (borrowed from the report) */
	int line;
	const char *inlined; /* the function inlined here whose own line it is; NULL: the
			      * annotated function's */
	uint64_t samples;
	double share;	  /* % of the function's samples */
	const char *text; /* the source line (not NUL-terminated: @text_len), NULL when
			      * its file was not found */
	size_t text_len;
};

struct rpt_annot_insn {
	uint64_t addr;	  /* link-time virtual address, as objdump and perf show it */
	uint64_t samples; /* samples whose IP was this instruction */
	double share;
	int line;      /* index in the function's lines, -1: no line known */
	uint8_t len;   /* bytes; 0: a sampled address with no disassembly */
	char text[96]; /* the instruction, "" when there is no disassembly */
};

/* ---- annot_lines.c ---- */

/* Share of @part in @total, in percent; 0 for an empty total. */
double rpt_annot_share(uint64_t part, uint64_t total);

/* The instruction of @insns (@n, sorted by address, lengths set) holding @addr: its
 * index, or -1 when none does (an address before, after or between them). */
long rpt_annot_find(const struct rpt_annot_insn *insns, size_t n, uint64_t addr);

/* The source position of one instruction, as DWARF's line table has it (strings interned
 * by the caller: equal pointers are equal names). file NULL: no line known. */
struct rpt_annot_pos {
	const char *file;
	int line;
	const char *inlined; /* the inlined function the line is in; NULL: the function's own */
};

/*
 * Gather @insns (@n) into source lines: one line per distinct (file, line, inlined) of
 * @pos (pos[i] is insns[i]'s), with the sum of its instructions' samples. The lines come
 * back in source order (file name, line number, then the function's own line before
 * inlined ones) in *@lines (malloc'ed, the caller frees), their count in *@nlines; each
 * insns[i].line is set to its line's index (-1: none). Shares (of @total) are set on
 * lines and instructions. 0 or -ENOMEM (nothing changed then but the shares).
 */
int rpt_annot_lines(struct rpt_annot_insn *insns, size_t n, const struct rpt_annot_pos *pos,
		    uint64_t total, struct rpt_annot_line **lines, size_t *nlines);

/* The indices of @lines (@n) in @order, most samples first, ties in source order. */
void rpt_annot_hottest(const struct rpt_annot_line *lines, size_t n, size_t *order);

/* ---- annot_src.c ---- */

/* A source file's text, split into lines. Embedded; zero-initialise, release. */
struct rpt_srcfile {
	char *buf; /* the file's bytes (owned) */
	size_t len;
	size_t *starts; /* line i (0-based) starts at buf + starts[i] */
	size_t nlines;
};

#define RPT_SRC_MAX_BYTES (64u << 20) /* a bigger "source" is not read */
#define RPT_SRC_MAX_LINES (4u << 20)

/* Split @len bytes at @buf (taken over: freed by rpt_srcfile_release, also on failure)
 * into lines at '\n' (a "\r\n" ends a line too; a NUL byte is part of a line). Past
 * RPT_SRC_MAX_LINES lines the rest is one last line. 0 or -ENOMEM. */
int rpt_srcfile_parse(struct rpt_srcfile *s, char *buf, size_t len);
/* Line @line (1-based) as (pointer into the file, length without its end of line);
 * NULL when the file has no such line. */
const char *rpt_srcfile_line(const struct rpt_srcfile *s, int line, size_t *len);
void rpt_srcfile_release(struct rpt_srcfile *s);

/* Read the file DWARF names @file: at that path, else under each of @dirs (@ndirs) as
 * DIR/<the path less 0, 1, 2 ... leading components>, the first regular file found (a
 * FIFO or device is no source). 0, -ENOENT (nowhere), -EFBIG, -ENOMEM; @found (PATH_MAX)
 * gets the path read. */
int rpt_srcfile_read(struct rpt_srcfile *s, const char *file, const char *const *dirs, int ndirs,
		     char *found, size_t foundlen);

/* ---- annot_elf.c ---- */

struct rpt_locator;

/* The code of one function, read from its module file. */
#define RPT_ANNOT_SEGS 16
struct rpt_annot_code {
	uint64_t start, end; /* [start, end): link-time virtual addresses */
	uint8_t *bytes;	     /* end - start bytes (owned: free()), NULL when unreadable */
	bool sized;	     /* from a symbol with a size (else an FDE's range, stripped) */
	bool has_symtab;     /* the file has a .symtab (not stripped) */
	bool has_debug_line; /* ... a .debug_line (its own, not a separate debug file) */
	int nsegs;	     /* its PT_LOAD segments: file offsets to addresses */
	struct {
		uint64_t off, vaddr, filesz;
	} segs[RPT_ANNOT_SEGS];
};

/*
 * Find the function holding @file_offset in module @path (found through @loc, borrowed,
 * may be NULL) and read its code into @code (zeroed first; free code->bytes). 0; -ENOENT
 * (the file is not there or not the one profiled), -ENOEXEC (no segment or no function
 * holds the offset: @code still has the segments), -EFBIG (a range over 1 MiB), -ENOMEM.
 */
int rpt_annot_code_read(struct rpt_locator *loc, const char *path, uint64_t file_offset,
			struct rpt_annot_code *code);
#define RPT_ANNOT_MAX_CODE (1u << 20)
/* The link-time address of @file_offset in @code's segments; false when none holds it. */
bool rpt_annot_code_vaddr(const struct rpt_annot_code *code, uint64_t file_offset, uint64_t *vaddr);

/* ---- disasm_*.c ----
 *
 * Machine code to text for the assembly view (lib/report's annotate.c). One file
 * per architecture, chosen by the Makefile as lib/arch chooses its own (disasm_x86_64.c
 * through Zydis 4, disasm_generic.c for the rest): no #ifdef in the logic. Only these
 * files touch the disassembler library.
 *
 * Zydis rather than Capstone: uprof profiles x86-64 (uProf's platform) and Zydis 4 is
 * x86-only but current (Debian 12 has 4.0.0, 2022; Capstone is 4.0.2, from 2020, which
 * misses later AVX-512 and AMX forms), decodes the whole ISA table-driven, and has
 * Intel and AT&T formatters of its own.
 */

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
