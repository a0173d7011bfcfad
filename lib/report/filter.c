// SPDX-License-Identifier: MIT
/*
 * report -p PID,.. and --time-filter T1:T2: which samples and task instances a report
 * keeps. Samples outside are counted (the header says how many), never silently lost.
 */
#include "report/internal.h"

#include <string.h>

static bool pid_kept(const struct rpt *r, int pid)
{
	if (!r->opts.nonly_pids)
		return true;
	for (int i = 0; i < r->opts.nonly_pids; i++)
		if (r->opts.only_pids[i] == pid)
			return true;
	return false;
}

/* The window in the samples' clock; an open side is 0 / UINT64_MAX. */
static void window(const struct rpt *r, uint64_t *from, uint64_t *to)
{
	uint64_t start = r->info.start_mono_ns > 0 ? (uint64_t)r->info.start_mono_ns : 0;

	*from = 0;
	*to = UINT64_MAX;
	if (!r->opts.time_filter)
		return;
	if (r->opts.time_from_s >= 0)
		*from = start + (uint64_t)(r->opts.time_from_s * 1e9);
	if (r->opts.time_to_s >= 0)
		*to = start + (uint64_t)(r->opts.time_to_s * 1e9);
}

bool rpt_filter_keeps(const struct rpt *r, int pid, uint64_t time)
{
	uint64_t from, to;

	if (!pid_kept(r, pid))
		return false;
	window(r, &from, &to);
	return time >= from && time <= to;
}

bool rpt_filter_clip(const struct rpt *r, int pid, uint64_t *begin, uint64_t *end)
{
	uint64_t from, to;

	if (!pid_kept(r, pid))
		return false;
	window(r, &from, &to);
	/* task time before the profile started (collect --start-delay) is not in it */
	if (r->info.start_mono_ns > 0 && from < (uint64_t)r->info.start_mono_ns)
		from = (uint64_t)r->info.start_mono_ns;
	if (*end < from || *begin > to)
		return false;
	if (*begin < from)
		*begin = from;
	if (*end > to)
		*end = to;
	return true;
}

int rpt_process_ids(const struct rpt *r, int *pids, int max)
{
	int n = 0;

	for (int i = 0; i < r->world.nprocs; i++) {
		if (r->world.procs[i].pid <= 0)
			continue; /* the kernel's mappings (pid -1), not a process */
		if (n < max)
			pids[n] = r->world.procs[i].pid;
		n++;
	}
	return n;
}

bool rpt_system_path(const char *path)
{
	static const char *const dirs[] = { "/lib/",	 "/lib32/",	"/lib64/",     "/libx32/",
					    "/usr/lib/", "/usr/lib32/", "/usr/lib64/", "/usr/libx32/" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			return true;
	return false;
}

bool rpt_module_is_system(const struct rpt *r, int module)
{
	const char *path = r->world.modules[module].path;

	if (module == RPT_MODULE_KERNEL)
		return true;
	if (module == RPT_MODULE_UNKNOWN || !path)
		return false;
	/* the kernel's modules and the vDSO ([vdso], [kernel.kallsyms]...), system libraries */
	return (path[0] == '[' && strcmp(path, "[unknown]")) || rpt_system_path(path);
}
