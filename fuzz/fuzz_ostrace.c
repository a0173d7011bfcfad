// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for --trace os's inputs (lib/ostrace): the session's tracepoints.format
 * (ost_formats_parse, ost_format_parse, its "func:" lines too) and the raw tracepoint
 * records read by those formats (ost_model_*, --func's calls by any index). The input is the formats file, a NUL, then records: one byte
 * (which format, or a switch / begin / exit), one byte of length, that many raw bytes.
 * Aborts when a thread's states come out longer than its lifetime.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ostrace/ostrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void feed(const struct ost_formats *fm, const uint8_t *p, size_t n)
{
	struct ost_model *m = ost_model_new(fm);
	const struct ost_thread *t;
	uint64_t time = 1000;
	size_t nt;

	if (!m)
		return;
	ost_model_func_slices(m, 5000, 1 + (n & 0xffff)); /* --funccount-interval */
	while (n >= 2) {
		uint8_t what = p[0], len = p[1];
		int tid = 100 + (what >> 5);

		p += 2, n -= 2;
		if (len > n)
			len = (uint8_t)n;
		time += (uint64_t)len * 997 + 1;
		if ((what & 31) < 16 && fm->n) {
			const struct ost_format *f = &fm->f[(what & 31) % fm->n];

			ost_model_sample(m, &(struct ost_sample){ time, 100, tid, f->id, p, len,
								  len ? p[0] : OST_NO_STACK });
			/* --func's record: a function index from the input, any value */
			if (f->kind == OST_TP_FUNC && len)
				ost_model_func_call(m, time, 100, tid, (int)(int8_t)p[0]);
		} else if ((what & 31) < 24) {
			ost_model_switch(m, time, 100, tid, what & 1, what & 2);
		} else if ((what & 31) < 28) {
			ost_model_begin(m, time, 100, tid);
		} else {
			ost_model_exit(m, time, 100, tid);
		}
		p += len, n -= len;
	}
	ost_model_finish(m, time + 1);
	nt = ost_model_threads(m, &t);
	for (size_t i = 0; i < nt; i++) {
		uint64_t sum = t[i].state_ns[OST_RUNNING] + t[i].state_ns[OST_RUNNABLE] +
			       t[i].state_ns[OST_BLOCKED];

		if (t[i].end < t[i].start || sum > t[i].end - t[i].start)
			abort();
	}
	ost_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t flen = nul ? (size_t)(nul - data) : size;
	struct ost_formats *fm = malloc(sizeof(*fm));
	struct ost_format one;
	char err[128];

	if (!fm)
		return 0;
	ost_format_parse((const char *)data, flen, &one, err, sizeof(err));
	if (!ost_formats_parse((const char *)data, flen, fm, err, sizeof(err)) && nul)
		feed(fm, nul + 1, size - flen - 1);
	free(fm);
	return 0;
}
