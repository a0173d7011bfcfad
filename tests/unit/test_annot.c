// SPDX-License-Identifier: MIT
/* Function Detail Data's pure parts (lib/annotate/annot_lines.c, annot_src.c) and the
 * disassembler seam (disasm_x86_64.c), on made-up input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annotate/annotate.h"

static void shares_of_a_total(void **state)
{
	(void)state;
	assert_true(rpt_annot_share(0, 0) == 0.0); /* an empty function: 0, not NaN */
	assert_true(rpt_annot_share(5, 0) == 0.0);
	assert_true(rpt_annot_share(1, 4) == 25.0);
	assert_true(rpt_annot_share(3, 3) == 100.0);
	assert_true(rpt_annot_share(1, 3) > 33.333 && rpt_annot_share(1, 3) < 33.334);
}

/* instructions at 0x10 (4 bytes), 0x14 (1), 0x20 (3): a gap 0x15..0x1f */
static struct rpt_annot_insn insns3[3] = {
	{ .addr = 0x10, .len = 4 }, { .addr = 0x14, .len = 1 }, { .addr = 0x20, .len = 3 } };

static void find_the_instruction_holding_an_address(void **state)
{
	struct rpt_annot_insn bare[1] = { { .addr = 0x40, .len = 0 } };

	(void)state;
	assert_int_equal(rpt_annot_find(insns3, 3, 0x10), 0);
	assert_int_equal(rpt_annot_find(insns3, 3, 0x13), 0); /* inside its bytes */
	assert_int_equal(rpt_annot_find(insns3, 3, 0x14), 1);
	assert_int_equal(rpt_annot_find(insns3, 3, 0x15), -1); /* the gap */
	assert_int_equal(rpt_annot_find(insns3, 3, 0x1f), -1);
	assert_int_equal(rpt_annot_find(insns3, 3, 0x22), 2);
	assert_int_equal(rpt_annot_find(insns3, 3, 0x23), -1); /* past the end */
	assert_int_equal(rpt_annot_find(insns3, 3, 0x0f), -1); /* before the start */
	assert_int_equal(rpt_annot_find(insns3, 0, 0x10), -1);
	/* a sampled address with no disassembly (length 0) holds just itself */
	assert_int_equal(rpt_annot_find(bare, 1, 0x40), 0);
	assert_int_equal(rpt_annot_find(bare, 1, 0x41), -1);
}

static void instructions_gather_into_source_lines(void **state)
{
	/* names are compared by content: two pointers to "a.c" are one file */
	static char a1[] = "a.c", a2[] = "a.c";
	struct rpt_annot_insn in[6] = {
		{ .addr = 0, .samples = 10 }, { .addr = 1, .samples = 5 },
		{ .addr = 2, .samples = 80 }, { .addr = 3, .samples = 0 },
		{ .addr = 4, .samples = 3 }, { .addr = 5, .samples = 2 } };
	const struct rpt_annot_pos pos[6] = {
		{ "b.c", 7, NULL },  { a1, 12, NULL }, { a2, 12, "step" },
		{ a1, 3, NULL },     { NULL, 0, NULL }, { a2, 12, NULL } };
	struct rpt_annot_line *lines;
	size_t n, order[4];

	(void)state;
	assert_int_equal(rpt_annot_lines(in, 6, pos, 100, &lines, &n), 0);
	/* source order: a.c:3, a.c:12 (own), a.c:12 (inlined step), b.c:7 */
	assert_int_equal(n, 4);
	assert_string_equal(lines[0].file, "a.c");
	assert_int_equal(lines[0].line, 3);
	assert_int_equal(lines[0].samples, 0);
	assert_int_equal(lines[1].line, 12);
	assert_null(lines[1].inlined);
	assert_int_equal(lines[1].samples, 7); /* 5 + 2: two instructions of one line */
	assert_string_equal(lines[2].inlined, "step");
	assert_int_equal(lines[2].samples, 80);
	assert_string_equal(lines[3].file, "b.c");
	assert_int_equal(lines[3].samples, 10);
	assert_true(lines[2].share == 80.0 && lines[1].share == 7.0);
	/* each instruction knows its line; one with no position has none */
	assert_int_equal(in[0].line, 3);
	assert_int_equal(in[1].line, 1);
	assert_int_equal(in[5].line, 1);
	assert_int_equal(in[2].line, 2);
	assert_int_equal(in[4].line, -1);
	assert_true(in[4].share == 3.0); /* its samples still count for the function */
	/* hottest: 80, 10, 7, then the empty line */
	rpt_annot_hottest(lines, n, order);
	assert_int_equal(order[0], 2);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[3], 0);
	free(lines);
}

static void hottest_ties_keep_source_order(void **state)
{
	struct rpt_annot_line l[4] = { { .samples = 4 }, { .samples = 9 }, { .samples = 4 },
				       { .samples = 9 } };
	size_t order[4];

	(void)state;
	rpt_annot_hottest(l, 4, order);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 3);
	assert_int_equal(order[2], 0);
	assert_int_equal(order[3], 2);
}

static void no_instructions_no_lines(void **state)
{
	struct rpt_annot_line *lines = (void *)1;
	size_t n = 99;

	(void)state;
	assert_int_equal(rpt_annot_lines(NULL, 0, NULL, 0, &lines, &n), 0);
	assert_int_equal(n, 0);
	free(lines);
}

/* parse a copy of @text (the parser takes the buffer over) */
static void parse(struct rpt_srcfile *s, const char *text, size_t len)
{
	char *buf = malloc(len ? len : 1);

	memcpy(buf, text, len);
	assert_int_equal(rpt_srcfile_parse(s, buf, len), 0);
}

static void source_text_splits_into_lines(void **state)
{
	struct rpt_srcfile s;
	const char *p;
	size_t len;

	(void)state;
	parse(&s, "one\r\ntwo\n\nfour", 14); /* CRLF, an empty line, no final newline */
	assert_int_equal(s.nlines, 4);
	p = rpt_srcfile_line(&s, 1, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(p, "one", 3);
	p = rpt_srcfile_line(&s, 2, &len);
	assert_memory_equal(p, "two", 3);
	assert_int_equal(len, 3);
	p = rpt_srcfile_line(&s, 3, &len);
	assert_non_null(p);
	assert_int_equal(len, 0);
	p = rpt_srcfile_line(&s, 4, &len);
	assert_int_equal(len, 4);
	assert_memory_equal(p, "four", 4);
	assert_null(rpt_srcfile_line(&s, 5, &len)); /* past the end: no line */
	assert_null(rpt_srcfile_line(&s, 0, &len));
	assert_null(rpt_srcfile_line(&s, -3, &len));
	rpt_srcfile_release(&s);
	rpt_srcfile_release(&s); /* twice is safe */
}

static void source_text_truncated_or_binary(void **state)
{
	static const char bin[] = { 'a', 0, 'b', '\n', (char)0xff, '\r' };
	struct rpt_srcfile s;
	const char *p;
	size_t len;

	(void)state;
	parse(&s, "", 0); /* an empty file has no lines */
	assert_int_equal(s.nlines, 0);
	assert_null(rpt_srcfile_line(&s, 1, &len));
	rpt_srcfile_release(&s);
	parse(&s, "x\n", 2); /* a final newline ends the last line, it starts none */
	assert_int_equal(s.nlines, 1);
	rpt_srcfile_release(&s);
	parse(&s, bin, sizeof(bin)); /* a NUL is part of its line; a lone \r at the end */
	assert_int_equal(s.nlines, 2);
	p = rpt_srcfile_line(&s, 1, &len);
	assert_int_equal(len, 3);
	assert_memory_equal(p, bin, 3);
	p = rpt_srcfile_line(&s, 2, &len);
	assert_int_equal(len, 1);
	assert_int_equal((unsigned char)p[0], 0xff);
	rpt_srcfile_release(&s);
}

static void source_found_under_src_path(void **state)
{
	char dir[] = "/tmp/uprof-annot-XXXXXX", path[256], found[256];
	const char *dirs[2];
	struct rpt_srcfile s = { 0 };
	size_t len;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/src", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/src/a.c", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("int x;\nint y;\n", f);
	fclose(f);
	dirs[0] = "/nonexistent-uprof-dir";
	dirs[1] = dir;
	/* /gone/build/src/a.c is DIR/src/a.c once two leading directories are left out */
	assert_int_equal(rpt_srcfile_read(&s, "/gone/build/src/a.c", dirs, 2, found,
					  sizeof(found)), 0);
	assert_string_equal(found, path);
	assert_memory_equal(rpt_srcfile_line(&s, 2, &len), "int y;", 6);
	rpt_srcfile_release(&s);
	assert_int_equal(rpt_srcfile_read(&s, "/gone/build/src/b.c", dirs, 2, found,
					  sizeof(found)), -ENOENT);
	assert_int_equal(rpt_srcfile_read(&s, "/gone/a.c", dirs, 0, found, sizeof(found)),
			 -ENOENT);
	/* a FIFO where the source should be is no source, and never blocks the report */
	snprintf(path, sizeof(path), "%s/fifo.c", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rpt_srcfile_read(&s, path, NULL, 0, found, sizeof(found)), -ENOENT);
	unlink(path);
	snprintf(path, sizeof(path), "%s/src/a.c", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/src", dir);
	rmdir(path);
	rmdir(dir);
}

static void disassembles_both_syntaxes(void **state)
{
	static const uint8_t divsd[] = { 0xf2, 0x0f, 0x5e, 0xc1 }; /* divsd xmm0, xmm1 */
	static const uint8_t jne[] = { 0x75, 0xd8 };		     /* jne -0x28 */
	char text[RPT_DISASM_TEXT];
	int n;

	(void)state;
	n = rpt_disasm_one(divsd, sizeof(divsd), 0x1493, RPT_DISASM_INTEL, text);
	if (n == -EOPNOTSUPP)
		skip(); /* a build without a disassembler for its architecture */
	assert_int_equal(n, 4);
	assert_string_equal(text, "divsd xmm0, xmm1");
	assert_int_equal(rpt_disasm_one(divsd, sizeof(divsd), 0x1493, RPT_DISASM_ATT, text), 4);
	assert_string_equal(text, "divsd %xmm1, %xmm0");
	/* a branch shows its target as an absolute address of the function */
	assert_int_equal(rpt_disasm_one(jne, sizeof(jne), 0x149e, RPT_DISASM_INTEL, text), 2);
	assert_string_equal(text, "jnz 0x1478");
	/* cut short, or no instruction: -EILSEQ and "(bad)", never a read past @len */
	assert_int_equal(rpt_disasm_one(divsd, 2, 0, RPT_DISASM_INTEL, text), -EILSEQ);
	assert_string_equal(text, "(bad)");
	assert_int_equal(rpt_disasm_one(divsd, 0, 0, RPT_DISASM_INTEL, text), -EILSEQ);
	assert_int_equal(rpt_disasm_one((const uint8_t[]){ 0x0f, 0x0b }, 2, 0, RPT_DISASM_INTEL,
					text), 2); /* ud2 is an instruction */
	assert_int_equal(rpt_disasm_one((const uint8_t[]){ 0x06 }, 1, 0, RPT_DISASM_INTEL, text),
			 -EILSEQ); /* push es: invalid in 64-bit mode */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_of_a_total),
		cmocka_unit_test(find_the_instruction_holding_an_address),
		cmocka_unit_test(instructions_gather_into_source_lines),
		cmocka_unit_test(hottest_ties_keep_source_order),
		cmocka_unit_test(no_instructions_no_lines),
		cmocka_unit_test(source_text_splits_into_lines),
		cmocka_unit_test(source_text_truncated_or_binary),
		cmocka_unit_test(source_found_under_src_path),
		cmocka_unit_test(disassembles_both_syntaxes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
