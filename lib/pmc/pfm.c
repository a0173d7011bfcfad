// SPDX-License-Identifier: MIT
/* libpfm4: the only file that calls it. Its error codes end here. */
#include "pmc/internal.h" /* <linux/perf_event.h> first: libpfm's copy then stands down */

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <string.h>

static int pfm_state; /* 0: not initialized, 1: ready, -1: failed */

static int pfm_ready(void)
{
	if (!pfm_state)
		pfm_state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return pfm_state > 0;
}

static int errno_of(int pfm_err)
{
	switch (pfm_err) {
	case PFM_ERR_NOTFOUND:
	case PFM_ERR_NOTSUPP:
		return -ENOENT;
	case PFM_ERR_NOMEM:
		return -ENOMEM;
	case PFM_ERR_TOOMANY:
		return -E2BIG;
	default:
		return -EINVAL;
	}
}

int pmc_pfm_encode(const char *name, struct perf_event_attr *attr, uint64_t *period, uint64_t *freq,
		   char *err, size_t errlen)
{
	pfm_perf_encode_arg_t arg;
	struct perf_event_attr a;
	int ret;

	if (!pfm_ready()) {
		snprintf(err, errlen, "libpfm4 could not be initialized");
		return -ENOENT;
	}
	/* a sized attr (libpfm's struct ABI): with size 0 libpfm takes the first ABI's 64
	 * bytes and may drop what lies past them (config2) */
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "%s", pfm_strerror(ret));
		return errno_of(ret);
	}
	/* what libpfm parsed is kept: privilege levels (u, k, h), guest/host (mg, mh),
	 * precise, excl; its period= and freq= go to the caller, who samples */
	*period = a.freq ? 0 : a.sample_period;
	*freq = a.freq ? a.sample_freq : 0;
	a.sample_period = 0;
	a.freq = 0;
	a.size = sizeof(a);
	*attr = a;
	return 0;
}

int pmc_pfm_list(pmc_pfm_list_fn fn, void *arg)
{
	pfm_pmu_t pmu;
	int found = 0;

	if (!pfm_ready())
		return -EINVAL;
	pfm_for_all_pmus(pmu)
	{
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		/* the hardware ones this machine has (or LIBPFM_FORCE_PMU names); libpfm's own
		 * "perf" software PMU is not one: uprof lists those names itself */
		if (pfm_get_pmu_info(pmu, &pi) != PFM_SUCCESS || !pi.is_present ||
		    (pi.type != PFM_PMU_TYPE_CORE && pi.type != PFM_PMU_TYPE_UNCORE))
			continue;
		found++;
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t ei;
			int ret;

			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS)
				continue;
			ret = fn(arg, pi.name, ei.name, ei.code, ei.desc ? ei.desc : "");
			if (ret)
				return ret;
		}
	}
	return found;
}

int pmc_pfm_umasks(const char *pmu, const char *event, pmc_pfm_umask_fn fn, void *arg)
{
	char name[256];
	pfm_event_info_t ei;
	int idx, n = 0;

	if (!pfm_ready())
		return -EINVAL;
	if ((size_t)snprintf(name, sizeof(name), "%s::%s", pmu, event) >= sizeof(name))
		return -ENOENT;
	idx = pfm_find_event(name);
	if (idx < 0)
		return errno_of(idx);
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return -EINVAL;
	for (int i = 0; i < ei.nattrs; i++) {
		pfm_event_attr_info_t ai;
		int ret;

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(idx, i, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue; /* modifiers (u, k, cmask...) are -e's keys, not unit masks */
		n++;
		ret = fn(arg, ai.name, ai.code, ai.desc ? ai.desc : "", ai.is_dfl);
		if (ret)
			return ret;
	}
	return n;
}
