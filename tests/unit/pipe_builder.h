/* SPDX-License-Identifier: MIT */
/* Unit tests' builder of perf pipe streams by hand, byte by byte as perf writes them
 * (test_session_foreign.c, test_report_foreign.c): records are built in place, begin()
 * leaves room for the header and end() fills it in. Needs cmocka's asserts. */
#ifndef UPROF_TEST_PIPE_BUILDER_H
#define UPROF_TEST_PIPE_BUILDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <linux/perf_event.h>

struct img {
	unsigned char b[8192];
	size_t n;
};

static inline void put(struct img *m, const void *p, size_t n)
{
	assert_true(m->n + n <= sizeof(m->b));
	memcpy(m->b + m->n, p, n);
	m->n += n;
}

static inline void put64(struct img *m, uint64_t v)
{
	put(m, &v, 8);
}

static inline void put32(struct img *m, uint32_t v)
{
	put(m, &v, 4);
}

/* A perf string: u32 length (padded to 8), the bytes, NULs. */
static inline void putstr(struct img *m, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 7) / 8 * 8);
	char pad[64] = { 0 };

	put32(m, len);
	memcpy(pad, s, strlen(s));
	put(m, pad, len);
}

/* Records are built in place: begin() leaves room for the header, end() fills it in
 * (perf pads some records to 8 bytes and not others: @pad8 says). */
static inline size_t begin(struct img *m)
{
	size_t at = m->n;

	m->n += sizeof(struct perf_event_header);
	return at;
}

static inline void end(struct img *m, size_t at, uint32_t type, bool pad8)
{
	struct perf_event_header h = { type, 0, 0 };

	while (pad8 && (m->n - at) % 8)
		m->b[m->n++] = 0;
	h.size = (uint16_t)(m->n - at);
	memcpy(m->b + at, &h, sizeof(h));
}

#endif
