// SPDX-License-Identifier: MIT
/*
 * -s/--sort-by: the session event that sorts every section. The whole report (every
 * tally, the hottest tables, --detail's sections, the header's "Sort Event", the
 * columns' order) takes events[0] of its session info as the sort event, so the chosen
 * event is moved there once, right after session.ini is read, before anything counts:
 * samples find their event by type, config and period (rpt_events_of_attr), never by
 * index, so nothing else needs to know.
 */
#include "report/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static bool names_ibs(const struct ses_event *e, const char *what)
{
	return !strncasecmp(e->name, what, strlen(what));
}

static bool matches(const struct ses_event *e, const struct rpt_sort_key *k)
{
	switch (k->kind) {
	case RPT_SORT_TIMER:
		return ses_event_is_timer(e);
	case RPT_SORT_IBS_OP:
		return names_ibs(e, "IBS_OP");
	case RPT_SORT_IBS_FETCH:
		return names_ibs(e, "IBS_FETCH");
	case RPT_SORT_EVENT:
		break;
	}
	if (e->type != k->type || e->config != k->config)
		return false;
	return !k->modes ||
	       (e->exclude_user == k->exclude_user && e->exclude_kernel == k->exclude_kernel);
}

int rpt_find_sort_event(const struct ses_info *in, const struct rpt_sort_key *k)
{
	for (int i = 0; i < in->nevents; i++)
		if (matches(&in->events[i], k))
			return i;
	return -ENOKEY;
}

/* "CPU_TIME, page-faults (user only)" */
static void list_events(const struct ses_info *in, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < in->nevents && n < len; i++) {
		const struct ses_event *e = &in->events[i];
		const char *mode = e->exclude_kernel && !e->exclude_user   ? " (user only)"
				   : e->exclude_user && !e->exclude_kernel ? " (os only)"
									   : "";
		int w = snprintf(buf + n, len - n, "%s%s%s", i ? ", " : "", e->name, mode);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

int rpt_sort_event_apply(struct rpt *r, char *err, size_t errlen)
{
	const struct rpt_sort_key *k = r->opts.sort_by;
	struct ses_event chosen;
	char have[512];
	int i;

	if (!k)
		return 0;
	i = rpt_find_sort_event(&r->info, k);
	if (i < 0) {
		list_events(&r->info, have, sizeof(have));
		rpt_errf(err, errlen,
			 "--sort-by '%s': %s has no such event; its events: %s (sort by one of "
			 "them)",
			 k->spec, r->dir, r->info.nevents ? have : "none");
		return -ENOKEY;
	}
	chosen = r->info.events[i];
	memmove(&r->info.events[1], &r->info.events[0], (size_t)i * sizeof(chosen));
	r->info.events[0] = chosen;
	return 0;
}
