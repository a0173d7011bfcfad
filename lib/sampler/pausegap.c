// SPDX-License-Identifier: MIT
/* Where a pause ring's dropped records were: see internal.h (struct smp_gap_track). */
#include "sampler/internal.h"

#include <stdint.h>
#include <string.h>

static uint64_t clamp_head(uint64_t head, uint64_t pos, uint64_t records)
{
	if (head < pos)
		return pos; /* the consumer is never past the producers */
	if (head - pos > records)
		return pos + records; /* nor are they more than a ring ahead */
	return head;
}

void smp_gap_init(struct smp_gap_track *g, uint64_t dropped, uint64_t head, uint64_t pos,
		  uint64_t records)
{
	memset(g, 0, sizeof(*g));
	g->clean_t = INT64_MIN;
	struct smp_pause_gap unused;

	memset(g, 0, sizeof(*g));
	g->clean_t = INT64_MIN;
	if (pos) /* read before (another attach): its drops are not this session's */
		g->seen = dropped;
	/* a ring never read that dropped already (launch mode, records kept until we
	 * came): unknown from the start to its first record after them */
	smp_gap_observe(g, dropped, head, pos, records, -1, 0, &unused);
}

/* A clean look while a gap is open: the second of two alike ends it. */
static bool settle(struct smp_gap_track *g, bool empty, int state, int64_t now,
		   struct smp_pause_gap *out)
{
	if (!g->open || !empty || state < 0) {
		g->cand = false;
		return false;
	}
	if (!g->cand || g->cand_state != state) {
		g->cand = true;
		g->cand_t = now;
		g->cand_state = state;
		return false;
	}
	g->open = g->cand = false;
	*out = (struct smp_pause_gap){ g->from_t, g->cand_t < g->from_t ? g->from_t : g->cand_t,
				       g->dropped, true, state == 1 };
	return true;
}

bool smp_gap_observe(struct smp_gap_track *g, uint64_t dropped, uint64_t head, uint64_t pos,
		     uint64_t records, int state, int64_t now, struct smp_pause_gap *out)
{
	head = clamp_head(head, pos, records);
	if (dropped <= g->seen) {
		/* no new drop up to this look: every later one is at or past @head. Records
		 * taken so far are all below it (head >= pos) */
		g->seen = dropped;
		if (head > g->clean_head)
			g->clean_head = head;
		if (g->have_t)
			g->clean_t = g->last_t;
		return settle(g, head == pos, state, now, out);
	}
	g->cand = false;
	if (g->open) { /* more drops before the gap's end was seen: it reaches further */
		if (head > g->to_pos)
			g->to_pos = head;
	} else {
		g->open = true;
		g->from_pos = g->clean_head;
		g->from_t = g->clean_t;
		g->to_pos = head;
		g->dropped = 0;
	}
	g->dropped += dropped - g->seen;
	g->seen = dropped;
	return false;
}

bool smp_gap_taken(struct smp_gap_track *g, uint64_t q, bool valid, int64_t t,
		   struct smp_pause_gap *out)
{
	if (!valid)
		return false; /* a scribbled slot: its stamp means nothing */
	g->last_t = t;
	g->have_t = true;
	g->cand = false; /* a record came: it says more than a look */
	if (q < g->clean_head)
		g->clean_t = t;
	if (!g->open)
		return false;
	if (q < g->from_pos) {
		g->from_t = t; /* still surely before the drops */
		return false;
	}
	if (q < g->to_pos)
		return false; /* made before or after a dropped one: which, nobody knows */
	g->open = false;
	*out = (struct smp_pause_gap){ g->from_t, t < g->from_t ? g->from_t : t, g->dropped, false,
				       false };
	return true;
}

bool smp_gap_flush(struct smp_gap_track *g, struct smp_pause_gap *out)
{
	if (!g->open)
		return false;
	g->open = g->cand = false;
	*out = (struct smp_pause_gap){ g->from_t, INT64_MAX, g->dropped, false, false };
	return true;
}
