// SPDX-License-Identifier: MIT
/* libFuzzer target for the instrument/<pid>.tasks reader (lib/session/tasks.c). */
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_tasks t;
	char err[128];
	volatile size_t sink = 0;

	if (ses_tasks_parse(data, size, &t, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < t.nrecords; i++) {
		const char *d = ses_tasks_string(&t, t.records[i].domain);
		const char *n = ses_tasks_string(&t, t.records[i].name);

		sink += (d ? d[0] : 0) + (n ? n[0] : 0);
	}
	ses_tasks_release(&t);
	return 0;
}
