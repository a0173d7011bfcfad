// SPDX-License-Identifier: MIT
/* libFuzzer target for the kallsyms parser (lib/symbols/kallsyms.c): report --kallsyms
 * reads a file the user names, so any bytes must parse or be skipped, and every lookup
 * afterwards must stay inside the table. */
#include <stddef.h>
#include <stdint.h>

#include "symbols/kallsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpt_ksyms ks = { 0 };

	if (!rpt_ksyms_parse(&ks, (const char *)data, size)) {
		static const uint64_t probes[] = { 0, 1, 0xffffffff81000000ULL, UINT64_MAX };

		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++)
			(void)rpt_ksyms_find(&ks, probes[i]);
		for (size_t i = 0; i < ks.nsyms; i++)
			(void)rpt_ksyms_find(&ks, ks.syms[i].addr);
	}
	rpt_ksyms_release(&ks);
	return 0;
}
