// SPDX-License-Identifier: MIT
/*
 * Derived metrics for uprof report: the session's [metric.N] formulas (IPC, CPI, ... PTI,
 * from the collect config), parsed with lib/pmc's evaluator and handed to lib/report as
 * a callback, so that report itself never depends on pmc (DESIGN.md §3). A formula names
 * events by the part of their name before " (" ("RETIRED_INST (PMCx0C0)" is RETIRED_INST)
 * and earlier metrics by their name.
 */
#include "cli/report_metrics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct lookup_ctx {
	const struct report_metrics *rm;
	const double *events;
	int nevents;
	const double *metrics;
	int nmetrics; /* computed so far */
};

static int lookup(void *arg, const char *name, double *value)
{
	const struct lookup_ctx *c = arg;

	for (int i = 0; i < c->nevents && i < c->rm->nevents; i++)
		if (!strcmp(c->rm->event_names[i], name)) {
			*value = c->events[i];
			return 0;
		}
	for (int i = 0; i < c->nmetrics; i++)
		if (!strcmp(c->rm->info->metrics[i].name, name)) {
			*value = c->metrics[i];
			return 0;
		}
	return -ENOENT;
}

static void compute(void *arg, const double *events, int nevents, double *metrics)
{
	struct report_metrics *rm = arg;
	struct lookup_ctx c = { rm, events, nevents, metrics, 0 };

	for (int i = 0; i < rm->info->nmetrics; i++) {
		metrics[i] = NAN;
		if (rm->exprs[i])
			pmc_expr_eval(rm->exprs[i], lookup, &c, &metrics[i]);
		c.nmetrics = i + 1;
	}
}

int report_metrics_init(struct report_metrics *rm, const struct ses_info *info,
			struct rpt_options *opts, char *err, size_t errlen)
{
	memset(rm, 0, sizeof(*rm));
	rm->info = info;
	rm->nevents = info->nevents;
	for (int i = 0; i < info->nevents; i++) {
		const char *n = info->events[i].name;
		size_t len = strcspn(n, " ");

		snprintf(rm->event_names[i], sizeof(rm->event_names[i]), "%.*s", (int)len, n);
	}
	for (int i = 0; i < info->nmetrics; i++) {
		const char *f = info->metrics[i].formula;

		if (pmc_expr_parse(f, strlen(f), &rm->exprs[i], err, errlen)) {
			report_metrics_release(rm);
			return -EINVAL;
		}
	}
	if (info->nevents > 1 && info->nmetrics) {
		opts->metric_fn = compute;
		opts->metric_arg = rm;
	}
	return 0;
}

void report_metrics_release(struct report_metrics *rm)
{
	for (int i = 0; i < SES_MAX_METRICS; i++) {
		pmc_expr_free(rm->exprs[i]);
		rm->exprs[i] = NULL;
	}
}
