// SPDX-License-Identifier: MIT
/*
 * A sample filter of API 1.2 (tests/e2e/tool_filter.sh): drops every sample whose
 * function is the knob "function"; its sample callback then counts what it is given, in
 * the section "KEPT SAMPLES", which must be the base report's samples.
 */
#include <errno.h>
#include <string.h>
#include <uprof_tool.h>

#include "tool_row.h"

static const struct uprof_tool_core *core;
static const char *function;
static long long seen, dropped_seen;

static int filter(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx;
	return s->function && !strcmp(s->function, function);
}

static int sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx;
	seen += s->event == 0;
	dropped_seen += s->function && !strcmp(s->function, function);
	return 0;
}

static int end(void *ctx, const struct uprof_tool_session *s)
{
	int ret;

	(void)ctx;
	(void)s;
	ret = core->section(core, "KEPT SAMPLES", "Samples,Of The Dropped Function");
	return ret ? ret : tool_row(core, "ii", (int64_t)seen, (int64_t)dropped_seen);
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;
	int ret;

	(void)argc;
	(void)argv;
	core = c;
	d.name = "dropfn";
	d.filter_sample = filter;
	d.sample = sample;
	d.session_end = end;
#ifdef DECLARE_1_1 /* as if built against API 1.1, where the slot was reserved */
	d.api_version = UPROF_TOOL_API_VERSION_OF(1, 1);
#endif
	ret = c->knob_string(c, "function", &function, "main", "the function whose samples go");
	return ret ? ret : c->register_tool(c, &d);
}
