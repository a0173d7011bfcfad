// SPDX-License-Identifier: MIT
/* libFuzzer target for perf's JIT map parser (lib/symbols/perfmap.c): /tmp/perf-<pid>.map
 * may be written by any user of the machine, so any bytes must parse or be skipped, and
 * every lookup afterwards must stay inside the table and find a symbol that holds it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void probe(const struct rpt_perfmap *pm, uint64_t addr)
{
	const struct rpt_perfmap_sym *s = rpt_perfmap_find(pm, addr);

	if (s && (addr < s->start || addr >= s->end || !s->name[0]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpt_perfmap pm = { 0 };

	if (!rpt_perfmap_parse(&pm, (const char *)data, size)) {
		static const uint64_t probes[] = { 0, 1, 0x7f0000000000ULL, UINT64_MAX };

		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
			probe(&pm, probes[i]);
		for (size_t i = 0; i < pm.nsyms; i++) {
			if (pm.syms[i].end <= pm.syms[i].start ||
			    strlen(pm.syms[i].name) > RPT_PERFMAP_MAX_NAME ||
			    (i && pm.syms[i - 1].start >= pm.syms[i].start))
				abort();
			probe(&pm, pm.syms[i].start);
			probe(&pm, pm.syms[i].end - 1);
			probe(&pm, pm.syms[i].end);
		}
	}
	rpt_perfmap_release(&pm);
	return 0;
}
