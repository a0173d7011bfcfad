// SPDX-License-Identifier: MIT
/*
 * Report time, in the tool's child: the report model walked (rpt_walk) and handed to the
 * tool's callbacks as the structs of uprof_tool.h, and the core table's output half:
 * sections in report.csv's conventions (quoted, escaped text; numbers with 4 decimals)
 * and files of the tool's own. Each struct is filled whole and stamped with its size, so
 * a tool built against an older minor version reads the prefix it knows.
 */
#include "tool/internal.h"
#include "util/util.h"
#include "job/job.h"
#include "report/report.h"
#include "session/session.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static struct tool_host *host_of(const struct uprof_tool_core *c)
{
	return c ? (struct tool_host *)c->host : NULL;
}

/* ---- output ---- */

static bool one_line(const char *s)
{
	return s && !strchr(s, '\n') && !strchr(s, '\r');
}

static int section(const struct uprof_tool_core *c, const char *title, const char *columns)
{
	struct tool_host *h = host_of(c);

	if (!h || !h->out || !one_line(title) || !*title || !one_line(columns))
		return -EINVAL;
	if (h->row_open)
		fputc('\n', h->out);
	/* the base report's title style: "10 HOTTEST FUNCTIONS (Sort Event - CPU_TIME)" */
	fputs("\n\"", h->out);
	util_put_escaped(h->out, title, UTIL_ESC_CSV);
	fprintf(h->out, " (Tool - %s)\"\n%s\n", h->label ? h->label : h->desc.name, columns);
	h->in_section = true;
	h->row_open = false;
	return ferror(h->out) ? -EIO : 0;
}

/* Before a cell: the comma that separates it from the one before. */
static struct tool_host *cell(const struct uprof_tool_core *c)
{
	struct tool_host *h = host_of(c);

	if (!h || !h->out || !h->in_section)
		return NULL;
	if (h->row_open)
		fputc(',', h->out);
	h->row_open = true;
	return h;
}

static int cell_text(const struct uprof_tool_core *c, const char *text)
{
	struct tool_host *h = cell(c);

	if (!h)
		return -EINVAL;
	util_csv_quoted(h->out, text);
	return ferror(h->out) ? -EIO : 0;
}

static int cell_int(const struct uprof_tool_core *c, int64_t v)
{
	struct tool_host *h = cell(c);

	if (!h)
		return -EINVAL;
	fprintf(h->out, "%" PRId64, v);
	return ferror(h->out) ? -EIO : 0;
}

static int cell_double(const struct uprof_tool_core *c, double v)
{
	struct tool_host *h = cell(c);

	if (!h)
		return -EINVAL;
	fprintf(h->out, "%.4f", v);
	return ferror(h->out) ? -EIO : 0;
}

static int row_end(const struct uprof_tool_core *c)
{
	struct tool_host *h = host_of(c);

	if (!h || !h->out || !h->in_section)
		return -EINVAL;
	fputc('\n', h->out);
	h->row_open = false;
	return ferror(h->out) ? -EIO : 0;
}

/* A plain name: no path, nothing hidden, no way out of the tool's directory. */
static bool plain_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n && n < 256 && s[0] != '.' && !strchr(s, '/');
}

static FILE *open_file(const struct uprof_tool_core *c, const char *name)
{
	struct tool_host *h = host_of(c);
	FILE *f;
	int fd;

	if (!h || (!h->report && !h->job) || !plain_name(name)) {
		errno = EINVAL;
		return NULL;
	}
	if (h->files_dfd < 0) {
		errno = EACCES; /* the session directory would not take a directory for it */
		return NULL;
	}
	/* beneath the tool's directory's fd, 0600 whatever the umask, as every session file */
	fd = util_at_create(h->files_dfd, name, O_WRONLY | O_TRUNC, 0600);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/* ---- lazy look-ups of the sample being called back ---- */

static const struct rpt_walk_sample *current(const struct uprof_tool_core *c,
					     const struct uprof_tool_sample *s)
{
	struct tool_host *h = host_of(c);

	/* only the sample of the running callback: its opaque is the walk's own */
	if (!h || !h->sample || !s || s->opaque != (const void *)h->sample)
		return NULL;
	return h->sample;
}

static int sample_source(const struct uprof_tool_core *c, const struct uprof_tool_sample *s,
			 const char **file, int *line)
{
	const struct rpt_walk_sample *w = current(c, s);

	if (!file || !line)
		return -EINVAL;
	*file = NULL;
	*line = 0;
	if (!w)
		return -EINVAL;
	return rpt_walk_source(host_of(c)->report, w->index, file, line);
}

static int sample_stack(const struct uprof_tool_core *c, const struct uprof_tool_sample *s,
			const char **functions, const char **modules, int max)
{
	const struct rpt_walk_sample *w = current(c, s);

	if (!w || !functions || max <= 0)
		return -EINVAL;
	return rpt_walk_stack(host_of(c)->report, w->index, functions, modules, max);
}

void tool_driver_core(struct uprof_tool_core *c)
{
	c->section = section;
	c->cell_text = cell_text;
	c->cell_int = cell_int;
	c->cell_double = cell_double;
	c->row_end = row_end;
	c->open_file = open_file;
	c->sample_source = sample_source;
	c->sample_stack = sample_stack;
	c->resolve = tool_resolve; /* resolve.c */
}

/* ---- the walk, into the tool's callbacks ---- */

struct drive {
	struct tool_host *h;
	const struct ses_info *info;
	double weight[SES_MAX_EVENTS]; /* what one sample of each event stands for */
	const char *what;	       /* the callback running, for a failure's message */
};

int tool_driver_failed(struct tool_host *h, const char *what, int ret)
{
	snprintf(h->error, sizeof(h->error), "its %s callback failed (%d: %s)", what, ret,
		 strerror(ret < 0 ? -ret : ret));
	return -ECANCELED;
}

static int failed(struct drive *d, const char *what, int ret)
{
	return tool_driver_failed(d->h, what, ret);
}

int tool_driver_session(struct tool_host *h, const struct uprof_tool_session *s,
			int (*body)(struct tool_host *h, void *arg), void *arg)
{
	const struct uprof_tool_desc *t = &h->desc;
	int ret;

	if (t->session_begin && (ret = t->session_begin(t->ctx, s)))
		return tool_driver_failed(h, "session_begin", ret);
	ret = body(h, arg);
	if (ret == -ENOMEM)
		snprintf(h->error, sizeof(h->error), "out of memory");
	if (ret)
		return -ECANCELED;
	if (t->session_end && (ret = t->session_end(t->ctx, s)))
		return tool_driver_failed(h, "session_end", ret);
	if (h->row_open) /* a last row left open ends with its line */
		fputc('\n', h->out);
	return 0;
}

static int on_process(void *ctx, const struct rpt_walk_process *p)
{
	struct drive *d = ctx;
	int ret = d->h->desc.process(
		d->h->desc.ctx,
		&(struct uprof_tool_process){ sizeof(struct uprof_tool_process), p->pid, p->comm,
					      p->program, p->samples,
					      (double)p->samples * d->weight[0] });

	return ret ? failed(d, "process", ret) : 0;
}

static int on_thread(void *ctx, const struct rpt_walk_thread *t)
{
	struct drive *d = ctx;
	int ret = d->h->desc.thread(
		d->h->desc.ctx, &(struct uprof_tool_thread){ sizeof(struct uprof_tool_thread),
							     t->pid, t->tid, t->name, t->samples,
							     (double)t->samples * d->weight[0] });

	return ret ? failed(d, "thread", ret) : 0;
}

static int on_module(void *ctx, const struct rpt_walk_module *m)
{
	struct drive *d = ctx;
	int ret = d->h->desc.module(d->h->desc.ctx,
				    &(struct uprof_tool_module){ sizeof(struct uprof_tool_module),
								 m->id, m->path, m->samples });

	return ret ? failed(d, "module", ret) : 0;
}

/* The tool's view of walked sample @s (its opaque pointer is @s, for the lazy look-ups). */
static struct uprof_tool_sample tool_sample(const struct drive *d, const struct rpt_walk_sample *s)
{
	return (struct uprof_tool_sample){
		.size = sizeof(struct uprof_tool_sample),
		.event = (uint32_t)s->event,
		.time_ns = (int64_t)s->time,
		.pid = s->pid,
		.tid = s->tid,
		.cpu = s->cpu,
		.module_id = s->module,
		.ip = s->ip,
		.offset = s->offset,
		.function = s->function,
		.module = s->module_path,
		.weight_s = s->event < SES_MAX_EVENTS ? (double)s->units * d->weight[s->event] : 0,
		.opaque = s
	};
}

static int on_sample(void *ctx, const struct rpt_walk_sample *s)
{
	struct drive *d = ctx;
	struct uprof_tool_sample ts = tool_sample(d, s);
	int ret;

	d->h->sample = s;
	ret = d->h->desc.sample(d->h->desc.ctx, &ts);
	d->h->sample = NULL;
	return ret ? failed(d, "sample", ret) : 0;
}

static int on_task(void *ctx, const struct rpt_walk_task *t)
{
	struct drive *d = ctx;
	int ret = d->h->desc.task(
		d->h->desc.ctx, &(struct uprof_tool_task){
					sizeof(struct uprof_tool_task), t->pid, t->tid, t->domain,
					t->name, (int64_t)t->begin, (int64_t)t->end, t->samples });

	return ret ? failed(d, "task", ret) : 0;
}

static int on_pause(void *ctx, int64_t from, int64_t to)
{
	struct drive *d = ctx;
	int ret = d->h->desc.pause(
		d->h->desc.ctx,
		&(struct uprof_tool_pause){ sizeof(struct uprof_tool_pause), 0, from, to });

	return ret ? failed(d, "pause", ret) : 0;
}

/* The session's facts, from session.ini and the base report's totals. */
static void session_facts(struct drive *d, const char *dir, struct uprof_tool_session *s,
			  const char **names, uint64_t *periods)
{
	struct rpt_summary sum;
	const struct ses_info *in;

	rpt_summary(d->h->report, &sum);
	in = d->info = sum.info;
	for (int i = 0; i < in->nevents && i < SES_MAX_EVENTS; i++) {
		names[i] = in->events[i].name;
		periods[i] = in->events[i].period;
		/* the timer's period in seconds (times the report's time_scale: a timer that
		 * fell behind stands for more, as in report.csv); any other event's unit
		 * (ses_event_unit: 1 where each sample counts its own period, times the
		 * sample's units in on_sample) */
		d->weight[i] = ses_event_is_timer(&in->events[i])
				       ? (double)ses_event_unit(&in->events[i]) / 1e9 *
						 sum.time_scale
				       : (double)ses_event_unit(&in->events[i]);
	}
	if (!in->nevents)
		d->weight[0] = sum.period_s;
	*s = (struct uprof_tool_session){
		.size = sizeof(*s),
		.dir = dir,
		.config = in->config,
		.command = in->command,
		.target_path = in->target_path,
		.host = in->host,
		.cpu_model = in->cpu_model,
		.kernel = in->kernel,
		.ncpus = in->ncpus,
		.nevents = in->nevents,
		.events = names,
		.periods = periods,
		.start_ns = in->start_mono_ns,
		.end_ns = in->end_mono_ns,
		.period_s = sum.period_s,
		.samples = sum.samples,
		.lost = sum.lost,
		.nprocesses = sum.nprocesses,
		.nthreads = sum.nthreads,
		.cpu_time_s = sum.cpu_time_s,
		.pause_s = sum.pause_s,
		.complete = in->status == SES_STATUS_COMPLETE,
	};
	{
		struct rpt_stack_summary cs;

		rpt_stack_summary(d->h->report, &cs);
		s->call_stacks = cs.collected;
	}
}

_Static_assert((int)UPROF_TOOL_OMP_REGION == (int)RPT_OMP_SLICE_REGION &&
		       (int)UPROF_TOOL_OMP_WAIT == (int)RPT_OMP_SLICE_WAIT &&
		       (int)UPROF_TOOL_OMP_TARGET == (int)RPT_OMP_SLICE_TARGET &&
		       (int)UPROF_TOOL_OMP_DATA == (int)RPT_OMP_SLICE_DATA &&
		       (int)UPROF_TOOL_OMP_SUBMIT == (int)RPT_OMP_SLICE_SUBMIT &&
		       (int)UPROF_TOOL_OMP_DEVICE == (int)RPT_OMP_SLICE_DEVICE,
	       "the tool API's OpenMP slice kinds are the report's");

/* The OpenMP slices (1.2's openmp_region): threads' first, then devices'. */
static int omp_slices(struct drive *d)
{
	const struct uprof_tool_desc *t = &d->h->desc;
	struct rpt_omp_trace_facts f;
	int ret = 0;

	rpt_omp_trace_facts(d->h->report, &f);
	for (size_t i = 0; f.kept && i < f.nthread + f.ndevice && !ret; i++) {
		struct rpt_omp_slice_view v;

		if (i < f.nthread)
			rpt_omp_thread_slice_at(d->h->report, i, &v);
		else
			rpt_omp_device_slice_at(d->h->report, i - f.nthread, &v);
		ret = t->openmp_region(t->ctx, &(struct uprof_tool_omp_slice){
						       .size = sizeof(struct uprof_tool_omp_slice),
						       .kind = (uint32_t)v.kind,
						       .pid = v.pid,
						       .tid = (int)v.tid,
						       .device = v.device,
						       .depth = v.depth,
						       .member = v.member,
						       .begin_ns = (int64_t)v.begin,
						       .end_ns = (int64_t)v.end,
						       .count = v.count,
						       .bytes = v.bytes,
						       .site = v.site ? v.site : "",
						       .what = v.what ? v.what : "" });
		if (ret)
			ret = failed(d, "openmp_region", ret);
	}
	return ret;
}

struct filtering {
	struct drive *d;
	uint8_t *drop;
	size_t n;
};

static int on_filter(void *ctx, const struct rpt_walk_sample *s)
{
	struct filtering *f = ctx;
	struct tool_host *h = f->d->h;
	struct uprof_tool_sample ts;
	int ret;

	if (s->index >= f->n)
		return 0;
	ts = tool_sample(f->d, s);
	h->sample = s;
	ret = h->desc.filter_sample(h->desc.ctx, &ts);
	h->sample = NULL;
	if (ret < 0)
		return failed(f->d, "filter_sample", ret);
	if (ret > 0)
		f->drop[s->index / 8] |= (uint8_t)(1u << (s->index % 8));
	return 0;
}

int tool_driver_filter(struct tool_host *h, uint8_t *drop, size_t n)
{
	const char *names[SES_MAX_EVENTS] = { 0 };
	uint64_t periods[SES_MAX_EVENTS] = { 0 };
	struct drive d = { .h = h };
	struct filtering f = { &d, drop, n };
	struct uprof_tool_session s;
	int ret;

	session_facts(&d, "", &s, names, periods); /* the events' weights */
	ret = rpt_walk(h->report, &(struct rpt_walker){ .ctx = &f, .sample = on_filter });
	if (ret == -ENOMEM)
		snprintf(h->error, sizeof(h->error), "out of memory");
	return ret ? -ECANCELED : 0;
}

/* A rank's session (--trace mpi): the MPI callbacks as over a job of that rank alone.
 * Nothing for a session without MPI data, as for the OS callbacks (a job without any is
 * refused: there the MPI data is all a tool gets). */
static int session_mpi(struct tool_host *h)
{
	struct rpt_job *j;
	int ret, sfd = rpt_dir_fd(h->report);

	if (sfd < 0)
		return 0;
	ret = rpt_job_rank_open(&j, sfd, h->report);
	if (ret)
		return ret;
	ret = rpt_job_mpi_ranks_with_data(j) ? tool_driver_mpi(h, j) : 0;
	rpt_job_free(j);
	return ret;
}

struct session_run {
	struct drive *d;
	struct rpt_walker *w;
};

static int session_body(struct tool_host *h, void *arg)
{
	struct session_run *run = arg;
	const struct uprof_tool_desc *t = &h->desc;
	int ret = rpt_walk(h->report, run->w);

	if (!ret && t->openmp_region)
		ret = omp_slices(run->d);
	if (!ret && (t->os_thread || t->os_syscall))
		ret = tool_driver_os(h); /* driver_os.c */
	if (!ret && tool_driver_wants_mpi(h))
		ret = session_mpi(h);
	return ret;
}

int tool_driver_run(struct tool_host *h, const char *session_dir)
{
	const struct uprof_tool_desc *t = &h->desc;
	const char *names[SES_MAX_EVENTS] = { 0 };
	uint64_t periods[SES_MAX_EVENTS] = { 0 };
	struct drive d = { .h = h };
	struct uprof_tool_session s;
	struct rpt_walker w = {
		.ctx = &d,
		.process = t->process ? on_process : NULL,
		.thread = t->thread ? on_thread : NULL,
		.module = t->module ? on_module : NULL,
		.sample = t->sample ? on_sample : NULL,
		.task = t->task ? on_task : NULL,
		.pause = t->pause ? on_pause : NULL,
	};

	session_facts(&d, session_dir, &s, names, periods);
	return tool_driver_session(h, &s, session_body, &(struct session_run){ &d, &w });
}
