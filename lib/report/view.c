// SPDX-License-Identifier: MIT
/*
 * report --view: the hottest tables' value columns are a view's (lib/metric views.c), in
 * its order, sorted by its first column (an event). Applied once, right after session.ini
 * is read, as -s/--sort-by is (sort_event.c): the view's first event is moved to
 * events[0], so every tally and table takes it as the sort event; the columns are then
 * compiled into one lib/metric set over the session's events, evaluated per row by
 * rpt_events_cells. A session without every event the view needs is refused here,
 * before report.csv is touched (-ENOKEY: a usage error), naming the missing events and
 * the collect config that samples them.
 */
#include "report/internal.h"
#include "metric/metric.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The part of an event's name formulas use: "RETIRED_INST (PMCx0C0)" is RETIRED_INST */
static void short_name(const struct ses_event *e, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(e->name, " "), e->name);
}

static int event_named(const struct ses_info *in, const char *name)
{
	char have[64];

	for (int i = 0; i < in->nevents; i++) {
		short_name(&in->events[i], have, sizeof(have));
		if (!strcmp(have, name))
			return i;
	}
	return -1;
}

/* -ENOKEY with @err naming what @v needs and @in lacks */
static int refuse_missing(const struct rpt *r, const struct mtr_view *v,
			  char names[][MTR_VIEW_NAME], int n, char *err, size_t errlen)
{
	char missing[768] = "";
	size_t used = 0;
	int nmissing = 0;

	for (int i = 0; i < n; i++) {
		if (event_named(&r->info, names[i]) >= 0)
			continue;
		if (used < sizeof(missing))
			used += (size_t)snprintf(missing + used, sizeof(missing) - used, "%s%s",
						 nmissing ? ", " : "", names[i]);
		nmissing++;
	}
	if (!nmissing)
		return 0;
	rpt_errf(err, errlen,
		 "--view %s: %s has no %s (%d of the view's %d events); 'uprof collect "
		 "--config %s' samples them",
		 v->name, r->dir, missing, nmissing, n, v->config);
	return -ENOKEY;
}

int rpt_view_apply(struct rpt *r, char *err, size_t errlen)
{
	const struct mtr_view *v = r->opts.view;
	char names[SES_MAX_EVENTS][MTR_VIEW_NAME], inputs[SES_MAX_EVENTS][64], why[256];
	const char *in[SES_MAX_EVENTS], *cols[RPT_VIEW_MAX], *formulas[RPT_VIEW_MAX];
	struct ses_event first;
	int n, i, ret;

	if (!v)
		return 0;
	if (v->needs) {
		rpt_errf(err, errlen, "--view %s: it needs %s", v->name, v->needs);
		return -ENOKEY;
	}
	if (v->ncolumns > RPT_VIEW_MAX) { /* views.c and RPT_VIEW_MAX disagree */
		rpt_errf(err, errlen, "--view %s: %d columns, more than report's %d", v->name,
			 v->ncolumns, RPT_VIEW_MAX);
		return -E2BIG;
	}
	n = mtr_view_inputs(v, names, SES_MAX_EVENTS, why, sizeof(why));
	if (n < 0) {
		rpt_errf(err, errlen, "--view %s: %s", v->name, why);
		return n;
	}
	ret = refuse_missing(r, v, names, n, err, errlen);
	if (ret)
		return ret;
	/* the view's first column sorts: it becomes the sort event */
	i = event_named(&r->info, v->columns[0].name);
	if (i < 0) { /* views.c's rule: the first column is an event */
		rpt_errf(err, errlen, "--view %s: its first column %s is not an event", v->name,
			 v->columns[0].name);
		return -EINVAL;
	}
	first = r->info.events[i];
	memmove(&r->info.events[1], &r->info.events[0], (size_t)i * sizeof(first));
	r->info.events[0] = first;
	for (i = 0; i < r->info.nevents; i++) {
		short_name(&r->info.events[i], inputs[i], sizeof(inputs[i]));
		in[i] = inputs[i];
	}
	for (int c = 0; c < v->ncolumns; c++) {
		cols[c] = v->columns[c].name;
		formulas[c] = mtr_view_formula(&v->columns[c]);
		r->view_event[c] = v->columns[c].formula
					   ? -1
					   : event_named(&r->info, v->columns[c].name);
	}
	ret = mtr_set_new(&r->view_set, in, r->info.nevents, cols, formulas, v->ncolumns, why,
			  sizeof(why));
	if (ret == -EINVAL)
		rpt_errf(err, errlen, "--view %s: %s", v->name, why);
	return ret;
}

void rpt_view_release(struct rpt *r)
{
	mtr_set_free(r->view_set);
	r->view_set = NULL;
}
