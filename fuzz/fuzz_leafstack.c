// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the leafstack.data reader (lib/session/leafstack.c): the header,
 * every entry through ses_leaf_decode, then the merge walk (ses_leaf_join) with the keys
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
	size_t pos = SES_LEAF_HDR_SIZE, n = 0, step;
	char err[200];

	if (ses_leaf_reader_open_mem(&lr, data, size, err, sizeof(err)))
		return 0;
	mask = ses_leaf_reader_regs_mask(lr);
	pos = data[12] | (size_t)data[13] << 8 | (size_t)data[14] << 16 | (size_t)data[15] << 24;
	while (pos < size && n < MAX_KEYS) {
		int ret = ses_leaf_decode(data + pos, size - pos, mask, &l, &step);

		if (ret < 0)
			break;
		if (ret == 1) {
			touch(&l);
			if (!n || l.seq > seqs[n - 1]) {
				seqs[n] = l.seq;
				keys[n] = (struct ses_sample){ .id = l.id, .pid = l.pid, .tid = l.tid,
							       .time = l.time };
				n++;
			}
		}
		pos += step;
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
