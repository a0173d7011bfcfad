// SPDX-License-Identifier: MIT
/*
 * The system-call table (per thread and call: count, errors, total/min/max time, bytes
 * moved) and the slowest calls at or over the session's threshold, each with the call
 * stack at its entry. A call is timed from its sys_enter to its sys_exit on the same
 * thread; an exit without its entry (a call begun before tracing) is counted unmatched.
 */
#include "ostrace/internal.h"

#include <errno.h>
#include <string.h>

/* Keep @c if it is among the OST_SLOW_MAX slowest: the array stays slowest first. */
static void keep_slow(struct ost_model *m, const struct ost_slow_call *c)
{
	size_t at = m->nslow;

	if (m->nslow == OST_SLOW_MAX && c->ns <= m->slow[OST_SLOW_MAX - 1].ns)
		return;
	while (at > 0 && m->slow[at - 1].ns < c->ns)
		at--;
	if (m->nslow < OST_SLOW_MAX)
		m->nslow++;
	memmove(&m->slow[at + 1], &m->slow[at], (m->nslow - 1 - at) * sizeof(*c));
	m->slow[at] = *c;
}

int ost_calls_end(struct ost_model *m, struct thr *t, uint64_t end, int64_t ret)
{
	uint64_t ns = end > t->call_start ? end - t->call_start : 0;
	uint64_t *slot = util_hash_slot(&m->call_index, (uint64_t)(uint32_t)t->pub.tid,
					(uint64_t)t->call_nr, 0);
	struct ost_call_stat *c;

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (ost_grow((void **)&m->calls, &m->capcalls, m->ncalls + 1, sizeof(*m->calls)))
			return -ENOMEM;
		m->calls[m->ncalls] = (struct ost_call_stat){ .pid = t->pub.pid,
							      .tid = t->pub.tid,
							      .nr = t->call_nr,
							      .min_ns = UINT64_MAX };
		*slot = ++m->ncalls;
	}
	c = &m->calls[*slot - 1];
	c->calls++;
	c->total_ns += ns;
	if (ns < c->min_ns)
		c->min_ns = ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	/* -4095..-1 is an errno (the kernel's IS_ERR_VALUE) */
	if (ret < 0 && ret >= -4095)
		c->errors++;
	else if (ret > 0 && ost_syscall_moves_bytes(t->call_nr))
		c->bytes += (uint64_t)ret;
	if (ns >= m->fm.threshold_ns)
		keep_slow(m, &(struct ost_slow_call){ t->pub.pid, t->pub.tid, t->call_nr, ret,
						      t->call_start, ns, t->call_stack });
	t->in_call = false;
	return ost_timeline_call(m, t, end, ret);
}

size_t ost_model_calls(const struct ost_model *m, const struct ost_call_stat **out)
{
	*out = m->calls;
	return m->ncalls;
}

size_t ost_model_slow(const struct ost_model *m, const struct ost_slow_call **out)
{
	*out = m->slow;
	return m->nslow;
}
