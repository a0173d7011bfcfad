// SPDX-License-Identifier: MIT
/*
 * Opening events: one fd per (attr, task, CPU). Per-CPU fds are what make inherit + mmap
 * legal, so threads and child processes of a task land in the rings without us tracking
 * them. The first task's fds own one ring per CPU; every other fd on that CPU writes into
 * it (PERF_EVENT_IOC_SET_OUTPUT). Attaching to a running process adds one task per
 * existing thread.
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
	if (s->rings && s->have_rings) {
		for (int c = 0; c < s->ncpus; c++)
			if (s->rings[c].page)
				pmc_sys_munmap(s->rings[c].page, s->rings[c].map_len);
	}
	for (size_t i = 0; i < s->nfds; i++)
		pmc_sys_close(s->fds[i].fd);
	if (s->ids) {
		for (int i = 0; i < s->nattrs; i++)
			free(s->ids[i].v);
	}
	free(s->ids);
	free(s->fds);
	free(s->rings);
	free(s->bounce);
	free(s->attrs);
	free(s->cpus);
	free(s);
}

static int map_ring(struct smp_ring *r, int fd, size_t pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *m;

	r->map_len = (pages + 1) * (size_t)psz;
	m = pmc_sys_mmap(fd, r->map_len);
	if (m == MAP_FAILED)
		return -errno;
	r->fd = fd;
	r->page = m;
	r->data = (unsigned char *)m + psz;
	r->data_size = pages * (size_t)psz;
	return 0;
}

int smp_new(struct smp **out, const struct perf_event_attr *attrs, int nattrs,
	    const struct smp_opts *opts)
{
	size_t pages = opts && opts->mmap_pages ? opts->mmap_pages : SMP_DEFAULT_PAGES;
	struct smp *s;
	int ret;

	*out = NULL;
	if (nattrs < 1 || !power_of_two(pages))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->nattrs = nattrs;
	s->pages = pages;
	s->cpus = malloc(sizeof(int) * SMP_MAX_CPUS);
	s->attrs = malloc(sizeof(*attrs) * nattrs);
	s->ids = calloc(nattrs, sizeof(*s->ids));
	s->bounce = malloc(MAX_RECORD);
	if (!s->cpus || !s->attrs || !s->ids || !s->bounce) {
		smp_close(s);
		return -ENOMEM;
	}
	memcpy(s->attrs, attrs, sizeof(*attrs) * nattrs);
	ret = smp_online_cpus(s->cpus, SMP_MAX_CPUS);
	if (ret < 0) {
		smp_close(s);
		return ret;
	}
	s->ncpus = ret;
	if (opts && opts->ncpus) { /* -c: the online ones of these */
		int n = 0;

		for (int c = 0; c < s->ncpus; c++)
			for (int k = 0; k < opts->ncpus; k++)
				if (opts->cpus[k] == s->cpus[c]) {
					s->cpus[n++] = s->cpus[c];
					break;
				}
		if (!n) {
			smp_close(s);
			return -ENODEV;
		}
		s->ncpus = n;
	}
	s->rings = calloc(s->ncpus, sizeof(*s->rings));
	if (!s->rings) {
		smp_close(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static int push_fd(struct smp *s, int fd, int attr)
{
	if (s->nfds == s->capfds) {
		size_t cap = s->capfds ? s->capfds * 2 : 16;
		struct smp_fd *g = realloc(s->fds, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		s->fds = g;
		s->capfds = cap;
	}
	s->fds[s->nfds++] = (struct smp_fd){ fd, attr };
	return 0;
}

static int push_id(struct smp_ids *ids, uint64_t id)
{
	if (ids->n == ids->cap) {
		size_t cap = ids->cap ? ids->cap * 2 : 8;
		uint64_t *g = realloc(ids->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		ids->v = g;
		ids->cap = cap;
	}
	ids->v[ids->n++] = id;
	return 0;
}

/* Open attr @a for @tid on CPU slot @c and wire it to that CPU's ring. */
static int open_one(struct smp *s, int a, int c, pid_t tid)
{
	struct perf_event_attr copy = s->attrs[a];
	uint64_t id;
	int fd, ret;

	fd = pmc_sys_perf_event_open(&copy, tid, s->cpus[c], -1, PERF_FLAG_FD_CLOEXEC);
	if (fd == -EINVAL && copy.build_id) {
		/* before Linux 5.12: MMAP2 with inode numbers; remembered for later opens */
		s->attrs[a].build_id = copy.build_id = 0;
		fd = pmc_sys_perf_event_open(&copy, tid, s->cpus[c], -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return fd;
	ret = push_fd(s, fd, a);
	if (ret) {
		pmc_sys_close(fd);
		return ret;
	}
	ret = pmc_sys_ioctl(fd, PERF_EVENT_IOC_ID, (unsigned long)&id);
	if (!ret)
		ret = push_id(&s->ids[a], id);
	if (ret)
		return ret;
	if (!s->rings[c].page)
		return map_ring(&s->rings[c], fd, s->pages);
	return pmc_sys_ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, (unsigned long)s->rings[c].fd);
}

int smp_add_task(struct smp *s, pid_t tid, int *failed_attr)
{
	size_t mark = s->nfds, idmark[64];
	int ret = 0;

	*failed_attr = 0;
	s->have_rings = true;
	for (int a = 0; a < s->nattrs && a < 64; a++)
		idmark[a] = s->ids[a].n;
	for (int a = 0; a < s->nattrs && !ret; a++) {
		for (int c = 0; c < s->ncpus && !ret; c++) {
			ret = open_one(s, a, c, tid);
			if (ret)
				*failed_attr = a;
		}
	}
	if (ret && mark > 0) {
		/* roll this task back; the rings belong to an earlier task and stay */
		while (s->nfds > mark)
			pmc_sys_close(s->fds[--s->nfds].fd);
		for (int a = 0; a < s->nattrs && a < 64; a++)
			s->ids[a].n = idmark[a];
	}
	return ret;
}

int smp_open(struct smp **out, const struct perf_event_attr *attrs, int nattrs, pid_t pid,
	     const struct smp_opts *opts, int *failed_attr)
{
	int ret;

	*failed_attr = 0;
	ret = smp_new(out, attrs, nattrs, opts);
	if (ret)
		return ret;
	ret = smp_add_task(*out, pid, failed_attr);
	if (ret) {
		smp_close(*out);
		*out = NULL;
	}
	return ret;
}

const uint64_t *smp_ids(const struct smp *s, int i, size_t *n)
{
	*n = i >= 0 && i < s->nattrs ? s->ids[i].n : 0;
	return i >= 0 && i < s->nattrs ? s->ids[i].v : NULL;
}

static int ioctl_matching(struct smp *s, int attr, unsigned long req)
{
	int ret = 0;

	for (size_t i = 0; i < s->nfds; i++) {
		int r;

		if (attr >= 0 && s->fds[i].attr != attr)
			continue;
		r = pmc_sys_ioctl(s->fds[i].fd, req, 0);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

int smp_disable(struct smp *s)
{
	return ioctl_matching(s, -1, PERF_EVENT_IOC_DISABLE);
}

int smp_set_enabled(struct smp *s, int i, bool on)
{
	if (i < 0 || i >= s->nattrs)
		return -EINVAL;
	return ioctl_matching(s, i, on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE);
}

int smp_pollfds(const struct smp *s, struct pollfd *fds, int max)
{
	int n = 0;

	for (int c = 0; c < s->ncpus && n < max; c++)
		if (s->rings[c].page)
			fds[n++] = (struct pollfd){ .fd = s->rings[c].fd, .events = POLLIN };
	return n;
}

long smp_drain(struct smp *s, smp_sink_fn sink, void *arg)
{
	long total = 0;

	for (int c = 0; c < s->ncpus; c++) {
		long n;

		if (!s->rings[c].page)
			continue;
		n = smp_ring_drain(&s->rings[c], &s->stats, s->bounce, sink, arg);
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
