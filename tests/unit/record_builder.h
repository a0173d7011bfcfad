/* SPDX-License-Identifier: MIT */
/* Unit tests' builders of perf records, written through lib/session's writer
 * (test_report.c, test_callgraph.c). Included once per test. */
#ifndef UPROF_TEST_RECORD_BUILDER_H
#define UPROF_TEST_RECORD_BUILDER_H

#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

#include "session/session.h"

struct buf {
	unsigned char b[1024];
	size_t n; /* start at 8: the header is filled in by finish() */
};

static inline void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static inline void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static inline void put32x2(struct buf *b, uint32_t x, uint32_t y)
{
	put(b, &x, 4);
	put(b, &y, 4);
}

/* Fill in the header and append the record to @w. */
static inline void finish(struct ses_writer *w, struct buf *b, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { type, misc, (uint16_t)b->n };

	memcpy(b->b, &h, sizeof(h));
	assert_int_equal(ses_writer_write(w, b->b, b->n), 0);
}

#endif
