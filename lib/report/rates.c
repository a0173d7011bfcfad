// SPDX-License-Identifier: MIT
/*
 * Rates and the seconds a sample stands for: the one home of "samples x interval".
 *
 * The achieved rate is samples per second of the target CPU time of the modes the timer
 * sampled: a user-mode-only session (hotspots) divides by user time, when collect
 * recorded the split (session.ini's user_ns, sys_ns).
 *
 * A timer sample stands for one interval of CPU time, unless the timer could not fire
 * that often. The kernel throttles an event that interrupts too often (THROTTLE records),
 * and a cpu-clock hrtimer whose interval is shorter than what one sample costs (about
 * 40 us in this project's VMs: --timer-interval 0.01 asks for 10 us) skips the periods it
 * overran without a record: 26 kHz came of 100 kHz, and CPU_TIME read 3.8 times low. In
 * both cases the samples are still spread over the CPU time as the code ran, so CPU_TIME
 * is the measured target CPU time shared out over the samples, and the report says so.
 */
#include "report/internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Below this share of the requested rate, samples are taken to stand for more time. */
#define MISSED_SHARE 0.5

static double timer_period_s(const struct rpt *r)
{
	return r->info.nevents ? (double)r->info.events[0].period / 1e9 : 0.001;
}

static bool timer_first(const struct ses_info *in)
{
	return !in->nevents || ses_event_is_timer(&in->events[0]);
}

/* The CPU time the sort event sampled, ns: user or system time alone when it sampled one
 * mode and the split was recorded, else both; *@mode names it ("user", "system", NULL). */
static int64_t mode_cpu_ns(const struct rpt *r, const char **mode)
{
	const struct ses_info *in = &r->info;
	const struct ses_event *e = in->nevents ? &in->events[0] : NULL;

	*mode = NULL;
	if (!e || in->target_user_ns + in->target_sys_ns <= 0)
		return in->target_cpu_ns;
	if (e->exclude_kernel && !e->exclude_user) {
		*mode = "user";
		return in->target_user_ns;
	}
	if (e->exclude_user && !e->exclude_kernel) {
		*mode = "system";
		return in->target_sys_ns;
	}
	return in->target_cpu_ns;
}

double rpt_rate_cpu_s(const struct rpt *r, const char **mode)
{
	double cpu = (double)mode_cpu_ns(r, mode) / 1e9;
	const struct ses_info *in = &r->info;

	/* with pauses, the CPU time of the unpaused share of the run */
	if (cpu > 0 && r->pause_total_ns > 0 && in->end_mono_ns > in->start_mono_ns) {
		double run = (double)(in->end_mono_ns - in->start_mono_ns);
		double live = run - (double)r->pause_total_ns;

		cpu = live > 0 ? cpu * live / run : 0;
	}
	return cpu;
}

void rpt_rates_settle(struct rpt *r)
{
	/* the collection's, as the rate's */
	uint64_t n = r->samples + r->filtered_samples + r->tool_dropped +
		     r->system_samples;
	double period = timer_period_s(r), cpu;
	const char *mode;

	r->time_scale = 1;
	cpu = rpt_rate_cpu_s(r, &mode);
	if (!timer_first(&r->info) || !n || cpu <= 0 || period <= 0)
		return;
	if (r->throttles || (double)n / cpu < MISSED_SHARE / period)
		r->time_scale = cpu / (double)n / period;
	if (r->time_scale < 1) /* more samples than intervals: nothing was missed */
		r->time_scale = 1;
}

double rpt_sample_s(const struct rpt *r)
{
	return timer_period_s(r) * r->time_scale;
}

/*
 * Decimals of a CPU_TIME value in report.csv: 4 (uProf's), or as many as one sample's
 * seconds need to be written exactly (a 0.25 ms interval: 5; 10 us: 5; 1 ms: still 4),
 * up to 9 (the period is whole ns). With 4 for a 0.25 ms timer, 1,485 one-sample rows
 * of 0.00025 s each printed 0.0003 and summed 2.5 % over the total; with the sample's
 * own digits every row is a whole number of samples and the rows sum to the total. (A
 * timer that fell behind, time_scale > 1, shares the measured CPU time out, which no
 * decimal count writes exactly: rows are then rounded at these digits; so are a perf
 * file's, whose samples carry periods of their own.)
 */
int rpt_value_digits(const struct rpt *r)
{
	uint64_t ns = r->info.nevents ? r->info.events[0].period : 1000000, step = 100000;
	int d = 4;

	/* event counts are whole numbers, exact at any digits; a foreign file's timer sums
	 * each sample's own ns (weighted), which needs no more than uProf's 4 to read */
	if (!timer_first(&r->info) || !ns || (r->info.nevents && r->info.events[0].weighted))
		return 4;
	while (d < 9 && ns % step) {
		step /= 10;
		d++;
	}
	return d;
}

/* CPUs in a -c list ("0-3,8"; "" or unreadable: @all). */
static int cpus_in(const char *list, int all)
{
	int n = 0;

	while (*list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (end == list || a < 0)
			return all;
		if (*end == '-') {
			list = end + 1;
			b = strtol(list, &end, 10);
			if (end == list || b < a)
				return all;
		}
		n += (int)(b - a + 1);
		if (*end != ',' && *end)
			return all;
		list = *end ? end + 1 : end;
	}
	return n > 0 && (all <= 0 || n <= all) ? n : all;
}

/*
 * The most timer samples the session could hold, or 0 when that is not known. A
 * cpu-clock event fires once per period of the CPU time of the task it counts, and a CPU
 * runs one task at a time, so each CPU sampled gives at most one sample per period of
 * wall time, whatever the number of threads (a new thread's event starts a full period
 * from firing). 10 % and one sample per CPU of slack for the edges of the run. More
 * samples than that (108,146,733 Hz "achieved" on 2 CPUs) is not a rate but a session
 * whose times or counts are wrong: report calls it damage.
 */
uint64_t rpt_rate_max_samples(const struct rpt *r)
{
	const struct ses_info *in = &r->info;
	uint64_t period = in->nevents ? in->events[0].period : 0;
	int cpus = cpus_in(in->cpu_mask, in->ncpus);
	double wall_ns = (double)(in->end_mono_ns - in->start_mono_ns);

	if (in->foreign || !timer_first(in) || !period || cpus <= 0 || wall_ns <= 0)
		return 0;
	return (uint64_t)((double)cpus * wall_ns / (double)period * 1.1) + (uint64_t)cpus;
}

/*
 * Why the timer fired less often than asked, from what was measured: THROTTLE records
 * (the kernel stopped it), lost samples (the ring was full), else the target's CPU time
 * against the run's: a target on the CPU less than half the run ran in bursts, and its
 * rate is its own (its samples per CPU-second), not the cost of a sample; a busy target
 * neither throttled nor losing samples at an interval under 0.1 ms (a sample costs about
 * 40 us in this project's VMs) spent the interval on the samples themselves. Said with
 * the numbers, into @buf.
 */
const char *rpt_rate_cause(const struct rpt *r, char *buf, size_t len)
{
	const struct ses_info *in = &r->info;
	double period = timer_period_s(r), run_s = 0, cpu_s;
	uint64_t n = r->sample_records + r->filtered_samples + r->tool_dropped +
		     r->system_samples;
	const char *mode;

	cpu_s = rpt_rate_cpu_s(r, &mode);
	if (in->end_mono_ns > in->start_mono_ns)
		run_s = (double)(in->end_mono_ns - in->start_mono_ns - r->pause_total_ns) / 1e9;
	if (r->throttles)
		snprintf(buf, len, "throttled by the kernel %" PRIu64 " times", r->throttles);
	else if (r->lost)
		snprintf(buf, len, "%" PRIu64 " samples lost", r->lost);
	else if (cpu_s > 0 && run_s > 0 && cpu_s < run_s / 2)
		snprintf(buf, len,
			 "the target was on a CPU %.1f %% of the run (%.3f s of %.3f s), in "
			 "bursts; %.1f samples per CPU-second; no sample lost or throttled",
			 100 * cpu_s / run_s, cpu_s, run_s, cpu_s > 0 ? (double)n / cpu_s : 0.0);
	else if (period > 0 && period < 100e-6)
		snprintf(buf, len,
			 "the target was busy (%.3f s of CPU in %.3f s) and no sample was lost "
			 "or throttled: a sample costs more CPU time than the %.3f ms interval",
			 cpu_s, run_s, period * 1e3);
	else
		snprintf(buf, len,
			 "no sample lost or throttled, the target busy (%.3f s of CPU in %.3f "
			 "s): cause not measured",
			 cpu_s, run_s);
	return buf;
}
