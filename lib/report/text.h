/* lib/report/text.h -- the small pieces report's text parsers share (kallsyms, perf maps).
 * Header-only, so each parser and its fuzz target stays a single source file. */
#ifndef UPROF_REPORT_TEXT_H
#define UPROF_REPORT_TEXT_H

/* The value of hex digit @c, or -1: the one digit reader of report's text parsers
 * (kallsyms, perf maps). */
static inline int rpt_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
