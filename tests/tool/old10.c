// SPDX-License-Identifier: MIT
/*
 * A tool built against API 1.0's header (tests/tool/api-1.0/uprof_tool.h, kept as it was
 * released): it must keep loading and running on later 1.x versions. It counts the
 * samples of each event and the processes, threads and modules it is shown.
 */
#include <uprof_tool.h>

#if UPROF_TOOL_API_MINOR != 0
#error "build this against tests/tool/api-1.0"
#endif

static const struct uprof_tool_core *core;
static int64_t samples, processes, threads, modules, with_function;
static int64_t scale;

static int on_process(void *ctx, const struct uprof_tool_process *p)
{
	(void)ctx, (void)p;
	processes++;
	return 0;
}

static int on_thread(void *ctx, const struct uprof_tool_thread *t)
{
	(void)ctx, (void)t;
	threads++;
	return 0;
}

static int on_module(void *ctx, const struct uprof_tool_module *m)
{
	(void)ctx, (void)m;
	modules++;
	return 0;
}

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx;
	if (s->event == 0) {
		samples++;
		with_function += s->function && s->function[0];
	}
	return 0;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
	return core->section(core, "OLD TOOL COUNTS", "SAMPLES,SESSION SAMPLES,PROCESSES,THREADS,MODULES,NAMED") ||
	       core->cell_int(core, samples * scale) || core->cell_int(core, (int64_t)s->samples) ||
	       core->cell_int(core, processes) || core->cell_int(core, threads) ||
	       core->cell_int(core, modules) || core->cell_int(core, with_function) ||
	       core->row_end(core);
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "old10";
	d.version = "1.0-era";
	d.process = on_process;
	d.thread = on_thread;
	d.module = on_module;
	d.sample = on_sample;
	d.session_end = on_end;
	c->knob_int(c, "scale", &scale, 1, "multiply the sample count");
	return c->register_tool(c, &d);
}
