// SPDX-License-Identifier: MIT
/*
 * Reporting a perf pipe file (perf record -o -, perf inject -o -) as a foreign session:
 * its facts come from the file itself (lib/session's ses_foreign_info), and the CSV says
 * how its events were sampled and what their values are: each sample counts its own
 * period when the file records one (perf's default -F mode varies it), so CPU_TIME of a
 * cpu-clock or task-clock event is the sum of its samples' periods (ns), and any other
 * event's value is the sum of its samples' periods (events).
 */
#include "report/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define INJECT_HINT \
	"%s is a perf.data in file mode; convert it with `perf inject -i %s -o - > %s.pipe`"

int rpt_foreign_open(struct rpt *r, const char *path, char *err, size_t errlen)
{
	const void *map = NULL;
	char why[256] = "";
	size_t len = 0;
	int ret;

	ret = ses_file_map(path, &map, &len, why, sizeof(why));
	if (ret == -SES_ENOTREG) {
		snprintf(err, errlen, "%s %s: not a perf pipe file or uprof session", path, why);
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	switch (ses_perf_kind_of(map ? map : "", len)) {
	case SES_PERF_FILE_MODE:
		snprintf(err, errlen, INJECT_HINT, path, path, path);
		ret = -EPROTO;
		break;
	case SES_PERF_OTHER:
		snprintf(err, errlen, "%s: not a perf pipe file or uprof session", path);
		ret = -EINVAL;
		break;
	case SES_PERF_PIPE:
		ret = ses_foreign_info(map, len, &r->info, &r->foreign_skipped, why, sizeof(why));
		if (ret == -EINVAL)
			snprintf(err, errlen, "%s: a perf pipe file with nothing to report: %s",
				 path, why);
		else if (ret == -EOPNOTSUPP)
			snprintf(err, errlen, "%s: %s; record without -z to report it", path, why);
		break;
	}
	ses_file_unmap(map, len);
	return ret;
}

static const char *mode(const struct ses_event *e)
{
	return e->exclude_kernel && !e->exclude_user   ? "user mode only"
	       : e->exclude_user && !e->exclude_kernel ? "kernel mode only"
						       : "user and kernel mode";
}

/* How one event's samples were weighted, into @buf. */
static const char *sampled(const struct ses_event *e, char *buf, size_t len)
{
	const char *unit = ses_event_is_timer(e) ? "ns" : "events";

	if (e->weighted)
		snprintf(buf, len, "each sample counts its own period (%s)", unit);
	else if (e->period > 1)
		snprintf(buf, len, "one sample every %" PRIu64 " %s", e->period, unit);
	else
		snprintf(buf, len, "no per-sample period in the file: each sample counts 1");
	return buf;
}

void rpt_foreign_csv_events(const struct rpt *r, FILE *f)
{
	const struct ses_info *in = &r->info;
	char how[96];

	fprintf(f, "perf Events:,Name,Type,Config,Sampling,User,OS\n");
	for (int i = 0; i < in->nevents; i++) {
		const struct ses_event *e = &in->events[i];

		fprintf(f, ",");
		util_csv_quoted(f, e->name);
		fprintf(f, ",%u,0x%" PRIx64 ",\"%s\",%s,%s\n", e->type, e->config,
			sampled(e, how, sizeof(how)), e->exclude_user ? "False" : "True",
			e->exclude_kernel ? "False" : "True");
	}
}

void rpt_foreign_csv_sampling(const struct rpt *r, FILE *f, const struct rpt_summary *s)
{
	const struct ses_info *in = &r->info;
	char buf[256], how[96];

	for (int i = 0; i < in->nevents; i++) {
		const struct ses_event *e = &in->events[i];

		snprintf(buf, sizeof(buf), "%s (%s; %s)", e->name, mode(e),
			 sampled(e, how, sizeof(how)));
		util_csv_kv(f, i ? "Event" : "Event Used", buf);
	}
	util_csv_kv(f, "Achieved Sampling Rate",
		    "unknown (a perf file: target CPU time not recorded)");
	snprintf(buf, sizeof(buf), "%" PRIu64, s->kept_samples);
	util_csv_kv(f, "Samples", buf);
	snprintf(buf, sizeof(buf), "%" PRIu64, s->lost);
	util_csv_kv(f, "Lost Samples", buf);
	if (s->throttles) {
		snprintf(buf, sizeof(buf), "%" PRIu64 " times", s->throttles);
		util_csv_kv(f, "Throttled", buf);
	}
	util_csv_kv(f, "Values",
		    "read from a perf pipe file, each sample weighted by its period (its "
		    "own where the file records one, else the event's): CPU_TIME of a "
		    "cpu-clock or task-clock event is the sum of its samples' periods in ns, "
		    "shown in seconds; every other event shows the sum of its samples' periods "
		    "(event counts)");
	if (r->foreign_skipped) {
		snprintf(buf, sizeof(buf),
			 "%d more sampling events in the file; uprof reports the "
			 "first %d",
			 r->foreign_skipped, SES_MAX_EVENTS);
		util_csv_kv(f, "Events Not Reported", buf);
	}
}
