// SPDX-License-Identifier: MIT
/*
 * The one explainer of perf_event_open failures (perf's evsel__open_strerror), for
 * collect (launch, attach, -a) and pcm alike: the same errno gets the same advice, made
 * exact by what was being opened. kernel.perf_event_paranoid allows: 2, user code of
 * one's own processes; 1, kernel code too; 0, per-CPU events (every process, uncore);
 * -1, everything. Root is not bound by it.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define UNKNOWN_LEVEL INT_MIN

static int proc_int(const char *rel)
{
	char buf[16], *end;
	long v;

	if (pmc_read_file(pmc_procfs_root(), rel, buf, sizeof(buf)) <= 0)
		return UNKNOWN_LEVEL;
	v = strtol(buf, &end, 10);
	return *end || end == buf ? UNKNOWN_LEVEL : (int)v;
}

/* The highest perf_event_paranoid that allows @w. */
static int paranoid_needed(const struct pmc_open_what *w)
{
	if (w->scope == PMC_OPEN_CPU)
		return 0;
	return w->kernel ? 1 : 2;
}

static const char *needs_what(const struct pmc_open_what *w)
{
	if (w->scope == PMC_OPEN_CPU)
		return "profiling every CPU (-a, uncore, per-CPU counting)";
	if (w->kernel)
		return "sampling kernel code";
	return "profiling";
}

static void explain_denied(int err, const struct pmc_open_what *w, const char *n, char *buf,
			   size_t len)
{
	int need = paranoid_needed(w);
	int level = proc_int("sys/kernel/perf_event_paranoid");
	char path[PATH_MAX];
	struct stat sb;
	int ptrace;

	if (w->scope == PMC_OPEN_ATTACH && w->uid) {
		snprintf(path, sizeof(path), "%s/%d", pmc_procfs_root(), w->pid);
		if (!stat(path, &sb) && sb.st_uid != w->uid) {
			snprintf(buf, len,
				 "not permitted to attach to pid %d: it belongs to another "
				 "user (uid %u); run uprof as that user or as root",
				 w->pid, (unsigned)sb.st_uid);
			return;
		}
	}
	if (w->uid && level != UNKNOWN_LEVEL && level > need) {
		snprintf(buf, len,
			 "not permitted to open %s (%s): kernel.perf_event_paranoid is %d "
			 "and %s needs %d or lower; 'sysctl kernel.perf_event_paranoid=%d' "
			 "or run as root",
			 n, strerror(-err), level, needs_what(w), need, need);
		return;
	}
	ptrace = proc_int("sys/kernel/yama/ptrace_scope");
	if (w->scope == PMC_OPEN_ATTACH && w->uid && ptrace != UNKNOWN_LEVEL && ptrace > 0) {
		snprintf(buf, len,
			 "not permitted to attach to pid %d (%s): kernel.yama.ptrace_scope "
			 "is %d; try 0, or run as root",
			 w->pid, strerror(-err), ptrace);
		return;
	}
	snprintf(buf, len,
		 "not permitted to open %s (%s) although kernel.perf_event_paranoid "
		 "allows it: a security policy (capabilities, LSM, seccomp) refuses it",
		 n, strerror(-err));
}

void pmc_open_strerror(int err, const struct pmc_open_what *w, char *buf, size_t len)
{
	static const struct pmc_open_what none = { .scope = PMC_OPEN_TASK };
	const char *n;

	if (!w)
		w = &none;
	n = w->event ? w->event : "the event";
	switch (err) {
	case -EACCES:
	case -EPERM:
		explain_denied(err, w, n, buf, len);
		break;
	case -ENOENT:
	case -ENODEV:
		snprintf(buf, len,
			 "the kernel does not know %s (PMU '%s' missing, or a code this "
			 "CPU lacks); check with 'uprof info --system'",
			 n, w->pmu ? w->pmu : "?");
		break;
	case -EOPNOTSUPP:
		snprintf(buf, len,
			 "%s cannot be sampled on this PMU (uncore PMUs only count): use "
			 "counting mode, 'uprof pcm'",
			 n);
		break;
	case -EBUSY:
		snprintf(buf, len,
			 "the counters for %s are busy: another profiler, or the NMI "
			 "watchdog ('sysctl kernel.nmi_watchdog=0')",
			 n);
		break;
	case -EINVAL:
		snprintf(buf, len,
			 "the kernel rejected %s (a field this PMU does not support: user=/os= "
			 "on uncore or IBS events, a code too large?)",
			 n);
		break;
	case -EMFILE:
	case -ENFILE:
		snprintf(buf, len, "too many open files for %s: raise 'ulimit -n'", n);
		break;
	case -ENOMEM:
		snprintf(buf, len,
			 "not enough locked memory for the ring buffers of %s: lower "
			 "-m/--mmap-pages or raise kernel.perf_event_mlock_kb",
			 n);
		break;
	case -ESRCH:
		if (w->scope == PMC_OPEN_ATTACH)
			snprintf(buf, len, "process %d ended before uprof could attach", w->pid);
		else
			snprintf(buf, len, "the target process is gone");
		break;
	default:
		snprintf(buf, len, "cannot open %s: %s", n, strerror(-err));
		break;
	}
}

void pmc_open_what_event(struct pmc_open_what *w, const struct pmc_event *ev,
			 enum pmc_open_scope scope)
{
	memset(w, 0, sizeof(*w));
	w->scope = scope;
	w->uid = (unsigned)geteuid();
	if (ev) {
		w->event = ev->name;
		w->pmu = ev->pmu;
		w->kernel = !ev->attr.exclude_kernel;
	}
}
