// SPDX-License-Identifier: MIT
/* libFuzzer target for the untrusted bytes of Function Detail Data: a source file split
 * into lines (lib/annotate/annot_src.c; any file DWARF or --src-path names), and a module's
 * code run through the disassembler seam the way annotate.c walks a function
 * (disasm_x86_64.c over Zydis). Aborts when a line leaves the buffer or holds its own end
 * of line, or an instruction is longer than x86's 15 bytes or its text is unterminated. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lines(const uint8_t *data, size_t size)
{
	struct rpt_srcfile s;
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return;
	memcpy(buf, data, size);
	if (!rpt_srcfile_parse(&s, buf, size)) {
		for (size_t i = 1; i <= s.nlines + 1; i++) {
			size_t len;
			const char *p = rpt_srcfile_line(&s, (int)i, &len);

			if (!p)
				continue;
			if (i > s.nlines || p < s.buf || p + len > s.buf + s.len ||
			    memchr(p, '\n', len))
				abort();
		}
	}
	rpt_srcfile_release(&s);
}

static void code(const uint8_t *data, size_t size, enum rpt_disasm_style style)
{
	char text[RPT_DISASM_TEXT];

	for (size_t off = 0; off < size;) {
		int n = rpt_disasm_one(data + off, size - off, 0x1000 + off, style, text);

		if (n == -EOPNOTSUPP)
			return;
		if (n > 15 || (n > 0 && (size_t)n > size - off) || !memchr(text, 0, sizeof(text)))
			abort();
		off += n > 0 ? (size_t)n : 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	lines(data, size);
	code(data, size, size && data[0] & 1 ? RPT_DISASM_ATT : RPT_DISASM_INTEL);
	return 0;
}
