// SPDX-License-Identifier: MIT
/* libFuzzer target for pcm's timeseries and run file readers (lib/metric/pcm_series.c, read
 * by uprof pcm hreport): the first byte picks which; whatever parses stays within its limits
 * (each component's columns inside the row, its group a group, the rows kept within the
 * values asked for) and a failure says why. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "metric/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void series(const char *buf, size_t len, size_t max_values)
{
	struct mtr_pcm_series s;
	char err[256];
	int ret = mtr_pcm_series_parse(buf, len, max_values, &s, err, sizeof(err));
	int cols = 0;

	if (ret) {
		assert(ret == -ENODATA || ret == -ENOMEM || err[0]);
		return;
	}
	assert(s.meta_len <= len);
	assert(s.ncols >= 1 && s.ncols <= MTR_PCM_SERIES_MAX_COLS);
	assert(s.ncomps >= 1 && s.ngroups >= 1 && s.ngroups <= s.ncomps);
	for (int k = 0; k < s.ncomps; k++) {
		assert(s.comps[k].first_col == cols && s.comps[k].ncols >= 1);
		assert(s.comps[k].group >= 0 && s.comps[k].group < s.ngroups);
		assert(s.comps[k].label[0] && strlen(s.comps[k].label) < sizeof(s.comps[k].label));
		cols += s.comps[k].ncols;
	}
	assert(cols == s.ncols);
	assert(s.rows <= s.rows_total && (size_t)s.rows * ((size_t)s.ncols + 1) <= max_values);
	for (int r = 0; r < s.rows; r++) {
		assert(s.stamps[r][0] && strlen(s.stamps[r]) < sizeof(s.stamps[r]));
		for (int c = 0; c <= s.ncols; c++) {
			double v = s.vals[(size_t)r * ((size_t)s.ncols + 1) + (size_t)c];

			assert(isnan(v) || isfinite(v));
		}
	}
	mtr_pcm_series_free(&s);
}

static void run_file(const char *buf, size_t len)
{
	struct mtr_pcm_run run;
	char err[256];

	if (mtr_pcm_run_parse(buf, len, &run, err, sizeof(err))) {
		assert(err[0]);
		return;
	}
	assert(run.nargs <= MTR_PCM_RUN_MAX_ARGS && run.nmetrics <= MTR_PCM_RUN_MAX_METRICS);
	for (int i = 0; i < run.nargs; i++)
		assert(run.argv[i]);
	assert(!run.argv || (run.nargs >= 1 && run.argv[0][0] && !run.argv[run.nargs]));
	for (int m = 0; m < run.nmetrics; m++)
		assert(run.metric[m].name[0] && run.metric[m].group[0]);
	mtr_pcm_run_free(&run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		run_file((const char *)data + 1, size - 1);
	else /* a small cap too, so rows past it are counted, not kept */
		series((const char *)data + 1, size - 1, data[0] & 2 ? 64 : 1u << 22);
	return 0;
}
