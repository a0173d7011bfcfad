// SPDX-License-Identifier: MIT
/*
 * uprof pcm output, in AMDuProfPcm's layout (docs/reference/uprof-cli.md §7): "Key:,value"
 * metadata, the CPU topology, a 3-row header (group titles, components, metric names),
 * one row per interval with a leading Timestamp and a trailing comma, and a cumulative
 * table "Metric,<component>,...". A count (a metric that is one event's count) is the
 * integer counted; a derived metric has 2 decimals and is computed over counts scaled for
 * multiplexing (enabled/running); how much the counters were multiplexed is a column of
 * its own, the last (Multiplex Scale: 1.00 when not). A value that cannot be computed
 * (x/0, a counter that never ran) is an empty cell.
 */
#include "cli/pcm.h"
#include "util/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

/* A CSV cell: quoted when it holds a comma, a quote or a newline. */
static void cell(FILE *f, const char *s)
{
	util_csv_cell(f, s, UTIL_CSV_WHEN_NEEDED);
}

static void value_cell(FILE *f, double v, int decimals)
{
	char buf[64];

	pmc_value_format(v, decimals, buf, sizeof(buf));
	fputs(buf, f);
}

/* @v as the CSV has it (formatted to @decimals, read back): what the page and report.json
 * keep, so they show the CSV's numbers, and a page drawn again from the CSV alone (pcm
 * hreport) is the same page, point for point. */
static double as_written(double v, int decimals)
{
	char buf[64];

	pmc_value_format(v, decimals, buf, sizeof(buf));
	return buf[0] ? strtod(buf, NULL) : NAN;
}

int pcm_metric_decimals(const struct pcm_state *st, int m)
{
	return pcm_metric_is_count(st, m) ? 0 : 2;
}

static void topology(struct pcm_state *st, FILE *f)
{
	fprintf(f, "CPU Topology:\nSocket,CCX,Core(s)\n");
	for (int u = 0; u < pmc_topo_ccxs(st->topo); u++) {
		struct pmc_cpus cpus;
		struct pmc_cpu_place pl;
		char list[1024];

		if (pmc_topo_unit(st->topo, PMC_LEVEL_CCX, u, &cpus) ||
		    pmc_topo_place(st->topo, pmc_cpus_next(&cpus, 0), &pl))
			continue;
		pmc_cpus_format(&cpus, list, sizeof(list));
		fprintf(f, "%d,%d,", pl.package, u);
		cell(f, list);
		fputc('\n', f);
	}
}

void pcm_out_metadata(struct pcm_state *st, FILE *f)
{
	const struct pmc_cpuid *id = &st->cpuid;
	int threads = pmc_cpus_count(pmc_topo_online(st->topo));
	int cores = pmc_topo_cores(st->topo);
	struct timeval tv;
	struct tm tm;

	fprintf(f, "System:,");
	cell(f, id->model_name[0] ? id->model_name : "unknown");
	fprintf(f, "\nFamily(0x%x) Model(0x%x) Stepping(0x%x):,%s\n", id->family, id->model,
		id->stepping, id->vendor[0] ? id->vendor : "unknown");
	fprintf(f, "Number of Sockets :,%d\nNumber of CCXs :,%d\nNumber of Cores :,%d\n",
		pmc_topo_packages(st->topo), pmc_topo_ccxs(st->topo), cores);
	fprintf(f, "Number of Threads :,%d\nSMT Enabled in HW:,%s\n", threads,
		threads > cores ? "Yes" : "No");
	fprintf(f, "Core P0 state frequency (MHz):,");
	value_cell(f, st->p0_mhz > 0 ? st->p0_mhz : NAN, 2);
	fprintf(f, "\nMultiplex interval (ms):,");
	if (st->mux_ms)
		fprintf(f, "%u", st->mux_ms);
	else
		fprintf(f, "kernel default");
	fprintf(f, "\nSample interval (ms):,%u\nVersion:,uprof %s\nHypervisor Enabled:,%s\n",
		st->interval_ms, UPROF_VERSION, id->hypervisor ? "Yes" : "No");
	topology(st, f);
	fprintf(f, "Abbreviation :\nIPC,Instructions Per Cycle\nCPI,Cycles Per Instruction\n"
		   "pti,Per Thousand Instructions\nGB/s,10^9 bytes per second\n");
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	fprintf(f, "Profile Time:,%04d/%02d/%02d %02d:%02d:%02d:%03ld\n", tm.tm_year + 1900,
		tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		(long)(tv.tv_usec / 1000));
}

void pcm_out_header(struct pcm_state *st, FILE *f)
{
	int last_group = -1;

	/* 1: group titles at the first column of each group's span */
	fputc(',', f);
	for (int c = 0; c < st->ncomps; c++) {
		const struct pmc_group *g = &st->mg.groups[st->comps[c].group];

		for (int m = 0; m < g->nmetrics; m++) {
			if (m == 0 && st->comps[c].group != last_group)
				cell(f, g->title);
			fputc(',', f);
		}
		last_group = st->comps[c].group;
	}
	fputc(',', f); /* the multiplex scale's column: no group */
	/* 2: components at the first column of theirs */
	fputs("\n,", f);
	for (int c = 0; c < st->ncomps; c++)
		for (int m = 0; m < st->mg.groups[st->comps[c].group].nmetrics; m++) {
			if (m == 0)
				cell(f, st->comps[c].label);
			fputc(',', f);
		}
	fputs(PCM_MUX_SCALE_UNIT ",", f);
	/* 3: metric names */
	fputs("\nTimestamp,", f);
	for (int c = 0; c < st->ncomps; c++) {
		const struct pmc_group *g = &st->mg.groups[st->comps[c].group];

		for (int m = 0; m < g->nmetrics; m++) {
			cell(f, st->mg.metrics[g->first_metric + m].name);
			fputc(',', f);
		}
	}
	fputs(PCM_MUX_SCALE_NAME ",\n", f);
}

/* Keep the run's largest multiplex scale for pcm_run's note; NaN (a counter that never
 * ran) sticks. */
static void note_scale(struct pcm_state *st, double scale)
{
	if (!isnan(st->mux_scale_max) && (isnan(scale) || scale > st->mux_scale_max))
		st->mux_scale_max = scale;
}

/* The most any component's counters were multiplexed over @delta (1: not at all). */
static double row_mux_scale(struct pcm_state *st, const struct pmc_count *delta, int64_t elapsed_ns)
{
	double scale = 1.0;

	for (int c = 0; c < st->ncomps; c++) {
		double s = pcm_mux_scale(st, &st->comps[c], delta, elapsed_ns);

		scale = isnan(s) || isnan(scale) ? NAN : fmax(scale, s);
	}
	note_scale(st, scale);
	return scale;
}

void pcm_out_row(struct pcm_state *st, FILE *f, const struct pmc_count *delta, const uint64_t *idle,
		 int64_t elapsed_ns)
{
	/* stamped with the reading that ends the row, in wall-clock time, not with when it is
	 * printed: a row printed late (the machine's load) would move the row after it closer */
	int64_t wall = cli_now_ns(CLOCK_REALTIME) - (cli_now_ns(CLOCK_MONOTONIC) - st->t_cur);
	time_t sec = (time_t)(wall / 1000000000);
	struct tm tm;

	char stamp[16];
	double scale;
	int col = 0;

	localtime_r(&sec, &tm);
	snprintf(stamp, sizeof(stamp), "%02d:%02d:%02d:%03ld", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (long)(wall % 1000000000 / 1000000));
	fprintf(f, "%s,", stamp);
	for (int c = 0; c < st->ncomps; c++) {
		const struct pmc_group *g = &st->mg.groups[st->comps[c].group];

		for (int m = 0; m < g->nmetrics; m++, col++) {
			double v = pcm_metric_value(st, &st->comps[c], g->first_metric + m, delta,
						    idle, elapsed_ns);

			value_cell(f, v, pcm_metric_decimals(st, g->first_metric + m));
			fputc(',', f);
			if (st->series)
				st->rowbuf[col] = as_written(
					v, pcm_metric_decimals(st, g->first_metric + m));
		}
	}
	scale = row_mux_scale(st, delta, elapsed_ns);
	value_cell(f, scale, 2);
	fputs(",\n", f);
	if (st->series)
		st->rowbuf[col] = as_written(scale, 2);
	fflush(f);
	if (st->series)
		pcm_html_keep_row(st->series, stamp, st->rowbuf);
}

/* Values per row: every component's group's metrics. */
int pcm_ncols(const struct pcm_state *st)
{
	int n = 0;

	for (int c = 0; c < st->ncomps; c++)
		n += st->mg.groups[st->comps[c].group].nmetrics;
	return n;
}

/* Index of the first component labelled like component @c. */
int pcm_label_index(const struct pcm_state *st, int c)
{
	for (int i = 0; i < c; i++)
		if (!strcmp(st->comps[i].label, st->comps[c].label))
			return i;
	return c;
}

void pcm_out_cumulative(struct pcm_state *st, FILE *f, const struct pmc_count *delta,
			const uint64_t *idle, int64_t elapsed_ns)
{
	fputs("Metric", f);
	for (int c = 0; c < st->ncomps; c++)
		if (pcm_label_index(st, c) == c) {
			fputc(',', f);
			cell(f, st->comps[c].label);
		}
	fputc('\n', f);
	for (int g = 0; g < st->mg.ngroups; g++) {
		const struct pmc_group *gr = &st->mg.groups[g];

		for (int m = gr->first_metric; m < gr->first_metric + gr->nmetrics; m++) {
			cell(f, st->mg.metrics[m].name);
			for (int c = 0; c < st->ncomps; c++) {
				if (pcm_label_index(st, c) != c)
					continue;
				fputc(',', f);
				for (int k = 0; k < st->ncomps;
				     k++) { /* this group's block of that label */
					double v;

					if (st->comps[k].group != g ||
					    strcmp(st->comps[k].label, st->comps[c].label))
						continue;
					v = pcm_metric_value(st, &st->comps[k], m, delta, idle,
							     elapsed_ns);
					value_cell(f, v, pcm_metric_decimals(st, m));
					if (st->series)
						st->series->cum[(size_t)m * (size_t)st->ncomps +
								(size_t)c] =
							as_written(v, pcm_metric_decimals(st, m));
				}
			}
			fputc('\n', f);
		}
	}
	/* each unit's: the most its counters were multiplexed over the whole run */
	cell(f, PCM_MUX_SCALE_NAME);
	for (int c = 0; c < st->ncomps; c++) {
		double scale = 1.0;

		if (pcm_label_index(st, c) != c)
			continue;
		for (int k = 0; k < st->ncomps; k++)
			if (!strcmp(st->comps[k].label, st->comps[c].label)) {
				double s = pcm_mux_scale(st, &st->comps[k], delta, elapsed_ns);

				scale = isnan(s) || isnan(scale) ? NAN : fmax(scale, s);
			}
		note_scale(st, scale);
		fputc(',', f);
		value_cell(f, scale, 2);
		if (st->series)
			st->series->cum_scale[c] = as_written(scale, 2);
	}
	fputc('\n', f);
	fflush(f);
	if (st->series)
		st->series->have_cum = true;
}

void pcm_out_dry_run(struct pcm_state *st, FILE *f)
{
	char cpus[1024], attr[1024];
	bool task = st->target.pid > 0;

	pmc_cpus_format(&st->target.cpus, cpus, sizeof(cpus));
	fprintf(f, "# uprof pcm --dry-run: %zu counters for %zu events; nothing is opened\n",
		st->ncounters, pmc_evlist_nevents(st->mg.evl));
	fprintf(f, "# family: %s (%s), the events it would program\n", pmc_zen_name(st->zen),
		st->zen_named ? "named by --family" : "detected from cpuinfo");
	fprintf(f, "# target: %s%s\n",
		task ? "the launched program (pid at launch), CPUs " : "CPUs ",
		task ? "any" : cpus);
	for (int g = 0; g < st->mg.ngroups; g++)
		fprintf(f, "# group %s (%s): %d events, %d metrics\n", st->mg.groups[g].name,
			st->mg.groups[g].title, st->mg.groups[g].nnames, st->mg.groups[g].nmetrics);
	if (st->mux_ms)
		fprintf(f,
			"# multiplex interval: %u ms to <sysfs>/bus/event_source/devices/<pmu>/"
			"perf_event_mux_interval_ms of each PMU below\n",
			st->mux_ms);
	for (size_t i = 0; i < st->ncounters; i++) {
		const struct pmc_counter_info *ci = &st->cinfo[i];
		const struct pmc_event *ev = pmc_evlist_event(st->mg.evl, (size_t)ci->event);

		pmc_attr_format(ci->attr, attr, sizeof(attr));
		fprintf(f, "cpu=%d pid=%s group=%d leader=%d pmu=%s event=%s spec=%s attr=%s\n",
			ci->cpu, ci->pid > 0 || task ? "<program>" : "-1", ci->group, ci->leader,
			ev->pmu, pcm_event_name(st, ci->event), ev->name, attr);
	}
}
