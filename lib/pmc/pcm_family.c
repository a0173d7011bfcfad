// SPDX-License-Identifier: MIT
/* pcm's nineteen metric groups (AMDuProfPcm's -m names) and which Zen generation each is
 * defined for. The events and formulas live in the configs directory (pcm/<name>.ini when
 * every Zen shares the codes, pcm/zen<N>/<name>.ini when a generation has its own); this
 * table says which generations have them, and why the others are refused, so a refusal
 * names the family instead of failing on a missing file. */
#include "pmc/pmc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define Z3 (1u << PMC_ZEN3)
#define Z4 (1u << PMC_ZEN4)
#define Z5 (1u << PMC_ZEN5)

static const struct pmc_pcm_group pcm_groups[] = {
	{ "ipc", Z3 | Z4 | Z5, NULL },
	{ "fp", Z3 | Z4 | Z5, NULL },
	{ "l1", Z3 | Z4 | Z5, NULL },
	{ "l2", Z3 | Z4 | Z5, NULL },
	{ "l3", Z3 | Z4 | Z5, NULL },
	{ "memory", Z3 | Z4 | Z5, NULL },
	{ "dc", Z3 | Z4 | Z5, NULL },
	{ "swpfdc", Z3 | Z4 | Z5, NULL },
	{ "hwpfdc", Z3 | Z4 | Z5, NULL },
	{ "tlb", Z3 | Z4 | Z5, NULL },
	{ "cache_miss", Z3 | Z4 | Z5, NULL },
	{ "pipeline_util", Z4 | Z5,
	  "the dispatch-slot events top-down needs (PMCx1A0) are Zen 4 and later" },
	{ "avx_imix", Z4 | Z5,
	  "retired FP ops by width (PMCx008, which counts AVX-512) is Zen 4 and later" },
	{ "xgmi", Z3 | Z4 | Z5, NULL },
	{ "pcie", Z4 | Z5,
	  "the Zen 3 Data Fabric exposes no public per-IO-root-complex upstream events" },
	{ "dma", Z4 | Z5, "the Zen 3 Data Fabric exposes no public upstream DMA events" },
	{ "umc", Z4 | Z5, "the memory-controller PMU (amd_umc) is Zen 4 and later" },
	{ "ccm_bw", Z4 | Z5,
	  "the Zen 3 Data Fabric exposes no public CCM data-beat events (Zen 4's CCMs and Zen "
	  "5's core-to-fabric interfaces have them)" },
	{ "cxl", 0,
	  "no public Data Fabric event encoding for CXL ports exists in the PPRs or perf's "
	  "tables uprof uses" },
};

int pmc_pcm_group_count(void)
{
	return (int)(sizeof(pcm_groups) / sizeof(pcm_groups[0]));
}

const struct pmc_pcm_group *pmc_pcm_group_at(int i)
{
	return i >= 0 && i < pmc_pcm_group_count() ? &pcm_groups[i] : NULL;
}

const struct pmc_pcm_group *pmc_pcm_group_find(const char *name)
{
	for (int i = 0; i < pmc_pcm_group_count(); i++)
		if (!strcmp(pcm_groups[i].name, name))
			return &pcm_groups[i];
	return NULL;
}

/* Family 19h holds both Zen 3 (models 00-0F, 20-5F) and Zen 4 (10-1F, 60-7F, A0-AF). */
int pmc_zen_of(int family, int model)
{
	if (family == 0x1a)
		return PMC_ZEN5;
	if (family != 0x19 || model < 0)
		return PMC_ZEN_NONE;
	if ((model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
	    (model >= 0xa0 && model <= 0xaf))
		return PMC_ZEN4;
	return PMC_ZEN3;
}

const char *pmc_zen_name(int zen)
{
	switch (zen) {
	case PMC_ZEN3:
		return "Zen 3";
	case PMC_ZEN4:
		return "Zen 4";
	case PMC_ZEN5:
		return "Zen 5";
	default:
		return "not a Zen 3/4/5";
	}
}

int pmc_zen_parse(const char *s)
{
	if (!strcasecmp(s, "zen3"))
		return PMC_ZEN3;
	if (!strcasecmp(s, "zen4"))
		return PMC_ZEN4;
	if (!strcasecmp(s, "zen5"))
		return PMC_ZEN5;
	return PMC_ZEN_NONE;
}

int pmc_pcm_group_path(const char *dir, int zen, int family, const char *name, char *path,
		       size_t len, char *why, size_t whylen)
{
	const struct pmc_pcm_group *g;

	/* AMDuProfPcm 4.0's name of the top-down group (uprof-cli.md, pcm -m) */
	if (!strcmp(name, "topdown"))
		name = "pipeline_util";
	g = pmc_pcm_group_find(name);

	if (g && (!g->zens || (zen != PMC_ZEN_NONE && !(g->zens & (1u << zen))))) {
		snprintf(why, whylen, "%s is not available on %s: %s", name,
			 g->zens ? pmc_zen_name(zen) : "any Zen", g->why_not);
		return -EOPNOTSUPP;
	}
	if (zen != PMC_ZEN_NONE) {
		snprintf(path, len, "%s/pcm/zen%d/%s.ini", dir, zen, name);
		if (!access(path, R_OK))
			return 0;
	}
	if (!pmc_group_path(dir, zen == PMC_ZEN_NONE ? family : -1, name, path, len))
		return 0;
	if (g && zen == PMC_ZEN_NONE) {
		/* only generation-specific files: which one is unknown on this CPU */
		snprintf(why, whylen,
			 "%s is defined per Zen generation and this CPU (family 0x%x) is not a Zen "
			 "3/4/5; --dry-run --family zen3|zen4|zen5 shows what would be programmed",
			 name, family < 0 ? 0 : family);
		return -EOPNOTSUPP;
	}
	snprintf(why, whylen, "no such metric group");
	return -ENOENT;
}
