// SPDX-License-Identifier: MIT
/*
 * uprof collect: opening the events on the gated child, and the call-stack bits of
 * their attrs; a kernel that refuses kernel samples gets user-only ones (perf's fallback).
 */
#include "cli/collect.h"

#include <errno.h>
#include <string.h>

static const char *const CMD = "collect";

void collect_callgraph_attr(struct collect_state *st)
{
	int kmax = pmc_callgraph_kernel_max_stack();

	/* the default depth (uProf's 128) quietly becomes the kernel's limit */
	if (st->cg.mode == PMC_CG_FP && st->cg.depth > kmax && st->cg.depth != PMC_CG_DEFAULT_DEPTH)
		cli_warn(CMD,
			 "call-graph depth %d is more than kernel.perf_event_max_stack (%d): "
			 "frame-pointer stacks keep %d frames",
			 st->cg.depth, kmax, kmax);
	for (int i = COLLECT_TIMER; i < st->nattrs; i++)
		pmc_callgraph_attr(&st->cg, kmax, &st->attrs[i]);
	/* perf's unwinder reads .eh_frame_hdr through the mappings of read-only segments:
	 * record data mappings too (perf record does with --call-graph dwarf) */
	if (st->cg.mode == PMC_CG_DWARF)
		st->attrs[COLLECT_TRACKING].mmap_data = 1;
}

/* ---- the leaf copy of fp stacks: kept out of samples.data (lib/session/leafstack.h) ---- */

int collect_leaf_open(struct collect_state *st)
{
	uint64_t mask = 0;
	uint32_t bytes = 0;

	for (int i = COLLECT_TIMER; i < st->nattrs; i++)
		if (ses_split_is_leaf_attr(&st->attrs[i])) {
			mask = st->attrs[i].sample_regs_user;
			bytes = st->attrs[i].sample_stack_user;
		}
	if (!mask)
		return -1;
	st->leaf = ses_leaf_writer_open(st->session_fd, mask, bytes);
	if (!st->leaf)
		return cli_error(1, CMD, "cannot create %s/%s: %s", st->session_dir, SES_LEAF_FILE,
				 strerror(errno));
	st->split = ses_split_new(st->writer, st->leaf);
	if (!st->split)
		return cli_error(1, CMD, "out of memory");
	return -1;
}

void collect_write_attr(struct collect_state *st, int i, const uint64_t *ids, size_t nids)
{
	struct perf_event_attr a = st->attrs[i];

	if (st->split && ses_split_add_attr(st->split, &a, ids, nids))
		cli_warn(CMD, "event %d: its samples keep no leaf copy", i);
	if (st->split && ses_split_is_leaf_attr(&a))
		ses_split_strip_attr(&a); /* perf reads samples.data as a plain fp file */
	ses_writer_add_attr(st->writer, &a, ids, nids);
}

int collect_sink(void *arg, const void *records, size_t len)
{
	struct collect_state *st = arg;
	int ret;

	if (!st->split)
		return ses_writer_write(st->writer, records, len);
	ret = ses_split_write(st->split, records, len);
	if (!ret)
		ret = ses_leaf_writer_flush(st->leaf);
	return ret;
}

int collect_leaf_close(struct collect_state *st)
{
	int ret = ses_leaf_writer_close(st->leaf);

	ses_split_free(st->split);
	st->split = NULL;
	st->leaf = NULL;
	return ret;
}

/* perf's fallback, for launch and attach alike: a kernel that refuses kernel samples to
 * this user (kernel.perf_event_paranoid 2) gets user-only events, every one of them. Said
 * once the retry worked (collect_user_only_said); a refusal of user-only events too is
 * the caller's one line (collect_explain_open_error), with no warning before it. */
bool collect_user_only_retry(struct collect_state *st, int err)
{
	bool kernel = false;

	if ((err != -EACCES && err != -EPERM) || st->user_only)
		return false;
	for (int i = 0; i < st->nattrs; i++)
		kernel |= !st->attrs[i].exclude_kernel;
	if (!kernel)
		return false; /* user-only already (":u" events): nothing to fall back to */
	st->user_only = true;
	return true;
}

void collect_user_only_said(const struct collect_state *st)
{
	if (st->user_only)
		cli_warn(CMD,
			 "kernel samples not allowed (kernel.perf_event_paranoid is 2 or more, "
			 "and uprof is not root): sampling user code only ('sysctl "
			 "kernel.perf_event_paranoid=1' or root samples the kernel too)");
}

/* Open the events on the gated child, user-only if the kernel says so. */
int collect_open_events(struct collect_state *st)
{
	struct smp_opts opts = { .mmap_pages = st->mmap_pages,
				 .cpus = st->sample_cpus,
				 .ncpus = st->nsample_cpus };
	int failed, ret;

	collect_events_build(st, true);
	ret = smp_open(&st->smp, st->attrs, st->nattrs, st->child.pid, &opts, &failed);
	if (ret && collect_user_only_retry(st, ret)) {
		collect_events_build(st, true);
		ret = smp_open(&st->smp, st->attrs, st->nattrs, st->child.pid, &opts, &failed);
	}
	if (!ret)
		collect_user_only_said(st);
	return ret ? collect_explain_open_error(st, ret, failed, 0) : -1;
}
