// SPDX-License-Identifier: MIT
/*
 * timeline: CPU time per thread per interval, as a CSV timeline (uprof-tool(3) example).
 *
 *   cc -shared -fPIC -I<prefix>/include -o timeline.so timeline.c
 *   uprof report -i <session> --tool ./timeline.so,interval=0.5
 *
 * One row per interval from the profile's start, one column per thread (largest first),
 * in report.csv and, with file=1, in <session>/tools/timeline/timeline.csv.
 */
#include <uprof_tool.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 256 /* more threads: the rest are summed in "other threads" */

struct thr {
	int tid;
	char name[96];
	uint64_t total;
	uint64_t *bins;
};

static const struct uprof_tool_core *core;
static double interval;
static bool file;
static int64_t start, nbins;
static double weight;
static struct thr threads[MAX_THREADS + 1]; /* [MAX_THREADS]: other threads */
static int nthreads;

static struct thr *thread_of(int tid)
{
	for (int i = 0; i < nthreads; i++)
		if (threads[i].tid == tid)
			return &threads[i];
	return &threads[MAX_THREADS];
}

static int knobs_checked(void *ctx)
{
	(void)ctx;
	return interval >= 0.001 ? 0 : -EINVAL; /* rows of at least a millisecond */
}

static int on_begin(void *ctx, const struct uprof_tool_session *s)
{
	(void)ctx;
	start = s->start_ns;
	weight = s->period_s > 0 ? s->period_s : 1;
	nbins = (int64_t)((double)(s->end_ns - s->start_ns) / (interval * 1e9)) + 1;
	if (nbins < 1 || nbins > 1000000)
		nbins = 1;
	snprintf(threads[MAX_THREADS].name, sizeof(threads[0].name), "other threads");
	threads[MAX_THREADS].bins = calloc((size_t)nbins, sizeof(uint64_t));
	return threads[MAX_THREADS].bins ? 0 : -ENOMEM;
}

static int on_thread(void *ctx, const struct uprof_tool_thread *t)
{
	(void)ctx;
	if (nthreads == MAX_THREADS)
		return 0;
	threads[nthreads].tid = t->tid;
	snprintf(threads[nthreads].name, sizeof(threads[0].name), "%s", t->name);
	threads[nthreads].bins = calloc((size_t)nbins, sizeof(uint64_t));
	return threads[nthreads++].bins ? 0 : -ENOMEM;
}

static int on_sample(void *ctx, const struct uprof_tool_sample *s)
{
	struct thr *t;
	int64_t bin;

	(void)ctx;
	if (s->event != 0)
		return 0;
	t = thread_of(s->tid);
	bin = (int64_t)((double)(s->time_ns - start) / (interval * 1e9));
	if (bin < 0)
		bin = 0;
	if (bin >= nbins) /* a sample stamped at the very end */
		bin = nbins - 1;
	t->bins[bin]++;
	t->total++;
	return 0;
}

static int by_total(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->tid - y->tid;
}

/* ,"name" with the name's quotes doubled (a thread may name itself anything) */
static size_t put_column(char *buf, size_t len, const char *name)
{
	size_t n = 0;

	if (len < 4)
		return len;
	buf[n++] = ',';
	buf[n++] = '"';
	for (; *name && n + 3 < len; name++) {
		if (*name == '"')
			buf[n++] = '"';
		buf[n++] = *name == '\n' || *name == '\r' ? ' ' : *name;
	}
	buf[n++] = '"';
	buf[n] = 0;
	return n;
}

static int on_end(void *ctx, const struct uprof_tool_session *s)
{
	char cols[65536], title[128];
	size_t used;
	int ret;
	FILE *f = NULL;

	(void)ctx, (void)s;
	qsort(threads, (size_t)nthreads, sizeof(threads[0]), by_total);
	used = (size_t)snprintf(cols, sizeof(cols), "TIME (seconds)");
	for (int i = 0; i <= MAX_THREADS && used < sizeof(cols); i++) {
		struct thr *t = i < nthreads ? &threads[i] : i == MAX_THREADS ? &threads[i] : NULL;

		if (!t || !t->total)
			continue;
		used += put_column(cols + used, sizeof(cols) - used, t->name);
	}
	snprintf(title, sizeof(title), "CPU_TIME PER THREAD EVERY %g SECONDS", interval);
	ret = core->section(core, title, cols);
	if (file && !ret) {
		f = core->open_file(core, "timeline.csv");
		if (!f)
			return -errno;
		fprintf(f, "%s\n", cols);
	}
	for (int64_t b = 0; b < nbins && !ret; b++) {
		ret = core->cell_double(core, (double)b * interval);
		if (f)
			fprintf(f, "%.4f", (double)b * interval);
		for (int i = 0; i <= MAX_THREADS && !ret; i++) {
			struct thr *t = i < nthreads ? &threads[i] : i == MAX_THREADS ? &threads[i] : NULL;

			if (!t || !t->total)
				continue;
			ret = core->cell_double(core, (double)t->bins[b] * weight);
			if (f)
				fprintf(f, ",%.4f", (double)t->bins[b] * weight);
		}
		if (!ret)
			ret = core->row_end(core);
		if (f)
			fputc('\n', f);
	}
	if (f && fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int uprof_tool_entry(const struct uprof_tool_core *c, int argc, char **argv)
{
	static struct uprof_tool_desc d = UPROF_TOOL_DESC_INIT;

	(void)argc, (void)argv;
	core = c;
	d.name = "timeline";
	d.version = "1.0";
	d.description = "CPU time per thread per interval, as a CSV timeline";
	d.session_begin = on_begin;
	d.thread = on_thread;
	d.sample = on_sample;
	d.session_end = on_end;
	d.knobs_checked = knobs_checked;
	c->knob_double(c, "interval", &interval, 1.0, "seconds per row");
	c->knob_bool(c, "file", &file, false, "also write tools/timeline/timeline.csv");
	return c->register_tool(c, &d);
}
