// SPDX-License-Identifier: MIT
/*
 * lib/openmp/openmp_target.c: the .ompt file's target and device records into figures.
 * Records come from a file the target process wrote (untrusted): a well-formed run of two
 * threads interleaved gives exact counts and bytes; ends without begins, begins never
 * ended and ops of another kind count as unpaired, never as pairs; threads, devices and
 * device records past the bounds are counted, not kept; every prefix of a run is read
 * (each cut leaves its open begins unpaired).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "openmp/openmp.h"
#include "util/util.h"

#define DEVS(src, dest) ((uint32_t)((src) + 1) | (uint32_t)((dest) + 1) << 16)

/* One target region of thread @tid at site @site: a transfer of 100 bytes to device 0,
 * a submit, 60 bytes back; times from @t. Appends 11 records to @r. */
static size_t region(struct ses_ompt_record *r, uint32_t tid, uint32_t site, uint64_t t)
{
	const struct ses_ompt_record recs[] = {
		{ t, tid, SES_OMPT_TARGET_BEGIN, SES_OMPT_TGT_REGION, site, 0 },
		{ t + 1, tid, SES_OMPT_DATA_BEGIN, SES_OMPT_DATA_TO, site, DEVS(4, 0) },
		{ 100, tid, SES_OMPT_DATA_BYTES, SES_OMPT_DATA_TO, site, DEVS(4, 0) },
		{ t + 11, tid, SES_OMPT_DATA_END, SES_OMPT_DATA_TO, site, DEVS(4, 0) },
		{ t + 20, tid, SES_OMPT_SUBMIT_BEGIN, 0, site, 1 },
		{ t + 50, tid, SES_OMPT_SUBMIT_END, 0, site, 1 },
		{ t + 51, tid, SES_OMPT_DATA_BEGIN, SES_OMPT_DATA_FROM, site, DEVS(0, 4) },
		{ 60, tid, SES_OMPT_DATA_BYTES, SES_OMPT_DATA_FROM, site, DEVS(0, 4) },
		{ t + 56, tid, SES_OMPT_DATA_END, SES_OMPT_DATA_FROM, site, DEVS(0, 4) },
		{ t + 58, tid, SES_OMPT_DATA_BEGIN, SES_OMPT_DATA_DELETE, site, DEVS(0, -1) },
		{ t + 100, tid, SES_OMPT_TARGET_END, SES_OMPT_TGT_REGION, site, 0 },
	};

	memcpy(r, recs, sizeof(recs));
	return sizeof(recs) / sizeof(recs[0]);
}

static void load(struct rpt_omp_proc *p, struct ses_ompt_record *recs, size_t n)
{
	struct ses_ompt o;

	memset(&o, 0, sizeof(o));
	memset(p, 0, sizeof(*p));
	o.targets = recs;
	o.ntargets = n;
	assert_int_equal(rpt_omp_target_load(p, &o), 0);
}

static void release(struct rpt_omp_proc *p)
{
	rpt_omp_target_free(p);
	for (int i = 0; i < p->nsites; i++)
		free(p->sites[i].threads);
	free(p->sites);
	util_hash_release(&p->index);
}

static const struct rpt_omp_xfer *xfer(const struct rpt_omp_proc *p, int dev, uint16_t op)
{
	for (int i = 0; i < p->off->nxfers; i++)
		if (p->off->xfers[i].device == dev && p->off->xfers[i].op == op)
			return &p->off->xfers[i];
	return NULL;
}

/* Two threads' regions interleaved record by record: paired per thread, exactly. The
 * delete's begin is never ended: one unpaired per region. */
static void two_threads(void **state)
{
	struct ses_ompt_record a[11], b[11], all[22];
	struct rpt_omp_proc p;
	bool full;
	struct rpt_omp_site *s;

	(void)state;
	region(a, 101, 5, 1000);
	region(b, 102, 5, 5000);
	for (int i = 0; i < 11; i++) {
		all[2 * i] = a[i];
		all[2 * i + 1] = b[i];
	}
	load(&p, all, 22);
	assert_non_null(p.off);
	assert_int_equal(p.off->regions, 2);
	assert_int_equal(p.off->unpaired, 2); /* the two deletes */
	assert_int_equal(p.off->ignored, 0);
	s = rpt_omp_site_for(&p, 5, &full);
	assert_non_null(s);
	assert_non_null(s->tgt);
	assert_int_equal(s->kind, SES_OMPT_SITE_TARGET);
	assert_int_equal(s->tgt->count, 2);
	assert_int_equal(s->tgt->ns, 200);
	assert_int_equal(s->tgt->submits, 2);
	assert_int_equal(s->tgt->submit_ns, 60);
	assert_int_equal(s->tgt->bytes_to, 200);
	assert_int_equal(s->tgt->bytes_from, 120);
	assert_int_equal(s->tgt->data_ops, 4);
	assert_int_equal(s->tgt->device, 0);
	assert_non_null(xfer(&p, 0, SES_OMPT_DATA_TO));
	assert_int_equal(xfer(&p, 0, SES_OMPT_DATA_TO)->count, 2);
	assert_int_equal(xfer(&p, 0, SES_OMPT_DATA_TO)->bytes, 200);
	assert_int_equal(xfer(&p, 0, SES_OMPT_DATA_TO)->ns, 20);
	/* a transfer from the device is the source's */
	assert_int_equal(xfer(&p, 0, SES_OMPT_DATA_FROM)->bytes, 120);
	assert_null(xfer(&p, 4, SES_OMPT_DATA_FROM));
	release(&p);
}

/* Ends without begins and mismatched ends are unpaired; nothing is counted for them. */
static void forged_pairs(void **state)
{
	struct ses_ompt_record r[] = {
		{ 10, 7, SES_OMPT_TARGET_END, SES_OMPT_TGT_REGION, 3, 0 },
		{ 11, 7, SES_OMPT_DATA_END, SES_OMPT_DATA_TO, 3, DEVS(4, 0) },
		{ 12, 7, SES_OMPT_SUBMIT_END, 0, 3, 1 },
		{ 13, 7, SES_OMPT_TARGET_BEGIN, SES_OMPT_TGT_REGION, 3, 0 },
		{ 14, 7, SES_OMPT_TARGET_BEGIN, SES_OMPT_TGT_REGION, 3, 0 }, /* the first lost */
		{ 15, 7, SES_OMPT_DATA_BEGIN, SES_OMPT_DATA_TO, 3, DEVS(4, 0) },
		{ 16, 7, SES_OMPT_DATA_END, SES_OMPT_DATA_FROM, 3, DEVS(4, 0) }, /* another op */
		{ 17, 7, SES_OMPT_TARGET_END, SES_OMPT_TGT_REGION, 9, 0 },	/* another site */
		{ 1, 7, SES_OMPT_DATA_BYTES, SES_OMPT_DATA_TO, 3, DEVS(4, 0) }, /* none open */
	};
	struct rpt_omp_proc p;

	(void)state;
	load(&p, r, sizeof(r) / sizeof(r[0]));
	assert_int_equal(p.off->regions, 0);
	/* 3 lone ends, a begin lost, a mismatched data end, a mismatched target end, and
	 * the second begin never ended */
	assert_int_equal(p.off->unpaired, 7);
	assert_int_equal(p.off->nxfers, 0);
	release(&p);
}

/* Past the bounds: threads, devices, device records. */
static void bounds(void **state)
{
	size_t n = 300 + 100 + RPT_OMP_DEVRECS + 10, k = 0;
	struct ses_ompt_record *r = calloc(n, sizeof(*r));
	struct rpt_omp_proc p;

	(void)state;
	assert_non_null(r);
	for (uint32_t t = 0; t < 300; t++) /* one begin each of 300 threads */
		r[k++] = (struct ses_ompt_record){ 1, 1000 + t, SES_OMPT_TARGET_BEGIN,
						   SES_OMPT_TGT_REGION, 3, 0 };
	for (uint32_t d = 0; d < 100; d++)
		r[k++] = (struct ses_ompt_record){ 1, 0, SES_OMPT_DEVICE, SES_OMPT_DEV_INIT, d, 0 };
	for (size_t i = 0; i < RPT_OMP_DEVRECS + 10; i++)
		r[k++] = (struct ses_ompt_record){ 5, 0, SES_OMPT_DEV_BEGIN, SES_OMPT_DEVREC_KERNEL,
						   0, (uint32_t)i };
	load(&p, r, k);
	assert_int_equal(p.off->ignored, (300 - 256) + (100 - 64));
	assert_int_equal(p.off->unpaired, 256); /* the threads kept, each begin open */
	assert_int_equal(p.off->ndevs, 64);
	assert_int_equal(p.off->nrecs, RPT_OMP_DEVRECS);
	assert_int_equal(p.off->recs_more, 10);
	assert_int_equal(p.off->devs[0].records, RPT_OMP_DEVRECS + 10);
	assert_int_equal(p.off->devs[0].kernels, RPT_OMP_DEVRECS + 10);
	release(&p);
	free(r);
}

/* Device records: the end and bytes complete the open record of their device, type and
 * op; an end with nothing open is dropped; a target's end record closes its begin. */
static void device_records(void **state)
{
	struct ses_ompt_record r[] = {
		{ 500, 0, SES_OMPT_DEV_END, SES_OMPT_DEVREC_DATA_OP, 0, 1 }, /* nothing open */
		{ 900, 0, SES_OMPT_DEVICE, SES_OMPT_DEV_TRACING, 0, 0 },
		{ 1000, 0, SES_OMPT_DEV_BEGIN, SES_OMPT_DEVREC_TARGET, 0, 42 },
		{ 1100, 0, SES_OMPT_DEV_BEGIN, SES_OMPT_DEVREC_DATA_OP, 0, 7 },
		{ 64, 0, SES_OMPT_DEV_BYTES, SES_OMPT_DEVREC_DATA_OP, 0, 7 },
		{ 1200, 0, SES_OMPT_DEV_END, SES_OMPT_DEVREC_DATA_OP, 0, 7 },
		{ 1900, 0, SES_OMPT_DEV_END, SES_OMPT_DEVREC_TARGET, 0, 42 },
		{ 3, 0, SES_OMPT_DEVICE, SES_OMPT_DEV_LOST, 0, 0 },
	};
	struct rpt_omp_proc p;

	(void)state;
	load(&p, r, sizeof(r) / sizeof(r[0]));
	assert_int_equal(p.off->nrecs, 2);
	assert_int_equal(p.off->recs[0].begin, 1000);
	assert_int_equal(p.off->recs[0].end, 1900);
	assert_int_equal(p.off->recs[1].end, 1200);
	assert_int_equal(p.off->recs[1].bytes, 64);
	assert_int_equal(p.off->ndevs, 1);
	assert_int_equal(p.off->devs[0].anchor, 900);
	assert_int_equal(p.off->devs[0].tracing, SES_OMPT_DEV_TRACING);
	assert_int_equal(p.off->devs[0].records, 2);
	assert_int_equal(p.off->devs[0].bytes, 64);
	assert_int_equal(p.off->devs[0].lost, 3);
	release(&p);
}

/* Every prefix of a region: read, its open begins unpaired, the region counted only
 * once whole. */
static void prefixes(void **state)
{
	struct ses_ompt_record r[11];
	size_t n = region(r, 101, 5, 1000);

	(void)state;
	for (size_t len = 1; len <= n; len++) {
		struct rpt_omp_proc p;

		load(&p, r, len);
		assert_int_equal(p.off->regions, len == n ? 1 : 0);
		assert_true(p.off->unpaired >= 1 && p.off->unpaired <= 3);
		release(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_threads),	  cmocka_unit_test(forged_pairs),
		cmocka_unit_test(bounds),	  cmocka_unit_test(device_records),
		cmocka_unit_test(prefixes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
