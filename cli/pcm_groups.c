// SPDX-License-Identifier: MIT
/* uprof pcm: -m's metric groups (read and evaluated by lib/pmc's pmc_groups, from the
 * configs directory beside the executable), and the column blocks (components) they are
 * shown in. */
#include "cli/pcm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const CMD = "pcm";

/* Load group @name (from the family's own file when there is one), saying what is wrong. */
static int load_group(struct pcm_state *st, const char *name)
{
	char path[PATH_MAX], err[1024];
	int ret = pmc_pcm_group_path(cli_config_dir(), st->zen, st->cpuid.family, name, path,
				     sizeof(path), err, sizeof(err));

	if (ret == -EOPNOTSUPP)
		return cli_error(EXIT_USAGE, CMD, "-m %s", err);
	if (ret) {
		char near[96];

		cli_pcm_group_near(st->cpuid.family, name, near, sizeof(near));
		return cli_error(EXIT_USAGE, CMD,
				 "-m %s: no such metric group%s (see 'uprof pcm --help' for the "
				 "groups; their files are in %s/pcm)",
				 name, near, cli_config_dir());
	}
	ret = pmc_groups_add(&st->mg, path, name, st->pmus, err, sizeof(err));
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret == -ENODEV)
		return cli_error(1, CMD, "-m %s: %s", name, err);
	return ret ? cli_error(1, CMD, "%s", err) : 0;
}

/* -i FILE: a group file of the user's, in the configs' own format (lib/metric's
 * mtr_config: [config] title, [event.N] name/spec, [metric.N] name/formula), its group
 * named after the file. uProf 4.0's own .conf/.xml syntax is not published, so a file in
 * it is told apart (XML, or no [event.N] section) and refused in one line. */
static int load_user_group(struct pcm_state *st)
{
	const char *path = st->user_cfg, *base = strrchr(path, '/');
	char name[sizeof(st->mg.groups[0].name)], err[1024], head[64] = "";
	size_t n;
	FILE *f;
	int ret;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (!n)
		n = strlen(base);
	snprintf(name, sizeof(name), "%.*s", (int)(n < sizeof(name) - 1 ? n : sizeof(name) - 1),
		 base);
	f = fopen(path, "re");
	if (!f)
		return cli_error(EXIT_USAGE, CMD, "-i %s: %s", path, strerror(errno));
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = 0;
	if (head[strspn(head, " \t\r\n")] == '<')
		return cli_error(
			EXIT_USAGE, CMD,
			"-i %s: an XML file (uProf's own profile format, which uprof does "
			"not read): write a group file as in 'man uprof-pcm' (METRIC GROUP FILES)",
			path);
	ret = pmc_groups_add(&st->mg, path, name, st->pmus, err, sizeof(err));
	if (ret == -ENOMEM)
		return cli_error(1, CMD, "out of memory");
	if (ret == -ENODEV)
		return cli_error(1, CMD, "-i %s", err);
	if (ret)
		return cli_error(EXIT_USAGE, CMD,
				 "-i %s (the format: 'man uprof-pcm', METRIC GROUP FILES)", err);
	if (!st->mg.groups[0].nmetrics)
		return cli_error(EXIT_USAGE, CMD,
				 "-i %s: no [metric.N] section: nothing to show (the format: 'man "
				 "uprof-pcm', METRIC GROUP FILES)",
				 path);
	return 0;
}

int pcm_groups_load(struct pcm_state *st)
{
	char buf[sizeof(st->groups_arg)], *save = NULL, *tok;
	int ret = 0;

	st->mg.evl = pmc_evlist_new();
	if (!st->mg.evl)
		return cli_error(1, CMD, "out of memory");
	if (st->user_cfg)
		return load_user_group(st);
	snprintf(buf, sizeof(buf), "%s", st->groups_arg);
	for (tok = strtok_r(buf, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		bool dup = false;

		for (int i = 0; i < st->mg.ngroups; i++)
			dup |= !strcmp(st->mg.groups[i].name, tok);
		if (dup)
			continue;
		if (strlen(tok) >= sizeof(st->mg.groups[0].name) ||
		    strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(tok))
			return cli_error(EXIT_USAGE, CMD, "-m '%s': not a metric group name", tok);
		if (st->mg.ngroups == PMC_GROUPS_MAX)
			return cli_error(EXIT_USAGE, CMD, "-m: more than %d groups",
					 PMC_GROUPS_MAX);
		ret = load_group(st, tok);
	}
	if (!ret && !st->mg.ngroups)
		ret = cli_error(EXIT_USAGE, CMD, "-m needs at least one metric group");
	return ret;
}

void pcm_groups_free(struct pcm_state *st)
{
	pmc_groups_release(&st->mg);
	free(st->comps);
	st->comps = NULL;
}

/* ---- components ---- */

static bool level_fits(enum pmc_group_class cls, enum pmc_level level)
{
	if (cls == PMC_GROUP_L3)
		return level <= PMC_LEVEL_CCX;
	if (cls == PMC_GROUP_DF)
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

	for (int g = 0; g < st->mg.ngroups && !ret; g++)
		for (int l = PMC_LEVEL_SYSTEM; l <= PMC_LEVEL_CORE && !ret; l++)
			if ((st->levels & (1u << l)) && level_fits(st->mg.groups[g].cls, l) &&
			    (st->target.pid <= 0 || l == PMC_LEVEL_SYSTEM))
				ret = add_level(st, g, (enum pmc_level)l, &cap);
	return ret ? cli_error(1, CMD, "out of memory") : 0;
}

/* ---- values ---- */

static struct pmc_group_input group_input(const struct pcm_state *st, const struct pcm_comp *comp,
					  const struct pmc_count *delta, const uint64_t *idle,
					  int64_t elapsed_ns)
{
	return (struct pmc_group_input){
		.cinfo = st->cinfo,
		.delta = delta,
		.ncounters = st->ncounters,
		.cpus = &comp->cpus,
		.ncpus = comp->ncpus,
		.measured = &st->target.cpus,
		.idle = st->target.pid > 0 ? NULL : idle, /* a task's IDLE_NS is 0 */
		.p0_mhz = st->p0_mhz,
		.elapsed_ns = elapsed_ns,
	};
}

bool pcm_metric_is_count(const struct pcm_state *st, int m)
{
	return st->mg.metrics[m].count_name >= 0;
}

double pcm_metric_value(const struct pcm_state *st, const struct pcm_comp *comp, int m,
			const struct pmc_count *delta, const uint64_t *idle, int64_t elapsed_ns)
{
	const struct pmc_group_input in = group_input(st, comp, delta, idle, elapsed_ns);
	uint64_t count;

	if (!pcm_metric_is_count(st, m))
		return pmc_groups_value(&st->mg, comp->group, m, &in);
	return pmc_groups_count(&st->mg, m, &in, &count) ? NAN : (double)count;
}

double pcm_mux_scale(const struct pcm_state *st, const struct pcm_comp *comp,
		     const struct pmc_count *delta, int64_t elapsed_ns)
{
	const struct pmc_group_input in = group_input(st, comp, delta, NULL, elapsed_ns);

	return pmc_groups_mux_scale(&st->mg, comp->group, &in);
}

const char *pcm_event_name(const struct pcm_state *st, int ev)
{
	static char buf[128];

	return pmc_groups_event_name(&st->mg, ev, buf, sizeof(buf));
}
