// SPDX-License-Identifier: MIT
/*
 * report.csv's text as the HTML report's tables: the CSV that rpt_write_csv() (or lib/job)
 * wrote is cut into its sections, each a run of non-empty lines, and written as JSON
 *   {"title":"10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)","rows":[["FUNCTION",...],...],
 *    "more":0}
 * with every cell the CSV's text, so the page shows report.csv's names and numbers as
 * they are. A section's title is its first line when that is one cell and lines follow
 * ("EXECUTION", a hottest table's title); "" otherwise (a header block of key,value
 * lines). Input is read as bytes that may be cut anywhere: a quote never closed ends at
 * the end, a NUL ends the text.
 */
#include "export/html.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *s;
	size_t len, at;
};

/* The next cell of the current line into @cell (its quotes undone); *@eol set when the
 * line (or the text) ends after it. 0 or -ENOMEM. */
static int next_cell(struct cursor *c, struct util_sbuf *cell, bool *eol)
{
	bool quoted = false;

	cell->len = 0;
	if (cell->s)
		cell->s[0] = 0;
	*eol = false;
	/* lib/job's MPI tables put a space after each comma, also before a quoted cell:
	 * read that as quoted (Python's csv skipinitialspace) */
	for (size_t at = c->at; at < c->len && c->s[at] == ' '; at++)
		if (at + 1 < c->len && c->s[at + 1] == '"')
			c->at = at + 1;
	if (c->at < c->len && c->s[c->at] == '"') {
		quoted = true;
		c->at++;
	}
	while (c->at < c->len) {
		char ch = c->s[c->at];
		size_t from = c->at;

		if (quoted && ch == '"') {
			if (c->at + 1 < c->len && c->s[c->at + 1] == '"') {
				c->at += 2;
				if (util_sbuf_add(cell, "\"", 1))
					return -ENOMEM;
				continue;
			}
			quoted = false; /* text after the closing quote stays part of the cell */
			c->at++;
			continue;
		}
		if (!quoted && (ch == ',' || ch == '\n')) {
			c->at++;
			*eol = ch == '\n';
			return 0;
		}
		while (c->at < c->len && c->s[c->at] != '"' && c->s[c->at] != ',' &&
		       c->s[c->at] != '\n')
			c->at++;
		if (c->at == from)
			c->at++; /* a ',' or newline inside quotes */
		if (util_sbuf_add(cell, c->s + from, c->at - from))
			return -ENOMEM;
	}
	*eol = true;
	return 0;
}

/* Is the line at @at empty (or only a CR)? */
static bool blank_line(const struct cursor *c, size_t at)
{
	if (at < c->len && c->s[at] == '\r')
		at++;
	return at >= c->len || c->s[at] == '\n';
}

/* Cells of one line into @row (each a separate NUL-terminated string in @row->s, @n of
 * them). 0 or -ENOMEM. */
static int read_line(struct cursor *c, struct util_sbuf *cells, size_t *n)
{
	struct util_sbuf cell = { 0 };
	bool eol = false;
	int ret = 0;

	cells->len = 0;
	*n = 0;
	while (!eol) {
		size_t l;

		ret = next_cell(c, &cell, &eol);
		if (ret)
			break;
		l = cell.len;
		if (l && cell.s[l - 1] == '\r' && eol)
			l--; /* a CRLF line's CR is no part of its last cell */
		if (util_sbuf_add(cells, cell.s ? cell.s : "", l) || util_sbuf_add(cells, "", 1)) {
			ret = -ENOMEM;
			break;
		}
		(*n)++;
	}
	free(cell.s);
	return ret;
}

static void skip_line(struct cursor *c)
{
	const char *nl = memchr(c->s + c->at, '\n', c->len - c->at);

	c->at = nl ? (size_t)(nl - c->s) + 1 : c->len;
}

static void put_row(FILE *f, const struct util_sbuf *cells, size_t n)
{
	const char *p = cells->s;

	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\"" : "\"", f);
		util_put_escaped(f, p, UTIL_ESC_JSON_HTML);
		fputc('"', f);
		p += strlen(p) + 1;
	}
	fputc(']', f);
}

int rpt_html_csv_sections(FILE *f, const char *csv, size_t len, const struct rpt_html_limits *lim)
{
	struct cursor c = { csv, strnlen(csv, len), 0 };
	struct util_sbuf first = { 0 }, cells = { 0 };
	size_t nsections = 0, total_rows = 0;
	int ret = 0;

	fputc('[', f);
	while (c.at < c.len && !ret) {
		size_t n1, n, rows = 0, more = 0;

		while (c.at < c.len && blank_line(&c, c.at)) /* to the section's first line */
			skip_line(&c);
		if (c.at >= c.len)
			break;
		ret = read_line(&c, &first, &n1);
		if (ret)
			break;
		fputs(nsections++ ? ",\n{\"title\":\"" : "\n{\"title\":\"", f);
		/* one cell and lines after it: the title; else the first row */
		if (n1 == 1 && c.at < c.len && !blank_line(&c, c.at)) {
			util_put_escaped(f, first.s, UTIL_ESC_JSON_HTML);
			fputs("\",\"rows\":[", f);
		} else {
			fputs("\",\"rows\":[", f);
			put_row(f, &first, n1);
			rows++;
			total_rows++;
		}
		while (c.at < c.len && !blank_line(&c, c.at)) {
			ret = read_line(&c, &cells, &n);
			if (ret)
				break;
			if (rows >= lim->rows || total_rows >= lim->all_rows) {
				more++;
				continue;
			}
			if (rows)
				fputc(',', f);
			put_row(f, &cells, n);
			rows++;
			total_rows++;
		}
		fprintf(f, "],\"more\":%zu}", more);
	}
	fputs("]", f);
	free(first.s);
	free(cells.s);
	return ret;
}
