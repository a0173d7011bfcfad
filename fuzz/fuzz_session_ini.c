// SPDX-License-Identifier: MIT
/* libFuzzer target for the session.ini parser (lib/session/info.c). */
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_info info;
	char err[128];

	ses_info_parse((const char *)data, size, &info, err, sizeof(err));
	return 0;
}
