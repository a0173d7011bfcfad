// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the leafstack.data reader (lib/session/leafstack.c): the header,
 * every record of the side-file container (container.c, both framings) through
 * ses_leaf_decode, then the merge walk (ses_leaf_join) with the keys
 * of the records found, which must join unless a damaged entry ended the walk first.
 * Every register and stack byte handed out is read, so ASan sees any read past the input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_KEYS 256

static volatile unsigned sink;

/* what leafstack.c reads: the container's walk, seen from outside */
static const struct ses_ct_kind kind = {
	.magic = SES_LEAF_MAGIC, .what = "leafstack", .major = SES_LEAF_VERSION,
	.legacy_major = 1, .min_header = SES_LEAF_HDR_SIZE, .known = 1u << SES_LEAF_RECORD,
};

static void touch(const struct ses_leaf *l)
{
	const unsigned char *r = l->regs, *s = l->stack;

	for (uint32_t i = 0; r && i < l->nregs * 8; i++)
		sink += r[i];
	for (uint32_t i = 0; s && i < l->stack_len; i++)
		sink += s[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_leaf_reader *lr;
	struct ses_sample keys[MAX_KEYS];
	uint64_t seqs[MAX_KEYS], mask, joined, skipped, mism;
	struct ses_leaf l;
	struct ses_ct_reader ct;
	struct ses_ct_record rec;
	size_t n = 0;
	char err[200];

	if (ses_leaf_reader_open_mem(&lr, data, size, err, sizeof(err)))
		return 0;
	mask = ses_leaf_reader_regs_mask(lr);
	if (ses_ct_open(&ct, &kind, data, size, err, sizeof(err)))
		abort(); /* the leaf reader took a header the container refuses */
	while (n < MAX_KEYS && ses_ct_next(&ct, &rec)) {
		if (ses_leaf_decode(rec.value, rec.len, mask, &l))
			break;
		touch(&l);
		if (!n || l.seq > seqs[n - 1]) {
			seqs[n] = l.seq;
			keys[n] = (struct ses_sample){ .id = l.id, .pid = l.pid, .tid = l.tid,
						       .time = l.time };
			n++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (ses_leaf_join(lr, seqs[i], &keys[i], &l) == 1) {
			touch(&l);
			if (l.seq != seqs[i] || l.time != keys[i].time)
				abort(); /* the record joined is not the one asked for */
		} else if (!ses_leaf_reader_damage(lr, NULL)) {
			abort(); /* a record decoded, in order, with its own key: it must join */
		}
	}
	ses_leaf_reader_counts(lr, &joined, &skipped, &mism);
	if (joined > n)
		abort();
	ses_leaf_reader_free(lr);
	return 0;
}
