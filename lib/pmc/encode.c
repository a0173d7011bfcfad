// SPDX-License-Identifier: MIT
/* Encoding resolved events into perf_event_attr: core (sysfs or AMD layout), uncore
 * through sysfs format/ fields, software, timer, IBS. */
#include "pmc/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

/* AMD core PMC layout (PPR "PERF_CTL"): what sysfs cpu/format says on every Zen. */
static const struct pmc_format amd_core[] = {
	{ "event", 2, { { 0, 0, 7 }, { 0, 32, 35 } } },
	{ "umask", 1, { { 0, 8, 15 } } },
	{ "edge", 1, { { 0, 18, 18 } } },
	{ "inv", 1, { { 0, 23, 23 } } },
	{ "cmask", 1, { { 0, 24, 31 } } },
};

const struct pmc_format *pmc_amd_core_format(const char *name)
{
	for (size_t i = 0; i < sizeof(amd_core) / sizeof(amd_core[0]); i++)
		if (!strcmp(amd_core[i].name, name))
			return &amd_core[i];
	return NULL;
}

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
						      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void pmc_missing_pmu_msg(const char *pmu, char *buf, size_t len)
{
	const char *what = "", *why = "not in the kernel, or not exposed to this machine";

	if (!strcmp(pmu, "cpu")) {
		what = "core PMC ";
		why = "a VM without a virtual PMU exposes none; only software events work there";
	} else if (!strcmp(pmu, "amd_l3")) {
		what = "L3 ";
		why = "needs an AMD CPU with the amd_uncore driver; VMs rarely expose it";
	} else if (!strcmp(pmu, "amd_df")) {
		what = "Data Fabric ";
		why = "needs an AMD CPU with the amd_uncore driver; VMs rarely expose it";
	} else if (!strncmp(pmu, "ibs", 3)) {
		what = "IBS ";
		why = "needs IBS enabled in BIOS and a kernel with AMD IBS support; VMs rarely have it";
	}
	snprintf(buf, len,
		 "the %sPMU '%s' is not available (no %s/bus/event_source/devices/%s: "
		 "%s); check with 'uprof info --system'",
		 what, pmu, pmc_sysfs_root(), pmu, why);
}

int pmc_encode_core(const struct pmc_pmus *pmus, uint16_t code, uint8_t umask, bool inv, bool edge,
		    uint8_t cmask, struct perf_event_attr *attr)
{
	const struct pmc_pmu *cpu = pmc_pmus_find(pmus, "cpu");
	const char *names[] = { "event", "umask", "inv", "edge", "cmask" };
	uint64_t vals[] = { code, umask, inv, edge, cmask };

	attr->type = cpu ? pmc_pmu_type(cpu) : PERF_TYPE_RAW;
	attr->config = attr->config1 = attr->config2 = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pmc_format *f = pmc_pmu_format(cpu, names[i]);

		if (!f)
			f = pmc_amd_core_format(names[i]);
		if (pmc_format_apply(f, vals[i], attr) && vals[i])
			return -ERANGE;
	}
	return 0;
}

/* Name of a raw core event: the predefined name when code and umask match one. */
static void core_name(struct pmc_event *ev, const struct pmc_mods *m)
{
	const struct pmc_predef *p;

	for (size_t i = 0; (p = pmc_predef_at(i)); i++)
		if (p->code == ev->code && p->umask == ev->umask && !m->inv && !m->edge &&
		    !m->cmask) {
			snprintf(ev->name, sizeof(ev->name), "%s", p->name);
			return;
		}
	if (ev->umask)
		snprintf(ev->name, sizeof(ev->name), "PMCx%03X_%02X", ev->code, ev->umask);
	else
		snprintf(ev->name, sizeof(ev->name), "PMCx%03X", ev->code);
}

static int finish_core(const struct pmc_pmus *pmus, struct pmc_event *ev, bool encoded,
		       const struct pmc_mods *m, char *err, size_t errlen)
{
	if (m->have_umask && m->predefined)
		return fail(err, errlen, "umask= is not used with predefined event %s", ev->name);
	if (encoded) {
		if (m->have_umask || m->inv || m->edge || m->cmask)
			return fail(err, errlen,
				    "umask/inv/edge/cmask do not combine with libpfm4 "
				    "event %s: write them as EVENT:UMASK:i=1:e=1:c=N",
				    ev->name);
		return 0;
	}
	if (m->have_umask)
		ev->umask = m->umask;
	if (pmc_encode_core(pmus, ev->code, ev->umask, m->inv, m->edge, m->cmask, &ev->attr))
		return fail(err, errlen, "event code 0x%x does not fit the cpu PMU's format",
			    ev->code);
	if (!m->predefined)
		core_name(ev, m);
	return 0;
}

static int finish_ibs(const struct pmc_pmus *pmus, struct pmc_event *ev, const struct pmc_mods *m,
		      char *err, size_t errlen)
{
	const struct pmc_pmu *u = pmc_pmus_find(pmus, ev->pmu);
	const struct pmc_format *f;

	if (!u) {
		pmc_missing_pmu_msg(ev->pmu, err, errlen);
		return -ENODEV;
	}
	ev->attr.type = pmc_pmu_type(u);
	if (m->cnt_ctl) {
		f = pmc_pmu_format(u, "cnt_ctl");
		if (!f || pmc_format_apply(f, 1, &ev->attr))
			return fail(err, errlen, "ibsop-count-control: %s has no cnt_ctl format",
				    ev->pmu);
	}
	if (m->l3miss) {
		f = pmc_pmu_format(u, "l3missonly");
		if (!f || pmc_format_apply(f, 1, &ev->attr))
			return fail(err, errlen,
				    "l3miss filtering: %s has no l3missonly format "
				    "(Zen4 and later)",
				    ev->pmu);
	}
	return 0;
}

int pmc_encode_finish(const struct pmc_pmus *pmus, struct pmc_event *ev, bool encoded,
		      const struct pmc_mods *m, char *err, size_t errlen)
{
	bool core = ev->kind == PMC_EV_CORE;
	int ret = 0;

	if (!core && (m->have_umask || m->inv || m->edge || m->cmask))
		return fail(err, errlen, "umask/inv/edge/cmask apply to core PMC events, not %s",
			    ev->name);
	if (ev->kind != PMC_EV_IBS && (m->cnt_ctl || m->l3miss))
		return fail(err, errlen, "IBS keys apply to ibs-op/ibs-fetch, not %s", ev->name);
	if (ev->interval && ev->frequency)
		return fail(err, errlen, "interval= and frequency= exclude each other");
	if (ev->frequency && ev->kind != PMC_EV_CORE)
		return fail(err, errlen, "frequency= applies to core PMC events, not %s%s",
			    ev->name, ev->kind == PMC_EV_TIMER ? " (its interval= is in ms)" : "");
	if (m->user == 0 && m->os == 0)
		return fail(err, errlen, "user=0 and os=0 together count nothing");
	ev->attr.size = sizeof(ev->attr);
	if (core) {
		ret = finish_core(pmus, ev, encoded, m, err, errlen);
	} else if (ev->kind == PMC_EV_TIMER) {
		ev->attr.type = PERF_TYPE_SOFTWARE;
		ev->attr.config = PERF_COUNT_SW_CPU_CLOCK;
		if (!ev->interval)
			ev->interval = 1000000; /* 1 ms */
	} else if (ev->kind == PMC_EV_IBS) {
		if (m->user >= 0 || m->os >= 0)
			return fail(err, errlen, "user=/os= do not apply to IBS");
		ret = finish_ibs(pmus, ev, m, err, errlen);
	}
	if (!ret && m->user >= 0)
		ev->attr.exclude_user = !m->user;
	if (!ret && m->os >= 0)
		ev->attr.exclude_kernel = !m->os;
	return ret;
}

/* ---- uncore: sysfs formats and aliases ---- */

static int apply_term(const struct pmc_pmu *u, struct pmc_event *ev, const struct pmc_term *t,
		      int depth, char *err, size_t errlen);

static int apply_alias(const struct pmc_pmu *u, struct pmc_event *ev, const char *value, int col,
		       int depth, char *err, size_t errlen)
{
	struct pmc_term t[PMC_MAX_TERMS];
	int n, ret;

	ret = pmc_terms_split(value, strlen(value), 1, t, PMC_MAX_TERMS, &n, err, errlen);
	if (ret)
		return fail(err, errlen, "column %d: event alias of %s is malformed: '%s'", col,
			    pmc_pmu_name(u), value);
	for (int i = 0; !ret && i < n; i++)
		ret = apply_term(u, ev, &t[i], depth + 1, err, errlen);
	return ret;
}

static int apply_term(const struct pmc_pmu *u, struct pmc_event *ev, const struct pmc_term *t,
		      int depth, char *err, size_t errlen)
{
	const struct pmc_format *f = pmc_pmu_format(u, t->key);
	const char *alias;
	uint64_t v = 1;

	if (f) {
		if (t->has_val && pmc_parse_u64(t->val, strlen(t->val), &v))
			return fail(err, errlen, "column %d: %s needs a number (decimal or 0x hex)",
				    t->col, t->key);
		if (pmc_format_apply(f, v, &ev->attr))
			return fail(err, errlen, "column %d: %s=%s does not fit its field", t->col,
				    t->key, t->val);
		return 0;
	}
	alias = !t->has_val && depth == 0 ? pmc_pmu_alias(u, t->key) : NULL;
	if (alias)
		return apply_alias(u, ev, alias, t->col, depth, err, errlen);
	if (!t->has_val && depth == 0) {
		snprintf(err, errlen,
			 "PMU %s has no event '%s' (see %s/bus/event_source/devices/%s/events)",
			 pmc_pmu_name(u), t->key, pmc_sysfs_root(), pmc_pmu_name(u));
		return -ENOENT;
	}
	return fail(err, errlen, "column %d: '%s' is not a format field of PMU %s", t->col, t->key,
		    pmc_pmu_name(u));
}

static const struct pmc_pmu *uncore_pmu(const struct pmc_pmus *pmus, struct pmc_event *ev,
					const char *name, size_t len, char *err, size_t errlen)
{
	const struct pmc_pmu *u;

	snprintf(ev->pmu, sizeof(ev->pmu), "%.*s", (int)len, name);
	u = len < sizeof(ev->pmu) ? pmc_pmus_find(pmus, ev->pmu) : NULL;
	if (!u)
		pmc_missing_pmu_msg(ev->pmu, err, errlen);
	return u;
}

static void uncore_kind(struct pmc_event *ev, const struct pmc_pmu *u)
{
	ev->attr.size = sizeof(ev->attr);
	ev->attr.type = pmc_pmu_type(u);
	if (!strcmp(pmc_pmu_name(u), "cpu")) {
		ev->kind = PMC_EV_CORE;
		ev->code = (uint16_t)((ev->attr.config & 0xff) | ((ev->attr.config >> 24) & 0xf00));
		ev->umask = (uint8_t)(ev->attr.config >> 8);
	} else {
		ev->kind = pmc_pmu_type(u) == PERF_TYPE_SOFTWARE ? PMC_EV_SOFTWARE : PMC_EV_UNCORE;
	}
}

int pmc_encode_uncore_slash(const struct pmc_pmus *pmus, struct pmc_event *ev, const char *s,
			    size_t len, char *err, size_t errlen)
{
	const char *slash = memchr(s, '/', len);
	size_t plen = (size_t)(slash - s), tlen;
	struct pmc_term t[PMC_MAX_TERMS];
	const struct pmc_pmu *u;
	int n, ret;

	if (!plen || len < plen + 2 || s[len - 1] != '/' || memchr(slash + 1, '/', len - plen - 2))
		return fail(err, errlen, "write PMU events as pmu/term=value,.../");
	u = uncore_pmu(pmus, ev, s, plen, err, errlen);
	if (!u)
		return -ENODEV;
	tlen = len - plen - 2;
	ret = pmc_terms_split(slash + 1, tlen, (int)plen + 2, t, PMC_MAX_TERMS, &n, err, errlen);
	if (!ret && !n)
		ret = fail(err, errlen, "column %d: no terms between the slashes", (int)plen + 2);
	for (int i = 0; !ret && i < n; i++)
		ret = apply_term(u, ev, &t[i], 0, err, errlen);
	if (ret)
		return ret;
	uncore_kind(ev, u);
	snprintf(ev->name, sizeof(ev->name), "%.*s", (int)(len < 63 ? len : 63), s);
	return 0;
}

/* The value of event= for pmu=: a number (0x, pmcx) or an alias of the PMU. */
static int kv_event(const struct pmc_pmu *u, struct pmc_event *ev, const struct pmc_term *t,
		    char *err, size_t errlen)
{
	struct pmc_term e = *t;
	const char *v = t->val;
	const char *alias;

	if (!t->has_val)
		return fail(err, errlen, "column %d: event= needs a value", t->col);
	alias = pmc_pmu_alias(u, v);
	if (alias)
		return apply_alias(u, ev, alias, t->col, 0, err, errlen);
	if (!strncasecmp(v, "pmcx", 4))
		snprintf(e.val, sizeof(e.val), "0x%s", v + 4);
	else if (strncasecmp(v, "0x", 2))
		return fail(err, errlen, "column %d: write event codes as 0xNN or pmcxNN", t->col);
	return apply_term(u, ev, &e, 1, err, errlen);
}

static int kv_umask(const struct pmc_pmu *u, struct pmc_event *ev, const struct pmc_term *t,
		    char *err, size_t errlen)
{
	struct pmc_term m = *t;

	if (!t->has_val)
		return fail(err, errlen, "column %d: umask= needs a value", t->col);
	snprintf(m.key, sizeof(m.key), "umask");
	return apply_term(u, ev, &m, 1, err, errlen);
}

int pmc_encode_uncore_kv(const struct pmc_pmus *pmus, struct pmc_event *ev,
			 const struct pmc_term *t, int n, char *err, size_t errlen)
{
	const struct pmc_pmu *u = NULL;
	int ret = 0;

	for (int i = 0; i < n && !u; i++)
		if (!strcmp(t[i].key, "pmu"))
			u = uncore_pmu(pmus, ev, t[i].val, strlen(t[i].val), err, errlen);
	if (!u)
		return -ENODEV;
	for (int i = 0; !ret && i < n; i++) {
		if (!strcmp(t[i].key, "pmu"))
			continue;
		if (!strcmp(t[i].key, "event"))
			ret = kv_event(u, ev, &t[i], err, errlen);
		else if (!strcmp(t[i].key, "umask") || !strcmp(t[i].key, "mask"))
			ret = kv_umask(u, ev, &t[i], err, errlen);
		else
			ret = fail(err, errlen,
				   "column %d: '%s' does not apply to %s counting events "
				   "(keys: pmu, event, umask)",
				   t[i].col, t[i].key, pmc_pmu_name(u));
	}
	if (ret)
		return ret;
	uncore_kind(ev, u);
	snprintf(ev->name, sizeof(ev->name), "%s/config=0x%llx/", pmc_pmu_name(u),
		 (unsigned long long)ev->attr.config);
	return 0;
}
