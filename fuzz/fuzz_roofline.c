// SPDX-License-Identifier: MIT
/* libFuzzer target for the roofline file parser (lib/metric/roofline.c, read by
 * uprof pcm roofline -i): whatever parses is written back and must parse again to the
 * same point. */
#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "metric/metric.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct mtr_roofline r, back;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mtr_rl_point p, q;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (mtr_rl_parse((const char *)data, size, &r, err, sizeof(err)))
		return 0;
	mtr_rl_point(&r, &p);
	f = open_memstream(&text, &len);
	if (!f)
		return 0;
	mtr_rl_write(&r, f);
	fclose(f);
	assert(!mtr_rl_parse(text, len, &back, err, sizeof(err)));
	mtr_rl_point(&back, &q);
	assert(p.placed == q.placed);
	assert(!p.placed || (p.flops == q.flops && p.dram_bytes == q.dram_bytes));
	free(text);
	return 0;
}
