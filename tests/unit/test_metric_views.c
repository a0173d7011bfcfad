// SPDX-License-Identifier: MIT
/*
 * lib/metric/views.c: uProf's view configurations. Every view's formulas parse, its
 * first column is an event, its events are those of the collect config it names (read
 * from the shipped configs/, tests run in the repository root) or IBS ones for the IBS
 * views, and its metrics agree with that config's own formulas of the same name; the
 * columns evaluate to exact values on known counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metric/metric.h"
#include "pmc/pmc.h"

/* uProf's list (docs/reference/uprof-cli.md §3), in its order */
static const char *const UPROF_VIEWS[] = {
	"triage_assess",
	"triage_assess_ext",
	"ipc_assess",
	"br_assess",
	"dc_assess",
	"misalign_assess",
	"branch",
	"memory",
	"dc_focus",
	"dtlb_focus",
	"ic_focus",
	"itlb_focus",
	"return_focus",
	"taken_focus",
	"ibs_fetch_overall",
	"ibs_fetch_ic",
	"ibs_fetch_itlb",
	"ibs_fetch_page",
	"ibs_op_overall",
	"ibs_op_branch",
	"ibs_op_return",
	"ibs_op_ls",
	"ibs_op_ls_dc",
	"ibs_op_ls_dtlb",
	"ibs_op_ls_memacc",
	"ibs_op_ls_page",
	"ibs_op_nb_access",
	"ibs_op_nb_cache",
	"ibs_op_nb_service",
};
#define NVIEWS (int)(sizeof(UPROF_VIEWS) / sizeof(UPROF_VIEWS[0]))

static void every_uprof_view_once_in_order(void **state)
{
	(void)state;
	assert_int_equal(mtr_view_count(), NVIEWS);
	for (int i = 0; i < NVIEWS; i++) {
		assert_string_equal(mtr_view_at(i)->name, UPROF_VIEWS[i]);
		assert_ptr_equal(mtr_view_find(UPROF_VIEWS[i]), mtr_view_at(i));
	}
	assert_null(mtr_view_at(NVIEWS));
	assert_null(mtr_view_at(-1));
	assert_null(mtr_view_find("triage"));
	assert_null(mtr_view_find("TRIAGE_ASSESS"));
}

/* Does @cfg give one of its events the name @name ([event.N] name = ...) */
static bool config_names(const struct mtr_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nevents; i++)
		if (!strcmp(cfg->events[i].name, name))
			return true;
	return false;
}

/* Is @name an event of @cfg: named by its [event.N] name, or its spec's event=NAME */
static bool config_has(const struct mtr_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nevents; i++) {
		const char *spec = cfg->events[i].spec;

		if (config_names(cfg, name))
			return true;
		if (!strncmp(spec, "event=", 6) && !strncmp(spec + 6, name, strlen(name)) &&
		    (spec[6 + strlen(name)] == ',' || !spec[6 + strlen(name)]))
			return true;
	}
	return false;
}

static void every_view_parses_and_needs_what_its_config_samples(void **state)
{
	(void)state;
	for (int i = 0; i < mtr_view_count(); i++) {
		const struct mtr_view *v = mtr_view_at(i);
		char in[32][MTR_VIEW_NAME], err[256];
		struct mtr_config cfg;
		int n = mtr_view_inputs(v, in, 32, err, sizeof(err));

		if (n <= 0)
			fail_msg("%s: %d %s", v->name, n, err);
		assert_true(v->ncolumns > 0 && v->title[0]);
		assert_null(v->columns[0].formula); /* the first column is an event: it sorts */
		assert_string_equal(in[0], v->columns[0].name);
		for (int a = 0; a < v->ncolumns; a++)
			for (int b = a + 1; b < v->ncolumns; b++)
				if (!strcmp(v->columns[a].name, v->columns[b].name))
					fail_msg("%s: column %s twice", v->name,
						 v->columns[a].name);
		if (v->needs) { /* IBS views: no config uprof can run here */
			assert_null(v->config);
			assert_non_null(strstr(v->needs, "IBS"));
			for (int k = 0; k < n; k++)
				if (strncmp(in[k], "IBS_", 4))
					fail_msg("%s: %s is no IBS input", v->name, in[k]);
			continue;
		}
		assert_non_null(v->config);
		if (mtr_config_load("configs", v->config, &cfg, err, sizeof(err)))
			fail_msg("%s: config %s: %s", v->name, v->config, err);
		for (int k = 0; k < n; k++) {
			if (!config_has(&cfg, in[k]))
				fail_msg("%s: config %s samples no %s", v->name, v->config, in[k]);
			/* a name the config does not give an event itself is one of lib/pmc's
			 * predefined events (uProf's names: PMCx codes) */
			if (!config_names(&cfg, in[k]) && !pmc_predef_find(in[k], strlen(in[k])))
				fail_msg("%s: %s is not a predefined event", v->name, in[k]);
		}
		/* a metric the config also derives has the config's formula */
		for (int c = 0; c < v->ncolumns; c++)
			for (int m = 0; m < cfg.nmetrics && v->columns[c].formula; m++)
				if (!strcmp(cfg.metrics[m].name, v->columns[c].name) &&
				    strcmp(cfg.metrics[m].formula, v->columns[c].formula))
					fail_msg("%s: %s is %s, config %s says %s", v->name,
						 v->columns[c].name, v->columns[c].formula,
						 v->config, cfg.metrics[m].formula);
	}
}

/* triage_assess: uProf's documented default columns, in its order */
static void triage_assess_is_uprofs(void **state)
{
	static const char *const want[] = {
		"CYCLES_NOT_IN_HALT",
		"RETIRED_INST",
		"IPC",
		"CPI",
		"RETIRED_BR_INST_MISP (PTI)",
		"%RETIRED_BR_INST_MISP",
		"L1_DC_ACCESSES (PTI)",
		"L1_DC_MISSES (PTI)",
		"%L1_DC_MISSES",
		"L1_DEMAND_DC_REFILLS_LOCAL (PTI)",
		"L1_DEMAND_DC_REFILLS_REMOTE (PTI)",
		"MISALIGNED_LOADS (PTI)",
	};
	const struct mtr_view *v = mtr_view_find("triage_assess");

	(void)state;
	assert_int_equal(v->ncolumns, (int)(sizeof(want) / sizeof(want[0])));
	for (int c = 0; c < v->ncolumns; c++)
		assert_string_equal(v->columns[c].name, want[c]);
	assert_string_equal(v->config, "assess");
}

/* The columns as report evaluates them (one set over the inputs) on known counts */
static void columns_evaluate_exactly(void **state)
{
	const struct mtr_view *v = mtr_view_find("triage_assess");
	char in[32][MTR_VIEW_NAME], err[256];
	const char *inputs[32], *names[32], *formulas[32];
	double val[32], out[32];
	struct mtr_set *s;
	int n;

	(void)state;
	n = mtr_view_inputs(v, in, 32, err, sizeof(err));
	assert_int_equal(n, 9);
	for (int k = 0; k < n; k++) {
		inputs[k] = in[k];
		/* CYCLES 4000, RETIRED_INST 2000, then 10, 20, ... for the others */
		val[k] = k == 0 ? 4000 : k == 1 ? 2000 : 10.0 * (k - 1);
	}
	for (int c = 0; c < v->ncolumns; c++) {
		names[c] = v->columns[c].name;
		formulas[c] = mtr_view_formula(&v->columns[c]);
	}
	assert_int_equal(mtr_set_new(&s, inputs, n, names, formulas, v->ncolumns, err, sizeof(err)),
			 0);
	mtr_set_eval(s, val, out);
	/* in[2] RETIRED_BR_INST_MISP 10, in[3] RETIRED_BR_INST 20, in[4] L1_DC_ACCESSES_ALL
	 * 30, in[5] L2_CACHE_ACCESS_FROM_L1_DC_MISS 40, ... in[8] MISALIGNED_LOADS 70 */
	assert_string_equal(in[2], "RETIRED_BR_INST_MISP");
	assert_string_equal(in[5], "L2_CACHE_ACCESS_FROM_L1_DC_MISS");
	assert_string_equal(in[8], "MISALIGNED_LOADS");
	assert_true(out[0] == 4000 && out[1] == 2000);
	assert_true(out[2] == 0.5 && out[3] == 2.0);	/* IPC, CPI */
	assert_true(out[4] == 5.0 && out[5] == 50.0);	/* misp PTI, % of branches */
	assert_true(out[6] == 15.0 && out[7] == 20.0);	/* DC accesses, misses PTI */
	assert_true(fabs(out[8] - 400.0 / 3.0) < 1e-9); /* 40 * 100 / 30 */
	assert_true(out[11] == 35.0);			/* misaligned PTI */
	mtr_set_free(s);
}

static void too_small_a_buffer_is_said(void **state)
{
	char in[2][MTR_VIEW_NAME], err[128];

	(void)state;
	assert_int_equal(mtr_view_inputs(mtr_view_find("triage_assess"), in, 2, err, sizeof(err)),
			 -ENOSPC);
	assert_string_equal(err, "triage_assess: more than 2 events");
	assert_int_equal(mtr_view_inputs(mtr_view_find("ipc_assess"), in, 2, err, sizeof(err)), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_uprof_view_once_in_order),
		cmocka_unit_test(every_view_parses_and_needs_what_its_config_samples),
		cmocka_unit_test(triage_assess_is_uprofs),
		cmocka_unit_test(columns_evaluate_exactly),
		cmocka_unit_test(too_small_a_buffer_is_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
