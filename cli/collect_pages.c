// SPDX-License-Identifier: MIT
/*
 * uprof collect and the control pages of instrumented processes (docs/DESIGN.md §5): the
 * calls into lib/sampler's page set (smp_pageset_*, which finds the pages, drains them
 * in one thread and arbitrates the pauses) and what collect says about them: why a page
 * of the run is not read, once per pid, every bounded list that was full, with its
 * count, and what pauses.csv could not hold.
 */
#include "cli/collect.h"
#include "instrument/ctlpage.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

/* A page of an ABI major this uprof does not read (ctlpage.h's rules): one line. A page
 * handed over comes with its version word (@handed_version); a named one is peeked at. */
static void warn_version(int pid, uint32_t handed_version)
{
	uint32_t v = handed_version;

	if (!v && smp_page_peek_version(pid, &v))
		cli_warn(CMD,
			 "pid %d's control page is of an unknown version; its tasks and pauses "
			 "are not in this session",
			 pid);
	else
		cli_warn(CMD,
			 "pid %d's control page is version %u.%u, this uprof reads %u.x: its "
			 "tasks and pauses are not in this session (use the uprof its "
			 "libAMDProfileController comes from)",
			 pid, UPROF_CTL_MAJOR_OF(v), UPROF_CTL_MINOR_OF(v), UPROF_CTL_MAJOR);
}

static void warn_refused(int pid, const struct smp_page_why *why)
{
	char what[160];

	switch (why->reason) {
	case SMP_PAGE_LINK:
		snprintf(what, sizeof(what), "it is a symbolic link");
		break;
	case SMP_PAGE_NOT_REGULAR:
		snprintf(what, sizeof(what), "it is not a regular file");
		break;
	case SMP_PAGE_OWNER:
		snprintf(what, sizeof(what), "it belongs to uid %u, the process runs as uid %u",
			 why->owner, why->uid);
		break;
	case SMP_PAGE_SIZE:
		if (why->want)
			snprintf(what, sizeof(what),
				 "it is %" PRIu64 " bytes, its header says %" PRIu64, why->size,
				 why->want);
		else
			snprintf(what, sizeof(what),
				 "it is %" PRIu64 " bytes, too short for a header", why->size);
		break;
	case SMP_PAGE_PID:
		snprintf(what, sizeof(what), "its header names pid %d", (int)why->page_pid);
		break;
	case SMP_PAGE_LAYOUT:
		snprintf(what, sizeof(what), "its layout is not one this uprof reads");
		break;
	default: /* SMP_PAGE_FAULTED */
		snprintf(what, sizeof(what), "it was truncated while uprof read it");
		break;
	}
	cli_warn(CMD,
		 "pid %d's control page is not read: %s; its tasks and pauses are not in "
		 "this session",
		 pid, what);
}

static void say(void *arg, enum smp_pageset_what what, int pid, int err,
		const struct smp_page_why *why)
{
	struct collect_state *st = arg;

	switch (what) {
	case SMP_PAGESET_UNWATCHED:
		cli_warn(CMD, "cannot watch %s (%s): instrumented processes will not be seen",
			 "/dev/shm", strerror(err));
		break;
	case SMP_PAGESET_REFUSED:
		warn_refused(pid, why);
		break;
	case SMP_PAGESET_VERSION:
		warn_version(pid, (uint32_t)err);
		break;
	case SMP_PAGESET_HELD_ELSEWHERE:
		if (!st->system_wide)
			cli_warn(CMD,
				 "pid %d's instrumentation is read by another uprof collect; its "
				 "tasks and pauses are not in this session",
				 pid);
		break;
	case SMP_PAGESET_NO_TASKS_FILE:
		cli_warn(CMD, "cannot write task records of pid %d: %s", pid, strerror(err));
		break;
	case SMP_PAGESET_NO_OMPT_FILE:
		cli_warn(CMD, "cannot write the OpenMP records of pid %d: %s", pid, strerror(err));
		break;
	case SMP_PAGESET_TRUNCATED:
		cli_warn(CMD,
			 "pid %d's control page was truncated while uprof read it; its tasks "
			 "and pauses from then on are not in this session",
			 pid);
		break;
	case SMP_PAGESET_OMPT_FAILED:
		cli_warn(CMD, "could not write the OpenMP records of pid %d", pid);
		break;
	}
}

static void set_sampling(void *arg, bool on)
{
	collect_events_enable(arg, on);
}

static bool owns(void *arg, int pid)
{
	return collect_attach_owns(arg, pid);
}

/* The program is told where our instrumentation library is, the one next to this binary
 * (build/bin/uprof -> build/lib/, <prefix>/bin/uprof -> <prefix>/lib/), in every variable
 * a loader of it reads, unless the user set that variable: INTEL_LIBITTNOTIFY64 for
 * programs using Intel's ITT API (and LLVM's libomp, which carries ITT's static part),
 * AMDUPROF_LIB for python/amd_instrument.py (which could not find it from a checkout). */
static void set_library_env(void)
{
	static const char *const vars[] = { "INTEL_LIBITTNOTIFY64", "AMDUPROF_LIB" };
	char lib[PATH_MAX], real[PATH_MAX];

	if (!cli_beside_exe("../lib/libAMDProfileController.so", lib, sizeof(lib)) ||
	    !realpath(lib, real) || access(real, R_OK))
		return;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!getenv(vars[i]))
			setenv(vars[i], real, 1);
}

/* tests only (tests/e2e/page_limits.sh): the bounds on pages, lower, so that their
 * overflow is seen without 4096 processes; never higher (0: the library's) */
static long test_limit(const char *name)
{
	const char *s = getenv(name);
	long v = s ? strtol(s, NULL, 10) : 0;

	return v > 0 && v < INT_MAX ? v : 0;
}

int collect_pages_start(struct collect_state *st)
{
	struct smp_pageset_opts o = {
		.token = st->attach ? NULL : st->token,
		.session_dir = st->session_dir,
		.session_dfd = st->session_fd,
		.ompt = st->omp.on,
		.ompt_impl = st->omp.omplib ? SES_OMPT_IMPL_OMPLIB : SES_OMPT_IMPL_OMPT,
		.ompt_scope = st->omp.full ? SES_OMPT_SCOPE_FULL : SES_OMPT_SCOPE_BASIC,
		.start_paused = st->start_paused,
		.channel = !st->attach,
		.held = st->start_delay_s > 0,
		.max_pages = (int)test_limit("UPROF_TEST_MAX_PAGES"),
		.max_pending = (size_t)test_limit("UPROF_TEST_MAX_PENDING"),
		.set_sampling = set_sampling,
		.owns = owns,
		.say = say,
		.arg = st,
	};

	int ret;

	set_library_env();
	/* before the directory is looked at: what killed processes left is not read */
	st->stale_pages = smp_pages_remove_stale(NULL, (uint32_t)geteuid());
	ret = smp_pageset_start(&st->pages, &o);
	/* the run's processes hand their pages over it; never one inherited from an outer
	 * uprof, whose socket is not ours */
	if (!ret && smp_pageset_channel(st->pages)) {
		char lanes[16];

		setenv(UPROF_CTL_CHANNEL_ENV, smp_pageset_channel(st->pages), 1);
		/* a lane per thread for the OMPT tool's records: we drain them */
		snprintf(lanes, sizeof(lanes), "%u", smp_page_lanes_wanted());
		setenv(UPROF_CTL_LANES_ENV, lanes, 1);
	} else {
		unsetenv(UPROF_CTL_CHANNEL_ENV);
		unsetenv(UPROF_CTL_LANES_ENV);
	}
	return ret;
}

void collect_pages_adopt_attached(struct collect_state *st)
{
	for (int i = 0; i < st->nattach; i++)
		smp_pageset_add_pid(st->pages, st->attach_pids[i]);
}

int collect_pages_fd(const struct collect_state *st)
{
	return smp_pageset_fd(st->pages);
}

bool collect_pages_busy(const struct collect_state *st)
{
	return smp_pageset_busy(st->pages);
}

void collect_pages_poll(struct collect_state *st)
{
	smp_pageset_poll(st->pages);
}

void collect_pages_release_hold(struct collect_state *st)
{
	smp_pageset_release_hold(st->pages);
}

/* Every bounded list says when it was full: one line each, with the count. */
static void warn_overflows(const struct smp_pageset_counts *c)
{
	if (c->over_pages)
		cli_warn(CMD,
			 "%" PRIu64 " control page%s not read: uprof reads at most %d at "
			 "once; the tasks and pauses of those processes are not in this "
			 "session",
			 c->over_pages, c->over_pages == 1 ? " was" : "s were", c->max_pages);
	if (c->over_pending)
		cli_warn(CMD,
			 "%" PRIu64 " control page%s not waited for: %zu unpublished pages were "
			 "waiting already",
			 c->over_pending, c->over_pending == 1 ? " was" : "s were", c->max_pending);
	if (c->over_squatted)
		cli_warn(CMD,
			 "%" PRIu64 " page file%s of other users named after no process %s not "
			 "watched (%d were): a process of this run given one of those pids may "
			 "lose its tasks and pauses unsaid",
			 c->over_squatted, c->over_squatted == 1 ? "" : "s",
			 c->over_squatted == 1 ? "was" : "were", c->max_warned);
	if (c->over_warned)
		cli_warn(CMD,
			 "%" PRIu64 " more control page%s not read (no line each: %d were "
			 "said already)",
			 c->over_warned, c->over_warned == 1 ? " was" : "s were", c->max_warned);
	if (c->vanished)
		cli_warn(CMD,
			 "%" PRIu64 " instrumented process%s of this run removed %s control "
			 "page before uprof could read it; %s tasks and pauses are not in this "
			 "session",
			 c->vanished, c->vanished == 1 ? "" : "es",
			 c->vanished == 1 ? "its" : "their", c->vanished == 1 ? "its" : "their");
	if (c->not_followed)
		cli_warn(CMD,
			 "%" PRIu64 " instrumented process%s of this run not followed: %s control "
			 "page or its files could not be kept (out of descriptors or memory); "
			 "%s tasks and pauses are not in this session",
			 c->not_followed, c->not_followed == 1 ? "" : "es",
			 c->not_followed == 1 ? "its" : "their",
			 c->not_followed == 1 ? "its" : "their");
	if (c->channel_refused)
		cli_warn(CMD,
			 "%" PRIu64 " control page%s handed to this run by processes not of it "
			 "refused",
			 c->channel_refused, c->channel_refused == 1 ? "" : "s");
	if (c->lost_calls)
		cli_warn(CMD,
			 "%" PRIu64 " pause/resume call%s not kept (out of memory): "
			 "pauses.csv may miss paused time",
			 c->lost_calls, c->lost_calls == 1 ? " was" : "s were");
}

/* What the session keeps of the pages ([pages] in session.ini), for report to say. */
static void record_counts(struct collect_state *st, const struct smp_pageset_counts *c)
{
	size_t len = 0;

	st->info.pages_stale_removed = st->stale_pages;
	st->info.pages_handed = c->handed;
	st->info.pages_named = c->named;
	st->info.pages_squatted = c->squatted;
	st->info.pages_refused = c->refused;
	st->info.pages_not_followed = c->not_followed;
	st->info.pages_channel_refused = c->channel_refused;
	st->info.pages_pids[0] = 0;
	for (int i = 0; i < c->npids; i++) {
		int n = snprintf(st->info.pages_pids + len, sizeof(st->info.pages_pids) - len,
				 "%s%d", i ? "," : "", c->pids[i]);

		if (n < 0 || (size_t)n >= sizeof(st->info.pages_pids) - len) {
			st->info.pages_pids[len] = 0; /* whole pids only */
			break;
		}
		len += (size_t)n;
	}
}

/* The calls of every process, arbitrated into the session's intervals (pauses.csv). */
static void write_pauses(struct collect_state *st, int64_t end_mono)
{
	struct smp_pageset_pauses r;

	smp_pageset_write_pauses(st->pages, st->info.start_mono_ns, end_mono, &r);
	if (r.err) {
		cli_warn(CMD, "cannot work out the paused intervals: %s", strerror(-r.err));
		return;
	}
	if (r.future)
		cli_warn(CMD,
			 "%" PRIu64 " pause/resume call%s stamped later than uprof read %s; "
			 "counted as made when read",
			 r.future, r.future == 1 ? " was" : "s were",
			 r.future == 1 ? "it" : "them");
	if (r.unknown_lost)
		cli_warn(CMD, "cannot mark the stretches of dropped pause records: out of memory");
	st->info.pauses_max = (uint64_t)r.max_rows;
	st->info.pauses_folded = r.folded;
	if (r.folded)
		cli_warn(CMD,
			 "pauses.csv holds at most %d rows: the last %" PRIu64 " are one "
			 "\"unknown\" row (%.3f s), their samples kept and counted",
			 r.max_rows, r.folded, r.folded_s);
	st->info.pause_total_ns = r.total_ns;
	st->info.pause_unknown_ns = r.unknown_ns;
	st->info.lost_pause_records = r.gap_records;
	if (r.gap_records)
		cli_warn(CMD,
			 "%" PRIu64 " pause/resume record%s dropped by full rings in the "
			 "target%s: the pause state is unknown for %.3f s (\"unknown\" rows in "
			 "pauses.csv; report counts their samples)",
			 r.gap_records, r.gap_records == 1 ? " was" : "s were",
			 r.gap_records == 1 ? "" : "s", (double)r.unknown_ns / 1e9);
	if (r.write_err)
		cli_error(1, CMD, "cannot write pauses.csv: %s", strerror(-r.write_err));
}

void collect_pages_stop(struct collect_state *st, int64_t end_mono)
{
	struct smp_pageset_counts c;

	if (!st->pages)
		return;
	smp_pageset_stop(st->pages);
	smp_pageset_counts(st->pages, &c);
	st->info.lost_task_records += c.lost_task_records;
	record_counts(st, &c);
	warn_overflows(&c);
	write_pauses(st, end_mono);
	smp_pageset_free(st->pages);
	st->pages = NULL;
}
