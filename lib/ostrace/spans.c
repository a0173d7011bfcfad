// SPDX-License-Identifier: MIT
/*
 * Each thread's states over time, for a picture of them (report.html's timeline): the
 * spans close_state() adds to the totals, kept when asked (ost_model_keep_spans) and
 * bounded; a span past the bound is counted, its time still in the totals.
 */
#include "ostrace/internal.h"

#include <errno.h>

void ost_model_keep_spans(struct ost_model *m, size_t max)
{
	m->spans_max = max;
}

int ost_span_add(struct ost_model *m, int tid, enum ost_state state, uint64_t begin, uint64_t end)
{
	if (!m->spans_max || end <= begin)
		return 0;
	if (m->nspans == m->spans_max) {
		m->spans_lost++;
		return 0;
	}
	if (ost_grow((void **)&m->spans, &m->capspans, m->nspans + 1, sizeof(*m->spans)))
		return -ENOMEM;
	m->spans[m->nspans++] = (struct ost_span){ tid, state, begin, end };
	return 0;
}

size_t ost_model_spans(const struct ost_model *m, const struct ost_span **out, uint64_t *lost)
{
	*out = m->spans;
	*lost = m->spans_lost;
	return m->nspans;
}
