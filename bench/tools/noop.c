// SPDX-License-Identifier: MIT
/* bench/tool.sh's tool: a sample callback that does nothing, to time what the tool API
 * itself costs per sample (the child, the walk, the callback), and nothing else. */
#include <uprof_tool.h>

static uint64_t n;

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx, (void)s;
	n++; /* the one thing it does: the callback cannot be optimized away */
	return 0;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	d.name = "noop";
	d.sample = on_sample;
	return c->register_tool(c, &d);
}
