// SPDX-License-Identifier: MIT
/*
 * A tool that asks collect for what its knobs say (tests/e2e/tool.sh): an event
 * (event=<-e spec>) and call stacks (stacks=fp|dwarf); at report time it counts the
 * samples of each event it is shown.
 */
#include <uprof_tool.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct uprof_tool_core *core;
static const char *event, *stacks;
static int64_t counts[16];

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	(void)ctx;
	if (s->event < 16)
		counts[s->event]++;
	return 0;
}

/* Its own files stay in its own directory: no path, nothing hidden, no way up. */
static int files(void)
{
	static const char *const refused[] = { "../escape", "/tmp/escape", "a/b", ".hidden", "..", "" };
	FILE *f;

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		errno = 0;
		f = core->open_file(core, refused[i]);
		if (f || errno != EINVAL)
			return -EPERM;
	}
	f = core->open_file(core, "counts.txt");
	if (!f)
		return -errno;
	fprintf(f, "%lld\n", (long long)counts[0]);
	return fclose(f) ? -errno : 0;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	int ret = files();

	(void)ctx;
	if (!ret)
		ret = core->section(core, "SAMPLES PER EVENT", "EVENT,INTERVAL,SAMPLES");
	for (int e = 0; e < s->nevents && e < 16 && !ret; e++)
		ret = core->cell_text(core, s->events[e]) ||
		      core->cell_int(core, (int64_t)s->periods[e]) ||
		      core->cell_int(core, counts[e]) || core->row_end(core);
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "wants";
	d.sample = on_sample;
	d.session_end = on_end;
	c->knob_string(c, "event", &event, "", "an event to ask collect for");
	c->knob_string(c, "stacks", &stacks, "", "fp or dwarf: call stacks to ask for");
	if (event[0] && c->collect_want(c, UPROF_TOOL_WANT_EVENT, event))
		return -22;
	if (stacks[0] && c->collect_want(c, UPROF_TOOL_WANT_STACKS, stacks))
		return -22;
	/* reserved in API 1.x: no OpenMP or MPI trace to ask for yet */
	if (c->collect_want(c, UPROF_TOOL_WANT_OPENMP, NULL) != -95)
		return -71;
	return c->register_tool(c, &d);
}
