// SPDX-License-Identifier: MIT
/* pcm's metric groups (configs/pcm/<group>.ini, or configs/pcm/0x<family>/<group>.ini where
 * a family has its own codes): their events, resolved against this machine's PMUs into one
 * evlist, and their formulas, evaluated over counter deltas of a set of CPUs. */
#include "pmc/pmc.h"
#include "metric/metric.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const variables[] = { "ELAPSED_NS", "NCPUS", "P0_FREQ_MHZ", "IDLE_NS" };

int pmc_group_path(const char *dir, int family, const char *name, char *path, size_t len)
{
	if (family >= 0) {
		snprintf(path, len, "%s/pcm/0x%x/%s.ini", dir, family, name);
		if (!access(path, R_OK))
			return 0;
	}
	snprintf(path, len, "%s/pcm/%s.ini", dir, name);
	return access(path, R_OK) ? -ENOENT : 0;
}

static bool same_event(const struct pmc_event *a, const struct pmc_event *b)
{
	return !strcmp(a->pmu, b->pmu) && a->attr.type == b->attr.type &&
	       a->attr.config == b->attr.config && a->attr.config1 == b->attr.config1 &&
	       a->attr.config2 == b->attr.config2 && a->attr.exclude_user == b->attr.exclude_user &&
	       a->attr.exclude_kernel == b->attr.exclude_kernel;
}

/* The evlist index of @ev, adding it when no identical event is there yet. */
static int event_index(struct pmc_groups *gs, const struct pmc_event *ev)
{
	for (size_t i = 0; i < pmc_evlist_nevents(gs->evl); i++)
		if (same_event(pmc_evlist_event(gs->evl, i), ev))
			return (int)i;
	return pmc_evlist_add(gs->evl, ev);
}

static enum pmc_group_class event_class(const struct pmc_pmus *pmus, const struct pmc_event *ev)
{
	const struct pmc_pmu *u = pmc_pmus_find(pmus, ev->pmu);

	if (!u || pmc_pmu_scope(u) == PMC_SCOPE_CPU)
		return PMC_GROUP_CORE;
	return pmc_pmu_scope(u) == PMC_SCOPE_CCX ? PMC_GROUP_L3 : PMC_GROUP_DF;
}

static int add_events(struct pmc_groups *gs, struct pmc_group *g, const struct mtr_config *cfg,
		      const char *path, const struct pmc_pmus *pmus, char *err, size_t errlen)
{
	g->first_name = gs->nnames;
	for (int i = 0; i < cfg->nevents; i++) {
		const struct mtr_config_event *ce = &cfg->events[i];
		struct pmc_group_name *n = &gs->names[gs->nnames];
		struct pmc_event ev;
		char why[512];
		int ret, idx;

		if (gs->nnames == PMC_GROUPS_MAX_NAMES) {
			snprintf(err, errlen, "too many events (more than %d)",
				 PMC_GROUPS_MAX_NAMES);
			return -E2BIG;
		}
		ret = pmc_event_parse(ce->spec, strlen(ce->spec), pmus, &ev, why, sizeof(why));
		if (!ret)
			ret = pmc_event_require(&ev, pmus, why, sizeof(why));
		if ((ret == -ENODEV || ret == -ENOENT) && ce->optional) {
			snprintf(n->name, sizeof(n->name), "%s", ce->name[0] ? ce->name : ce->spec);
			n->event = -1; /* metrics using it stay empty */
			gs->nnames++;
			continue;
		}
		if (ret == -ENODEV) {
			snprintf(err, errlen, "%s", why);
			return ret;
		}
		if (ret) {
			snprintf(err, errlen, "%s [event.%d] '%s': %s", path, i, ce->spec, why);
			return -EINVAL;
		}
		idx = event_index(gs, &ev);
		if (idx < 0) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		snprintf(n->name, sizeof(n->name), "%s", ce->name[0] ? ce->name : ev.name);
		n->event = idx;
		gs->nnames++;
		if (event_class(pmus, &ev) > g->cls)
			g->cls = event_class(pmus, &ev);
	}
	g->nnames = gs->nnames - g->first_name;
	return 0;
}

/* Is @name something metric @m of @g may use: a variable, an event name of @g, the id
 * of an earlier metric of @g? */
static bool known_name(const struct pmc_groups *gs, const struct pmc_group *g, int m,
		       const char *name)
{
	for (size_t i = 0; i < sizeof(variables) / sizeof(variables[0]); i++)
		if (!strcmp(name, variables[i]))
			return true;
	for (int i = g->first_name; i < g->first_name + g->nnames; i++)
		if (!strcmp(gs->names[i].name, name))
			return true;
	for (int i = g->first_metric; i < m; i++)
		if (!strcmp(gs->metrics[i].id, name))
			return true;
	return false;
}

/* The index in gs->names of @formula when it is one event name of @g alone, else -1. */
static int count_name(const struct pmc_groups *gs, const struct pmc_group *g,
		      const struct mtr_expr *e, const char *formula)
{
	const char *name;
	size_t len;

	if (mtr_expr_nnames(e) != 1)
		return -1;
	name = mtr_expr_name(e, 0);
	formula += strspn(formula, " \t");
	len = strlen(formula);
	while (len && (formula[len - 1] == ' ' || formula[len - 1] == '\t'))
		len--;
	if (len != strlen(name) || strncmp(formula, name, len))
		return -1; /* a formula over the name: derived */
	for (int i = g->first_name; i < g->first_name + g->nnames; i++)
		if (!strcmp(gs->names[i].name, name))
			return i;
	return -1; /* a variable or an earlier metric's id */
}

static int add_metrics(struct pmc_groups *gs, struct pmc_group *g, const struct mtr_config *cfg,
		       const char *path, char *err, size_t errlen)
{
	g->first_metric = gs->nmetrics;
	for (int i = 0; i < cfg->nmetrics; i++) {
		const struct mtr_config_metric *cm = &cfg->metrics[i];
		struct pmc_group_metric *m = &gs->metrics[gs->nmetrics];
		char why[256];

		if (gs->nmetrics == PMC_GROUPS_MAX_METRICS) {
			snprintf(err, errlen, "too many metrics (more than %d)",
				 PMC_GROUPS_MAX_METRICS);
			return -E2BIG;
		}
		if (mtr_expr_parse(cm->formula, strlen(cm->formula), &m->expr, why, sizeof(why))) {
			snprintf(err, errlen, "%s [metric.%d]: %s", path, i, why);
			return -EINVAL;
		}
		snprintf(m->name, sizeof(m->name), "%s", cm->name);
		snprintf(m->id, sizeof(m->id), "%s", cm->id);
		m->count_name = count_name(gs, g, m->expr, cm->formula);
		gs->nmetrics++;
		for (size_t k = 0; k < mtr_expr_nnames(m->expr); k++)
			if (!known_name(gs, g, gs->nmetrics - 1, mtr_expr_name(m->expr, k))) {
				snprintf(err, errlen,
					 "%s [metric.%d] '%s' uses '%s': not an event, "
					 "an earlier metric id or a variable of the group",
					 path, i, cm->name, mtr_expr_name(m->expr, k));
				return -EINVAL;
			}
	}
	g->nmetrics = gs->nmetrics - g->first_metric;
	return 0;
}

int pmc_groups_add(struct pmc_groups *gs, const char *path, const char *name,
		   const struct pmc_pmus *pmus, char *err, size_t errlen)
{
	struct pmc_group *g = &gs->groups[gs->ngroups];
	struct mtr_config *cfg;
	int ret;

	err[0] = 0;
	if (gs->ngroups == PMC_GROUPS_MAX) {
		snprintf(err, errlen, "more than %d groups", PMC_GROUPS_MAX);
		return -E2BIG;
	}
	if (!gs->evl && !(gs->evl = pmc_evlist_new()))
		return -ENOMEM;
	cfg = malloc(sizeof(*cfg));
	if (!cfg)
		return -ENOMEM;
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	ret = mtr_config_load_path(path, cfg, err, errlen);
	if (ret) {
		char why[256];

		snprintf(why, sizeof(why), "%s", err[0] ? err : strerror(-ret));
		snprintf(err, errlen, "%s: %s", path, why);
		ret = -EINVAL;
	}
	if (!ret)
		snprintf(g->title, sizeof(g->title), "%s", cfg->title[0] ? cfg->title : "METRICS");
	if (!ret)
		ret = add_events(gs, g, cfg, path, pmus, err, errlen);
	if (!ret)
		ret = add_metrics(gs, g, cfg, path, err, errlen);
	free(cfg);
	if (!ret)
		gs->ngroups++;
	return ret;
}

void pmc_groups_release(struct pmc_groups *gs)
{
	for (int i = 0; i < gs->nmetrics; i++)
		mtr_expr_free(gs->metrics[i].expr);
	gs->nmetrics = 0;
	pmc_evlist_free(gs->evl);
	gs->evl = NULL;
}

/* ---- values ---- */

struct lookup_ctx {
	const struct pmc_groups *gs;
	int group;
	const struct pmc_group_input *in;
	int metric; /* metrics before this one may be used */
};

static double event_value(const struct lookup_ctx *x, int ev)
{
	const struct pmc_group_input *in = x->in;
	double sum = 0;

	if (ev < 0)
		return NAN; /* an optional event this system lacks */
	for (size_t i = 0; i < in->ncounters; i++) {
		const struct pmc_counter_info *ci = &in->cinfo[i];

		if (ci->event != ev || (ci->cpu >= 0 && !pmc_cpus_has(in->cpus, ci->cpu)))
			continue;
		/* a CPU's counters over the row's interval (read skew, see pmc_count_over) */
		sum += ci->cpu >= 0 && ci->pid < 0 ? pmc_count_over(&in->delta[i], in->elapsed_ns)
						   : pmc_count_scale(&in->delta[i]);
	}
	return sum;
}

static double idle_value(const struct pmc_group_input *in)
{
	const struct pmc_cpus *cpus = in->cpus;
	double sum = 0;

	if (!in->idle)
		return 0;
	/* /proc/stat counts in ticks: a CPU may seem idle a little longer than the interval */
	for (int c = pmc_cpus_next(cpus, 0); c >= 0; c = pmc_cpus_next(cpus, c + 1))
		if (pmc_cpus_has(in->measured, c))
			sum += fmin((double)in->idle[c], (double)in->elapsed_ns);
	return sum;
}

static int lookup(void *arg, const char *name, double *v)
{
	const struct lookup_ctx *x = arg;
	const struct pmc_groups *gs = x->gs;
	const struct pmc_group *g = &gs->groups[x->group];

	if (!strcmp(name, "ELAPSED_NS"))
		*v = (double)x->in->elapsed_ns;
	else if (!strcmp(name, "NCPUS"))
		*v = x->in->ncpus;
	else if (!strcmp(name, "P0_FREQ_MHZ"))
		*v = x->in->p0_mhz > 0 ? x->in->p0_mhz : NAN;
	else if (!strcmp(name, "IDLE_NS"))
		*v = idle_value(x->in);
	else {
		for (int i = g->first_name; i < g->first_name + g->nnames; i++)
			if (!strcmp(gs->names[i].name, name)) {
				*v = event_value(x, gs->names[i].event);
				return 0;
			}
		for (int i = g->first_metric; i < x->metric; i++)
			if (!strcmp(gs->metrics[i].id, name)) {
				*v = pmc_groups_value(gs, x->group, i, x->in);
				return 0;
			}
		return -ENOENT;
	}
	return 0;
}

double pmc_groups_value(const struct pmc_groups *gs, int group, int m,
			const struct pmc_group_input *in)
{
	struct lookup_ctx x = { gs, group, in, m };
	double v;

	if (mtr_expr_eval(gs->metrics[m].expr, lookup, &x, &v))
		return NAN;
	return v;
}

/* Is counter @i one that @in's unit adds up? */
static bool in_unit(const struct pmc_group_input *in, size_t i)
{
	return in->cinfo[i].cpu < 0 || pmc_cpus_has(in->cpus, in->cinfo[i].cpu);
}

int pmc_groups_count(const struct pmc_groups *gs, int m, const struct pmc_group_input *in,
		     uint64_t *count)
{
	int name = gs->metrics[m].count_name, ev;

	*count = 0;
	if (name < 0)
		return -ENOENT;
	ev = gs->names[name].event;
	if (ev < 0)
		return -ENODEV;
	for (size_t i = 0; i < in->ncounters; i++) {
		const struct pmc_count *d = &in->delta[i];

		if (in->cinfo[i].event != ev || !in_unit(in, i))
			continue;
		if (!d->running && d->enabled)
			return -ENODATA;
		*count += d->value;
	}
	return 0;
}

double pmc_groups_mux_scale(const struct pmc_groups *gs, int group,
			    const struct pmc_group_input *in)
{
	const struct pmc_group *g = &gs->groups[group];
	double scale = 1.0;

	for (size_t i = 0; i < in->ncounters; i++) {
		const struct pmc_count *d = &in->delta[i];
		bool mine = false;

		for (int k = g->first_name; k < g->first_name + g->nnames && !mine; k++)
			mine = gs->names[k].event >= 0 && gs->names[k].event == in->cinfo[i].event;
		if (!mine || !in_unit(in, i) || d->running >= d->enabled)
			continue;
		if (!d->running)
			return NAN;
		scale = fmax(scale, (double)d->enabled / (double)d->running);
	}
	return scale;
}

const char *pmc_groups_event_name(const struct pmc_groups *gs, int ev, char *buf, size_t len)
{
	for (int g = 0; g < gs->ngroups; g++) {
		const struct pmc_group *gr = &gs->groups[g];

		for (int i = gr->first_name; i < gr->first_name + gr->nnames; i++)
			if (gs->names[i].event == ev) {
				snprintf(buf, len, "%s:%s", gr->name, gs->names[i].name);
				return buf;
			}
	}
	return "?";
}
