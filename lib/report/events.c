// SPDX-License-Identifier: MIT
/*
 * Sessions with several sampling events (-e, EBP configs such as assess). The first event
 * sorts every section and drives all the per-process/thread/module tallies; each further
 * event gets a value column beside it, counted here per (kind, owner, item). Values are
 * event counts (samples x interval), seconds for the timer; derived metrics (IPC, CPI,
 * PTI) are the session's formulas over them, evaluated here with lib/metric.
 */
#include "report/internal.h"
#include "metric/metric.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define KIND_KEY(kind, owner) ((uint64_t)(kind) << 56 | (uint64_t)(owner))

/*
 * collect asks every event for PERF_SAMPLE_PERIOD (PMC_SAMPLE_TYPE), and the period in a
 * sample is what it stands for. With that bit, the kernel samples a software event
 * (context-switches, page-faults, cpu-migrations...) and a tracepoint at every
 * occurrence whatever sample_period says, each sample carrying period 1
 * (perf_swevent_event(), kernel/events/core.c); a frequency event's period changes from
 * sample to sample (rpt_events_of_attr weighs those, seen in the attr). So samples x
 * interval is false for them (250 sleeps came out as 63,000,000 switches): each sample
 * counts its own period. Where the kernel's period is the interval (the hrtimer clocks
 * cpu-clock and task-clock, a PMC at a fixed period) the two are equal, and tallies stay
 * in samples (annotate's SAMPLES columns); the timer also because rates.c scales its
 * samples to the measured CPU time when the kernel fell behind. One rule with foreign
 * files (ses_event.weighted); @period stays the interval asked for, shown as such.
 */
static bool counts_every_occurrence(const struct ses_event *e)
{
	if (e->type == PERF_TYPE_TRACEPOINT)
		return true;
	return e->type == PERF_TYPE_SOFTWARE && e->config != PERF_COUNT_SW_CPU_CLOCK &&
	       e->config != PERF_COUNT_SW_TASK_CLOCK;
}

void rpt_events_weigh(struct rpt *r)
{
	for (int i = 0; i < r->info.nevents; i++)
		r->info.events[i].weighted = !ses_event_is_timer(&r->info.events[i]) &&
					     counts_every_occurrence(&r->info.events[i]);
}

/* A formula names an event by the part of its name before " (": "RETIRED_INST (PMCx0C0)"
 * is RETIRED_INST (struct ses_metric). */
int rpt_events_init(struct rpt *r, char *err, size_t errlen)
{
	char inputs[SES_MAX_EVENTS][64], why[256];
	const char *in[SES_MAX_EVENTS], *names[SES_MAX_METRICS], *formulas[SES_MAX_METRICS];
	const struct ses_info *info = &r->info;
	int ret;

	if (!info->nmetrics)
		return 0;
	for (int i = 0; i < info->nevents; i++) {
		const char *n = info->events[i].name;

		snprintf(inputs[i], sizeof(inputs[i]), "%.*s", (int)strcspn(n, " "), n);
		in[i] = inputs[i];
	}
	for (int m = 0; m < info->nmetrics; m++) {
		names[m] = info->metrics[m].name;
		formulas[m] = info->metrics[m].formula;
	}
	/* every formula is checked; only sessions of several events have metric columns */
	ret = mtr_set_new(&r->metrics, in, info->nevents, names, formulas, info->nmetrics, why,
			  sizeof(why));
	if (ret == -EINVAL && errlen)
		snprintf(err, errlen, "%s/session.ini: a metric formula: %s", r->dir, why);
	if (!ret && info->nevents <= 1)
		rpt_events_release(r);
	return ret;
}

void rpt_events_release(struct rpt *r)
{
	mtr_set_free(r->metrics);
	r->metrics = NULL;
}

int rpt_events_of_attr(struct rpt *r, const struct ses_reader *rd, int attr)
{
	const struct perf_event_attr *a;

	if (attr < 0 || attr >= 64)
		return -1;
	if (r->attr_event[attr])
		return r->attr_event[attr] - 2;
	a = ses_reader_attr(rd, (size_t)attr);
	r->attr_event[attr] = 1; /* -1: not a session event (the tracking event) */
	for (int i = 0; a && i < r->info.nevents; i++) {
		const struct ses_event *e = &r->info.events[i];

		if (r->info.foreign) { /* synthesized from the attrs: it names its own */
			if (e->attr == attr)
				r->attr_event[attr] = i + 2;
			continue;
		}
		if (e->type == a->type && e->config == a->config && e->period == a->sample_period) {
			r->attr_event[attr] = i + 2;
			/* sampled by frequency: the kernel's period changes (rpt_events_weigh) */
			if (a->freq && !ses_event_is_timer(e))
				r->info.events[i].weighted = true;
			break;
		}
	}
	/* a session with one event and one sampling attr: whatever it is, it is that one */
	if (r->attr_event[attr] == 1 && !r->info.foreign && r->info.nevents <= 1 && a &&
	    a->sample_period &&
	    !(a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY))
		r->attr_event[attr] = 2;
	return r->attr_event[attr] - 2;
}

int rpt_events_count(struct rpt *r, int ev, uint32_t thread, int module, uint64_t addr,
		     uint64_t units)
{
	uint64_t *slot = util_hash_slot(&r->extra_addr, (uint64_t)thread | (uint64_t)ev << 40,
					(uint64_t)module, addr);

	if (!slot)
		return -ENOMEM;
	*slot += units;
	if (ev < SES_MAX_EVENTS)
		r->event_samples[ev] += units;
	return 0;
}

static int add(struct rpt *r, int kind, uint32_t owner, uint32_t item, int ev, uint64_t n)
{
	uint64_t *slot = util_hash_slot(&r->extra, KIND_KEY(kind, owner), item, (uint64_t)ev);

	if (!slot)
		return -ENOMEM;
	*slot += n;
	return 0;
}

int rpt_events_aggregate(struct rpt *r)
{
	for (size_t i = 0; i < r->extra_addr.cap; i++) {
		const struct util_hent *e = &r->extra_addr.e[i];
		int thread, module, ev, func, proc, ret;
		uint64_t n;

		if (!e->used)
			continue;
		thread = (int)(e->a & ((1ULL << 40) - 1));
		ev = (int)(e->a >> 40);
		module = (int)e->b;
		n = e->val;
		ret = rpt_resolve(r, thread, module, e->c, &func, &proc);
		if (!ret)
			ret = add(r, RPT_K_FUNC, 0, func, ev, n) ||
					      add(r, RPT_K_PROC, 0, proc, ev, n) ||
					      add(r, RPT_K_MOD, 0, module, ev, n) ||
					      add(r, RPT_K_THREAD, 0, thread, ev, n) ||
					      add(r, RPT_K_PROC_FUNC, proc, func, ev, n) ||
					      add(r, RPT_K_PROC_MOD, proc, module, ev, n) ||
					      add(r, RPT_K_THREAD_FUNC, thread, func, ev, n) ||
					      add(r, RPT_K_THREAD_MOD, thread, module, ev, n) ||
					      add(r, RPT_K_MOD_FUNC, module, func, ev, n) ||
					      add(r, RPT_K_PROG, 0, r->world.procs[proc].program,
						  ev, n) ||
					      add(r, RPT_K_PROG_FUNC, r->world.procs[proc].program,
						  func, ev, n) ||
					      add(r, RPT_K_PROG_MOD, r->world.procs[proc].program,
						  module, ev, n)
				      ? -ENOMEM
				      : 0;
		if (ret)
			return ret;
	}
	return 0;
}

static bool is_timer(const struct ses_event *e)
{
	return ses_event_is_timer(e);
}

/* One tally unit of event @i is worth this much: seconds for the timer, events otherwise. */
static double scale(const struct rpt *r, int i)
{
	const struct ses_event *e = &r->info.events[i];

	return is_timer(e) ? (double)ses_event_unit(e) / 1e9 : (double)ses_event_unit(e);
}

/* The unit an event's column is shown in under --show-* (rpt_options.show). */
static const char *shown_unit(const struct rpt *r, int i)
{
	const struct ses_event *e = r->info.nevents ? &r->info.events[i] : NULL;

	switch (r->opts.show) {
	case RPT_SHOW_PERCENTAGE:
		return "%";
	case RPT_SHOW_SAMPLE_COUNT: /* an event counted by its own period has no per-row
				     * sample count: its column stays in events */
		return e && e->weighted ? "events" : "samples";
	case RPT_SHOW_EVENT_COUNT:
		return !e || is_timer(e) ? "ns" : "events";
	case RPT_SHOW_VALUE:
		break;
	}
	return !e || is_timer(e) ? "seconds" : "events";
}

/* Event @i's column header: its name, with the unit under --show-* */
static void event_header(const struct rpt *r, FILE *f, int i, bool first)
{
	fprintf(f, "%s\"%s", first ? "" : ",", r->info.events[i].name);
	if (r->opts.show != RPT_SHOW_VALUE)
		fprintf(f, " (%s)", shown_unit(r, i));
	fputc('"', f);
}

void rpt_events_header(const struct rpt *r, FILE *f)
{
	if (r->view_set) { /* --view: its columns, in its order */
		for (int c = 0; c < mtr_set_count(r->view_set); c++)
			if (r->view_event[c] >= 0)
				event_header(r, f, r->view_event[c], !c);
			else
				fprintf(f, "%s\"%s\"", c ? "," : "", r->opts.view->columns[c].name);
		return;
	}
	if (r->info.nevents <= 1) {
		fprintf(f, "\"%s\" (%s)", r->info.nevents ? r->info.events[0].name : "CPU_TIME",
			shown_unit(r, 0));
		return;
	}
	for (int i = 0; i < r->info.nevents; i++)
		event_header(r, f, i, !i);
	for (int m = 0; m < mtr_set_count(r->metrics); m++)
		fprintf(f, ",\"%s\"", r->info.metrics[m].name);
}

/* Event @i's cell under --show-* other than the value: @units of its tally (samples, or
 * events where each sample counts its own period) as a share of the event's total in
 * the report, as they are, or as event counts (the timer's in ns, what cpu-clock counts) */
static void shown_cell(const struct rpt *r, FILE *f, int i, uint64_t units)
{
	uint64_t total = i ? r->event_samples[i] : r->samples;
	uint64_t unit = r->info.nevents ? ses_event_unit(&r->info.events[i]) : 1000000;

	if (r->opts.show == RPT_SHOW_PERCENTAGE)
		fprintf(f, ",%.4f", total ? (double)units * 100.0 / (double)total : 0.0);
	else if (r->opts.show == RPT_SHOW_SAMPLE_COUNT)
		fprintf(f, ",%" PRIu64, units);
	else
		fprintf(f, ",%" PRIu64, units * unit);
}

/* Event @i's cell of a row whose values are @v (@units tallied) */
static void event_cell(const struct rpt *r, FILE *f, int i, const double *v, const uint64_t *units)
{
	if (r->opts.show == RPT_SHOW_VALUE) /* the sort event's digits: rows sum to the total */
		fprintf(f, ",%.*f", i ? 4 : rpt_value_digits(r), v[i]);
	else
		shown_cell(r, f, i, units[i]);
}

/* A metric's cell: empty where it is undefined (x/0) */
static void metric_cell(FILE *f, double m)
{
	if (isfinite(m))
		fprintf(f, ",%.4f", m);
	else
		fputc(',', f);
}

/* Each event's @units tallied for (kind, owner, item), and its value @v; the count. */
static int values_of(const struct rpt *r, int kind, uint32_t owner, uint32_t item,
		     uint64_t ev0_samples, double *v, uint64_t *units)
{
	int n = r->info.nevents > 0 ? r->info.nevents : 1;

	units[0] = ev0_samples;
	v[0] = (double)ev0_samples * (r->info.nevents ? scale(r, 0) : 1e-3);
	for (int i = 1; i < n; i++) {
		uint64_t *c = util_hash_find(&r->extra, KIND_KEY(kind, owner), item, (uint64_t)i);

		units[i] = c ? *c : 0;
		v[i] = (double)units[i] * scale(r, i);
	}
	return n;
}

int rpt_view_columns(const struct rpt *r, const char **title, const char **names,
		     bool *is_event, int max)
{
	const struct mtr_view *v = r->opts.view;
	int n = r->view_set && v ? v->ncolumns : 0;

	*title = n ? v->title : NULL;
	for (int c = 0; c < n && c < max; c++) {
		names[c] = v->columns[c].name;
		is_event[c] = r->view_event[c] >= 0;
	}
	return n < max ? n : max;
}

void rpt_view_function_values(const struct rpt *r, const struct rpt_row *row, double *out)
{
	double v[SES_MAX_EVENTS], m[RPT_VIEW_MAX];
	uint64_t units[SES_MAX_EVENTS];

	if (!r->view_set)
		return;
	values_of(r, RPT_K_FUNC, 0, (uint32_t)row->item, row->samples, v, units);
	mtr_set_eval(r->view_set, v, m);
	for (int c = 0; c < mtr_set_count(r->view_set); c++)
		out[c] = r->view_event[c] >= 0 ? v[r->view_event[c]] : m[c];
}

void rpt_events_cells(const struct rpt *r, FILE *f, int kind, uint32_t owner, uint32_t item,
		      uint64_t ev0_samples)
{
	double v[SES_MAX_EVENTS],
		m[SES_MAX_METRICS > RPT_VIEW_MAX ? SES_MAX_METRICS : RPT_VIEW_MAX];
	uint64_t units[SES_MAX_EVENTS];
	int n = values_of(r, kind, owner, item, ev0_samples, v, units);

	if (r->view_set) { /* --view: its columns; an event's as it would be shown */
		mtr_set_eval(r->view_set, v, m);
		for (int c = 0; c < mtr_set_count(r->view_set); c++)
			if (r->view_event[c] >= 0)
				event_cell(r, f, r->view_event[c], v, units);
			else
				metric_cell(f, m[c]);
		return;
	}
	for (int i = 0; i < n; i++)
		event_cell(r, f, i, v, units);
	/* metrics are over the values, whatever the columns show */
	if (n <= 1 || !r->metrics)
		return;
	mtr_set_eval(r->metrics, v, m);
	for (int i = 0; i < mtr_set_count(r->metrics); i++)
		metric_cell(f, m[i]);
}
