// SPDX-License-Identifier: MIT
/* Configuration files: collect configurations (configs/<name>.ini) and pcm metric groups
 * (configs/pcm/<group>.ini), parsed with inih. Which directory holds them is the caller's
 * business (the CLI looks beside its executable): every function here takes it. */
#include "metric/metric.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct load_ctx {
	struct mtr_config *cfg;
	char *err;
	size_t errlen;
	unsigned seen_events[2], seen_metrics[2]; /* bit N: the section has a needed key */
};

static int config_key(struct load_ctx *ctx, const char *name, const char *value)
{
	struct mtr_config *cfg = ctx->cfg;
	char *end;

	if (!strcmp(name, "label")) {
		snprintf(cfg->label, sizeof(cfg->label), "%s", value);
	} else if (!strcmp(name, "description")) {
		snprintf(cfg->description, sizeof(cfg->description), "%s", value);
	} else if (!strcmp(name, "title")) {
		snprintf(cfg->title, sizeof(cfg->title), "%s", value);
	} else if (!strcmp(name, "timer_interval_ms")) {
		cfg->timer_interval_ms = strtod(value, &end);
		if (*end || !isfinite(cfg->timer_interval_ms) || cfg->timer_interval_ms <= 0) {
			snprintf(ctx->err, ctx->errlen, "bad timer_interval_ms '%s'", value);
			return 0;
		}
	} else if (!strcmp(name, "user_only")) {
		if (strcmp(value, "0") && strcmp(value, "1")) {
			snprintf(ctx->err, ctx->errlen, "user_only must be 0 or 1, not '%s'",
				 value);
			return 0;
		}
		cfg->user_only = value[0] == '1';
	}
	return 1;
}

/* "event.N" / "metric.N": N, or -1 when @section is not @prefix.N or N is too large. */
static int section_index(const char *section, const char *prefix, int max)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(section, prefix, n) || section[n] != '.' ||
	    !isdigit((unsigned char)section[n + 1]))
		return -1;
	v = strtol(section + n + 1, &end, 10);
	return *end || v < 0 || v >= max ? -1 : (int)v;
}

static int copy_field(struct load_ctx *ctx, const char *section, const char *key, const char *value,
		      char *dst, size_t len)
{
	if (strlen(value) >= len) {
		snprintf(ctx->err, ctx->errlen, "[%s] %s is longer than %zu characters", section,
			 key, len - 1);
		return 0;
	}
	memcpy(dst, value, strlen(value) + 1);
	return 1;
}

static int event_key(struct load_ctx *ctx, const char *section, int i, const char *name,
		     const char *value)
{
	struct mtr_config_event *e = &ctx->cfg->events[i];

	if (i + 1 > ctx->cfg->nevents)
		ctx->cfg->nevents = i + 1;
	if (!strcmp(name, "spec")) {
		ctx->seen_events[0] |= 1u << i;
		return copy_field(ctx, section, name, value, e->spec, sizeof(e->spec));
	}
	if (!strcmp(name, "name"))
		return copy_field(ctx, section, name, value, e->name, sizeof(e->name));
	if (!strcmp(name, "optional") && (!strcmp(value, "0") || !strcmp(value, "1"))) {
		e->optional = value[0] == '1';
		return 1;
	}
	snprintf(ctx->err, ctx->errlen, "[%s]: unknown key '%s' (spec, name, optional = 0|1)",
		 section, name);
	return 0;
}

static int metric_key(struct load_ctx *ctx, const char *section, int i, const char *name,
		      const char *value)
{
	struct mtr_config_metric *m = &ctx->cfg->metrics[i];

	if (i + 1 > ctx->cfg->nmetrics)
		ctx->cfg->nmetrics = i + 1;
	if (!strcmp(name, "name")) {
		ctx->seen_metrics[0] |= 1u << i;
		return copy_field(ctx, section, name, value, m->name, sizeof(m->name));
	}
	if (!strcmp(name, "formula")) {
		ctx->seen_metrics[1] |= 1u << i;
		return copy_field(ctx, section, name, value, m->formula, sizeof(m->formula));
	}
	if (!strcmp(name, "id"))
		return copy_field(ctx, section, name, value, m->id, sizeof(m->id));
	snprintf(ctx->err, ctx->errlen, "[%s]: unknown key '%s' (name, formula, id)", section,
		 name);
	return 0;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *ctx = user;
	int i;

	if (!strcmp(section, "config"))
		return config_key(ctx, name, value);
	if ((i = section_index(section, "event", MTR_CONFIG_MAX_EVENTS)) >= 0)
		return event_key(ctx, section, i, name, value);
	if ((i = section_index(section, "metric", MTR_CONFIG_MAX_METRICS)) >= 0)
		return metric_key(ctx, section, i, name, value);
	if (!strncmp(section, "event", 5) || !strncmp(section, "metric", 6)) {
		snprintf(ctx->err, ctx->errlen, "[%s]: sections are numbered %s.0 .. %s.%d",
			 section, section[0] == 'e' ? "event" : "metric",
			 section[0] == 'e' ? "event" : "metric",
			 section[0] == 'e' ? MTR_CONFIG_MAX_EVENTS - 1
					   : MTR_CONFIG_MAX_METRICS - 1);
		return 0;
	}
	return 1; /* other sections belong to later versions */
}

/* Every event has a spec, every metric a name and a formula that parses. */
static int check_sections(struct load_ctx *ctx)
{
	struct mtr_config *cfg = ctx->cfg;

	for (int i = 0; i < cfg->nevents; i++)
		if (!(ctx->seen_events[0] >> i & 1)) {
			snprintf(ctx->err, ctx->errlen, "[event.%d] missing, or without spec", i);
			return -EINVAL;
		}
	for (int i = 0; i < cfg->nmetrics; i++) {
		struct mtr_expr *e;
		char why[128];

		if (!(ctx->seen_metrics[0] >> i & 1) || !(ctx->seen_metrics[1] >> i & 1)) {
			snprintf(ctx->err, ctx->errlen,
				 "[metric.%d] missing, or without name/formula", i);
			return -EINVAL;
		}
		if (mtr_expr_parse(cfg->metrics[i].formula, strlen(cfg->metrics[i].formula), &e,
				   why, sizeof(why))) {
			snprintf(ctx->err, ctx->errlen, "[metric.%d] formula: %s", i, why);
			return -EINVAL;
		}
		mtr_expr_free(e);
	}
	return 0;
}

static void config_defaults(struct mtr_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->timer_interval_ms = 1.0;
}

/* ini_parse*'s result to 0 / -EINVAL with a message. */
static int parse_result(struct load_ctx *ctx, int ret, const char *where)
{
	if (ret > 0) {
		if (!ctx->err[0])
			snprintf(ctx->err, ctx->errlen, "syntax error");
		size_t n = strlen(ctx->err);

		snprintf(ctx->err + n, ctx->errlen - n, " (%s line %d)", where, ret);
		return -EINVAL;
	}
	if (ret < 0)
		return -ENOENT;
	return check_sections(ctx);
}

int mtr_config_parse(const char *buf, size_t len, struct mtr_config *cfg, char *err, size_t errlen)
{
	struct load_ctx ctx = { cfg, err, errlen, { 0 }, { 0 } };
	char *text;
	int ret;

	config_defaults(cfg);
	err[0] = 0;
	if (memchr(buf, 0, len)) {
		snprintf(err, errlen, "NUL byte in config");
		return -EINVAL;
	}
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, buf, len);
	text[len] = 0;
	ret = parse_result(&ctx, ini_parse_string(text, on_key, &ctx), "config");
	free(text);
	return ret;
}

int mtr_config_load_path(const char *path, struct mtr_config *cfg, char *err, size_t errlen)
{
	struct load_ctx ctx = { cfg, err, errlen, { 0 }, { 0 } };
	const char *base = strrchr(path, '/');
	size_t n;

	config_defaults(cfg);
	err[0] = 0;
	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	snprintf(cfg->name, sizeof(cfg->name), "%.*s", (int)(n < 63 ? n : 63), base);
	snprintf(cfg->label, sizeof(cfg->label), "%s", cfg->name);
	if (access(path, R_OK))
		return -ENOENT;
	return parse_result(&ctx, ini_parse(path, on_key, &ctx), path);
}

static bool valid_name(const char *name)
{
	if (!*name || strlen(name) >= 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

int mtr_config_load(const char *dir, const char *name, struct mtr_config *cfg, char *err,
		    size_t errlen)
{
	char path[PATH_MAX];

	config_defaults(cfg);
	err[0] = 0;
	if (!valid_name(name))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s.ini", dir, name);
	return mtr_config_load_path(path, cfg, err, errlen);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int mtr_config_list(const char *dir, char names[][64], int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < max) {
		size_t len = strlen(e->d_name);

		if (len > 4 && len < 64 && !strcmp(e->d_name + len - 4, ".ini")) {
			memcpy(names[n], e->d_name, len - 4);
			names[n][len - 4] = 0;
			n++;
		}
	}
	closedir(d);
	util_qsort(names, n, 64, cmp_names);
	return n;
}
