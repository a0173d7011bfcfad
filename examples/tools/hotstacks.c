// SPDX-License-Identifier: MIT
/*
 * hotstacks: the hottest call stacks (uprof-tool(3) example). It asks collect for call
 * stacks itself, so a session collected with `--tool ./hotstacks.so` has them without -g.
 *
 *   cc -shared -fPIC -I<prefix>/include -o hotstacks.so hotstacks.c
 *   uprof collect --tool ./hotstacks.so -o /tmp/out ./app
 *   uprof report -i /tmp/out/<session> --tool ./hotstacks.so,top=5,depth=6
 *
 * A stack is its function names, leaf first, cut to `depth` frames; equal cut stacks are
 * one row. SAMPLES sum to the report's samples.
 */
#include <uprof_tool.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct stack {
	uint64_t hash, samples;
	int n;
	const char *f[MAX_DEPTH]; /* uprof's strings: they live until session_end */
};

static const struct uprof_tool_core *core;
static int64_t top, depth;
static const char *unwind;
static struct stack *stacks;
static size_t nstacks, capstacks;
static size_t *slots, capslots; /* open addressing: hash -> stack + 1 */
static double weight;

static bool good_unwind(void)
{
	return !strcmp(unwind, "fp") || !strcmp(unwind, "dwarf");
}

/* API 1.1: values checked once all are set (uprof says which tool refused, exit 2) */
static int knobs_checked(void *ctx)
{
	(void)ctx;
	return depth >= 1 && depth <= MAX_DEPTH && good_unwind() ? 0 : -EINVAL;
}

static int on_begin(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
	weight = s->period_s > 0 ? s->period_s : 1;
	capslots = 1 << 16;
	slots = calloc(capslots, sizeof(*slots));
	return slots ? 0 : -ENOMEM;
}

static int rehash(void)
{
	size_t cap = capslots * 2, *g = calloc(cap, sizeof(*g));

	if (!g)
		return -ENOMEM;
	for (size_t i = 0; i < nstacks; i++) {
		size_t h = stacks[i].hash & (cap - 1);

		while (g[h])
			h = (h + 1) & (cap - 1);
		g[h] = i + 1;
	}
	free(slots);
	slots = g;
	capslots = cap;
	return 0;
}

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	const char *f[MAX_DEPTH];
	uint64_t hash = 1469598103934665603ull;
	int n;
	size_t h;

	(void)ctx;
	if (s->event != 0)
		return 0;
	n = core->sample_stack(core, s, f, NULL, (int)depth);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) /* names are interned by uprof: pointers tell them apart */
		hash = (hash ^ (uint64_t)(uintptr_t)f[i]) * 1099511628211ull;
	hash ^= (uint64_t)n;
	if ((nstacks + 1) * 2 > capslots && rehash())
		return -ENOMEM;
	for (h = hash & (capslots - 1); slots[h]; h = (h + 1) & (capslots - 1)) {
		struct stack *st = &stacks[slots[h] - 1];

		if (st->hash == hash && st->n == n && !memcmp(st->f, f, sizeof(f[0]) * n))
			return st->samples++, 0;
	}
	if (nstacks == capstacks) {
		capstacks = capstacks ? capstacks * 2 : 1024;
		stacks = realloc(stacks, capstacks * sizeof(*stacks));
		if (!stacks)
			return -ENOMEM;
	}
	stacks[nstacks] = (struct stack){ .hash = hash, .samples = 1, .n = n };
	memcpy(stacks[nstacks].f, f, sizeof(f[0]) * n);
	slots[h] = ++nstacks;
	return 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct stack *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->n - y->n;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	int ret;

	(void)ctx;
	qsort(stacks, nstacks, sizeof(*stacks), by_samples);
	ret = core->section(core, s->call_stacks ? "HOTTEST CALL STACKS"
						 : "HOTTEST CALL STACKS (no stacks collected: leaf only)",
			    "STACK (leaf first),DEPTH,SAMPLES,\"CPU_TIME\" (seconds)");
	for (size_t i = 0; i < nstacks && !ret && (top <= 0 || (int64_t)i < top); i++) {
		char buf[8192];
		size_t used = 0;

		buf[0] = 0;
		for (int k = 0; k < stacks[i].n && used < sizeof(buf); k++)
			used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s%s", k ? " <- " : "",
						 stacks[i].f[k]);
		ret = core->cell_text(core, buf) || core->cell_int(core, stacks[i].n) ||
		      core->cell_int(core, (int64_t)stacks[i].samples) ||
		      core->cell_double(core, (double)stacks[i].samples * weight) ||
		      core->row_end(core) ? -EIO : 0;
	}
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "hotstacks";
	d.version = "1.0";
	d.description = "hottest call stacks; asks collect for stacks";
	d.session_begin = on_begin;
	d.sample = on_sample;
	d.session_end = on_end;
	d.knobs_checked = knobs_checked;
	c->knob_int(c, "top", &top, 10, "stacks shown (0 = all)");
	c->knob_int(c, "depth", &depth, 8, "frames kept per stack, 1 to 64");
	c->knob_string(c, "unwind", &unwind, "fp", "how collect gets stacks: fp or dwarf");
	/* the knob's value is already the command line's here (a bad one: knobs_checked) */
	if (good_unwind())
		c->collect_want(c, UPROF_TOOL_WANT_STACKS, unwind);
	return c->register_tool(c, &d);
}
