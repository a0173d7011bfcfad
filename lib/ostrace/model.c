// SPDX-License-Identifier: MIT
/*
 * Thread states from the scheduler's records, in time order. A traced thread's events
 * fire only while it is the running task (per-task perf events), so what it did is read
 * from its own records:
 *   - PERF_RECORD_SWITCH out/in (the tracking event's context_switch): its on-CPU spans,
 *     and whether a switch-out was a preemption (it stays runnable) or a block;
 *   - sched:sched_switch just before each switch-out: prev_state and the user stack;
 *   - raw_syscalls:sys_enter/sys_exit: the system call it blocked in gives the wait kind;
 *   - sched:sched_waking in the waker's context: when a traced thread woke it, the blocked
 *     span ends there and runnable time begins (a wakeup by an interrupt or a task outside
 *     the trace is not seen: that wait stays blocked until the switch-in, as a thread
 *     woken by its timer is runnable only while the CPU is busy).
 * Per thread, running + runnable + blocked is its lifetime; what no record covers (before
 * the first switch of an attached thread, across lost records) is its unaccounted time.
 * Each blocked span's off-CPU time (switch-out to switch-in) is charged to the stack it
 * blocked at, by wait kind, and a lock wait also to the waker that ended it.
 */
#include "ostrace/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ost_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * elem);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

struct ost_model *ost_model_new(const struct ost_formats *fm)
{
	struct ost_model *m = calloc(1, sizeof(*m));

	if (m)
		m->fm = *fm;
	return m;
}

void ost_model_free(struct ost_model *m)
{
	if (!m)
		return;
	free(m->thr);
	free(m->pub);
	free(m->calls);
	free(m->off);
	free(m->wakes);
	free(m->spans);
	util_hash_release(&m->thr_index);
	util_hash_release(&m->call_index);
	util_hash_release(&m->off_index);
	util_hash_release(&m->wake_index);
	free(m->fcounts);
	free(m->fslices);
	util_hash_release(&m->fcount_index);
	util_hash_release(&m->fslice_index);
	free(m);
}

/* thr_index's value of a thread left out (past fm.max_threads) */
#define LEFT_OUT UINT64_MAX

static struct thr *find(struct ost_model *m, int tid)
{
	uint64_t *slot = util_hash_find(&m->thr_index, (uint64_t)(uint32_t)tid, 0, 0);

	return slot && *slot != LEFT_OUT ? &m->thr[*slot - 1] : NULL;
}

/* Thread @tid, made when new (or when the one of that tid ended: tids are reused); &m->skip
 * for a thread past --max-threads (its records counted, not modelled). */
static struct thr *get(struct ost_model *m, int pid, int tid)
{
	uint64_t *slot = util_hash_slot(&m->thr_index, (uint64_t)(uint32_t)tid, 0, 0);
	struct thr *t;

	if (!slot)
		return NULL;
	if (*slot == LEFT_OUT) {
		m->counts.left_out_records++;
		return &m->skip;
	}
	if (*slot && m->thr[*slot - 1].cur != S_GONE)
		return &m->thr[*slot - 1];
	if (m->fm.max_threads && m->nthr >= m->fm.max_threads) {
		*slot = LEFT_OUT;
		m->counts.threads_left_out++;
		m->counts.left_out_records++;
		return &m->skip;
	}
	if (ost_grow((void **)&m->thr, &m->capthr, m->nthr + 1, sizeof(*m->thr)))
		return NULL;
	t = &m->thr[m->nthr];
	memset(t, 0, sizeof(*t));
	t->pub.pid = pid;
	t->pub.tid = tid;
	t->block_stack = t->switch_stack = t->call_stack = OST_NO_STACK;
	*slot = ++m->nthr;
	return t;
}

static void start(struct thr *t, uint64_t time)
{
	if (t->started)
		return;
	t->started = true;
	t->pub.start = time;
	t->since = time;
}

static int charge_offcpu(struct ost_model *m, struct thr *t, uint64_t ns)
{
	uint64_t *slot = util_hash_slot(&m->off_index, (uint64_t)(uint32_t)t->pub.tid,
					t->block_stack, (uint64_t)t->wait);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (ost_grow((void **)&m->off, &m->capoff, m->noff + 1, sizeof(*m->off)))
			return -ENOMEM;
		m->off[m->noff] = (struct ost_offcpu){ t->pub.pid, t->pub.tid, t->block_stack,
						       t->wait,	   0,	       0 };
		*slot = ++m->noff;
	}
	m->off[*slot - 1].ns += ns;
	m->off[*slot - 1].count++;
	return 0;
}

static int charge_waker(struct ost_model *m, struct thr *t, uint64_t ns)
{
	uint64_t who = (uint64_t)(uint32_t)t->waker_tid << 32 | t->waker_stack;
	uint64_t *slot = util_hash_slot(&m->wake_index, (uint64_t)(uint32_t)t->pub.tid,
					t->block_stack, who);
	struct ost_wake *w;

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (ost_grow((void **)&m->wakes, &m->capwakes, m->nwakes + 1, sizeof(*m->wakes)))
			return -ENOMEM;
		m->wakes[m->nwakes] = (struct ost_wake){ .pid = t->pub.pid,
							 .tid = t->pub.tid,
							 .stack = t->block_stack,
							 .waker_pid = t->waker_pid,
							 .waker_tid = t->waker_tid,
							 .waker_stack = t->waker_stack };
		*slot = ++m->nwakes;
	}
	w = &m->wakes[*slot - 1];
	w->ns += ns;
	w->count++;
	return 0;
}

/* The span of @t's current state ends at @now: added to its state's time. */
static int close_state(struct ost_model *m, struct thr *t, uint64_t now)
{
	uint64_t d = now > t->since ? now - t->since : 0, woke;
	int ret = 0;

	switch (t->cur) {
	case S_RUNNING:
		t->pub.state_ns[OST_RUNNING] += d;
		ret = ost_timeline_state(m, t, OST_SPAN_RUNNING, 0, t->since, t->since + d);
		break;
	case S_RUNNABLE:
		t->pub.state_ns[OST_RUNNABLE] += d;
		ret = ost_timeline_state(m, t, OST_SPAN_RUNNABLE, 0, t->since, t->since + d);
		break;
	case S_BLOCKED:
		woke = t->woken && t->woken_at > t->since && t->woken_at < now ? t->woken_at : now;
		t->pub.state_ns[OST_BLOCKED] += woke - t->since;
		t->pub.blocked_ns[t->wait] += woke - t->since;
		t->pub.state_ns[OST_RUNNABLE] += now - woke;
		ret = ost_timeline_state(m, t, OST_SPAN_BLOCKED, t->wait, t->since, woke);
		if (!ret)
			ret = ost_timeline_state(m, t, OST_SPAN_RUNNABLE, 0, woke, now);
		if (!ret)
			ret = charge_offcpu(m, t, d);
		if (!ret && t->woken && t->wait == OST_WAIT_LOCK)
			ret = charge_waker(m, t, d);
		break;
	default: /* unknown or gone: nothing to add */
		break;
	}
	t->since = now;
	return ret;
}

int ost_model_begin(struct ost_model *m, uint64_t time, int pid, int tid)
{
	struct thr *t = get(m, pid, tid);

	if (!t)
		return -ENOMEM;
	if (t == &m->skip)
		return 0;
	if (!t->started) {
		start(t, time);
		t->cur = S_UNKNOWN;
	}
	t->pub.pid = pid; /* an exec'd program's main thread keeps its tid */
	return 0;
}

int ost_model_exit(struct ost_model *m, uint64_t time, int pid, int tid)
{
	struct thr *t = find(m, tid);
	int ret;

	(void)pid;
	if (!t || t->cur == S_GONE)
		return 0;
	if (t->cur == S_UNKNOWN)
		t->cur = S_RUNNING; /* it ran to its exit without a switch */
	ret = close_state(m, t, time);
	t->pub.end = time;
	t->cur = S_GONE;
	return ret;
}

int ost_model_switch(struct ost_model *m, uint64_t time, int pid, int tid, bool out, bool preempt)
{
	struct thr *t = get(m, pid, tid);
	int ret;

	if (!t)
		return -ENOMEM;
	if (t == &m->skip)
		return 0;
	start(t, time);
	if (t->cur == S_UNKNOWN) /* what it was since it began: the first switch says */
		t->cur = out ? S_RUNNING : S_RUNNABLE;
	if ((out && t->cur != S_RUNNING) || (!out && t->cur == S_RUNNING))
		m->counts.out_of_order++; /* a record lost between: the span is kept as is */
	if (!out && t->cur == S_BLOCKED && !t->woken)
		m->counts.unseen_wakeups[t->wait]++; /* its waker is not in the trace */
	ret = close_state(m, t, time);
	if (!out) {
		t->cur = S_RUNNING;
		t->have_switch_tp = false;
		return ret;
	}
	t->pub.switches++;
	/* the tracepoint's prev_state is the kernel's word; the record's flag serves when
	 * the tracepoint was not traced or lost */
	if (t->have_switch_tp ? t->switch_prev_state == 0 : preempt) {
		t->cur = S_RUNNABLE;
		t->pub.preemptions++;
	} else {
		t->cur = S_BLOCKED;
		t->wait = t->in_call ? ost_syscall_wait(t->call_nr) : OST_WAIT_OTHER;
		t->block_stack = t->have_switch_tp && t->switch_stack != OST_NO_STACK
					 ? t->switch_stack
				 : t->in_call ? t->call_stack
					      : OST_NO_STACK;
		t->woken = false;
	}
	t->have_switch_tp = false;
	return ret;
}

/* The integer field @idx of @f in @s's record, or -1 on a short record (counted). */
static int field(struct ost_model *m, const struct ost_format *f, int idx,
		 const struct ost_sample *s, int64_t *v)
{
	if (idx < 0 || ost_field_int(&f->fields[idx], s->raw, s->raw_size, v)) {
		m->counts.unparsable++;
		return -1;
	}
	return 0;
}

static int wakeup(struct ost_model *m, const struct ost_format *f, const struct ost_sample *s)
{
	struct thr *t;
	int64_t pid;

	if (field(m, f, f->f_pid, s, &pid))
		return 0;
	t = find(m, (int)pid);
	/* only a blocked thread's first wakeup ends its wait (a wakeup can be seen from both
	 * the waker's and the wakee's events) */
	if (!t || t->cur != S_BLOCKED || t->woken)
		return 0;
	t->woken = true;
	t->woken_at = s->time;
	t->waker_pid = s->pid;
	t->waker_tid = s->tid;
	t->waker_stack = s->stack;
	t->pub.wakeups++;
	return 0;
}

int ost_model_sample(struct ost_model *m, const struct ost_sample *s)
{
	const struct ost_format *f = ost_formats_find(&m->fm, s->id);
	struct thr *t;
	int64_t v;

	m->counts.samples++;
	if (!f) {
		m->counts.unparsable++;
		return 0;
	}
	if (f->kind == OST_TP_WAKEUP)
		return wakeup(m, f, s);
	if (f->kind == OST_TP_FUNC) { /* lib/report names the function: ost_model_func_call */
		m->counts.other++;
		return 0;
	}
	if (f->kind == OST_TP_OTHER || f->kind == OST_TP_PAGEFAULT) {
		m->counts.other++;
		return 0;
	}
	t = get(m, s->pid, s->tid);
	if (!t)
		return -ENOMEM;
	if (t == &m->skip)
		return 0;
	start(t, s->time);
	switch (f->kind) {
	case OST_TP_SWITCH:
		if (field(m, f, f->f_prev_state, s, &v))
			return 0;
		t->have_switch_tp = true;
		t->switch_prev_state = v;
		t->switch_stack = s->stack;
		return 0;
	case OST_TP_SYS_ENTER:
		if (field(m, f, f->f_id, s, &v))
			return 0;
		t->in_call = true;
		t->call_nr = v;
		t->call_start = s->time;
		t->call_stack = s->stack;
		return 0;
	case OST_TP_SYS_EXIT:
		if (field(m, f, f->f_id, s, &v))
			return 0;
		if (!t->in_call || t->call_nr != v) {
			m->counts.unmatched++;
			t->in_call = false;
			return 0;
		}
		if (field(m, f, f->f_ret, s, &v))
			return 0;
		return ost_calls_end(m, t, s->time, v);
	default:
		return 0;
	}
}

void ost_model_finish(struct ost_model *m, uint64_t end)
{
	for (size_t i = 0; i < m->nthr; i++) {
		struct thr *t = &m->thr[i];
		struct ost_thread *p = &t->pub;
		uint64_t sum, life;

		if (t->cur != S_GONE) {
			if (t->cur == S_UNKNOWN)
				t->cur = S_RUNNING;
			if (end > t->since)
				close_state(m, t, end);
			p->end = end > p->start ? end : p->start;
			t->cur = S_GONE;
		}
		sum = p->state_ns[OST_RUNNING] + p->state_ns[OST_RUNNABLE] +
		      p->state_ns[OST_BLOCKED];
		life = p->end > p->start ? p->end - p->start : 0;
		p->unaccounted_ns = life > sum ? life - sum : 0;
	}
	m->finished = true;
}

size_t ost_model_threads(const struct ost_model *m, const struct ost_thread **out)
{
	struct ost_model *w = (struct ost_model *)m; /* the copy is a cache of thr[] */
	struct ost_thread *p = realloc(w->pub, (m->nthr ? m->nthr : 1) * sizeof(*p));

	if (!p) {
		*out = NULL;
		return 0;
	}
	w->pub = p;
	for (size_t i = 0; i < m->nthr; i++)
		p[i] = m->thr[i].pub;
	*out = p;
	return m->nthr;
}

size_t ost_model_offcpu(const struct ost_model *m, const struct ost_offcpu **out)
{
	*out = m->off;
	return m->noff;
}

size_t ost_model_wakes(const struct ost_model *m, const struct ost_wake **out)
{
	*out = m->wakes;
	return m->nwakes;
}

const struct ost_counts *ost_model_counts(const struct ost_model *m)
{
	return &m->counts;
}

uint64_t ost_model_threshold_ns(const struct ost_model *m)
{
	return m->fm.threshold_ns;
}

uint64_t ost_model_max_threads(const struct ost_model *m)
{
	return m->fm.max_threads;
}
