// SPDX-License-Identifier: MIT
/* uprof pcm: metric groups (configs/pcm/<group>.ini), their events and formulas, and the
 * column blocks (components) they are shown in. */
#include "cli/pcm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "pcm";

static const char *const variables[] = { "ELAPSED_NS", "NCPUS", "P0_FREQ_MHZ", "IDLE_NS" };

/* configs/pcm/0x<family>/<name>.ini when it exists (family-specific codes), else
 * configs/pcm/<name>.ini. */
static int group_path(const struct pcm_state *st, const char *name, char *path, size_t len)
{
	const char *dir = cli_config_dir();

	if (st->cpuid.family >= 0) {
		snprintf(path, len, "%s/pcm/0x%x/%s.ini", dir, st->cpuid.family, name);
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
static int event_index(struct pcm_state *st, const struct pmc_event *ev)
{
	for (size_t i = 0; i < pmc_evlist_nevents(st->evl); i++)
		if (same_event(pmc_evlist_event(st->evl, i), ev))
			return (int)i;
	return pmc_evlist_add(st->evl, ev);
}

static enum pcm_class event_class(const struct pcm_state *st, const struct pmc_event *ev)
{
	const struct pmc_pmu *u = pmc_pmus_find(st->pmus, ev->pmu);

	if (!u || pmc_pmu_scope(u) == PMC_SCOPE_CPU)
		return PCM_CORE;
	return pmc_pmu_scope(u) == PMC_SCOPE_CCX ? PCM_L3 : PCM_DF;
}

static int add_events(struct pcm_state *st, struct pcm_group *g, const struct mtr_config *cfg,
		      const char *path)
{
	g->first_name = st->nnames;
	for (int i = 0; i < cfg->nevents; i++) {
		const struct mtr_config_event *ce = &cfg->events[i];
		struct pcm_name *n = &st->names[st->nnames];
		struct pmc_event ev;
		char err[512];
		int ret, idx;

		if (st->nnames == PCM_MAX_NAMES)
			return cli_error(1, CMD, "too many events (more than %d)", PCM_MAX_NAMES);
		ret = pmc_event_parse(ce->spec, strlen(ce->spec), st->pmus, &ev, err, sizeof(err));
		if (!ret)
			ret = pmc_event_require(&ev, st->pmus, err, sizeof(err));
		if ((ret == -ENODEV || ret == -ENOENT) && ce->optional) {
			snprintf(n->name, sizeof(n->name), "%s", ce->name[0] ? ce->name : ce->spec);
			n->event = -1; /* metrics using it stay empty */
			st->nnames++;
			continue;
		}
		if (ret == -ENODEV)
			return cli_error(1, CMD, "-m %s: %s", g->name, err);
		if (ret)
			return cli_error(1, CMD, "%s [event.%d] '%s': %s", path, i, ce->spec, err);
		idx = event_index(st, &ev);
		if (idx < 0)
			return cli_error(1, CMD, "out of memory");
		snprintf(n->name, sizeof(n->name), "%s", ce->name[0] ? ce->name : ev.name);
		n->event = idx;
		st->nnames++;
		if (event_class(st, &ev) > g->cls)
			g->cls = event_class(st, &ev);
	}
	g->nnames = st->nnames - g->first_name;
	return 0;
}

/* Is @name something metric @m of @g may use: a variable, an event name of @g, the id
 * of an earlier metric of @g? */
static bool known_name(const struct pcm_state *st, const struct pcm_group *g, int m,
		       const char *name)
{
	for (size_t i = 0; i < sizeof(variables) / sizeof(variables[0]); i++)
		if (!strcmp(name, variables[i]))
			return true;
	for (int i = g->first_name; i < g->first_name + g->nnames; i++)
		if (!strcmp(st->names[i].name, name))
			return true;
	for (int i = g->first_metric; i < m; i++)
		if (!strcmp(st->metrics[i].id, name))
			return true;
	return false;
}

static int add_metrics(struct pcm_state *st, struct pcm_group *g, const struct mtr_config *cfg,
		       const char *path)
{
	g->first_metric = st->nmetrics;
	for (int i = 0; i < cfg->nmetrics; i++) {
		const struct mtr_config_metric *cm = &cfg->metrics[i];
		struct pcm_metric *m = &st->metrics[st->nmetrics];
		char err[256];

		if (st->nmetrics == PCM_MAX_METRICS)
			return cli_error(1, CMD, "too many metrics (more than %d)", PCM_MAX_METRICS);
		if (mtr_expr_parse(cm->formula, strlen(cm->formula), &m->expr, err, sizeof(err)))
			return cli_error(1, CMD, "%s [metric.%d]: %s", path, i, err);
		snprintf(m->name, sizeof(m->name), "%s", cm->name);
		snprintf(m->id, sizeof(m->id), "%s", cm->id);
		st->nmetrics++;
		for (size_t k = 0; k < mtr_expr_nnames(m->expr); k++)
			if (!known_name(st, g, st->nmetrics - 1, mtr_expr_name(m->expr, k)))
				return cli_error(1, CMD, "%s [metric.%d] '%s' uses '%s': not an event, "
							 "an earlier metric id or a variable of the group",
						 path, i, cm->name, mtr_expr_name(m->expr, k));
	}
	g->nmetrics = st->nmetrics - g->first_metric;
	return 0;
}

static int load_group(struct pcm_state *st, const char *name)
{
	struct pcm_group *g = &st->groups[st->ngroups];
	struct mtr_config *cfg = malloc(sizeof(*cfg));
	char path[PATH_MAX], err[256];
	int ret;

	if (!cfg)
		return cli_error(1, CMD, "out of memory");
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	if (group_path(st, name, path, sizeof(path))) {
		free(cfg);
		return cli_error(EXIT_USAGE, CMD, "-m %s: no such metric group (groups are the files in "
						  "%s/pcm: ipc, fp, l1, l2, l3, memory, swi)",
				 name, cli_config_dir());
	}
	ret = mtr_config_load_path(path, cfg, err, sizeof(err));
	if (ret)
		ret = cli_error(1, CMD, "%s: %s", path, err[0] ? err : strerror(-ret));
	if (!ret)
		snprintf(g->title, sizeof(g->title), "%s", cfg->title[0] ? cfg->title : "METRICS");
	if (!ret)
		ret = add_events(st, g, cfg, path);
	if (!ret)
		ret = add_metrics(st, g, cfg, path);
	free(cfg);
	if (!ret)
		st->ngroups++;
	return ret;
}

int pcm_groups_load(struct pcm_state *st)
{
	char buf[sizeof(st->groups_arg)], *save = NULL, *tok;
	int ret = 0;

	st->evl = pmc_evlist_new();
	if (!st->evl)
		return cli_error(1, CMD, "out of memory");
	snprintf(buf, sizeof(buf), "%s", st->groups_arg);
	for (tok = strtok_r(buf, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		bool dup = false;

		for (int i = 0; i < st->ngroups; i++)
			dup |= !strcmp(st->groups[i].name, tok);
		if (dup)
			continue;
		if (strlen(tok) >= sizeof(st->groups[0].name) || strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(tok))
			return cli_error(EXIT_USAGE, CMD, "-m '%s': not a metric group name", tok);
		if (st->ngroups == PCM_MAX_GROUPS)
			return cli_error(EXIT_USAGE, CMD, "-m: more than %d groups", PCM_MAX_GROUPS);
		ret = load_group(st, tok);
	}
	if (!ret && !st->ngroups)
		ret = cli_error(EXIT_USAGE, CMD, "-m needs at least one metric group");
	return ret;
}

void pcm_groups_free(struct pcm_state *st)
{
	for (int i = 0; i < st->nmetrics; i++)
		mtr_expr_free(st->metrics[i].expr);
	st->nmetrics = 0;
	pmc_evlist_free(st->evl);
	st->evl = NULL;
	free(st->comps);
	st->comps = NULL;
}

/* ---- components ---- */

static bool level_fits(enum pcm_class cls, enum pmc_level level)
{
	if (cls == PCM_L3)
		return level <= PMC_LEVEL_CCX;
	if (cls == PCM_DF)
		return level <= PMC_LEVEL_PACKAGE;
	return level <= PMC_LEVEL_CORE;
}

static void comp_label(struct pcm_comp *c)
{
	switch (c->level) {
	case PMC_LEVEL_SYSTEM:
		snprintf(c->label, sizeof(c->label), "System (Aggregated)");
		break;
	case PMC_LEVEL_PACKAGE:
		snprintf(c->label, sizeof(c->label), "Package (Aggregated)-%d", c->unit);
		break;
	case PMC_LEVEL_CCX:
		snprintf(c->label, sizeof(c->label), "CCX (Aggregated)-%d", c->unit);
		break;
	default:
		snprintf(c->label, sizeof(c->label), "Core-%d", c->unit);
		break;
	}
}

/* Add the components of group @g at @level that hold measured CPUs. */
static int add_level(struct pcm_state *st, int g, enum pmc_level level, int *cap)
{
	const struct pmc_cpus *measured = &st->target.cpus;
	bool task = st->target.pid > 0;

	for (int u = 0; u < pmc_topo_units(st->topo, level); u++) {
		struct pcm_comp c = { .group = g, .level = level, .unit = u };

		if (pmc_topo_unit(st->topo, level, u, &c.cpus))
			continue;
		for (int k = pmc_cpus_next(&c.cpus, 0); k >= 0; k = pmc_cpus_next(&c.cpus, k + 1))
			c.ncpus += task || pmc_cpus_has(measured, k);
		if (!c.ncpus)
			continue;
		comp_label(&c);
		if (st->ncomps == *cap) {
			int ncap = *cap ? *cap * 2 : 16;
			struct pcm_comp *v = realloc(st->comps, (size_t)ncap * sizeof(*v));

			if (!v)
				return -ENOMEM;
			st->comps = v;
			*cap = ncap;
		}
		st->comps[st->ncomps++] = c;
	}
	return 0;
}

int pcm_comps_build(struct pcm_state *st)
{
	int cap = 0, ret = 0;

	for (int g = 0; g < st->ngroups && !ret; g++)
		for (int l = PMC_LEVEL_SYSTEM; l <= PMC_LEVEL_CORE && !ret; l++)
			if ((st->levels & (1u << l)) && level_fits(st->groups[g].cls, l) &&
			    (st->target.pid <= 0 || l == PMC_LEVEL_SYSTEM))
				ret = add_level(st, g, (enum pmc_level)l, &cap);
	return ret ? cli_error(1, CMD, "out of memory") : 0;
}

/* ---- values ---- */

struct lookup_ctx {
	const struct pcm_state *st;
	const struct pcm_comp *comp;
	const struct pmc_count *delta;
	const uint64_t *idle;
	int64_t elapsed_ns;
	int metric; /* metrics before this one may be used */
};

static double event_value(const struct lookup_ctx *x, int ev)
{
	double sum = 0;

	if (ev < 0)
		return NAN; /* an optional event this system lacks */
	for (size_t i = 0; i < x->st->ncounters; i++) {
		const struct pmc_counter_info *ci = &x->st->cinfo[i];

		if (ci->event != ev || (ci->cpu >= 0 && !pmc_cpus_has(&x->comp->cpus, ci->cpu)))
			continue;
		/* a CPU's counters over the row's interval (read skew, see pmc_count_over) */
		sum += ci->cpu >= 0 && ci->pid < 0 ? pmc_count_over(&x->delta[i], x->elapsed_ns)
						   : pmc_count_scale(&x->delta[i]);
	}
	return sum;
}

static double idle_value(const struct lookup_ctx *x)
{
	const struct pmc_cpus *cpus = &x->comp->cpus;
	double sum = 0;

	if (x->st->target.pid > 0 || !x->idle)
		return 0;
	/* /proc/stat counts in ticks: a CPU may seem idle a little longer than the interval */
	for (int c = pmc_cpus_next(cpus, 0); c >= 0; c = pmc_cpus_next(cpus, c + 1))
		if (pmc_cpus_has(&x->st->target.cpus, c))
			sum += fmin((double)x->idle[c], (double)x->elapsed_ns);
	return sum;
}

static int lookup(void *arg, const char *name, double *v)
{
	const struct lookup_ctx *x = arg;
	const struct pcm_state *st = x->st;
	const struct pcm_group *g = &st->groups[x->comp->group];

	if (!strcmp(name, "ELAPSED_NS"))
		*v = (double)x->elapsed_ns;
	else if (!strcmp(name, "NCPUS"))
		*v = x->comp->ncpus;
	else if (!strcmp(name, "P0_FREQ_MHZ"))
		*v = st->p0_mhz > 0 ? st->p0_mhz : NAN;
	else if (!strcmp(name, "IDLE_NS"))
		*v = idle_value(x);
	else {
		for (int i = g->first_name; i < g->first_name + g->nnames; i++)
			if (!strcmp(st->names[i].name, name)) {
				*v = event_value(x, st->names[i].event);
				return 0;
			}
		for (int i = g->first_metric; i < x->metric; i++)
			if (!strcmp(st->metrics[i].id, name)) {
				*v = pcm_metric_value(st, x->comp, i, x->delta, x->idle, x->elapsed_ns);
				return 0;
			}
		return -ENOENT;
	}
	return 0;
}

double pcm_metric_value(const struct pcm_state *st, const struct pcm_comp *comp, int m,
			const struct pmc_count *delta, const uint64_t *idle, int64_t elapsed_ns)
{
	struct lookup_ctx x = { st, comp, delta, idle, elapsed_ns, m };
	double v;

	if (mtr_expr_eval(st->metrics[m].expr, lookup, &x, &v))
		return NAN;
	return v;
}

const char *pcm_event_name(const struct pcm_state *st, int ev)
{
	static char buf[128];

	for (int g = 0; g < st->ngroups; g++) {
		const struct pcm_group *gr = &st->groups[g];

		for (int i = gr->first_name; i < gr->first_name + gr->nnames; i++)
			if (st->names[i].event == ev) {
				snprintf(buf, sizeof(buf), "%s:%s", gr->name, st->names[i].name);
				return buf;
			}
	}
	return "?";
}
