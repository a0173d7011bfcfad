// SPDX-License-Identifier: MIT
/*
 * The uids of a process, from <procfs>/<pid>/status (pmc_procfs_root(): $UPROF_PROCFS_ROOT
 * for tests, else /proc). Apart from proc.c because the control page's owner check
 * (ctlpage.c) needs it and nothing else of proc.c's: the fuzz target and the page tests
 * link ctlpage.c without the session library proc.c brings.
 */
#include "sampler/internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

int smp_proc_uids(pid_t pid, uint32_t uids[4])
{
	char path[PATH_MAX], line[256];
	int ret = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", pmc_procfs_root(), (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Uid:", 4)) {
			unsigned long v[4];

			ret = sscanf(line + 4, "%lu %lu %lu %lu", &v[0], &v[1], &v[2], &v[3]) == 4
				      ? 0
				      : -EINVAL;
			for (int i = 0; !ret && i < 4; i++) {
				if (v[i] > UINT32_MAX)
					ret = -EINVAL;
				uids[i] = (uint32_t)v[i];
			}
			break;
		}
	fclose(f);
	return ret;
}
