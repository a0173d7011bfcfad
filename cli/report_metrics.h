/* SPDX-License-Identifier: MIT */
/* cli/report_metrics.c: the session's derived metrics as lib/report's callback. */
#ifndef UPROF_CLI_REPORT_METRICS_H
#define UPROF_CLI_REPORT_METRICS_H

#include <errno.h>

#include "pmc/pmc.h"
#include "report/report.h"
#include "session/session.h"

struct report_metrics {
	const struct ses_info *info; /* borrowed */
	int nevents;
	char event_names[SES_MAX_EVENTS][64];
	struct pmc_expr *exprs[SES_MAX_METRICS];
};

/* Parse @info's formulas (borrowed; must outlive @rm) and set @opts' metric callback.
 * 0, or -EINVAL with @err naming the bad formula. */
int report_metrics_init(struct report_metrics *rm, const struct ses_info *info,
			struct rpt_options *opts, char *err, size_t errlen);
void report_metrics_release(struct report_metrics *rm);

#endif
