/* SPDX-License-Identifier: MIT */
/* lib/sampler internals: the object layout. Kernel calls go through lib/pmc's seam
 * (pmc_sys_*, pmc.h), the one every perf_event syscall of uprof passes. */
#ifndef UPROF_SAMPLER_INTERNAL_H
#define UPROF_SAMPLER_INTERNAL_H

#include "pmc/pmc.h"
#include "sampler/sampler.h"

#include <setjmp.h>
#include <stddef.h>

/* Online CPUs from <sysfs>/devices/system/cpu/online (pmc_sysfs_root()), in order.
 * Fills @cpus (up to @max) and returns how many; -E2BIG for more, -EINVAL for a list
 * pmc_cpus_parse refuses or an empty one, -errno. */
int smp_online_cpus(int *cpus, int max);

struct smp_ring {
	int fd;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t data_size; /* power of two */
	size_t map_len;
};

struct smp_fd {
	int fd;
	int attr;
};

struct smp_ids {
	uint64_t *v;
	size_t n, cap;
};

struct smp {
	int ncpus;
	int *cpus;		/* online CPU numbers */
	int nattrs;
	struct perf_event_attr *attrs; /* our copy */
	size_t pages;
	struct smp_fd *fds;	/* every open event */
	size_t nfds, capfds;
	struct smp_ids *ids;	/* [attr] */
	struct smp_ring *rings;	/* [cpu index]; created with the first task */
	bool have_rings;
	struct smp_stats stats;
	unsigned char *bounce;	/* one record that wraps around the ring end */
};

#define SMP_MAX_CPUS PMC_MAX_CPUS
#define SMP_DEFAULT_PAGES 128

/* Drain one ring; see smp_drain. */
long smp_ring_drain(struct smp_ring *r, struct smp_stats *st, unsigned char *bounce,
		    smp_sink_fn sink, void *arg);

/* pageguard.c: a SIGBUS raised by an access inside [base, base + len) on this thread
 * returns to the sigsetjmp(jump, 0) made after smp_guard_push(), with the guard already
 * popped. Use (nothing between push and pop may take a lock or call out):
 *	smp_guard_push(&g, base, len);
 *	if (sigsetjmp(g.jump, 0)) { ...faulted: the mapping is gone; return... }
 *	...accesses...
 *	smp_guard_pop(&g);
 * smp_guard_install() before (0 or -errno): it puts the handler back if someone replaced
 * it, and is a syscall, so once per page open, not per access. */
struct smp_guard {
	sigjmp_buf jump;
	const void *base;
	size_t len;
	struct smp_guard *prev;
};
int smp_guard_install(void);
void smp_guard_push(struct smp_guard *g, const void *base, size_t len);
void smp_guard_pop(struct smp_guard *g);

#endif
