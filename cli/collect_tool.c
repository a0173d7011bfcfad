// SPDX-License-Identifier: MIT
/*
 * collect --tool: each tool is loaded (in a child, as always) and says what it needs from
 * this run: call stacks, which the run takes when the command line did not choose (-g or
 * --call-graph are the user's word), and events, sampled after the config's or -e's.
 * session.ini's [tool.N] records who asked for what.
 */
#include "cli/collect.h"
#include "tool/tool.h"

#include <stdlib.h>
#include <string.h>

static const char *const CMD = "collect";

int collect_tools_apply(struct collect_state *st)
{
	const char *stacks = NULL;
	char err[256];
	int ret;

	if (!st->tools.n)
		return -1;
	st->tool_infos = calloc((size_t)st->tools.n, sizeof(*st->tool_infos));
	if (!st->tool_infos)
		return cli_error(1, CMD, "out of memory");
	ret = cli_tools_probe(&st->tools, true, st->tool_infos, CMD);
	if (ret >= 0)
		return ret;
	for (int i = 0; i < st->tools.n; i++) {
		const struct tool_info *in = &st->tool_infos[i];

		if (in->stacks[0] && (!stacks || !strcmp(in->stacks, "dwarf")))
			stacks = in->stacks; /* dwarf unwinds what fp would, and more */
		for (int e = 0; e < in->nevents; e++) {
			if (st->ntool_events == SES_MAX_EVENTS)
				return cli_error(EXIT_USAGE, CMD,
						 "tool '%s': too many events asked for", in->name);
			st->tool_events[st->ntool_events++] = in->events[e];
		}
	}
	if (stacks && st->cg.mode == PMC_CG_NONE &&
	    pmc_callgraph_parse(stacks, &st->cg, err, sizeof(err)))
		return cli_error(1, CMD, "--tool: call stacks '%s': %s", stacks, err);
	return -1;
}

void collect_tools_info(struct collect_state *st)
{
	struct ses_info *in = &st->info;

	in->ntools = st->tools.n < SES_MAX_TOOLS ? st->tools.n : SES_MAX_TOOLS;
	for (int i = 0; i < in->ntools && st->tool_infos; i++) {
		const struct tool_info *ti = &st->tool_infos[i];
		struct ses_tool *t = &in->tools[i];
		const char *comma = strchr(st->tools.specs[i], ',');
		size_t used = 0;

		snprintf(t->path, sizeof(t->path), "%.*s",
			 comma ? (int)(comma - st->tools.specs[i])
			       : (int)strlen(st->tools.specs[i]),
			 st->tools.specs[i]);
		snprintf(t->name, sizeof(t->name), "%s", ti->name);
		snprintf(t->stacks, sizeof(t->stacks), "%s", ti->stacks);
		for (int e = 0; e < ti->nevents && used < sizeof(t->events); e++)
			used += snprintf(t->events + used, sizeof(t->events) - used, "%s%s",
					 e ? "; " : "", ti->events[e]);
	}
}

void collect_tools_release(struct collect_state *st)
{
	free(st->tool_infos);
	st->tool_infos = NULL;
}
