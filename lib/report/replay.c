// SPDX-License-Identifier: MIT
/*
 * samples.data read for a report (rpt_read_samples, called by rpt_open_at in load.c):
 * its records put in time stamp order, streamed in two passes (below), side-band records
 * replayed into the model and each sample counted per (thread, module, address) against
 * the mappings that existed at its time, weighted by its period where its event is.
 */
#include "report/internal.h"
#include "report/stacks.h"
#include "report/openmp_state.h"
#include "report/ostrace.h"
#include "openmp/openmp.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Records are replayed in time order (stable on file order) without holding the file's
 * records, so that a report's memory is its tables', whatever the number of samples.
 * Two passes over the mapping: the first decodes every record for its time stamp and
 * notes, per block of ORDER_BLOCK records, the smallest stamp of the blocks after it;
 * the second decodes again and holds a record only until no later block can precede it
 * (a min-heap on (time, record number)). Rings of different CPUs are written in turns,
 * so what is held is about a round of records, not the file: the order is exactly the
 * one a sort of the whole file gives, at 8 bytes per block and a round's records.
 */
#define ORDER_BLOCK 1024

/* What replay needs of a record: for a plain sample its few fields, for side-band
 * records and samples with call stacks the whole decoded record (@side: @d holds it;
 * strings and stacks point into the mapped file). */
struct entry {
	uint64_t ip;
	uint32_t pid, tid;
	bool side;
	uint16_t type;	      /* the record's, TYPE_OTHER past 16 bits (replay tells only
			  * SAMPLE and LOST from the others) */
	int16_t decoded;      /* ses_reader_decode()'s result: 0 or -errno */
	int16_t attr;	      /* a sample's attr index */
	uint16_t cpumode : 3; /* misc & PERF_RECORD_MISC_CPUMODE_MASK */
	uint16_t cpu : 13;    /* for rpt_walk(); WALK_CPU_FAR: 8191 or more */
};
#define WALK_CPU_FAR 8191
#define TYPE_OTHER UINT16_MAX

/* A record held until its turn. */
struct held {
	struct entry e;
	uint64_t period; /* the sample's period (0: none) */
	struct ses_decoded d;
};

/* The heap's key: time, then file order (stable); @slot: its record in held[]. */
struct key {
	uint64_t time;
	uint32_t seq, slot;
};

struct order {
	/* pass 1: per block, the smallest time stamp of any later block (UINT64_MAX: none) */
	uint64_t *after;
	size_t nblocks, capblocks;
	size_t n;	 /* records (attrs and round marks aside) */
	size_t nsamples; /* of them, decodable samples */
	/* pass 2 */
	struct key *heap;
	size_t nheap, capheap;
	struct held *held;
	size_t capheld;
	uint32_t *spare; /* free slots of held[] */
	size_t nspare, capspare;
	size_t replayed;
	/* what replay handed back of samples.data and leafstack.data (time order is close
	 * to file order: the stack copies, most of either file, come in order) */
	size_t handed, handed_leaf;
};

static void order_release(struct order *o)
{
	free(o->after);
	free(o->heap);
	free(o->held);
	free(o->spare);
}

static int grow_to(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t ncap = *cap ? *cap : first;
	void *q;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	q = realloc(*p, ncap * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = ncap;
	return 0;
}

static bool key_lt(const struct key *a, const struct key *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static int heap_push(struct order *o, struct key k)
{
	size_t i = o->nheap;

	if (grow_to((void **)&o->heap, &o->capheap, i + 1, sizeof(*o->heap), 1024))
		return -ENOMEM;
	for (; i && key_lt(&k, &o->heap[(i - 1) / 2]); i = (i - 1) / 2)
		o->heap[i] = o->heap[(i - 1) / 2];
	o->heap[i] = k;
	o->nheap++;
	return 0;
}

static struct key heap_pop(struct order *o)
{
	struct key top = o->heap[0], last = o->heap[--o->nheap];
	size_t i = 0, n = o->nheap;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && key_lt(&o->heap[c + 1], &o->heap[c]))
			c++;
		if (!key_lt(&o->heap[c], &last))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	if (n)
		o->heap[i] = last;
	return top;
}

/* A free slot of held[]; UINT32_MAX when out of memory. */
static uint32_t held_slot(struct order *o)
{
	size_t old = o->capheld;

	if (o->nspare)
		return o->spare[--o->nspare];
	if (old >= UINT32_MAX / 2 ||
	    grow_to((void **)&o->held, &o->capheld, old + 1, sizeof(*o->held), 1024))
		return UINT32_MAX;
	if (grow_to((void **)&o->spare, &o->capspare, o->capheld, sizeof(*o->spare), 1024)) {
		o->capheld = old;
		return UINT32_MAX;
	}
	/* the new slots are spare, but the first, taken now */
	for (size_t i = o->capheld; i > old + 1; i--)
		o->spare[o->nspare++] = (uint32_t)(i - 1);
	return (uint32_t)old;
}

/* What a sample of event @ev adds to the tallies (ses_sample_units): 1, or the period
 * the kernel recorded in it for a weighted event (rpt_events_weigh). A session's sample
 * without one (written without PERF_SAMPLE_PERIOD) stands for the interval asked for. */
static uint64_t units_of(const struct rpt *r, int ev, uint64_t period)
{
	const struct ses_sample s = { .period = period };
	const struct ses_event *e;

	if (ev < 0 || ev >= r->info.nevents)
		return 1;
	e = &r->info.events[ev];
	if (e->weighted && !period && !r->info.foreign)
		return e->period;
	return ses_sample_units(e, &s);
}

static int count_sample(struct rpt *r, const struct ses_reader *rd, const struct entry *e,
			const struct ses_sample *full, uint64_t time, uint64_t period)
{
	uint64_t units;
	struct rpt_thread *t;
	struct ses_sample s;
	uint64_t *slot, addr;
	int module, ev, ret;

	if (e->decoded) {
		r->unparsable++;
		return 0;
	}
	/* --trace os: its tracepoints are lib/ostrace's, never a column or a hot spot */
	if (rpt_os_owns(r, rd, e->attr))
		return full ? rpt_os_sample(r, rd, full) : 0;
	if (e->pid == (uint32_t)-1 || e->tid == (uint32_t)-1)
		return 0; /* idle / no task: not the target's time */
	ev = rpt_events_of_attr(r, rd, e->attr);
	if (ev < 0)
		return 0; /* not a sampling event of the session */
	/* The counts of samples left out (paused, filtered, system, dropped) are the sort
	 * event's, as the summary's "samples" are: the achieved rate divides them by the
	 * CPU time, and a page-faults record counted there read 1,118 Hz of 1,000. */
	if (rpt_paused_at(r, time)) {
		r->paused_samples += ev == 0;
		return 0;
	}
	if (!rpt_filter_keeps(r, (int)e->pid, time)) {
		r->filtered_samples += ev == 0;
		return 0;
	}
	if (rpt_pause_unknown_at(r, time))
		r->unknown_samples++; /* kept, and said (man uprof-report: Pause State Unknown) */
	if (e->cpumode == PERF_RECORD_MISC_KERNEL || e->cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		module = RPT_MODULE_KERNEL;
		addr = e->ip;
	} else {
		const struct rpt_map *m = rpt_world_find_map(&r->world, (int)e->pid, e->ip);

		module = m ? m->module : RPT_MODULE_UNKNOWN;
		addr = m ? e->ip - m->start + m->pgoff : e->ip;
	}
	if (r->opts.ignore_system_module && rpt_module_is_system(r, module)) {
		r->system_samples += ev == 0; /* left out, said in the header */
		return 0;
	}
	t = rpt_world_thread(&r->world, (int)e->pid, (int)e->tid);
	if (!t)
		return -ENOMEM;
	units = units_of(r, ev, period);
	if (r->opts.drop && r->sample_seq < r->opts.ndrop &&
	    (r->opts.drop[r->sample_seq / 8] >> (r->sample_seq % 8) & 1)) {
		r->sample_seq++;
		r->tool_dropped += ev == 0; /* counted for the achieved rate, shown nowhere */
		return 0;
	}
	r->sample_seq++;
	r->kept_samples++;
	if (r->opts.agg_interval &&
	    rpt_intervals_note(r, ev, (uint32_t)(t - r->world.threads), time, units))
		return -ENOMEM;
	if (r->opts.walk &&
	    rpt_walk_note(r, &(struct rpt_wsample){ time, e->ip, addr,
						    (uint32_t)(t - r->world.threads), UINT32_MAX,
						    module,
						    e->cpu == WALK_CPU_FAR ? UINT16_MAX : e->cpu,
						    (uint16_t)ev, units }))
		return -ENOMEM;
	if (ev > 0) /* a further event: a column beside the sort event */
		return rpt_events_count(r, ev, (uint32_t)(t - r->world.threads), module, addr,
					units);
	if (r->has_tasks && rpt_tasks_note_sample(r, e->tid, time))
		return -ENOMEM;
	if (r->omp_samples && rpt_omp_note_sample(r, e->tid, (uint32_t)(t - r->world.threads),
						  module, addr, time, units))
		return -ENOMEM;
	slot = util_hash_slot(&r->addr_counts, (uint64_t)(t - r->world.threads), (uint64_t)module,
			      addr);
	if (!slot)
		return -ENOMEM;
	*slot += units;
	r->samples += units;
	r->sample_records++;
	if (!full) {
		/* no stack: what stacks need of it, rebuilt from the entry */
		s = (struct ses_sample){ .ip = e->ip,
					 .pid = e->pid,
					 .tid = e->tid,
					 .time = time,
					 .attr_index = e->attr,
					 .cpumode = e->cpumode };
		full = &s;
	}
	ret = rpt_stacks_sample(r, rd, full, (uint32_t)(t - r->world.threads), module, addr, units);
	if (!ret && r->opts.walk)
		r->wsamples[r->nwsamples - 1].stack = r->stacks->last_stack;
	return ret;
}

/* Does where @type falls in time change what replay does with it? Replay counts samples,
 * lost and throttle records and applies the world's records; every other kind (UNTHROTTLE,
 * KSYMBOL, perf's own records of time 0 anywhere in a foreign file...) it passes over, so
 * these are neither held nor let hold the others back. */
static bool ordered(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_SWITCH: /* --trace os: a thread on or off its CPU */
		return true;
	default:
		return false;
	}
}

/* Replay one record, in its turn: @d its decoded record (NULL: a sample without stack),
 * @seq its record number. */
static int replay_one(struct rpt *r, struct ses_reader *rd, struct ses_leaf_reader *lr,
		      struct order *o, const struct held *h, uint64_t time, uint32_t seq)
{
	const struct entry *e = &h->e;
	const struct ses_decoded *d = e->side ? &h->d : NULL;
	int ret = 0;

	if (r->opts.progress && o->replayed % RPT_PROGRESS_EVERY == 0)
		r->opts.progress(r->opts.progress_arg,
				 &(struct rpt_progress){ .pass = 2,
							 .records = o->replayed,
							 .of_records = o->n });
	o->replayed++;
	if (d && e->type == PERF_RECORD_SAMPLE) {
		/* where the sample lies in the file: its stack copy or its fp chain (a -g
		 * leaf copy points into leafstack.data, not here) */
		size_t at = d->u.sample.stack ? ses_reader_offset_of(rd, d->u.sample.stack)
					      : SIZE_MAX;
		size_t leaf = d->u.sample.stack && at == SIZE_MAX
				      ? ses_leaf_reader_offset_of(lr, d->u.sample.stack)
				      : SIZE_MAX;

		if (at == SIZE_MAX && d->u.sample.ips)
			at = ses_reader_offset_of(rd, d->u.sample.ips);
		if (at != SIZE_MAX && at > o->handed)
			o->handed = ses_reader_hand_back(rd, o->handed, at);
		if (leaf != SIZE_MAX && leaf > o->handed_leaf)
			o->handed_leaf = ses_leaf_reader_hand_back(lr, o->handed_leaf, leaf);
	}
	switch (e->type) {
	case PERF_RECORD_SAMPLE:
		r->tr_seq = seq;
		if (time > r->last_sample_ns) /* where a killed collect's data ends (load.c) */
			r->last_sample_ns = time;
		ret = count_sample(r, rd, e, d ? &d->u.sample : NULL, time, h->period);
		break;
	case PERF_RECORD_THROTTLE:
		if (e->decoded)
			r->unparsable++;
		else
			r->throttles++;
		break;
	case PERF_RECORD_LOST:
		if (e->decoded)
			r->unparsable++;
		else
			r->lost += d->u.lost.lost;
		break;
	case PERF_RECORD_SWITCH:
		if (e->decoded)
			r->unparsable++;
		else
			ret = rpt_os_record(r, d, time);
		break;
	case PERF_RECORD_EXIT:
		if (!e->decoded && r->os)
			ret = rpt_os_record(r, d, time);
		if (ret)
			break;
		/* a process's end (not a thread's): its unwinder state can go */
		if (!e->decoded && d && d->u.task.pid == d->u.task.tid)
			rpt_stacks_process_gone(r->stacks, (int)d->u.task.pid);
		ret = rpt_world_apply(&r->world, d, e->decoded);
		if (ret == -EINVAL) {
			r->unparsable++;
			ret = 0;
		}
		break;
	default:
		if (!e->decoded && r->os)
			ret = rpt_os_record(r, d, time); /* FORK, exec COMM */
		if (!ret)
			ret = rpt_world_apply(&r->world, d, e->decoded);
		if (ret == -EINVAL) {
			r->unparsable++;
			ret = 0;
		}
	}
	return ret;
}

/* Replay the held records of time @upto or before, in order. */
static int replay_upto(struct rpt *r, struct ses_reader *rd, struct ses_leaf_reader *lr,
		       struct order *o, uint64_t upto)
{
	int ret = 0;

	while (!ret && o->nheap && o->heap[0].time <= upto) {
		struct key k = heap_pop(o);

		ret = replay_one(r, rd, lr, o, &o->held[k.slot], k.time, k.seq);
		o->spare[o->nspare++] = k.slot;
	}
	return ret;
}

/*
 * Pass 2: record number @seq (@sample: its sample number, when a sample) decoded again
 * and held for its turn. One that does not decode is replayed at once: all replay does
 * with it is count it unparsable, wherever it falls (a sort gave it time 0); so is one
 * whose time does not matter (ordered()).
 */
static int take(struct rpt *r, struct ses_reader *rd, const struct ses_record *rec,
		struct ses_leaf_reader *lr, struct order *o, uint32_t seq, uint64_t sample)
{
	uint32_t slot = held_slot(o);
	struct held *h;
	struct entry *e;
	int ret;

	if (slot == UINT32_MAX)
		return -ENOMEM;
	h = &o->held[slot];
	e = &h->e;
	ret = ses_reader_decode(rd, rec, &h->d);
	h->period = !ret && rec->type == PERF_RECORD_SAMPLE ? h->d.u.sample.period : 0;
	*e = (struct entry){
		0, 0, 0, false, rec->type < TYPE_OTHER ? rec->type : TYPE_OTHER, (int16_t)ret,
		0, 0, 0
	};
	if (rec->type != PERF_RECORD_SAMPLE) {
		e->side = true;
	} else if (!ret) {
		struct ses_sample *s = &h->d.u.sample;

		rpt_leafstack_attach(lr, sample, ses_reader_attr(rd, (size_t)s->attr_index), s);
		e->ip = s->ip;
		e->pid = s->pid;
		e->tid = s->tid;
		e->attr = (int16_t)s->attr_index;
		e->cpumode = s->cpumode & 7;
		e->cpu = s->cpu < WALK_CPU_FAR ? s->cpu : WALK_CPU_FAR;
		e->side = s->ips || s->regs || s->stack || s->raw;
	}
	if (ret || !ordered(rec->type)) {
		ret = replay_one(r, rd, lr, o, h, 0, seq);
		o->spare[o->nspare++] = slot;
		return ret;
	}
	return heap_push(o, (struct key){ ses_decoded_time(&h->d), seq, slot });
}

/* Pass 1: count the records and note each block's smallest time stamp; then turn those
 * into the smallest stamp after each block. */
static int scan(struct rpt *r, struct ses_reader *rd, struct order *o, uint64_t size)
{
	struct ses_decoded d;
	struct ses_record rec;
	uint64_t nrec = 0, least = UINT64_MAX;
	int ret;

	while ((ret = ses_reader_next(rd, &rec)) == 1) {
		if (r->opts.progress && ++nrec % RPT_PROGRESS_EVERY == 0)
			r->opts.progress(r->opts.progress_arg,
					 &(struct rpt_progress){ .pass = 1,
								 .records = nrec,
								 .bytes = rec.offset,
								 .of_bytes = size });
		if (rec.type == SES_RECORD_HEADER_ATTR || rec.type == SES_RECORD_FINISHED_ROUND)
			continue;
		if (rec.type == PERF_RECORD_SAMPLE) /* what collect counted, decodable or not */
			r->file_samples++;
		if (o->n >= UINT32_MAX) /* record numbers are 32-bit: 4G records, 100+ GB */
			return -ENOMEM;
		if (o->n % ORDER_BLOCK == 0) {
			if (grow_to((void **)&o->after, &o->capblocks, o->nblocks + 1,
				    sizeof(*o->after), 64))
				return -ENOMEM;
			o->after[o->nblocks++] = UINT64_MAX;
		}
		if (ordered(rec.type) && !ses_reader_decode(rd, &rec, &d)) {
			uint64_t t = ses_decoded_time(&d);

			if (t < o->after[o->nblocks - 1])
				o->after[o->nblocks - 1] = t;
			o->nsamples += rec.type == PERF_RECORD_SAMPLE;
		}
		o->n++;
	}
	for (size_t b = o->nblocks; b-- > 0;) {
		uint64_t own = o->after[b];

		o->after[b] = least;
		if (own < least)
			least = own;
	}
	return ret;
}

/* Pass 2: every record again, replayed in time order. */
static int replay(struct rpt *r, struct ses_reader *rd, struct ses_leaf_reader *lr, struct order *o)
{
	struct ses_record rec;
	uint64_t sample = 0;
	uint32_t seq = 0;
	int ret = 0;

	ses_reader_rewind(rd);
	while (seq < o->n) {
		ret = ses_reader_next(rd, &rec);
		if (ret != 1)
			break;
		if (rec.type == SES_RECORD_HEADER_ATTR || rec.type == SES_RECORD_FINISHED_ROUND)
			continue;
		if (rec.type == PERF_RECORD_SAMPLE)
			sample++;
		ret = take(r, rd, &rec, lr, o, seq, sample - 1);
		seq++;
		if (!ret && (seq % ORDER_BLOCK == 0 || seq == o->n))
			ret = replay_upto(r, rd, lr, o, o->after[(seq - 1) / ORDER_BLOCK]);
		if (ret)
			return ret;
	}
	if (ret < 0)
		return ret;
	/* a file that changed between the passes: what is held, in its order */
	return replay_upto(r, rd, lr, o, UINT64_MAX);
}

int rpt_read_samples(struct rpt *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256];
	struct ses_reader *rd = NULL;
	struct ses_leaf_reader *lr = NULL;
	struct order o = { 0 };
	uint64_t size = 0;
	int ret;

	if (r->info.foreign) /* a perf pipe file: r->dir is the file, as the user named it */
		snprintf(path, sizeof(path), "%s", r->dir);
	else
		snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, r->dir);
	ret = r->info.foreign ? ses_reader_open_file(&rd, path, why, sizeof(why))
			      : ses_reader_open_at(&rd, r->dfd, SES_DATA_FILE, why, sizeof(why));
	if (ret == -SES_ENOTREG)
		rpt_errf(err, errlen, RPT_NOT_REGULAR, path, "", "", why);
	else if (ret == -ELOOP || ret == -EXDEV) /* another user's link: not followed */
		rpt_errf(err, errlen, "%s %s", path, why);
	else if (ret && !r->counts_final) /* missing or without its header */
		rpt_errf(err, errlen,
			 "%s: %s: collect was interrupted before it wrote the file's "
			 "header; nothing to report",
			 path, why);
	else if (ret)
		rpt_errf(err, errlen, "%s: %s", path, why);
	if (ret)
		return ret;
	if (r->opts.progress)
		size = ses_reader_size(rd);
	/* its bytes back fp samples' leaf copies until replay ends (a session's own file) */
	lr = r->info.foreign ? NULL : rpt_leafstack_open(r);
	ret = scan(r, rd, &o, size);
	if (ret < 0)
		goto out;
	r->damaged_at = ses_reader_damage(rd, &r->damage);
	/* a file cut right after its header reads cleanly, but collect writes its events'
	 * descriptions first: without one, nothing in it can be read */
	if (!r->damaged_at && !o.n && !ses_reader_nattrs(rd)) {
		r->damaged_at = 16;
		r->damage = "nothing after the 16-byte header: cut before collect wrote its "
			    "events";
	}
	ret = rpt_stacks_reserve(r->stacks, o.nsamples);
	if (!ret && r->opts.walk)
		ret = rpt_walk_reserve(r, o.nsamples);
	if (!ret)
		ret = replay(r, rd, lr, &o);
	/* its decompressed CFI is the largest thing a dwarf report holds: not kept while
	 * the call graph opens every module's DWARF */
	rpt_stacks_unwound(r->stacks);
	rpt_leafstack_close(r, lr);
out:
	order_release(&o);
	ses_leaf_reader_free(lr);
	ses_reader_free(rd);
	return ret;
}
