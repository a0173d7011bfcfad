// SPDX-License-Identifier: MIT
/* libFuzzer target for the pauses.csv parser (lib/session/pauses.c). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_pause *p;
	size_t n;
	char err[128];

	if (!ses_pauses_parse((const char *)data, size, &p, &n, err, sizeof(err)))
		free(p);
	return 0;
}
