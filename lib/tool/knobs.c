// SPDX-License-Identifier: MIT
/*
 * Tool knobs: typed settings a tool declares (int, bool, double, string, each with a
 * default and a help line) and uprof fills from `--tool path,name=value,...`. The values
 * go straight into the tool's own variables, as GTPin's Knob<T> objects read like plain
 * variables: the default at declaration, the command line's value after the entry point.
 */
#include "tool/internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void errf(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

const char *tool_knob_type_name(int type)
{
	switch (type) {
	case UPROF_TOOL_KNOB_INT:
		return "int";
	case UPROF_TOOL_KNOB_BOOL:
		return "bool";
	case UPROF_TOOL_KNOB_DOUBLE:
		return "double";
	case UPROF_TOOL_KNOB_STRING:
		return "string";
	}
	return "?";
}

/* Letters, digits, '-' and '_', starting with a letter: what fits "name=value". */
static bool good_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || n >= sizeof(((struct tool_knob *)0)->name) ||
	    !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_'))
			return false;
	return true;
}

static struct tool_knob *find(struct tool_knobs *ks, const char *name, size_t len)
{
	for (int i = 0; i < ks->n; i++)
		if (strlen(ks->k[i].name) == len && !memcmp(ks->k[i].name, name, len))
			return &ks->k[i];
	return NULL;
}

int tool_knobs_declare(struct tool_knobs *ks, const char *name, int type, void *value,
		       const void *def, const char *help)
{
	struct tool_knob *k;

	if (!good_name(name) || !value || type < UPROF_TOOL_KNOB_INT ||
	    type > UPROF_TOOL_KNOB_STRING || (!def && type != UPROF_TOOL_KNOB_STRING))
		return -EINVAL;
	if (find(ks, name, strlen(name)))
		return -EEXIST;
	if (ks->n == TOOL_MAX_KNOBS)
		return -E2BIG;
	k = &ks->k[ks->n];
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->help, sizeof(k->help), "%s", help ? help : "");
	k->type = type;
	k->value = value;
	switch (type) {
	case UPROF_TOOL_KNOB_INT:
		k->def.i = *(const int64_t *)def;
		*(int64_t *)value = k->def.i;
		break;
	case UPROF_TOOL_KNOB_BOOL:
		k->def.b = *(const bool *)def;
		*(bool *)value = k->def.b;
		break;
	case UPROF_TOOL_KNOB_DOUBLE:
		k->def.d = *(const double *)def;
		*(double *)value = k->def.d;
		break;
	default:
		k->def_s = strdup(def ? def : "");
		if (!k->def_s)
			return -ENOMEM;
		*(const char **)value = k->def_s;
	}
	ks->n++;
	return 0;
}

static int parse_int(const char *s, int64_t *out)
{
	bool hex = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ||
		   ((s[0] == '-' || s[0] == '+') && s[1] == '0' && (s[2] == 'x' || s[2] == 'X'));
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, hex ? 16 : 10);
	if (errno || end == s || *end || s[0] == ' ' || s[0] == '\t')
		return -EINVAL;
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(s, yes[i]))
			return *out = true, 0;
		if (!strcmp(s, no[i]))
			return *out = false, 0;
	}
	return -EINVAL;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || s[0] == ' ' || s[0] == '\t')
		return -EINVAL;
	*out = v;
	return 0;
}

/* "a, b, c": the knobs' names, for an unknown one's message. */
static void knob_names(const struct tool_knobs *ks, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (int i = 0; i < ks->n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", ks->k[i].name);
}

static const char *wants(int type)
{
	switch (type) {
	case UPROF_TOOL_KNOB_INT:
		return "an integer (decimal or 0x hex)";
	case UPROF_TOOL_KNOB_BOOL:
		return "a bool (1/0, true/false, yes/no, on/off)";
	default:
		return "a number";
	}
}

int tool_knobs_set(struct tool_knobs *ks, const char *setting, char *err, size_t errlen)
{
	const char *eq = strchr(setting, '='), *val = eq ? eq + 1 : NULL;
	size_t len = eq ? (size_t)(eq - setting) : strlen(setting);
	struct tool_knob *k = find(ks, setting, len);
	char names[512];
	int ret = 0;

	if (!k) {
		knob_names(ks, names, sizeof(names));
		errf(err, errlen, "unknown knob '%.*s' (%s%s)", (int)len, setting,
		     ks->n ? "its knobs: " : "it has no knobs", names);
		return -EINVAL;
	}
	if (!val && k->type != UPROF_TOOL_KNOB_BOOL) {
		errf(err, errlen, "knob '%s' needs a value: %s=<%s>", k->name, k->name,
		     tool_knob_type_name(k->type));
		return -EINVAL;
	}
	switch (k->type) {
	case UPROF_TOOL_KNOB_INT:
		ret = parse_int(val, k->value);
		break;
	case UPROF_TOOL_KNOB_BOOL:
		if (val)
			ret = parse_bool(val, k->value);
		else
			*(bool *)k->value = true;
		break;
	case UPROF_TOOL_KNOB_DOUBLE:
		ret = parse_double(val, k->value);
		break;
	default:
		free(k->set_s);
		k->set_s = strdup(val);
		if (!k->set_s) {
			errf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		*(const char **)k->value = k->set_s;
	}
	if (ret)
		errf(err, errlen, "knob '%s' wants %s, not '%s'", k->name, wants(k->type), val);
	return ret;
}

bool tool_knobs_known(const struct tool_knobs *ks, const char *setting)
{
	return find((struct tool_knobs *)ks, setting, strcspn(setting, "=")) != NULL;
}

void tool_knobs_release(struct tool_knobs *ks)
{
	for (int i = 0; i < ks->n; i++) {
		free(ks->k[i].def_s);
		free(ks->k[i].set_s);
	}
	ks->n = 0;
}

void tool_knob_default(const struct tool_knob *k, char *buf, size_t len)
{
	switch (k->type) {
	case UPROF_TOOL_KNOB_INT:
		snprintf(buf, len, "%lld", (long long)k->def.i);
		break;
	case UPROF_TOOL_KNOB_BOOL:
		snprintf(buf, len, "%s", k->def.b ? "true" : "false");
		break;
	case UPROF_TOOL_KNOB_DOUBLE:
		snprintf(buf, len, "%g", k->def.d);
		break;
	default:
		snprintf(buf, len, "%s", k->def_s ? k->def_s : "");
	}
}

int tool_spec_split(const char *spec, char *buf, size_t buflen, const char **path,
		    const char **settings, int max)
{
	char *p, *comma;
	int n = 0;

	if (strlen(spec) >= buflen)
		return -E2BIG;
	memcpy(buf, spec, strlen(spec) + 1);
	comma = strchr(buf, ',');
	if (comma)
		*comma = 0;
	*path = buf;
	if (!buf[0])
		return -EINVAL;
	for (p = comma ? comma + 1 : NULL; p; p = comma ? comma + 1 : NULL) {
		comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (!*p || *p == '=')
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		settings[n++] = p;
	}
	return n;
}
