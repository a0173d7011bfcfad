// SPDX-License-Identifier: MIT
/* From an encoded event to the attr we open, and attrs/values/errors as text. */
#include "pmc/internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int pmc_event_require(const struct pmc_event *ev, const struct pmc_pmus *pmus, char *err,
		      size_t errlen)
{
	if (ev->kind == PMC_EV_SOFTWARE || ev->kind == PMC_EV_TIMER)
		return 0; /* every kernel with perf_event has them */
	if (pmc_pmus_find(pmus, ev->pmu))
		return 0;
	pmc_missing_pmu_msg(ev->pmu, err, errlen);
	return -ENODEV;
}

void pmc_event_sample_attr(const struct pmc_event *ev, bool user_only, struct perf_event_attr *attr)
{
	*attr = ev->attr;
	attr->size = sizeof(*attr);
	if (ev->frequency) {
		attr->freq = 1;
		attr->sample_freq = ev->frequency;
	} else {
		attr->sample_period = ev->interval ? ev->interval : PMC_DEFAULT_INTERVAL;
	}
	attr->sample_type = PMC_SAMPLE_TYPE | (ev->call_graph ? PERF_SAMPLE_CALLCHAIN : 0);
	attr->disabled = 1;
	attr->enable_on_exec = 1;
	attr->inherit = 1;
	if (user_only)
		attr->exclude_kernel = 1;
	attr->exclude_hv = ev->kind != PMC_EV_IBS; /* IBS takes no exclude bits */
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	attr->watermark = 1;
	attr->wakeup_watermark = 64 * 1024;
}

void pmc_event_count_attr(const struct pmc_event *ev, bool task, struct perf_event_attr *attr)
{
	*attr = ev->attr;
	attr->size = sizeof(*attr);
	attr->sample_period = 0;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->disabled = 1;
	attr->inherit = task;
	attr->enable_on_exec = task;
}

void pmc_event_label(const struct pmc_event *ev, char *buf, size_t len)
{
	if (ev->kind == PMC_EV_CORE && strncmp(ev->name, "PMCx", 4) &&
	    ev->attr.type == PERF_TYPE_RAW)
		snprintf(buf, len, "%s (PMCx%03X)", ev->name, ev->code);
	else
		snprintf(buf, len, "%s", ev->name);
}

/* ---- attr dump ---- */

struct out {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	size_t room = o->used < o->len ? o->len - o->used : 0;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->used += (size_t)n;
}

#define HEX(f) \
	do { \
		if (a->f) \
			put(&o, "%s" #f "=%#llx", o.used ? "," : "", (unsigned long long)a->f); \
	} while (0)
#define DEC(f) \
	do { \
		if (a->f) \
			put(&o, "%s" #f "=%llu", o.used ? "," : "", (unsigned long long)a->f); \
	} while (0)

int pmc_attr_format(const struct perf_event_attr *a, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };

	if (len)
		buf[0] = 0;
	put(&o, "type=%u,size=%u", a->type, a->size);
	HEX(config);
	HEX(config1);
	HEX(config2);
	if (a->freq)
		DEC(sample_freq);
	else
		DEC(sample_period);
	HEX(sample_type);
	HEX(read_format);
	DEC(disabled);
	DEC(inherit);
	DEC(pinned);
	DEC(exclusive);
	DEC(exclude_user);
	DEC(exclude_kernel);
	DEC(exclude_hv);
	DEC(exclude_idle);
	DEC(mmap);
	DEC(comm);
	DEC(freq);
	DEC(inherit_stat);
	DEC(enable_on_exec);
	DEC(task);
	DEC(watermark);
	DEC(precise_ip);
	DEC(mmap_data);
	DEC(sample_id_all);
	DEC(exclude_host);
	DEC(exclude_guest);
	DEC(mmap2);
	DEC(comm_exec);
	DEC(use_clockid);
	DEC(context_switch);
	DEC(wakeup_events);
	HEX(bp_type);
	DEC(clockid);
	HEX(sample_regs_user);
	DEC(sample_stack_user);
	DEC(sample_max_stack);
	return (int)o.used;
}

int pmc_value_format(double v, int decimals, char *buf, size_t len)
{
	int n;

	if (!isfinite(v)) {
		if (len)
			buf[0] = 0;
		return 0;
	}
	n = snprintf(buf, len, "%.*f", decimals, v);
	if (n > 0 && (size_t)n < len && buf[0] == '-' && !strpbrk(buf, "123456789")) {
		memmove(buf, buf + 1, (size_t)n); /* no "-0.00" */
		n--;
	}
	return n;
}
