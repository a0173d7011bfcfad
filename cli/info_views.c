// SPDX-License-Identifier: MIT
/*
 * uProf's view configurations at the command line: info --list view-configs, info
 * --view-config <name>, and the name lookup report --view shares (one "did you mean").
 * The views themselves are lib/metric's table (views.c); this file only prints them,
 * naming each event by its PMCx code (lib/pmc's predefined events) or, for events a
 * config names itself (branch's ExRetBrnTkn), by that config's spec.
 */
#include "cli/cli.h"
#include "metric/metric.h"
#include "pmc/pmc.h"

#include <stdio.h>
#include <string.h>

int cli_view_lookup(const char *name, const char *what, const char *cmd,
		    const struct mtr_view **out)
{
	const char *names[64];
	char near[96], all[1024] = "";
	int n = mtr_view_count();

	*out = mtr_view_find(name);
	if (*out)
		return -1;
	for (int i = 0; i < n && i < 64; i++) {
		names[i] = mtr_view_at(i)->name;
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s", i ? ", " : "",
			 names[i]);
	}
	cli_did_you_mean(names, (size_t)(n < 64 ? n : 64), name, near, sizeof(near));
	return cli_error(EXIT_USAGE, cmd, "%s '%s': no such view%s; views: %s", what, name, near,
			 all);
}

int info_list_views(void)
{
	printf("%-20s %-11s %-12s %s\n", "NAME", "NOTE", "CONFIG", "TITLE");
	for (int i = 0; i < mtr_view_count(); i++) {
		const struct mtr_view *v = mtr_view_at(i);

		printf("%-20s %-11s %-12s %s\n", v->name, v->needs ? "needs IBS" : "available",
		       v->config ? v->config : "-", v->title);
	}
	return 0;
}

/* How collect samples event @name of config @cfg: its PMCx code, or the config's spec */
static void describe_event(const char *name, const struct mtr_config *cfg, char *buf, size_t len)
{
	const struct pmc_predef *p = pmc_predef_find(name, strlen(name));

	if (p) {
		snprintf(buf, len, "PMCx%03X:%02X  %s", p->code, p->umask, p->desc);
		return;
	}
	for (int i = 0; cfg && i < cfg->nevents; i++)
		if (!strcmp(cfg->events[i].name, name)) {
			snprintf(buf, len, "%s  (as config %s names it)", cfg->events[i].spec,
				 cfg->name);
			return;
		}
	snprintf(buf, len, "not a PMC event");
}

int info_show_view(const char *name, const char *cmd)
{
	char inputs[32][MTR_VIEW_NAME], err[256], how[256];
	const struct mtr_view *v;
	struct mtr_config cfg;
	bool have_cfg = false;
	int ret = cli_view_lookup(name, "--view-config", cmd, &v), n;

	if (ret >= 0)
		return ret;
	n = mtr_view_inputs(v, inputs, 32, err, sizeof(err));
	if (n < 0)
		return cli_error(1, cmd, "view %s is broken: %s", name, err);
	if (v->config)
		have_cfg = !mtr_config_load(cli_config_dir(), v->config, &cfg, err, sizeof(err));
	printf("%s: %s\n", v->name, v->title);
	if (v->needs)
		printf("  not available here: it needs %s\n", v->needs);
	else
		printf("  collect with: uprof collect --config %s\n", v->config);
	printf("  columns (report.csv's, in this order; the first sorts):\n");
	for (int c = 0; c < v->ncolumns; c++)
		if (v->columns[c].formula)
			printf("    %s = %s\n", v->columns[c].name, v->columns[c].formula);
		else
			printf("    %s  (event)\n", v->columns[c].name);
	printf("  events:\n");
	for (int i = 0; i < n; i++) {
		if (v->needs)
			snprintf(how, sizeof(how), "IBS sample data");
		else
			describe_event(inputs[i], have_cfg ? &cfg : NULL, how, sizeof(how));
		printf("    %-42s %s\n", inputs[i], how);
	}
	return 0;
}
