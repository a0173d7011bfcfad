// SPDX-License-Identifier: MIT
/*
 * Every derived metric of every config (configs/<config>.ini and configs/pcm/<group>.ini),
 * read from the files and evaluated with lib/pmc's formulas on one recorded set of
 * counter values (some of them multiplexed, so scaled), against answers worked out by
 * hand. Also: a counter that never ran (time_running = 0) and x/0 give NaN, and no
 * metric or event of a config goes untested. Uncore specs are parsed against the fake
 * machine in tests/fixtures/sysfs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric/metric.h"
#include "pmc/pmc.h"

/* ---- the recording: counts as read (value, time enabled, time running) ---- */

struct rec {
	const char *name;
	struct pmc_count c; /* scaled: value * enabled / running */
};

#define FULL(v) { (uint64_t)(v), 1000000000, 1000000000 }
#define HALF(v) { (uint64_t)(v) / 2, 1000000000, 500000000 } /* multiplexed: ran half */

static struct rec rec[] = {
	/* collect configs: uProf names, PMCx names, PPR names */
	{ "CYCLES_NOT_IN_HALT", FULL(2e9) },
	{ "RETIRED_INST", HALF(3e9) },
	{ "RETIRED_BR_INST", FULL(6e8) },
	{ "RETIRED_BR_INST_MISP", FULL(1.2e7) },
	{ "L1_DC_ACCESSES_ALL", HALF(1.2e9) },
	{ "L2_CACHE_ACCESS_FROM_L1_DC_MISS", FULL(3e7) },
	{ "L1_DEMAND_DC_REFILLS_LOCAL", FULL(1.5e7) },
	{ "L1_DEMAND_DC_REFILLS_REMOTE", FULL(3e5) },
	{ "MISALIGNED_LOADS", FULL(9e5) },
	{ "L1_DEMAND_DC_REFILLS_REMOTE_DRAM", FULL(2e5) },
	{ "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_REMOTE", FULL(1e5) },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_DRAM", FULL(6e6) },
	{ "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_LOCAL", FULL(3e6) },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_CACHE", FULL(3e6) },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_L2", FULL(3e6) },
	{ "PMCx024_02", FULL(1e5) },
	{ "INEFFECTIVE_SW_PF", FULL(6e4) },
	{ "PMCx00E_0E", FULL(0) },
	{ "ExRetBrnTkn", FULL(3e8) },
	{ "ExRetBrnTknMisp", FULL(6e6) },
	{ "ExRetNearRet", FULL(5e7) },
	{ "ExRetNearRetMispred", FULL(5e5) },
	{ "ExRetBrnIndMisp", FULL(1.5e6) },
	{ "L1_DTLB_MISSES", FULL(1.5e6) },
	{ "L2_DTLB_MISSES", FULL(3e5) },
	{ "OP_CACHE_ALL_ACCESS", FULL(8e8) },
	{ "OP_CACHE_MISS", FULL(4e7) },
	{ "IC_TAG_ALL_IC_ACCESS", FULL(4e8) },
	{ "IC_TAG_IC_MISS", FULL(6e6) },
	{ "L2_CACHE_ACCESS_FROM_L1_IC_MISS", FULL(6e6) },
	{ "L2_CACHE_MISS_FROM_L1_IC_MISS", FULL(1.5e6) },
	{ "L1_ITLB_MISSES_L2_HITS", FULL(3e5) },
	{ "L2_ITLB_MISSES", FULL(6e4) },
	{ "PMCx094_07", FULL(1e8) },
	/* pcm groups: the names their files give */
	{ "CYCLES", HALF(2e9) },
	{ "INST", FULL(3e9) },
	{ "CYCLES_USER", FULL(1.5e9) },
	{ "INST_USER", FULL(2.4e9) },
	{ "BR", FULL(6e8) },
	{ "BR_MISP", FULL(1.2e7) },
	{ "APERF", FULL(2.4e9) },
	{ "MPERF", FULL(2e9) },
	{ "TSC", FULL(4e9) },
	{ "FLOPS", HALF(8e9) },
	{ "IC_ACCESS", FULL(4e8) },
	{ "IC_MISS", FULL(6e6) },
	{ "OC_ACCESS", FULL(8e8) },
	{ "OC_MISS", FULL(4e7) },
	{ "DC_ACCESS", FULL(1.2e9) },
	{ "ACC_IC", FULL(6e6) },
	{ "ACC_DC", FULL(3e7) },
	{ "MISS_IC", FULL(1.5e6) },
	{ "MISS_DC", FULL(6e6) },
	{ "PF_HIT_L2", HALF(9e6) },
	{ "PF_HIT_L3", HALF(3e6) },
	{ "PF_MISS_L3", HALF(3e6) },
	{ "L3_ACCESS", FULL(1e8) },
	{ "L3_MISS", FULL(2.5e7) },
	{ "L3_MISS_LAT", FULL(1.5e9) },
	{ "L3_MISS_REQ", FULL(1e8) },
	{ "CH_A", FULL(1e8) }, { "CH_B", FULL(2e8) }, { "CH_C", FULL(3e8) }, { "CH_D", FULL(4e8) },
	{ "CH_E", HALF(5e8) }, { "CH_F", HALF(6e8) }, { "CH_G", HALF(7e8) }, { "CH_H", HALF(8e8) },
	{ "TASK_CLOCK", FULL(1.6e10) },
	{ "CS", FULL(5000) },
	{ "MIGRATIONS", FULL(40) },
	{ "FAULTS", FULL(1234) },
};

/* pcm's variables for this recording: 1 s on 16 CPUs, 4 s of them idle, P0 2 GHz */
static const struct {
	const char *name;
	double v;
} vars[] = { { "ELAPSED_NS", 1e9 }, { "NCPUS", 16 }, { "P0_FREQ_MHZ", 2000 }, { "IDLE_NS", 4e9 } };

/* ---- the answers ---- */

struct expect {
	int line;
	const char *config, *metric;
	double v; /* NAN: must not be computable */
};

static const struct expect expect[] = {
	{ __LINE__, "cpi", "IPC", 1.5 },
	{ __LINE__, "cpi", "CPI", 2.0 / 3 },
	{ __LINE__, "assess", "IPC", 1.5 },
	{ __LINE__, "assess", "CPI", 2.0 / 3 },
	{ __LINE__, "assess", "RETIRED_BR_INST_MISP (PTI)", 4 },
	{ __LINE__, "assess", "%RETIRED_BR_INST_MISP", 2 },
	{ __LINE__, "assess", "L1_DC_ACCESSES (PTI)", 400 },
	{ __LINE__, "assess", "L1_DC_MISSES (PTI)", 10 },
	{ __LINE__, "assess", "%L1_DC_MISSES", 2.5 },
	{ __LINE__, "assess", "L1_DEMAND_DC_REFILLS_LOCAL (PTI)", 5 },
	{ __LINE__, "assess", "L1_DEMAND_DC_REFILLS_REMOTE (PTI)", 0.1 },
	{ __LINE__, "assess", "MISALIGNED_LOADS (PTI)", 0.3 },
	{ __LINE__, "assess_ext", "IPC", 1.5 },
	{ __LINE__, "assess_ext", "CPI", 2.0 / 3 },
	{ __LINE__, "assess_ext", "RETIRED_BR_INST_MISP (PTI)", 4 },
	{ __LINE__, "assess_ext", "%RETIRED_BR_INST_MISP", 2 },
	{ __LINE__, "assess_ext", "L1_DC_ACCESSES (PTI)", 400 },
	{ __LINE__, "assess_ext", "L1_DC_MISSES (PTI)", 10 },
	{ __LINE__, "assess_ext", "%L1_DC_MISSES", 2.5 },
	{ __LINE__, "assess_ext", "L1_DEMAND_DC_REFILLS_LOCAL_DRAM (PTI)", 2 },
	{ __LINE__, "assess_ext", "L1_DEMAND_DC_REFILLS_REMOTE_DRAM (PTI)", 0.2 / 3 },
	{ __LINE__, "assess_ext", "MISALIGNED_LOADS (PTI)", 0.3 },
	{ __LINE__, "assess_ext", "INEFFECTIVE_SW_PF (PTI)", 0.02 },
	{ __LINE__, "branch", "IPC", 1.5 },
	{ __LINE__, "branch", "CPI", 2.0 / 3 },
	{ __LINE__, "branch", "RETIRED_BR_INST (PTI)", 200 },
	{ __LINE__, "branch", "RETIRED_BR_INST_MISP (PTI)", 4 },
	{ __LINE__, "branch", "%RETIRED_BR_INST_MISP", 2 },
	{ __LINE__, "branch", "%RETIRED_TAKEN_BR_INST_MISP", 2 },
	{ __LINE__, "branch", "%RETIRED_NEAR_RET_MISP", 1 },
	{ __LINE__, "branch", "RETIRED_INDIRECT_BR_MISP (PTI)", 0.5 },
	{ __LINE__, "data_access", "IPC", 1.5 },
	{ __LINE__, "data_access", "CPI", 2.0 / 3 },
	{ __LINE__, "data_access", "L1_DC_ACCESSES (PTI)", 400 },
	{ __LINE__, "data_access", "L1_DC_MISSES (PTI)", 10 },
	{ __LINE__, "data_access", "%L1_DC_MISSES", 2.5 },
	{ __LINE__, "data_access", "L1_DTLB_MISSES (PTI)", 0.5 },
	{ __LINE__, "data_access", "L2_DTLB_MISSES (PTI)", 0.1 },
	{ __LINE__, "data_access", "MISALIGNED_LOADS (PTI)", 0.3 },
	{ __LINE__, "data_access", "L1_DEMAND_DC_REFILLS_DRAM (PTI)", 6.2 / 3 },
	{ __LINE__, "inst_access", "IPC", 1.5 },
	{ __LINE__, "inst_access", "CPI", 2.0 / 3 },
	{ __LINE__, "inst_access", "IC_MISSES (PTI)", 2 },
	{ __LINE__, "inst_access", "%IC_MISSES", 1.5 },
	{ __LINE__, "inst_access", "%OP_CACHE_MISSES", 5 },
	{ __LINE__, "inst_access", "L2_IC_MISSES (PTI)", 0.5 },
	{ __LINE__, "inst_access", "L1_ITLB_MISSES (PTI)", 0.12 },
	{ __LINE__, "inst_access", "L2_ITLB_MISSES (PTI)", 0.02 },
	{ __LINE__, "pcm/ipc", "Utilization (%)", 50 },
	{ __LINE__, "pcm/ipc", "Eff Freq (MHz)", 2400 },
	{ __LINE__, "pcm/ipc", "IPC (Sys + User)", 1.5 },
	{ __LINE__, "pcm/ipc", "IPC (Sys)", 1.2 },
	{ __LINE__, "pcm/ipc", "IPC (User)", 1.6 },
	{ __LINE__, "pcm/ipc", "CPI (Sys + User)", 2.0 / 3 },
	{ __LINE__, "pcm/ipc", "System time (%)", 25 },
	{ __LINE__, "pcm/ipc", "User time (%)", 75 },
	{ __LINE__, "pcm/ipc", "Giga Instructions Per Sec", 3 },
	{ __LINE__, "pcm/ipc", "Retired Branches (pti)", 200 },
	{ __LINE__, "pcm/ipc", "Retired Branches Mispredicted (pti)", 4 },
	{ __LINE__, "pcm/ipc", "Branch Misprediction Ratio", 0.02 },
	{ __LINE__, "pcm/fp", "GFLOPs", 8 },
	{ __LINE__, "pcm/fp", "FLOPs Per Cycle", 4 },
	{ __LINE__, "pcm/fp", "FLOPs (pti)", 8000.0 / 3 },
	{ __LINE__, "pcm/l1", "IC (32B) Fetch Miss Ratio", 0.015 },
	{ __LINE__, "pcm/l1", "Op Cache (64B) Fetch Miss Ratio", 0.05 },
	{ __LINE__, "pcm/l1", "IC Access (pti)", 400.0 / 3 },
	{ __LINE__, "pcm/l1", "IC Miss (pti)", 2 },
	{ __LINE__, "pcm/l1", "DC Access (pti)", 400 },
	{ __LINE__, "pcm/l2", "L2 Access (pti)", 17 },
	{ __LINE__, "pcm/l2", "L2 Access from IC Miss (pti)", 2 },
	{ __LINE__, "pcm/l2", "L2 Access from DC Miss (pti)", 10 },
	{ __LINE__, "pcm/l2", "L2 Access from L2 HWPF (pti)", 5 },
	{ __LINE__, "pcm/l2", "L2 Miss (pti)", 4.5 },
	{ __LINE__, "pcm/l2", "L2 Miss from IC Miss (pti)", 0.5 },
	{ __LINE__, "pcm/l2", "L2 Miss from DC Miss (pti)", 2 },
	{ __LINE__, "pcm/l2", "L2 Miss from L2 HWPF (pti)", 2 },
	{ __LINE__, "pcm/l2", "L2 Hit (pti)", 12.5 },
	{ __LINE__, "pcm/l3", "L3 Access", 1e8 },
	{ __LINE__, "pcm/l3", "L3 Miss", 2.5e7 },
	{ __LINE__, "pcm/l3", "L3 Miss %", 25 },
	{ __LINE__, "pcm/l3", "L3 Hit %", 75 },
	{ __LINE__, "pcm/l3", "Ave L3 Miss Latency (ns)", 120 }, /* 240 cycles at 2 GHz */
	{ __LINE__, "pcm/memory", "Total Mem Bw (GB/s)", 230.4 },
	{ __LINE__, "pcm/memory", "Mem Ch-A Bw (GB/s)", 6.4 },
	{ __LINE__, "pcm/memory", "Mem Ch-B Bw (GB/s)", 12.8 },
	{ __LINE__, "pcm/memory", "Mem Ch-C Bw (GB/s)", 19.2 },
	{ __LINE__, "pcm/memory", "Mem Ch-D Bw (GB/s)", 25.6 },
	{ __LINE__, "pcm/memory", "Mem Ch-E Bw (GB/s)", 32 },
	{ __LINE__, "pcm/memory", "Mem Ch-F Bw (GB/s)", 38.4 },
	{ __LINE__, "pcm/memory", "Mem Ch-G Bw (GB/s)", 44.8 },
	{ __LINE__, "pcm/memory", "Mem Ch-H Bw (GB/s)", 51.2 },
	{ __LINE__, "pcm/swi", "CPU Utilization (%)", 75 },
	{ __LINE__, "pcm/swi", "CPU Time (ms)", 12000 },
	{ __LINE__, "pcm/swi", "Context Switches", 5000 },
	{ __LINE__, "pcm/swi", "CPU Migrations", 40 },
	{ __LINE__, "pcm/swi", "Page Faults", 1234 },
};

static const char *const configs[] = { "cpi", "assess", "assess_ext", "branch", "data_access",
				       "inst_access", "pcm/ipc", "pcm/fp", "pcm/l1", "pcm/l2",
				       "pcm/l3", "pcm/memory", "pcm/swi" };

/* ---- a config file, as the metrics see it ---- */

struct cfg {
	char ev_name[64][64], ev_spec[64][256];
	char m_name[64][64], m_id[64][32], m_formula[64][256];
	int nev, nm;
	double m_value[64];
};

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct cfg *c = user;
	int i;

	if (sscanf(section, "event.%d", &i) == 1 && i >= 0 && i < 64) {
		if (i >= c->nev)
			c->nev = i + 1;
		if (!strcmp(name, "name"))
			snprintf(c->ev_name[i], sizeof(c->ev_name[i]), "%s", value);
		else if (!strcmp(name, "spec"))
			snprintf(c->ev_spec[i], sizeof(c->ev_spec[i]), "%s", value);
	} else if (sscanf(section, "metric.%d", &i) == 1 && i >= 0 && i < 64) {
		if (i >= c->nm)
			c->nm = i + 1;
		if (!strcmp(name, "name"))
			snprintf(c->m_name[i], sizeof(c->m_name[i]), "%s", value);
		else if (!strcmp(name, "id"))
			snprintf(c->m_id[i], sizeof(c->m_id[i]), "%s", value);
		else if (!strcmp(name, "formula"))
			snprintf(c->m_formula[i], sizeof(c->m_formula[i]), "%s", value);
	}
	return 1;
}

static struct pmc_pmus *fake_pmus;

static void load_cfg(const char *config, struct cfg *c)
{
	const char *dir = getenv("UPROF_CONFIG_DIR") ? getenv("UPROF_CONFIG_DIR") : "configs";
	char path[512], err[256];

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/%s.ini", dir, config);
	assert_int_equal(ini_parse(path, on_key, c), 0);
	assert_true(c->nm > 0);
	for (int i = 0; i < c->nev; i++) { /* unnamed events go by their own name */
		struct pmc_event ev;

		if (c->ev_name[i][0])
			continue;
		if (pmc_event_parse(c->ev_spec[i], strlen(c->ev_spec[i]), fake_pmus, &ev, err, sizeof(err)))
			fail_msg("%s [event.%d] '%s': %s", config, i, c->ev_spec[i], err);
		snprintf(c->ev_name[i], sizeof(c->ev_name[i]), "%s", ev.name);
	}
}

struct ctx {
	const struct cfg *c;
	int metric;
};

static int lookup(void *arg, const char *name, double *v)
{
	const struct ctx *x = arg;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!strcmp(vars[i].name, name)) {
			*v = vars[i].v;
			return 0;
		}
	for (int i = 0; i < x->c->nev; i++)
		if (!strcmp(x->c->ev_name[i], name))
			for (size_t k = 0; k < sizeof(rec) / sizeof(rec[0]); k++)
				if (!strcmp(rec[k].name, name)) {
					*v = pmc_count_scale(&rec[k].c);
					return 0;
				}
	for (int i = 0; i < x->metric; i++)
		if (x->c->m_id[i][0] && !strcmp(x->c->m_id[i], name)) {
			*v = x->c->m_value[i];
			return 0;
		}
	return -ENOENT;
}

/* Evaluate every metric of @c in order (ids of earlier ones usable). */
static void eval_all(struct cfg *c, const char *config)
{
	for (int m = 0; m < c->nm; m++) {
		struct ctx x = { c, m };
		struct mtr_expr *e;
		char err[128];

		if (mtr_expr_parse(c->m_formula[m], strlen(c->m_formula[m]), &e, err, sizeof(err)))
			fail_msg("%s metric '%s': %s", config, c->m_name[m], err);
		if (mtr_expr_eval(e, lookup, &x, &c->m_value[m]))
			fail_msg("%s metric '%s': a name is neither recorded nor a variable", config,
				 c->m_name[m]);
		mtr_expr_free(e);
	}
}

static double metric_of(const struct cfg *c, const char *name)
{
	for (int m = 0; m < c->nm; m++)
		if (!strcmp(c->m_name[m], name))
			return c->m_value[m];
	fail_msg("no metric '%s'", name);
	return 0;
}

static bool close_to(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= 1e-9 * fmax(1, fabs(want));
}

static void test_metrics_every_config(void **state)
{
	static struct cfg c;
	int bad = 0;
	size_t n = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(configs) / sizeof(configs[0]); k++) {
		load_cfg(configs[k], &c);
		eval_all(&c, configs[k]);
		for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
			double got;

			if (strcmp(expect[i].config, configs[k]))
				continue;
			got = metric_of(&c, expect[i].metric);
			n++;
			if (!close_to(got, expect[i].v)) {
				print_error("line %d: %s '%s' = %.9g, expected %.9g\n", expect[i].line,
					    configs[k], expect[i].metric, got, expect[i].v);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
	assert_int_equal(n, sizeof(expect) / sizeof(expect[0]));
}

/* Each metric of each config has an answer above, and each event a recorded value. */
static void test_metrics_all_covered(void **state)
{
	static struct cfg c;

	(void)state;
	for (size_t k = 0; k < sizeof(configs) / sizeof(configs[0]); k++) {
		load_cfg(configs[k], &c);
		for (int m = 0; m < c.nm; m++) {
			bool found = false;

			for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]) && !found; i++)
				found = !strcmp(expect[i].config, configs[k]) &&
					!strcmp(expect[i].metric, c.m_name[m]);
			if (!found)
				fail_msg("%s metric '%s' has no expected value", configs[k], c.m_name[m]);
		}
		for (int e = 0; e < c.nev; e++) {
			bool found = false;

			for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]) && !found; i++)
				found = !strcmp(rec[i].name, c.ev_name[e]);
			if (!found)
				fail_msg("%s event '%s' has no recorded value", configs[k], c.ev_name[e]);
		}
	}
}

static struct rec *rec_of(const char *name)
{
	for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]); i++)
		if (!strcmp(rec[i].name, name))
			return &rec[i];
	return NULL;
}

/* RETIRED_INST enabled but never on a counter: every per-instruction metric is NaN (an
 * empty cell), IPC too; zero cycles: IPC is x/0, NaN, and CPI 0. */
static void test_metrics_not_counted(void **state)
{
	static struct cfg c;
	struct rec *inst = rec_of("RETIRED_INST"), *cyc = rec_of("CYCLES_NOT_IN_HALT");
	struct pmc_count keep_i = inst->c, keep_c = cyc->c;

	(void)state;
	load_cfg("assess", &c);
	inst->c.running = 0;
	eval_all(&c, "assess");
	assert_true(isnan(metric_of(&c, "IPC")));
	assert_true(isnan(metric_of(&c, "RETIRED_BR_INST_MISP (PTI)")));
	assert_true(isnan(metric_of(&c, "MISALIGNED_LOADS (PTI)")));
	assert_true(close_to(metric_of(&c, "%RETIRED_BR_INST_MISP"), 2)); /* no instructions in it */
	inst->c = keep_i;
	cyc->c = (struct pmc_count){ 0, 1000, 1000 };
	eval_all(&c, "assess");
	assert_true(isnan(metric_of(&c, "IPC")));
	assert_true(close_to(metric_of(&c, "CPI"), 0));
	cyc->c = keep_c;
	/* a wrapped 48-bit counter, as a delta, then into a metric */
	{
		struct pmc_count r0 = { 0xffff00000000ULL, 0, 0 }, r1 = { 0x1dcd65000ULL, 1, 1 }, d;

		pmc_count_delta(&r0, &r1, 48, &d);
		assert_int_equal(d.value, 0x100000000ULL + 0x1dcd65000ULL); /* 2^32 + 8e9 */
		inst->c = (struct pmc_count){ d.value, 1, 1 };
		eval_all(&c, "assess");
		assert_true(close_to(metric_of(&c, "IPC"), (double)d.value / 2e9));
		inst->c = keep_i;
	}
}

static int setup(void **state)
{
	char root[512];
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";

	(void)state;
	snprintf(root, sizeof(root), "%s/tests/fixtures/sysfs", src);
	setenv("UPROF_SYSFS_ROOT", root, 1);
	if (pmc_pmus_load(&fake_pmus) || !pmc_pmus_find(fake_pmus, "amd_df"))
		return -1;
	unsetenv("UPROF_SYSFS_ROOT");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmc_pmus_free(fake_pmus);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics_every_config),
		cmocka_unit_test(test_metrics_all_covered),
		cmocka_unit_test(test_metrics_not_counted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
