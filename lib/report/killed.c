// SPDX-License-Identifier: MIT
/*
 * A session whose collect was killed (session.ini left running, its collector gone):
 * what report says of it. load.c ends its profile at its last sample; this names that
 * time, so that a reader knows the data stops there and why.
 */
#include "report/internal.h"

#include <time.h>

const char *rpt_killed_words(const struct rpt_summary *s, char *buf, size_t len)
{
	const struct ses_info *in = s->info;
	time_t t = (time_t)(in->end_epoch_ns / 1000000000);
	char when[64] = "unknown";
	struct tm tm;

	if (!s->collect_killed) {
		buf[0] = 0;
		return buf;
	}
	if (in->end_epoch_ns && localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %d %H:%M:%S %Y", &tm);
	if (in->end_mono_ns > in->start_mono_ns)
		snprintf(buf, len,
			 "collect was killed: data up to %s (its last sample, %.3f s after the "
			 "start)",
			 when, (double)(in->end_mono_ns - in->start_mono_ns) / 1e9);
	else
		snprintf(buf, len, "collect was killed: no sample was written");
	return buf;
}

void rpt_csv_killed_note(const struct rpt *r, FILE *f)
{
	struct rpt_summary s;
	char words[160];

	rpt_summary(r, &s);
	util_csv_kv(f, "Collect Killed", rpt_killed_words(&s, words, sizeof(words)));
}
