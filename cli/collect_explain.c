// SPDX-License-Identifier: MIT
/*
 * uprof collect: a failed perf_event_open (or ring mmap) turned into one line, by
 * lib/pmc's one explainer (the advice pcm gives too), told what collect was opening.
 */
#include "cli/collect.h"

#include <unistd.h>

static const char *const CMD = "collect";

int collect_explain_open_error(struct collect_state *st, int err, int failed, int pid)
{
	int i = failed >= 0 && failed < st->nattrs ? failed : COLLECT_TIMER;
	struct pmc_open_what what = {
		/* the tracking event has no name of its own in the report */
		.event = i == COLLECT_TRACKING ? "the tracking event (mmap, comm, fork records)"
					       : st->event_names[i],
		.scope = st->system_wide ? PMC_OPEN_CPU
			 : st->attach	 ? PMC_OPEN_ATTACH
					 : PMC_OPEN_TASK,
		.kernel = !st->attrs[i].exclude_kernel,
		.pid = pid,
		.uid = (unsigned)geteuid(),
	};
	char msg[512];

	pmc_open_strerror(err, &what, msg, sizeof(msg));
	return cli_error(1, CMD, "%s", msg);
}
