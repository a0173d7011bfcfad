// SPDX-License-Identifier: MIT
/*
 * mpi/<pid>.mpiev (format in mpi_events.h): the bounded reader, over the side-file
 * container's (container.c). The file is written inside the rank, which may have been
 * killed while writing, or be anyone's program: the header's counts are checked before
 * anything is allocated, every event's function and completion index against what the
 * file holds, and a record that cannot be read ends the parse with what came before kept
 * and the damage said. Times become the samples' clock here, once.
 */
#include "session/internal.h"
#include "util/util.h" /* util_at_dir */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's largest honest size: the header, every name, the cap's events in chunks. */
#define MAX_BYTES \
	((size_t)SES_MPIEV_CAP_MAX * (sizeof(struct ses_mpiev_event) + 1) + \
	 SES_MPIEV_MAX_NAMES * \
		 (SES_CT_RECORD_HEADER + sizeof(struct ses_mpiev_rec_name) + SES_MPIEV_NAME_MAX) + \
	 4096)

static const struct ses_ct_kind mpiev_kind = {
	.magic = SES_MPIEV_MAGIC,
	.what = "MPI events",
	.major = SES_MPIEV_MAJOR,
	.min_header = sizeof(struct ses_mpiev_file_header),
	.known = 1u << SES_MPIEV_REC_NAME | 1u << SES_MPIEV_REC_EVENTS | 1u << SES_MPIEV_REC_END,
};

static void damage(struct ses_mpiev *e, size_t off, const char *why)
{
	if (e->damage[0])
		return;
	e->damaged_at = off;
	snprintf(e->damage, sizeof(e->damage), "%s", why);
}

/* Ticks to CLOCK_MONOTONIC ns. */
struct clock_map {
	bool tsc;
	int64_t t0, n0;
	double ns_per_tick;
};

/* Ticks to ns in @out; false when the time is none CLOCK_MONOTONIC can have (a corrupted
 * event, or clock pairs that make one): in double, no integer overflows. */
static bool to_ns(const struct clock_map *c, int64_t t, int64_t *out)
{
	double v = c->tsc ? (double)c->n0 + ((double)t - (double)c->t0) * c->ns_per_tick
			  : (double)t;

	if (!(v >= 0 && v < 9.0e18))
		return false;
	*out = (int64_t)v;
	return true;
}

static int header(const struct ses_ct_reader *r, struct ses_mpiev *e, struct clock_map *c,
		  uint64_t *recorded, char *err, size_t errlen)
{
	struct ses_mpiev_file_header h;

	memcpy(&h, r->buf, sizeof(h));
	if (h.size < 1 || h.size > SES_MPI_MAX_WORLD || h.rank < 0 || h.rank >= h.size) {
		ses_errf(err, errlen, "rank %d of %d ranks is impossible", h.rank, h.size);
		return -EINVAL;
	}
	if (h.clock != SES_MPIEV_CLOCK_NS && h.clock != SES_MPIEV_CLOCK_TSC) {
		ses_errf(err, errlen, "clock %u is none this uprof knows", h.clock);
		return -EINVAL;
	}
	/* the TSC's rate comes from the two pairs: they must span some time, forward */
	if (h.clock == SES_MPIEV_CLOCK_TSC &&
	    (h.ref1_ticks <= h.ref0_ticks || h.ref1_ns <= h.ref0_ns)) {
		ses_errf(err, errlen,
			 "its clock pairs do not go forward: its times cannot be read");
		return -EINVAL;
	}
	if (h.cap > SES_MPIEV_CAP_MAX || h.recorded > h.cap) {
		ses_errf(err, errlen, "%llu events recorded, cap %u: more than a rank can record",
			 (unsigned long long)h.recorded, h.cap);
		return -EINVAL;
	}
	e->rank = h.rank;
	e->size = h.size;
	e->pid = h.pid;
	e->end_how = h.end_how;
	e->dropped = h.dropped;
	e->cap = h.cap;
	*recorded = h.recorded;
	c->tsc = h.clock == SES_MPIEV_CLOCK_TSC;
	c->t0 = h.ref0_ticks;
	c->n0 = h.ref0_ns;
	c->ns_per_tick = c->tsc ? ((double)h.ref1_ns - (double)h.ref0_ns) /
					  ((double)h.ref1_ticks - (double)h.ref0_ticks)
				: 1.0;
	return 0;
}

static int name(struct ses_mpiev *e, const struct ses_ct_record *rec)
{
	struct ses_mpiev_rec_name n;
	size_t len;

	if (rec->len < sizeof(n) || rec->len - sizeof(n) > SES_MPIEV_NAME_MAX)
		return 1;
	memcpy(&n, rec->value, sizeof(n));
	if (n.id != e->nnames || e->nnames >= SES_MPIEV_MAX_NAMES) /* ids in order, from 0 */
		return 1;
	if (!e->nnames) {
		e->names = calloc(SES_MPIEV_MAX_NAMES, sizeof(*e->names));
		if (!e->names)
			return -ENOMEM;
	}
	len = rec->len - sizeof(n);
	memcpy(e->names[e->nnames], rec->value + sizeof(n), len);
	e->names[e->nnames][len] = 0;
	e->nnames++;
	return 0;
}

/* The walk's state: each slot's call (1 + index, 0 none) and each thread's last call. */
#define MAX_TIDS 1024
struct walk {
	const struct clock_map *c;
	/* streaming (ses_mpiev_stream_at): each event handed to @sink as it is read, none
	 * kept, no completion linked; else e->calls gets them */
	ses_mpiev_sink sink;
	void *sink_ctx;
	struct ses_mpiev_call one; /* the event being handed out */
	int sink_ret;		   /* the sink's failure: the walk stops */
	const void *map;	   /* streaming: the file's mapping, handed back as read */
	size_t map_len, handed;
	uint64_t recorded, seen;
	uint32_t *call_of_slot;
	struct {
		int tid;
		uint32_t call; /* 1 + index */
	} last[MAX_TIDS];
	int nlast;
};

static uint32_t *last_of(struct walk *w, int tid)
{
	for (int i = 0; i < w->nlast; i++)
		if (w->last[i].tid == tid)
			return &w->last[i].call;
	if (w->nlast == MAX_TIDS)
		return NULL;
	w->last[w->nlast].tid = tid;
	w->last[w->nlast].call = 0;
	return &w->last[w->nlast++].call;
}

/* A completion: its posting call completed in its thread's last call, with what arrived. */
static void complete(struct ses_mpiev *e, struct walk *w, const struct ses_mpiev_event *v)
{
	uint32_t posted = w->call_of_slot[v->done - 1], *by = last_of(w, v->tid);
	struct ses_mpiev_call *p;

	e->completions++;
	if (!posted || !by || !*by) {
		e->unlinked++;
		return;
	}
	p = &e->calls[posted - 1];
	p->done = *by;
	if (v->flags & SES_MPIEV_STATUS) {
		p->source = v->source;
		p->recv_tag = v->recv_tag;
		p->recvd = v->recvd;
		p->flags |= SES_MPIEV_STATUS;
	}
}

/* An EVENTS record's events into e->calls (room for them made at the header). 0, or 1
 * for damage (said). */
static int events(struct ses_mpiev *e, const struct ses_ct_record *rec, struct walk *w)
{
	size_t n = rec->len / sizeof(struct ses_mpiev_event);

	if (rec->len % sizeof(struct ses_mpiev_event) || n > w->recorded - w->seen) {
		damage(e, rec->offset, "an events record of the wrong length");
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		struct ses_mpiev_event v;
		struct ses_mpiev_call *o = w->sink ? &w->one : &e->calls[e->ncalls];
		bool done = false;
		uint32_t *last;

		memcpy(&v, rec->value + i * sizeof(v), sizeof(v));
		if (!v.func) {
			if (w->call_of_slot) /* none when streaming */
				w->call_of_slot[w->seen] = 0;
			w->seen++;
			e->unfilled++;
			continue;
		}
		if (v.flags & SES_MPIEV_COMPLETION) /* of a request posted before it */
			done = v.done && v.done <= w->seen;
		if (v.func > e->nnames || v.end < v.begin || v.dest < -1 || v.dest >= e->size ||
		    v.source < -1 || v.source >= e->size ||
		    ((v.flags & SES_MPIEV_COMPLETION) && !done) ||
		    !to_ns(w->c, v.begin, &o->begin_ns) || !to_ns(w->c, v.end, &o->end_ns) ||
		    o->end_ns < o->begin_ns) {
			damage(e, rec->offset,
			       "an event with an impossible function, time, rank or request");
			return 1;
		}
		if (done && w->sink)
			e->completions++;
		else if (done) {
			complete(e, w, &v);
			w->call_of_slot[w->seen++] = 0;
			continue;
		}
		if (v.flags & SES_MPIEV_PART) { /* a message of its thread's last call */
			last = last_of(w, v.tid);
			if (!last || !*last) {
				e->unlinked++;
				w->call_of_slot[w->seen++] = 0;
				continue;
			}
			o->part_of = *last;
		} else {
			o->part_of = 0;
		}
		o->sent = v.sent;
		o->recvd = v.recvd;
		o->func = v.func - 1u;
		o->flags = v.flags;
		o->tid = v.tid;
		o->comm = v.comm;
		o->done = 0;
		o->dest = v.dest;
		o->send_tag = v.send_tag;
		o->source = v.source;
		o->recv_tag = v.recv_tag;
		if (w->sink) { /* a completion keeps its posting event's index, 1 + it */
			o->done = done ? v.done : 0;
			e->ncalls += !done;
			w->sink_ret = w->sink(w->sink_ctx, e, w->seen++, o);
			if (w->sink_ret)
				return w->sink_ret;
			continue;
		}
		w->call_of_slot[w->seen++] = (uint32_t)++e->ncalls;
		if (v.flags & SES_MPIEV_PART)
			continue; /* the call it belongs to stays its thread's last */
		last = last_of(w, v.tid);
		if (last)
			*last = (uint32_t)e->ncalls;
	}
	return 0;
}

static int walk(struct ses_ct_reader *r, struct ses_mpiev *e, struct walk *w)
{
	struct ses_ct_record rec;
	struct ses_mpiev_rec_end end;
	int ret = 0;

	while (!ret && ses_ct_next(r, &rec)) {
		switch (rec.type) {
		case SES_MPIEV_REC_NAME:
			ret = name(e, &rec);
			if (ret > 0)
				damage(e, rec.offset, "a malformed function name");
			break;
		case SES_MPIEV_REC_EVENTS:
			ret = events(e, &rec, w);
			if (w->map) /* what was read stays on disk, not in memory */
				w->handed = ses_file_hand_back(w->map, w->map_len, w->handed,
							       rec.offset);
			break;
		case SES_MPIEV_REC_END:
			if (rec.len != sizeof(end)) {
				damage(e, rec.offset, "an end record of the wrong length");
				ret = 1;
				break;
			}
			memcpy(&end, rec.value, sizeof(end));
			if (end.nrecords != r->records - 1 + r->unknown || end.events != w->seen ||
			    w->seen != w->recorded)
				damage(e, rec.offset,
				       "the end record counts other records or events than the "
				       "file holds");
			else
				e->complete = true;
			ret = 1; /* nothing after the end is read */
		}
	}
	return ret < 0 ? ret : 0;
}

/* ses_mpiev_parse, or with @sink (@map: the file's mapping) ses_mpiev_stream_at's walk. */
static int parse(const void *buf, size_t len, struct ses_mpiev *e, ses_mpiev_sink sink,
		 void *ctx, bool map, char *err, size_t errlen)
{
	struct ses_ct_reader r;
	struct clock_map c;
	struct walk *w = NULL;
	uint64_t recorded = 0;
	int ret;

	memset(e, 0, sizeof(*e));
	if (len > MAX_BYTES) {
		ses_errf(err, errlen, "file is %zu bytes, more than an MPI events file can be",
			 len);
		return -EFBIG;
	}
	ret = ses_ct_open(&r, &mpiev_kind, buf, len, err, errlen);
	if (!ret)
		ret = header(&r, e, &c, &recorded, err, errlen);
	if (ret)
		return ret;
	/* the header's count, bounded by what the file's size can hold */
	if (recorded > len / sizeof(struct ses_mpiev_event))
		recorded = len / sizeof(struct ses_mpiev_event);
	w = calloc(1, sizeof(*w));
	if (w && sink) { /* nothing a call: the events go out as they are read */
		w->sink = sink;
		w->sink_ctx = ctx;
		w->map = map ? buf : NULL;
		w->map_len = len;
	} else if (w) {
		e->calls = malloc(sizeof(*e->calls) * (recorded ? recorded : 1));
		w->call_of_slot = calloc(recorded ? recorded : 1, sizeof(*w->call_of_slot));
	}
	if (!w || (!sink && (!e->calls || !w->call_of_slot))) {
		ret = -ENOMEM;
		goto out;
	}
	w->c = &c;
	w->recorded = recorded;
	ret = walk(&r, e, w);
	if (ret)
		goto out;
	e->unknown_records = r.unknown;
	if (r.damage)
		damage(e, r.damaged_at, r.damage);
	if (!e->complete)
		damage(e, r.pos,
		       "no end record (the rank was killed while writing, or the file "
		       "was cut)");
out:
	if (ret)
		ses_mpiev_release(e);
	if (w)
		free(w->call_of_slot);
	free(w);
	return ret;
}

int ses_mpiev_parse(const void *buf, size_t len, struct ses_mpiev *e, char *err, size_t errlen)
{
	return parse(buf, len, e, NULL, NULL, false, err, errlen);
}

int ses_mpiev_stream(const void *buf, size_t len, struct ses_mpiev *e, ses_mpiev_sink sink,
		     void *ctx, char *err, size_t errlen)
{
	return parse(buf, len, e, sink, ctx, false, err, errlen);
}

int ses_mpiev_stream_at(int dfd, const char *name, struct ses_mpiev *e, ses_mpiev_sink sink,
			void *ctx, char *err, size_t errlen)
{
	const void *map;
	size_t len;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = ses_file_map_at(dfd, name, &map, &len, err, errlen);
	if (ret)
		return ret;
	ret = parse(map ? map : "", len, e, sink, ctx, map != NULL, err, errlen);
	if (map)
		munmap((void *)map, len);
	return ret;
}

int ses_mpiev_read_at(int dfd, const char *name, struct ses_mpiev *e, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = ses_file_read_all_at(dfd, name, MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = ses_mpiev_parse(buf, len, e, err, errlen);
	free(buf);
	return ret;
}

/* The first mpi/<pid>.mpiev beneath @sdfd, its path into @rel: true when there is one. */
static bool first_file(int sdfd, char *rel, size_t len)
{
	char first[300] = "";
	size_t sl = strlen(SES_MPIEV_SUFFIX);
	struct dirent *d;
	int fd;
	DIR *dir;

	fd = util_at_dir(sdfd, SES_MPI_DIR);
	if (fd < 0)
		return false;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return false;
	}
	while ((d = readdir(dir))) {
		size_t n = strlen(d->d_name);

		if (n > sl && d->d_name[0] != '.' &&
		    !strcmp(d->d_name + n - sl, SES_MPIEV_SUFFIX) &&
		    (!first[0] || strcmp(d->d_name, first) < 0))
			snprintf(first, sizeof(first), "%s", d->d_name);
	}
	closedir(dir);
	snprintf(rel, len, SES_MPI_DIR "/%s", first);
	return first[0] != 0;
}

/* ses_mpiev_find_at's message for a file that could not be read: which file. */
static void name_file(const char *rel, char *err, size_t errlen)
{
	char why[256];

	snprintf(why, sizeof(why), "%s", err);
	ses_errf(err, errlen, "%s: %s", rel, why);
}

int ses_mpiev_stream_find_at(int sdfd, struct ses_mpiev *e, ses_mpiev_sink sink, void *ctx,
			     char *err, size_t errlen)
{
	char rel[320];
	int ret;

	memset(e, 0, sizeof(*e));
	if (!first_file(sdfd, rel, sizeof(rel)))
		return 0;
	ret = ses_mpiev_stream_at(sdfd, rel, e, sink, ctx, err, errlen);
	if (ret)
		name_file(rel, err, errlen);
	return ret ? ret : 1;
}

int ses_mpiev_find_at(int sdfd, struct ses_mpiev *e, char *err, size_t errlen)
{
	char rel[320];
	int ret;

	memset(e, 0, sizeof(*e));
	if (!first_file(sdfd, rel, sizeof(rel)))
		return 0;
	ret = ses_mpiev_read_at(sdfd, rel, e, err, errlen);
	if (ret)
		name_file(rel, err, errlen);
	return ret ? ret : 1;
}

void ses_mpiev_release(struct ses_mpiev *e)
{
	if (!e)
		return;
	free(e->calls);
	free(e->names);
	e->calls = NULL;
	e->names = NULL;
	e->ncalls = e->nnames = 0;
}
