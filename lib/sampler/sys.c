// SPDX-License-Identifier: MIT
/* The kernel seam: every perf_event syscall of the sampler passes through here. */
#include "sampler/internal.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int smp_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			    unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

int smp_sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

void *smp_sys_mmap(int fd, size_t len)
{
	return mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
}

int smp_sys_munmap(void *addr, size_t len)
{
	return munmap(addr, len) ? -errno : 0;
}
