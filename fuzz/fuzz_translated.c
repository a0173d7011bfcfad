// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for translated.bin's parser (lib/unwind/translated.c): report reads
 * the file from a session directory, where anyone who can write the directory may put
 * any bytes. Whatever parses is looked up entry by entry (at its own frame limit and at
 * others) and written again, and the copy must parse back to the same key, files and
 * stacks; the checksum is made good on a copy first so that the checks behind it are
 * reached too.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unwind/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_back(const struct rpt_tr *t)
{
	struct rpt_tr_writer w = { 0 };
	static uint64_t pcs[RPT_TR_MAX_FRAMES], pcs2[RPT_TR_MAX_FRAMES];
	static bool act[RPT_TR_MAX_FRAMES], act2[RPT_TR_MAX_FRAMES];
	unsigned char *buf;
	struct rpt_tr *u;
	size_t len;

	for (uint32_t i = 0; i < t->nentries; i++) {
		const unsigned char *e = t->buf + RPT_TR_PREAMBLE + t->offs[i];
		uint16_t max;
		int end, n;

		memcpy(&max, e + 4, 2);
		n = rpt_tr_lookup(t, t->seqs[i], max, pcs, act, &end);
		if (n < 0 || n > max || end < 0 || end > 2)
			abort(); /* an entry that parsed must be found, within its limit */
		if (rpt_tr_lookup(t, t->seqs[i], max + 1, pcs2, act2, &end) != -1)
			abort();
		if (rpt_tr_writer_note(&w, t->seqs[i], max, n, pcs, act, end))
			abort();
	}
	if (rpt_tr_serialize(&w, &t->key, t->files, t->nfiles, &buf, &len))
		abort();
	if (rpt_tr_parse(buf, len, &u, NULL, 0))
		abort();
	if (memcmp(&u->key, &t->key, sizeof(t->key)) || u->nfiles != t->nfiles ||
	    u->nentries != t->nentries || u->len != t->len)
		abort();
	for (uint32_t i = 0; i < t->nfiles; i++)
		if (strcmp(u->files[i].path, t->files[i].path) ||
		    u->files[i].missing != t->files[i].missing ||
		    u->files[i].size != t->files[i].size)
			abort();
	rpt_tr_free(u);
	rpt_tr_writer_release(&w);
}

static void one(const uint8_t *data, size_t size, bool rehash)
{
	unsigned char *buf = malloc(size ? size : 1);
	struct rpt_tr *t;
	char why[256];

	if (!buf)
		return;
	memcpy(buf, data, size);
	if (rehash && size >= RPT_TR_PREAMBLE) {
		uint64_t body = size - RPT_TR_PREAMBLE,
			 h = rpt_tr_hash(RPT_TR_HASH0, buf + RPT_TR_PREAMBLE, body);

		memcpy(buf, RPT_TR_MAGIC, 8);
		memset(buf + 8, 0, 8);
		buf[8] = RPT_TR_VERSION;
		memcpy(buf + 16, &body, 8);
		memcpy(buf + 24, &h, 8);
	}
	if (!rpt_tr_parse(buf, size, &t, why, sizeof(why))) {
		same_back(t);
		rpt_tr_free(t);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, false);
	one(data, size, true);
	return 0;
}
