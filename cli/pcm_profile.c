// SPDX-License-Identifier: MIT
/*
 * uprof pcm profile: AMDuProfPcm's profile mode -- one run written every way at once into
 * -O's directory: report-timeseries.csv (the rows per -I interval), report-cumulative.csv
 * (the whole run, as -C writes it), report.json (both, from the values the CSV writer kept)
 * and report.html (the --html page). The counting is pcm's own; only where its output goes
 * differs.
 */
#include "cli/pcm.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const CMD = "pcm profile";

int pcm_profile_prepare(struct pcm_state *st)
{
	if (st->out_path)
		return cli_usage_error(CMD,
				       "profile writes four files (report-timeseries.csv, "
				       "report-cumulative.csv, report.json, report.html): give "
				       "-O <dir>, not -o");
	if (!st->out_dir && !st->dry_run)
		return cli_usage_error(CMD, "give the directory to write the reports in with "
					    "-O <dir>");
	if (st->cumulative)
		return cli_usage_error(CMD, "profile writes the cumulative table beside the "
					    "timeseries already: no -C");
	st->html = !st->dry_run;
	return -1;
}

FILE *pcm_profile_open_cumulative(struct pcm_state *st)
{
	FILE *f = cli_output_fopen_at(st->out_dfd, PCM_PROFILE_CUMULATIVE);

	if (!f)
		cli_error(1, st->profile ? CMD : "pcm", "cannot write '%s/%s': %s", st->out_dir,
			  PCM_PROFILE_CUMULATIVE, strerror(errno));
	else if (st->series && st->series->meta) /* the run's facts first, as the timeseries */
		fwrite(st->series->meta, 1, st->series->meta_len, f);
	return f;
}

int pcm_profile_close_cumulative(struct pcm_state *st, FILE *f, int ret)
{
	bool bad = fflush(f) != 0 || ferror(f);

	bad = fclose(f) != 0 || bad;
	if (bad)
		return cli_error(1, st->profile ? CMD : "pcm", "cannot write '%s/%s': %s",
				 st->out_dir, PCM_PROFILE_CUMULATIVE,
				 strerror(errno ? errno : EIO));
	fprintf(stderr, "Generated data file path: %s/%s\n", st->out_dir, PCM_PROFILE_CUMULATIVE);
	return ret;
}

int pcm_profile_write_json(struct pcm_state *st, int ret)
{
	int err = pcm_json_write(st, PCM_PROFILE_JSON);

	if (err)
		return cli_error(1, CMD, "cannot write '%s/%s': %s", st->out_dir, PCM_PROFILE_JSON,
				 strerror(-err));
	fprintf(stderr, "Generated JSON report path: %s/%s\n", st->out_dir, PCM_PROFILE_JSON);
	return ret;
}
