// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the profiler's reading of a control page (lib/sampler/ctlpage.c):
 * the input becomes the start of a page image (header, then string table bytes), the
 * rest is the layout a real target writes with the input's bytes sprinkled over its
 * rings. Whatever the target wrote, uprof must not crash, loop or read out of bounds.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "instrument/ctlpage.h"
#include "sampler/sampler.h"

#define PAGE_BYTES (UPROF_CTL_SIZE + UPROF_CTL_LANES_BYTES(2))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int on_string(void *arg, uint32_t id, const char *s, size_t len)
{
	(void)id;
	*(size_t *)arg += len ? (unsigned char)s[len - 1] : 0;
	return 0;
}

static void on_record(void *arg, const struct uprof_ctl_record *r)
{
	*(size_t *)arg += r->kind;
}

/* A gap's bounds are read as collect reads them. */
static void on_gap(void *arg, const struct smp_pause_gap *g)
{
	*(size_t *)arg += (size_t)(g->to_ns - g->from_ns) + g->dropped + g->paused;
}

#define PAGE_BYTES (UPROF_CTL_SIZE + UPROF_CTL_LANES_BYTES(2))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *page;
	struct uprof_ctl_header *h;
	struct smp_page *p;
	size_t sink = 0;

	if (!page)
		page = malloc(PAGE_BYTES);
	memset(page, 0, PAGE_BYTES);
	h = (struct uprof_ctl_header *)page;
	/* a sane page first, so the fuzzer gets past validation, then its bytes on top */
	h->magic = UPROF_CTL_MAGIC;
	h->version = UPROF_CTL_VERSION;
	h->size = PAGE_BYTES;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->str_offset = UPROF_CTL_HEADER_BYTES;
	h->str_bytes = UPROF_CTL_STR_BYTES;
	h->ring.offset = h->str_offset + h->str_bytes;
	h->ring.records = UPROF_CTL_RING_RECORDS;
	h->pauses.offset = h->ring.offset + UPROF_CTL_RING_RECORDS * sizeof(struct uprof_ctl_record);
	h->pauses.records = UPROF_CTL_PAUSE_RECORDS;
	h->clock_kind = UPROF_CLOCK_TSC;
	h->tsc0 = 1;
	h->mono0 = 1;
	/* 2.6: two lanes, both taken, after the pause ring */
	h->lanes_offset = UPROF_CTL_SIZE;
	h->lane_count = 2;
	h->lane_records = UPROF_CTL_LANE_RECORDS;
	h->lanes_claimed = 2;
	if (size > 8) {
		/* skip the magic unless the input says otherwise in its first byte */
		size_t skip = data[0] & 1 ? 0 : 8;
		size_t n = size - 1 < UPROF_CTL_HEADER_BYTES + 8192 ? size - 1 : UPROF_CTL_HEADER_BYTES + 8192;

		if (n > skip)
			memcpy(page + skip, data + 1 + skip, n - skip);
		/* and the same bytes over the first slots of both rings */
		if (h->ring.offset < UPROF_CTL_SIZE - 4096 && !(data[0] & 2))
			memcpy(page + UPROF_CTL_HEADER_BYTES + UPROF_CTL_STR_BYTES, data + 1,
			       n < 4096 ? n : 4096);
		/* and over the lanes' control words and lane 1's first slots */
		if (data[0] & 4) {
			memcpy(page + UPROF_CTL_SIZE, data + 1, n < 128 ? n : 128);
			memcpy(page + UPROF_CTL_SIZE + UPROF_CTL_LANE_CTL_BYTES +
				       UPROF_CTL_LANE_RECORDS * sizeof(struct uprof_ctl_record),
			       data + 1, n < 4096 ? n : 4096);
		}
	}
	if (smp_page_open_mem(&p, page, PAGE_BYTES, NULL))
		return 0;
	smp_page_on_gap(p, on_gap, &sink);
	for (int round = 0; round < 2; round++) {
		smp_page_strings(p, on_string, &sink);
		smp_page_drain(p, false, on_record, &sink);
		smp_page_drain(p, true, on_record, &sink);
	}
	smp_page_flush_gap(p);
	smp_page_close(p);
	return (int)(sink & 0);
}
