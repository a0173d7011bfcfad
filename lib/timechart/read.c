// SPDX-License-Identifier: MIT
/* Small readers of sysfs, procfs and MSR files for lib/timechart. */
#include "timechart/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int tc_read_text(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret = 0;

	if (len == 0 || snprintf(path, sizeof(path), "%s/%s", root, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		ret = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return ret;
}

int tc_read_u64(const char *root, const char *rel, uint64_t *out)
{
	char buf[64], *end;
	unsigned long long v;
	int ret = tc_read_text(root, rel, buf, sizeof(buf));

	if (ret)
		return ret;
	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -EINVAL;
	*out = v;
	return 0;
}

int tc_read_msr(const char *dev, int cpu, uint32_t msr, uint64_t *out)
{
	char path[PATH_MAX];
	uint64_t v;
	ssize_t n;
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/cpu/%d/msr", dev, cpu) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, &v, sizeof(v), msr);
	if (n < 0)
		ret = -errno;
	else if (n != sizeof(v))
		ret = -EIO;
	else
		*out = v;
	close(fd);
	return ret;
}

int tc_cpuinfo_mhz(const char *procfs, double *mhz, int max)
{
	char path[PATH_MAX], line[512], *colon, *end;
	int cpu = -1, n = 0;
	double v;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cpuinfo", procfs) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		if (!strncmp(line, "processor", 9)) {
			cpu = (int)strtol(colon + 1, &end, 10);
			if (end == colon + 1)
				cpu = -1;
		} else if (!strncmp(line, "cpu MHz", 7) && cpu >= 0 && cpu < max) {
			v = strtod(colon + 1, &end);
			if (end != colon + 1 && v > 0) {
				mhz[cpu] = v;
				n++;
			}
			cpu = -1; /* one value per processor: a second "cpu MHz" is ignored */
		}
	}
	fclose(f);
	return n;
}
