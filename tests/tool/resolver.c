// SPDX-License-Identifier: MIT
/*
 * A tool of API 1.3 (tests/e2e/tool_resolve.sh): core->resolve on addresses it is given.
 * For the first sample of each function of the profiled program it resolves the sample's
 * ip in its process and writes "sampled function,resolved function,module,offset,file,line"
 * (offset in hex), for the test to hold against nm and addr2line of the program; then the
 * answer for an address no mapping holds (address 8) and for a process that never ran.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <uprof_tool.h>

static const struct uprof_tool_core *core;
static const char *target;
static char seen[256][128];
static int nseen, pid;

static int sample(void *ctx, const struct uprof_tool_sample *s)
{
	struct uprof_tool_place p = { .size = sizeof(p) };
	char row[1024];
	int ret;

	(void)ctx;
	if (strcmp(s->module, target) || nseen == 256 || !strcmp(s->function, "[unknown]"))
		return 0;
	for (int i = 0; i < nseen; i++)
		if (!strcmp(seen[i], s->function))
			return 0;
	snprintf(seen[nseen++], sizeof(seen[0]), "%s", s->function);
	pid = s->pid;
	ret = core->resolve(core, s->pid, s->ip, &p);
	if (ret)
		return ret;
	snprintf(row, sizeof(row), "%s,%s,%s,%" PRIx64 ",%s,%d", s->function, p.function, p.module,
		 p.offset, p.file, p.line);
	ret = core->cell_text(core, row);
	return ret ? ret : core->row_end(core);
}

static int begin(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
	target = s->target_path;
	return core->section(core, "RESOLVED", "Row");
}

static int end(void *ctx, const struct uprof_tool_session *s)
{
	struct uprof_tool_place p = { .size = sizeof(p) };
	char row[128];
	int a, b, ret;

	(void)ctx;
	(void)s;
	a = core->resolve(core, pid, 8, &p);
	b = core->resolve(core, 0x7ffffffe, 0x1000, &p);
	snprintf(row, sizeof(row), "unmapped,%d,%d", a, b);
	ret = core->cell_text(core, row);
	return ret ? ret : core->row_end(core);
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc;
	(void)argv;
	if (!UPROF_TOOL_HAS(c, resolve))
		return -ENOTSUP;
	core = c;
	d.name = "resolver";
	d.session_begin = begin;
	d.sample = sample;
	d.session_end = end;
	return c->register_tool(c, &d);
}
