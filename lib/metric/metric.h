/* SPDX-License-Identifier: MIT */
/*
 * lib/metric: formulas of derived metrics (IPC, CPI, ... PTI), the small neutral module
 * that collect (configs, pcm) and report both use (DESIGN.md §3): it knows no PMU and no
 * session, only names and numbers. Nothing here prints or exits.
 *
 *   expr   one formula: compiled once (mtr_expr_parse), evaluated per row
 *   set    the metrics of a session or a config, in order: each may use the inputs
 *          (event values) and the metrics before it
 */
#ifndef UPROF_METRIC_H
#define UPROF_METRIC_H

#include <stdbool.h>
#include <stddef.h>

struct mtr_expr;

/*
 * Compile formula @s (@len bytes, not NUL-terminated): numbers (1, 0.5, 1e3, 0x10), names
 * ([A-Za-z_][A-Za-z0-9_.]*), + - * / unary minus and parentheses, usual precedence.
 * 0, -EINVAL (@err: "column N: ..."), -ENOMEM. Free with mtr_expr_free().
 */
int mtr_expr_parse(const char *s, size_t len, struct mtr_expr **out, char *err,
		   size_t errlen);
void mtr_expr_free(struct mtr_expr *e);

/* The names a formula uses, each once, in order of first use (owned by @e). */
size_t mtr_expr_nnames(const struct mtr_expr *e);
const char *mtr_expr_name(const struct mtr_expr *e, size_t i);

/* Value of a name: 0, or -ENOENT when unknown. */
typedef int (*mtr_lookup_fn)(void *arg, const char *name, double *value);

/*
 * Evaluate. x/0 is NaN (also 0/0), and NaN propagates. 0, or -ENOENT when @lookup does
 * not know a name (*@out is then NaN).
 */
int mtr_expr_eval(const struct mtr_expr *e, mtr_lookup_fn lookup, void *arg, double *out);
/* The same with @vals[k] the value of mtr_expr_name(@e, k), for every k. Returns 0. */
int mtr_expr_eval_values(const struct mtr_expr *e, const double *vals, double *out);

/* ---- a set of metrics ---- */

struct mtr_set;

/*
 * Compile @n metrics, @names[i] = @formulas[i] (all borrowed, copied), over the inputs
 * @inputs[0..@ninputs) (borrowed, copied). A formula may name an input or an earlier
 * metric (an input wins over a metric of the same name); any other name makes that
 * metric undefined (NaN), as does a later or its own metric. 0; -EINVAL with @err
 * "<name>: column N: ..." for the first formula that does not parse; -ENOMEM. Free with
 * mtr_set_free().
 */
int mtr_set_new(struct mtr_set **out, const char *const *inputs, int ninputs,
		const char *const *names, const char *const *formulas, int n, char *err,
		size_t errlen);
void mtr_set_free(struct mtr_set *s); /* NULL is fine */
int mtr_set_count(const struct mtr_set *s);

/* The @n metrics (mtr_set_count) for input values @in (@ninputs of them) into @out;
 * NaN where a metric is undefined. */
void mtr_set_eval(const struct mtr_set *s, const double *in, double *out);

#endif
