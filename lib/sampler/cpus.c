// SPDX-License-Identifier: MIT
/* Which CPUs exist: sysfs's online list, read under UPROF_SYSFS_ROOT for tests. */
#include "sampler/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int parse_num(const char *s, size_t len, size_t *i, int *out)
{
	long v = 0;
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		v = v * 10 + (s[*i] - '0');
		if (v >= SMP_MAX_CPUS)
			return -EINVAL;
		(*i)++;
	}
	if (*i == start)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int smp_parse_cpulist(const char *s, size_t len, int *cpus, int max)
{
	size_t i = 0;
	int n = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (!len)
		return -EINVAL;
	while (i < len) {
		int lo, hi;

		if (parse_num(s, len, &i, &lo))
			return -EINVAL;
		hi = lo;
		if (i < len && s[i] == '-') {
			i++;
			if (parse_num(s, len, &i, &hi) || hi < lo)
				return -EINVAL;
		}
		for (int c = lo; c <= hi; c++) {
			if (n >= max)
				return -E2BIG;
			cpus[n++] = c;
		}
		if (i < len && s[i++] != ',')
			return -EINVAL;
	}
	return n;
}

int smp_online_cpus(int *cpus, int max)
{
	const char *root = getenv("UPROF_SYSFS_ROOT");
	char path[PATH_MAX], buf[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root ? root : "/sys");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -EIO;
	return smp_parse_cpulist(buf, (size_t)n, cpus, max);
}
