// SPDX-License-Identifier: MIT
/* The timer event: CPU_TIME through the software cpu-clock event. */
#include "pmc/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void pmc_timer_attr(struct perf_event_attr *attr, uint64_t period_ns, bool user_only)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_CPU_CLOCK;
	attr->sample_period = period_ns;
	attr->sample_type = PMC_SAMPLE_TYPE;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 1;
	attr->exclude_kernel = user_only;
	attr->exclude_hv = 1;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	attr->watermark = 1;
	attr->wakeup_watermark = 64 * 1024;
}

void pmc_tracking_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->sample_period = 1;
	attr->sample_type = PMC_SAMPLE_TYPE;
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 1;
	attr->exclude_hv = 1;
	attr->mmap = 1;
	attr->mmap2 = 1;
	attr->comm = 1;
	attr->comm_exec = 1;
	attr->task = 1;
	/* MMAP2 carries the file's build id instead of its inode (Linux 5.12+; the
	 * sampler retries without it), so that report can tell a rebuilt binary */
	attr->build_id = 1;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	attr->watermark = 1;
	attr->wakeup_watermark = 64 * 1024;
}

const char *pmc_attr_name(const struct perf_event_attr *attr)
{
	static __thread char buf[16];
	const struct pmc_predef *p;
	uint16_t code;
	uint8_t umask;

	if (attr->type == PERF_TYPE_SOFTWARE &&
	    (attr->config == PERF_COUNT_SW_CPU_CLOCK || attr->config == PERF_COUNT_SW_TASK_CLOCK))
		return "CPU_TIME";
	if (attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY)
		return "TRACKING";
	if (attr->type != PERF_TYPE_RAW)
		return "EVENT";
	code = (uint16_t)((attr->config & 0xff) | ((attr->config >> 24) & 0xf00));
	umask = (uint8_t)(attr->config >> 8);
	for (size_t i = 0; !(attr->config & 0xffffff0000ULL) && (p = pmc_predef_at(i)); i++)
		if (p->code == code && p->umask == umask)
			return p->name;
	snprintf(buf, sizeof(buf), umask ? "PMCx%03X_%02X" : "PMCx%03X", code, umask);
	return buf;
}

int pmc_parse_interval_ms(const char *s, uint64_t *period_ns)
{
	char *end;
	double ms;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	ms = strtod(s, &end);
	if (errno || *end || end == s || !isfinite(ms) || ms <= 0)
		return -EINVAL;
	if (ms * 1e6 < (double)PMC_TIMER_MIN_NS || ms * 1e6 > (double)PMC_TIMER_MAX_NS)
		return -ERANGE;
	*period_ns = (uint64_t)llround(ms * 1e6);
	return 0;
}
