// SPDX-License-Identifier: MIT
/* Which CPUs exist: sysfs's online list under lib/pmc's sysfs root (UPROF_SYSFS_ROOT for
 * tests), parsed by lib/pmc's one CPU-list parser. */
#include "sampler/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

int smp_online_cpus(int *cpus, int max)
{
	char path[PATH_MAX], buf[4096];
	struct pmc_cpus set;
	ssize_t n;
	int fd, count = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pmc_sysfs_root());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -EIO;
	if (pmc_cpus_parse(buf, (size_t)n, &set) || !pmc_cpus_count(&set))
		return -EINVAL;
	for (int c = pmc_cpus_next(&set, 0); c >= 0; c = pmc_cpus_next(&set, c + 1)) {
		if (count == max)
			return -E2BIG;
		cpus[count++] = c;
	}
	return count;
}
