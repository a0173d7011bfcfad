// SPDX-License-Identifier: MIT
/*
 * A set of metrics in order, over named inputs. The names are resolved once, when the
 * set is compiled, so that evaluating a report row is an array walk, not a name search.
 */
#include "metric/metric.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUTS 64
#define MAX_METRICS 64
#define MAX_NAME 64
#define MAX_VARS 64 /* names in one formula: expr.c's bound */

/* Where each name of a formula takes its value: input i is slot i, metric j slot
 * ninputs + j; UNKNOWN makes the metric undefined. */
#define UNKNOWN (-1)

struct mtr_set {
	int ninputs, n;
	char names[MAX_METRICS][MAX_NAME];
	struct mtr_expr *exprs[MAX_METRICS];
	int *slots[MAX_METRICS]; /* per metric, one per name of its formula */
};

static int resolve(struct mtr_set *s, int m, const char *const *inputs)
{
	size_t nn = mtr_expr_nnames(s->exprs[m]);

	s->slots[m] = calloc(nn ? nn : 1, sizeof(int));
	if (!s->slots[m])
		return -ENOMEM;
	for (size_t k = 0; k < nn; k++) {
		const char *name = mtr_expr_name(s->exprs[m], k);
		int slot = UNKNOWN;

		for (int i = 0; i < s->ninputs && slot == UNKNOWN; i++)
			if (!strcmp(inputs[i], name))
				slot = i;
		for (int j = 0; j < m && slot == UNKNOWN; j++)
			if (!strcmp(s->names[j], name))
				slot = s->ninputs + j;
		s->slots[m][k] = slot;
	}
	return 0;
}

int mtr_set_new(struct mtr_set **out, const char *const *inputs, int ninputs,
		const char *const *names, const char *const *formulas, int n, char *err,
		size_t errlen)
{
	struct mtr_set *s;
	char why[160];
	int ret = 0;

	*out = NULL;
	if (ninputs < 0 || ninputs > MAX_INPUTS || n < 0 || n > MAX_METRICS)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->ninputs = ninputs;
	for (int i = 0; i < n && !ret; i++) {
		snprintf(s->names[i], MAX_NAME, "%s", names[i]);
		ret = mtr_expr_parse(formulas[i], strlen(formulas[i]), &s->exprs[i], why,
				     sizeof(why));
		if (ret == -EINVAL && errlen)
			snprintf(err, errlen, "%s: %s", names[i], why);
		if (ret)
			break;
		s->n = i + 1;
		ret = resolve(s, i, inputs);
	}
	if (ret)
		mtr_set_free(s);
	else
		*out = s;
	return ret;
}

void mtr_set_free(struct mtr_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		mtr_expr_free(s->exprs[i]);
		free(s->slots[i]);
	}
	free(s);
}

int mtr_set_count(const struct mtr_set *s)
{
	return s ? s->n : 0;
}

void mtr_set_eval(const struct mtr_set *s, const double *in, double *out)
{
	double vals[MAX_VARS];

	for (int m = 0; m < s->n; m++) {
		size_t nn = mtr_expr_nnames(s->exprs[m]);
		bool known = nn <= MAX_VARS;

		for (size_t k = 0; k < nn && known; k++) {
			int slot = s->slots[m][k];

			known = slot != UNKNOWN;
			if (known)
				vals[k] = slot < s->ninputs ? in[slot] : out[slot - s->ninputs];
		}
		out[m] = NAN;
		if (known)
			mtr_expr_eval_values(s->exprs[m], vals, &out[m]);
	}
}
