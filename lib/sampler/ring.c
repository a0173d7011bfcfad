// SPDX-License-Identifier: MIT
/*
 * Reading one perf mmap ring. Call order and barriers (see the kernel's
 * tools/include/linux/ring_buffer.h): load data_head with acquire so the record bytes
 * written before it are visible; copy [tail, head); store data_tail with release so the
 * kernel does not overwrite bytes we are still copying.
 *
 * Contiguous runs of records go to the sink in one call; a record that wraps around the
 * end of the ring is copied into the bounce buffer first. data_tail only moves past
 * records the sink took, and only those are counted: what a failing sink refused stays
 * in the ring for the next drain.
 */
#include "sampler/internal.h"
#include "session/session.h"

#include <errno.h>
#include <string.h>

/* What a record counts for; decoded by lib/session's codec. The ring holds records of
 * several events, but LOST's fields come before any trailer, so no attr is needed. */
static void count_record(const unsigned char *rec, size_t len, struct smp_stats *st)
{
	struct perf_event_header h;
	struct ses_lost l;

	if (ses_record_header(rec, len, &h))
		return;
	if (h.type == PERF_RECORD_SAMPLE)
		st->samples++;
	else if (h.type == PERF_RECORD_LOST && !ses_decode_lost(NULL, rec, len, &l))
		st->lost += l.lost;
}

/* Records gathered for one sink call, and what they will count once delivered. */
struct run {
	const unsigned char *p;
	size_t len;
	uint64_t from; /* ring position of its first record */
	struct smp_stats st;
};

/* Hand the run to the sink; on success its counts join @st. 0 or the sink's -errno. */
static int run_flush(struct run *run, struct smp_stats *st, smp_sink_fn sink, void *arg)
{
	int ret = 0;

	if (run->p) {
		ret = sink(arg, run->p, run->len);
		if (!ret) {
			st->samples += run->st.samples;
			st->lost += run->st.lost;
		}
	}
	memset(&run->st, 0, sizeof(run->st));
	run->p = NULL;
	run->len = 0;
	return ret;
}

long smp_ring_drain(struct smp_ring *r, struct smp_stats *st, unsigned char *bounce,
		    smp_sink_fn sink, void *arg)
{
	uint64_t head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->data_tail, start = tail;
	struct run run = { NULL, 0, tail, { 0 } };
	size_t mask = r->data_size - 1;
	long ret = 0;

	while (tail < head) {
		size_t off = tail & mask;
		struct perf_event_header h;

		/* records are 8-byte aligned and the ring is a power of two: no header wraps */
		memcpy(&h, r->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			/* cannot happen with a sane kernel; drop the rest rather than loop */
			tail = head;
			break;
		}
		if (off + h.size <= r->data_size) {
			/* a run is one piece of the ring: a record that ended exactly at the
			 * ring's end is followed by one at its start, not by the bytes after
			 * the ring (appending it wrote those into samples.data) */
			if (run.p && run.p + run.len != r->data + off) {
				ret = run_flush(&run, st, sink, arg);
				if (ret) {
					tail = run.from;
					goto out;
				}
			}
			if (!run.p) {
				run.p = r->data + off;
				run.from = tail;
			}
			run.len += h.size;
			count_record(r->data + off, h.size, &run.st);
		} else {
			size_t first = r->data_size - off;

			ret = run_flush(&run, st, sink, arg);
			if (ret) {
				tail = run.from;
				goto out;
			}
			memcpy(bounce, r->data + off, first);
			memcpy(bounce + first, r->data, h.size - first);
			ret = sink(arg, bounce, h.size);
			if (ret)
				goto out; /* tail is still this record's start */
			count_record(bounce, h.size, st);
		}
		tail += h.size;
	}
	ret = run_flush(&run, st, sink, arg);
	if (ret)
		tail = run.from;
out:
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	st->bytes += tail - start;
	return ret ? ret : (long)(tail - start);
}
