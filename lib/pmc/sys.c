// SPDX-License-Identifier: MIT
/* The kernel seam of lib/pmc: every perf_event syscall of counting goes through here, so
 * tests can replace them (-Wl,--wrap=pmc_sys_...). */
#include "pmc/internal.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			    unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

int pmc_sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

ssize_t pmc_sys_read(int fd, void *buf, size_t len)
{
	ssize_t n = read(fd, buf, len);

	return n < 0 ? -errno : n;
}

void pmc_sys_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
