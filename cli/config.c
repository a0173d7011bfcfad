// SPDX-License-Identifier: MIT
/* Collect configurations: configs/<name>.ini, parsed with inih. */
#include "cli/cli.h"

#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_config_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	const char *env = getenv("UPROF_CONFIG_DIR");
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return "/usr/local/share/uprof/configs";
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(dir, sizeof(dir), "%s/../share/uprof/configs", exe);
	return dir;
}

struct load_ctx {
	struct cli_config *cfg;
	char *err;
	size_t errlen;
};

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *ctx = user;
	struct cli_config *cfg = ctx->cfg;
	char *end;

	if (strcmp(section, "config"))
		return 1; /* other sections belong to later versions */
	if (!strcmp(name, "label")) {
		snprintf(cfg->label, sizeof(cfg->label), "%s", value);
	} else if (!strcmp(name, "description")) {
		snprintf(cfg->description, sizeof(cfg->description), "%s", value);
	} else if (!strcmp(name, "timer_interval_ms")) {
		cfg->timer_interval_ms = strtod(value, &end);
		if (*end || !isfinite(cfg->timer_interval_ms) || cfg->timer_interval_ms <= 0) {
			snprintf(ctx->err, ctx->errlen, "bad timer_interval_ms '%s'", value);
			return 0;
		}
	} else if (!strcmp(name, "user_only")) {
		if (strcmp(value, "0") && strcmp(value, "1")) {
			snprintf(ctx->err, ctx->errlen, "user_only must be 0 or 1, not '%s'", value);
			return 0;
		}
		cfg->user_only = value[0] == '1';
	}
	return 1;
}

static bool valid_name(const char *name)
{
	if (!*name || strlen(name) >= 64)
		return false;
	for (const char *p = name; *p; p++)
		if (!(*p == '_' || *p == '-' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

int cli_config_load(const char *name, struct cli_config *cfg, char *err, size_t errlen)
{
	struct load_ctx ctx = { cfg, err, errlen };
	char path[PATH_MAX];
	int ret;

	memset(cfg, 0, sizeof(*cfg));
	if (!valid_name(name))
		return -ENOENT;
	snprintf(cfg->name, sizeof(cfg->name), "%s", name);
	snprintf(cfg->label, sizeof(cfg->label), "%s", name);
	cfg->timer_interval_ms = 1.0;
	snprintf(path, sizeof(path), "%s/%s.ini", cli_config_dir(), name);
	if (access(path, R_OK))
		return -ENOENT;
	err[0] = 0;
	ret = ini_parse(path, on_key, &ctx);
	if (ret < 0)
		return -ENOENT;
	if (ret > 0) {
		if (!err[0])
			snprintf(err, errlen, "%s: syntax error on line %d", path, ret);
		return -EINVAL;
	}
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int cli_config_list(char names[][64], int max)
{
	DIR *d = opendir(cli_config_dir());
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
	qsort(names, n, 64, cmp_names);
	return n;
}
