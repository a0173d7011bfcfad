// SPDX-License-Identifier: MIT
/*
 * Counting: events planned into kernel groups (per PMU, at most its counter count each,
 * so a group always fits and the kernel multiplexes whole groups), each group opened on
 * the CPUs or the task the target names; read with TOTAL_TIME_ENABLED/RUNNING.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

struct counter {
	int event, cpu, group, leader; /* leader: index of the group's first counter */
	pid_t pid;
	int fd;
	struct perf_event_attr attr;
};

struct pmc_evlist {
	struct pmc_event *ev;
	size_t nev, evcap;
	struct counter *c;
	size_t nc, ccap;
	int ngroups;
	bool planned, open;
};

struct pmc_evlist *pmc_evlist_new(void)
{
	return calloc(1, sizeof(struct pmc_evlist));
}

void pmc_evlist_free(struct pmc_evlist *l)
{
	if (!l)
		return;
	pmc_evlist_close(l);
	free(l->ev);
	free(l->c);
	free(l);
}

int pmc_evlist_add(struct pmc_evlist *l, const struct pmc_event *ev)
{
	if (l->planned)
		return -EBUSY;
	if (l->nev == l->evcap) {
		size_t cap = l->evcap ? l->evcap * 2 : 8;
		struct pmc_event *v = realloc(l->ev, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->ev = v;
		l->evcap = cap;
	}
	l->ev[l->nev] = *ev;
	return (int)l->nev++;
}

size_t pmc_evlist_nevents(const struct pmc_evlist *l)
{
	return l->nev;
}

const struct pmc_event *pmc_evlist_event(const struct pmc_evlist *l, size_t i)
{
	return i < l->nev ? &l->ev[i] : NULL;
}

size_t pmc_evlist_ncounters(const struct pmc_evlist *l)
{
	return l->nc;
}

int pmc_evlist_counter(const struct pmc_evlist *l, size_t i, struct pmc_counter_info *out)
{
	const struct counter *c;

	if (i >= l->nc)
		return -ERANGE;
	c = &l->c[i];
	out->event = c->event;
	out->cpu = c->cpu;
	out->pid = c->pid;
	out->group = c->group;
	out->leader = (size_t)c->leader == i;
	out->attr = &c->attr;
	return 0;
}

/* ---- planning ---- */

/* The domain (CCX or package) of @cpu holds a CPU of @want. */
static bool domain_touches(const struct pmc_topo *topo, enum pmc_pmu_scope scope, int cpu,
			   const struct pmc_cpus *want)
{
	struct pmc_cpu_place pl;
	struct pmc_cpus unit;

	if (!topo || pmc_topo_place(topo, cpu, &pl))
		return pmc_cpus_has(want, cpu);
	if (scope == PMC_SCOPE_CCX)
		pmc_topo_unit(topo, PMC_LEVEL_CCX, pl.ccx, &unit);
	else
		pmc_topo_unit(topo, PMC_LEVEL_PACKAGE, pl.package, &unit);
	for (size_t w = 0; w < PMC_MAX_CPUS / 64; w++)
		if (unit.bits[w] & want->bits[w])
			return true;
	return false;
}

/* CPUs to open events of @u on; *@task_wide: open once with cpu -1 (task mode). */
static void pmu_cpus(const struct pmc_pmu *u, const struct pmc_topo *topo,
		     const struct pmc_target *t, struct pmc_cpus *out, bool *task_wide)
{
	enum pmc_pmu_scope scope = u ? pmc_pmu_scope(u) : PMC_SCOPE_CPU;
	struct pmc_cpus want = t->cpus;
	const struct pmc_cpus *mask;

	*task_wide = false;
	if (!pmc_cpus_count(&want) && topo)
		want = *pmc_topo_online(topo);
	if (scope == PMC_SCOPE_CPU) {
		*task_wide = t->pid > 0;
		*out = want;
		return;
	}
	pmc_cpus_clear(out);
	mask = pmc_pmu_cpumask(u);
	for (int c = pmc_cpus_next(mask, 0); c >= 0; c = pmc_cpus_next(mask, c + 1))
		if (domain_touches(topo, scope, c, &want))
			pmc_cpus_set(out, c);
}

static int push_counter(struct pmc_evlist *l, int event, int cpu, pid_t pid, int leader, bool task)
{
	struct counter *c;

	if (l->nc == l->ccap) {
		size_t cap = l->ccap ? l->ccap * 2 : 64;
		struct counter *v = realloc(l->c, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->c = v;
		l->ccap = cap;
	}
	c = &l->c[l->nc];
	memset(c, 0, sizeof(*c));
	c->event = event;
	c->cpu = cpu;
	c->pid = pid;
	c->fd = -1;
	c->group = l->ngroups;
	c->leader = leader < 0 ? (int)l->nc : leader;
	pmc_event_count_attr(&l->ev[event], task, &c->attr);
	if (leader >= 0) { /* siblings run when their leader runs */
		c->attr.disabled = 0;
		c->attr.enable_on_exec = 0;
	}
	l->nc++;
	return 0;
}

/* One group (events @idx[0..n) of one PMU) on one CPU or task. */
static int plan_group(struct pmc_evlist *l, const int *idx, int n, int cpu, pid_t pid, bool task)
{
	int leader = (int)l->nc, ret = 0;

	for (int i = 0; i < n && !ret; i++)
		ret = push_counter(l, idx[i], cpu, pid, i ? leader : -1, task);
	l->ngroups++;
	return ret;
}

/* Every event of PMU @name: chunks of @per_group, on each CPU (or the task). */
static int plan_pmu(struct pmc_evlist *l, const struct pmc_pmu *u, const char *name,
		    const struct pmc_topo *topo, const struct pmc_target *t)
{
	int per_group = u && pmc_pmu_counters(u) > 0 ? pmc_pmu_counters(u) : 1;
	struct pmc_cpus cpus;
	bool task_wide;
	int *idx, n = 0, ret = 0;

	idx = calloc(l->nev, sizeof(int));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < l->nev; i++)
		if (!strcmp(l->ev[i].pmu, name))
			idx[n++] = (int)i;
	pmu_cpus(u, topo, t, &cpus, &task_wide);
	for (int g = 0; g < n && !ret; g += per_group) {
		int k = n - g < per_group ? n - g : per_group;

		if (task_wide) {
			ret = plan_group(l, idx + g, k, -1, t->pid, true);
			continue;
		}
		for (int c = pmc_cpus_next(&cpus, 0); c >= 0 && !ret;
		     c = pmc_cpus_next(&cpus, c + 1))
			ret = plan_group(l, idx + g, k, c, -1, false);
	}
	free(idx);
	return ret;
}

static bool seen_pmu(const struct pmc_evlist *l, size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++)
		if (!strcmp(l->ev[i].pmu, name))
			return true;
	return false;
}

int pmc_evlist_plan(struct pmc_evlist *l, const struct pmc_pmus *pmus, const struct pmc_topo *topo,
		    const struct pmc_target *t, char *err, size_t errlen)
{
	int ret = 0;

	if (l->open)
		return -EBUSY;
	l->nc = 0;
	l->ngroups = 0;
	for (size_t i = 0; i < l->nev && !ret; i++)
		ret = pmc_event_require(&l->ev[i], pmus, err, errlen);
	for (size_t i = 0; i < l->nev && !ret; i++)
		if (!seen_pmu(l, i, l->ev[i].pmu))
			ret = plan_pmu(l, pmc_pmus_find(pmus, l->ev[i].pmu), l->ev[i].pmu, topo, t);
	if (!ret && !l->nc && l->nev) {
		snprintf(err, errlen, "no CPU to count on");
		ret = -EINVAL;
	}
	l->planned = !ret;
	return ret;
}

/* ---- the kernel side ---- */

int pmc_evlist_open(struct pmc_evlist *l, int *failed)
{
	int ret = 0;
	size_t i;

	if (!l->planned || l->open)
		return -EINVAL;
	for (i = 0; i < l->nc && !ret; i++) {
		struct counter *c = &l->c[i];
		int group_fd = (size_t)c->leader == i ? -1 : l->c[c->leader].fd;
		int fd = pmc_sys_perf_event_open(&c->attr, c->pid, c->cpu, group_fd,
						 PERF_FLAG_FD_CLOEXEC);

		if (fd < 0)
			ret = fd;
		else
			c->fd = fd;
	}
	if (ret) {
		if (failed)
			*failed = (int)(i - 1);
		l->open = true;
		pmc_evlist_close(l);
		return ret;
	}
	l->open = true;
	return 0;
}

void pmc_evlist_close(struct pmc_evlist *l)
{
	if (!l || !l->open)
		return;
	for (size_t i = l->nc; i-- > 0;) { /* siblings before their leaders */
		pmc_sys_close(l->c[i].fd);
		l->c[i].fd = -1;
	}
	l->open = false;
}

static int ioctl_leaders(struct pmc_evlist *l, unsigned long req)
{
	int ret = 0;

	if (!l->open)
		return -EINVAL;
	for (size_t i = 0; i < l->nc && !ret; i++)
		if ((size_t)l->c[i].leader == i)
			ret = pmc_sys_ioctl(l->c[i].fd, req, 0);
	return ret;
}

int pmc_evlist_enable(struct pmc_evlist *l)
{
	return ioctl_leaders(l, PERF_EVENT_IOC_ENABLE);
}

int pmc_evlist_disable(struct pmc_evlist *l)
{
	return ioctl_leaders(l, PERF_EVENT_IOC_DISABLE);
}

int pmc_evlist_read(struct pmc_evlist *l, struct pmc_count *out)
{
	if (!l->open)
		return -EINVAL;
	for (size_t i = 0; i < l->nc; i++) {
		uint64_t v[3];
		ssize_t n = pmc_sys_read(l->c[i].fd, v, sizeof(v));

		if (n < 0)
			return (int)n;
		if (n != sizeof(v))
			return -EIO;
		out[i].value = v[0];
		out[i].enabled = v[1];
		out[i].running = v[2];
	}
	return 0;
}
