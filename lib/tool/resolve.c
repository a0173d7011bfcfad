// SPDX-License-Identifier: MIT
/*
 * The core table's resolve (uprof_tool.h 1.3): an address of a process named from the
 * report's mappings, symbol tables and DWARF (rpt_code_places, the look-up the report's own
 * side-file addresses use). The answer's strings live in the host (one place at a time):
 * the tool is called back on one thread and copies what it keeps.
 */
#include "tool/internal.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

int tool_resolve(const struct uprof_tool_core *c, int pid, uint64_t addr,
		 struct uprof_tool_place *out)
{
	struct tool_host *h = c ? (struct tool_host *)c->host : NULL;
	struct uprof_tool_place p = { 0 };
	size_t size;
	int ret;

	if (!h || !out || out->size < offsetof(struct uprof_tool_place, offset) + sizeof(uint64_t))
		return -EINVAL;
	if (!h->report)
		return h->job ? -ENOTSUP : -EINVAL; /* a job's ranks are sessions of their own */
	size = out->size < sizeof(p) ? out->size : sizeof(p);
	ret = rpt_code_places(h->report, pid, &addr, 1, &h->place);
	if (ret)
		return ret;
	p = (struct uprof_tool_place){ .size = (uint32_t)size,
				       .line = h->place.line,
				       .function = h->place.func,
				       .module = h->place.module,
				       .file = h->place.file,
				       .offset = h->place.offset };
	memcpy(out, &p, size);
	return h->place.mapped ? 0 : -ENOENT;
}
