// SPDX-License-Identifier: MIT
/*
 * Each rank's achieved sampling rate, and why a low one is low (issue 29). CPU_TIME is a
 * cpu-clock timer per task: the kernel stops it when the task is switched out and starts
 * it again once the task is back on the CPU, so the CPU time of the switch itself (and of
 * stopping and restarting the timer, costly in a VM) is the task's but never sampled.
 * Ranks of separate profiles that take turns on a CPU pay that at every switch:
 * bench/switch_cost.sh measures 9 us a switch here, and Open MPI's ranks, whose progress
 * loop yields the CPU when ranks outnumber cores and whose MPI_Init blocks a thousand
 * times, switch 5-10 times as often as MPICH's (61-88 % of the asked rate against
 * 97-99 %). A rank below RATE_LOW of the asked rate is flagged in report.csv, with the
 * cause the session can show: the kernel's throttling, lost samples, its context switches
 * (session.ini's, from its rusage), or the CPU time it spent in bursts.
 */
#include "job/internal.h"
#include "util/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* below this share of the asked rate a rank is flagged */
#define RATE_LOW 0.9
/* a switch costs the timer 9-25 us here (bench/README.md); beyond this per switch, the
 * switches do not account for what went unsampled */
#define SWITCH_COST_MAX_US 100.0

void rpt_job_rate_note(struct rpt_job *j, struct rpt_job_rank *o, const struct rpt *r)
{
	struct rpt_summary s;
	uint64_t sw;
	double cpu_s, unsampled_s;

	rpt_summary(r, &s);
	o->achieved_hz = s.achieved_hz;
	o->requested_hz = s.requested_hz;
	o->switches = s.info->target_voluntary_switches + s.info->target_involuntary_switches;
	if (!j->timer || s.achieved_hz <= 0 || s.requested_hz <= 0 ||
	    s.achieved_hz >= RATE_LOW * s.requested_hz)
		return;
	o->rate_low = true;
	j->nrate_low++;
	sw = o->switches;
	cpu_s = (double)s.rate_samples / s.achieved_hz;
	unsampled_s = cpu_s - (double)s.rate_samples * s.period_s;
	if (!s.throttles && !s.lost && sw && unsampled_s > 0 &&
	    unsampled_s * 1e6 / (double)sw <= SWITCH_COST_MAX_US)
		snprintf(o->rate_why, sizeof(o->rate_why),
			 "%.1f ms of its %.3f s of CPU unsampled over %" PRIu64
			 " context switches (%" PRIu64 " voluntary, %" PRIu64
			 " involuntary): %.1f us a switch, which the CPU timer does not see "
			 "(it stops at each switch out and restarts after the switch in)",
			 unsampled_s * 1e3, cpu_s, sw, s.info->target_voluntary_switches,
			 s.info->target_involuntary_switches, unsampled_s * 1e6 / (double)sw);
	else
		rpt_rate_cause(r, o->rate_why, sizeof(o->rate_why));
}

void rpt_job_rates_write(const struct rpt_job *j, FILE *f)
{
	if (!j->timer)
		return;
	fprintf(f,
		"\nMPI RANK SAMPLING RATE (CPU_TIME samples per second of the rank's CPU "
		"time; under %.0f %% of the asked rate flagged with the cause the session "
		"shows)\n",
		RATE_LOW * 100);
	fprintf(f, "RANK,HOST,ACHIEVED(Hz),ASKED(Hz),SHARE(%%),CONTEXT SWITCHES,LOW,CAUSE\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct rpt_job_rank *o = &j->ranks[i];

		if (o->state >= RPT_RANK_MISSING || o->requested_hz <= 0)
			continue;
		fprintf(f, "%d,", o->rank);
		util_csv_quoted(f, o->host);
		fprintf(f, ",%.1f,%.1f,%.1f,%" PRIu64 ",%s,", o->achieved_hz, o->requested_hz,
			100 * o->achieved_hz / o->requested_hz, o->switches,
			o->rate_low ? "yes" : "no");
		util_csv_quoted(f, o->rate_why);
		fputc('\n', f);
	}
}
