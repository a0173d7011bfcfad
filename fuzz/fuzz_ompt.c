// SPDX-License-Identifier: MIT
/* libFuzzer target for the openmp/<pid>.ompt reader (lib/session/openmp.c). */
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_ompt o;
	char err[128];
	volatile uint64_t sink = 0;

	if (ses_ompt_parse(data, size, &o, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < o.nvalues; i++)
		sink += o.values[i].value + o.values[i].how;
	for (size_t i = 0; i < o.nevents; i++)
		sink += o.events[i].value;
	for (size_t i = 0; i < o.nsites; i++)
		sink += o.sites[i].code;
	for (size_t i = 0; i < o.ntargets; i++) {
		const char *name = ses_ompt_string(&o, o.targets[i].slot);

		sink += o.targets[i].value + (name ? (uint64_t)name[0] : 0);
	}
	sink += (uint64_t)o.runtime[0];
	ses_ompt_release(&o);
	return 0;
}
