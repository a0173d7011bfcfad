/* SPDX-License-Identifier: MIT */
/*
 * The test tools' one way to write a row of cells back to the report (tests/tool: each
 * tool is built alone against include/uprof_tool.h, as a real tool is, so this is a
 * header of their own, not a library). @cells has a letter a cell, its value next among
 * the arguments: 't' text (const char *), 'i' an integer (int64_t: cast it), 'g' a double;
 * then the row's end. The first error stops the row and is returned.
 */
#ifndef UPROF_TESTS_TOOL_ROW_H
#define UPROF_TESTS_TOOL_ROW_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <uprof_tool.h>

static inline int tool_row(const struct uprof_tool_core *core, const char *cells, ...)
{
	va_list ap;
	int ret = 0;

	va_start(ap, cells);
	for (const char *c = cells; *c && !ret; c++) {
		if (*c == 't')
			ret = core->cell_text(core, va_arg(ap, const char *));
		else if (*c == 'i')
			ret = core->cell_int(core, va_arg(ap, int64_t));
		else if (*c == 'g')
			ret = core->cell_double(core, va_arg(ap, double));
		else
			ret = -EINVAL;
	}
	va_end(ap);
	return ret ? ret : core->row_end(core);
}

#endif
