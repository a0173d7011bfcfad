// SPDX-License-Identifier: MIT
/*
 * Tasks and events (DESIGN.md §6), from instrument/<pid>.tasks:
 *  - a task item is (domain, name); amdTaskEnd(domain) closes the most recent open task
 *    of that domain on the same thread (a stack per thread per domain);
 *  - a begin never ended, or an end without a begin, is ignored;
 *  - events have no domain (reported under "User"); an event started and never ended is
 *    one instance of 0 duration; an end without a start is ignored;
 *  - a record that falls in a paused interval is dropped before matching, so a task
 *    whose begin or end was paused is unmatched; a task that spans a pause is dropped
 *    too (its time is not what was profiled);
 *  - ELAPSED = sum of (end - begin); CPU_TIME = that thread's kept samples inside
 *    [begin, end] times the interval (inclusive of nested tasks, not of other threads);
 *  - names with a comma are refused (uProf's rule): skipped, counted, warned about;
 *  - a thread name record (__itt_thread_set_name) names its thread in every section,
 *    paused or not; the latest wins; a thread without samples is not listed anyway.
 */
#include "report/internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "instrument/ctlpage.h"

#define EVENT_DOMAIN "User"

bool rpt_tasks_present(const char *dir)
{
	char path[PATH_MAX];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/" SES_TASKS_DIR, dir);
	return !stat(path, &sb) && S_ISDIR(sb.st_mode);
}

int rpt_tasks_note_sample(struct rpt *r, uint32_t tid, uint64_t time)
{
	if (r->nstimes == r->capstimes) {
		size_t cap = r->capstimes ? r->capstimes * 2 : 4096;
		struct rpt_sample_time *g = realloc(r->stimes, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		r->stimes = g;
		r->capstimes = cap;
	}
	r->stimes[r->nstimes++] = (struct rpt_sample_time){ tid, time };
	return 0;
}

static int cmp_stime(const void *a, const void *b)
{
	const struct rpt_sample_time *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/* First sample time entry not less than (tid, t). */
static size_t lower(const struct rpt *r, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = r->nstimes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct rpt_sample_time *m = &r->stimes[mid];

		if (m->tid < tid || (m->tid == tid && m->time < t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t samples_between(const struct rpt *r, uint32_t tid, uint64_t from, uint64_t to)
{
	if (to < from || to == UINT64_MAX)
		return 0;
	return lower(r, tid, to + 1) - lower(r, tid, from);
}

/* ---- names ---- */


/* ---- tallies ---- */

static int item_for(struct rpt *r, const char *domain, const char *name)
{
	uint64_t *slot = rpt_hash_slot(&r->item_index, (uintptr_t)domain, (uintptr_t)name, 0);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (r->nitems == r->capitems) {
			int cap = r->capitems ? r->capitems * 2 : 32;
			struct rpt_task_item *g = realloc(r->items, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			r->items = g;
			r->capitems = cap;
		}
		r->items[r->nitems] = (struct rpt_task_item){ domain, name, 0, 0, 0 };
		*slot = (uint64_t)++r->nitems;
	}
	return (int)(*slot - 1);
}

/* The tally of @item for @owner, made on first sight: its index in r->tstats, or
 * -ENOMEM. An index, not a pointer: the next call may move the array. */
static long stat_for(struct rpt *r, struct rpt_hash *h, uint64_t owner, int item)
{
	uint64_t *slot = rpt_hash_slot(h, owner, (uint64_t)item, 0);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (r->ntstats == r->captstats) {
			size_t cap = r->captstats ? r->captstats * 2 : 64;
			struct rpt_task_stat *g = realloc(r->tstats, cap * sizeof(*g));

			if (!g)
				return -ENOMEM;
			r->tstats = g;
			r->captstats = cap;
		}
		r->tstats[r->ntstats] = (struct rpt_task_stat){ 0, 0, 0 };
		*slot = ++r->ntstats;
	}
	return (long)(*slot - 1);
}

static int add_instance(struct rpt *r, int pid, uint32_t tid, const char *domain,
			const char *name, uint64_t begin, uint64_t end)
{
	uint64_t dur, n;
	struct rpt_task_stat *p, *t;
	int item;
	long pi, ti;

	/* -p / --time-filter: the part of the instance inside them, if any */
	if (end >= begin ? !rpt_filter_clip(r, pid, &begin, &end) : !rpt_filter_keeps(r, pid, begin))
		return 0;
	dur = end >= begin ? end - begin : 0;
	n = end >= begin ? samples_between(r, tid, begin, end) : 0;
	item = item_for(r, domain, name);
	if (item < 0)
		return item;
	pi = stat_for(r, &r->proc_task, (uint32_t)pid, item);
	ti = pi < 0 ? pi : stat_for(r, &r->thread_task, tid, item);
	if (ti < 0)
		return -ENOMEM;
	p = &r->tstats[pi];
	t = &r->tstats[ti];
	r->items[item].count++, p->count++, t->count++;
	r->items[item].elapsed_ns += dur, p->elapsed_ns += dur, t->elapsed_ns += dur;
	r->items[item].samples += n, p->samples += n, t->samples += n;
	r->task_instances++;
	return rpt_stacks_span(r, pid, tid, item, begin, end); /* timeline, task functions */
}

/* ---- matching ---- */

struct open_entry {
	uint64_t time;
	const char *name;
};

struct stack {
	struct open_entry *v;
	size_t n, cap;
	uint32_t tid;
	bool event;
};

struct matcher {
	struct rpt *r;
	int pid;
	struct rpt_hash index; /* (tid, domain or event name, kind) -> stack + 1 */
	struct stack *stacks;
	size_t nstacks, capstacks;
};

static struct stack *stack_for(struct matcher *m, uint32_t tid, const char *key, int kind)
{
	uint64_t *slot = rpt_hash_slot(&m->index, tid, (uintptr_t)key, (uint64_t)kind);

	if (!slot)
		return NULL;
	if (!*slot) {
		if (m->nstacks == m->capstacks) {
			size_t cap = m->capstacks ? m->capstacks * 2 : 16;
			struct stack *g = realloc(m->stacks, cap * sizeof(*g));

			if (!g)
				return NULL;
			m->stacks = g;
			m->capstacks = cap;
		}
		m->stacks[m->nstacks] = (struct stack){ NULL, 0, 0, tid, kind != 0 };
		*slot = ++m->nstacks;
	}
	return &m->stacks[*slot - 1];
}

static int push(struct stack *s, uint64_t time, const char *name)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct open_entry *g;

		if (cap > (1u << 24))
			return -E2BIG; /* a runaway recursion of begins: stop keeping them */
		g = realloc(s->v, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		s->v = g;
		s->cap = cap;
	}
	s->v[s->n++] = (struct open_entry){ time, name };
	return 0;
}

/* Resolve a string id of @t to an interned name; NULL if unknown or refused. Id 0 is
 * the target's "no name": its string table was full. */
static const char *name_of(struct matcher *m, const struct ses_tasks *t, uint32_t id)
{
	const char *s = id ? ses_tasks_string(t, id) : NULL;

	if (!id) {
		m->r->task_unnamed++;
		return NULL;
	}
	if (!s) {
		m->r->task_malformed++;
		return NULL;
	}
	if (strchr(s, ',')) {
		if (!m->r->task_comma++)
			snprintf(m->r->task_comma_name, sizeof(m->r->task_comma_name), "%s", s);
		return NULL;
	}
	return rpt_strpool_intern(&m->r->names, s);
}

static int match_one(struct matcher *m, const struct ses_tasks *t,
		     const struct ses_task_record *rec)
{
	bool event = rec->kind == UPROF_REC_EVENT_START || rec->kind == UPROF_REC_EVENT_END;
	const char *key, *name = NULL, *user;
	struct stack *s;

	if (rec->how & UPROF_FLAG_GAP) {
		/* records of this thread were lost just before: what it has open can no longer
		 * be paired with certainty, so it is dropped, not mismatched */
		for (size_t i = 0; i < m->nstacks; i++)
			if (m->stacks[i].tid == rec->tid)
				m->stacks[i].n = 0;
	}
	if (rec->kind == UPROF_REC_TASK_END) {
		key = name_of(m, t, rec->domain);
	} else {
		key = name_of(m, t, event ? rec->name : rec->domain);
		name = event ? key : name_of(m, t, rec->name);
	}
	if (!key)
		return 0;
	if (!event && !strcmp(key, EVENT_DOMAIN)) {
		m->r->task_malformed++; /* "User" is reserved for events */
		return 0;
	}
	s = stack_for(m, rec->tid, key, event);
	if (!s)
		return -ENOMEM;
	/* a task whose name is refused or unknown (name NULL) stays on the stack, so that
	 * its end closes it and not the task around it */
	if (rec->kind == UPROF_REC_TASK_BEGIN || rec->kind == UPROF_REC_EVENT_START)
		return push(s, rec->time_ns, name) == -ENOMEM ? -ENOMEM : 0;
	if (!s->n)
		return 0; /* an end without a begin */
	s->n--;
	if (!s->v[s->n].name)
		return 0; /* counted when its begin was read */
	if (rpt_paused_within(m->r, s->v[s->n].time, rec->time_ns))
		return 0;
	user = event ? rpt_strpool_intern(&m->r->names, EVENT_DOMAIN) : key;
	if (!user)
		return -ENOMEM;
	return add_instance(m->r, m->pid, rec->tid, user, s->v[s->n].name, s->v[s->n].time,
			    rec->time_ns);
}

/* A thread name record: the sampled thread @rec->tid of this process gets the name. */
static int name_thread(struct rpt *r, const struct ses_tasks *t,
		       const struct ses_task_record *rec)
{
	const char *s = rec->name ? ses_tasks_string(t, rec->name) : NULL;
	uint64_t *slot = rpt_hash_find(&r->world.tid_index, rec->tid, 0, 0);
	struct rpt_thread *th;

	if (!s || !*s) {
		r->task_malformed++;
		return 0;
	}
	if (!slot || !*slot || *slot > (uint64_t)r->world.nthreads)
		return 0; /* no sample: not in the report */
	th = &r->world.threads[*slot - 1];
	if (th->pid != t->pid)
		return 0;
	th->name = rpt_strpool_intern(&r->names, s);
	return th->name ? 0 : -ENOMEM;
}

static int cmp_record(const void *a, const void *b)
{
	const struct ses_task_record *x = a, *y = b;

	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

static int match_file(struct rpt *r, struct ses_tasks *t)
{
	struct matcher m = { .r = r, .pid = t->pid };
	const char *user;
	int ret = 0;

	/* the ring hands records out in claim order; equal threads keep their order */
	if (t->nrecords)
		qsort(t->records, t->nrecords, sizeof(*t->records), cmp_record);
	for (size_t i = 0; i < t->nrecords && !ret; i++) {
		if (t->records[i].kind == UPROF_REC_THREAD_NAME) {
			ret = name_thread(r, t, &t->records[i]);
			continue;
		}
		if (rpt_paused_at(r, t->records[i].time_ns))
			continue;
		ret = match_one(&m, t, &t->records[i]);
	}
	/* events started and never ended: one instance of 0 duration each */
	user = ret ? NULL : rpt_strpool_intern(&r->names, EVENT_DOMAIN);
	for (size_t i = 0; i < m.nstacks; i++) {
		struct stack *s = &m.stacks[i];

		for (size_t k = 0; !ret && s->event && k < s->n; k++)
			ret = user ? add_instance(r, t->pid, s->tid, user, s->v[k].name,
						  s->v[k].time, s->v[k].time)
				   : -ENOMEM;
		free(s->v);
	}
	free(m.stacks);
	rpt_hash_release(&m.index);
	return ret;
}

static int load_file(struct rpt *r, const char *path, char *err, size_t errlen)
{
	struct ses_tasks t;
	char why[256];
	struct stat sb;
	void *map;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size == 0) {
		if (fd >= 0)
			close(fd);
		r->task_malformed++;
		return 0;
	}
	map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -errno;
	ret = ses_tasks_parse(map, sb.st_size, &t, why, sizeof(why));
	munmap(map, sb.st_size);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, why);
		return ret;
	}
	r->task_lost += t.dropped_records;
	r->task_names_dropped += t.dropped_names;
	r->task_records += t.nrecords;
	if (t.damaged_at)
		r->task_malformed++;
	ret = match_file(r, &t);
	ses_tasks_release(&t);
	return ret;
}

int rpt_tasks_load(struct rpt *r, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *e;
	DIR *d;
	int ret = 0;

	if (!rpt_tasks_present(r->dir))
		return 0;
	r->has_tasks = true;
	if (r->nstimes)
		qsort(r->stimes, r->nstimes, sizeof(*r->stimes), cmp_stime);
	snprintf(dir, sizeof(dir), "%s/" SES_TASKS_DIR, r->dir);
	d = opendir(dir);
	if (!d)
		return 0;
	while (!ret && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 7 || strcmp(e->d_name + len - 6, ".tasks"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ret = load_file(r, path, err, errlen);
	}
	closedir(d);
	return ret;
}

void rpt_tasks_release(struct rpt *r)
{
	rpt_strpool_release(&r->names);
	free(r->stimes);
	free(r->items);
	free(r->tstats);
	rpt_hash_release(&r->item_index);
	rpt_hash_release(&r->proc_task);
	rpt_hash_release(&r->thread_task);
}
