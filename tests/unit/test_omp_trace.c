// SPDX-License-Identifier: MIT
/*
 * lib/report/openmp_trace.c: a .ompt file's records paired into the slices of trace.json,
 * on synthetic files (the records a target wrote: untrusted). Each thread's records pair
 * in file order: nested implicit tasks and their waits exactly; a worker's last barrier
 * wait, which the runtime never ends, ends with its implicit task; an end without its
 * begin and a begin never ended count as unpaired, never as a slice; target ops nest in
 * their target with their bytes and devices; a device record without a time is no slice;
 * past the cap the earliest slices are kept and the rest counted from the first left out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/omp_trace.h"

#define DEVS(src, dest) ((uint32_t)((src) + 1) | (uint32_t)((dest) + 1) << 16)
#define R(t, tid, kind, how, site, slot) { (t), (tid), SES_OMPT_##kind, (how), (site), (slot) }

/* Pair @n records of one file (scope @scope) into a fresh trace, settled with @cap. */
static struct rpt_omp_trace *pair(const struct ses_ompt_record *recs, size_t n, uint16_t scope,
				  size_t cap)
{
	struct rpt_omp_trace *t = calloc(1, sizeof(*t));
	struct ses_ompt o;

	assert_non_null(t);
	memset(&o, 0, sizeof(o));
	o.scope = scope;
	o.events = calloc(n, sizeof(*recs));
	o.targets = calloc(n, sizeof(*recs));
	assert_non_null(o.events);
	assert_non_null(o.targets);
	for (size_t i = 0; i < n; i++) {
		if (recs[i].kind <= SES_OMPT_WAIT_END)
			o.events[o.nevents++] = recs[i];
		else
			o.targets[o.ntargets++] = recs[i];
	}
	assert_int_equal(rpt_omp_trace_pair(t, &o, 0), 0);
	assert_int_equal(rpt_omp_trace_settle(t, NULL, 1, cap), 0);
	free(o.events);
	free(o.targets);
	return t;
}

static void expect(const struct rpt_omp_slice *s, uint16_t kind, uint32_t tid, uint64_t begin,
		   uint64_t end)
{
	assert_int_equal(s->kind, kind);
	assert_int_equal(s->tid, tid);
	assert_int_equal(s->begin, begin);
	assert_int_equal(s->end, end);
}

/* Two threads interleaved in the file: thread 7 runs an outer region (site 1) holding an
 * inner one (site 2) and waits at an explicit barrier of the outer one; thread 8 is member
 * 1 of the outer region, waits at a lock (site 3) and ends with a barrier wait the runtime
 * never ended. Sorted by (tid, begin, longest first). */
static void test_regions_and_waits_nest(void **state)
{
	const struct ses_ompt_record recs[] = {
		R(100, 7, BEGIN, 0, 1, 0),
		R(105, 8, BEGIN, 0, 1, 1),
		R(110, 7, BEGIN, 1, 2, 0),
		R(120, 8, WAIT_BEGIN, SES_OMPT_WAIT_MUTEX, 3, 0),
		R(130, 7, END, 1, 2, 0),
		R(135, 8, WAIT_END, SES_OMPT_WAIT_MUTEX, 3, 0),
		R(140, 7, WAIT_BEGIN, SES_OMPT_WAIT_BARRIER_EXPLICIT, 1, 0),
		R(150, 8, WAIT_BEGIN, SES_OMPT_WAIT_BARRIER_IMPLICIT, 1, 1),
		R(160, 7, WAIT_END, SES_OMPT_WAIT_BARRIER_EXPLICIT, 1, 0),
		R(200, 7, END, 0, 1, 0),
		R(200, 8, END, 0, 1, 1),
	};
	struct rpt_omp_trace *t = pair(recs, sizeof(recs) / sizeof(recs[0]), SES_OMPT_SCOPE_FULL,
				       RPT_OMP_SLICES_MAX);
	const struct rpt_omp_slice *s = t->thr.v;

	(void)state;
	assert_int_equal(t->thr.n, 6);
	assert_int_equal(t->dev.n, 0);
	assert_int_equal(t->unpaired, 0);
	assert_int_equal(t->full, 1);
	expect(&s[0], RPT_OMP_SLICE_REGION, 7, 100, 200);
	assert_int_equal(s[0].depth, 0);
	assert_int_equal(s[0].site, 1);
	expect(&s[1], RPT_OMP_SLICE_REGION, 7, 110, 130);
	assert_int_equal(s[1].depth, 1);
	assert_int_equal(s[1].site, 2);
	expect(&s[2], RPT_OMP_SLICE_WAIT, 7, 140, 160);
	assert_int_equal(s[2].how, SES_OMPT_WAIT_BARRIER_EXPLICIT);
	expect(&s[3], RPT_OMP_SLICE_REGION, 8, 105, 200);
	assert_int_equal(s[3].member, 1);
	expect(&s[4], RPT_OMP_SLICE_WAIT, 8, 120, 135);
	assert_int_equal(s[4].how, SES_OMPT_WAIT_MUTEX);
	assert_int_equal(s[4].site, 3);
	/* never ended by the runtime: it ends with the implicit task, as the tool counts it */
	expect(&s[5], RPT_OMP_SLICE_WAIT, 8, 150, 200);
	assert_int_equal(s[5].how, SES_OMPT_WAIT_BARRIER_IMPLICIT);
	rpt_omp_trace_free(t);
}

/* Ends without their begins, a begin never ended, a BEGIN at the wrong depth: counted,
 * no slice made of them; what pairs around them still does. */
static void test_unpaired_records_are_counted(void **state)
{
	const struct ses_ompt_record recs[] = {
		R(10, 7, END, 0, 1, 0),					/* no begin */
		R(20, 7, WAIT_END, SES_OMPT_WAIT_TASKWAIT, 1, 0),	/* no begin */
		R(30, 7, BEGIN, 1, 1, 0),				/* depth 1 at 0 */
		R(40, 7, BEGIN, 0, 1, 0),
		R(50, 7, END, 0, 1, 0),
		R(60, 9, BEGIN, 0, 2, 0),				/* never ended */
		R(70, 9, WAIT_BEGIN, SES_OMPT_WAIT_MUTEX, 4, 0),	/* never ended */
	};
	struct rpt_omp_trace *t = pair(recs, sizeof(recs) / sizeof(recs[0]), SES_OMPT_SCOPE_BASIC,
				       RPT_OMP_SLICES_MAX);

	(void)state;
	assert_int_equal(t->thr.n, 1);
	expect(&t->thr.v[0], RPT_OMP_SLICE_REGION, 7, 40, 50);
	assert_int_equal(t->unpaired, 5);
	assert_int_equal(t->basic, 1);
	rpt_omp_trace_free(t);
}

/* A target region with a transfer to device 2, a submit and one back, its ops inside it;
 * a data op begun and never ended is no slice; a device trace record with a time is one,
 * one without (the runtime could not translate it) is none. */
static void test_target_ops_on_their_device(void **state)
{
	const struct ses_ompt_record recs[] = {
		R(1000, 7, TARGET_BEGIN, SES_OMPT_TGT_REGION, 5, 2),
		R(1010, 7, DATA_BEGIN, SES_OMPT_DATA_TO, 5, DEVS(-1, 2)),
		R(800, 7, DATA_BYTES, SES_OMPT_DATA_TO, 5, DEVS(-1, 2)),
		R(1020, 7, DATA_END, SES_OMPT_DATA_TO, 5, DEVS(-1, 2)),
		R(1030, 7, SUBMIT_BEGIN, 0, 5, 4),
		R(1060, 7, SUBMIT_END, 0, 5, 4),
		R(1070, 7, DATA_BEGIN, SES_OMPT_DATA_FROM, 5, DEVS(2, -1)),
		R(96, 7, DATA_BYTES, SES_OMPT_DATA_FROM, 5, DEVS(2, -1)),
		R(1080, 7, DATA_END, SES_OMPT_DATA_FROM, 5, DEVS(2, -1)),
		R(1090, 7, DATA_BEGIN, SES_OMPT_DATA_DELETE, 5, DEVS(2, -1)), /* never ended */
		R(1100, 7, TARGET_END, SES_OMPT_TGT_REGION, 5, 2),
		R(1040, 0, DEV_BEGIN, SES_OMPT_DEVREC_KERNEL, 2, 9),
		R(64, 0, DEV_BYTES, SES_OMPT_DEVREC_KERNEL, 2, 9),
		R(1050, 0, DEV_END, SES_OMPT_DEVREC_KERNEL, 2, 9),
		R(0, 0, DEV_BEGIN, SES_OMPT_DEVREC_DATA_OP, 2, 10), /* no time */
		R(0, 0, DEV_END, SES_OMPT_DEVREC_DATA_OP, 2, 10),
	};
	struct rpt_omp_trace *t = pair(recs, sizeof(recs) / sizeof(recs[0]), SES_OMPT_SCOPE_BASIC,
				       RPT_OMP_SLICES_MAX);
	const struct rpt_omp_slice *s = t->dev.v;

	(void)state;
	assert_int_equal(t->thr.n, 0);
	assert_int_equal(t->dev.n, 5);
	assert_int_equal(t->unpaired, 1);
	for (size_t i = 0; i < t->dev.n; i++)
		assert_int_equal(s[i].device, 2);
	expect(&s[0], RPT_OMP_SLICE_TARGET, 7, 1000, 1100);
	expect(&s[1], RPT_OMP_SLICE_DATA, 7, 1010, 1020);
	assert_int_equal(s[1].how, SES_OMPT_DATA_TO);
	assert_int_equal(s[1].bytes, 800);
	expect(&s[2], RPT_OMP_SLICE_SUBMIT, 7, 1030, 1060);
	assert_int_equal(s[2].count, 4);
	expect(&s[3], RPT_OMP_SLICE_DEVICE, 0, 1040, 1050);
	assert_int_equal(s[3].count, 64);
	expect(&s[4], RPT_OMP_SLICE_DATA, 7, 1070, 1080);
	assert_int_equal(s[4].bytes, 96);
	rpt_omp_trace_free(t);
}

/* 10 regions of one thread and 3 of another, cap 8: the 8 earliest are kept, whichever
 * thread they are on; the 5 others are counted, the first left out named by its begin. */
static void test_cap_keeps_the_earliest(void **state)
{
	struct ses_ompt_record recs[26];
	size_t n = 0;
	struct rpt_omp_trace *t;

	(void)state;
	for (uint64_t i = 0; i < 10; i++) {
		recs[n++] = (struct ses_ompt_record)R(100 * i, 7, BEGIN, 0, 1, 0);
		recs[n++] = (struct ses_ompt_record)R(100 * i + 50, 7, END, 0, 1, 0);
	}
	for (uint64_t i = 0; i < 3; i++) {
		recs[n++] = (struct ses_ompt_record)R(100 * i + 25, 8, BEGIN, 0, 1, 1);
		recs[n++] = (struct ses_ompt_record)R(100 * i + 75, 8, END, 0, 1, 1);
	}
	t = pair(recs, n, SES_OMPT_SCOPE_BASIC, 8);
	/* by begin: 0 25 100 125 200 225 300 400 | 500 ... 900 left out */
	assert_int_equal(t->thr.n, 8);
	assert_int_equal(t->left_out, 5);
	assert_int_equal(t->left_from, 500);
	for (size_t i = 0; i < t->thr.n; i++)
		assert_true(t->thr.v[i].begin < 500);
	assert_int_equal(t->thr.v[7].tid, 8); /* thread 8's three, last in (tid, begin) order */
	assert_int_equal(t->thr.v[5].tid, 8);
	assert_int_equal(t->thr.v[4].tid, 7);
	rpt_omp_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regions_and_waits_nest),
		cmocka_unit_test(test_unpaired_records_are_counted),
		cmocka_unit_test(test_target_ops_on_their_device),
		cmocka_unit_test(test_cap_keeps_the_earliest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
