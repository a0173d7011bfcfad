// SPDX-License-Identifier: MIT
/*
 * A pprof profile (profile.pb.gz): Go's profile.proto, gzip-compressed, as `go tool
 * pprof`, Pyroscope, Grafana and Parca read it. Samples of the report's first event (the
 * sort event of report.csv), with their call stacks, merged per (stack, thread): values
 * "samples" (count) and the event's own measure ("cpu" nanoseconds for the timers, the
 * event's count otherwise); labels "thread" (as report.csv names it), "pid" and "tid".
 * One function per (module, name); a location per function of a stack with the
 * functions inlined into it as its first lines (pprof's Location.line order), so pprof
 * shows inlined functions as report's stacks do and `-noinlines` as report.csv's
 * functions do; locations have no address (uprof's stacks are of functions); one mapping
 * per module with its build id, the program's first.
 * Samples of other events are left out and counted in a comment.
 *
 * profile.proto (github.com/google/pprof/proto/profile.proto) field numbers are used
 * below by name; the encoder is the few lines of protobuf's wire format it needs.
 */
#include "export/internal.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PP_STACK_MAX 512

/* ---- protobuf wire format: varints and length-delimited fields into a buffer ---- */

struct pb {
	unsigned char *b;
	size_t len, cap;
	int err;
};

static void pb_bytes(struct pb *p, const void *s, size_t n)
{
	if (p->err)
		return;
	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap : 4096;
		unsigned char *g;

		while (cap < p->len + n)
			cap *= 2;
		g = realloc(p->b, cap);
		if (!g) {
			p->err = -ENOMEM;
			return;
		}
		p->b = g;
		p->cap = cap;
	}
	memcpy(p->b + p->len, s, n);
	p->len += n;
}

static void pb_varint(struct pb *p, uint64_t v)
{
	unsigned char t[10];
	size_t n = 0;

	do {
		t[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pb_bytes(p, t, n);
}

/* field @f as a varint (wire type 0); zero values are left out, as proto3 does */
static void pb_int(struct pb *p, unsigned f, uint64_t v)
{
	if (!v)
		return;
	pb_varint(p, (uint64_t)f << 3);
	pb_varint(p, v);
}

/* field @f as length-delimited bytes (wire type 2): strings, messages, packed arrays */
static void pb_len(struct pb *p, unsigned f, const void *s, size_t n)
{
	pb_varint(p, (uint64_t)f << 3 | 2);
	pb_varint(p, n);
	pb_bytes(p, s, n);
}

/* Profile's fields */
enum {
	PF_SAMPLE_TYPE = 1,
	PF_SAMPLE = 2,
	PF_MAPPING = 3,
	PF_LOCATION = 4,
	PF_FUNCTION = 5,
	PF_STRING = 6,
	PF_TIME = 9,
	PF_DURATION = 10,
	PF_PERIOD_TYPE = 11,
	PF_PERIOD = 12,
	PF_COMMENT = 13,
};

/* ---- the model: strings, functions (= locations), mappings, merged samples ---- */

struct pp_node { /* a stack as a trie: the frame's location under its caller's node */
	uint32_t parent, loc;
};

struct pp_sample {
	uint32_t node; /* the leaf's trie node */
	int pid, tid;
	int64_t thread_name; /* string index */
	uint64_t count, measure;
};

struct pp {
	struct rpt *r;
	struct pb strings;
	int64_t nstrings;
	struct util_hash string_of;  /* pointer -> index + 1 */
	struct util_hash func_of;    /* (mapping, name pointer) -> function id */
	struct util_hash loc_key;    /* (key so far, function id, last?) -> key */
	struct util_hash loc_of;     /* key of a location's functions -> location id */
	struct util_hash mapping_of; /* module path pointer -> mapping id */
	struct util_hash node_of;    /* (parent, loc) -> node + 1 */
	struct util_hash sample_of;  /* (node, tid) -> sample + 1 */
	struct util_hash thread_of;  /* tid -> thread name string + 1 */
	struct util_hash module_of;  /* module path pointer -> module id + 1 */
	struct pb functions, locations, mappings;
	uint32_t nlocs, nfuncs, nmappings;
	uint64_t nkeys;
	struct pp_node *nodes;
	size_t nnodes, capnodes;
	struct pp_sample *samples;
	size_t nsamples, capsamples;
	uint64_t other_events; /* samples of events other than the first: left out */
	const char *program;   /* the first process's executable */
	struct rpt_walk_frame frames[PP_STACK_MAX];
	int err;
};

/* A new entry of the string table: its index. */
static int64_t pp_str_new(struct pp *p, const char *s)
{
	pb_len(&p->strings, PF_STRING, s, strlen(s));
	return ++p->nstrings;
}

/* String @s's index in the table, by pointer (report names are interned). */
static int64_t pp_str(struct pp *p, const char *s)
{
	uint64_t *slot;

	if (!s || !*s)
		return 0;
	slot = util_hash_slot(&p->string_of, (uint64_t)(uintptr_t)s, 0, 0);
	if (!slot) {
		p->err = -ENOMEM;
		return 0;
	}
	if (!*slot)
		*slot = (uint64_t)pp_str_new(p, s) + 1;
	return (int64_t)*slot - 1;
}

static uint32_t pp_mapping(struct pp *p, const char *path)
{
	uint64_t *slot = util_hash_slot(&p->mapping_of, (uint64_t)(uintptr_t)path, 0, 0);
	struct pb m = { 0 };
	char build_id[41] = "";
	uint64_t *module;

	if (!slot) {
		p->err = -ENOMEM;
		return 0;
	}
	if (*slot)
		return (uint32_t)*slot;
	*slot = ++p->nmappings;
	module = util_hash_find(&p->module_of, (uint64_t)(uintptr_t)path, 0, 0);
	if (module)
		rpt_module_build_id(p->r, (int)*module - 1, build_id, sizeof(build_id));
	pb_int(&m, 1, *slot);			  /* id */
	pb_int(&m, 5, (uint64_t)pp_str(p, path)); /* filename */
	if (*build_id)
		pb_int(&m, 6, (uint64_t)pp_str_new(p, build_id)); /* build_id */
	pb_int(&m, 7, 1);					  /* has_functions */
	if (!m.err)
		pb_len(&p->mappings, PF_MAPPING, m.b, m.len);
	else
		p->err = m.err;
	free(m.b);
	return (uint32_t)*slot;
}

/* The function @name of mapping @mapping: ids from 1. */
static uint32_t pp_function(struct pp *p, const char *name, uint32_t mapping)
{
	uint64_t *slot = util_hash_slot(&p->func_of, mapping, (uint64_t)(uintptr_t)name, 0);
	struct pb f = { 0 };
	int64_t sname;

	if (!slot) {
		p->err = -ENOMEM;
		return 0;
	}
	if (*slot)
		return (uint32_t)*slot;
	*slot = ++p->nfuncs;
	sname = pp_str(p, name);
	pb_int(&f, 1, *slot);		/* Function.id */
	pb_int(&f, 2, (uint64_t)sname); /* name */
	pb_int(&f, 3, (uint64_t)sname); /* system_name */
	if (f.err)
		p->err = f.err;
	else
		pb_len(&p->functions, PF_FUNCTION, f.b, f.len);
	free(f.b);
	return (uint32_t)*slot;
}

/* The location of frames @fr[0..@n-1]: inlined functions, innermost first, then the
 * function they were inlined into (pprof's Location.line order). Ids from 1. */
static uint32_t pp_location(struct pp *p, const struct rpt_walk_frame *fr, int n)
{
	const struct rpt_walk_frame *phys = &fr[n - 1];
	uint32_t mapping = *phys->module ? pp_mapping(p, phys->module) : 0;
	uint32_t fids[PP_STACK_MAX];
	uint64_t key = mapping, *slot;
	struct pb line = { 0 }, loc = { 0 };

	for (int i = 0; i < n; i++) {
		fids[i] = pp_function(p, fr[i].kind == RPT_FN_INLINED ? fr[i].base : fr[i].name,
				      mapping);
		slot = util_hash_slot(&p->loc_key, key, fids[i], i == n - 1);
		if (!slot) {
			p->err = -ENOMEM;
			return 0;
		}
		if (!*slot)
			*slot = ++p->nkeys;
		key = *slot;
	}
	if (p->err)
		return 0;
	slot = util_hash_slot(&p->loc_of, key, 0, 0);
	if (!slot) {
		p->err = -ENOMEM;
		return 0;
	}
	if (*slot)
		return (uint32_t)*slot;
	*slot = ++p->nlocs;
	pb_int(&loc, 1, *slot);	  /* Location.id */
	pb_int(&loc, 2, mapping); /* mapping_id */
	for (int i = 0; i < n; i++) {
		line.len = 0;
		pb_int(&line, 1, fids[i]); /* Line.function_id */
		pb_len(&loc, 4, line.b, line.len);
	}
	if (line.err || loc.err)
		p->err = -ENOMEM;
	else
		pb_len(&p->locations, PF_LOCATION, loc.b, loc.len);
	free(line.b);
	free(loc.b);
	return (uint32_t)*slot;
}

static uint32_t pp_node(struct pp *p, uint32_t parent, uint32_t loc)
{
	uint64_t *slot = util_hash_slot(&p->node_of, parent, loc, 0);

	if (!slot) {
		p->err = -ENOMEM;
		return 0;
	}
	if (*slot)
		return (uint32_t)*slot;
	if (p->nnodes == p->capnodes) {
		size_t cap = p->capnodes ? p->capnodes * 2 : 1024;
		struct pp_node *g = realloc(p->nodes, cap * sizeof(*g));

		if (!g) {
			p->err = -ENOMEM;
			return 0;
		}
		p->nodes = g;
		p->capnodes = cap;
	}
	if (!p->nnodes) /* node 0: the root, under nothing */
		p->nodes[p->nnodes++] = (struct pp_node){ 0, 0 };
	p->nodes[p->nnodes] = (struct pp_node){ parent, loc };
	*slot = p->nnodes++;
	return (uint32_t)*slot;
}

/* pprof takes mapping 1 for the main binary: the first process's program comes first */
static int on_process(void *ctx, const struct rpt_walk_process *w)
{
	struct pp *p = ctx;

	if (!p->program && w->program && *w->program)
		p->program = w->program;
	return 0;
}

static int on_module(void *ctx, const struct rpt_walk_module *m)
{
	struct pp *p = ctx;
	uint64_t *slot = util_hash_slot(&p->module_of, (uint64_t)(uintptr_t)m->path, 0, 0);

	if (!slot)
		return -ENOMEM;
	*slot = (uint64_t)m->id + 1;
	if (p->program && !p->nmappings && !strcmp(m->path, p->program))
		pp_mapping(p, m->path);
	return p->err;
}

static int on_thread(void *ctx, const struct rpt_walk_thread *t)
{
	struct pp *p = ctx;
	uint64_t *slot = util_hash_slot(&p->thread_of, (uint64_t)(uint32_t)t->tid, 0, 0);

	if (!slot)
		return -ENOMEM;
	*slot = (uint64_t)pp_str(p, t->name) + 1;
	return p->err;
}

static int on_sample(void *ctx, const struct rpt_walk_sample *s)
{
	struct pp *p = ctx;
	uint32_t node = 0, locs[PP_STACK_MAX];
	uint64_t *slot, *name;
	int n, nlocs = 0;

	if (s->event != 0) {
		p->other_events++;
		return 0;
	}
	n = rpt_walk_frames(p->r, s->index, p->frames, PP_STACK_MAX);
	if (n < 0)
		return n;
	/* locations leaf first (each: inlined frames and the function holding them), then
	 * the trie root first */
	for (int i = 0; i < n;) {
		int k = i;

		while (k < n - 1 && p->frames[k].kind == RPT_FN_INLINED)
			k++;
		locs[nlocs++] = pp_location(p, &p->frames[i], k - i + 1);
		i = k + 1;
	}
	while (nlocs-- > 0)
		node = pp_node(p, node, locs[nlocs]);
	if (p->err)
		return p->err;
	slot = util_hash_slot(&p->sample_of, node, (uint64_t)(uint32_t)s->tid, 0);
	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (p->nsamples == p->capsamples) {
			size_t cap = p->capsamples ? p->capsamples * 2 : 1024;
			struct pp_sample *g = realloc(p->samples, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			p->samples = g;
			p->capsamples = cap;
		}
		name = util_hash_find(&p->thread_of, (uint64_t)(uint32_t)s->tid, 0, 0);
		p->samples[p->nsamples] = (struct pp_sample){ node,   s->pid,
							      s->tid, name ? (int64_t)*name - 1 : 0,
							      0,      0 };
		*slot = ++p->nsamples;
	}
	p->samples[*slot - 1].count += s->units;
	p->samples[*slot - 1].measure += rpt_event_period(p->r, 0, s->units);
	return 0;
}

/* Sample @s as a Profile.sample message appended to @out. */
static void write_sample(struct pp *p, const struct pp_sample *s, struct pb *out)
{
	struct pb m = { 0 }, ids = { 0 }, vals = { 0 }, lab = { 0 };

	for (uint32_t n = s->node; n; n = p->nodes[n].parent) /* leaf first */
		pb_varint(&ids, p->nodes[n].loc);
	pb_varint(&vals, s->count);
	pb_varint(&vals, s->measure);
	pb_len(&m, 1, ids.b, ids.len);	 /* location_id, packed */
	pb_len(&m, 2, vals.b, vals.len); /* value, packed */
	pb_int(&lab, 1, (uint64_t)pp_str(p, "thread"));
	pb_int(&lab, 2, (uint64_t)s->thread_name);
	pb_len(&m, 3, lab.b, lab.len);
	lab.len = 0;
	pb_int(&lab, 1, (uint64_t)pp_str(p, "pid"));
	pb_int(&lab, 3, (uint64_t)s->pid);
	pb_len(&m, 3, lab.b, lab.len);
	lab.len = 0;
	pb_int(&lab, 1, (uint64_t)pp_str(p, "tid"));
	pb_int(&lab, 3, (uint64_t)s->tid);
	pb_len(&m, 3, lab.b, lab.len);
	if (m.err || ids.err || vals.err || lab.err)
		p->err = -ENOMEM;
	else
		pb_len(out, PF_SAMPLE, m.b, m.len);
	free(m.b);
	free(ids.b);
	free(vals.b);
	free(lab.b);
}

static void value_type(struct pp *p, struct pb *out, unsigned field, const char *type,
		       const char *unit)
{
	struct pb v = { 0 };

	pb_int(&v, 1, (uint64_t)pp_str(p, type));
	pb_int(&v, 2, (uint64_t)pp_str(p, unit));
	if (v.err)
		p->err = v.err;
	else
		pb_len(out, field, v.b, v.len);
	free(v.b);
}

/* The whole Profile message into @out (strings last: every index is known by then). */
static void write_profile(struct pp *p, struct pb *out)
{
	bool timer = rpt_event_is_timer(p->r, 0);
	const char *measure = timer ? "cpu" : rpt_event_name(p->r, 0);
	const char *unit = timer ? "nanoseconds" : "count";
	struct rpt_summary sum;
	char comment[96];

	rpt_summary(p->r, &sum);
	pp_str(p, "samples");
	value_type(p, out, PF_SAMPLE_TYPE, "samples", "count");
	value_type(p, out, PF_SAMPLE_TYPE, measure, unit);
	for (size_t i = 0; i < p->nsamples; i++)
		write_sample(p, &p->samples[i], out);
	pb_bytes(out, p->mappings.b, p->mappings.len);
	pb_bytes(out, p->locations.b, p->locations.len);
	pb_bytes(out, p->functions.b, p->functions.len);
	if (sum.info && sum.info->end_mono_ns > sum.info->start_mono_ns)
		pb_int(out, PF_DURATION,
		       (uint64_t)(sum.info->end_mono_ns - sum.info->start_mono_ns));
	value_type(p, out, PF_PERIOD_TYPE, measure, unit);
	pb_int(out, PF_PERIOD, rpt_event_period(p->r, 0, 1));
	if (p->other_events) {
		snprintf(comment, sizeof(comment), "%llu samples of other events than %s left out",
			 (unsigned long long)p->other_events, rpt_event_name(p->r, 0));
		pb_int(out, PF_COMMENT, (uint64_t)pp_str_new(p, comment));
	}
	/* string_table: "" first (index 0), then in the order indexed */
	pb_len(out, PF_STRING, "", 0);
	pb_bytes(out, p->strings.b, p->strings.len);
	if (out->err)
		p->err = out->err;
}

/* @in gzip-compressed to @f. 0 or -errno. */
static int gzip_to(const struct pb *in, FILE *f)
{
	z_stream z = { 0 };
	unsigned char buf[1 << 16];
	int zr, ret = 0;

	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = in->b;
	z.avail_in = (uInt)in->len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		zr = deflate(&z, Z_FINISH);
		if (zr == Z_STREAM_ERROR) {
			ret = -EIO;
			break;
		}
		if (fwrite(buf, 1, sizeof(buf) - z.avail_out, f) != sizeof(buf) - z.avail_out)
			ret = -EIO;
	} while (zr != Z_STREAM_END && !ret);
	deflateEnd(&z);
	return ret;
}

int rpt_export_pprof(struct rpt *r, FILE *f)
{
	struct pp p = { .r = r };
	struct pb out = { 0 };
	struct rpt_walker w = { .ctx = &p,
				.process = on_process,
				.thread = on_thread,
				.module = on_module,
				.sample = on_sample };
	int ret = rpt_walk(r, &w);

	if (!ret)
		ret = p.err;
	if (!ret) {
		write_profile(&p, &out);
		ret = p.err;
	}
	if (!ret)
		ret = gzip_to(&out, f);
	free(out.b);
	free(p.strings.b);
	free(p.functions.b);
	free(p.locations.b);
	free(p.mappings.b);
	free(p.nodes);
	free(p.samples);
	util_hash_release(&p.string_of);
	util_hash_release(&p.loc_of);
	util_hash_release(&p.loc_key);
	util_hash_release(&p.func_of);
	util_hash_release(&p.mapping_of);
	util_hash_release(&p.node_of);
	util_hash_release(&p.sample_of);
	util_hash_release(&p.thread_of);
	util_hash_release(&p.module_of);
	return ret;
}
