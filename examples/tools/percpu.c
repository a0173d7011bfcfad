// SPDX-License-Identifier: MIT
/*
 * percpu: samples and CPU time per CPU (the worked example of uprof-tool(3)).
 *
 *   cc -shared -fPIC -I<prefix>/include -o percpu.so percpu.c
 *   uprof report -i <session> --tool ./percpu.so,cpus=2
 */
#include <uprof_tool.h>

static const struct uprof_tool_core *core;
static int64_t ncpus_shown;
static uint64_t per_cpu[1024];

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx;
	if (s->event == 0 && s->cpu >= 0 && s->cpu < 1024)
		per_cpu[s->cpu]++;
	return 0;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	int ret = core->section(core, "SAMPLES PER CPU", "CPU,SAMPLES,\"CPU_TIME\" (seconds)");

	(void)ctx;
	for (int c = 0; c < 1024 && c < ncpus_shown && !ret; c++)
		ret = core->cell_int(core, c) || core->cell_int(core, (int64_t)per_cpu[c]) ||
		      core->cell_double(core, (double)per_cpu[c] * s->period_s) ||
		      core->row_end(core);
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "percpu";
	d.version = "1.0";
	d.sample = on_sample;
	d.session_end = on_end;
	c->knob_int(c, "cpus", &ncpus_shown, 64, "CPUs shown");
	return c->register_tool(c, &d);
}
