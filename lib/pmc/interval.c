// SPDX-License-Identifier: MIT
/*
 * Counting at an interval (pcm): read an opened evlist every interval until a deadline or
 * until the caller says stop, handing each interval's deltas (scaled by the caller with
 * pmc_count_over/pmc_count_scale) and the CPUs' idle times to a callback; the totals since
 * the baseline at the end. Waiting polls one descriptor of the caller's (a signalfd) so
 * that a signal or the program's exit ends the wait at once.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pmc_counting {
	struct pmc_evlist *evl; /* borrowed */
	size_t n;		/* counters */
	bool idle;		/* read /proc/stat's idle times (CPU mode) */
	struct pmc_count *first, *prev, *cur, *delta;
	uint64_t *idle_first, *idle_prev, *idle_cur, *idle_delta; /* per CPU, ns */
	int64_t t_first, t_prev, t_cur;				  /* CLOCK_MONOTONIC ns */
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int pmc_counting_new(struct pmc_counting **out, struct pmc_evlist *evl, bool idle)
{
	struct pmc_counting *c = calloc(1, sizeof(*c));
	size_t n = pmc_evlist_ncounters(evl);

	*out = NULL;
	if (!c)
		return -ENOMEM;
	c->evl = evl;
	c->n = n;
	c->idle = idle;
	n = n ? n : 1;
	c->first = calloc(n, sizeof(*c->first));
	c->prev = calloc(n, sizeof(*c->prev));
	c->cur = calloc(n, sizeof(*c->cur));
	c->delta = calloc(n, sizeof(*c->delta));
	c->idle_first = calloc(PMC_MAX_CPUS, sizeof(uint64_t));
	c->idle_prev = calloc(PMC_MAX_CPUS, sizeof(uint64_t));
	c->idle_cur = calloc(PMC_MAX_CPUS, sizeof(uint64_t));
	c->idle_delta = calloc(PMC_MAX_CPUS, sizeof(uint64_t));
	if (!c->first || !c->prev || !c->cur || !c->delta || !c->idle_first || !c->idle_prev ||
	    !c->idle_cur || !c->idle_delta) {
		pmc_counting_free(c);
		return -ENOMEM;
	}
	*out = c;
	return 0;
}

void pmc_counting_free(struct pmc_counting *c)
{
	if (!c)
		return;
	free(c->first);
	free(c->prev);
	free(c->cur);
	free(c->delta);
	free(c->idle_first);
	free(c->idle_prev);
	free(c->idle_cur);
	free(c->idle_delta);
	free(c);
}

/* Counters start at zero when enabled (task counters at the program's exec), so the
 * baseline is zero and the clock starts now; only the idle times need a first reading. */
void pmc_counting_baseline(struct pmc_counting *c)
{
	memset(c->first, 0, c->n * sizeof(*c->first));
	memset(c->prev, 0, c->n * sizeof(*c->prev));
	c->t_first = c->t_prev = c->t_cur = now_ns();
	if (c->idle)
		pmc_procstat_idle(c->idle_cur, PMC_MAX_CPUS);
	memcpy(c->idle_first, c->idle_cur, PMC_MAX_CPUS * sizeof(uint64_t));
	memcpy(c->idle_prev, c->idle_cur, PMC_MAX_CPUS * sizeof(uint64_t));
}

/* Read counters and idle times into cur, stamped with the middle of the reading. */
static int sample(struct pmc_counting *c)
{
	int64_t before = now_ns();
	int ret = pmc_evlist_read(c->evl, c->cur);

	c->t_cur = before + (now_ns() - before) / 2;
	if (c->idle)
		pmc_procstat_idle(c->idle_cur, PMC_MAX_CPUS);
	return ret;
}

static void deltas(struct pmc_counting *c, const struct pmc_count *from, const uint64_t *idle_from,
		   int64_t t_from, struct pmc_interval *out)
{
	for (size_t i = 0; i < c->n; i++)
		pmc_count_delta(&from[i], &c->cur[i], 64, &c->delta[i]);
	for (int k = 0; k < PMC_MAX_CPUS; k++)
		c->idle_delta[k] = c->idle_cur[k] - idle_from[k];
	out->delta = c->delta;
	out->idle = c->idle_delta;
	out->elapsed_ns = c->t_cur - t_from;
	out->t_ns = c->t_cur;
}

/* Wait for @deadline, polling ops->fd. True: the deadline came; false: stop now. */
static bool wait_until(const struct pmc_interval_ops *ops, int64_t deadline)
{
	struct pollfd pfd = { .fd = ops->fd, .events = POLLIN };

	for (;;) {
		int64_t left = deadline - now_ns();

		if (ops->stopped(ops->arg))
			return false;
		if (left <= 0)
			return true;
		if (poll(&pfd, 1, (int)((left + 999999) / 1000000)) > 0 && ops->on_fd)
			ops->on_fd(ops->arg);
	}
}

int pmc_counting_loop(struct pmc_counting *c, int64_t interval_ns, int64_t duration_ns,
		      const struct pmc_interval_ops *ops)
{
	int64_t end = duration_ns > 0 ? c->t_first + duration_ns : 0;

	for (;;) {
		int64_t next = c->t_prev + interval_ns;
		struct pmc_interval iv;
		bool more;
		int ret;

		if (end && next > end)
			next = end;
		more = wait_until(ops, next);
		ret = sample(c);
		if (ret)
			return ret;
		/* the last interval covers what is left of it */
		deltas(c, c->prev, c->idle_prev, c->t_prev, &iv);
		ops->on_interval(ops->arg, &iv);
		memcpy(c->prev, c->cur, c->n * sizeof(*c->cur));
		memcpy(c->idle_prev, c->idle_cur, PMC_MAX_CPUS * sizeof(uint64_t));
		c->t_prev = c->t_cur;
		if (!more || (end && c->t_cur >= end))
			return 0;
	}
}

int pmc_counting_rebase(struct pmc_counting *c)
{
	int ret = sample(c);

	if (ret)
		return ret;
	memcpy(c->first, c->cur, c->n * sizeof(*c->cur));
	memcpy(c->prev, c->cur, c->n * sizeof(*c->cur));
	memcpy(c->idle_first, c->idle_cur, PMC_MAX_CPUS * sizeof(uint64_t));
	memcpy(c->idle_prev, c->idle_cur, PMC_MAX_CPUS * sizeof(uint64_t));
	c->t_first = c->t_prev = c->t_cur;
	return 0;
}

void pmc_counting_total(struct pmc_counting *c, struct pmc_interval *out)
{
	deltas(c, c->first, c->idle_first, c->t_first, out);
}
