// SPDX-License-Identifier: MIT
/*
 * Each thread's states and system calls as spans in time, for a trace's thread-state and
 * system-call slices (lib/export's Perfetto trace). The model's sums are made from the
 * same spans as they close (model.c's close_state, calls.c's ost_calls_end), so the
 * slices of a thread add up to its THREAD STATES row. Kept only when a report exports a
 * timeline (ost_model_keep_spans: trace.json, report.html's bands), at most
 * OST_SPANS_MAX, the earliest; the rest are counted.
 */
#include "ostrace/internal.h"

#include <errno.h>

static int add(struct ost_model *m, const struct ost_span *s)
{
	if (s->end <= s->begin || !m->spans_max)
		return 0;
	if (m->nspans >= m->spans_max) {
		m->spans_left_out++;
		return 0;
	}
	if (ost_grow((void **)&m->spans, &m->capspans, m->nspans + 1, sizeof(*s)))
		return -ENOMEM;
	m->spans[m->nspans++] = *s;
	return 0;
}

int ost_timeline_state(struct ost_model *m, const struct thr *t, enum ost_span_kind kind,
		       enum ost_wait wait, uint64_t begin, uint64_t end)
{
	return add(m, &(struct ost_span){ .pid = t->pub.pid,
					  .tid = t->pub.tid,
					  .begin = begin,
					  .end = end,
					  .kind = (uint8_t)kind,
					  .wait = (uint8_t)wait });
}

int ost_timeline_call(struct ost_model *m, const struct thr *t, uint64_t end, int64_t ret)
{
	return add(m, &(struct ost_span){ .pid = t->pub.pid,
					  .tid = t->pub.tid,
					  .begin = t->call_start,
					  .end = end,
					  .ret = ret,
					  .nr = (int32_t)t->call_nr,
					  .kind = OST_SPAN_CALL });
}

void ost_model_keep_spans(struct ost_model *m, size_t max)
{
	m->spans_max = max < OST_SPANS_MAX ? max : OST_SPANS_MAX;
}

size_t ost_model_spans(const struct ost_model *m, const struct ost_span **out, uint64_t *left_out)
{
	*out = m->spans;
	*left_out = m->spans_left_out;
	return m->nspans;
}
