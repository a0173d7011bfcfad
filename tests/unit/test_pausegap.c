// SPDX-License-Identifier: MIT
/*
 * Pause records a full ring dropped (lib/sampler/pausegap.c, docs/DESIGN.md §5): a synthetic
 * page, a producer that does what lib/instrument's emit() does (a full ring drops the
 * record and counts it), drains between its calls as collect's worker makes them. The
 * gap handed out runs from the last record surely made before the drops to the first
 * surely made after, exact to the stamp; every record kept is still handed on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "instrument/ctlpage.h"
#include "sampler/sampler.h"

#define PAUSES 16
#define STR_BYTES 4096
#define SIZE (UPROF_CTL_HEADER_BYTES + STR_BYTES + (1 + PAUSES) * sizeof(struct uprof_ctl_record))

struct fixture {
	unsigned char *m;
	struct uprof_ctl_header *h;
	struct uprof_ctl_record *slots;
	struct smp_page *p;
	struct smp_pause_gap gaps[8];
	int ngaps;
	int64_t recs[256]; /* stamps handed on */
	int nrecs;
	int gaps_before_rec[256]; /* gaps handed out before each record */
};

static unsigned char *make_page(void)
{
	unsigned char *m = calloc(1, SIZE);
	struct uprof_ctl_header *h = (struct uprof_ctl_header *)m;
	struct uprof_ctl_record *slots;

	assert_non_null(m);
	h->version = UPROF_CTL_VERSION_OF(UPROF_CTL_MAJOR, 1);
	h->size = SIZE;
	h->header_size = UPROF_CTL_HEADER_BYTES;
	h->pid = 4242;
	h->str_offset = UPROF_CTL_HEADER_BYTES;
	h->str_bytes = STR_BYTES;
	h->ring.offset = h->str_offset + STR_BYTES;
	h->ring.records = 1;
	h->pauses.offset = h->ring.offset + sizeof(struct uprof_ctl_record);
	h->pauses.records = PAUSES;
	h->clock_kind = UPROF_CLOCK_MONO;
	h->mono0 = 1;
	slots = (struct uprof_ctl_record *)(m + h->pauses.offset);
	for (uint32_t i = 0; i < PAUSES; i++)
		slots[i].seq = i;
	h->magic = UPROF_CTL_MAGIC;
	return m;
}

/* lib/instrument's call for one thread: the state word, then emit(): claim, fill,
 * publish; full: drop and count. */
static bool emit(struct fixture *f, int64_t t, bool pause)
{
	uint64_t pos = f->h->pauses.head;
	struct uprof_ctl_record *slot = &f->slots[pos & (PAUSES - 1)];

	f->h->state = pause;
	if (slot->seq != pos) {
		f->h->pauses.dropped++;
		return false;
	}
	f->h->pauses.head = pos + 1;
	*slot = (struct uprof_ctl_record){ 0, (uint64_t)t, 1,
					   pause ? UPROF_REC_PAUSE : UPROF_REC_RESUME, UPROF_HOW_API,
					   0, 0 };
	slot->seq = pos + 1;
	return true;
}

/* @n calls from stamp @t0, @dt apart, pause and resume in turn. The number kept. */
static int calls(struct fixture *f, int n, int64_t t0, int64_t dt)
{
	int kept = 0;

	for (int i = 0; i < n; i++)
		kept += emit(f, t0 + i * dt, i % 2 == 0);
	return kept;
}

static void on_gap(void *arg, const struct smp_pause_gap *gap)
{
	struct fixture *f = arg;

	assert_true(f->ngaps < 8);
	f->gaps[f->ngaps++] = *gap;
}

static void on_rec(void *arg, const struct uprof_ctl_record *r)
{
	struct fixture *f = arg;

	assert_true(f->nrecs < 256);
	f->gaps_before_rec[f->nrecs] = f->ngaps;
	f->recs[f->nrecs++] = (int64_t)r->time_ns;
}

static long drain(struct fixture *f)
{
	return smp_page_drain(f->p, true, on_rec, f);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->m = make_page();
	f->h = (struct uprof_ctl_header *)f->m;
	f->slots = (struct uprof_ctl_record *)(f->m + f->h->pauses.offset);
	*state = f;
	return 0;
}

static void open_page(struct fixture *f)
{
	assert_int_equal(smp_page_open_mem(&f->p, f->m, SIZE, NULL), 0);
	smp_page_on_gap(f->p, on_gap, f);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	smp_page_close(f->p);
	free(f->m);
	free(f);
	return 0;
}

static void gap_is(const struct fixture *f, int i, int64_t from, int64_t to, uint64_t dropped)
{
	assert_true(i < f->ngaps);
	assert_int_equal(f->gaps[i].from_ns, from);
	assert_int_equal(f->gaps[i].to_ns, to);
	assert_int_equal(f->gaps[i].dropped, dropped);
	assert_false(f->gaps[i].by_state);
}

static int64_t mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A drain, and the CLOCK_MONOTONIC readings just before and after it. */
static void timed_drain(struct fixture *f, long want, int64_t *before, int64_t *after)
{
	*before = mono();
	assert_int_equal(drain(f), want);
	*after = mono();
}

/* No drop, no gap, however many drains: every record handed on. */
static void no_drop_no_gap(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	for (int round = 0; round < 10; round++) {
		assert_int_equal(calls(f, 12, 1000 * round + 1, 10), 12);
		assert_int_equal(drain(f), 12);
	}
	smp_page_flush_gap(f->p);
	assert_int_equal(f->ngaps, 0);
	assert_int_equal(f->nrecs, 120);
}

/* 10 calls read; then 16 fill the ring and 5 are dropped; then 2 more after a drain.
 * Unknown from the 10th call (stamp 1000: the last read before the drops could have been
 * made) to the first call after the drain that freed the ring (3200); the 16 calls in
 * between are still handed on (collect's live state follows them). */
static void full_ring_gap(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	assert_int_equal(calls(f, 10, 100, 100), 10); /* 100 .. 1000 */
	assert_int_equal(drain(f), 10);
	assert_int_equal(calls(f, 21, 1100, 100), PAUSES); /* 1100 .. 2600 kept, 5 dropped */
	assert_int_equal(f->h->pauses.dropped, 5);
	assert_int_equal(drain(f), PAUSES);
	assert_int_equal(f->ngaps, 0); /* its end is not known yet */
	assert_int_equal(calls(f, 2, 3200, 100), 2);
	assert_int_equal(drain(f), 2);
	assert_int_equal(f->ngaps, 1);
	gap_is(f, 0, 1000, 3200, 5);
	assert_int_equal(f->nrecs, 28);
	assert_int_equal(f->gaps_before_rec[26], 1); /* handed out before 3200 itself */
	assert_int_equal(f->gaps_before_rec[25], 0);
	smp_page_flush_gap(f->p);
	assert_int_equal(f->ngaps, 1);
}

/* Drops and nothing after them: the gap runs to the end (INT64_MAX) at the flush, and
 * the drops the flush itself sees are counted. */
static void gap_open_at_the_end(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	assert_int_equal(calls(f, 4, 10, 10), 4);
	assert_int_equal(drain(f), 4);
	assert_int_equal(calls(f, PAUSES + 3, 50, 10), PAUSES);
	assert_int_equal(drain(f), PAUSES);
	assert_int_equal(calls(f, PAUSES + 2, 500, 10), PAUSES);
	smp_page_flush_gap(f->p); /* no drain between: its 16 records are not read */
	assert_int_equal(f->ngaps, 1);
	gap_is(f, 0, 40, INT64_MAX, 5);
}

/* The last call dropped, and then none: two drains that find the ring empty, nothing
 * more dropped and the same state word end the gap at the first of them, saying the
 * state (paused: the 19th call, dropped, was a pause). A look with another state word
 * starts the wait over; a record ends the gap as a record does. */
static void state_word_ends_a_gap(void **state)
{
	struct fixture *f = *state;
	int64_t t0, t1, t2, t3;

	open_page(f);
	assert_int_equal(calls(f, 4, 10, 10), 4); /* 10 .. 40 */
	assert_int_equal(drain(f), 4);
	assert_int_equal(calls(f, PAUSES + 3, 100, 10), PAUSES);
	timed_drain(f, PAUSES, &t0, &t1); /* its last look: empty, clean, paused */
	assert_int_equal(f->ngaps, 0);
	f->h->state = 0; /* a call on its way (state stored, record not yet made) */
	timed_drain(f, 0, &t2, &t3);
	assert_int_equal(f->ngaps, 0);
	f->h->state = 1; /* and one more, back: the same twice from now on */
	timed_drain(f, 0, &t2, &t3);
	assert_int_equal(f->ngaps, 0);
	assert_int_equal(drain(f), 0);
	assert_int_equal(f->ngaps, 1);
	assert_int_equal(f->gaps[0].from_ns, 40);
	assert_true(f->gaps[0].to_ns >= t2 && f->gaps[0].to_ns <= t3);
	assert_int_equal(f->gaps[0].dropped, 3);
	assert_true(f->gaps[0].by_state);
	assert_true(f->gaps[0].paused);
	(void)t0;
	(void)t1;
}

/* A look that finds the ring empty, then a record: the record ends the gap. */
static void record_after_one_look(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	assert_int_equal(calls(f, 1, 10, 10), 1);
	assert_int_equal(drain(f), 1);
	assert_int_equal(calls(f, PAUSES + 1, 100, 10), PAUSES);
	assert_int_equal(drain(f), PAUSES); /* one look: empty, clean */
	assert_int_equal(calls(f, 1, 7000, 10), 1);
	assert_int_equal(drain(f), 1);
	assert_int_equal(f->ngaps, 1);
	gap_is(f, 0, 10, 7000, 1);
}

/* Records kept before we came (launch mode) with drops among them: unknown from the
 * start (INT64_MIN) to the first record after. */
static void drops_before_the_first_read(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(calls(f, PAUSES + 7, 100, 1), PAUSES);
	open_page(f);
	assert_int_equal(drain(f), PAUSES);
	assert_int_equal(calls(f, 1, 900, 1), 1);
	assert_int_equal(drain(f), 1);
	assert_int_equal(f->ngaps, 1);
	gap_is(f, 0, INT64_MIN, 900, 7);
}

/* Two runs of drops with clean reads between: two gaps, each exact. */
static void two_gaps(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	assert_int_equal(calls(f, 2, 10, 10), 2); /* 10, 20 */
	assert_int_equal(drain(f), 2);
	assert_int_equal(calls(f, PAUSES + 1, 100, 10), PAUSES); /* 1 dropped */
	assert_int_equal(drain(f), PAUSES);
	assert_int_equal(calls(f, 3, 1000, 10), 3); /* 1000 ends the first */
	assert_int_equal(drain(f), 3);
	assert_int_equal(calls(f, PAUSES + 2, 2000, 10), PAUSES); /* 2 dropped */
	assert_int_equal(drain(f), PAUSES);
	assert_int_equal(calls(f, 1, 5000, 10), 1);
	assert_int_equal(drain(f), 1);
	assert_int_equal(f->ngaps, 2);
	gap_is(f, 0, 20, 1000, 1);
	gap_is(f, 1, 1020, 5000, 2); /* from the last of the 3 read cleanly */
}

/* A page whose counters are scribbled on: a head far ahead, a drop count that goes down
 * then jumps. Nothing faults, the gap ends within a ring of records, and a count going
 * down is no drop. */
static void scribbled_counters(void **state)
{
	struct fixture *f = *state;

	open_page(f);
	assert_int_equal(calls(f, 3, 10, 10), 3);
	assert_int_equal(drain(f), 3);
	f->h->pauses.dropped = 1000;
	f->h->pauses.head = UINT64_MAX - 5; /* the producers cannot be a ring ahead */
	assert_int_equal(drain(f), 0);
	f->h->pauses.head = 3; /* put back: the producer goes on from where it was */
	f->h->pauses.dropped = 1000;
	assert_int_equal(calls(f, PAUSES, 100, 10), PAUSES);
	assert_int_equal(drain(f), PAUSES); /* 3 .. 18: the gap ends at 3 + 16 = 19 */
	assert_int_equal(f->ngaps, 0);
	assert_int_equal(calls(f, 1, 900, 10), 1);
	assert_int_equal(drain(f), 1);
	assert_int_equal(f->ngaps, 1);
	gap_is(f, 0, 30, 900, 1000);
	f->h->pauses.dropped = 3; /* down: the new base, no gap */
	assert_int_equal(calls(f, 2, 1000, 10), 2);
	assert_int_equal(drain(f), 2);
	smp_page_flush_gap(f->p);
	assert_int_equal(f->ngaps, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(no_drop_no_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(full_ring_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(gap_open_at_the_end, setup, teardown),
		cmocka_unit_test_setup_teardown(drops_before_the_first_read, setup, teardown),
		cmocka_unit_test_setup_teardown(state_word_ends_a_gap, setup, teardown),
		cmocka_unit_test_setup_teardown(record_after_one_look, setup, teardown),
		cmocka_unit_test_setup_teardown(two_gaps, setup, teardown),
		cmocka_unit_test_setup_teardown(scribbled_counters, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
