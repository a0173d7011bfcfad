// SPDX-License-Identifier: MIT
/*
 * Target offload in the OpenMP report (openmp.h): the .ompt file's target and device
 * records (lib/session/openmp.h) turned into figures per target site, per (device, data
 * op type) and per device, and report.csv's sections for them.
 *
 * Pairing. The host's records of one op follow each other on the thread that ran it
 * (TARGET_BEGIN, its DATA_BEGIN/BYTES/END and SUBMIT_BEGIN/END, TARGET_END), so each
 * thread's records are paired in file order: an end is matched with the open begin of
 * its kind on that thread; an end without one, or a begin never ended, counts as
 * unpaired (records a full ring dropped), never as a wrong pair.
 *
 * A data op's device is the one it moves to or works on: the destination of an alloc, a
 * transfer to the device or an associate; the source of a transfer from the device, a
 * delete or a disassociate (LLVM 19 gives the host's number, omp_get_initial_device(),
 * on the other side, and -1 where there is none).
 */
#include "openmp/openmp.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TIDS 256
#define MAX_DEVICES 64
#define MAX_XFERS 1024
#define LISTED_RECORDS 1000 /* device trace records listed one per row */

struct open_ops {
	uint32_t tid;
	bool in_target, in_data, in_submit;
	uint32_t site, data_site, devs;
	uint16_t kind, data_op;
	int device;
	uint64_t begin, data_begin, data_bytes, submit_begin;
};

struct loader {
	struct rpt_omp_proc *p;
	struct rpt_omp_offload *off;
	struct open_ops tids[MAX_TIDS];
	int ntids;
};

static struct open_ops *ops_of(struct loader *l, uint32_t tid)
{
	for (int i = 0; i < l->ntids; i++)
		if (l->tids[i].tid == tid)
			return &l->tids[i];
	if (l->ntids == MAX_TIDS)
		return NULL;
	memset(&l->tids[l->ntids], 0, sizeof(l->tids[0]));
	l->tids[l->ntids].tid = tid;
	return &l->tids[l->ntids++];
}

static struct rpt_omp_tgt_stat *tgt_of(struct loader *l, uint32_t site)
{
	bool full;
	struct rpt_omp_site *s = site ? rpt_omp_site_for(l->p, site, &full) : NULL;

	if (!s)
		return NULL;
	if (!s->tgt)
		s->tgt = calloc(1, sizeof(*s->tgt));
	if (s->tgt && !s->kind)
		s->kind = SES_OMPT_SITE_TARGET; /* its SITE record was lost: still a target */
	return s->tgt;
}

static struct rpt_omp_dev *dev_of(struct loader *l, int num)
{
	struct rpt_omp_offload *o = l->off;

	for (int i = 0; i < o->ndevs; i++)
		if (o->devs[i].num == num)
			return &o->devs[i];
	if (o->ndevs == MAX_DEVICES || !o->devs)
		return NULL;
	memset(&o->devs[o->ndevs], 0, sizeof(o->devs[0]));
	o->devs[o->ndevs].num = num;
	return &o->devs[o->ndevs++];
}

static int device_of_op(uint16_t op, uint32_t devs)
{
	int src = (int)(devs & 0xffff) - 1, dest = (int)(devs >> 16) - 1;

	switch (op) {
	case SES_OMPT_DATA_FROM:
	case SES_OMPT_DATA_DELETE:
	case SES_OMPT_DATA_DISASSOCIATE:
		return src;
	default:
		return dest;
	}
}

static struct rpt_omp_xfer *xfer_of(struct loader *l, int device, uint16_t op)
{
	struct rpt_omp_offload *o = l->off;

	for (int i = 0; i < o->nxfers; i++)
		if (o->xfers[i].device == device && o->xfers[i].op == op)
			return &o->xfers[i];
	if (o->nxfers == MAX_XFERS || !o->xfers)
		return NULL;
	o->xfers[o->nxfers] = (struct rpt_omp_xfer){ device, op, 0, 0, 0 };
	return &o->xfers[o->nxfers++];
}

static uint64_t span(uint64_t begin, uint64_t end)
{
	return end > begin ? end - begin : 0;
}

static void data_end(struct loader *l, struct open_ops *t, const struct ses_ompt_record *r)
{
	int device = device_of_op(r->how, t->devs);
	struct rpt_omp_xfer *x = xfer_of(l, device, r->how);
	struct rpt_omp_tgt_stat *s = tgt_of(l, t->data_site);
	uint64_t ns = span(t->data_begin, r->value);

	t->in_data = false;
	if (!x) {
		l->off->ignored++;
		return;
	}
	x->count++;
	x->bytes += t->data_bytes;
	x->ns += ns;
	if (s) {
		s->data_ops++;
		if (r->how == SES_OMPT_DATA_TO)
			s->bytes_to += t->data_bytes;
		else if (r->how == SES_OMPT_DATA_FROM)
			s->bytes_from += t->data_bytes;
	}
}

/* One host record of thread @t. */
static void host_op(struct loader *l, struct open_ops *t, const struct ses_ompt_record *r)
{
	struct rpt_omp_offload *o = l->off;
	struct rpt_omp_tgt_stat *s;

	switch (r->kind) {
	case SES_OMPT_TARGET_BEGIN:
		o->unpaired += t->in_target;
		*t = (struct open_ops){ .tid = t->tid,
					.in_target = true,
					.site = r->site,
					.kind = r->how,
					.device = (int)r->slot,
					.begin = r->value };
		break;
	case SES_OMPT_TARGET_END:
		if (!t->in_target || t->site != r->site) {
			o->unpaired++;
			break;
		}
		t->in_target = false;
		o->regions++;
		if (!(s = tgt_of(l, r->site))) {
			o->ignored++;
			break;
		}
		if (s->count && s->device != t->device)
			s->devices_differ = true;
		s->count++;
		s->ns += span(t->begin, r->value);
		s->kind = t->kind;
		s->device = t->device;
		break;
	case SES_OMPT_DATA_BEGIN:
		o->unpaired += t->in_data;
		t->in_data = true;
		t->data_site = r->site;
		t->data_op = r->how;
		t->devs = r->slot;
		t->data_begin = r->value;
		t->data_bytes = 0;
		break;
	case SES_OMPT_DATA_BYTES:
		if (t->in_data && t->data_op == r->how)
			t->data_bytes = r->value;
		break;
	case SES_OMPT_DATA_END:
		if (!t->in_data || t->data_op != r->how || t->devs != r->slot) {
			o->unpaired++;
			t->in_data = false;
			break;
		}
		data_end(l, t, r);
		break;
	case SES_OMPT_SUBMIT_BEGIN:
		o->unpaired += t->in_submit;
		t->in_submit = true;
		t->submit_begin = r->value;
		break;
	case SES_OMPT_SUBMIT_END:
		if (!t->in_submit) {
			o->unpaired++;
			break;
		}
		t->in_submit = false;
		if ((s = tgt_of(l, r->site))) {
			s->submits++;
			s->submit_ns += span(t->submit_begin, r->value);
		}
		break;
	default:
		break;
	}
}

static void device_event(struct loader *l, const struct ses_ompt *f,
			 const struct ses_ompt_record *r)
{
	struct rpt_omp_dev *d = dev_of(l, (int)r->site);
	const char *type;

	if (!d) {
		l->off->ignored++;
		return;
	}
	switch (r->how) {
	case SES_OMPT_DEV_INIT:
		d->init = true;
		type = ses_ompt_string(f, r->slot);
		snprintf(d->type, sizeof(d->type), "%s", type ? type : "unknown");
		for (char *c = d->type; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == '"' || *c == ',')
				*c = ' '; /* a CSV cell */
		break;
	case SES_OMPT_DEV_FINI:
		d->fini = true;
		break;
	case SES_OMPT_DEV_LOAD:
		d->loads++;
		break;
	case SES_OMPT_DEV_NO_LOOKUP:
	case SES_OMPT_DEV_NO_ENTRY:
	case SES_OMPT_DEV_REFUSED:
		d->tracing = r->how;
		break;
	case SES_OMPT_DEV_TRACING:
		d->tracing = r->how;
		d->anchor = r->value;
		break;
	case SES_OMPT_DEV_NO_TIME:
		d->no_time = true;
		break;
	case SES_OMPT_DEV_LOST:
		d->lost += r->value;
		break;
	default:
		break;
	}
}

/* The listed record of @r's device, type and op still open (no end yet), among the last
 * few: a data op's BYTES and END follow its BEGIN, a target's END record comes later. */
static struct rpt_omp_devrec *open_rec(struct rpt_omp_offload *o, const struct ses_ompt_record *r)
{
	for (size_t i = o->nrecs, n = 0; i-- > 0 && n < 64; n++) {
		struct rpt_omp_devrec *d = &o->recs[i];

		if (d->device == (int)r->site && d->type == r->how && d->op == r->slot && !d->end)
			return d;
	}
	return NULL;
}

/* A device trace record: its BEGIN opens a row, its BYTES and END complete the open one
 * of that device, type and op. A target region's begin and end records are one row. */
static void device_record(struct loader *l, const struct ses_ompt_record *r)
{
	struct rpt_omp_offload *o = l->off;
	struct rpt_omp_dev *d = dev_of(l, (int)r->site);
	struct rpt_omp_devrec *open;

	if (!d) {
		o->ignored++;
		return;
	}
	if (r->kind == SES_OMPT_DEV_BEGIN) {
		d->records++;
		d->kernels += r->how == SES_OMPT_DEVREC_KERNEL;
		d->data_ops += r->how == SES_OMPT_DEVREC_DATA_OP;
		if (o->nrecs == RPT_OMP_DEVRECS || !o->recs) {
			o->recs_more++;
			return;
		}
		o->recs[o->nrecs++] = (struct rpt_omp_devrec){ (int)r->site, r->how, r->slot,
							       r->value,     0,	     0 };
		return;
	}
	if (r->kind == SES_OMPT_DEV_BYTES && r->how == SES_OMPT_DEVREC_DATA_OP)
		d->bytes += r->value;
	if (!(open = open_rec(o, r)))
		return; /* past the listed ones, or its begin was lost */
	if (r->kind == SES_OMPT_DEV_BYTES)
		open->bytes = r->value;
	else
		open->end = r->value;
}

int rpt_omp_target_load(struct rpt_omp_proc *p, const struct ses_ompt *f)
{
	struct loader *l;
	struct rpt_omp_offload *o;
	int ret = -ENOMEM;

	if (!f->ntargets)
		return 0;
	l = calloc(1, sizeof(*l));
	o = calloc(1, sizeof(*o));
	if (!l || !o)
		goto out;
	o->xfers = calloc(MAX_XFERS, sizeof(*o->xfers));
	o->devs = calloc(MAX_DEVICES, sizeof(*o->devs));
	o->recs = calloc(RPT_OMP_DEVRECS, sizeof(*o->recs));
	if (!o->xfers || !o->devs || !o->recs)
		goto out;
	p->off = o;
	l->p = p;
	l->off = o;
	for (size_t i = 0; i < f->ntargets; i++) {
		const struct ses_ompt_record *r = &f->targets[i];
		struct open_ops *t;

		if (r->kind == SES_OMPT_DEVICE) {
			device_event(l, f, r);
		} else if (r->kind >= SES_OMPT_DEV_BEGIN && r->kind <= SES_OMPT_DEV_BYTES) {
			device_record(l, r);
		} else if ((t = ops_of(l, r->tid))) {
			host_op(l, t, r);
		} else {
			o->ignored++;
		}
	}
	for (int i = 0; i < l->ntids; i++)
		o->unpaired += l->tids[i].in_target + l->tids[i].in_data + l->tids[i].in_submit;
	ret = 0;
	o = NULL;
out:
	if (o) {
		free(o->xfers);
		free(o->devs);
		free(o->recs);
		free(o);
		p->off = NULL;
	}
	free(l);
	return ret;
}

int rpt_omp_target_merge(struct rpt_omp_site *to, struct rpt_omp_site *from)
{
	struct rpt_omp_tgt_stat *a, *b = from->tgt;

	if (!b)
		return 0;
	if (!to->tgt) {
		to->tgt = b;
		from->tgt = NULL;
		return 0;
	}
	a = to->tgt;
	if (a->count && b->count && a->device != b->device)
		a->devices_differ = true;
	a->devices_differ |= b->devices_differ;
	if (b->count) {
		a->kind = b->kind;
		a->device = b->device;
	}
	a->count += b->count;
	a->ns += b->ns;
	a->submits += b->submits;
	a->submit_ns += b->submit_ns;
	a->data_ops += b->data_ops;
	a->bytes_to += b->bytes_to;
	a->bytes_from += b->bytes_from;
	free(b);
	from->tgt = NULL;
	return 0;
}

void rpt_omp_target_free(struct rpt_omp_proc *p)
{
	for (int i = 0; i < p->nsites; i++) {
		free(p->sites[i].tgt);
		p->sites[i].tgt = NULL;
	}
	if (p->off) {
		free(p->off->xfers);
		free(p->off->devs);
		free(p->off->recs);
		free(p->off);
		p->off = NULL;
	}
}

/* ---- report.csv ---- */

static const char *target_kind(uint16_t k)
{
	static const char *const names[] = { "target", "target enter data", "target exit data",
					     "target update" };
	uint16_t base = k & (uint16_t)~SES_OMPT_TGT_NOWAIT;

	if (base < 1 || base > 4)
		return "unknown";
	return names[base - 1];
}

static const char *data_op_name(uint16_t op)
{
	static const char *const names[] = { "alloc",  "to device", "from device",
					     "delete", "associate", "disassociate" };

	return op >= 1 && op < SES_OMPT_DATA_MAX ? names[op - 1] : "unknown";
}

static const char *devrec_name(uint16_t t)
{
	switch (t) {
	case SES_OMPT_DEVREC_TARGET:
		return "target";
	case SES_OMPT_DEVREC_DATA_OP:
		return "data op";
	case SES_OMPT_DEVREC_KERNEL:
		return "kernel";
	default:
		return "other";
	}
}

/* Why a device has no trace, in the words of the records the tool sent. */
static const char *tracing(const struct rpt_omp_dev *d)
{
	switch (d->tracing) {
	case SES_OMPT_DEV_TRACING:
		return d->no_time ? "on (no time translation: the device offers no "
				    "ompt_get_device_time or ompt_translate_time)"
				  : "on";
	case SES_OMPT_DEV_NO_LOOKUP:
		return "no device tracing: the runtime gave no lookup for the device";
	case SES_OMPT_DEV_NO_ENTRY:
		return "no device tracing: the device's lookup returns NULL for "
		       "ompt_set_trace_ompt/ompt_start_trace/ompt_advance_buffer_cursor/"
		       "ompt_get_record_ompt (no upstream LLVM runtime up to 19 implements them)";
	case SES_OMPT_DEV_REFUSED:
		return "no device tracing: the device refused ompt_set_trace_ompt or "
		       "ompt_start_trace";
	default:
		return "no device tracing: the tool was not told how the device's tracing went";
	}
}

static void target_rows(const struct rpt_omp_proc *p, FILE *f)
{
	fprintf(f, "\nOpenMP TARGET REGIONS (PID-%d)\n", p->pid);
	fprintf(f, "Target Region,Kind,Device,Count,Total Time(seconds),Avg Time(seconds),"
		   "Kernel Submits,Submit Time(seconds),Data Ops,Bytes To Device,Bytes From "
		   "Device\n");
	for (int i = 0; i < p->nsites; i++) {
		const struct rpt_omp_site *s = &p->sites[i];
		const struct rpt_omp_tgt_stat *t = s->tgt;
		char dev[16];

		if (!t)
			continue;
		snprintf(dev, sizeof(dev), "%d", t->device);
		fprintf(f,
			"\"%s\",\"%s%s\",%s,%" PRIu64 ",%.6f,%.6f,%" PRIu64 ",%.6f,%" PRIu64
			",%" PRIu64 ",%" PRIu64 "\n",
			s->name, target_kind(t->kind),
			t->kind & SES_OMPT_TGT_NOWAIT ? " nowait" : "",
			t->devices_differ ? "several" : dev, t->count, (double)t->ns / 1e9,
			t->count ? (double)t->ns / 1e9 / (double)t->count : 0.0, t->submits,
			(double)t->submit_ns / 1e9, t->data_ops, t->bytes_to, t->bytes_from);
	}
}

static void xfer_rows(const struct rpt_omp_offload *o, int pid, FILE *f)
{
	fprintf(f, "\nOpenMP DATA TRANSFERS (PID-%d)\n", pid);
	fprintf(f, "Device,Operation,Count,Bytes,Total Time(seconds)\n");
	for (int i = 0; i < o->nxfers; i++) {
		const struct rpt_omp_xfer *x = &o->xfers[i];

		fprintf(f, "%d,\"%s\",%" PRIu64 ",%" PRIu64 ",%.6f\n", x->device,
			data_op_name(x->op), x->count, x->bytes, (double)x->ns / 1e9);
	}
}

static void device_rows(const struct rpt_omp_offload *o, int pid, FILE *f)
{
	fprintf(f, "\nOpenMP DEVICES (PID-%d)\n", pid);
	fprintf(f, "Device,Type,Initialized,Finalized,Images Loaded,Device Tracing,Trace "
		   "Records,Kernels,Data Ops,Bytes,Records Lost\n");
	for (int i = 0; i < o->ndevs; i++) {
		const struct rpt_omp_dev *d = &o->devs[i];

		fprintf(f,
			"%d,\"%s\",%s,%s,%" PRIu64 ",\"%s\",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64 ",%" PRIu64 "\n",
			d->num, d->init ? d->type : "", d->init ? "Yes" : "No",
			d->fini ? "Yes" : "No", d->loads, tracing(d), d->records, d->kernels,
			d->data_ops, d->bytes, d->lost);
	}
}

static uint64_t anchor_of(const struct rpt_omp_offload *o, int device)
{
	for (int i = 0; i < o->ndevs; i++)
		if (o->devs[i].num == device)
			return o->devs[i].anchor;
	return 0;
}

/* Each record's times as ns after its device's anchor (the host CLOCK_MONOTONIC taken
 * beside the device clock's first reading): exact integers, comparable across runs. */
static void devrec_rows(const struct rpt_omp_offload *o, int pid, FILE *f)
{
	size_t n = o->nrecs < LISTED_RECORDS ? o->nrecs : LISTED_RECORDS;

	if (!o->nrecs)
		return;
	fprintf(f, "\nOpenMP DEVICE TRACE (PID-%d)\n", pid);
	fprintf(f, "Device,Record,Host Op,Begin(ns after anchor),End(ns after anchor),"
		   "Duration(ns),Bytes or Teams\n");
	for (size_t i = 0; i < n; i++) {
		const struct rpt_omp_devrec *d = &o->recs[i];
		uint64_t a = anchor_of(o, d->device);

		fprintf(f, "%d,\"%s\",%u,", d->device, devrec_name(d->type), d->op);
		if (d->begin && a)
			fprintf(f, "%" PRId64, (int64_t)(d->begin - a));
		fputc(',', f);
		if (d->end && a)
			fprintf(f, "%" PRId64, (int64_t)(d->end - a));
		fputc(',', f);
		if (d->begin && d->end)
			fprintf(f, "%" PRId64, (int64_t)(d->end - d->begin));
		fprintf(f, ",%" PRIu64 "\n", d->bytes);
	}
	if (o->nrecs + o->recs_more > n)
		fprintf(f, "\nDevice Trace Records Not Listed,%" PRIu64 "\n",
			o->nrecs + o->recs_more - n);
}

void rpt_omp_write_target(const struct rpt_omp_proc *p, FILE *f)
{
	const struct rpt_omp_offload *o = p->off;

	if (!o)
		return;
	target_rows(p, f);
	xfer_rows(o, p->pid, f);
	device_rows(o, p->pid, f);
	devrec_rows(o, p->pid, f);
	if (o->unpaired || o->ignored)
		fprintf(f,
			"\nTarget Records Unpaired,\"%" PRIu64 " (records the target's full ring "
			"dropped), %" PRIu64 " past the report's bounds\"\n",
			o->unpaired, o->ignored);
}
