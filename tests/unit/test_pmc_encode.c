// SPDX-License-Identifier: MIT
/*
 * lib/pmc encodings, as a table (libpfm4's tests/validate_x86.c style): event spec ->
 * expected perf_event_attr type/config or error, one entry per line (__LINE__ names the
 * failing one). Each table runs once per Zen PMU with LIBPFM_FORCE_PMU and
 * LIBPFM_ENCODE_INACTIVE, so libpfm4's own tables for Zen2, Zen3 and Zen4 cross-check
 * that the codes of uProf's predefined events (docs/reference/uprof-cli.md §3) and of every
 * config's events mean the events their names say on each family.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc/internal.h"

#define ZEN2 "amd64_fam17h_zen2"
#define ZEN3 "amd64_fam19h_zen3"
#define ZEN4 "amd64_fam19h_zen4"
#define ALL NULL

/* AMD core PERF_CTL layout: event 0-7 and 32-35, umask 8-15. */
#define C(code, umask) ((((code) & 0xffULL) | ((uint64_t)(umask) << 8) | (((code) >> 8) & 0xfULL) << 32))
#define RAW PERF_TYPE_RAW
#define SW PERF_TYPE_SOFTWARE

struct enc_case {
	int line;
	const char *pmu; /* LIBPFM_FORCE_PMU it holds for; NULL: every Zen PMU */
	const char *spec;
	int ret;
	uint32_t type;
	uint64_t config;
};

static const struct enc_case cases[] = {
	/* uProf predefined names: the reference's PMCx code[:umask] on every Zen */
	{ __LINE__, ALL, "CYCLES_NOT_IN_HALT", 0, RAW, C(0x076, 0x00) },
	{ __LINE__, ALL, "RETIRED_INST", 0, RAW, C(0x0c0, 0x00) },
	{ __LINE__, ALL, "RETIRED_MACRO_OPS", 0, RAW, C(0x0c1, 0x00) },
	{ __LINE__, ALL, "RETIRED_BR_INST", 0, RAW, C(0x0c2, 0x00) },
	{ __LINE__, ALL, "RETIRED_BR_INST_MISP", 0, RAW, C(0x0c3, 0x00) },
	{ __LINE__, ALL, "RETIRED_SSE_AVX_FLOPS", 0, RAW, C(0x003, 0x0f) },
	{ __LINE__, ALL, "L1_DC_ACCESSES_ALL", 0, RAW, C(0x029, 0x07) },
	{ __LINE__, ALL, "MISALIGNED_LOADS", 0, RAW, C(0x047, 0x03) },
	{ __LINE__, ALL, "INEFFECTIVE_SW_PF", 0, RAW, C(0x052, 0x03) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_LOCAL_L2", 0, RAW, C(0x043, 0x01) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_LOCAL_CACHE", 0, RAW, C(0x043, 0x02) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_LOCAL", 0, RAW, C(0x043, 0x04) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_LOCAL_DRAM", 0, RAW, C(0x043, 0x08) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_REMOTE", 0, RAW, C(0x043, 0x10) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_REMOTE_DRAM", 0, RAW, C(0x043, 0x40) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_LOCAL", 0, RAW, C(0x043, 0x0f) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_REMOTE", 0, RAW, C(0x043, 0x50) },
	{ __LINE__, ALL, "L1_DEMAND_DC_REFILLS_ALL", 0, RAW, C(0x043, 0x5f) },
	{ __LINE__, ALL, "L1_DTLB_MISSES", 0, RAW, C(0x045, 0xff) },
	{ __LINE__, ALL, "L2_DTLB_MISSES", 0, RAW, C(0x045, 0xf0) },
	{ __LINE__, ALL, "L1_ITLB_MISSES_L2_HITS", 0, RAW, C(0x084, 0x00) },
	{ __LINE__, ALL, "L2_ITLB_MISSES", 0, RAW, C(0x085, 0x07) },
	{ __LINE__, ALL, "L2_CACHE_ACCESS_FROM_L1_IC_MISS", 0, RAW, C(0x060, 0x10) },
	{ __LINE__, ALL, "L2_CACHE_ACCESS_FROM_L1_DC_MISS", 0, RAW, C(0x060, 0xe8) },
	{ __LINE__, ALL, "L2_CACHE_MISS_FROM_L1_IC_MISS", 0, RAW, C(0x064, 0x01) },
	{ __LINE__, ALL, "L2_CACHE_MISS_FROM_L1_DC_MISS", 0, RAW, C(0x064, 0x08) },
	{ __LINE__, ALL, "IC_TAG_ALL_IC_ACCESS", 0, RAW, C(0x18e, 0x1f) },
	{ __LINE__, ALL, "IC_TAG_IC_MISS", 0, RAW, C(0x18e, 0x18) },
	{ __LINE__, ALL, "OP_CACHE_ALL_ACCESS", 0, RAW, C(0x28f, 0x07) },
	{ __LINE__, ALL, "OP_CACHE_MISS", 0, RAW, C(0x28f, 0x04) },
	/* other spellings of the same */
	{ __LINE__, ALL, "cycles-not-in-halt", 0, RAW, C(0x076, 0x00) },
	{ __LINE__, ALL, "retired-inst", 0, RAW, C(0x0c0, 0x00) },
	{ __LINE__, ALL, "Retired_Br_Inst_Misp", 0, RAW, C(0x0c3, 0x00) },
	{ __LINE__, ALL, "event=RETIRED_INST", 0, RAW, C(0x0c0, 0x00) },
	{ __LINE__, ALL, "pmcx76", 0, RAW, C(0x076, 0x00) },
	{ __LINE__, ALL, "PMCx076", 0, RAW, C(0x076, 0x00) },
	{ __LINE__, ALL, "event=pmcx0c0", 0, RAW, C(0x0c0, 0x00) },
	{ __LINE__, ALL, "event=0x43,umask=0x0f", 0, RAW, C(0x043, 0x0f) },
	{ __LINE__, ALL, "event=pmcx18e,umask=0x1f", 0, RAW, C(0x18e, 0x1f) },
	{ __LINE__, ALL, "event=pmcx28f,umask=7", 0, RAW, C(0x28f, 0x07) },
	{ __LINE__, ALL, "event=pmcx76,inv=1,cmask=0x2", 0, RAW, C(0x076, 0) | 1ULL << 23 | 2ULL << 24 },
	{ __LINE__, ALL, "event=pmcx76,edge=1", 0, RAW, C(0x076, 0) | 1ULL << 18 },
	{ __LINE__, ALL, "event=pmcxfff", 0, RAW, C(0xfff, 0) },
	/* software events and the timer */
	{ __LINE__, ALL, "task-clock", 0, SW, PERF_COUNT_SW_TASK_CLOCK },
	{ __LINE__, ALL, "cpu-clock", 0, SW, PERF_COUNT_SW_CPU_CLOCK },
	{ __LINE__, ALL, "context-switches", 0, SW, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ __LINE__, ALL, "cs", 0, SW, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ __LINE__, ALL, "cpu-migrations", 0, SW, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ __LINE__, ALL, "page-faults", 0, SW, PERF_COUNT_SW_PAGE_FAULTS },
	{ __LINE__, ALL, "event=page-faults,user=1,os=0", 0, SW, PERF_COUNT_SW_PAGE_FAULTS },
	{ __LINE__, ALL, "event=timer,interval=0.5", 0, SW, PERF_COUNT_SW_CPU_CLOCK },
	/* libpfm4's names for the same codes, family by family */
	{ __LINE__, ALL, "CYCLES_NOT_IN_HALT:u:k", 0, RAW, C(0x076, 0x00) },
	{ __LINE__, ALL, "RETIRED_INSTRUCTIONS", 0, RAW, C(0x0c0, 0x00) },
	{ __LINE__, ZEN2, "RETIRED_UOPS", 0, RAW, C(0x0c1, 0x00) },
	{ __LINE__, ZEN3, "RETIRED_OPS", 0, RAW, C(0x0c1, 0x00) },
	{ __LINE__, ZEN4, "RETIRED_OPS", 0, RAW, C(0x0c1, 0x00) },
	{ __LINE__, ALL, "RETIRED_BRANCH_INSTRUCTIONS", 0, RAW, C(0x0c2, 0x00) },
	{ __LINE__, ALL, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 0, RAW, C(0x0c3, 0x00) },
	{ __LINE__, ALL, "RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS:MULT_FLOPS:DIV_FLOPS:MAC_FLOPS", 0, RAW, C(0x003, 0x0f) },
	{ __LINE__, ALL, "LS_DISPATCH:LD_ST_DISPATCH:STORE_DISPATCH:LD_DISPATCH", 0, RAW, C(0x029, 0x07) },
	/* Zen2's libpfm4 table has no unit masks for 0x47 (the PPR's Zen2 event counts both) */
	{ __LINE__, ZEN2, ZEN2 "::MISALIGNED_LOADS", 0, RAW, C(0x047, 0x00) },
	{ __LINE__, ZEN3, "MISALIGNED_LOADS:MA4K:MA64", 0, RAW, C(0x047, 0x03) },
	{ __LINE__, ZEN4, "MISALIGNED_LOADS:MA4K:MA64", 0, RAW, C(0x047, 0x03) },
	{ __LINE__, ALL, "INEFFECTIVE_SOFTWARE_PREFETCH:MAB_MCH_CNT:DATA_PIPE_SW_PF_DC_HIT", 0, RAW, C(0x052, 0x03) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:MABRESP_LCL_L2", 0, RAW, C(0x043, 0x01) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_CACHE", 0, RAW, C(0x043, 0x02) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_LCL_DRAM", 0, RAW, C(0x043, 0x08) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_RMT_CACHE", 0, RAW, C(0x043, 0x10) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_RMT_DRAM", 0, RAW, C(0x043, 0x40) },
	{ __LINE__, ZEN2, "DATA_CACHE_REFILLS_FROM_SYSTEM:LS_MABRESP_RMT_CACHE:LS_MABRESP_RMT_DRAM", 0, RAW, C(0x043, 0x50) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2", 0, RAW, C(0x043, 0x01) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:INT_CACHE", 0, RAW, C(0x043, 0x02) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_LCL", 0, RAW, C(0x043, 0x04) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL", 0, RAW, C(0x043, 0x08) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT", 0, RAW, C(0x043, 0x10) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_RMT", 0, RAW, C(0x043, 0x40) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL", 0, RAW, C(0x043, 0x0f) },
	{ __LINE__, ZEN3, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:EXT_CACHE_RMT:MEM_IO_RMT", 0, RAW, C(0x043, 0x50) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2", 0, RAW, C(0x043, 0x01) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LOCAL_CCX", 0, RAW, C(0x043, 0x02) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:NEAR_CACHE_NEAR_FAR", 0, RAW, C(0x043, 0x04) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_NEAR", 0, RAW, C(0x043, 0x08) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:FAR_CACHE_NEAR_FAR", 0, RAW, C(0x043, 0x10) },
	{ __LINE__, ZEN4, "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:DRAM_IO_FAR", 0, RAW, C(0x043, 0x40) },
	{ __LINE__, ALL, "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_1G_L2_HIT:TLB_RELOAD_2M_L2_HIT:TLB_RELOAD_COALESCED_PAGE_HIT:TLB_RELOAD_4K_L2_HIT", 0, RAW, C(0x045, 0xff) },
	{ __LINE__, ALL, "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_MISS:TLB_RELOAD_4K_L2_MISS", 0, RAW, C(0x045, 0xf0) },
	{ __LINE__, ALL, "L1_ITLB_MISS_L2_ITLB_HIT", 0, RAW, C(0x084, 0x00) },
	{ __LINE__, ALL, "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", 0, RAW, C(0x085, 0x07) },
	{ __LINE__, ALL, "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ", 0, RAW, C(0x060, 0x10) },
	{ __LINE__, ALL, "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:LS_RD_BLK_C_S:CHANGE_TO_X", 0, RAW, C(0x060, 0xe8) },
	{ __LINE__, ALL, "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS", 0, RAW, C(0x064, 0x01) },
	{ __LINE__, ALL, "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C", 0, RAW, C(0x064, 0x08) },
	/* libpfm4 has no IC tag / op cache events for Zen2 */
	{ __LINE__, ZEN2, "IC_TAG_HIT_MISS:ALL_IC_ACCESS", -ENOENT, 0, 0 },
	{ __LINE__, ZEN3, "IC_TAG_HIT_MISS:ALL_IC_ACCESS", 0, RAW, C(0x18e, 0x1f) },
	{ __LINE__, ZEN4, "IC_TAG_HIT_MISS:ALL_IC_ACCESS", 0, RAW, C(0x18e, 0x1f) },
	{ __LINE__, ZEN3, "IC_TAG_HIT_MISS:IC_MISS", 0, RAW, C(0x18e, 0x18) },
	{ __LINE__, ZEN4, "IC_TAG_HIT_MISS:IC_MISS", 0, RAW, C(0x18e, 0x18) },
	{ __LINE__, ZEN3, "OP_CACHE_HIT_MISS:ALL_OC_ACCESS", 0, RAW, C(0x28f, 0x07) },
	{ __LINE__, ZEN4, "OP_CACHE_HIT_MISS:ALL_OC_ACCESS", 0, RAW, C(0x28f, 0x07) },
	{ __LINE__, ZEN3, "OP_CACHE_HIT_MISS:OC_MISS", 0, RAW, C(0x28f, 0x04) },
	{ __LINE__, ZEN4, "OP_CACHE_HIT_MISS:OC_MISS", 0, RAW, C(0x28f, 0x04) },
	/* codes the configs use without a uProf name */
	{ __LINE__, ALL, "BAD_STATUS_2:STLI_OTHER", 0, RAW, C(0x024, 0x02) },
	{ __LINE__, ALL, "FP_DISPATCH_FAULTS:XMM_FILL_FAULT:YMM_FILL_FAULT:YMM_SPILL_FAULT", 0, RAW, C(0x00e, 0x0e) },
	{ __LINE__, ALL, "RETIRED_TAKEN_BRANCH_INSTRUCTIONS", 0, RAW, C(0x0c4, 0x00) },
	{ __LINE__, ALL, "RETIRED_TAKEN_BRANCH_INSTRUCTIONS_MISPREDICTED", 0, RAW, C(0x0c5, 0x00) },
	{ __LINE__, ALL, "RETIRED_NEAR_RETURNS", 0, RAW, C(0x0c8, 0x00) },
	{ __LINE__, ALL, "RETIRED_NEAR_RETURNS_MISPREDICTED", 0, RAW, C(0x0c9, 0x00) },
	{ __LINE__, ALL, "RETIRED_INDIRECT_BRANCH_INSTRUCTIONS_MISPREDICTED", 0, RAW, C(0x0ca, 0x00) },
	{ __LINE__, ZEN2, "ITLB_FETCH_HIT:IF1G:IF2M:IF4K", 0, RAW, C(0x094, 0x07) },
	{ __LINE__, ZEN3, "L1_ITLB_FETCH_HIT:IF1G:IF2M:IF4K", 0, RAW, C(0x094, 0x07) },
	{ __LINE__, ZEN4, "L1_ITLB_FETCH_HIT:IF1G:IF2M:IF4K", 0, RAW, C(0x094, 0x07) },
	{ __LINE__, ZEN3, ZEN3 "::RETIRED_INSTRUCTIONS", 0, RAW, C(0x0c0, 0x00) },
	/* errors */
	{ __LINE__, ALL, "", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "NO_SUCH_EVENT", -ENOENT, 0, 0 },
	{ __LINE__, ALL, "event=NO_SUCH_EVENT,interval=10", -ENOENT, 0, 0 },
	{ __LINE__, ALL, "event=RETIRED_INST,umask=1", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "pmcx1000", -ERANGE, 0, 0 },
	{ __LINE__, ALL, "pmcxzz", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,umask=0x100", -ERANGE, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,cmask=0x80", -ERANGE, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,user=2", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,user=0,os=0", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,bogus=1", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,,os=0", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,interval=0", -ERANGE, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,interval=-1", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,interval=10,frequency=100", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,frequency=100", 0, RAW, C(0x076, 0) },
	/* frequency= is for core PMC events (uProf 5.x); the timer's interval= is in ms */
	{ __LINE__, ALL, "event=timer,frequency=100", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=page-faults,frequency=100", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=pmcx76,event=pmcx76", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "umask=3", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=task-clock,umask=1", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "event=timer,interval=0", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "RETIRED_INSTRUCTIONS:NOSUCHUMASK", -EINVAL, 0, 0 },
	{ __LINE__, ALL, "amd_l3/event=0x4/", -ENODEV, 0, 0 },
	{ __LINE__, ALL, "event=0x4,pmu=amd_df", -ENODEV, 0, 0 },
	{ __LINE__, ALL, "ibs-op", -ENODEV, 0, 0 },
};

/* libpfm4 keeps per-event state across pfm_terminate(), so each forced PMU gets a fresh
 * process: fork, set the environment, run @fn, exit with the number of failures. */
static int in_child(const char *pmu, int (*fn)(const char *pmu))
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
		fflush(stdout);
		_exit(fn(pmu) & 0x7f);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 127;
	return WEXITSTATUS(status);
}

static int check_case(const struct enc_case *c, const char *pmu)
{
	struct pmc_event ev;
	char err[256];
	int ret = pmc_event_parse(c->spec, strlen(c->spec), NULL, &ev, err, sizeof(err));

	if (ret != c->ret) {
		print_error("line %d [%s] '%s': returned %d, expected %d (%s)\n", c->line, pmu,
			    c->spec, ret, c->ret, err);
		return 1;
	}
	if (!ret && (ev.attr.type != c->type || ev.attr.config != c->config)) {
		print_error("line %d [%s] '%s': type %u config %#llx, expected type %u config %#llx\n",
			    c->line, pmu, c->spec, ev.attr.type, (unsigned long long)ev.attr.config,
			    c->type, (unsigned long long)c->config);
		return 1;
	}
	if (ret && !err[0]) {
		print_error("line %d [%s] '%s': error without a message\n", c->line, pmu, c->spec);
		return 1;
	}
	return 0;
}

static int table_for(const char *pmu)
{
	int bad = 0, n = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].pmu && strcmp(cases[i].pmu, pmu))
			continue;
		bad += check_case(&cases[i], pmu);
		n++;
	}
	if (n < 100) {
		print_error("[%s]: only %d entries\n", pmu, n);
		bad++;
	}
	return bad;
}

static void run_table(void **state)
{
	assert_int_equal(in_child(*state, table_for), 0);
}

/* Every predefined event is in the table (so a new one cannot slip in untested). */
static void test_table_covers_predefined(void **state)
{
	const struct pmc_predef *p;

	(void)state;
	for (size_t i = 0; (p = pmc_predef_at(i)); i++) {
		bool found = false;

		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]) && !found; k++)
			found = !strcmp(cases[k].spec, p->name) && !cases[k].ret &&
				cases[k].config == C(p->code, p->umask);
		if (!found)
			print_error("predefined %s has no table entry\n", p->name);
		assert_true(found);
	}
}

/* ---- the configs: every [event.N] spec, its code and interval, in order ---- */

struct cfg_event {
	int line;
	const char *config;
	uint64_t config_word;
	uint64_t interval;
};

#define M 1000000
#define K 1000
static const struct cfg_event cfg_events[] = {
	{ __LINE__, "assess", C(0x76, 0), 1 * M },
	{ __LINE__, "assess", C(0xc0, 0), 1 * M },
	{ __LINE__, "assess", C(0xc2, 0), 500 * K },
	{ __LINE__, "assess", C(0xc3, 0), 500 * K },
	{ __LINE__, "assess", C(0x29, 0x07), 1 * M },
	{ __LINE__, "assess", C(0x60, 0xe8), 100 * K },
	{ __LINE__, "assess", C(0x43, 0x0f), 100 * K },
	{ __LINE__, "assess", C(0x43, 0x50), 100 * K },
	{ __LINE__, "assess", C(0x47, 0x03), 100 * K },
	{ __LINE__, "assess_ext", C(0x76, 0), 1 * M },
	{ __LINE__, "assess_ext", C(0xc0, 0), 1 * M },
	{ __LINE__, "assess_ext", C(0xc2, 0), 500 * K },
	{ __LINE__, "assess_ext", C(0xc3, 0), 500 * K },
	{ __LINE__, "assess_ext", C(0x29, 0x07), 1 * M },
	{ __LINE__, "assess_ext", C(0x60, 0xe8), 100 * K },
	{ __LINE__, "assess_ext", C(0x47, 0x03), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x40), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x10), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x08), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x04), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x02), 100 * K },
	{ __LINE__, "assess_ext", C(0x43, 0x01), 100 * K },
	{ __LINE__, "assess_ext", C(0x24, 0x02), 100 * K },
	{ __LINE__, "assess_ext", C(0x52, 0x03), 100 * K },
	{ __LINE__, "assess_ext", C(0x0e, 0x0e), 100 * K },
	{ __LINE__, "branch", C(0x76, 0), 1 * M },
	{ __LINE__, "branch", C(0xc0, 0), 1 * M },
	{ __LINE__, "branch", C(0xc2, 0), 500 * K },
	{ __LINE__, "branch", C(0xc3, 0), 500 * K },
	{ __LINE__, "branch", C(0xc4, 0), 500 * K },
	{ __LINE__, "branch", C(0xc5, 0), 500 * K },
	{ __LINE__, "branch", C(0xc8, 0), 250 * K },
	{ __LINE__, "branch", C(0xc9, 0), 250 * K },
	{ __LINE__, "branch", C(0xca, 0), 250 * K },
	{ __LINE__, "cpi", C(0x76, 0), 1 * M },
	{ __LINE__, "cpi", C(0xc0, 0), 1 * M },
	{ __LINE__, "data_access", C(0x76, 0), 1 * M },
	{ __LINE__, "data_access", C(0xc0, 0), 1 * M },
	{ __LINE__, "data_access", C(0x29, 0x07), 1 * M },
	{ __LINE__, "data_access", C(0x60, 0xe8), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x40), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x10), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x08), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x04), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x02), 100 * K },
	{ __LINE__, "data_access", C(0x43, 0x01), 100 * K },
	{ __LINE__, "data_access", C(0x47, 0x03), 100 * K },
	{ __LINE__, "data_access", C(0x45, 0xff), 100 * K },
	{ __LINE__, "data_access", C(0x45, 0xf0), 50 * K },
	{ __LINE__, "inst_access", C(0x76, 0), 1 * M },
	{ __LINE__, "inst_access", C(0xc0, 0), 1 * M },
	{ __LINE__, "inst_access", C(0x28f, 0x07), 250 * K },
	{ __LINE__, "inst_access", C(0x28f, 0x04), 250 * K },
	{ __LINE__, "inst_access", C(0x18e, 0x1f), 250 * K },
	{ __LINE__, "inst_access", C(0x18e, 0x18), 250 * K },
	{ __LINE__, "inst_access", C(0x60, 0x10), 25 * K },
	{ __LINE__, "inst_access", C(0x64, 0x01), 25 * K },
	{ __LINE__, "inst_access", C(0x84, 0x00), 25 * K },
	{ __LINE__, "inst_access", C(0x85, 0x07), 25 * K },
	{ __LINE__, "inst_access", C(0x94, 0x07), 25 * K },
};

struct spec_list {
	char spec[64][256];
	int n;
};

static int collect_spec(void *user, const char *section, const char *name, const char *value)
{
	struct spec_list *l = user;

	if (!strncmp(section, "event.", 6) && !strcmp(name, "spec") && l->n < 64)
		snprintf(l->spec[l->n++], sizeof(l->spec[0]), "%s", value);
	return 1;
}

static int check_config(const char *name, const char *pmu)
{
	static struct spec_list l;
	const char *dir = getenv("UPROF_CONFIG_DIR") ? getenv("UPROF_CONFIG_DIR") : "configs";
	char path[512];
	int k = 0, bad = 0;

	memset(&l, 0, sizeof(l));
	snprintf(path, sizeof(path), "%s/%s.ini", dir, name);
	if (ini_parse(path, collect_spec, &l)) {
		print_error("%s: cannot read\n", path);
		return 1;
	}
	for (size_t i = 0; i < sizeof(cfg_events) / sizeof(cfg_events[0]); i++) {
		const struct cfg_event *c = &cfg_events[i];
		struct pmc_event ev;
		char err[256];

		if (strcmp(c->config, name))
			continue;
		if (k >= l.n) {
			print_error("line %d: %s.ini has only %d events\n", c->line, name, l.n);
			return bad + 1;
		}
		if (pmc_event_parse(l.spec[k], strlen(l.spec[k]), NULL, &ev, err, sizeof(err))) {
			print_error("line %d [%s]: %s event %d '%s': %s\n", c->line, pmu, name, k,
				    l.spec[k], err);
			bad++;
		} else if (ev.attr.config != c->config_word || ev.interval != c->interval) {
			print_error("line %d [%s]: %s event %d '%s': config %#llx interval %llu, "
				    "expected %#llx %llu\n",
				    c->line, pmu, name, k, l.spec[k], (unsigned long long)ev.attr.config,
				    (unsigned long long)ev.interval, (unsigned long long)c->config_word,
				    (unsigned long long)c->interval);
			bad++;
		}
		k++;
	}
	if (k != l.n) { /* an event in the file that the reference lacks */
		print_error("%s.ini has %d events, the reference %d\n", name, l.n, k);
		bad++;
	}
	return bad;
}

static int configs_for(const char *pmu)
{
	static const char *const names[] = { "assess", "assess_ext", "branch", "cpi",
					     "data_access", "inst_access" };
	int bad = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		bad += check_config(names[i], pmu);
	return bad;
}

/* libpfm4's modifiers reach the attr (sized, as libpfm's struct ABI wants): privilege
 * levels, cmask/inv, guest/host, excl; period= becomes the event's interval. On Intel's
 * Ice Lake, ldlat= is config1, past the first ABI's config. */
struct mod_case {
	int line;
	const char *pmu, *spec;
	uint64_t config, config1, interval;
	unsigned excl_user, excl_kernel, excl_hv, excl_guest, excl_host, exclusive;
};

static const struct mod_case mod_cases[] = {
	{ __LINE__, ZEN3, "RETIRED_INSTRUCTIONS:u", 0xc0, 0, 0, 0, 1, 1, 1, 0, 0 },
	{ __LINE__, ZEN3, "RETIRED_INSTRUCTIONS:k:c=2:i", 0x28000c0, 0, 0, 1, 0, 1, 1, 0, 0 },
	{ __LINE__, ZEN3, "RETIRED_INSTRUCTIONS:mg", 0xc0, 0, 0, 0, 0, 1, 0, 1, 0 },
	{ __LINE__, ZEN3, "RETIRED_INSTRUCTIONS:excl", 0xc0, 0, 0, 0, 0, 1, 1, 0, 1 },
	{ __LINE__, ZEN3, "RETIRED_INSTRUCTIONS:period=1000", 0xc0, 0, 1000, 0, 0, 1, 1, 0, 0 },
	{ __LINE__, "icl", "MEM_TRANS_RETIRED:LOAD_LATENCY:ldlat=5", 0x1cd, 5, 0, 0, 0, 0, 1, 0,
	  0 },
};

static int modifiers_for(const char *pmu)
{
	int bad = 0;

	for (size_t i = 0; i < sizeof(mod_cases) / sizeof(mod_cases[0]); i++) {
		const struct mod_case *c = &mod_cases[i];
		const struct perf_event_attr *a;
		struct pmc_event ev;
		char err[256];

		if (strcmp(c->pmu, pmu))
			continue;
		if (pmc_event_parse(c->spec, strlen(c->spec), NULL, &ev, err, sizeof(err))) {
			print_error("line %d '%s': %s\n", c->line, c->spec, err);
			bad++;
			continue;
		}
		a = &ev.attr;
		if (a->size != sizeof(*a) || a->config != c->config || a->config1 != c->config1 ||
		    ev.interval != c->interval || a->sample_period || a->freq ||
		    a->exclude_user != c->excl_user || a->exclude_kernel != c->excl_kernel ||
		    a->exclude_hv != c->excl_hv || a->exclude_guest != c->excl_guest ||
		    a->exclude_host != c->excl_host || a->exclusive != c->exclusive) {
			print_error("line %d '%s': size %u config %#llx config1 %#llx interval %llu "
				    "period %llu u/k/hv/guest/host/excl %u%u%u%u%u%u\n",
				    c->line, c->spec, a->size, (unsigned long long)a->config,
				    (unsigned long long)a->config1, (unsigned long long)ev.interval,
				    (unsigned long long)a->sample_period, a->exclude_user,
				    a->exclude_kernel, a->exclude_hv, a->exclude_guest, a->exclude_host,
				    a->exclusive);
			bad++;
		}
	}
	return bad;
}

static void test_libpfm_modifiers(void **state)
{
	assert_int_equal(in_child(*state, modifiers_for), 0);
}

/* pmc_pfm_umasks (info --pmu-event) against libpfm4's encoder: every unit mask it lists
 * for every event of the PMU encodes, as PMU::EVENT:UMASK, to the code it gave in the
 * umask bits of the config, and to the event's own code in the event bits. */
struct umask_walk {
	const char *pmu, *event;
	uint64_t code;
	int seen, bad;
};

static int check_umask(void *arg, const char *umask, uint64_t code, const char *desc, bool dfl)
{
	struct umask_walk *w = arg;
	char spec[256], err[256];
	struct pmc_event ev;

	(void)desc, (void)dfl;
	w->seen++;
	snprintf(spec, sizeof(spec), "%s::%s:%s", w->pmu, w->event, umask);
	if (pmc_event_parse(spec, strlen(spec), NULL, &ev, err, sizeof(err))) {
		print_error("'%s': %s\n", spec, err);
		w->bad++;
	} else if (((ev.attr.config >> 8) & 0xff) != code ||
		   (ev.attr.config & 0xff) != (w->code & 0xff)) {
		print_error("'%s': config %#llx, listed umask %#llx of event %#llx\n", spec,
			    (unsigned long long)ev.attr.config, (unsigned long long)code,
			    (unsigned long long)w->code);
		w->bad++;
	}
	return 0;
}

static int umasks_of_event(void *arg, const char *pmu, const char *event, uint64_t code,
			   const char *desc)
{
	struct umask_walk *w = arg;
	int n;

	(void)desc;
	w->pmu = pmu, w->event = event, w->code = code;
	n = pmc_pfm_umasks(pmu, event, check_umask, w);
	if (n < 0) {
		print_error("%s::%s: pmc_pfm_umasks %d\n", pmu, event, n);
		w->bad++;
	}
	return 0;
}

static int umasks_for(const char *pmu)
{
	struct umask_walk w = { 0 };
	int ret = pmc_pfm_list(umasks_of_event, &w);

	if (ret <= 0 || w.seen < 100) {
		print_error("[%s]: pmc_pfm_list %d, %d unit masks seen\n", pmu, ret, w.seen);
		w.bad++;
	}
	if (pmc_pfm_umasks(pmu, "NO_SUCH_EVENT", check_umask, &w) != -ENOENT) {
		print_error("[%s]: an unknown event is not -ENOENT\n", pmu);
		w.bad++;
	}
	return w.bad;
}

static void test_umasks(void **state)
{
	assert_int_equal(in_child(*state, umasks_for), 0);
}

static void test_configs(void **state)
{
	assert_int_equal(in_child(*state, configs_for), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_prestate(run_table, (void *)ZEN2),
		cmocka_unit_test_prestate(run_table, (void *)ZEN3),
		cmocka_unit_test_prestate(run_table, (void *)ZEN4),
		cmocka_unit_test(test_table_covers_predefined),
		cmocka_unit_test_prestate(test_configs, (void *)ZEN2),
		cmocka_unit_test_prestate(test_configs, (void *)ZEN3),
		cmocka_unit_test_prestate(test_configs, (void *)ZEN4),
		cmocka_unit_test_prestate(test_libpfm_modifiers, (void *)ZEN3),
		cmocka_unit_test_prestate(test_libpfm_modifiers, (void *)"icl"),
		cmocka_unit_test_prestate(test_umasks, (void *)ZEN2),
		cmocka_unit_test_prestate(test_umasks, (void *)ZEN3),
		cmocka_unit_test_prestate(test_umasks, (void *)ZEN4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
