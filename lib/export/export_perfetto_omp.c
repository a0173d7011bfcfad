// SPDX-License-Identifier: MIT
/*
 * The OpenMP part of trace.json (export_perfetto.c writes the rest), from the slices the
 * report kept of a --trace openmp session (report.h's rpt_omp_*), on the samples' clock:
 *   - on each thread's own track, beside its samples: its implicit tasks, one slice per
 *     region instance named with the region's row name in report.csv (args: the thread's
 *     number in the team, the nesting level), and with --openmp-scope full its waits
 *     (implicit and explicit barriers, taskwait, taskgroup, lock, critical, ordered),
 *     which lie inside the implicit task they belong to;
 *   - a track per device of each process ("OpenMP device N"): target constructs, data
 *     ops (with their bytes) and kernel submits as the host saw them, and the device's own
 *     trace records where the runtime gave them times; overlapping ones (nowait, several
 *     host threads) on extra tracks;
 *   - otherData's "openmp": what was recorded and what was not (waits under basic scope,
 *     explicit tasks, which the tool only counts), records that did not pair, and the
 *     slices past the report's cap (RPT_OMP_SLICES_MAX, the earliest kept).
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void slice_head(struct rpt_pf *w, uint32_t pid, uint32_t tid,
		       const struct rpt_omp_slice_view *s, const char *name)
{
	rpt_pf_sep(w);
	fprintf(w->f, "{\"ph\":\"X\",\"cat\":\"openmp\",\"pid\":%u,\"tid\":%u,\"ts\":", pid, tid);
	rpt_pf_ts(w, s->begin);
	/* the end's time minus the begin's, each exact in ns: nested slices stay nested */
	fprintf(w->f, ",\"dur\":%.3f,\"name\":\"", (double)(s->end - s->begin) / 1e3);
	util_put_escaped(w->f, name, UTIL_ESC_JSON);
	fputs("\",\"args\":{", w->f);
}

static void arg_site(FILE *f, const struct rpt_omp_slice_view *s, bool comma)
{
	if (!s->site[0])
		return;
	fputs(comma ? ",\"site\":\"" : "\"site\":\"", f);
	util_put_escaped(f, s->site, UTIL_ESC_JSON);
	fputc('"', f);
}

void rpt_pf_omp_slice(struct rpt_pf *w, const struct rpt *r, uint32_t tid, size_t i)
{
	struct rpt_omp_slice_view s;

	rpt_omp_thread_slice_at(r, i, &s);
	if (s.kind == RPT_OMP_SLICE_REGION) {
		slice_head(w, (uint32_t)s.pid, tid, &s, s.site[0] ? s.site : "parallel region");
		fprintf(w->f, "\"member\":%u,\"level\":%u}}", s.member, s.depth);
		return;
	}
	slice_head(w, (uint32_t)s.pid, tid, &s, s.what);
	arg_site(w->f, &s, false);
	fputs("}}", w->f);
}

uint64_t rpt_pf_omp_base(const struct rpt *r, uint64_t base)
{
	struct rpt_omp_trace_facts facts;
	struct rpt_omp_slice_view s;

	rpt_omp_trace_facts(r, &facts);
	for (size_t i = 0; i < facts.nthread; i++) {
		rpt_omp_thread_slice_at(r, i, &s);
		if (s.begin < base || !base)
			base = s.begin;
	}
	for (size_t i = 0; i < facts.ndevice; i++) {
		rpt_omp_device_slice_at(r, i, &s);
		if (s.begin < base || !base)
			base = s.begin;
	}
	return base;
}

static void device_slice(struct rpt_pf *w, uint32_t tid, const struct rpt_omp_slice_view *s)
{
	slice_head(w, (uint32_t)s->pid, tid, s, s->what);
	arg_site(w->f, s, false);
	if (s->kind == RPT_OMP_SLICE_DEVICE) {
		fputs(s->site[0] ? "," : "", w->f);
		if (s->how == SES_OMPT_DEVREC_KERNEL)
			fprintf(w->f, "\"teams\":%" PRIu64, s->count);
		else
			fprintf(w->f, "\"bytes\":%" PRIu64, s->bytes);
		fputs("}}", w->f);
		return;
	}
	fprintf(w->f, "%s\"thread\":%u", s->site[0] ? "," : "", s->tid);
	if (s->kind == RPT_OMP_SLICE_DATA)
		fprintf(w->f, ",\"bytes\":%" PRIu64, s->bytes);
	else if (s->kind == RPT_OMP_SLICE_SUBMIT)
		fprintf(w->f, ",\"teams\":%" PRIu64, s->count);
	fputs("}}", w->f);
}

/* Device slices [@from, @to), all of one process and device. */
static int put_device(struct rpt_pf *w, const struct rpt *r, size_t from, size_t to, uint32_t *vtid)
{
	struct rpt_pf_lanes *lanes = calloc(1, sizeof(*lanes));
	uint32_t tids[RPT_PF_LANES];
	struct rpt_omp_slice_view s;
	char name[64];
	int named = 0;

	if (!lanes)
		return -ENOMEM;
	rpt_omp_device_slice_at(r, from, &s);
	snprintf(name, sizeof(name), "OpenMP device %d", s.device);
	for (size_t i = from; i < to; i++) {
		int k;

		rpt_omp_device_slice_at(r, i, &s);
		k = rpt_pf_lane(lanes, s.begin, s.end);
		while (named <= k) { /* a track is named before its first slice */
			char suffix[32] = "";

			tids[named] = (*vtid)++;
			if (named)
				snprintf(suffix, sizeof(suffix), " (overlapping %d)", named);
			rpt_pf_meta(w, "thread_name", (uint32_t)s.pid, tids[named], name, suffix);
			named++;
		}
		device_slice(w, tids[k], &s);
	}
	free(lanes);
	return 0;
}

int rpt_pf_omp_devices(struct rpt_pf *w, const struct rpt *r, uint32_t *vtid)
{
	struct rpt_omp_trace_facts facts;
	struct rpt_omp_slice_view a, b;
	int ret = 0;

	rpt_omp_trace_facts(r, &facts);
	for (size_t i = 0, j; i < facts.ndevice && !ret; i = j) {
		rpt_omp_device_slice_at(r, i, &a);
		for (j = i + 1; j < facts.ndevice; j++) {
			rpt_omp_device_slice_at(r, j, &b);
			if (b.pid != a.pid || b.device != a.device)
				break;
		}
		ret = put_device(w, r, i, j, vtid);
	}
	return ret;
}

void rpt_pf_omp_other(struct rpt_pf *w, const struct rpt *r)
{
	FILE *f = w->f;
	struct rpt_omp_trace_facts facts;
	struct rpt_omp_slice_view s;
	uint64_t regions = 0, waits = 0;

	rpt_omp_trace_facts(r, &facts);
	if (!facts.kept)
		return;
	for (size_t i = 0; i < facts.nthread; i++) {
		rpt_omp_thread_slice_at(r, i, &s);
		regions += s.kind == RPT_OMP_SLICE_REGION;
		waits += s.kind == RPT_OMP_SLICE_WAIT;
	}
	fprintf(f,
		",\"openmp\":{\"region_slices\":%" PRIu64 ",\"wait_slices\":%" PRIu64
		",\"device_slices\":%zu,\"waits\":\"%s\"",
		regions, waits, facts.ndevice,
		!facts.basic  ? "recorded (--openmp-scope full)"
		: !facts.full ? "not recorded: --openmp-scope basic records none (collect with "
				"--openmp-scope full for wait slices)"
			      : "recorded only for the processes traced with --openmp-scope full");
	fprintf(f,
		",\"explicit_tasks\":\"not shown: the tool counts explicit tasks (%" PRIu64
		" created) but records no slice of each\"",
		facts.tasks);
	if (facts.unpaired)
		fprintf(f, ",\"unpaired_records\":%" PRIu64, facts.unpaired);
	if (facts.left_out) { /* the trace is whole up to the first left out */
		fprintf(f, ",\"left_out\":{\"slices\":%" PRIu64 ",\"from_ts\":", facts.left_out);
		rpt_pf_ts(w, facts.left_from);
		fprintf(f, ",\"kept_at_most\":%u}", RPT_OMP_SLICES_MAX);
	}
	fputc('}', f);
}
