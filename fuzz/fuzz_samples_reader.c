// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the samples.data reader (lib/session/reader.c): open the bytes
 * as an in-memory image, walk every record, find its attr by id and decode it with the
 * codec, and parse each one both as a sample and as a record carrying a sample_id_all
 * trailer.
 */
#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct ses_sample_id id;
	struct ses_decoded d;
	int idx;
	const char *why;
	char err[128];

	if (ses_reader_open_mem(&r, data, size, err, sizeof(err)))
		return 0;
	while (ses_reader_next(r, &rec) > 0) {
		ses_reader_attr_of(r, &rec, &idx);
		ses_reader_decode(r, &rec, &d);
		ses_reader_sample(r, &rec, &s);
		ses_reader_sample_id(r, &rec, &id);
	}
	ses_reader_damage(r, &why);
	for (size_t i = 0; i < ses_reader_nattrs(r); i++)
		ses_reader_attr(r, i);
	ses_reader_free(r);
	return 0;
}
