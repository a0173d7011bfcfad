// SPDX-License-Identifier: MIT
/* libFuzzer target for pcm's cumulative table reader (lib/metric/pcm_table.c, read by
 * uprof pcm compare): whatever parses stays within its limits, names every metric and
 * component, and finds each of its own cells again. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "metric/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mtr_pcm_table t;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];

	if (mtr_pcm_table_parse((const char *)data, size, &t, err, sizeof(err))) {
		assert(err[0]);
		return 0;
	}
	assert(t.ncomps >= 1 && t.ncomps <= MTR_PCM_MAX_COMPS);
	assert(t.nmetrics >= 1 && t.nmetrics <= MTR_PCM_MAX_METRICS);
	for (int m = 0; m < t.nmetrics; m++) {
		assert(t.metric[m][0] && strlen(t.metric[m]) < sizeof(t.metric[m]));
		for (int c = 0; c < t.ncomps; c++) {
			double v;

			assert(t.comp[c][0]);
			assert(!mtr_pcm_table_find(&t, t.metric[m], t.comp[c], &v));
			assert(isnan(v) || isfinite(v));
		}
	}
	return 0;
}
