// SPDX-License-Identifier: MIT
/*
 * "Did you mean": the nearest real name to a word uprof refused, for the tables that live
 * outside an option table (configs in the configs directory, pcm's metric groups, any
 * fixed list). The nearness rule is cli_suggest_word's (cli/options.c): a prefix of three
 * letters or more, or at most a third of the letters edited (Damerau-Levenshtein), so a
 * word far from every name gets no suggestion rather than a bogus one.
 */
#include "cli/cli.h"
#include "cli/options.h"
#include "export/export.h"
#include "metric/metric.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 128

void cli_did_you_mean(const char *const *names, size_t n, const char *word, char *out, size_t len)
{
	const char *near = word ? cli_suggest_word(names, n, word) : NULL;

	if (near && strcmp(near, word))
		snprintf(out, len, " (did you mean %s?)", near);
	else if (len)
		out[0] = 0;
}

void cli_config_near(const char *word, char *out, size_t len)
{
	char names[MAX_NAMES][64];
	const char *ptrs[MAX_NAMES];
	int n = mtr_config_list(cli_config_dir(), names, MAX_NAMES);

	for (int i = 0; i < n; i++)
		ptrs[i] = names[i];
	cli_did_you_mean(ptrs, n > 0 ? (size_t)n : 0, word, out, len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The "<name>.ini" files of @dir into @names from @n on (at most @max); the new count. */
static size_t ini_names(const char *dir, char (*names)[64], size_t n, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return n;
	while (n < max && (e = readdir(d))) {
		size_t l = strlen(e->d_name);

		if (l > 4 && l - 4 < 64 && !strcmp(e->d_name + l - 4, ".ini")) {
			memcpy(names[n], e->d_name, l - 4);
			names[n++][l - 4] = 0;
		}
	}
	closedir(d);
	return n;
}

size_t cli_pcm_group_names(int family, char (*names)[64], size_t max)
{
	char dir[4096];
	size_t n = 0, kept = 0;

	if (max > MAX_NAMES)
		max = MAX_NAMES;
	/* the family's own groups (pcm/0x19/) and the common ones, as pmc_group_path finds */
	if (family >= 0) {
		snprintf(dir, sizeof(dir), "%s/pcm/0x%x", cli_config_dir(), family);
		n = ini_names(dir, names, n, max);
	}
	/* the groups of each Zen generation's own directory (pmc_pcm_group_path) */
	for (int z = 3; z <= 5; z++) {
		snprintf(dir, sizeof(dir), "%s/pcm/zen%d", cli_config_dir(), z);
		n = ini_names(dir, names, n, max);
	}
	snprintf(dir, sizeof(dir), "%s/pcm", cli_config_dir());
	n = ini_names(dir, names, n, max);
	/* sorted, each once (a family's group shadows the common one of its name) */
	qsort(names, n, sizeof(names[0]), by_name);
	for (size_t i = 0; i < n; i++)
		if (!kept || strcmp(names[kept - 1], names[i]))
			memmove(names[kept++], names[i], sizeof(names[0]));
	return kept;
}

void cli_pcm_group_near(int family, const char *word, char *out, size_t len)
{
	char names[MAX_NAMES][64];
	const char *ptrs[MAX_NAMES];
	size_t n = cli_pcm_group_names(family, names, MAX_NAMES);

	for (size_t i = 0; i < n; i++)
		ptrs[i] = names[i];
	cli_did_you_mean(ptrs, n, word, out, len);
}

int cli_export_unknown(const char *cmd, const char *word)
{
	const char *names[RPT_EXPORT_COUNT + 1];
	char list[256] = "", near[96];

	for (int i = 0; i < RPT_EXPORT_COUNT; i++) {
		names[i] = rpt_exporter(i)->name;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s, ", names[i]);
	}
	names[RPT_EXPORT_COUNT] = "all";
	cli_did_you_mean(names, RPT_EXPORT_COUNT + 1, word, near, sizeof(near));
	return cli_error(EXIT_USAGE, cmd, "--export '%s'%s: use %sor all", word, near, list);
}
