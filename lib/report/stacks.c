// SPDX-License-Identifier: MIT
/*
 * The stack of each sample, while samples are replayed in time order (so the mappings
 * are those of the sample's time):
 *  - the callchain as the kernel wrote it: PERF_CONTEXT_* markers switch between kernel
 *    and user addresses; the first address after a marker is where that context was
 *    interrupted, the others are return addresses (looked up at addr - 1, the call);
 *  - in dwarf mode, the user part comes from unwinding the sample's registers and stack
 *    copy (lib/unwind);
 *  - a stack that could not be followed to its end gets a marker frame at the outer end:
 *    [truncated] (depth limit, end of the stack copy) or [unwind failed] (an address in
 *    no mapping, no CFI, a corrupt stack): never frames made of garbage.
 *  - for fp samples with a leaf copy (leafstack.data), the caller the kernel's walk skips
 *    when the leaf has no frame (of its own) is put back from one CFI step;
 * The leaf is always the sample's own IP, so self time matches the flat profile.
 * Equal stacks of one thread are stored once, with a count.
 */
#include "report/stacks.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES (PMC_CG_MAX_DEPTH_REPORT + 2)
#define PMC_CG_MAX_DEPTH_REPORT 1024
_Static_assert(MAX_FRAMES == RPT_TR_MAX_FRAMES, "translated.bin holds stacks of up to MAX_FRAMES");
#define DEFAULT_DEPTH 128
#define MAX_POOL (16u << 20) /* frames stored in all; past it, stacks keep their leaf */

struct rpt_stacks *rpt_stacks_new(const struct rpt *r)
{
	struct rpt_stacks *st = calloc(1, sizeof(*st));
	const char *mode = r->info.callgraph_mode;

	if (!st)
		return NULL;
	st->collected = mode[0] && strcmp(mode, "none");
	st->dwarf = !strcmp(mode, "dwarf");
	st->keep = r->has_tasks || (r->opts.exports && !r->opts.no_timeline);
	st->bounded = !r->has_tasks;
	st->stride = 1;
	st->depth = r->info.callgraph_depth > 0 ? r->info.callgraph_depth : DEFAULT_DEPTH;
	if (st->depth > PMC_CG_MAX_DEPTH_REPORT)
		st->depth = PMC_CG_MAX_DEPTH_REPORT;
	return st;
}

void rpt_stacks_free(struct rpt_stacks *st)
{
	if (!st)
		return;
	rpt_unwinder_free(st->unwinder);
	free(st->umaps);
	rpt_inlines_free(st->inlines);
	free(st->frames);
	free(st->stacks);
	free(st->samples);
	free(st->spans);
	util_hash_release(&st->index);
	rpt_callgraph_reset(st);
	rpt_strpool_release(&st->names);
	free(st);
}

/* ---- building one sample's frames ---- */

struct builder {
	struct rpt *r;
	const struct rpt_process *proc; /* NULL: no mappings known */
	int last_map;			/* index of the last map found, a hint */
	struct rpt_frame *f;
	int n, max;
	bool truncated, failed;
	/* a frameless leaf's caller, from one CFI step (leafstack.data): put after the leaf
	 * unless the chain has it already; only for a chain whose first user address is
	 * @leaf_pc, the copy's */
	bool leaf;
	uint64_t leaf_pc, leaf_ra;
};

static const struct rpt_map *find_map(struct builder *b, uint64_t ip)
{
	const struct rpt_process *p = b->proc;

	if (!p)
		return NULL;
	if (b->last_map >= 0 && b->last_map < p->nmaps && ip >= p->maps[b->last_map].start &&
	    ip < p->maps[b->last_map].end)
		return &p->maps[b->last_map];
	for (int i = p->nmaps - 1; i >= 0; i--)
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			b->last_map = i;
			return &p->maps[i];
		}
	return NULL;
}

static bool push(struct builder *b, uint32_t module, uint64_t addr)
{
	if (b->n >= b->max) {
		b->truncated = true;
		return false;
	}
	b->f[b->n++] = (struct rpt_frame){ addr, module, 0 };
	return true;
}

/* A user address: exact (@exact, the interrupted IP) or a return address. False when the
 * stack cannot go on (full, or an address in no mapping). */
static bool push_user(struct builder *b, uint64_t ip, bool exact)
{
	uint64_t look = exact ? ip : ip - 1;
	const struct rpt_map *m = find_map(b, look);

	if (!m) {
		if (b->n == 0) /* the leaf itself: keep it, as the flat profile does */
			return push(b, RPT_MODULE_UNKNOWN, ip);
		b->failed = true;
		return false;
	}
	return push(b, (uint32_t)m->module, look - m->start + m->pgoff);
}

static bool push_leaf_caller(struct builder *b)
{
	b->r->stacks->leaf_fixed++;
	return push_user(b, b->leaf_ra, false);
}

/* @kmax: the attr's sample_max_stack; a chain that long was cut by the kernel. */
static void from_callchain(struct builder *b, const struct ses_sample *s, uint32_t kmax)
{
	uint64_t ctx = PERF_CONTEXT_USER;
	uint32_t entries = 0, user = 0;
	bool first = true;

	for (uint32_t i = 0; i < s->nr_ips; i++)
		entries += ses_sample_u64(s->ips, i) < (uint64_t)PERF_CONTEXT_MAX;
	if (kmax && entries >= kmax)
		b->truncated = true;
	for (uint32_t i = 0; i < s->nr_ips; i++) {
		uint64_t ip = ses_sample_u64(s->ips, i);

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			ctx = ip;
			first = true;
			continue;
		}
		if (!ip)
			break;
		if (ctx == (uint64_t)PERF_CONTEXT_KERNEL) {
			/* kernel text lies in the top of the address space (x86-64, arm64) */
			if (!first && (ip >> 48) != 0xffff) {
				b->failed = true;
				return;
			}
			if (!push(b, RPT_MODULE_KERNEL, first ? ip : ip - 1))
				return;
		} else if (ctx == (uint64_t)PERF_CONTEXT_USER) {
			if (user == 0 && b->leaf && ip != b->leaf_pc)
				b->leaf = false; /* not the copy's leaf: leave the chain alone */
			if (user == 1 && b->leaf) {
				b->leaf = false;
				if (ip == b->leaf_ra)
					b->r->stacks->leaf_fp++; /* the walk has it */
				else if (!push_leaf_caller(b))
					return;
			}
			if (!push_user(b, ip, first))
				return;
			user++;
		} /* guest and hypervisor frames: not ours to name */
		first = false;
	}
	if (user == 1 && b->leaf) /* the walk stopped at the leaf */
		push_leaf_caller(b);
	b->leaf = false;
}

/* The sampled process's mappings as lib/unwind reads them, in @view (its maps in a
 * buffer kept across samples). false when out of memory. */
static bool unwind_proc(struct builder *b, struct rpt_unwind_proc *view)
{
	struct rpt_stacks *st = b->r->stacks;
	const struct rpt_world *w = &b->r->world;
	const struct rpt_process *p = b->proc;

	if (p->nmaps > st->capumaps) {
		int cap = st->capumaps ? st->capumaps : 64;
		struct rpt_unwind_map *g;

		while (cap < p->nmaps)
			cap *= 2;
		g = realloc(st->umaps, sizeof(*g) * (size_t)cap);
		if (!g)
			return false;
		st->umaps = g;
		st->capumaps = cap;
	}
	for (int i = 0; i < p->nmaps; i++) {
		const struct rpt_map *m = &p->maps[i];

		st->umaps[i] = (struct rpt_unwind_map){ m->start,
							m->end,
							m->pgoff,
							m->module,
							w->modules[m->module].path,
							&w->modules[m->module].id };
	}
	*view = (struct rpt_unwind_proc){ p->pid, st->umaps, p->nmaps };
	return true;
}

/* A frameless leaf's caller from its leaf copy (@s->regs and @s->stack come from
 * leafstack.data: its attr has no REGS_USER), counted. */
static void leaf_step(struct builder *b, const struct ses_sample *s)
{
	struct rpt_stacks *st = b->r->stacks;
	struct rpt_unwind_proc proc;
	int ret;

	if (!st->unwinder) {
		st->unwinder = rpt_unwinder_new(b->r->vdso_file[0] ? b->r->vdso_file : NULL,
						b->r->locator);
		/* a job's ranks: the rows of the files they share, read once */
		if (st->unwinder && b->r->opts.unwindshare &&
		    rpt_unwinder_share(st->unwinder, b->r->opts.unwindshare, b->r->info.host)) {
			rpt_unwinder_free(st->unwinder);
			st->unwinder = NULL;
		}
	}
	if (!st->unwinder || !b->proc || !unwind_proc(b, &proc)) {
		st->leaf_unknown++;
		return;
	}
	ret = rpt_unwind_leaf(st->unwinder, &proc, s, &b->leaf_pc, &b->leaf_ra);
	if (ret > 0)
		b->leaf = true;
	else if (ret == 0)
		st->leaf_fp++;
	else
		st->leaf_unknown++;
}

static void from_unwind(struct builder *b, const struct ses_sample *s)
{
	struct rpt_stacks *st = b->r->stacks;
	uint64_t pcs[MAX_FRAMES];
	bool act[MAX_FRAMES];
	enum rpt_unwind_end end;
	int n, cend;

	if (!b->proc || b->n >= b->max) {
		b->truncated |= b->n >= b->max;
		return;
	}
	/* translated.bin's unwind of this sample, else ours (kept when translating) */
	n = rpt_tr_unwound(b->r, b->max - b->n, pcs, act, &cend);
	if (n >= 0) {
		end = (enum rpt_unwind_end)cend;
	} else {
		struct rpt_unwind_proc proc;

		if (!st->unwinder)
			st->unwinder = rpt_unwinder_new(b->r->vdso_file[0] ? b->r->vdso_file : NULL,
							b->r->locator);
		if (!st->unwinder || !unwind_proc(b, &proc))
			return;
		n = rpt_unwind(st->unwinder, &proc, s, pcs, act, b->max - b->n, &end);
		rpt_tr_keep(b->r, b->max - b->n, n, pcs, act, (int)end);
	}
	st->unwound++;
	if (!n) { /* not even the first frame: the registers' IP stands alone */
		b->failed = true;
		return;
	}
	for (int i = 0; i < n; i++)
		if (!push_user(b, pcs[i], act[i]))
			return;
	if (end == RPT_UNWIND_TRUNCATED)
		b->truncated = true;
	else if (end == RPT_UNWIND_FAILED)
		b->failed = true;
}

static uint64_t hash_frames(uint32_t thread, const struct rpt_frame *f, int n)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ thread;

	for (int i = 0; i < n; i++) {
		h = (h ^ f[i].addr) * 0x100000001b3ULL;
		h = (h ^ f[i].module) * 0x100000001b3ULL;
	}
	return h ^ (h >> 29);
}

/* The index of stack (@thread, @f[0..n)), stored on first sight; -ENOMEM. */
static long intern_stack(struct rpt_stacks *st, uint32_t thread, const struct rpt_frame *f, int n)
{
	uint64_t h = hash_frames(thread, f, n);

	for (uint64_t chain = 0;; chain++) {
		uint64_t *slot = util_hash_slot(&st->index, h, thread, chain);
		struct rpt_stack *s;

		if (!slot)
			return -ENOMEM;
		if (*slot) {
			s = &st->stacks[*slot - 1];
			if (s->nframes == (uint32_t)n &&
			    !memcmp(&st->frames[s->first], f, sizeof(*f) * n))
				return (long)(*slot - 1);
			continue;
		}
		if (st->nstacks == st->capstacks) {
			size_t cap = st->capstacks ? st->capstacks * 2 : 1024;
			struct rpt_stack *g = realloc(st->stacks, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			st->stacks = g;
			st->capstacks = cap;
		}
		if (st->nframes + n > st->capframes) {
			size_t cap = st->capframes ? st->capframes * 2 : 8192;
			struct rpt_frame *g;

			while (cap < st->nframes + n)
				cap *= 2;
			g = realloc(st->frames, cap * sizeof(*g));
			if (!g)
				return -ENOMEM;
			st->frames = g;
			st->capframes = cap;
		}
		memcpy(&st->frames[st->nframes], f, sizeof(*f) * n);
		st->stacks[st->nstacks] = (struct rpt_stack){ h,      st->nframes, (uint32_t)n,
							      thread, 0,	   0 };
		st->nframes += n;
		*slot = ++st->nstacks;
		return (long)st->nstacks - 1;
	}
}

int rpt_stacks_reserve(struct rpt_stacks *st, size_t nsamples)
{
	struct rpt_ssample *g;

	if (st->bounded && nsamples > RPT_TIMELINE_MAX)
		nsamples = RPT_TIMELINE_MAX;
	if (!st->keep || nsamples <= st->capsamples)
		return 0;
	g = realloc(st->samples, nsamples * sizeof(*g));
	if (!g)
		return -ENOMEM;
	st->samples = g;
	st->capsamples = nsamples;
	return 0;
}

/* Full (bounded): keep every other kept sample, the ones of an index in the session a
 * multiple of twice the stride, in place. */
static void thin(struct rpt_stacks *st)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nsamples; i += 2)
		st->samples[n++] = st->samples[i];
	st->nsamples = n;
	st->stride *= 2;
}

static int note(struct rpt_stacks *st, const struct ses_sample *s, uint32_t stack)
{
	if (st->bounded) {
		/* samples arrive in time order: a stride of them keeps the trace's tracks
		 * evenly spread over the whole profile */
		uint64_t i = st->seen++;

		if (i % st->stride == 0 && st->nsamples >= RPT_TIMELINE_MAX)
			thin(st);
		if (i % st->stride)
			return 0;
	}
	if (st->nsamples == st->capsamples) {
		size_t cap = st->capsamples ? st->capsamples * 2 : 4096;
		struct rpt_ssample *g = realloc(st->samples, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		st->samples = g;
		st->capsamples = cap;
	}
	st->samples[st->nsamples++] = (struct rpt_ssample){ s->time, s->tid, stack };
	return 0;
}

/* The frames of @s into @f (MAX_FRAMES), leaf first, as @b says (its count and whether the
 * chain was cut or broken): the callchain, or the leaf copy's one CFI step and the
 * callchain (an fp sample's registers without REGS_USER in the attr), or the DWARF unwind
 * of the copied stack. Nothing once the frame pool is full. */
static void walk(struct builder *b, struct rpt *r, const struct ses_reader *rd,
		 const struct ses_sample *s, struct rpt_frame *f)
{
	const struct perf_event_attr *attr = ses_reader_attr(rd, (size_t)s->attr_index);
	uint64_t *slot = util_hash_find(&r->world.pid_index, s->pid, 0, 0);
	bool copy = s->regs && attr && !(attr->sample_type & PERF_SAMPLE_REGS_USER);

	*b = (struct builder){ .r = r,
			       .proc = slot ? &r->world.procs[*slot - 1] : NULL,
			       .last_map = -1,
			       .f = f,
			       .max = r->stacks->depth };
	if (r->stacks->nframes >= MAX_POOL)
		return;
	if (copy && s->ips)
		leaf_step(b, s);
	if (s->ips)
		from_callchain(b, s, attr ? attr->sample_max_stack : 0);
	if (s->regs && !copy && !b->truncated && !b->failed)
		from_unwind(b, s);
}

int rpt_stacks_sample(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s,
		      uint32_t thread, int module, uint64_t addr, uint64_t units)
{
	struct rpt_stacks *st = r->stacks;
	struct rpt_frame f[MAX_FRAMES];
	struct builder b;
	long idx;

	if (s->ips || s->regs || s->stack)
		st->collected = true;
	walk(&b, r, rd, s, f);
	/* the leaf is the sample's IP (the kernel's when it was in the kernel) */
	if (!b.n || f[0].module != (uint32_t)module || f[0].addr != addr) {
		if (b.n == b.max)
			b.n--, b.truncated = true;
		memmove(f + 1, f, sizeof(*f) * b.n);
		f[0] = (struct rpt_frame){ addr, (uint32_t)module, 0 };
		b.n++;
	}
	if (b.truncated || b.failed) {
		/* a chain that was both cut and broken (a looping frame-pointer chain) failed */
		f[b.n++] = (struct rpt_frame){ b.failed ? RPT_MARK_UNWIND_FAILED
							: RPT_MARK_TRUNCATED,
					       RPT_FRAME_MARK, 0 };
		if (b.failed)
			st->unwind_failed++;
		else
			st->truncated++;
	}
	idx = intern_stack(st, thread, f, b.n);
	if (idx < 0)
		return (int)idx;
	st->stacks[idx].count += units;
	st->last_stack = (uint32_t)idx;
	return st->keep ? note(st, s, (uint32_t)idx) : 0;
}

/*
 * The user stack of a tracepoint sample (--trace os: a thread blocking, entering a system
 * call, waking another) as a stack of @thread, interned but counted nowhere: its time is
 * lib/ostrace's, not a sample's. The kernel frames and the tracepoint's own IP are left
 * out (the same scheduler or syscall path each time). *@stack: OST_NO_STACK-like
 * UINT32_MAX when the sample has no user frame. 0 or -ENOMEM.
 */
int rpt_stacks_user_only(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s,
			 uint32_t thread, uint32_t *stack)
{
	struct rpt_stacks *st = r->stacks;
	struct rpt_frame f[MAX_FRAMES];
	struct builder b;
	long idx;
	int n = 0;

	*stack = UINT32_MAX;
	walk(&b, r, rd, s, f);
	for (int i = 0; i < b.n; i++) /* the user's frames only */
		if (f[i].module != RPT_MODULE_KERNEL)
			f[n++] = f[i];
	if (!n)
		return 0;
	if (b.truncated || b.failed)
		f[n++] = (struct rpt_frame){ b.failed ? RPT_MARK_UNWIND_FAILED : RPT_MARK_TRUNCATED,
					     RPT_FRAME_MARK, 0 };
	idx = intern_stack(st, thread, f, n);
	if (idx < 0)
		return (int)idx;
	*stack = (uint32_t)idx;
	return 0;
}

/* ---- kept samples ---- */

static int cmp_ssample(const void *a, const void *b)
{
	const struct rpt_ssample *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Samples come in time order (replay's), so ordering by (tid, time) is a stable
 * partition by tid: count each thread's samples, then place them. O(n) instead of a
 * sort; the same order glibc's (stable, merging) qsort gives. 0, or -ENOMEM / -EINVAL
 * (not in time order) for the caller to sort instead.
 */
static int partition_by_tid(struct rpt_stacks *st)
{
	size_t n = st->nsamples, cap = 64, ntids = 0;
	uint32_t *keys = NULL, *tids = NULL;
	size_t *slots = NULL, *start = NULL;
	struct rpt_ssample *out = NULL;
	int ret = -ENOMEM;

	for (size_t i = 1; i < n; i++)
		if (st->samples[i].time < st->samples[i - 1].time)
			return -EINVAL;
	while (cap < 2 * n)
		cap *= 2;
	if (cap > 2 * 65536)
		cap = 2 * 65536; /* plenty of threads; a full table falls back to qsort */
	keys = malloc(cap * sizeof(*keys));
	slots = calloc(cap, sizeof(*slots)); /* tid index + 1 */
	tids = malloc(cap / 2 * sizeof(*tids));
	start = calloc(cap / 2 + 1, sizeof(*start));
	out = malloc(n * sizeof(*out));
	if (!keys || !slots || !tids || !start || !out)
		goto out;
	/* distinct tids */
	for (size_t i = 0; i < n; i++) {
		uint32_t tid = st->samples[i].tid;
		size_t h = (tid * 2654435761u) & (cap - 1);

		while (slots[h] && keys[h] != tid)
			h = (h + 1) & (cap - 1);
		if (!slots[h]) {
			if (ntids == cap / 2) {
				ret = -E2BIG;
				goto out;
			}
			keys[h] = tid;
			slots[h] = 1; /* filled in below, once tids are sorted */
			tids[ntids++] = tid;
		}
	}
	util_qsort(tids, ntids, sizeof(*tids), cmp_u32);
	for (size_t t = 0; t < ntids; t++) {
		size_t h = (tids[t] * 2654435761u) & (cap - 1);

		while (keys[h] != tids[t])
			h = (h + 1) & (cap - 1);
		slots[h] = t + 1;
	}
	/* counts, then where each thread's run starts */
	for (size_t i = 0; i < n; i++) {
		size_t h = (st->samples[i].tid * 2654435761u) & (cap - 1);

		while (keys[h] != st->samples[i].tid)
			h = (h + 1) & (cap - 1);
		start[slots[h]]++;
	}
	for (size_t t = 1; t <= ntids; t++)
		start[t] += start[t - 1];
	for (size_t i = 0; i < n; i++) {
		size_t h = (st->samples[i].tid * 2654435761u) & (cap - 1);

		while (keys[h] != st->samples[i].tid)
			h = (h + 1) & (cap - 1);
		out[start[slots[h] - 1]++] = st->samples[i];
	}
	memcpy(st->samples, out, n * sizeof(*out));
	ret = 0;
out:
	free(keys);
	free(slots);
	free(tids);
	free(start);
	free(out);
	return ret;
}

void rpt_stacks_process_gone(struct rpt_stacks *st, int pid)
{
	if (st)
		rpt_unwinder_forget(st->unwinder, pid);
}

void rpt_stacks_unwound(struct rpt_stacks *st)
{
	if (!st)
		return;
	rpt_unwinder_free(st->unwinder);
	st->unwinder = NULL;
}

void rpt_stacks_finish(struct rpt_stacks *st)
{
	if (st->sorted)
		return;
	st->sorted = true;
	if (st->nsamples > 1 && partition_by_tid(st))
		util_qsort(st->samples, st->nsamples, sizeof(*st->samples), cmp_ssample);
}

static size_t lower(const struct rpt_stacks *st, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = st->nsamples;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rpt_ssample *m = &st->samples[mid];

		if (m->tid < tid || (m->tid == tid && m->time < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t rpt_stacks_between(const struct rpt_stacks *st, uint32_t tid, uint64_t from, uint64_t to,
			  size_t *first)
{
	size_t a, b;

	*first = 0;
	if (to < from)
		return 0;
	a = lower(st, tid, from);
	b = to == UINT64_MAX ? lower(st, tid + 1, 0) : lower(st, tid, to + 1);
	*first = a;
	return b > a ? b - a : 0;
}

int rpt_stacks_span(struct rpt *r, int pid, uint32_t tid, int item, uint64_t begin, uint64_t end)
{
	struct rpt_stacks *st = r->stacks;

	if (!st)
		return 0;
	if (st->nspans == st->capspans) {
		size_t cap = st->capspans ? st->capspans * 2 : 256;
		struct rpt_task_span *g = realloc(st->spans, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		st->spans = g;
		st->capspans = cap;
	}
	st->spans[st->nspans++] = (struct rpt_task_span){ begin, end, (uint32_t)pid, tid, item };
	return 0;
}
