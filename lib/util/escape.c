// SPDX-License-Identifier: MIT
/*
 * Escaping for CSV, XML/HTML and JSON (util.h): the one quoter of CSV cells and the one
 * HTML escaper, for report.csv, the exports, tools' sections, pcm and roofline files.
 */
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @s (1..4) within @avail bytes, or 0 if it is not
 * one. Valid as RFC 3629 has it (what JSON and XML parsers check): no overlong forms, no
 * surrogates (U+D800..DFFF), nothing above U+10FFFF; and not U+FFFE/U+FFFF, which XML
 * forbids. */
static int utf8_len(const unsigned char *s, size_t avail)
{
	int n = s[0] < 0x80   ? 1
		: s[0] < 0xc2 ? 0
		: s[0] < 0xe0 ? 2
		: s[0] < 0xf0 ? 3
		: s[0] < 0xf5 ? 4
			      : 0;
	/* the range of the second byte, narrower after these lead bytes */
	unsigned lo = s[0] == 0xe0 ? 0xa0 : s[0] == 0xf0 ? 0x90 : 0x80;
	unsigned hi = s[0] == 0xed ? 0x9f : s[0] == 0xf4 ? 0x8f : 0xbf;

	if ((size_t)n > avail)
		return 0;
	if (n > 1 && (s[1] < lo || s[1] > hi))
		return 0;
	for (int i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	return n;
}

/* UTIL_ESC_HTML_PLAIN: the four specials, every other byte as it is. */
static void put_html_plain(FILE *f, const char *p, size_t n)
{
	for (size_t i = 0; i < n && p[i]; i++) {
		switch (p[i]) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(p[i], f);
		}
	}
}

/* One byte below 0x80 (a whole character) escaped as @how. */
static void put_ascii(FILE *f, unsigned char c, enum util_escape how)
{
	if (how == UTIL_ESC_CSV || how == UTIL_ESC_TEXT) {
		fputc(c == '\n' || c == '\r' ? ' ' : c < 0x20 ? '?' : c, f);
		if (c == '"' && how == UTIL_ESC_CSV)
			fputc('"', f);
	} else if (how == UTIL_ESC_XML) {
		switch (c) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc(c < 0x20 ? '?' : c, f);
		}
	} else if (c == ';' && how == UTIL_ESC_JSON_FRAME) {
		fputc(':', f);
	} else if (how == UTIL_ESC_JSON_HTML && (c == '<' || c == '>' || c == '&')) {
		fprintf(f, "\\u%04x", c);
	} else if (c == '"' || c == '\\') {
		fputc('\\', f);
		fputc(c, f);
	} else if (c < 0x20) {
		fprintf(f, "\\u%04x", c);
	} else {
		fputc(c, f);
	}
}

void util_put_escaped_n(FILE *f, const char *str, size_t len, enum util_escape how)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *end = s + strnlen(str, len);

	if (how == UTIL_ESC_HTML_PLAIN) {
		put_html_plain(f, str, len);
		return;
	}
	while (s < end) {
		int n = utf8_len(s, (size_t)(end - s));

		if (!n) { /* not UTF-8: the replacement character */
			fputs(how == UTIL_ESC_JSON || how == UTIL_ESC_JSON_FRAME ||
					      how == UTIL_ESC_JSON_HTML
				      ? "\\ufffd"
				      : "\xef\xbf\xbd",
			      f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		put_ascii(f, *s, how);
		s++;
	}
}

void util_put_escaped(FILE *f, const char *s, enum util_escape how)
{
	util_put_escaped_n(f, s, strlen(s), how);
}

void util_csv_cell(FILE *f, const char *s, enum util_csv_quoting q)
{
	bool one_line = q == UTIL_CSV_WHEN_NEEDED_ONE_LINE;

	if (q == UTIL_CSV_ALWAYS) {
		fputc('"', f);
		util_put_escaped(f, s ? s : "", UTIL_ESC_CSV);
		fputc('"', f);
		return;
	}
	if (!strpbrk(s, one_line ? ",\"\n\r" : ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		if (!one_line || (*s != '\n' && *s != '\r'))
			fputc(*s, f);
	}
	fputc('"', f);
}

void util_csv_quoted(FILE *f, const char *s)
{
	util_csv_cell(f, s, UTIL_CSV_ALWAYS);
}

void util_csv_kv(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s:,", key);
	util_csv_quoted(f, value);
	fputc('\n', f);
}

void util_csv_kvf(FILE *f, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	util_csv_kv(f, key, buf);
}

int util_csv_split(const char *p, size_t len, char *store, char **cells, int max)
{
	int n = 0;
	size_t i = 0, o = 0;

	for (;;) {
		bool quoted = false;

		if (n == max)
			return -1;
		cells[n++] = store + o;
		if (i < len && p[i] == '"') {
			quoted = true;
			i++;
		}
		for (; i < len; i++) {
			if (quoted && p[i] == '"') {
				if (i + 1 < len && p[i + 1] == '"') {
					store[o++] = '"';
					i++;
					continue;
				}
				quoted = false;
				continue;
			}
			if (!quoted && p[i] == ',')
				break;
			store[o++] = p[i];
		}
		store[o++] = '\0';
		if (quoted)
			return -1;
		if (i >= len)
			return n;
		i++; /* the comma */
	}
}
