// SPDX-License-Identifier: MIT
/* Task, event and pause semantics (docs/DESIGN.md §6) as pure functions: see taskmatch.h. */
#include "report/taskmatch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPEN (1u << 24) /* a runaway recursion of begins: stop keeping them */

struct open_entry {
	uint64_t time;
	const void *name;
};

struct stack {
	struct open_entry *v;
	size_t n, cap;
	uint32_t tid;
	bool event;
	const void *key;
};

struct matcher {
	const struct rpt_span *pauses;
	size_t npauses;
	const struct rpt_tk_names *names;
	struct util_hash index; /* (tid, key, event) -> stack + 1 */
	struct stack *stacks;
	size_t nstacks, capstacks;
	struct rpt_tk_result *out;
};

static struct stack *stack_for(struct matcher *m, uint32_t tid, const void *key, bool event)
{
	uint64_t *slot = util_hash_slot(&m->index, tid, (uintptr_t)key, event);

	if (!slot)
		return NULL;
	if (!*slot) {
		if (m->nstacks == m->capstacks) {
			size_t cap = m->capstacks ? m->capstacks * 2 : 16;
			struct stack *g = realloc(m->stacks, cap * sizeof(*g));

			if (!g)
				return NULL;
			m->stacks = g;
			m->capstacks = cap;
		}
		m->stacks[m->nstacks] = (struct stack){ NULL, 0, 0, tid, event, key };
		*slot = ++m->nstacks;
	}
	return &m->stacks[*slot - 1];
}

static int push(struct stack *s, uint64_t time, const void *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct open_entry *g;

		if (cap > MAX_OPEN)
			return -E2BIG;
		g = realloc(s->v, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		s->v = g;
		s->cap = cap;
	}
	s->v[s->n++] = (struct open_entry){ time, name };
	return 0;
}

static int emit(struct rpt_tk_result *out, const struct rpt_tk_inst *in)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 64;
		struct rpt_tk_inst *g = realloc(out->v, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		out->v = g;
		out->cap = cap;
	}
	out->v[out->n++] = *in;
	return 0;
}

/* Rule 2: the thread's open tasks and events are forgotten. */
static void forget_thread(struct matcher *m, uint32_t tid)
{
	for (size_t i = 0; i < m->nstacks; i++) {
		if (m->stacks[i].tid != tid)
			continue;
		m->out->counts.forgotten += m->stacks[i].n;
		m->stacks[i].n = 0;
	}
}

static bool is_pair_kind(uint16_t kind)
{
	return kind == SES_TASK_BEGIN || kind == SES_TASK_END || kind == SES_EVENT_START ||
	       kind == SES_EVENT_END;
}

static const void *resolve(struct matcher *m, uint32_t id, enum rpt_tk_role role)
{
	return m->names->resolve(m->names->arg, id, role);
}

static int match_one(struct matcher *m, const struct ses_task_record *rec)
{
	bool event = rec->kind == SES_EVENT_START || rec->kind == SES_EVENT_END;
	bool begin = rec->kind == SES_TASK_BEGIN || rec->kind == SES_EVENT_START;
	struct rpt_tk_counts *c = &m->out->counts;
	const void *key, *name = NULL;
	struct open_entry open;
	struct stack *s;
	int ret;

	if (event) {
		key = name = resolve(m, rec->name, RPT_TK_EVENT_NAME);
	} else {
		key = resolve(m, rec->domain, RPT_TK_DOMAIN);
		if (begin)
			name = resolve(m, rec->name, RPT_TK_TASK_NAME);
	}
	if (!key) {
		c->unnamed++;
		return 0;
	}
	if (!event && key == m->names->reserved) {
		c->reserved++;
		return 0;
	}
	s = stack_for(m, rec->tid, key, event);
	if (!s)
		return -ENOMEM;
	if (begin) {
		ret = push(s, rec->time_ns, name);
		return ret == -ENOMEM ? ret : 0; /* -E2BIG: this begin is not kept */
	}
	if (!s->n) {
		c->unbegun++;
		return 0;
	}
	open = s->v[--s->n]; /* the most recent open one (rule 4) */
	if (!open.name) {
		c->refused++;
		return 0;
	}
	if (rpt_spans_meet(m->pauses, m->npauses, open.time, rec->time_ns)) {
		c->spanned++;
		return 0;
	}
	return emit(m->out, &(struct rpt_tk_inst){ rec->tid, event, key, open.name, open.time,
						   rec->time_ns });
}

/* Rule 6: the events still open, one instance of 0 ns each; the tasks, counted. */
static int close_unended(struct matcher *m)
{
	int ret = 0;

	for (size_t i = 0; i < m->nstacks && !ret; i++) {
		struct stack *s = &m->stacks[i];

		if (!s->event) {
			m->out->counts.unended += s->n;
			continue;
		}
		for (size_t k = 0; k < s->n && !ret; k++) {
			m->out->counts.unended_events++;
			ret = emit(m->out,
				   &(struct rpt_tk_inst){ s->tid, true, s->key, s->v[k].name,
							  s->v[k].time, s->v[k].time });
		}
	}
	return ret;
}

int rpt_tk_match(const struct ses_task_record *recs, size_t n, const struct rpt_span *pauses,
		 size_t npauses, const struct rpt_tk_names *names, struct rpt_tk_result *out)
{
	struct matcher m = { pauses, npauses, names, { 0 }, NULL, 0, 0, out };
	uint64_t *keys;
	size_t *order;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	keys = calloc(n ? n : 1, sizeof(*keys));
	order = malloc((n ? n : 1) * sizeof(*order));
	if (keys && order) {
		for (size_t i = 0; i < n; i++)
			keys[i] = recs[i].time_ns;
		ret = ses_time_order(keys, n, order); /* rule 1 */
	}
	free(keys);
	if (ret) {
		free(order);
		return ret;
	}
	for (size_t i = 0; i < n && !ret; i++) {
		const struct ses_task_record *rec = &recs[order[i]];

		if (rec->how & SES_TASK_GAP)
			forget_thread(&m, rec->tid);
		if (!is_pair_kind(rec->kind))
			continue;
		out->counts.records++;
		if (rpt_spans_meet(pauses, npauses, rec->time_ns, rec->time_ns)) {
			out->counts.paused++;
			continue;
		}
		ret = match_one(&m, rec);
	}
	if (!ret)
		ret = close_unended(&m);
	for (size_t i = 0; i < m.nstacks; i++)
		free(m.stacks[i].v);
	free(m.stacks);
	util_hash_release(&m.index);
	free(order);
	if (ret)
		rpt_tk_result_release(out);
	return ret;
}

void rpt_tk_result_release(struct rpt_tk_result *out)
{
	free(out->v);
	memset(out, 0, sizeof(*out));
}

static int cmp_stime(const void *a, const void *b)
{
	const struct rpt_sample_time *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

void rpt_tk_sort_samples(struct rpt_sample_time *s, size_t n)
{
	if (n)
		util_qsort(s, n, sizeof(*s), cmp_stime);
}

/* First entry not less than (tid, t). */
static size_t lower(const struct rpt_sample_time *s, size_t n, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].tid < tid || (s[mid].tid == tid && s[mid].time < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint64_t rpt_tk_samples(const struct rpt_sample_time *s, size_t n, uint32_t tid, uint64_t begin,
			uint64_t end)
{
	size_t from;

	if (end < begin)
		return 0;
	from = lower(s, n, tid, begin);
	/* [begin, end]: up to the first entry past end, i.e. not less than (tid, end + 1) */
	if (end == UINT64_MAX) /* every later sample of the thread */
		return (tid == UINT32_MAX ? n : lower(s, n, tid + 1, 0)) - from;
	return lower(s, n, tid, end + 1) - from;
}
