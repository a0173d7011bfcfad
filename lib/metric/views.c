// SPDX-License-Identifier: MIT
/*
 * uProf's view configurations (report --view, info --list view-configs, info --view-config):
 * the one table of them. A view is an ordered list of report.csv columns: an event of the
 * session (formula NULL: the column is the event's value, as the default report shows it)
 * or a derived metric over the events (lib/metric's formula syntax). The first column is
 * an event and sorts every table. Names and formulas follow uProf's Data/Metric.json
 * (docs/reference/uprof-cli.md §3); where uProf's column list is not documented, the
 * columns are what the view's name says, over the events of the collect config named
 * beside it (docs/DESIGN.md §3 says which). IBS views are listed for completeness:
 * uprof collects no IBS here, so they carry the reason a report refuses them.
 */
#include "metric/metric.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* column macros: one a line (clang-format would spread each over four) */
/* clang-format off */
#define CYC { "CYCLES_NOT_IN_HALT", NULL }
#define INST { "RETIRED_INST", NULL }
#define IPC { "IPC", "RETIRED_INST / CYCLES_NOT_IN_HALT" }
#define CPI { "CPI", "CYCLES_NOT_IN_HALT / RETIRED_INST" }
/* X (PTI): X per thousand retired instructions */
#define PTI(col, ev) { col " (PTI)", ev " * 1000 / RETIRED_INST" }

#define BR_MISP_PTI PTI("RETIRED_BR_INST_MISP", "RETIRED_BR_INST_MISP")
#define BR_MISP_PCT { "%RETIRED_BR_INST_MISP", "RETIRED_BR_INST_MISP * 100 / RETIRED_BR_INST" }
#define DC_ACC_PTI PTI("L1_DC_ACCESSES", "L1_DC_ACCESSES_ALL")
#define DC_MISS_PTI PTI("L1_DC_MISSES", "L2_CACHE_ACCESS_FROM_L1_DC_MISS")
#define DC_MISS_PCT { "%L1_DC_MISSES", "L2_CACHE_ACCESS_FROM_L1_DC_MISS * 100 / L1_DC_ACCESSES_ALL" }
#define REFILLS_PTI(src) PTI("L1_DEMAND_DC_REFILLS_" src, "L1_DEMAND_DC_REFILLS_" src)
#define MISALIGN_PTI PTI("MISALIGNED_LOADS", "MISALIGNED_LOADS")
/* branch's events by the names configs/branch.ini gives them (PMCxC4, C5, C8, C9, CA) */
#define TAKEN_PTI PTI("RETIRED_TAKEN_BR_INST", "ExRetBrnTkn")
#define TAKEN_MISP_PCT { "%RETIRED_TAKEN_BR_INST_MISP", "ExRetBrnTknMisp * 100 / ExRetBrnTkn" }
#define RET_PTI PTI("RETIRED_NEAR_RET", "ExRetNearRet")
#define RET_MISP_PCT { "%RETIRED_NEAR_RET_MISP", "ExRetNearRetMispred * 100 / ExRetNearRet" }

/* clang-format on */

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

/* uProf's documented default columns of triage_assess (the assess config's view) */
static const struct mtr_view_column triage_assess[] = {
	CYC,
	INST,
	IPC,
	CPI,
	BR_MISP_PTI,
	BR_MISP_PCT,
	DC_ACC_PTI,
	DC_MISS_PTI,
	DC_MISS_PCT,
	REFILLS_PTI("LOCAL"),
	REFILLS_PTI("REMOTE"),
	MISALIGN_PTI,
};
static const struct mtr_view_column triage_assess_ext[] = {
	CYC,
	INST,
	IPC,
	CPI,
	BR_MISP_PTI,
	BR_MISP_PCT,
	DC_ACC_PTI,
	DC_MISS_PTI,
	DC_MISS_PCT,
	REFILLS_PTI("LOCAL_L2"),
	REFILLS_PTI("LOCAL_CACHE"),
	REFILLS_PTI("EXTERNAL_CACHE_LOCAL"),
	REFILLS_PTI("LOCAL_DRAM"),
	REFILLS_PTI("EXTERNAL_CACHE_REMOTE"),
	REFILLS_PTI("REMOTE_DRAM"),
	MISALIGN_PTI,
	PTI("INEFFECTIVE_SW_PF", "INEFFECTIVE_SW_PF"),
};
static const struct mtr_view_column ipc_assess[] = { CYC, INST, IPC, CPI };
static const struct mtr_view_column br_assess[] = {
	CYC, INST, IPC, PTI("RETIRED_BR_INST", "RETIRED_BR_INST"), BR_MISP_PTI, BR_MISP_PCT,
};
static const struct mtr_view_column dc_assess[] = {
	CYC,
	INST,
	IPC,
	DC_ACC_PTI,
	DC_MISS_PTI,
	DC_MISS_PCT,
	REFILLS_PTI("LOCAL"),
	REFILLS_PTI("REMOTE"),
};
static const struct mtr_view_column misalign_assess[] = {
	CYC,	      INST,
	IPC,	      { "MISALIGNED_LOADS", NULL },
	MISALIGN_PTI, { "%MISALIGNED_LOADS", "MISALIGNED_LOADS * 100 / L1_DC_ACCESSES_ALL" },
};
static const struct mtr_view_column branch[] = {
	CYC,
	INST,
	IPC,
	PTI("RETIRED_BR_INST", "RETIRED_BR_INST"),
	BR_MISP_PTI,
	BR_MISP_PCT,
	TAKEN_PTI,
	TAKEN_MISP_PCT,
	RET_PTI,
	RET_MISP_PCT,
	PTI("RETIRED_INDIRECT_BR_MISP", "ExRetBrnIndMisp"),
};
static const struct mtr_view_column dc_focus[] = {
	CYC,
	INST,
	IPC,
	DC_ACC_PTI,
	DC_MISS_PTI,
	DC_MISS_PCT,
	REFILLS_PTI("LOCAL_L2"),
	REFILLS_PTI("LOCAL_CACHE"),
	REFILLS_PTI("EXTERNAL_CACHE_LOCAL"),
	REFILLS_PTI("LOCAL_DRAM"),
	REFILLS_PTI("EXTERNAL_CACHE_REMOTE"),
	REFILLS_PTI("REMOTE_DRAM"),
};
static const struct mtr_view_column dtlb_focus[] = {
	CYC,
	INST,
	IPC,
	DC_ACC_PTI,
	PTI("L1_DTLB_MISSES", "L1_DTLB_MISSES"),
	PTI("L2_DTLB_MISSES", "L2_DTLB_MISSES"),
	{ "%L1_DTLB_MISSES", "L1_DTLB_MISSES * 100 / L1_DC_ACCESSES_ALL" },
};
static const struct mtr_view_column ic_focus[] = {
	CYC,
	INST,
	IPC,
	PTI("IC_ACCESSES", "IC_TAG_ALL_IC_ACCESS"),
	PTI("IC_MISSES", "IC_TAG_IC_MISS"),
	{ "%IC_MISSES", "IC_TAG_IC_MISS * 100 / IC_TAG_ALL_IC_ACCESS" },
	PTI("OP_CACHE_ACCESSES", "OP_CACHE_ALL_ACCESS"),
	{ "%OP_CACHE_MISSES", "OP_CACHE_MISS * 100 / OP_CACHE_ALL_ACCESS" },
	PTI("L2_IC_ACCESSES", "L2_CACHE_ACCESS_FROM_L1_IC_MISS"),
	PTI("L2_IC_MISSES", "L2_CACHE_MISS_FROM_L1_IC_MISS"),
};
static const struct mtr_view_column itlb_focus[] = {
	CYC,
	INST,
	IPC,
	{ "L1_ITLB_MISSES (PTI)",
	  "(L1_ITLB_MISSES_L2_HITS + L2_ITLB_MISSES) * 1000 / RETIRED_INST" },
	PTI("L1_ITLB_MISSES_L2_HITS", "L1_ITLB_MISSES_L2_HITS"),
	PTI("L2_ITLB_MISSES", "L2_ITLB_MISSES"),
};
static const struct mtr_view_column return_focus[] = {
	CYC, INST, IPC, RET_PTI, PTI("RETIRED_NEAR_RET_MISP", "ExRetNearRetMispred"), RET_MISP_PCT,
};
static const struct mtr_view_column taken_focus[] = {
	CYC,
	INST,
	IPC,
	PTI("RETIRED_BR_INST", "RETIRED_BR_INST"),
	TAKEN_PTI,
	{ "%RETIRED_BR_INST_TAKEN", "ExRetBrnTkn * 100 / RETIRED_BR_INST" },
	PTI("RETIRED_TAKEN_BR_INST_MISP", "ExRetBrnTknMisp"),
	TAKEN_MISP_PCT,
};

/* IBS views: the sample count and the metrics Data/Metric.json defines for them; uProf's
 * other IBS columns are not documented and uprof has no IBS data to show them from */
static const struct mtr_view_column ibs_fetch_overall[] = {
	{ "IBS_FETCH", NULL },
	{ "IBS_FETCH_ATTEMPT", NULL },
	{ "IBS_FETCH_LAT", NULL },
	{ "AVE_FETCH_LATENCY", "IBS_FETCH_LAT / IBS_FETCH_ATTEMPT" },
};
static const struct mtr_view_column ibs_fetch[] = { { "IBS_FETCH", NULL } };
static const struct mtr_view_column ibs_op_overall[] = {
	{ "IBS_ALL_OPS", NULL },
	{ "IBS_TAG_TO_RET", NULL },
	{ "AVE_TAG_TO_RET", "IBS_TAG_TO_RET / IBS_ALL_OPS" },
};
static const struct mtr_view_column ibs_op_branch[] = {
	{ "IBS_ALL_OPS", NULL },
	{ "IBS_BR", NULL },
	{ "IBS_MISP_BR", NULL },
	{ "MISP_RATIO", "IBS_MISP_BR / IBS_BR" },
};
static const struct mtr_view_column ibs_op_ls_dc[] = {
	{ "IBS_ALL_OPS", NULL },
	{ "IBS_LOAD_STORE", NULL },
	{ "IBS_LOAD_DC_HIT", NULL },
	{ "IBS_LOAD_DC_MISS", NULL },
	{ "IBS_DC_MISS", NULL },
	{ "IBS_DC_MISS_RATIO", "IBS_DC_MISS / IBS_LOAD_STORE" },
	{ "AVE_DC_MISS_LAT", "IBS_DC_MISS_LAT / IBS_DC_MISS" },
};
static const struct mtr_view_column ibs_op_ls[] = {
	{ "IBS_ALL_OPS", NULL },	{ "IBS_LOAD_STORE", NULL },	{ "IBS_FORWARDED", NULL },
	{ "IBS_BANK_CONF_LOAD", NULL }, { "IBS_STLF_CANCELLED", NULL },
};
static const struct mtr_view_column ibs_op[] = { { "IBS_ALL_OPS", NULL } };

#define NO_IBS_OP \
	"IBS op samples, which uprof cannot collect here (no IBS PMU: 'uprof info --system' " \
	"says what this machine has)"
#define NO_IBS_FETCH \
	"IBS fetch samples, which uprof cannot collect here (no IBS PMU: 'uprof info " \
	"--system' says what this machine has)"

#define VIEW(n, t, cfg, cols) \
	{ \
		n, t, cfg, NULL, N(cols), cols \
	}
#define IBS_VIEW(n, t, why, cols) \
	{ \
		n, t, NULL, why, N(cols), cols \
	}

static const struct mtr_view views[] = {
	VIEW("triage_assess", "Assess Performance", "assess", triage_assess),
	VIEW("triage_assess_ext", "Assess Performance (Extended)", "assess_ext", triage_assess_ext),
	VIEW("ipc_assess", "IPC", "cpi", ipc_assess),
	VIEW("br_assess", "Branch Assessment", "assess", br_assess),
	VIEW("dc_assess", "Data Cache Assessment", "assess", dc_assess),
	VIEW("misalign_assess", "Misaligned Access Assessment", "assess", misalign_assess),
	VIEW("branch", "Branch Analysis", "branch", branch),
	IBS_VIEW("memory", "Memory Access (Cache Line Analysis)", NO_IBS_OP, ibs_op_ls_dc),
	VIEW("dc_focus", "Data Cache Focus", "data_access", dc_focus),
	VIEW("dtlb_focus", "DTLB Focus", "data_access", dtlb_focus),
	VIEW("ic_focus", "Instruction Cache Focus", "inst_access", ic_focus),
	VIEW("itlb_focus", "ITLB Focus", "inst_access", itlb_focus),
	VIEW("return_focus", "Return Focus", "branch", return_focus),
	VIEW("taken_focus", "Taken Branch Focus", "branch", taken_focus),
	IBS_VIEW("ibs_fetch_overall", "IBS Fetch Overall", NO_IBS_FETCH, ibs_fetch_overall),
	IBS_VIEW("ibs_fetch_ic", "IBS Fetch Instruction Cache", NO_IBS_FETCH, ibs_fetch),
	IBS_VIEW("ibs_fetch_itlb", "IBS Fetch ITLB", NO_IBS_FETCH, ibs_fetch),
	IBS_VIEW("ibs_fetch_page", "IBS Fetch Page Translations", NO_IBS_FETCH, ibs_fetch),
	IBS_VIEW("ibs_op_overall", "IBS Op Overall", NO_IBS_OP, ibs_op_overall),
	IBS_VIEW("ibs_op_branch", "IBS Op Branch", NO_IBS_OP, ibs_op_branch),
	IBS_VIEW("ibs_op_return", "IBS Op Return", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_ls", "IBS Op Load/Store", NO_IBS_OP, ibs_op_ls),
	IBS_VIEW("ibs_op_ls_dc", "IBS Op Load/Store Data Cache", NO_IBS_OP, ibs_op_ls_dc),
	IBS_VIEW("ibs_op_ls_dtlb", "IBS Op Load/Store DTLB", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_ls_memacc", "IBS Op Load/Store Memory Access", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_ls_page", "IBS Op Load/Store Page Translations", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_nb_access", "IBS Op Northbridge Access", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_nb_cache", "IBS Op Northbridge Cache", NO_IBS_OP, ibs_op),
	IBS_VIEW("ibs_op_nb_service", "IBS Op Northbridge Service", NO_IBS_OP, ibs_op),
};

int mtr_view_count(void)
{
	return N(views);
}

const struct mtr_view *mtr_view_at(int i)
{
	return i >= 0 && i < N(views) ? &views[i] : NULL;
}

const struct mtr_view *mtr_view_find(const char *name)
{
	for (int i = 0; i < N(views); i++)
		if (!strcmp(views[i].name, name))
			return &views[i];
	return NULL;
}

const char *mtr_view_formula(const struct mtr_view_column *c)
{
	return c->formula ? c->formula : c->name;
}

/* @name, unless @names[0..@n) has it: the new count, or -ENOSPC past @max */
static int add_unique(char names[][MTR_VIEW_NAME], int n, int max, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return n;
	if (n >= max)
		return -ENOSPC;
	snprintf(names[n], MTR_VIEW_NAME, "%s", name);
	return n + 1;
}

int mtr_view_inputs(const struct mtr_view *v, char names[][MTR_VIEW_NAME], int max, char *err,
		    size_t errlen)
{
	int n = 0;

	for (int c = 0; c < v->ncolumns && n >= 0; c++) {
		const char *f = mtr_view_formula(&v->columns[c]);
		struct mtr_expr *e;
		char why[160];
		int ret = mtr_expr_parse(f, strlen(f), &e, why, sizeof(why));

		if (ret) {
			if (errlen)
				snprintf(err, errlen, "%s: %s: %s", v->name, v->columns[c].name,
					 why);
			return ret;
		}
		for (size_t k = 0; k < mtr_expr_nnames(e) && n >= 0; k++)
			n = add_unique(names, n, max, mtr_expr_name(e, k));
		mtr_expr_free(e);
	}
	if (n == -ENOSPC && errlen)
		snprintf(err, errlen, "%s: more than %d events", v->name, max);
	return n;
}
