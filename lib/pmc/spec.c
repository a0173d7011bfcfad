// SPDX-License-Identifier: MIT
/*
 * Event specs: uProf's key=value form, bare names (predefined, PMCxNNN, software, timer,
 * IBS, libpfm4) and perf's pmu/terms/ form. Input is (buf, len), never NUL-terminated.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#define MAX_SPEC 512

/* Parse state shared by the helpers below. */
struct spec_ctx {
	const struct pmc_pmus *pmus;
	struct pmc_event *ev;
	char *err;
	size_t errlen;
	/* collected keys */
	struct pmc_mods m;
	const char *pmu_name; /* pmu= */
	const struct pmc_term *event_term;
};

__attribute__((format(printf, 3, 4))) static int fail(struct spec_ctx *c, int ret, const char *fmt,
						      ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return ret;
}

int pmc_terms_split(const char *s, size_t len, int col0, struct pmc_term *t, int max, int *n,
		    char *err, size_t errlen)
{
	size_t i = 0;

	*n = 0;
	while (i < len) {
		size_t start = i, eq = 0, klen, vlen;
		struct pmc_term *term;

		while (i < len && s[i] != ',')
			i++;
		if (i == start) {
			snprintf(err, errlen, "column %d: empty term", col0 + (int)start);
			return -EINVAL;
		}
		if (*n == max) {
			snprintf(err, errlen, "column %d: more than %d terms", col0 + (int)start,
				 max);
			return -E2BIG;
		}
		term = &t[(*n)++];
		memset(term, 0, sizeof(*term));
		term->col = col0 + (int)start;
		for (size_t k = start; k < i && !eq; k++)
			if (s[k] == '=')
				eq = k;
		klen = (eq ? eq : i) - start;
		vlen = eq ? i - eq - 1 : 0;
		if (!klen || klen >= sizeof(term->key) || vlen >= sizeof(term->val) ||
		    (eq && !vlen)) {
			snprintf(err, errlen, "column %d: bad term '%.*s'", term->col,
				 (int)(i - start), s + start);
			return -EINVAL;
		}
		memcpy(term->key, s + start, klen);
		term->has_val = eq != 0;
		if (eq)
			memcpy(term->val, s + eq + 1, vlen);
		if (i < len && ++i == len) {
			snprintf(err, errlen, "column %d: trailing comma", col0 + (int)len);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- resolving an event name ---- */

static bool is_pmcx(const char *s, size_t len)
{
	return len > 4 && !strncasecmp(s, "pmcx", 4);
}

static int set_core(struct spec_ctx *c, uint16_t code, uint8_t umask, const char *name)
{
	c->ev->kind = PMC_EV_CORE;
	c->ev->code = code;
	c->ev->umask = umask;
	snprintf(c->ev->pmu, sizeof(c->ev->pmu), "cpu");
	if (name)
		snprintf(c->ev->name, sizeof(c->ev->name), "%s", name);
	return 0;
}

static int hex_code(struct spec_ctx *c, const char *s, size_t len, int col)
{
	uint64_t v;
	char buf[24];
	int ret;

	if (len + 2 >= sizeof(buf))
		return fail(c, -EINVAL, "column %d: bad event code '%.*s'", col, (int)len, s);
	snprintf(buf, sizeof(buf), "0x%.*s", (int)len, s);
	ret = pmc_parse_u64(buf, strlen(buf), &v);
	if (ret || v > 0xfff)
		return fail(c, ret == -EINVAL ? -EINVAL : -ERANGE,
			    "column %d: event code '%.*s' is not a hex number up to 0xfff", col,
			    (int)len, s);
	return set_core(c, (uint16_t)v, 0, NULL);
}

static int resolve_special(struct spec_ctx *c, const char *s, size_t len)
{
	struct pmc_event *ev = c->ev;

	if (len == 5 && !strncasecmp(s, "timer", 5)) {
		ev->kind = PMC_EV_TIMER;
		snprintf(ev->name, sizeof(ev->name), "CPU_TIME");
		snprintf(ev->pmu, sizeof(ev->pmu), "software");
		return 0;
	}
	if ((len == 6 && !strncasecmp(s, "ibs-op", 6)) ||
	    (len == 9 && !strncasecmp(s, "ibs-fetch", 9))) {
		ev->kind = PMC_EV_IBS;
		snprintf(ev->name, sizeof(ev->name), len == 6 ? "IBS_OP" : "IBS_FETCH");
		snprintf(ev->pmu, sizeof(ev->pmu), len == 6 ? "ibs_op" : "ibs_fetch");
		return 0;
	}
	return -ENOENT;
}

/* Resolve a bare event name (the whole spec, or an event= value). */
static int resolve_name(struct spec_ctx *c, const char *s, size_t len, int col)
{
	const struct pmc_predef *p;
	const char *canon;
	uint64_t config, period, freq;
	char name[MAX_SPEC + 1], why[128];
	int ret;

	if (!resolve_special(c, s, len))
		return 0;
	p = pmc_predef_find(s, len);
	if (p) {
		c->m.predefined = true;
		return set_core(c, p->code, p->umask, p->name);
	}
	if (is_pmcx(s, len))
		return hex_code(c, s + 4, len - 4, col + 4);
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return hex_code(c, s + 2, len - 2, col + 2);
	if (!pmc_software_find(s, len, &config, &canon)) {
		c->ev->kind = PMC_EV_SOFTWARE;
		c->ev->attr.type = PERF_TYPE_SOFTWARE;
		c->ev->attr.config = config;
		snprintf(c->ev->name, sizeof(c->ev->name), "%s", canon);
		snprintf(c->ev->pmu, sizeof(c->ev->pmu), "software");
		return 0;
	}
	memcpy(name, s, len);
	name[len] = 0;
	if (strchr(name, '\n') || len != strlen(name))
		return fail(c, -EINVAL, "column %d: bad characters in event name", col);
	ret = pmc_pfm_encode(name, &c->ev->attr, &period, &freq, why, sizeof(why));
	if (ret == -ENOENT)
		return fail(
			c, -ENOENT,
			"unknown event '%s' (uProf names: 'uprof info --list predefined-events';"
			" raw codes: pmcxNNN)",
			name);
	if (ret)
		return fail(c, ret, "event '%s': %s", name, why);
	c->ev->kind = PMC_EV_CORE;
	c->ev->interval = period; /* interval=/frequency= terms after it win */
	c->ev->frequency = freq;
	snprintf(c->ev->pmu, sizeof(c->ev->pmu), "cpu");
	snprintf(c->ev->name, sizeof(c->ev->name), "%.63s", name);
	c->ev->code = (uint16_t)((c->ev->attr.config & 0xff) |
				 ((c->ev->attr.config >> 24) & 0xf00));
	c->ev->umask = (uint8_t)(c->ev->attr.config >> 8);
	return 1; /* encoded already */
}

/* ---- key=value terms ---- */

static int flag_value(struct spec_ctx *c, const struct pmc_term *t, bool *out)
{
	if (!t->has_val || (strcmp(t->val, "0") && strcmp(t->val, "1")))
		return fail(c, -EINVAL, "column %d: %s must be 0 or 1", t->col, t->key);
	*out = t->val[0] == '1';
	return 0;
}

static int int_flag(struct spec_ctx *c, const struct pmc_term *t, int *out)
{
	bool b;
	int ret = flag_value(c, t, &b);

	if (!ret)
		*out = b;
	return ret;
}

static int num_value(struct spec_ctx *c, const struct pmc_term *t, uint64_t max, uint64_t *out)
{
	int ret = t->has_val ? pmc_parse_u64(t->val, strlen(t->val), out) : -EINVAL;

	if (ret == -EINVAL)
		return fail(c, ret, "column %d: %s needs a number (decimal or 0x hex)", t->col,
			    t->key);
	if (ret || *out > max)
		return fail(c, -ERANGE, "column %d: %s=%s is out of range (max %#llx)", t->col,
			    t->key, t->val, (unsigned long long)max);
	return 0;
}

static int interval_value(struct spec_ctx *c, const struct pmc_term *t)
{
	uint64_t v;
	int ret;

	if (c->ev->kind == PMC_EV_TIMER) {
		ret = pmc_parse_interval_ms(t->val, &v);
		if (ret)
			return fail(c, ret,
				    "column %d: timer interval '%s' must be ms in 0.01..3600000",
				    t->col, t->val);
		c->ev->interval = v;
		return 0;
	}
	ret = num_value(c, t, INT64_MAX, &v);
	if (!ret && !v)
		ret = fail(c, -ERANGE, "column %d: interval must be > 0", t->col);
	if (!ret)
		c->ev->interval = v;
	return ret;
}

/* Keys that apply to the event once it is known. */
static int apply_key(struct spec_ctx *c, const struct pmc_term *t)
{
	uint64_t v = 0;
	int ret = 0;

	if (!strcmp(t->key, "umask") || !strcmp(t->key, "mask")) {
		ret = num_value(c, t, 0xff, &v);
		c->m.umask = (uint8_t)v;
		c->m.have_umask = true;
	} else if (!strcmp(t->key, "user")) {
		ret = int_flag(c, t, &c->m.user);
	} else if (!strcmp(t->key, "os")) {
		ret = int_flag(c, t, &c->m.os);
	} else if (!strcmp(t->key, "inv")) {
		ret = flag_value(c, t, &c->m.inv);
	} else if (!strcmp(t->key, "edge")) {
		ret = flag_value(c, t, &c->m.edge);
	} else if (!strcmp(t->key, "cmask")) {
		ret = num_value(c, t, 0x7f, &v);
		c->m.cmask = (uint8_t)v;
	} else if (!strcmp(t->key, "interval")) {
		ret = interval_value(c, t);
	} else if (!strcmp(t->key, "frequency")) {
		ret = num_value(c, t, 1000000, &c->ev->frequency);
		if (!ret && !c->ev->frequency)
			ret = fail(c, -ERANGE, "column %d: frequency must be > 0", t->col);
	} else if (!strcmp(t->key, "call-graph")) {
		c->ev->call_graph = true;
	} else if (!strcmp(t->key, "ibsop-count-control")) {
		ret = flag_value(c, t, &c->m.cnt_ctl);
	} else if (!strcmp(t->key, "ibsop-l3miss") || !strcmp(t->key, "ibsopl3miss") ||
		   !strcmp(t->key, "ibsfetchl3miss")) {
		c->m.l3miss = true;
	} else {
		ret = fail(c, -EINVAL,
			   "column %d: unknown key '%s' (keys: event, umask, user, os, "
			   "inv, cmask, interval, frequency, call-graph, pmu)",
			   t->col, t->key);
	}
	return ret;
}

static int dup_check(struct spec_ctx *c, const struct pmc_term *t, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(t[i].key, t[n].key))
			return fail(c, -EINVAL, "column %d: '%s' given twice", t[n].col, t[n].key);
	return 0;
}

static int parse_kv(struct spec_ctx *c, const char *s, size_t len)
{
	struct pmc_term t[PMC_MAX_TERMS];
	int n, ret, encoded = 0;

	ret = pmc_terms_split(s, len, 1, t, PMC_MAX_TERMS, &n, c->err, c->errlen);
	for (int i = 0; !ret && i < n; i++)
		ret = dup_check(c, t, i);
	/* the event first: a bare first term is its name */
	for (int i = 0; !ret && i < n && !c->event_term; i++)
		if (!strcmp(t[i].key, "event") ||
		    (i == 0 && !t[i].has_val && strcmp(t[i].key, "call-graph") &&
		     strncmp(t[i].key, "ibs", 3)))
			c->event_term = &t[i];
	for (int i = 0; !ret && i < n; i++)
		if (!strcmp(t[i].key, "pmu"))
			c->pmu_name = t[i].val;
	if (!ret && !c->event_term)
		return fail(c, -EINVAL, "no event= in '%.*s'", (int)len, s);
	if (!ret && c->pmu_name)
		return pmc_encode_uncore_kv(c->pmus, c->ev, t, n, c->err, c->errlen);
	if (!ret) {
		const struct pmc_term *e = c->event_term;
		int vcol = e->has_val ? e->col + 6 : e->col;
		const char *name = e->has_val ? e->val : e->key;

		ret = resolve_name(c, name, strlen(name), vcol);
		encoded = ret == 1;
		ret = ret == 1 ? 0 : ret;
	}
	for (int i = 0; !ret && i < n; i++)
		if (&t[i] != c->event_term)
			ret = apply_key(c, &t[i]);
	if (!ret)
		ret = pmc_encode_finish(c->pmus, c->ev, encoded, &c->m, c->err, c->errlen);
	return ret;
}

/* A bare libpfm4 string: "EVENT:UMASK:u", "pmu::EVENT". */
static bool pfm_style(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);
	const char *eq = memchr(s, '=', len);

	return colon && (!eq || eq > colon) && !memchr(s, ',', len);
}

int pmc_event_parse(const char *s, size_t len, const struct pmc_pmus *pmus, struct pmc_event *ev,
		    char *err, size_t errlen)
{
	struct spec_ctx c = { .pmus = pmus,
			      .ev = ev,
			      .err = err,
			      .errlen = errlen,
			      .m = { .user = -1, .os = -1 } };
	const char *slash;
	int ret;

	memset(ev, 0, sizeof(*ev));
	if (errlen)
		err[0] = 0;
	if (!len)
		return fail(&c, -EINVAL, "empty event");
	if (len > MAX_SPEC)
		return fail(&c, -EINVAL, "event spec longer than %d bytes", MAX_SPEC);
	if (memchr(s, 0, len))
		return fail(&c, -EINVAL, "NUL byte in event spec");
	slash = memchr(s, '/', len);
	if (slash)
		return pmc_encode_uncore_slash(pmus, ev, s, len, err, errlen);
	if (pfm_style(s, len) || (!memchr(s, '=', len) && !memchr(s, ',', len))) {
		ret = resolve_name(&c, s, len, 1);
		if (ret < 0)
			return ret;
		return pmc_encode_finish(pmus, ev, ret == 1, &c.m, err, errlen);
	}
	return parse_kv(&c, s, len);
}
