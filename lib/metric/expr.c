// SPDX-License-Identifier: MIT
/*
 * Metric formulas: a recursive-descent parser that compiles to postfix code, and a small
 * stack machine. Input is (buf, len); sizes, nesting and names are bounded.
 *   expr  := term (('+' | '-') term)*
 *   term  := unary (('*' | '/') unary)*
 *   unary := ('-' | '+') unary | primary
 *   primary := number | name | '(' expr ')'
 */
#include "metric/metric.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CODE 256
#define MAX_NAMES 64
#define MAX_DEPTH 64
#define MAX_NAME 64

enum op { OP_NUM, OP_VAR, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG };

struct insn {
	enum op op;
	double num;
	int var;
};

struct mtr_expr {
	int ncode, nnames;
	struct insn code[MAX_CODE];
	char names[MAX_NAMES][MAX_NAME];
};

struct parser {
	const char *s;
	size_t len, pos;
	int depth;
	struct mtr_expr *e;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3))) static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(p->err, p->errlen, "column %zu: ", p->pos + 1);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < p->errlen)
		vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void skip_space(struct parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t'))
		p->pos++;
}

static int peek(struct parser *p)
{
	skip_space(p);
	return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int emit(struct parser *p, enum op op, double num, int var)
{
	if (p->e->ncode == MAX_CODE)
		return fail(p, "formula too long (more than %d steps)", MAX_CODE);
	p->e->code[p->e->ncode++] = (struct insn){ op, num, var };
	return 0;
}

static bool name_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool name_char(int c)
{
	return name_start(c) || (c >= '0' && c <= '9') || c == '.';
}

static int parse_name(struct parser *p)
{
	size_t start = p->pos, n;
	int i;

	while (p->pos < p->len && name_char((unsigned char)p->s[p->pos]))
		p->pos++;
	n = p->pos - start;
	if (n >= MAX_NAME)
		return fail(p, "name longer than %d characters", MAX_NAME - 1);
	for (i = 0; i < p->e->nnames; i++)
		if (strlen(p->e->names[i]) == n && !memcmp(p->e->names[i], p->s + start, n))
			return emit(p, OP_VAR, 0, i);
	if (i == MAX_NAMES)
		return fail(p, "more than %d names", MAX_NAMES);
	memcpy(p->e->names[i], p->s + start, n);
	p->e->names[i][n] = 0;
	p->e->nnames++;
	return emit(p, OP_VAR, 0, i);
}

static bool digit(int c)
{
	return c >= '0' && c <= '9';
}

/* End of the number starting at s[i]: 0x1F, 12, 1.5, .5, 1e-3. */
static size_t scan_number(const char *s, size_t len, size_t i)
{
	if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		for (i += 2; i < len && (digit(s[i]) || (s[i] | 0x20) - 'a' < 6u); i++)
			;
		return i;
	}
	while (i < len && digit(s[i]))
		i++;
	if (i < len && s[i] == '.')
		for (i++; i < len && digit(s[i]); i++)
			;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			j++;
		if (j < len && digit(s[j]))
			for (i = j; i < len && digit(s[i]); i++)
				;
	}
	return i;
}

static int parse_number(struct parser *p)
{
	size_t start = p->pos, end = scan_number(p->s, p->len, p->pos);
	char buf[64], *stop;
	double v;

	if (end < p->len && name_char((unsigned char)p->s[end]))
		return fail(p, "bad number");
	if (end - start >= sizeof(buf))
		return fail(p, "number too long");
	memcpy(buf, p->s + start, end - start);
	buf[end - start] = 0;
	v = strtod(buf, &stop);
	if (*stop || stop == buf || !isfinite(v))
		return fail(p, "bad number '%s'", buf);
	p->pos = end;
	return emit(p, OP_NUM, v, 0);
}

static int parse_expr(struct parser *p);

static int parse_primary(struct parser *p)
{
	int c = peek(p), ret;

	if (c == '(') {
		p->pos++;
		ret = parse_expr(p);
		if (!ret && peek(p) != ')')
			ret = fail(p, "')' expected");
		if (!ret)
			p->pos++;
		return ret;
	}
	if (digit(c) || (c == '.' && p->pos + 1 < p->len && digit(p->s[p->pos + 1])))
		return parse_number(p);
	if (name_start(c))
		return parse_name(p);
	if (c < 0)
		return fail(p, "formula ends where a value is expected");
	return fail(p, "unexpected '%c'", c);
}

static int parse_unary(struct parser *p)
{
	int c = peek(p), ret;

	if (c != '-' && c != '+')
		return parse_primary(p);
	if (++p->depth > MAX_DEPTH)
		return fail(p, "nested more than %d deep", MAX_DEPTH);
	p->pos++;
	ret = parse_unary(p);
	p->depth--;
	return ret || c == '+' ? ret : emit(p, OP_NEG, 0, 0);
}

static int parse_term(struct parser *p)
{
	int ret = parse_unary(p), c;

	while (!ret && ((c = peek(p)) == '*' || c == '/')) {
		p->pos++;
		ret = parse_unary(p);
		if (!ret)
			ret = emit(p, c == '*' ? OP_MUL : OP_DIV, 0, 0);
	}
	return ret;
}

static int parse_expr(struct parser *p)
{
	int ret, c;

	if (++p->depth > MAX_DEPTH)
		return fail(p, "nested more than %d deep", MAX_DEPTH);
	ret = parse_term(p);
	while (!ret && ((c = peek(p)) == '+' || c == '-')) {
		p->pos++;
		ret = parse_term(p);
		if (!ret)
			ret = emit(p, c == '+' ? OP_ADD : OP_SUB, 0, 0);
	}
	p->depth--;
	return ret;
}

int mtr_expr_parse(const char *s, size_t len, struct mtr_expr **out, char *err, size_t errlen)
{
	struct parser p = { .s = s, .len = len, .err = err, .errlen = errlen };
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = 0;
	p.e = calloc(1, sizeof(*p.e));
	if (!p.e)
		return -ENOMEM;
	ret = parse_expr(&p);
	if (!ret && peek(&p) >= 0)
		ret = fail(&p, "unexpected '%c' after the formula", p.s[p.pos]);
	if (ret)
		free(p.e);
	else
		*out = p.e;
	return ret;
}

void mtr_expr_free(struct mtr_expr *e)
{
	free(e);
}

size_t mtr_expr_nnames(const struct mtr_expr *e)
{
	return (size_t)e->nnames;
}

const char *mtr_expr_name(const struct mtr_expr *e, size_t i)
{
	return i < (size_t)e->nnames ? e->names[i] : NULL;
}

static double apply(enum op op, double a, double b)
{
	switch (op) {
	case OP_ADD:
		return a + b;
	case OP_SUB:
		return a - b;
	case OP_MUL:
		return a * b;
	case OP_DIV:
		return b == 0 ? NAN : a / b;
	default:
		return NAN;
	}
}

int mtr_expr_eval_values(const struct mtr_expr *e, const double *vals, double *out)
{
	double stack[MAX_CODE];
	int sp = 0;

	for (int i = 0; i < e->ncode; i++) {
		const struct insn *in = &e->code[i];

		if (in->op == OP_NUM)
			stack[sp++] = in->num;
		else if (in->op == OP_VAR)
			stack[sp++] = vals[in->var];
		else if (in->op == OP_NEG)
			stack[sp - 1] = -stack[sp - 1];
		else {
			sp--;
			stack[sp - 1] = apply(in->op, stack[sp - 1], stack[sp]);
		}
	}
	*out = sp == 1 ? stack[0] : NAN;
	if (isinf(*out))
		*out = NAN;
	return 0;
}

int mtr_expr_eval(const struct mtr_expr *e, mtr_lookup_fn lookup, void *arg, double *out)
{
	double vals[MAX_NAMES];

	*out = NAN;
	for (int i = 0; i < e->nnames; i++)
		if (lookup(arg, e->names[i], &vals[i]))
			return -ENOENT;
	return mtr_expr_eval_values(e, vals, out);
}
