// SPDX-License-Identifier: MIT
/*
 * Reading one perf mmap ring. Call order and barriers (see the kernel's
 * tools/include/linux/ring_buffer.h): load data_head with acquire so the record bytes
 * written before it are visible; copy [tail, head); store data_tail with release so the
 * kernel does not overwrite bytes we are still copying.
 *
 * Contiguous runs of records go to the sink in one call; a record that wraps around the
 * end of the ring is copied into the bounce buffer first.
 */
#include "sampler/internal.h"

#include <errno.h>
#include <string.h>

static void count_record(const unsigned char *rec, struct smp_stats *st)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE) {
		st->samples++;
	} else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
		uint64_t lost;

		memcpy(&lost, rec + sizeof(h) + 8, sizeof(lost));
		st->lost += lost;
	}
}

long smp_ring_drain(struct smp_ring *r, struct smp_stats *st, unsigned char *bounce,
		    smp_sink_fn sink, void *arg)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail, start = tail;
	const unsigned char *run = NULL;
	size_t run_len = 0, mask = r->data_size - 1;
	long ret = 0;

	while (tail < head) {
		size_t off = tail & mask;
		struct perf_event_header h;
		const unsigned char *rec;

		/* records are 8-byte aligned and the ring is a power of two: no header wraps */
		memcpy(&h, r->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			/* cannot happen with a sane kernel; drop the rest rather than loop */
			tail = head;
			break;
		}
		if (off + h.size <= r->data_size) {
			rec = r->data + off;
			if (run && run + run_len != rec) {
				ret = sink(arg, run, run_len);
				run = NULL, run_len = 0;
			}
			if (!run)
				run = rec;
			run_len += h.size;
		} else {
			size_t first = r->data_size - off;

			if (run)
				ret = sink(arg, run, run_len);
			run = NULL, run_len = 0;
			memcpy(bounce, r->data + off, first);
			memcpy(bounce + first, r->data, h.size - first);
			rec = bounce;
			if (!ret)
				ret = sink(arg, bounce, h.size);
		}
		if (ret)
			goto out;
		count_record(rec, st);
		tail += h.size;
	}
	if (run)
		ret = sink(arg, run, run_len);
out:
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	st->bytes += tail - start;
	return ret ? ret : (long)(tail - start);
}
