// SPDX-License-Identifier: MIT
/*
 * How each rank of a job ended (docs/DESIGN.md §10), from its session.ini: the program's
 * exit code or the signal that killed it, whether its collect was signalled first (the
 * launcher ending the job passes through it) or killed itself (MPICH's launcher SIGKILLs
 * each rank's process group, collect and program at once, when one rank dies), and the
 * other ranks': a rank killed while it ran, after another one failed, was killed by the
 * launcher, not the one that failed.
 */
#include "job/internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char *sig_abbrev(int sig)
{
	const char *a = sig > 0 ? sigabbrev_np(sig) : NULL;

	return a ? a : "?";
}

/* The rank's end from its own session alone; *@victim: it may have been the launcher's
 * (its end came from outside while it ran: decided once every rank's own end is known) */
static void own_end(struct rpt_job_rank *o, bool *victim)
{
	*victim = false;
	if (o->state == RPT_RANK_UNREADABLE) { /* a session report cannot open */
		o->end = RPT_END_UNKNOWN;
	} else if (o->state >= RPT_RANK_MISSING) {
		if (o->end != RPT_END_NEVER_JOINED)
			o->end = RPT_END_NO_SESSION;
	} else if (o->end == RPT_END_RUNNING) {
		;
	} else if (o->collect_killed && o->stop_signal > 0) {
		/* the launcher's signal came while it ran (collect said so), its SIGKILL after */
		o->end = RPT_END_LAUNCHER;
		o->end_value = o->stop_signal;
	} else if (o->collect_killed) { /* its collect and, in its process group, the rank */
		o->end = RPT_END_SIGNAL;
		o->end_value = SIGKILL;
		*victim = true;
	} else if (o->exit_signal > 0) {
		/* collect got a signal first: the launcher ended the rank through it */
		o->end = o->stop_signal > 0 ? RPT_END_LAUNCHER : RPT_END_SIGNAL;
		o->end_value = o->exit_signal;
	} else if (o->exit_code >= 0) {
		o->end = o->exit_code ? RPT_END_EXIT : RPT_END_COMPLETED;
		o->end_value = o->exit_code;
	} else if (o->stop_signal > 0) { /* collect stopped, the rank's own end unseen */
		o->end = RPT_END_INTERRUPTED;
		o->end_value = o->stop_signal;
		*victim = true;
	} else {
		o->end = RPT_END_UNKNOWN;
	}
}

static void label(struct rpt_job_rank *o)
{
	char *b = o->end_label;
	size_t n = sizeof(o->end_label);

	switch (o->end) {
	case RPT_END_COMPLETED:
		snprintf(b, n, "completed");
		break;
	case RPT_END_EXIT:
		snprintf(b, n, "exit(%d)", o->end_value);
		break;
	case RPT_END_SIGNAL:
		snprintf(b, n, "killed by SIG%s", sig_abbrev(o->end_value));
		break;
	case RPT_END_LAUNCHER:
		snprintf(b, n, "killed by the launcher with SIG%s", sig_abbrev(o->end_value));
		break;
	case RPT_END_RUNNING:
		snprintf(b, n, "still running");
		break;
	case RPT_END_INTERRUPTED:
		snprintf(b, n, "interrupted by SIG%s", sig_abbrev(o->end_value));
		break;
	case RPT_END_NEVER_JOINED:
		snprintf(b, n, "never joined");
		break;
	case RPT_END_NO_SESSION:
		snprintf(b, n, "no session");
		break;
	default:
		snprintf(b, n, "end unknown");
	}
}

void rpt_job_ends(struct rpt_job *j)
{
	bool failed = false, *victim = calloc((size_t)j->nranks + 1, sizeof(*victim));

	for (int i = 0; i < j->nranks; i++) {
		bool v;

		own_end(&j->ranks[i], &v);
		if (victim)
			victim[i] = v;
		/* a rank that failed on its own: its exit code, or a signal its collect did
		 * not pass on */
		failed |= !v &&
			  (j->ranks[i].end == RPT_END_EXIT || j->ranks[i].end == RPT_END_SIGNAL);
	}
	for (int i = 0; i < j->nranks; i++) {
		if (victim && victim[i] && failed) /* killed while it ran, after another failed */
			j->ranks[i].end = RPT_END_LAUNCHER;
		label(&j->ranks[i]);
	}
	free(victim);
}

/* Ranks @i.. with the label of rank @i, from @i on, as "0,2-3" into @buf at @used. */
static size_t ranks_of(const struct rpt_job *j, int i, char *buf, size_t used, size_t len)
{
	const char *l = j->ranks[i].end_label;
	bool first = true;

	for (int k = i; k < j->nranks && used < len; k++) {
		int e = k;

		if (strcmp(j->ranks[k].end_label, l))
			continue;
		while (e + 1 < j->nranks && j->ranks[e + 1].rank == j->ranks[e].rank + 1 &&
		       !strcmp(j->ranks[e + 1].end_label, l))
			e++;
		used += (size_t)snprintf(buf + used, len - used, "%s%d", first ? "" : ",",
					 j->ranks[k].rank);
		if (e > k && used < len)
			used += (size_t)snprintf(buf + used, len - used, "-%d", j->ranks[e].rank);
		first = false;
		k = e;
	}
	return used;
}

const char *rpt_job_end_summary(const struct rpt_job *j, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < j->nranks && used < len; i++) {
		int n = 0;
		bool seen = false;

		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(j->ranks[k].end_label, j->ranks[i].end_label);
		if (seen)
			continue;
		for (int k = i; k < j->nranks; k++)
			n += !strcmp(j->ranks[k].end_label, j->ranks[i].end_label);
		used += (size_t)snprintf(buf + used, len - used, "%s%d %s (rank%s ",
					 used ? ", " : "", n, j->ranks[i].end_label,
					 n > 1 ? "s" : "");
		if (used < len)
			used = ranks_of(j, i, buf, used, len);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, ")");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return buf;
}
