// SPDX-License-Identifier: MIT
/* The perf_event kernel seam: every perf_event syscall of uprof, counting (lib/pmc) and
 * sampling (lib/sampler), goes through here, so tests can replace them
 * (-Wl,--wrap=pmc_sys_...). */
#include "pmc/internal.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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

void *pmc_sys_mmap(int fd, size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

int pmc_sys_munmap(void *addr, size_t len)
{
	return munmap(addr, len) ? -errno : 0;
}
