// SPDX-License-Identifier: MIT
/*
 * uprof collect: which events to sample. With -e, exactly those (uProf's key=value specs,
 * predefined names, PMCxNNN, libpfm4 and perf software names, or "timer"); else the
 * config's [event.N] list (assess, branch, ...); else the config's timer. Everything is
 * parsed and checked against the PMUs this machine has before a session directory
 * exists: a VM without a core PMU gets one message naming it, and nothing on disk.
 */
#include "cli/collect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const CMD = "collect";

/* One spec to a sampling attr and its display name. -1 to go on, or an exit code. */
static int add_event(struct collect_state *st, const struct pmc_pmus *pmus, const char *spec,
		     bool optional, const char *origin)
{
	struct perf_event_attr *attr = &st->attrs[st->nattrs];
	struct pmc_event ev;
	char err[256];
	int ret;

	if (st->nattrs >= COLLECT_MAX_ATTRS)
		return cli_error(EXIT_USAGE, CMD, "at most %d events", SES_MAX_EVENTS);
	ret = pmc_event_parse(spec, strlen(spec), pmus, &ev, err, sizeof(err));
	if (ret == -ENODEV && optional)
		return -1;
	/* a PMU this machine lacks (ibs-op, amd_l3/...) is not a usage error: exit 1, as for
	 * the core PMU below */
	if (ret)
		return cli_error(ret == -ENODEV ? 1 : EXIT_USAGE, CMD, "%s '%s': %s", origin, spec,
				 err);
	/* report values are samples x interval; with frequency= each sample has its own
	 * period, which the report does not weigh: refuse rather than print wrong counts */
	if (ev.frequency)
		return cli_error(EXIT_USAGE, CMD,
				 "%s '%s': frequency= is not supported; use "
				 "interval= (events per sample)",
				 origin, spec);
	if (ev.kind == PMC_EV_TIMER) {
		uint64_t ns = ev.interval ? ev.interval : st->period_ns;

		pmc_timer_attr(attr, ns, st->config.user_only);
		snprintf(st->event_names[st->nattrs], sizeof(st->event_names[0]), "CPU_TIME");
		st->nattrs++;
		return -1;
	}
	if (pmc_event_require(&ev, pmus, err, sizeof(err))) {
		if (optional)
			return -1; /* the config says the rest is worth counting without it */
		return cli_error(1, CMD, "%s", err);
	}
	st->ncore += ev.kind == PMC_EV_CORE;
	pmc_event_sample_attr(&ev, st->config.user_only, attr);
	if (st->pmc_interval) /* --interval: one period for every PMC event */
		attr->sample_period = st->pmc_interval;
	pmc_event_label(&ev, st->event_names[st->nattrs], sizeof(st->event_names[0]));
	st->nattrs++;
	return -1;
}

/* Sampling events are opened one by one, so more core events than counters are not
 * refused: the kernel rotates them, each counts only part of the time, and the report's
 * samples x interval undercounts them by that share. Say so rather than be silently low. */
static void warn_multiplexed(const struct collect_state *st, const struct pmc_pmus *pmus)
{
	const struct pmc_pmu *cpu = pmc_pmus_find(pmus, "cpu");
	int counters = cpu ? pmc_pmu_counters(cpu) : 0;

	if (counters > 0 && st->ncore > counters)
		cli_warn(CMD,
			 "%d core PMC events for %d counters: the kernel multiplexes them, so "
			 "each is sampled only part of the time and its counts are low; at most "
			 "%d events give exact counts",
			 st->ncore, counters, counters);
}

int collect_events_prepare(struct collect_state *st)
{
	struct pmc_pmus *pmus = NULL;
	int ret = -1;

	st->nattrs = 1; /* [0] is the tracking event */
	if (!st->nspecs && !st->config.nevents) {
		pmc_timer_attr(&st->attrs[COLLECT_TIMER], st->period_ns, st->config.user_only);
		snprintf(st->event_names[COLLECT_TIMER], sizeof(st->event_names[0]), "CPU_TIME");
		st->nattrs = 2;
		if (!st->ntool_events)
			return -1;
	}
	if (pmc_pmus_load(&pmus))
		return cli_error(1, CMD, "cannot read the PMUs under /sys/bus/event_source");
	for (int i = 0; i < st->nspecs && ret < 0; i++)
		ret = add_event(st, pmus, st->specs[i], false, "-e");
	for (int i = 0; !st->nspecs && i < st->config.nevents && ret < 0; i++)
		ret = add_event(st, pmus, st->config.events[i].spec, st->config.events[i].optional,
				"config event");
	for (int i = 0; i < st->ntool_events && ret < 0; i++) /* what --tool asked for */
		ret = add_event(st, pmus, st->tool_events[i], false, "--tool event");
	warn_multiplexed(st, pmus);
	pmc_pmus_free(pmus);
	if (ret < 0 && st->nattrs < 2)
		ret = cli_error(1, CMD,
				"none of config '%s''s events exists on this machine; "
				"see 'uprof info --system'",
				st->config.name);
	st->custom = st->nspecs > 0;
	return ret;
}

void collect_events_build(struct collect_state *st, bool enable_on_exec)
{
	pmc_tracking_attr(&st->attrs[COLLECT_TRACKING]);
	collect_callgraph_attr(st);
	for (int i = 0; i < st->nattrs; i++) {
		st->attrs[i].inherit = !st->no_inherit;
		st->attrs[i].enable_on_exec = enable_on_exec;
		st->attrs[i].disabled = 1;
	}
	/* --start-paused: sampling stays off until the program's first resume */
	for (int i = COLLECT_TIMER; i < st->nattrs; i++)
		st->attrs[i].enable_on_exec = enable_on_exec && !st->start_paused &&
					      !(st->start_delay_s > 0);
	/* perf_event_paranoid 2: no event of the set may count kernel or hypervisor time,
	 * the tracking one included (the kernel checks each event's own bits) */
	for (int i = 0; st->user_only && i < st->nattrs; i++) {
		st->attrs[i].exclude_kernel = 1;
		st->attrs[i].exclude_hv = 1;
	}
	/* --trace os: its tracepoints' own bits, after that: a tracepoint excluding the
	 * kernel would never fire, so user-only tracepoints fail to open and are explained */
	collect_ostrace_attrs(st);
}

void collect_events_enable(struct collect_state *st, bool on)
{
	for (int i = COLLECT_TIMER; i < st->nattrs; i++)
		smp_set_enabled(st->smp, i, on);
}

void collect_events_info(struct collect_state *st)
{
	struct ses_info *in = &st->info;

	in->nevents = 0;
	/* --trace os's tracepoints are not report columns (OST_FORMATS_FILE lists them) */
	for (int i = COLLECT_TIMER;
	     i < collect_ostrace_sampling_end(st) && in->nevents < SES_MAX_EVENTS; i++) {
		struct ses_event *ev = &in->events[in->nevents++];
		const struct perf_event_attr *a = &st->attrs[i];

		snprintf(ev->name, sizeof(ev->name), "%s", st->event_names[i]);
		ev->period = a->sample_period;
		ev->type = a->type;
		ev->config = a->config;
		ev->period = a->sample_period;
		ev->exclude_kernel = a->exclude_kernel;
		ev->exclude_user = a->exclude_user;
	}
	/* the config's derived metrics (IPC, CPI, ... PTI) travel with the session */
	in->nmetrics = 0;
	for (int i = 0; !st->custom && i < st->config.nmetrics && i < SES_MAX_METRICS; i++) {
		struct ses_metric *m = &in->metrics[in->nmetrics++];

		snprintf(m->name, sizeof(m->name), "%s", st->config.metrics[i].name);
		snprintf(m->formula, sizeof(m->formula), "%s", st->config.metrics[i].formula);
	}
}
