// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for foreign sessions (lib/session/foreign.c, record_meta.c): the
 * facts synthesized from a perf pipe stream (ses_foreign_info), and each of its records
 * through perf's metadata decoders (HEADER_EVENT_TYPE, EVENT_UPDATE, HEADER_FEATURE,
 * its strings and EVENT_DESC entries). Aborts when what is synthesized leaves its
 * bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void meta(const struct ses_record *rec)
{
	struct ses_event_update u;
	struct ses_event_type t;
	struct ses_feature f;
	struct ses_desc_iter it = { 0 };
	struct ses_event_desc d;
	const char *s;
	size_t off = 0, len;

	ses_decode_event_update(rec->data, rec->size, &u);
	ses_decode_event_type(rec->data, rec->size, &t);
	if (ses_decode_feature(rec->data, rec->size, &f))
		return;
	while (!ses_feature_string(&f, &off, &s, &len))
		;
	while (ses_event_desc_next(&f, &it, &d) == 1)
		for (size_t k = 0; k < d.nids; k++)
			(void)ses_sample_u64(d.ids, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_info in;
	char err[128];
	int skipped;

	(void)ses_perf_kind_of(data, size);
	if (!ses_foreign_info(data, size, &in, &skipped, err, sizeof(err))) {
		if (in.nevents < 1 || in.nevents > SES_MAX_EVENTS || in.npids < 0 ||
		    in.npids > SES_MAX_PIDS || skipped < 0 || !in.foreign)
			abort();
		for (int i = 0; i < in.nevents; i++)
			if (in.events[i].attr < 0 || !in.events[i].period)
				abort();
	}
	if (ses_reader_open_mem(&r, data, size, err, sizeof(err)))
		return 0;
	while (ses_reader_next(r, &rec) > 0)
		meta(&rec);
	ses_reader_free(r);
	return 0;
}
