// SPDX-License-Identifier: MIT
/* libFuzzer target for the reader of mpi/<pid>.mpiev, the MPI interposer's events under
 * --trace mpi=full (lib/session/mpi_events.c): any bytes parse or fail cleanly, and what
 * parses is consistent (names, ranks and completions within what the file holds), whole
 * and streamed (ses_mpiev_stream: the same events, each checked as it is handed out). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int one(void *ctx, const struct ses_mpiev *e, uint64_t index, const struct ses_mpiev_call *c)
{
	if (c->func >= e->nnames || c->end_ns < c->begin_ns || c->dest < -1 ||
	    c->dest >= e->size || c->source < -1 || c->source >= e->size ||
	    ((c->flags & SES_MPIEV_COMPLETION) && (!c->done || c->done > index)))
		abort();
	++*(size_t *)ctx;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_mpiev e;
	char err[128];

	if (ses_mpiev_parse(data, size, &e, err, sizeof(err)))
		return 0;
	if (e.rank < 0 || e.rank >= e.size || e.nnames > SES_MPIEV_MAX_NAMES ||
	    e.damaged_at > size || e.ncalls > size / sizeof(struct ses_mpiev_event))
		abort();
	for (size_t i = 0; i < e.nnames; i++)
		if (strlen(e.names[i]) > SES_MPIEV_NAME_MAX)
			abort();
	for (size_t i = 0; i < e.ncalls; i++) {
		const struct ses_mpiev_call *c = &e.calls[i];

		if (c->func >= e.nnames || c->done > e.ncalls || c->end_ns < c->begin_ns ||
		    c->dest < -1 || c->dest >= e.size || c->source < -1 || c->source >= e.size)
			abort();
	}
	ses_mpiev_release(&e);
	/* streamed: the same checks on each event as it goes out, and the same counts */
	{
		struct ses_mpiev st;
		size_t n = 0;

		if (ses_mpiev_stream(data, size, &st, one, &n, err, sizeof(err)) ||
		    st.calls || n != st.ncalls + st.completions)
			abort();
		ses_mpiev_release(&st);
	}
	return 0;
}
