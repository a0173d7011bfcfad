// SPDX-License-Identifier: MIT
/*
 * Opening events: one fd per (attr, CPU), all following one pid. Per-CPU fds are what
 * make inherit + mmap legal, so threads and child processes of the target land in the
 * rings without us tracking them. Every fd after the first on a CPU writes into that
 * CPU's ring (PERF_EVENT_IOC_SET_OUTPUT).
 */
#include "sampler/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_RECORD 65536 /* perf_event_header.size is 16 bits */

static bool power_of_two(size_t n)
{
	return n && !(n & (n - 1));
}

void smp_close(struct smp *s)
{
	if (!s)
		return;
	if (s->rings) {
		for (int c = 0; c < s->ncpus; c++)
			if (s->rings[c].page)
				smp_sys_munmap(s->rings[c].page, s->rings[c].map_len);
	}
	if (s->fds) {
		for (int i = 0; i < s->nattrs * s->ncpus; i++)
			if (s->fds[i] >= 0)
				close(s->fds[i]);
	}
	if (s->ids) {
		for (int i = 0; i < s->nattrs; i++)
			free(s->ids[i]);
	}
	free(s->ids);
	free(s->fds);
	free(s->rings);
	free(s->bounce);
	free(s);
}

static int map_ring(struct smp_ring *r, int fd, size_t pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *m;

	r->map_len = (pages + 1) * (size_t)psz;
	m = smp_sys_mmap(fd, r->map_len);
	if (m == MAP_FAILED)
		return -errno;
	r->fd = fd;
	r->page = m;
	r->data = (unsigned char *)m + psz;
	r->data_size = pages * (size_t)psz;
	return 0;
}

static struct smp *smp_alloc(int nattrs, int ncpus)
{
	struct smp *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->nattrs = nattrs;
	s->ncpus = ncpus;
	s->fds = malloc(sizeof(int) * nattrs * ncpus);
	s->ids = calloc(nattrs, sizeof(*s->ids));
	s->rings = calloc(ncpus, sizeof(*s->rings));
	s->bounce = malloc(MAX_RECORD);
	if (!s->fds || !s->ids || !s->rings || !s->bounce) {
		smp_close(s);
		return NULL;
	}
	for (int i = 0; i < nattrs * ncpus; i++)
		s->fds[i] = -1;
	for (int i = 0; i < nattrs; i++) {
		s->ids[i] = calloc(ncpus, sizeof(uint64_t));
		if (!s->ids[i]) {
			smp_close(s);
			return NULL;
		}
	}
	return s;
}

/* Open attr @a on CPU slot @c and wire it to that CPU's ring. */
static int open_one(struct smp *s, const struct perf_event_attr *attr, int a, int c, int cpu,
		    pid_t pid, size_t pages)
{
	struct perf_event_attr copy = *attr;
	int fd, ret;

	fd = smp_sys_perf_event_open(&copy, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return fd;
	s->fds[a * s->ncpus + c] = fd;
	ret = smp_sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&s->ids[a][c]);
	if (ret)
		return ret;
	if (a == 0)
		return map_ring(&s->rings[c], fd, pages);
	return smp_sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)s->rings[c].fd);
}

int smp_open(struct smp **out, const struct perf_event_attr *attrs, int nattrs, pid_t pid,
	     const struct smp_opts *opts, int *failed_attr)
{
	size_t pages = opts && opts->mmap_pages ? opts->mmap_pages : SMP_DEFAULT_PAGES;
	int cpus[SMP_MAX_CPUS];
	struct smp *s = NULL;
	int ncpus, ret = 0;

	*out = NULL;
	*failed_attr = 0;
	if (nattrs < 1 || !power_of_two(pages))
		return -EINVAL;
	ncpus = smp_online_cpus(cpus, SMP_MAX_CPUS);
	if (ncpus < 0)
		return ncpus;
	s = smp_alloc(nattrs, ncpus);
	if (!s)
		return -ENOMEM;
	for (int a = 0; a < nattrs; a++) {
		for (int c = 0; c < ncpus; c++) {
			ret = open_one(s, &attrs[a], a, c, cpus[c], pid, pages);
			if (ret) {
				*failed_attr = a;
				goto out;
			}
		}
	}
out:
	if (ret)
		smp_close(s);
	else
		*out = s;
	return ret;
}

const uint64_t *smp_ids(const struct smp *s, int i, size_t *n)
{
	*n = i < s->nattrs ? (size_t)s->ncpus : 0;
	return i < s->nattrs ? s->ids[i] : NULL;
}

static int ioctl_all(struct smp *s, unsigned long req)
{
	int ret = 0;

	for (int i = 0; i < s->nattrs * s->ncpus; i++) {
		int r = smp_sys_ioctl(s->fds[i], req, 0);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

int smp_enable(struct smp *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_ENABLE);
}

int smp_disable(struct smp *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE);
}

int smp_set_enabled(struct smp *s, int i, bool on)
{
	int ret = 0;

	if (i < 0 || i >= s->nattrs)
		return -EINVAL;
	for (int c = 0; c < s->ncpus; c++) {
		int r = smp_sys_ioctl(s->fds[i * s->ncpus + c],
				      on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);

		if (r && !ret)
			ret = r;
	}
	return ret;
}

int smp_pollfds(const struct smp *s, struct pollfd *fds, int max)
{
	int n = 0;

	for (int c = 0; c < s->ncpus && n < max; c++)
		fds[n++] = (struct pollfd){ .fd = s->rings[c].fd, .events = POLLIN };
	return n;
}

long smp_drain(struct smp *s, smp_sink_fn sink, void *arg)
{
	long total = 0;

	for (int c = 0; c < s->ncpus; c++) {
		long n = smp_ring_drain(&s->rings[c], &s->stats, s->bounce, sink, arg);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

void smp_get_stats(const struct smp *s, struct smp_stats *st)
{
	*st = s->stats;
}
