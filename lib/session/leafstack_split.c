// SPDX-License-Identifier: MIT
/*
 * Splitting leafstack.data off samples.data as collect writes it (was leafsplit.c): the
 * split of fp samples that carry a leaf copy (leafstack.h): each such sample is
 * decoded with its attr as opened, written to samples.data re-encoded with the attr
 * samples.data declares (REGS_USER and STACK_USER gone), and its registers and stack
 * bytes go to leafstack.data under the sample's key. Every other record, and a sample
 * that does not decode, passes through untouched; runs of them are written at once.
 */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SPLIT_MAX_ATTRS SES_MAX_EVENTS
#define LEAF_BITS (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

struct idmap {
	uint64_t id;
	int attr;
};

struct ses_split {
	struct ses_writer *data;
	struct ses_leaf_writer *leaf;
	struct perf_event_attr full[SPLIT_MAX_ATTRS], stripped[SPLIT_MAX_ATTRS];
	int nattrs;
	struct idmap *ids; /* sorted by id */
	size_t nids;
	uint64_t samples, split, bad;
	unsigned char out[UINT16_MAX + 1];
};

bool ses_split_is_leaf_attr(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_CALLCHAIN) && !attr->exclude_callchain_user &&
	       (attr->sample_type & LEAF_BITS) == LEAF_BITS;
}

void ses_split_strip_attr(struct perf_event_attr *attr)
{
	attr->sample_type &= ~(uint64_t)LEAF_BITS;
	attr->sample_regs_user = 0;
	attr->sample_stack_user = 0;
}

struct ses_split *ses_split_new(struct ses_writer *data, struct ses_leaf_writer *leaf)
{
	struct ses_split *sp;

	if (!data || !leaf)
		return NULL;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return NULL;
	sp->data = data;
	sp->leaf = leaf;
	return sp;
}

void ses_split_free(struct ses_split *sp)
{
	if (!sp)
		return;
	free(sp->ids);
	free(sp);
}

static int cmp_id(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int ses_split_add_attr(struct ses_split *sp, const struct perf_event_attr *attr,
		       const uint64_t *ids, size_t nids)
{
	struct idmap *g;

	if (sp->nattrs == SPLIT_MAX_ATTRS)
		return -E2BIG;
	if (ses_split_is_leaf_attr(attr) && !(attr->sample_type & PERF_SAMPLE_IDENTIFIER))
		return -EINVAL;
	if (nids > SIZE_MAX / sizeof(*g) - sp->nids)
		return -ENOMEM;
	g = realloc(sp->ids, (sp->nids + nids + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	sp->ids = g;
	for (size_t i = 0; i < nids; i++)
		sp->ids[sp->nids++] = (struct idmap){ ids[i], sp->nattrs };
	util_qsort(sp->ids, sp->nids, sizeof(*sp->ids), cmp_id);
	sp->full[sp->nattrs] = *attr;
	sp->stripped[sp->nattrs] = *attr;
	ses_split_strip_attr(&sp->stripped[sp->nattrs]);
	sp->nattrs++;
	return 0;
}

/* The leaf-copy attr of sample @rec (IDENTIFIER first), or -1. */
static int leaf_attr_of(const struct ses_split *sp, const unsigned char *rec, size_t size)
{
	struct idmap key, *hit;

	if (size < sizeof(struct perf_event_header) + 8 || !sp->nids)
		return -1;
	memcpy(&key.id, rec + sizeof(struct perf_event_header), 8);
	hit = bsearch(&key, sp->ids, sp->nids, sizeof(*sp->ids), cmp_id);
	if (!hit || !ses_split_is_leaf_attr(&sp->full[hit->attr]))
		return -1;
	return hit->attr;
}

/* Split one sample of attr @a. 1: done; 0: not decodable, pass it through. */
static int split_one(struct ses_split *sp, int a, const void *rec, size_t size)
{
	struct ses_sample s;
	struct ses_leaf l;
	int n, ret;

	if (ses_decode_sample(&sp->full[a], rec, size, &s))
		return 0;
	n = ses_encode_sample(sp->out, sizeof(sp->out), &sp->stripped[a], &s);
	if (n < 0)
		return 0;
	l = (struct ses_leaf){
		.seq = sp->samples,
		.id = s.id,
		.time = s.time,
		.pid = s.pid,
		.tid = s.tid,
		.regs_abi = s.regs_abi,
		.nregs = s.regs_abi == PERF_SAMPLE_REGS_ABI_NONE ? 0 : s.nregs,
		.regs = s.regs,
		.stack_len = (uint32_t)(s.stack_dyn_size < SES_LEAF_MAX_STACK ? s.stack_dyn_size
									      : SES_LEAF_MAX_STACK),
		.stack = s.stack,
	};
	if (!l.nregs)
		l.regs = NULL;
	if (!l.stack_len)
		l.stack = NULL;
	ret = ses_writer_write(sp->data, sp->out, (size_t)n);
	if (ret)
		return ret;
	if (l.nregs) { /* a kernel thread has no user state: nothing to keep */
		ret = ses_leaf_writer_add(sp->leaf, &l);
		if (ret)
			return ret;
		sp->split++;
	}
	return 1;
}

int ses_split_write(void *arg, const void *records, size_t len)
{
	struct ses_split *sp = arg;
	const unsigned char *p = records, *run = records;
	size_t pos = 0;
	int ret = 0;

	while (pos + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		int a;

		memcpy(&h, p + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - pos)
			break; /* not whole records: the rest goes as it is */
		if (h.type == PERF_RECORD_SAMPLE) {
			a = leaf_attr_of(sp, p + pos, h.size);
			if (a >= 0) {
				ret = ses_writer_write(sp->data, run, (size_t)(p + pos - run));
				if (ret)
					return ret;
				ret = split_one(sp, a, p + pos, h.size);
				if (ret < 0)
					return ret;
				if (ret == 0) {
					sp->bad++;
					run = p + pos; /* through unchanged, with the next run */
				} else {
					run = p + pos + h.size;
				}
			}
			sp->samples++;
		}
		pos += h.size;
	}
	return ses_writer_write(sp->data, run, (size_t)(p + len - run));
}

void ses_split_counts(const struct ses_split *sp, uint64_t *samples, uint64_t *split, uint64_t *bad)
{
	*samples = sp->samples;
	*split = sp->split;
	*bad = sp->bad;
}
