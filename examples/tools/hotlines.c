// SPDX-License-Identifier: MIT
/*
 * hotlines: the hottest source lines, overall or per task (uprof-tool(3) example).
 *
 *   cc -shared -fPIC -I<prefix>/include -o hotlines.so hotlines.c
 *   uprof report -i <session> --tool ./hotlines.so,top=20,per-task=1
 *
 * Each sample of the first event is placed on its source line (DWARF, looked up once per
 * address); with per-task=1 it also counts for every task instance open on its thread at
 * its time (inclusive of nested tasks, as report.csv's task CPU_TIME).
 */
#include <uprof_tool.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct line {	/* one (task, file, line, function) with its samples */
	int task;	/* -1: overall */
	const char *file, *function;
	int lineno;
	uint64_t samples;
};

struct inst { int tid, task; int64_t begin, end; };
struct addr { int module; uint64_t offset; const char *file; int line; };

static const struct uprof_tool_core *core;
static int64_t top;
static bool per_task;
static double weight;
static struct line *lines;
static size_t nlines, caplines;
static struct inst *insts;
static size_t ninsts, capinsts;
static char **tasks;	/* "domain:name" of each task item */
static int ntasks;
static struct addr *addrs; /* open-addressing cache of source look-ups */
static size_t capaddrs = 1 << 16, naddrs;

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return p;
	*cap = *cap ? *cap * 2 : 1024;
	return realloc(p, *cap * elem);
}

static size_t *index_; /* open addressing over lines: slot -> line + 1 */
static size_t capindex;

static size_t slot_of(int task, const char *file, int lineno, const char *function)
{
	uint64_t k = ((uint64_t)(uintptr_t)file * 31 + (uint64_t)(uintptr_t)function) * 31 +
		     (uint64_t)lineno * 7 + (uint64_t)(task + 1);

	return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (capindex - 1);
}

static int reindex(void)
{
	free(index_);
	capindex = capindex ? capindex * 2 : 4096;
	if (!(index_ = calloc(capindex, sizeof(*index_))))
		return -ENOMEM;
	for (size_t i = 0; i < nlines; i++) {
		size_t h = slot_of(lines[i].task, lines[i].file, lines[i].lineno, lines[i].function);

		while (index_[h])
			h = (h + 1) & (capindex - 1);
		index_[h] = i + 1;
	}
	return 0;
}

/* Strings from uprof live until session_end: pointers are kept, equal ones are one line
 * (a line in a header inlined into two files may show twice). */
static int count(int task, const char *file, int lineno, const char *function)
{
	size_t h;

	if ((nlines + 1) * 2 > capindex && reindex())
		return -ENOMEM;
	for (h = slot_of(task, file, lineno, function); index_[h]; h = (h + 1) & (capindex - 1)) {
		struct line *l = &lines[index_[h] - 1];

		if (l->task == task && l->lineno == lineno && l->function == function && l->file == file)
			return l->samples++, 0;
	}
	if (!(lines = grow(lines, &caplines, nlines, sizeof(*lines))))
		return -ENOMEM;
	lines[nlines++] = (struct line){ task, file, function, lineno, 1 };
	index_[h] = nlines;
	return 0;
}

static int task_id(const char *domain, const char *name)
{
	size_t len = strlen(domain) + strlen(name) + 2;

	for (int i = 0; i < ntasks; i++)
		if (!strncmp(tasks[i], domain, strlen(domain)) && tasks[i][strlen(domain)] == ':' &&
		    !strcmp(tasks[i] + strlen(domain) + 1, name))
			return i;
	tasks = realloc(tasks, sizeof(*tasks) * (ntasks + 1));
	if (!tasks || !(tasks[ntasks] = malloc(len)))
		return -ENOMEM;
	strcpy(tasks[ntasks], domain);
	strcat(tasks[ntasks], ":");
	strcat(tasks[ntasks], name);
	return ntasks++;
}

static int on_begin(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
	weight = s->period_s > 0 ? s->period_s : 1;
	addrs = calloc(capaddrs, sizeof(*addrs));
	return addrs ? 0 : -ENOMEM;
}

static int on_task(void *ctx, const struct uprof_tool_task *t)
{
	int id;

	(void)ctx;
	if (!per_task)
		return 0;
	id = task_id(t->domain, t->name);
	if (id < 0 || !(insts = grow(insts, &capinsts, ninsts, sizeof(*insts))))
		return -ENOMEM;
	insts[ninsts++] = (struct inst){ t->tid, id, t->begin_ns, t->end_ns };
	return 0;
}

/* The source line of the sample, cached by (module, offset). */
static void source_of(const struct uprof_tool_sample *s, const char **file, int *line)
{
	size_t h = (size_t)((s->offset * 0x9E3779B97F4A7C15ull) ^ (uint64_t)s->module_id) & (capaddrs - 1);

	while (addrs[h].file || addrs[h].line < 0) {
		if (addrs[h].module == s->module_id && addrs[h].offset == s->offset) {
			*file = addrs[h].file ? addrs[h].file : "[unknown]";
			*line = addrs[h].line < 0 ? 0 : addrs[h].line;
			return;
		}
		h = (h + 1) & (capaddrs - 1);
	}
	if (core->sample_source(core, s, file, line)) {
		*file = "[unknown]";
		*line = 0;
	}
	if (naddrs < capaddrs / 2) { /* a full cache just stops caching */
		addrs[h] = (struct addr){ s->module_id, s->offset,
					  strcmp(*file, "[unknown]") ? *file : NULL,
					  strcmp(*file, "[unknown]") ? *line : -1 };
		naddrs++;
	}
}

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	const char *file;
	int line, ret;

	(void)ctx;
	if (s->event != 0)
		return 0;
	source_of(s, &file, &line);
	ret = count(-1, file, line, s->function);
	for (size_t i = 0; i < ninsts && !ret; i++)
		if (insts[i].tid == s->tid && s->time_ns >= insts[i].begin && s->time_ns <= insts[i].end)
			ret = count(insts[i].task, file, line, s->function);
	return ret;
}

static int by_samples(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->lineno != y->lineno)
		return x->lineno < y->lineno ? -1 : 1;
	return strcmp(x->function, y->function);
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	int ret = 0;

	(void)ctx;
	qsort(lines, nlines, sizeof(*lines), by_samples);
	for (int task = -1; task < (per_task ? ntasks : 0) && !ret; task++) {
		char title[512];
		int64_t shown = 0;

		if (task < 0)
			snprintf(title, sizeof(title), "HOTTEST SOURCE LINES");
		else
			snprintf(title, sizeof(title), "HOTTEST SOURCE LINES OF TASK %s", tasks[task]);
		ret = core->section(core, title, "FILE,LINE,FUNCTION,SAMPLES,\"CPU_TIME\" (seconds)");
		for (size_t i = 0; i < nlines && !ret; i++) {
			if (lines[i].task != task || (top > 0 && shown == top))
				continue;
			shown++;
			ret = core->cell_text(core, lines[i].file) ||
			      core->cell_int(core, lines[i].lineno) ||
			      core->cell_text(core, lines[i].function) ||
			      core->cell_int(core, (int64_t)lines[i].samples) ||
			      core->cell_double(core, (double)lines[i].samples * weight) ||
			      core->row_end(core) ? -EIO : 0;
		}
	}
	(void)s;
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "hotlines";
	d.version = "1.0";
	d.description = "hottest source lines, overall and per task";
	d.session_begin = on_begin;
	d.task = on_task;
	d.sample = on_sample;
	d.session_end = on_end;
	c->knob_int(c, "top", &top, 10, "lines per section (0 = all)");
	c->knob_bool(c, "per-task", &per_task, false, "a section per task too");
	return c->register_tool(c, &d);
}
