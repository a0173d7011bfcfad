// SPDX-License-Identifier: MIT
/*
 * The one progress line of long work (collect's status, report's reading): on stderr,
 * only when stderr is a terminal and CI is not set (a pipe, a log or a CI job gets none),
 * rewritten in place with \r at most 4 times a second, and cleared when the work ends,
 * so nothing of it is left in what follows. The caller says what the line holds.
 */
#include "cli/cli.h"
#include "report/report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define REFRESH_NS 250000000 /* at most 4 lines a second */

bool cli_progress_wanted(bool quiet)
{
	return !quiet && !getenv("CI") && isatty(STDERR_FILENO);
}

void cli_progress_init(struct cli_progress *p, bool on, double delay_s)
{
	int64_t now = cli_now_ns(CLOCK_MONOTONIC);
	const char *e = getenv("UPROF_PROGRESS_DELAY"); /* tests: show it on short work */

	if (e && *e)
		delay_s = atof(e);

	*p = (struct cli_progress){ .on = on,
				    .start = now,
				    .first = now + (int64_t)(delay_s * 1e9),
				    .last = 0 };
}

bool cli_progress_due(const struct cli_progress *p, int64_t now)
{
	return p->on && now >= p->first && (!p->shown || now - p->last >= REFRESH_NS);
}

void cli_progress_show(struct cli_progress *p, int64_t now, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n >= (int)sizeof(line))
		n = (int)sizeof(line) - 1;
	/* pad over the longer line before it: no stale characters at the end */
	fprintf(cli_log_terminal(), "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
	fflush(cli_log_terminal());
	if (n > p->width)
		p->width = n;
	p->shown = true;
	p->last = now;
}

void cli_progress_clear(struct cli_progress *p)
{
	if (!p->shown)
		return;
	fprintf(cli_log_terminal(), "\r%*s\r", p->width, "");
	fflush(cli_log_terminal());
	p->shown = false;
	p->width = 0;
}

/* report: rpt_open()'s progress as "Reading samples.data: N records, X of Y MB" and then
 * "Counting samples: N of M records"; @arg is the report's struct cli_progress. */
void cli_report_progress(void *arg, const struct rpt_progress *rp)
{
	struct cli_progress *p = arg;
	int64_t now = cli_now_ns(CLOCK_MONOTONIC);

	if (!cli_progress_due(p, now))
		return;
	if (rp->pass == 1)
		cli_progress_show(p, now, "Reading samples.data: %llu records, %.1f of %.1f MB",
				  (unsigned long long)rp->records, (double)rp->bytes / 1e6,
				  (double)rp->of_bytes / 1e6);
	else
		cli_progress_show(p, now, "Counting samples: %llu of %llu records",
				  (unsigned long long)rp->records,
				  (unsigned long long)rp->of_records);
}
