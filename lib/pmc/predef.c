// SPDX-License-Identifier: MIT
/*
 * uProf's predefined core PMC events (docs/reference/uprof-cli.md §3, Family 19h codes; the
 * same codes hold on Family 17h Zen2 except where noted in tests/unit/test_pmc_encode.c)
 * and perf's software events.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <string.h>

static const struct pmc_predef predef[] = {
	{ "CYCLES_NOT_IN_HALT", 0x076, 0x00, "Core cycles not in halt" },
	{ "RETIRED_INST", 0x0c0, 0x00, "Retired instructions" },
	{ "RETIRED_MACRO_OPS", 0x0c1, 0x00, "Retired macro-ops" },
	{ "RETIRED_BR_INST", 0x0c2, 0x00, "Retired branch instructions" },
	{ "RETIRED_BR_INST_MISP", 0x0c3, 0x00, "Retired branch instructions mispredicted" },
	{ "RETIRED_SSE_AVX_FLOPS", 0x003, 0x0f, "Retired SSE/AVX floating-point operations" },
	{ "L1_DC_ACCESSES_ALL", 0x029, 0x07, "L1 data cache accesses (loads and stores)" },
	{ "MISALIGNED_LOADS", 0x047, 0x03, "Misaligned loads" },
	{ "INEFFECTIVE_SW_PF", 0x052, 0x03, "Ineffective software prefetches" },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_L2", 0x043, 0x01, "Demand L1 DC refills from local L2" },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_CACHE", 0x043, 0x02,
	  "Demand L1 DC refills from another cache in the same CCX" },
	{ "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_LOCAL", 0x043, 0x04,
	  "Demand L1 DC refills from a cache in another CCX, same node" },
	{ "L1_DEMAND_DC_REFILLS_LOCAL_DRAM", 0x043, 0x08,
	  "Demand L1 DC refills from local DRAM or I/O" },
	{ "L1_DEMAND_DC_REFILLS_EXTERNAL_CACHE_REMOTE", 0x043, 0x10,
	  "Demand L1 DC refills from a cache in another node" },
	{ "L1_DEMAND_DC_REFILLS_REMOTE_DRAM", 0x043, 0x40,
	  "Demand L1 DC refills from remote DRAM or I/O" },
	{ "L1_DEMAND_DC_REFILLS_LOCAL", 0x043, 0x0f, "Demand L1 DC refills from the local node" },
	{ "L1_DEMAND_DC_REFILLS_REMOTE", 0x043, 0x50, "Demand L1 DC refills from remote nodes" },
	{ "L1_DEMAND_DC_REFILLS_ALL", 0x043, 0x5f, "Demand L1 DC refills from all sources" },
	{ "L1_DTLB_MISSES", 0x045, 0xff, "L1 DTLB misses" },
	{ "L2_DTLB_MISSES", 0x045, 0xf0, "L2 DTLB misses (page table walks)" },
	{ "L1_ITLB_MISSES_L2_HITS", 0x084, 0x00, "L1 ITLB misses that hit the L2 ITLB" },
	{ "L2_ITLB_MISSES", 0x085, 0x07, "L2 ITLB misses (page table walks)" },
	{ "L2_CACHE_ACCESS_FROM_L1_IC_MISS", 0x060, 0x10, "L2 accesses from L1 IC misses" },
	{ "L2_CACHE_ACCESS_FROM_L1_DC_MISS", 0x060, 0xe8, "L2 accesses from L1 DC misses" },
	{ "L2_CACHE_MISS_FROM_L1_IC_MISS", 0x064, 0x01, "L2 misses from L1 IC misses" },
	{ "L2_CACHE_MISS_FROM_L1_DC_MISS", 0x064, 0x08, "L2 misses from L1 DC misses" },
	{ "IC_TAG_ALL_IC_ACCESS", 0x18e, 0x1f, "Instruction cache accesses" },
	{ "IC_TAG_IC_MISS", 0x18e, 0x18, "Instruction cache misses" },
	{ "OP_CACHE_ALL_ACCESS", 0x28f, 0x07, "Op cache accesses" },
	{ "OP_CACHE_MISS", 0x28f, 0x04, "Op cache misses" },
};

const struct pmc_predef *pmc_predef_at(size_t i)
{
	return i < sizeof(predef) / sizeof(predef[0]) ? &predef[i] : NULL;
}

/* @a (len bytes) equals NUL-terminated @b ignoring case, '-' matching '_'. */
static bool name_eq(const char *a, size_t len, const char *b)
{
	size_t i;

	for (i = 0; i < len && b[i]; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x >= 'a' && x <= 'z')
			x = (char)(x - 'a' + 'A');
		if (y >= 'a' && y <= 'z')
			y = (char)(y - 'a' + 'A');
		if (x != y)
			return false;
	}
	return i == len && !b[i];
}

const struct pmc_predef *pmc_predef_find(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(predef) / sizeof(predef[0]); i++)
		if (name_eq(name, len, predef[i].name))
			return &predef[i];
	return NULL;
}

static const struct {
	const char *name;
	uint64_t config;
} software[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
};

int pmc_software_find(const char *name, size_t len, uint64_t *config, const char **canon)
{
	for (size_t i = 0; i < sizeof(software) / sizeof(software[0]); i++) {
		if (strlen(software[i].name) == len && !memcmp(name, software[i].name, len)) {
			*config = software[i].config;
			/* the canonical name is the first entry with this config */
			for (size_t j = 0; j <= i; j++)
				if (software[j].config == software[i].config) {
					*canon = software[j].name;
					break;
				}
			return 0;
		}
	}
	return -ENOENT;
}
