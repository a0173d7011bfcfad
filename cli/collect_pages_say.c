// SPDX-License-Identifier: MIT
/*
 * What uprof collect says about the control pages of a run (collect_pages.c finds and
 * reads them): why a page of the run is not read, once per pid, and every bounded list
 * that was full, with its count.
 */
#include "cli/collect_pages.h"
#include "instrument/ctlpage.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const CMD = "collect";

bool pages_pidlist_has(const struct pidlist *l, int pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == pid)
			return true;
	return false;
}

bool pages_pidlist_add(struct pidlist *l, int pid, size_t max)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		int *g = l->n < max ? realloc(l->v, cap * sizeof(*g)) : NULL;

		if (!g)
			return false;
		l->v = g;
		l->cap = cap;
	}
	l->v[l->n++] = pid;
	return true;
}

/* A page of an ABI major this uprof does not read (ctlpage.h's rules): one line. */
static void warn_version(int pid)
{
	uint32_t v = 0;

	if (smp_page_peek_version(pid, &v))
		cli_warn(CMD, "pid %d's control page is of an unknown version; its tasks and pauses "
			      "are not in this session",
			 pid);
	else
		cli_warn(CMD, "pid %d's control page is version %u.%u, this uprof reads %u.x: its "
			      "tasks and pauses are not in this session (use the uprof its "
			      "libAMDProfileController comes from)",
			 pid, UPROF_CTL_MAJOR_OF(v), UPROF_CTL_MINOR_OF(v), UPROF_CTL_MAJOR);
}

/* Is @pid a process of this run? Attach mode: one we attached to, or a descendant; launch
 * mode: a descendant of ours (a page we cannot read has no session token to tell). */
bool pages_of_this_run(const struct collect_pages *c, int pid)
{
	int self = (int)getpid();

	if (c->st->attach)
		return collect_attach_owns(c->st, pid);
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		pid = smp_proc_ppid(pid);
		if (pid == self)
			return true;
	}
	return false;
}

/* Say once why the page of @pid, a process of this run, is not read. Pages of other
 * processes (another user's run, files anyone may make in /dev/shm) are none of this
 * session's business: no word. False when nothing needs saying. */
bool pages_warn_refused(struct collect_pages *c, int pid, const struct smp_page_why *why)
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
			snprintf(what, sizeof(what), "it is %" PRIu64 " bytes, its header says %" PRIu64,
				 why->size, why->want);
		else
			snprintf(what, sizeof(what), "it is %" PRIu64 " bytes, too short for a header",
				 why->size);
		break;
	case SMP_PAGE_PID:
		snprintf(what, sizeof(what), "its header names pid %d", (int)why->page_pid);
		break;
	case SMP_PAGE_LAYOUT:
		snprintf(what, sizeof(what), "its layout is not one this uprof reads");
		break;
	case SMP_PAGE_FAULTED:
		snprintf(what, sizeof(what), "it was truncated while uprof read it");
		break;
	default:
		return false; /* another session's, or its process is gone */
	}
	if (pages_pidlist_has(&c->warned, pid) || !pages_of_this_run(c, pid))
		return false;
	if (!pages_pidlist_add(&c->warned, pid, MAX_WARNED)) {
		c->over_warned++;
		return false;
	}
	cli_warn(CMD, "pid %d's control page is not read: %s; its tasks and pauses are not in "
		      "this session",
		 pid, what);
	return true;
}

/* Warn once about a page we cannot read, and remember it: nobody else will remove it
 * when its process ends without its exit handler. */
void pages_refused(struct collect_pages *c, int pid)
{
	if (!pages_of_this_run(c, pid) || pages_pidlist_has(&c->refused, pid))
		return;
	warn_version(pid);
	if (!pages_pidlist_add(&c->refused, pid, MAX_PENDING))
		c->over_warned++;
}

/* Every bounded list says when it was full: one line each, with the count. */
void pages_warn_overflows(const struct collect_pages *c)
{
	if (c->over_pages)
		cli_warn(CMD, "%" PRIu64 " control page%s not read: uprof reads at most %d at "
			      "once; the tasks and pauses of those processes are not in this "
			      "session",
			 c->over_pages, c->over_pages == 1 ? " was" : "s were", c->max_pages);
	if (c->over_pending)
		cli_warn(CMD, "%" PRIu64 " control page%s not waited for: %zu unpublished pages were "
			      "waiting already",
			 c->over_pending, c->over_pending == 1 ? " was" : "s were", c->max_pending);
	if (c->over_squatted)
		cli_warn(CMD, "%" PRIu64 " page file%s of other users named after no process %s not "
			      "watched (%d were): a process of this run given one of those pids may "
			      "lose its tasks and pauses unsaid",
			 c->over_squatted, c->over_squatted == 1 ? "" : "s",
			 c->over_squatted == 1 ? "was" : "were", MAX_WARNED);
	if (c->over_warned)
		cli_warn(CMD, "%" PRIu64 " more control page%s not read (no line each: %d were "
			      "said already)",
			 c->over_warned, c->over_warned == 1 ? " was" : "s were", MAX_WARNED);
	if (c->vanished)
		cli_warn(CMD, "%" PRIu64 " instrumented process%s of this run removed %s control "
			      "page before uprof could read it; %s tasks and pauses are not in this "
			      "session",
			 c->vanished, c->vanished == 1 ? "" : "es", c->vanished == 1 ? "its" : "their",
			 c->vanished == 1 ? "its" : "their");
	if (c->lost_calls)
		cli_warn(CMD, "%" PRIu64 " pause/resume call%s not kept (out of memory): "
			      "pauses.csv may miss paused time",
			 c->lost_calls, c->lost_calls == 1 ? " was" : "s were");
}
