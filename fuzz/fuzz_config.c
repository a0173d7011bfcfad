// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for config files (lib/metric/config.c: mtr_config_parse over inih, with its
 * [event.N] / [metric.N] sections) and metric formulas (lib/metric/expr.c): the input is
 * parsed as a config, every formula of it is evaluated, and the input is also parsed and
 * evaluated as one formula.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int any_value(void *arg, const char *name, double *v)
{
	(void)arg;
	*v = (double)strlen(name) - 3; /* zero for three-letter names: divisions by zero */
	return name[0] == 'Q' ? -2 : 0;
}

static void eval(const char *s, size_t len)
{
	struct mtr_expr *e;
	char err[128];
	double v;

	if (mtr_expr_parse(s, len, &e, err, sizeof(err)))
		return;
	mtr_expr_eval(e, any_value, NULL, &v);
	for (size_t i = 0; i < mtr_expr_nnames(e); i++)
		(void)mtr_expr_name(e, i);
	mtr_expr_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mtr_config cfg;
	char err[256];

	if (!mtr_config_parse((const char *)data, size, &cfg, err, sizeof(err)))
		for (int i = 0; i < cfg.nmetrics; i++)
			eval(cfg.metrics[i].formula, strlen(cfg.metrics[i].formula));
	eval((const char *)data, size);
	return 0;
}
