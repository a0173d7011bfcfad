// SPDX-License-Identifier: MIT
/*
 * collect --func's function calls: each uprobe record is one call of the function its
 * address names (lib/report matches it against the session's probed functions), counted
 * per thread and, for report --funccount-interval, per time slice.
 */
#include "ostrace/internal.h"

#include <errno.h>

void ost_model_func_slices(struct ost_model *m, uint64_t origin, uint64_t width_ns)
{
	m->slice_origin = origin;
	m->slice_ns = width_ns;
}

static int count_thread(struct ost_model *m, int pid, int tid, int func)
{
	uint64_t *slot = util_hash_slot(&m->fcount_index, (uint64_t)(uint32_t)func,
					(uint64_t)(uint32_t)tid, 0);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (ost_grow((void **)&m->fcounts, &m->capfcounts, m->nfcounts + 1,
			     sizeof(*m->fcounts)))
			return -ENOMEM;
		m->fcounts[m->nfcounts] = (struct ost_func_count){ func, pid, tid, 0 };
		*slot = ++m->nfcounts;
	}
	m->fcounts[*slot - 1].calls++;
	return 0;
}

static int count_slice(struct ost_model *m, uint64_t time, int func)
{
	/* a record before the origin (the session's start) is in the first slice */
	uint64_t slice = time > m->slice_origin ? (time - m->slice_origin) / m->slice_ns : 0;
	uint64_t *slot = util_hash_slot(&m->fslice_index, (uint64_t)(uint32_t)func, slice, 1);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (ost_grow((void **)&m->fslices, &m->capfslices, m->nfslices + 1,
			     sizeof(*m->fslices)))
			return -ENOMEM;
		m->fslices[m->nfslices] = (struct ost_func_slice){ func, slice, 0 };
		*slot = ++m->nfslices;
	}
	m->fslices[*slot - 1].calls++;
	return 0;
}

int ost_model_func_call(struct ost_model *m, uint64_t time, int pid, int tid, int func)
{
	int ret;

	if (func < 0 || func >= m->fm.nfuncs) {
		m->counts.func_unmatched++;
		return 0;
	}
	m->counts.func_calls++;
	ret = count_thread(m, pid, tid, func);
	if (!ret && m->slice_ns)
		ret = count_slice(m, time, func);
	return ret;
}

size_t ost_model_func_counts(const struct ost_model *m, const struct ost_func_count **out)
{
	*out = m->fcounts;
	return m->nfcounts;
}

size_t ost_model_func_slice_counts(const struct ost_model *m, const struct ost_func_slice **out)
{
	*out = m->fslices;
	return m->nfslices;
}

uint64_t ost_model_func_slice_ns(const struct ost_model *m)
{
	return m->slice_ns;
}
