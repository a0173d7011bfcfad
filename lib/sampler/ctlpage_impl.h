/* SPDX-License-Identifier: MIT */
/*
 * lib/sampler's view of a mapped control page, shared by ctlpage.c (validation, rings,
 * strings) and ctlpage_open.c (finding, checking and mapping the page file). Private to
 * lib/sampler: sampler.h is the module's public header.
 */
#ifndef UPROF_SAMPLER_CTLPAGE_IMPL_H
#define UPROF_SAMPLER_CTLPAGE_IMPL_H

#include "sampler/internal.h"
#include "instrument/ctlpage.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

struct page_ring {
	struct uprof_ctl_record *slots;
	uint64_t *head, *tail, *dropped;
	uint64_t records;
	uint64_t pos; /* our consumer position: the page's tail is only ever written by us */
};

struct smp_page {
	struct uprof_ctl_header *h;
	size_t map_len; /* bytes mapped (owned pages) */
	uint32_t size;	/* the page's size, checked against what is mapped */
	uint32_t version;
	char lib_version[sizeof(((struct uprof_ctl_header *)0)->lib_version)];
	int pid;
	struct page_ring ring, pauses;
	/* 2.6: the page's lanes (none: @nlanes 0), drained before the shared ring */
	struct page_ring *lanes;
	uint32_t nlanes;
	uint32_t *lanes_claimed; /* in the page */
	const char *strtab;	 /* in the page */
	uint32_t str_bytes;
	char *strs; /* our copy of the table */
	uint32_t str_copied;
	uint32_t str_walked; /* entries already handed out */
	uint32_t seen_req;
	bool owned;   /* we mapped it: unmap on close */
	bool faulted; /* its process truncated it under us: never touched again */
	bool tsc;     /* records carry TSC stamps: converted as they are drained */
	uint64_t tsc0;
	int64_t mono0;
	struct smp_gap_track gap; /* where the pause ring dropped records (pausegap.c) */
	smp_page_gap_fn gap_fn;
	void *gap_arg;
	bool map_ok; /* smp_page_sync_clock() found a usable rate */
	double ns_per_tick;
	uint64_t map_tsc;
	int64_t map_mono;
};

/* The accesses that follow, up to smp_guard_pop(&g), are guarded against the page
 * shrinking (pageguard.c); on a fault the page is marked and @on_fault runs. Nothing in
 * between may take a lock or call out: a fault leaves the frame at once. */
#define GUARD(p, g, on_fault) \
	smp_guard_push(&(g), (p)->h, (p)->map_len); \
	if (sigsetjmp((g).jump, 0)) { \
		((struct smp_page *)(p))->faulted = true; \
		on_fault; \
	}
/* the same in a function returning nothing (clang-format 14 would write "return )") */
/* clang-format off */
#define GUARD_VOID(p, g) GUARD(p, g, return)
/* clang-format on */

/* How a page is being opened: a memory image (tests, fuzzing: @pid 0, @file_size 0), or
 * a file of @file_size bytes named after @pid. */
struct open_ctx {
	int pid;
	uint64_t file_size;
	const char *session;
	uint32_t generation;
	struct smp_page_why *why;
};

static inline int smp_page_refuse(struct smp_page_why *why, enum smp_page_reason reason, int ret)
{
	if (why)
		why->reason = reason;
	return ret;
}

/* Validate the page at @m (@len bytes) and take it; @owned: unmap it on close. */
int smp_page_take(struct smp_page **out, void *m, size_t len, bool owned, const struct open_ctx *o);

#endif
