// SPDX-License-Identifier: MIT
/*
 * lib/pmc/pcm_family.c and the shipped configs/pcm groups: the Zen generation of a CPUID
 * family/model, which file each of the nineteen groups reads per generation (or why it is
 * refused), and the formulas by arithmetic: known counts in (one CPU, not multiplexed,
 * one second), the exact metric out, per group and generation, each group parsed against
 * its generation's fake machine (tests/fixtures/sysfs, sysfs-zen4, sysfs-zen5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmc/pmc.h"

#define SEC 1000000000ll

static char root[PATH_MAX], configs[PATH_MAX + 16];
static struct pmc_pmus *pmus;
static struct pmc_groups gs;
static struct pmc_counter_info ci[64];
static struct pmc_count delta[64];
static struct pmc_cpus cpu0;
static struct pmc_group_input in;

static void zen_of_family_and_model(void **state)
{
	(void)state;
	assert_int_equal(pmc_zen_of(0x19, 0x01), PMC_ZEN3);	/* Milan */
	assert_int_equal(pmc_zen_of(0x19, 0x21), PMC_ZEN3);	/* Vermeer */
	assert_int_equal(pmc_zen_of(0x19, 0x50), PMC_ZEN3);	/* Cezanne */
	assert_int_equal(pmc_zen_of(0x19, 0x11), PMC_ZEN4);	/* Genoa */
	assert_int_equal(pmc_zen_of(0x19, 0x61), PMC_ZEN4);	/* Raphael */
	assert_int_equal(pmc_zen_of(0x19, 0xa0), PMC_ZEN4);	/* Bergamo */
	assert_int_equal(pmc_zen_of(0x1a, 0x02), PMC_ZEN5);	/* Turin */
	assert_int_equal(pmc_zen_of(0x17, 0x31), PMC_ZEN_NONE); /* Zen 2 */
	assert_int_equal(pmc_zen_of(0x6, 0x55), PMC_ZEN_NONE);
	assert_int_equal(pmc_zen_of(-1, -1), PMC_ZEN_NONE);
	assert_int_equal(pmc_zen_parse("zen4"), PMC_ZEN4);
	assert_int_equal(pmc_zen_parse("ZEN5"), PMC_ZEN5);
	assert_int_equal(pmc_zen_parse("zen2"), PMC_ZEN_NONE);
	assert_int_equal(pmc_zen_parse(""), PMC_ZEN_NONE);
}

/* Each generation: the group's file (zen<N>/ or common: "" ) or "-" for a refusal. */
static const struct {
	const char *name;
	const char *file[3]; /* Zen 3, 4, 5 */
} where[] = {
	{ "ipc", { "", "", "" } },
	{ "fp", { "", "", "" } },
	{ "l1", { "", "", "" } },
	{ "l2", { "", "", "" } },
	{ "l3", { "", "zen4/", "zen5/" } },
	{ "memory", { "", "zen4/", "zen5/" } },
	{ "dc", { "", "", "" } },
	{ "swpfdc", { "", "", "" } },
	{ "hwpfdc", { "", "", "" } },
	{ "tlb", { "", "", "" } },
	{ "cache_miss", { "", "", "" } },
	{ "pipeline_util", { "-", "zen4/", "zen5/" } },
	{ "avx_imix", { "-", "", "" } },
	{ "xgmi", { "zen3/", "zen4/", "zen5/" } },
	{ "pcie", { "-", "zen4/", "zen5/" } },
	{ "dma", { "-", "zen4/", "zen5/" } },
	{ "umc", { "-", "", "" } },
	{ "ccm_bw", { "-", "zen4/", "zen5/" } },
	{ "cxl", { "-", "-", "-" } },
};

static void nineteen_groups_per_generation(void **state)
{
	char path[PATH_MAX], want[PATH_MAX + 64], why[512];

	(void)state;
	assert_int_equal(pmc_pcm_group_count(), 19);
	assert_int_equal(sizeof(where) / sizeof(where[0]), 19);
	for (int i = 0; i < 19; i++) {
		assert_string_equal(pmc_pcm_group_at(i)->name, where[i].name);
		for (int z = PMC_ZEN3; z <= PMC_ZEN5; z++) {
			const char *f = where[i].file[z - PMC_ZEN3];
			int ret = pmc_pcm_group_path(configs, z, 0x19, where[i].name, path,
						     sizeof(path), why, sizeof(why));

			if (!strcmp(f, "-")) {
				assert_int_equal(ret, -EOPNOTSUPP);
				snprintf(want, sizeof(want),
					 "%s is not available on %s: ", where[i].name,
					 pmc_pcm_group_at(i)->zens ? pmc_zen_name(z) : "any Zen");
				assert_memory_equal(why, want, strlen(want));
				assert_true(strlen(why) > strlen(want) + 10); /* and why */
				continue;
			}
			assert_int_equal(ret, 0);
			snprintf(want, sizeof(want), "%s/pcm/%s%s.ini", configs, f, where[i].name);
			assert_string_equal(path, want);
		}
	}
	assert_null(pmc_pcm_group_at(19));
	assert_null(pmc_pcm_group_find("swi"));
	/* a CPU that is no Zen: common files (and uprof's own swi) only */
	assert_int_equal(pmc_pcm_group_path(configs, PMC_ZEN_NONE, 6, "swi", path, sizeof(path),
					    why, sizeof(why)),
			 0);
	assert_int_equal(pmc_pcm_group_path(configs, PMC_ZEN_NONE, 6, "dc", path, sizeof(path), why,
					    sizeof(why)),
			 0);
	assert_int_equal(pmc_pcm_group_path(configs, PMC_ZEN_NONE, 6, "pcie", path, sizeof(path),
					    why, sizeof(why)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(why, "--family"));
	assert_int_equal(pmc_pcm_group_path(configs, PMC_ZEN4, 0x19, "nosuch", path, sizeof(path),
					    why, sizeof(why)),
			 -ENOENT);
}

/* Load group @name of generation @zen against that generation's fake machine; every
 * event one counter on CPU 0 that counted nothing yet. */
static void load(int zen, const char *name)
{
	char path[PATH_MAX], err[1024];
	const char *sys = zen == PMC_ZEN3 ? "sysfs" : zen == PMC_ZEN4 ? "sysfs-zen4" : "sysfs-zen5";

	pmc_groups_release(&gs);
	pmc_pmus_free(pmus);
	pmus = NULL;
	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", root, sys);
	setenv("UPROF_SYSFS_ROOT", path, 1);
	assert_int_equal(pmc_pmus_load(&pmus), 0);
	memset(&gs, 0, sizeof(gs));
	assert_int_equal(
		pmc_pcm_group_path(configs, zen, -1, name, path, sizeof(path), err, sizeof(err)),
		0);
	if (pmc_groups_add(&gs, path, name, pmus, err, sizeof(err)))
		fail_msg("%s: %s", path, err);
	assert_true(pmc_evlist_nevents(gs.evl) <= 64);
	for (size_t i = 0; i < pmc_evlist_nevents(gs.evl); i++) {
		ci[i] = (struct pmc_counter_info){ .event = (int)i, .cpu = 0, .pid = -1 };
		delta[i] = (struct pmc_count){ 0, SEC, SEC };
	}
	in = (struct pmc_group_input){ .cinfo = ci,
				       .delta = delta,
				       .ncounters = pmc_evlist_nevents(gs.evl),
				       .cpus = &cpu0,
				       .ncpus = 1,
				       .measured = &cpu0,
				       .p0_mhz = 2000,
				       .elapsed_ns = SEC };
}

/* Event @name of the group counted @v. */
static void set(const char *name, uint64_t v)
{
	for (int i = 0; i < gs.nnames; i++)
		if (!strcmp(gs.names[i].name, name)) {
			assert_true(gs.names[i].event >= 0);
			delta[gs.names[i].event].value = v;
			return;
		}
	fail_msg("no event %s", name);
}

/* Metric @name's value. */
static double val(const char *name)
{
	for (int m = 0; m < gs.nmetrics; m++)
		if (!strcmp(gs.metrics[m].name, name))
			return pmc_groups_value(&gs, 0, m, &in);
	fail_msg("no metric %s", name);
	return NAN;
}

/* Equal to the last bits a different order of the same operations may round: 1e-12. */
static void eq(const char *metric, double want)
{
	double got = val(metric);

	if (!(fabs(got - want) <= 1e-12 * fmax(1, fabs(want))))
		fail_msg("%s: %.17g, want %.17g", metric, got, want);
}
#define EQ(metric, want) eq(metric, want)

static void fills_by_source(void **state)
{
	static const char *const groups[] = { "dc", "swpfdc", "hwpfdc" };
	static const char *const prefix[] = { "DC", "SW PF DC", "HW PF DC" };
	char m[96];

	(void)state;
	for (int z = PMC_ZEN3; z <= PMC_ZEN5; z++)
		for (int g = 0; g < 3; g++) {
			load(z, groups[g]);
			set("INST", 2000);
			set("FILL_L2", 100);
			set("FILL_CCX", 50);
			set("FILL_NEAR_CACHE", 20);
			set("FILL_NEAR_MEM", 30);
			set("FILL_FAR_CACHE", 10);
			set("FILL_FAR_MEM", 10);
			snprintf(m, sizeof(m), "All %s Fills (pti)", prefix[g]);
			EQ(m, 110); /* 220 fills per 2000 instructions */
			snprintf(m, sizeof(m), "%s Fills From Local L2 (pti)", prefix[g]);
			EQ(m, 50);
			snprintf(m, sizeof(m), "%s Fills From Near Memory or I/O (pti)", prefix[g]);
			EQ(m, 15);
			snprintf(m, sizeof(m), "%s Fills From Remote Memory or I/O (pti)",
				 prefix[g]);
			EQ(m, 5);
			EQ("Remote DRAM Reads %", 25); /* 10 of 40 DRAM fills */
		}
}

static void tlb_and_cache_miss(void **state)
{
	(void)state;
	for (int z = PMC_ZEN3; z <= PMC_ZEN5; z++) {
		load(z, "tlb");
		set("INST", 4000);
		set("ITLB_L1_MISS_L2_HIT", 12);
		set("ITLB_L2_MISS", 4);
		set("DTLB_L1_MISS", 40);
		set("DTLB_L2_MISS", 8);
		EQ("L1 ITLB Miss (pti)", 4); /* an L2 ITLB miss missed the L1 ITLB first */
		EQ("L2 ITLB Miss (pti)", 1);
		EQ("L1 DTLB Miss (pti)", 10);
		EQ("L2 DTLB Miss (pti)", 2);
		load(z, "cache_miss");
		set("INST", 10000);
		set("DC_ACCESS", 5000);
		set("DC_MISS", 250);
		set("L2_ACCESS_DC", 200);
		set("L2_MISS_DC", 50);
		set("L2_MISS_IC", 30);
		EQ("L1 DC Miss %", 5);
		EQ("L1 DC Miss (pti)", 25);
		EQ("L2 Miss (pti)", 8);
		EQ("L2 Miss From DC Miss %", 25);
	}
}

/* Top-down over 1000 cycles: 6 slots a cycle on Zen 4 (6000), 8 on Zen 5 (8000); the
 * four level-1 shares add up to 100 %. */
static void pipeline_util_slots(void **state)
{
	(void)state;
	for (int z = PMC_ZEN4; z <= PMC_ZEN5; z++) {
		double slots = z == PMC_ZEN4 ? 6000 : 8000, w = slots / 100;

		load(z, "pipeline_util");
		set("CYCLES", 1000);
		set("NO_DISP_FE", 20 * w);			/* 20 % */
		set("NO_DISP_FE_ALL", 10 * w / (slots / 1000)); /* 10 %: cycles x slots */
		set("NO_DISP_BE", 30 * w);
		set("NO_DISP_SMT", 5 * w);
		set("OPS_DISP", 50 * w); /* 40 % retired: 10 % bad speculation */
		set("OPS_RET", 40 * w);
		set("BR_MISP", 30);
		set("RESYNCS", 10);
		set("NO_RET_LOAD", 250);
		set("NO_RET_NOT_COMPLETE", 1000);
		set("UCODE_OPS_RET", 10 * w);
		EQ("Total_Dispatch_Slots", slots);
		EQ("SMT_Disp_contention", 5);
		EQ("Frontend_Bound", 20);
		EQ("Frontend_Bound.Latency", 10);
		EQ("Frontend_Bound.BW", 10);
		EQ("Bad_Speculation", 10);
		EQ("Bad_Speculation.Mispredicts", 7.5);
		EQ("Bad_Speculation.Pipeline_Restarts", 2.5);
		EQ("Backend_Bound", 30);
		EQ("Backend_Bound.Memory", 7.5);
		EQ("Backend_Bound.CPU", 22.5);
		EQ("Retiring", 40);
		EQ("Retiring.Fastpath", 30);
		EQ("Retiring.Microcode", 10);
		EQ("Frontend_Bound",
		   100 - val("Bad_Speculation") - val("Backend_Bound") - val("Retiring"));
	}
}

static void avx_imix_shares(void **state)
{
	(void)state;
	for (int z = PMC_ZEN4; z <= PMC_ZEN5; z++) {
		load(z, "avx_imix");
		set("INST", 1000);
		set("FP_X87", 10);
		set("FP_MMX", 0);
		set("FP_SCALAR", 90);
		set("FP_128", 50);
		set("FP_256", 30);
		set("FP_512", 20);
		EQ("FP Ops (pti)", 200);
		EQ("Scalar Ops %", 45);
		EQ("AVX (256-bit) Ops %", 15);
		EQ("AVX-512 Ops %", 10);
		EQ("MMX Ops %", 0);
	}
}

/* Bandwidth: count x bytes per beat over one second, in GB/s. */
static void fabric_and_umc_bandwidth(void **state)
{
	char ev[32], m[64];

	(void)state;
	load(PMC_ZEN3, "xgmi"); /* 32-byte packets */
	for (int l = 0; l < 4; l++) {
		snprintf(ev, sizeof(ev), "XGMI_OUT_%d", l);
		set(ev, 1000000000ull * (l + 1));
	}
	EQ("xGMI Outbound Data Bytes (GB/s)", 320);
	EQ("xGMI2 Outbound (GB/s)", 96);
	load(PMC_ZEN4, "xgmi"); /* 64-byte beats */
	set("XGMI_OUT_1", 500000000);
	EQ("xGMI Outbound Data Bytes (GB/s)", 32);
	for (int z = PMC_ZEN4; z <= PMC_ZEN5; z++) {
		load(z, "memory");
		for (int c = 0; c < 12; c++) {
			snprintf(ev, sizeof(ev), z == PMC_ZEN4 ? "RD_CS%d" : "RD_DRAM%d", c);
			set(ev, 100000000);
			snprintf(ev, sizeof(ev), z == PMC_ZEN4 ? "WR_CS%d" : "WR_DRAM%d", c);
			set(ev, 50000000);
		}
		EQ("Total Mem RdBw (GB/s)", 76.8); /* 12 x 6.4 */
		EQ("Total Mem WrBw (GB/s)", 38.4);
		EQ("Total Mem Bw (GB/s)", 115.2);
		EQ("Mem Ch-L RdBw (GB/s)", 6.4);
		load(z, "dma");
		set("DMA_RD_IO0", 1000000000);
		set("DMA_WR_IO3", 500000000);
		EQ("Total Upstream DMA Read Write Data Bytes (GB/s)", 96);
		EQ("Total Upstream DMA Write Data Bytes (GB/s)", 32);
		load(z, "pcie");
		set("DMA_RD_IO1", 250000000);
		EQ("PCIe1 Read (GB/s)", 16);
		EQ("PCIe0 Read (GB/s)", 0);
		load(z, "umc");
		for (int u = 0; u < 4; u++) {
			snprintf(ev, sizeof(ev), "UMC%d_RD", u);
			set(ev, 100000000ull * (u + 1));
		}
		snprintf(m, sizeof(m), "Umc-%d Est Mem RdBw (GB/s)", 3);
		EQ(m, 25.6);
		EQ("Umc-0 Est Mem WrBw (GB/s)", 0);
	}
	load(PMC_ZEN4, "ccm_bw"); /* reads in 32-byte beats, writes in 64-byte ones */
	set("CCM0_IN", 1000000000);
	set("CCM7_IN", 1000000000);
	set("CCM7_OUT", 1000000000);
	EQ("Total CCM Read Bw (GB/s)", 64);
	EQ("CCM7 Write Bw (GB/s)", 64);
	EQ("Total CCM Write Bw (GB/s)", 64);
	load(PMC_ZEN5, "xgmi"); /* six links, 64-byte beats */
	set("XGMI_OUT_5", 500000000);
	set("XGMI_OUT_0", 250000000);
	EQ("xGMI Outbound Data Bytes (GB/s)", 48);
	EQ("xGMI5 Outbound (GB/s)", 32);
	load(PMC_ZEN5, "ccm_bw"); /* sixteen CFIs: reads 32-byte beats, writes 64-byte */
	set("CFI15_RD", 1000000000);
	set("CFI8_WR", 500000000);
	EQ("Total CCM Read Bw (GB/s)", 32);
	EQ("CCM15 Read Bw (GB/s)", 32);
	EQ("Total CCM Write Bw (GB/s)", 32);
	EQ("CCM8 Write Bw (GB/s)", 32);
}

/* L3 per generation: Zen 3's miss latency counts 16 cycles a count (0x90 over 0x9a);
 * Zen 4 and 5 sample it (0xac over 0xad, one count per 10 cycles: perf's
 * l3_read_miss_latency), their sampled events on every core and slice of the complex. */
static void l3_latency_per_generation(void **state)
{
	static const struct {
		int zen;
		uint64_t lat_config, req_config, factor;
	} want[] = {
		{ PMC_ZEN3, 0x90, 0x3f9a, 16 },
		/* threadmask 3 (config:56-57), sliceid 3 (48-50), enallcores (47),
		 * enallslices (46): the kernel's amd_l3 format for family 19h and later */
		{ PMC_ZEN4, 0x0303c00000003facull, 0x0303c00000003fadull, 10 },
		{ PMC_ZEN5, 0x0303c00000003facull, 0x0303c00000003fadull, 10 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pmc_event *lat = NULL, *req = NULL;

		load(want[i].zen, "l3");
		for (int n = 0; n < gs.nnames; n++) {
			if (!strcmp(gs.names[n].name, "L3_MISS_LAT"))
				lat = pmc_evlist_event(gs.evl, gs.names[n].event);
			if (!strcmp(gs.names[n].name, "L3_MISS_REQ"))
				req = pmc_evlist_event(gs.evl, gs.names[n].event);
		}
		assert_non_null(lat);
		assert_non_null(req);
		assert_int_equal(lat->attr.config, want[i].lat_config);
		assert_int_equal(req->attr.config, want[i].req_config);
		assert_int_equal(lat->attr.config2, 0);
		set("L3_ACCESS", 4000);
		set("L3_MISS", 1000);
		set("L3_MISS_LAT", 30000);
		set("L3_MISS_REQ", 600);
		EQ("L3 Miss %", 25);
		EQ("L3 Hit %", 75);
		/* 30000 x factor / 600 cycles at 2000 MHz: 0.5 ns a cycle */
		EQ("Ave L3 Miss Latency (ns)", 30000.0 * want[i].factor / 600 / 2);
	}
}

/* A group's counter that never ran (multiplexed out) leaves its metrics empty, not 0. */
static void never_ran_is_empty(void **state)
{
	(void)state;
	load(PMC_ZEN4, "dc");
	set("INST", 1000);
	set("FILL_FAR_MEM", 7);
	for (int i = 0; i < gs.nnames; i++)
		if (!strcmp(gs.names[i].name, "FILL_NEAR_MEM"))
			delta[gs.names[i].event].running = 0;
	assert_true(isnan(val("Remote DRAM Reads %")));
	EQ("DC Fills From Remote Memory or I/O (pti)", 7);
}

/* Every core event of the shipped groups against libpfm4's own table for the forced PMU:
 * the group's raw cpu/event=,umask=/ (or uprof's predefined name) encodes to the config
 * libpfm gives the named event and unit masks. Zen 3 and Zen 4 (libpfm4 has no Zen 5). */
static const struct {
	const char *group, *event;
	const char *pfm[2]; /* Zen 3, Zen 4; NULL: the group is not on that generation */
} pfm_names[] = {
#define FILLS(g, E, n3, n4) \
	{ \
		g, E, \
		{ \
			n3, n4 \
		} \
	}
#define SRC(g, P, E, z3, z4) FILLS(g, E, P ":" z3, P ":" z4)
#define SIX(g, P) \
	SRC(g, P, "FILL_L2", "LCL_L2", "LCL_L2"), SRC(g, P, "FILL_CCX", "INT_CACHE", "LOCAL_CCX"), \
		SRC(g, P, "FILL_NEAR_CACHE", "EXT_CACHE_LCL", "NEAR_CACHE_NEAR_FAR"), \
		SRC(g, P, "FILL_NEAR_MEM", "MEM_IO_LCL", "DRAM_IO_NEAR"), \
		SRC(g, P, "FILL_FAR_CACHE", "EXT_CACHE_RMT", "FAR_CACHE_NEAR_FAR"), \
		SRC(g, P, "FILL_FAR_MEM", "MEM_IO_RMT", "DRAM_IO_FAR")
	SIX("dc", "ANY_DATA_CACHE_FILLS_FROM_SYSTEM"),
	SIX("swpfdc", "SOFTWARE_PREFETCH_DATA_CACHE_FILLS"),
	SIX("hwpfdc", "HARDWARE_PREFETCH_DATA_CACHE_FILLS"),
#define BOTH(g, E, n) \
	{ \
		g, E, \
		{ \
			n, n \
		} \
	}
	BOTH("tlb", "ITLB_L1_MISS_L2_HIT", "L1_ITLB_MISS_L2_ITLB_HIT"),
	BOTH("tlb", "ITLB_L2_MISS", "L1_ITLB_MISS_L2_ITLB_MISS:IF4K:IF2M:IF1G:COALESCED4K"),
	BOTH("tlb", "DTLB_L1_MISS",
	     "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_"
	     "MISS:TLB_RELOAD_4K_L2_MISS:TLB_RELOAD_1G_L2_HIT:TLB_RELOAD_2M_L2_HIT:TLB_RELOAD_"
	     "COALESCED_PAGE_HIT:TLB_RELOAD_4K_L2_HIT"),
	BOTH("tlb", "DTLB_L2_MISS",
	     "L1_DTLB_MISS:TLB_RELOAD_1G_L2_MISS:TLB_RELOAD_2M_L2_MISS:TLB_RELOAD_COALESCED_PAGE_"
	     "MISS:TLB_RELOAD_4K_L2_MISS"),
	BOTH("cache_miss", "DC_ACCESS", "LS_DISPATCH:LD_ST_DISPATCH:STORE_DISPATCH:LD_DISPATCH"),
	FILLS("cache_miss", "DC_MISS",
	      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_"
	      "CACHE_RMT:MEM_IO_RMT",
	      "DEMAND_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:LOCAL_CCX:NEAR_CACHE_NEAR_FAR:DRAM_IO_"
	      "NEAR:FAR_CACHE_NEAR_FAR:DRAM_IO_FAR"),
	BOTH("cache_miss", "L2_ACCESS_DC",
	     "REQUESTS_TO_L2_GROUP1:RD_BLK_L:RD_BLK_X:LS_RD_BLK_C_S:CHANGE_TO_X"),
	BOTH("cache_miss", "L2_MISS_DC", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C"),
	BOTH("cache_miss", "L2_MISS_IC", "CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:IC_FILL_MISS"),
#define ZEN4(g, E, n) \
	{ \
		g, E, \
		{ \
			NULL, n \
		} \
	}
	ZEN4("pipeline_util", "NO_DISP_FE", "DISPATCH_STALLS_1:FE_NO_OPS"),
	ZEN4("pipeline_util", "NO_DISP_FE_ALL", "DISPATCH_STALLS_1:FE_NO_OPS:c=6"),
	ZEN4("pipeline_util", "NO_DISP_BE", "DISPATCH_STALLS_1:BE_STALLS"),
	ZEN4("pipeline_util", "NO_DISP_SMT", "DISPATCH_STALLS_1:SMT_CONTENTION"),
	ZEN4("pipeline_util", "OPS_DISP",
	     "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER"),
	ZEN4("pipeline_util", "OPS_RET", "RETIRED_OPS"),
	ZEN4("pipeline_util", "BR_MISP", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED"),
	ZEN4("pipeline_util", "RESYNCS", "RESYNCS"),
	ZEN4("pipeline_util", "NO_RET_LOAD", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD"),
	ZEN4("pipeline_util", "NO_RET_NOT_COMPLETE", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU"),
	ZEN4("pipeline_util", "UCODE_OPS_RET", "RETIRED_UCODE_OPS"),
	ZEN4("avx_imix", "FP_X87", "RETIRED_FP_OPS_BY_WIDTH:X87_UOPS_RETIRED"),
	ZEN4("avx_imix", "FP_MMX", "RETIRED_FP_OPS_BY_WIDTH:MMX_UOPS_RETIRED"),
	ZEN4("avx_imix", "FP_SCALAR", "RETIRED_FP_OPS_BY_WIDTH:SCALAR_UOPS_RETIRED"),
	ZEN4("avx_imix", "FP_128", "RETIRED_FP_OPS_BY_WIDTH:PACK128_UOPS_RETIRED"),
	ZEN4("avx_imix", "FP_256", "RETIRED_FP_OPS_BY_WIDTH:PACK256_UOPS_RETIRED"),
	ZEN4("avx_imix", "FP_512", "RETIRED_FP_OPS_BY_WIDTH:PACK512_UOPS_RETIRED"),
};

/* In a child (libpfm4 keeps its forced PMU for the process): the number of mismatches. */
static int pfm_check(int zen, const char *pmu)
{
	int bad = 0, n = 0;

	setenv("LIBPFM_FORCE_PMU", pmu, 1);
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	for (size_t i = 0; i < sizeof(pfm_names) / sizeof(pfm_names[0]); i++) {
		const char *name = pfm_names[i].pfm[zen - PMC_ZEN3];
		struct pmc_event ev;
		char err[256];
		int idx = -1;

		if (!name)
			continue;
		load(zen, pfm_names[i].group);
		for (int k = 0; k < gs.nnames; k++)
			if (!strcmp(gs.names[k].name, pfm_names[i].event))
				idx = gs.names[k].event;
		if (idx < 0 || pmc_event_parse(name, strlen(name), NULL, &ev, err, sizeof(err))) {
			print_error("%s %s:%s: no such event, or '%s': %s\n", pmu,
				    pfm_names[i].group, pfm_names[i].event, name, err);
			bad++;
			continue;
		}
		n++;
		if (ev.attr.config != pmc_evlist_event(gs.evl, (size_t)idx)->attr.config) {
			print_error("%s %s:%s: config %#llx, libpfm4's %s %#llx\n", pmu,
				    pfm_names[i].group, pfm_names[i].event,
				    (unsigned long long)pmc_evlist_event(gs.evl, (size_t)idx)
					    ->attr.config,
				    name, (unsigned long long)ev.attr.config);
			bad++;
		}
	}
	return bad ? bad : n ? 0 : 1;
}

static void core_codes_are_libpfms(void **state)
{
	static const char *const pmu[2] = { "amd64_fam19h_zen3", "amd64_fam19h_zen4" };

	(void)state;
	for (int z = PMC_ZEN3; z <= PMC_ZEN4; z++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (!pid) {
			fflush(stdout);
			_exit(pfm_check(z, pmu[z - PMC_ZEN3]) & 0x7f);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

static int setup(void **state)
{
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";

	(void)state;
	if (!realpath(src, root))
		return -1;
	snprintf(configs, sizeof(configs), "%s/configs", root);
	pmc_cpus_clear(&cpu0);
	pmc_cpus_set(&cpu0, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmc_groups_release(&gs);
	pmc_pmus_free(pmus);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen_of_family_and_model),
		cmocka_unit_test(nineteen_groups_per_generation),
		cmocka_unit_test(fills_by_source),
		cmocka_unit_test(tlb_and_cache_miss),
		cmocka_unit_test(pipeline_util_slots),
		cmocka_unit_test(avx_imix_shares),
		cmocka_unit_test(fabric_and_umc_bandwidth),
		cmocka_unit_test(l3_latency_per_generation),
		cmocka_unit_test(never_ran_is_empty),
		cmocka_unit_test(core_codes_are_libpfms),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
