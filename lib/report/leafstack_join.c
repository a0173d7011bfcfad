// SPDX-License-Identifier: MIT
/*
 * leafstack.data joined to samples.data's fp samples while they load (load.c), so that
 * stacks.c can give a frameless leaf its caller back (one CFI step, rpt_unwind_leaf). A
 * missing or damaged file, or one that does not match, leaves the stacks as the kernel
 * walked them, said in one note (fpstack_notes.c writes it). Apart from fpstack_notes.c, which programs
 * that read no session link without this file's lib/session calls.
 */
#include "report/stacks.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

struct ses_leaf_reader *rpt_leafstack_open(struct rpt *r)
{
	struct rpt_stacks *st = r->stacks;
	struct ses_leaf_reader *lr = NULL;
	char why[200];
	int ret;

	st->leaf_expected = r->info.callgraph_leaf_bytes > 0;
	ret = ses_leaf_reader_open_at(&lr, r->dfd, SES_LEAF_FILE, why, sizeof(why));
	if (ret == -ENOENT && !st->leaf_expected)
		return NULL; /* none asked for: today's stacks, nothing to say */
	if (ret == -ENOENT)
		snprintf(st->leaf_note, sizeof(st->leaf_note),
			 "%s is missing: frameless leaves keep the kernel's stacks (their callers "
			 "missing)",
			 SES_LEAF_FILE);
	else if (ret == -ENOMEM)
		snprintf(st->leaf_note, sizeof(st->leaf_note), "%s: out of memory", SES_LEAF_FILE);
	else if (ret)
		snprintf(st->leaf_note, sizeof(st->leaf_note),
			 "%s is unusable (%s): frameless leaves keep the kernel's stacks",
			 SES_LEAF_FILE, why);
	return lr;
}

void rpt_leafstack_attach(struct ses_leaf_reader *lr, uint64_t seq,
			  const struct perf_event_attr *attr, struct ses_sample *s)
{
	struct ses_leaf l;

	if (!lr || !attr || !s->ips || (attr->sample_type & PERF_SAMPLE_REGS_USER) ||
	    ses_leaf_join(lr, seq, s, &l) != 1)
		return;
	s->regs_abi = l.regs_abi;
	s->regs_mask = ses_leaf_reader_regs_mask(lr);
	s->regs = l.regs;
	s->nregs = l.nregs;
	s->stack = l.stack;
	s->stack_size = s->stack_dyn_size = l.stack_len;
	if (!s->regs) /* no user state (a kernel thread): nothing to step from */
		s->regs_mask = s->nregs = 0;
}

void rpt_leafstack_close(struct rpt *r, struct ses_leaf_reader *lr)
{
	struct rpt_stacks *st = r->stacks;
	uint64_t joined, skipped, mismatched, off;
	const char *why;

	if (!lr)
		return;
	ses_leaf_reader_counts(lr, &joined, &skipped, &mismatched);
	off = ses_leaf_reader_damage(lr, &why);
	if (off)
		snprintf(st->leaf_note, sizeof(st->leaf_note),
			 "%s is damaged from offset %" PRIu64 " (%s): %" PRIu64 " samples joined "
			 "before it",
			 SES_LEAF_FILE, off, why ? why : "?", joined);
	else if (mismatched || skipped)
		snprintf(st->leaf_note, sizeof(st->leaf_note),
			 "%s does not match samples.data: %" PRIu64 " records of other samples "
			 "(%" PRIu64 " joined)",
			 SES_LEAF_FILE, mismatched + skipped, joined);
}
