// SPDX-License-Identifier: MIT
/*
 * pauses.csv from the control pages of a run (sampler.h, smp_pageset_write_pauses): the
 * calls of every process, arbitrated into the session's intervals by lib/session, and
 * the stretches the targets' full rings made unknown.
 */
#include "sampler/internal.h"

#include <stdlib.h>
#include <string.h>

void smp_pageset_write_pauses(struct smp_pageset *s, int64_t start_mono, int64_t end_mono,
			      struct smp_pageset_pauses *out)
{
	int64_t now = smp_pageset_now();
	struct ses_pause_unknown *gaps = s->gaps;
	struct ses_pause_clamps clamps;
	size_t n, ngaps = s->ngaps;
	struct ses_pause *v;

	memset(out, 0, sizeof(*out));
	if (end_mono <= 0) /* the run stopped before it could say when it ended */
		end_mono = now;
	out->err = ses_pauses_arbitrate(s->events, s->nevents, s->o.start_paused, start_mono,
					end_mono, now, &v, &n, &clamps);
	if (out->err)
		return;
	/* early calls (a start delay) and late ones (attached processes go on) are normal;
	 * a call from the future was clamped live (pageset.c, apply), so it is counted there */
	out->future = clamps.future + s->future_stamps;
	/* what the targets' full rings dropped becomes unknown, never a guessed pause; one
	 * ended by a state word is unknown on while another process's call in it may be
	 * the newer (s->events is sorted by the arbiter now) */
	if (s->gap_all.to > s->gap_all.from) { /* no gap could be kept */
		gaps = &s->gap_all;
		ngaps = 1;
	}
	ses_pauses_widen_unknown(s->events, s->nevents, gaps, ngaps);
	out->unknown_lost = ses_pauses_add_unknown(&v, &n, gaps, ngaps, start_mono, end_mono) != 0;
	out->max_rows = SES_MAX_PAUSES;
	out->folded = ses_pauses_cap(v, &n, SES_MAX_PAUSES);
	if (out->folded)
		out->folded_s = (double)(v[n - 1].resumed_at - v[n - 1].paused_at) / 1e9;
	out->total_ns = ses_pauses_total(v, n);
	out->unknown_ns = ses_pauses_unknown_total(v, n);
	out->gap_records = s->gap_records;
	out->write_err = ses_pauses_write(s->o.session_dfd, v, n);
	free(v);
}
