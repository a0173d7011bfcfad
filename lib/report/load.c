// SPDX-License-Identifier: MIT
/*
 * Loading a session: session.ini, then samples.data in time order. Rings of different
 * CPUs are written interleaved, so records are sorted by their time stamp (stable on
 * file order) before side-band records and samples are replayed; a sample is then
 * resolved against the mappings that existed at its time. Samples are only counted per
 * (thread, module, address) here; symbols come after, once per distinct address.
 */
#include "report/internal.h"
#include "arch/arch.h"
#include "report/stacks.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void errf(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void errf(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

struct ordered {
	uint64_t time;
	uint64_t seq;
	struct ses_record rec;
};

static int cmp_ordered(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t record_time(const struct ses_reader *rd, const struct ses_record *rec)
{
	struct ses_sample s;
	struct ses_sample_id id;

	if (rec->type == PERF_RECORD_SAMPLE)
		return ses_reader_sample(rd, rec, &s) ? 0 : s.time;
	if (rec->type >= PERF_RECORD_MAX)
		return 0;
	return ses_reader_sample_id(rd, rec, &id) || !id.valid ? 0 : id.time;
}

static int count_sample(struct rpt *r, const struct ses_reader *rd, const struct ses_record *rec)
{
	struct rpt_thread *t;
	struct ses_sample s;
	uint64_t *slot, addr;
	int module, ev;

	if (ses_reader_sample(rd, rec, &s)) {
		r->unparsable++;
		return 0;
	}
	if (s.pid == (uint32_t)-1 || s.tid == (uint32_t)-1)
		return 0; /* idle / no task: not the target's time */
	if (rpt_paused_at(r, s.time)) {
		r->paused_samples++;
		return 0;
	}
	if (!rpt_filter_keeps(r, (int)s.pid, s.time)) {
		r->filtered_samples++;
		return 0;
	}
	if (s.cpumode == PERF_RECORD_MISC_KERNEL || s.cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		module = RPT_MODULE_KERNEL;
		addr = s.ip;
	} else {
		const struct rpt_map *m = rpt_world_find_map(&r->world, (int)s.pid, s.ip);

		module = m ? m->module : RPT_MODULE_UNKNOWN;
		addr = m ? s.ip - m->start + m->pgoff : s.ip;
	}
	t = rpt_world_thread(&r->world, (int)s.pid, (int)s.tid);
	if (!t)
		return -ENOMEM;
	ev = rpt_events_of_attr(r, rd, s.attr_index);
	if (ev < 0)
		return 0; /* not a sampling event of the session */
	if (ev > 0) /* a further event: a column beside the sort event */
		return rpt_events_count(r, ev, (uint32_t)(t - r->world.threads), module, addr);
	if (r->has_tasks && rpt_tasks_note_sample(r, s.tid, s.time))
		return -ENOMEM;
	slot = rpt_hash_slot(&r->addr_counts, (uint64_t)(t - r->world.threads), (uint64_t)module,
			     addr);
	if (!slot)
		return -ENOMEM;
	(*slot)++;
	r->samples++;
	return rpt_stacks_sample(r, rd, &s, (uint32_t)(t - r->world.threads), module, addr);
}

static int replay(struct rpt *r, const struct ses_reader *rd, struct ordered *ev, size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		const struct ses_record *rec = &ev[i].rec;

		switch (rec->type) {
		case PERF_RECORD_SAMPLE:
			ret = count_sample(r, rd, rec);
			break;
		case PERF_RECORD_LOST:
			if (rec->size >= 24) {
				uint64_t lost;

				memcpy(&lost, (const char *)rec->data + 16, 8);
				r->lost += lost;
			}
			break;
		default:
			ret = rpt_world_apply(&r->world, rec);
			if (ret == -EINVAL) {
				r->unparsable++;
				ret = 0;
			}
		}
	}
	return ret;
}

static int read_samples(struct rpt *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 32], why[256];
	struct ses_reader *rd = NULL;
	struct ordered *ev = NULL, *grown;
	struct ses_record rec;
	size_t n = 0, cap = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, r->dir);
	ret = ses_reader_open_file(&rd, path, why, sizeof(why));
	if (ret) {
		errf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	while ((ret = ses_reader_next(rd, &rec)) == 1) {
		if (rec.type == SES_RECORD_HEADER_ATTR || rec.type == SES_RECORD_FINISHED_ROUND)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			grown = realloc(ev, cap * sizeof(*ev));
			if (!grown) {
				ret = -ENOMEM;
				goto out;
			}
			ev = grown;
		}
		ev[n] = (struct ordered){ record_time(rd, &rec), n, rec };
		n++;
	}
	if (ret < 0)
		goto out;
	r->damaged_at = ses_reader_damage(rd, &r->damage);
	qsort(ev, n, sizeof(*ev), cmp_ordered);
	ret = replay(r, rd, ev, n);
out:
	free(ev);
	ses_reader_free(rd);
	return ret;
}

/* A session whose collector is gone but whose status still says running was killed. */
static void settle_status(struct ses_info *in)
{
	if (in->status != SES_STATUS_RUNNING)
		return;
	if (in->collector_pid <= 0 || kill(in->collector_pid, 0) != 0)
		in->status = SES_STATUS_INTERRUPTED;
}

/* Registers, unwinding rules and address layout are this architecture's (lib/arch): a
 * session of another one is refused, not misread. No arch key: an x86_64 session. */
static int check_arch(const struct rpt *r, char *err, size_t errlen)
{
	const char *arch = r->info.arch[0] ? r->info.arch : ARCH_DEFAULT_NAME;

	if (!strcmp(arch, arch_this.name))
		return 0;
	errf(err, errlen, "%s is a session of %s; this uprof reports %s sessions only", r->dir,
	     arch, arch_this.name);
	return -EPROTO;
}

int rpt_open(struct rpt **out, const char *dir, const struct rpt_options *opts, char *err,
	     size_t errlen)
{
	struct rpt *r;
	char why[256];
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->opts = *opts;
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	ret = ses_info_read(dir, &r->info, why, sizeof(why));
	if (ret) {
		if (ret == -ENOENT)
			errf(err, errlen, "%s is not a uprof session (no session.ini)", dir);
		else
			errf(err, errlen, "%s/session.ini: %s", dir, why);
		goto fail;
	}
	settle_status(&r->info);
	ret = check_arch(r, err, errlen);
	if (!ret)
		ret = rpt_events_init(r, err, errlen);
	if (ret)
		goto fail;
	ret = rpt_pauses_load(r, err, errlen);
	if (ret)
		goto fail;
	r->has_tasks = rpt_tasks_present(dir);
	ret = rpt_world_init(&r->world);
	if (ret)
		goto fail;
	r->symtab = rpt_symtab_new(dir, opts->kallsyms);
	r->stacks = rpt_stacks_new(r);
	if (!r->symtab || !r->stacks) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = read_samples(r, err, errlen);
	if (ret)
		goto fail;
	ret = rpt_aggregate(r);
	if (ret)
		goto fail;
	ret = rpt_tasks_load(r, err, errlen);
	if (!ret)
		ret = rpt_callgraph_build(r);
	if (ret)
		goto fail;
	*out = r;
	return 0;
fail:
	if (ret == -ENOMEM)
		errf(err, errlen, "out of memory");
	rpt_free(r);
	return ret;
}

void rpt_free(struct rpt *r)
{
	if (!r)
		return;
	rpt_events_release(r);
	rpt_world_release(&r->world);
	rpt_symtab_free(r->symtab);
	rpt_stacks_free(r->stacks);
	free(r->funcs);
	rpt_hash_release(&r->addr_counts);
	rpt_hash_release(&r->func_index);
	rpt_hash_release(&r->proc_func);
	rpt_hash_release(&r->proc_module);
	rpt_hash_release(&r->thread_func);
	rpt_hash_release(&r->thread_module);
	rpt_hash_release(&r->module_func);
	rpt_tasks_release(r);
	rpt_hash_release(&r->extra_addr);
	rpt_hash_release(&r->extra);
	free(r->pauses);
	free(r);
}
