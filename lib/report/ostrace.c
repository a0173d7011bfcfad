// SPDX-License-Identifier: MIT
/*
 * A --trace os session's records into lib/ostrace's model, as replay meets them in time
 * order: the tracepoint samples (with the user stack each carries, interned as a report
 * stack but counted nowhere), the tracking event's switch records, and the FORK, EXIT and
 * exec COMM records that bound each thread's lifetime.
 */
#include "report/ostrace.h"
#include "report/stacks.h"
#include "session/input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A formats file is a few KiB per tracepoint: more is not collect's. */
#define FORMATS_MAX_BYTES (1024 * 1024)

int rpt_os_load(struct rpt *r)
{
	struct ost_formats *fm = NULL;
	char why[256], *buf = NULL;
	size_t len = 0;
	int ret;

	if (r->info.foreign)
		return 0;
	ret = ses_file_read_all_at(r->dfd, OST_FORMATS_FILE, FORMATS_MAX_BYTES, &buf, &len, why,
				   sizeof(why));
	if (ret == -ENOENT)
		return 0;
	r->os = calloc(1, sizeof(*r->os));
	fm = malloc(sizeof(*fm));
	if (!r->os || !fm) {
		ret = -ENOMEM;
		goto out;
	}
	if (!ret)
		ret = ost_formats_parse(buf, len, fm, why, sizeof(why));
	if (ret) {
		/* the rest of the report stands without it: said, not fatal */
		snprintf(r->os->note, sizeof(r->os->note),
			 "%s/%s: %s; the OS trace sections are left out", r->dir, OST_FORMATS_FILE,
			 why);
		ret = 0;
		goto out;
	}
	r->os->m = ost_model_new(fm);
	r->os->fm = r->os->m ? fm : NULL;
	if (r->os->m) /* kept: --func's records are named by its functions */
		fm = NULL;
	ret = r->os->m ? 0 : -ENOMEM;
	if (r->os->m && r->opts.funccount_interval_ns)
		ost_model_func_slices(r->os->m,
				      r->info.start_mono_ns > 0 ? (uint64_t)r->info.start_mono_ns
								: 0,
				      r->opts.funccount_interval_ns);
	/* an export draws the states over time (report.html's timeline) */
	if (r->os->m && r->opts.exports)
		ost_model_keep_spans(r->os->m, RPT_OS_SPANS_MAX);
out:
	free(fm);
	free(buf);
	return ret;
}

void rpt_os_free(struct rpt *r)
{
	if (!r->os)
		return;
	ost_model_free(r->os->m);
	free(r->os->fm);
	free(r->os);
	r->os = NULL;
}

bool rpt_os_owns(const struct rpt *r, const struct ses_reader *rd, int attr)
{
	const struct perf_event_attr *a;

	if (!r->os || attr < 0)
		return false;
	a = ses_reader_attr(rd, (size_t)attr);
	return a && a->type == PERF_TYPE_TRACEPOINT;
}

static void saw(struct rpt *r, uint64_t time)
{
	if (time > r->os->last_time)
		r->os->last_time = time;
}

/* A --func probe's record: the function its address is, by the file offset in the
 * mapping of its process that holds it (-1: none of the session's functions). */
static int func_call(struct rpt *r, const struct ost_format *f, const struct ses_sample *s)
{
	const struct rpt_map *map;
	int64_t ip;
	int func = -1;

	if (ost_field_int(&f->fields[f->f_probe_ip], s->raw, s->raw_size, &ip) == 0 &&
	    (map = rpt_world_find_map(&r->world, (int)s->pid, (uint64_t)ip))) {
		const char *path = r->world.modules[map->module].path;
		const char *slash = path ? strrchr(path, '/') : NULL;

		if (path)
			func = ost_formats_func(r->os->fm, slash ? slash + 1 : path,
						(uint64_t)ip - map->start + map->pgoff);
	}
	return ost_model_func_call(r->os->m, s->time, (int)s->pid, (int)s->tid, func);
}

int rpt_os_sample(struct rpt *r, const struct ses_reader *rd, const struct ses_sample *s)
{
	uint32_t stack = OST_NO_STACK;
	const struct ost_format *f;
	int ret;

	if (!r->os->m)
		return 0;
	saw(r, s->time);
	f = ost_formats_find(r->os->fm, ses_reader_attr(rd, (size_t)s->attr_index)->config);
	if (f && f->kind == OST_TP_FUNC)
		return func_call(r, f, s);
	/* the idle task (pid 0) and interrupts have no user stack worth a frame */
	if ((s->ips || s->regs) && s->pid != 0 && s->pid != (uint32_t)-1) {
		struct rpt_thread *t = rpt_world_thread(&r->world, (int)s->pid, (int)s->tid);

		if (!t)
			return -ENOMEM;
		ret = rpt_stacks_user_only(r, rd, s, (uint32_t)(t - r->world.threads), &stack);
		if (ret)
			return ret;
	}
	return ost_model_sample(
		r->os->m, &(struct ost_sample){ s->time, (int)s->pid, (int)s->tid,
						ses_reader_attr(rd, (size_t)s->attr_index)->config,
						s->raw, s->raw_size, stack });
}

int rpt_os_record(struct rpt *r, const struct ses_decoded *d, uint64_t time)
{
	struct ost_model *m = r->os ? r->os->m : NULL;

	if (!m)
		return 0;
	saw(r, time);
	switch (d->type) {
	case PERF_RECORD_SWITCH:
		return ost_model_switch(m, time, (int)d->u.sw.pid, (int)d->u.sw.tid,
					d->misc & PERF_RECORD_MISC_SWITCH_OUT,
					d->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	case PERF_RECORD_FORK:
		return ost_model_begin(m, time, (int)d->u.task.pid, (int)d->u.task.tid);
	case PERF_RECORD_EXIT:
		return ost_model_exit(m, time, (int)d->u.task.pid, (int)d->u.task.tid);
	case PERF_RECORD_COMM: /* an exec: the launched program's main thread begins */
		return d->u.comm.exec
			       ? ost_model_begin(m, time, (int)d->u.comm.pid, (int)d->u.comm.tid)
			       : 0;
	default:
		return 0;
	}
}

void rpt_os_finish(struct rpt *r)
{
	uint64_t end;

	if (!r->os || !r->os->m)
		return;
	end = r->info.end_mono_ns > 0 ? (uint64_t)r->info.end_mono_ns : 0;
	/* an interrupted collect wrote no end: the last record is as far as it is known */
	if (end < r->os->last_time)
		end = r->os->last_time;
	ost_model_finish(r->os->m, end);
}
