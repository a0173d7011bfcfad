// SPDX-License-Identifier: MIT
/*
 * report.csv's text with another row count per hottest section: the HTML report
 * (lib/export) shows longer tables than the report.csv beside it, whose rows are the
 * first of them, so both come from one writer and show the same numbers.
 */
#include "report/internal.h"

#include <errno.h>
#include <stdlib.h>

int rpt_write_csv_cutoff(const struct rpt *r, int cutoff, FILE *f)
{
	struct rpt *view = malloc(sizeof(*view));
	int ret;

	if (!view)
		return -ENOMEM;
	/* a shallow copy, only read (rpt_write_csv takes it const): every table it points
	 * to stays @r's, and nothing of it is freed but the copy itself */
	*view = *r;
	view->opts.cutoff = cutoff;
	ret = rpt_write_csv(view, f);
	free(view);
	return ret;
}
