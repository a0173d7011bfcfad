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

#define INJECT_HINT "%s is a perf.data in file mode; convert it with `perf inject -i %s -o - > %s.pipe`"

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
			snprintf(err, errlen, "%s: a perf pipe file with nothing to report: %s", path,
				 why);
		break;
	}
	ses_file_unmap(map, len);
	return ret;
}

static void quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *mode(const struct ses_event *e)
{
	return e->exclude_kernel && !e->exclude_user	? "user mode only"
	       : e->exclude_user && !e->exclude_kernel ? "kernel mode only"
							: "user and kernel mode";
}

/* How one event's samples were weighted. */
static void sampled(FILE *f, const struct ses_event *e)
{
	if (e->weighted)
		fprintf(f, "each sample counts its own period (%s)",
			ses_event_is_timer(e) ? "ns" : "events");
	else if (e->period > 1)
		fprintf(f, "one sample every %" PRIu64 " %s", e->period,
			ses_event_is_timer(e) ? "ns" : "events");
	else
		fprintf(f, "no per-sample period in the file: each sample counts 1");
}

void rpt_foreign_csv_events(const struct rpt *r, FILE *f)
{
	const struct ses_info *in = &r->info;

	fprintf(f, "perf Events:,Name,Type,Config,Sampling,User,OS\n");
	for (int i = 0; i < in->nevents; i++) {
		const struct ses_event *e = &in->events[i];

		fprintf(f, ",");
		quoted(f, e->name);
		fprintf(f, ",%u,0x%" PRIx64 ",\"", e->type, e->config);
		sampled(f, e);
		fprintf(f, "\",%s,%s\n", e->exclude_user ? "False" : "True",
			e->exclude_kernel ? "False" : "True");
	}
}

void rpt_foreign_csv_sampling(const struct rpt *r, FILE *f, const struct rpt_summary *s)
{
	const struct ses_info *in = &r->info;

	for (int i = 0; i < in->nevents; i++) {
		const struct ses_event *e = &in->events[i];

		fprintf(f, "%s,\"%s (%s; ", i ? "Event" : "Event Used", e->name, mode(e));
		sampled(f, e);
		fprintf(f, ")\"\n");
	}
	fprintf(f, "Achieved Sampling Rate,\"unknown (a perf file: target CPU time not "
		   "recorded)\"\n");
	fprintf(f, "Samples,%" PRIu64 "\n", s->kept_samples);
	fprintf(f, "Lost Samples,%" PRIu64 "\n", s->lost);
	if (s->throttles)
		fprintf(f, "Throttled,\"%" PRIu64 " times\"\n", s->throttles);
	fprintf(f, "Note,\"Read from a perf pipe file: CPU_TIME of a cpu-clock or task-clock "
		   "event is the sum of its samples' periods in ns; every other event shows the "
		   "sum of its samples' periods (event counts)\"\n");
	if (r->foreign_skipped)
		fprintf(f, "Note,\"%d more sampling events in the file: uprof reports the first %d\"\n",
			r->foreign_skipped, SES_MAX_EVENTS);
}
