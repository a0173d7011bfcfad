// SPDX-License-Identifier: MIT
/*
 * uprof translate --export sqlite,pprof: once the session is translated, the databases a
 * later `uprof report --export` would write, written now from the same report (opened as
 * report opens it for these exports, translated.bin just written making it quick), so
 * that a session can be turned into data without a report.csv. The other exports are a
 * report's (they go with its CSV and HTML).
 */
#include "cli/translate_export.h"
#include "export/export.h"
#include "session/session.h"
#include "util/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

int cli_translate_export_parse(bool *want, const char *arg, const char *cmd)
{
	char buf[256], *save = NULL, *tok;

	if (strlen(arg) >= sizeof(buf))
		return cli_error(EXIT_USAGE, cmd, "--export '%.64s...': too long", arg);
	snprintf(buf, sizeof(buf), "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int e = rpt_export_parse(tok);

		if (e != RPT_EXPORT_SQLITE && e != RPT_EXPORT_PPROF)
			return cli_error(EXIT_USAGE, cmd,
					 "--export '%s': translate exports sqlite and pprof "
					 "(uprof report --export writes the others)",
					 tok);
		want[e] = true;
	}
	return -1;
}

bool cli_translate_exporting(const bool *want)
{
	return want[RPT_EXPORT_SQLITE] || want[RPT_EXPORT_PPROF];
}

/* @e of @r into the session directory @dfd, replaced whole or not at all. 0 or -errno. */
static int write_one(struct rpt *r, int dfd, enum rpt_export e)
{
	const char *name = rpt_export_filename(e);
	char tmp[NAME_MAX + 1];
	FILE *f = util_at_replace_fopen(dfd, name, SES_FILE_MODE, tmp, sizeof(tmp));

	if (!f)
		return -errno;
	return util_at_replace_fcommit(dfd, tmp, name, f, rpt_export(r, e, f));
}

int cli_translate_export(const bool *want, const struct rpt_options *opts, int dfd, const char *dir,
			 const char *cmd)
{
	struct rpt_options o = *opts;
	char err[PATH_MAX + 256];
	struct rpt *r = NULL;
	int ret;

	/* as report opens it for --export sqlite,pprof: what exports keep, every sample
	 * walked, no time line (only perfetto and html read it) */
	o.exports = true;
	o.walk = o.omp_slices = true;
	o.no_timeline = true;
	o.retranslate = false;
	o.translate_only = false;
	o.progress = NULL;
	ret = rpt_open_at(&r, dfd, dir, &o, err, sizeof(err));
	if (ret)
		return cli_error(1, cmd, "%s", err);
	for (int e = 0; e < RPT_EXPORT_COUNT; e++) {
		if (!want[e])
			continue;
		ret = write_one(r, dfd, (enum rpt_export)e);
		if (ret) {
			rpt_free(r);
			return cli_error(1, cmd, "writing '%s/%s' failed: %s", dir,
					 rpt_export_filename(e), strerror(-ret));
		}
		printf("Generated %s file: %s/%s\n", rpt_exporter(e)->what, dir,
		       rpt_export_filename(e));
	}
	rpt_free(r);
	return 0;
}
