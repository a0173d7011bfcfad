// SPDX-License-Identifier: MIT
/* libFuzzer target for the MPI job directory's job.ini parser (lib/session/job.c). */
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_job j;
	char err[128];

	if (!ses_job_parse((const char *)data, size, &j, err, sizeof(err)))
		ses_job_release(&j);
	return 0;
}
