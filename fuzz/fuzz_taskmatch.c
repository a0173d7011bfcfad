// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for what report does with an instrument/<pid>.tasks file it did not
 * write: parse it (lib/session/tasks.c), then match its records (lib/report/taskmatch.c)
 * against paused intervals and count samples, both made from the file's own bytes; and
 * arbitrate pause calls made from them (lib/session/pauses.c). Checks the invariants
 * instead of only not crashing: every instance ends at or after its begin, lies outside
 * the pauses, and no more instances come out than records went in; intervals are sorted,
 * disjoint and inside the session.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/taskmatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const void *resolve(void *arg, uint32_t id, enum rpt_tk_role role)
{
	const struct ses_tasks *t = arg;
	const char *s = ses_tasks_string(t, id);

	(void)role;
	return s && s[0] != ',' ? s : NULL; /* a first comma stands for a refused name */
}

static void match(struct ses_tasks *t, const uint8_t *data, size_t size)
{
	struct rpt_tk_names names = { resolve, t, NULL };
	struct rpt_span spans[8];
	struct rpt_sample_time st[16];
	struct rpt_tk_result m;
	size_t ns = 0, nst = 0;

	/* the first bytes of the file as pauses and samples, so they meet the records' times */
	for (size_t i = 0; i + 16 <= size && ns < 8; i += 16) {
		uint64_t a, b;

		memcpy(&a, data + i, 8);
		memcpy(&b, data + i + 8, 8);
		a >>= 2;
		b >>= 2;
		spans[ns++] = (struct rpt_span){ (int64_t)(a < b ? a : b), (int64_t)(a < b ? b : a) };
	}
	ns = rpt_spans_merge(spans, ns);
	for (size_t i = 0; i < t->nrecords && nst < 16; i++)
		st[nst++] = (struct rpt_sample_time){ t->records[i].tid, t->records[i].time_ns };
	rpt_tk_sort_samples(st, nst);
	if (rpt_tk_match(t->records, t->nrecords, spans, ns, &names, &m))
		return;
	if (m.n > t->nrecords)
		abort();
	for (size_t i = 0; i < m.n; i++) {
		const struct rpt_tk_inst *in = &m.v[i];

		if (in->end < in->begin || !in->name || !in->key ||
		    rpt_spans_meet(spans, ns, in->begin, in->end))
			abort();
		if (rpt_tk_samples(st, nst, in->tid, in->begin, in->end) > nst)
			abort();
	}
	rpt_tk_result_release(&m);
}

static void arbitrate(const uint8_t *data, size_t size)
{
	struct ses_pause_call calls[64];
	struct ses_pause *v;
	size_t n = 0, nv;
	int64_t start = 1000, end = 1000000;

	for (size_t i = 0; i + 4 <= size && n < 64; i += 4) {
		uint32_t w;

		memcpy(&w, data + i, 4);
		calls[n++] = (struct ses_pause_call){ (int64_t)(w >> 12) - 4096, (int)(w & 7),
						      (w & 8) != 0, (uint16_t)((w >> 4) & 3) };
	}
	if (ses_pauses_arbitrate(calls, n, size && (data[0] & 1), start, end, end + 10, &v, &nv,
				 NULL))
		return;
	for (size_t i = 0; i < nv; i++)
		if (v[i].paused_at < start || v[i].resumed_at > end ||
		    v[i].resumed_at < v[i].paused_at || (i && v[i].paused_at < v[i - 1].resumed_at))
			abort();
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ses_tasks t;
	char err[128];

	arbitrate(data, size);
	if (ses_tasks_parse(data, size, &t, err, sizeof(err)))
		return 0;
	match(&t, data, size);
	ses_tasks_release(&t);
	return 0;
}
