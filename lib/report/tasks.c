// SPDX-License-Identifier: MIT
/*
 * Tasks and events (docs/DESIGN.md §6), from instrument/<pid>.tasks. The rules (pairing, pauses,
 * unmatched records, CPU time) are taskmatch.c's pure functions, documented in
 * taskmatch.h; this file reads the files, resolves names and tallies the instances:
 *  - a task item is (domain, name); events are reported under domain "User";
 *  - names with a comma are refused (uProf's rule): skipped, counted, warned about;
 *  - -p / --time-filter keep the part of an instance inside them;
 *  - a thread name record (__itt_thread_set_name) names its thread in every section,
 *    paused or not; the latest wins; a thread without samples is not listed anyway.
 */
#include "report/taskmatch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EVENT_DOMAIN "User"

/* instrument/ is there: a directory, or a symbolic link in its place (refused by
 * rpt_tasks_load, and said). One name beneath the session's fd, not followed. */
bool rpt_tasks_present(const struct rpt *r)
{
	struct stat sb;

	return !fstatat(r->dfd, SES_TASKS_DIR, &sb, AT_SYMLINK_NOFOLLOW) &&
	       (S_ISDIR(sb.st_mode) || S_ISLNK(sb.st_mode));
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

/* ---- tallies ---- */

static int item_for(struct rpt *r, const char *domain, const char *name)
{
	uint64_t *slot = util_hash_slot(&r->item_index, (uintptr_t)domain, (uintptr_t)name, 0);

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
static long stat_for(struct rpt *r, struct util_hash *h, uint64_t owner, int item)
{
	uint64_t *slot = util_hash_slot(h, owner, (uint64_t)item, 0);

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

/*
 * The tallies of one file, by item. A file is one process, and most of its instances are
 * on a few threads, so dense arrays indexed by item stand in for a probe of (pid, item)
 * and (tid, item) in r->proc_task and r->thread_task per instance: with 500k names those
 * tables are tens of MB, and each probe a cache and TLB miss. Threads past the first
 * FILE_THREADS of the file probe the table.
 */
#define FILE_THREADS 4

struct by_item {
	long *stat; /* item -> index in r->tstats, -1 = none yet */
	size_t cap;
};

struct file_tally {
	struct by_item proc;
	struct by_item thread[FILE_THREADS];
	uint32_t tid[FILE_THREADS];
	int nthreads;
};

static void file_tally_release(struct file_tally *ft)
{
	free(ft->proc.stat);
	for (int i = 0; i < ft->nthreads; i++)
		free(ft->thread[i].stat);
}

/* The tally of @item for @owner in @h, through @b's cache; -ENOMEM. */
static long cached_stat(struct rpt *r, struct by_item *b, struct util_hash *h, uint64_t owner,
			int item)
{
	if ((size_t)item >= b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		long *g;

		while (cap <= (size_t)item)
			cap *= 2;
		g = realloc(b->stat, cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		for (size_t i = b->cap; i < cap; i++)
			g[i] = -1;
		b->stat = g;
		b->cap = cap;
	}
	if (b->stat[item] < 0)
		b->stat[item] = stat_for(r, h, owner, item);
	return b->stat[item];
}

static long thread_stat(struct rpt *r, struct file_tally *ft, uint32_t tid, int item)
{
	int i = 0;

	while (i < ft->nthreads && ft->tid[i] != tid)
		i++;
	if (i == ft->nthreads && i < FILE_THREADS)
		ft->tid[ft->nthreads++] = tid;
	if (i == FILE_THREADS)
		return stat_for(r, &r->thread_task, tid, item);
	return cached_stat(r, &ft->thread[i], &r->thread_task, tid, item);
}

/*
 * A name as the matcher sees it while one file is matched: one cell per interned string
 * (so equal names are equal keys, whatever their ids), which also remembers the item it
 * last made with a domain: a file of 500k names then finds each instance's item without
 * a probe of (domain, name) in r->item_index. Cells live until the file is tallied.
 */
struct name_cell {
	const char *str;		  /* interned */
	const struct name_cell *item_key; /* the domain of @item, NULL = none yet */
	int item;
};

#define CELLS_PER_CHUNK 1024
struct cell_chunk {
	struct cell_chunk *next;
	size_t n;
	struct name_cell v[CELLS_PER_CHUNK];
};

/* The item of (@domain, @name), through @name's memory of its last one. */
static int cell_item(struct rpt *r, const struct name_cell *domain, struct name_cell *name)
{
	if (name->item_key != domain) {
		int item = item_for(r, domain->str, name->str);

		if (item < 0)
			return item;
		name->item_key = domain;
		name->item = item;
	}
	return name->item;
}

static int add_instance(struct rpt *r, struct file_tally *ft, int pid, uint32_t tid,
			const struct name_cell *domain, struct name_cell *name, uint64_t begin,
			uint64_t end)
{
	uint64_t dur, n;
	struct rpt_task_stat *p, *t;
	int item;
	long pi, ti;

	/* -p / --time-filter: the part of the instance inside them, if any */
	if (end >= begin ? !rpt_filter_clip(r, pid, &begin, &end)
			 : !rpt_filter_keeps(r, pid, begin))
		return 0;
	dur = end >= begin ? end - begin : 0;
	n = end >= begin ? rpt_tk_samples(r->stimes, r->nstimes, tid, begin, end) : 0;
	item = cell_item(r, domain, name);
	if (item < 0)
		return item;
	pi = cached_stat(r, &ft->proc, &r->proc_task, (uint32_t)pid, item);
	ti = pi < 0 ? pi : thread_stat(r, ft, tid, item);
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

/* ---- names ---- */

/*
 * What each string id of a file resolved to, worked out once per id, not once per record
 * (every record names one or two ids; a file of 4 M records may have 500k names, and a
 * lookup, a comma check and an interning per record were most of report's time). The
 * target numbers its strings from 1, so ids below MEMO_DENSE sit in an array indexed by
 * id; others (a forged file) in a hash.
 */
#define MEMO_DENSE (1u << 21)	    /* 16 MB of pointers at most */
#define MEMO_UNKNOWN ((uintptr_t)1) /* below any pointer the pool hands out */
#define MEMO_COMMA ((uintptr_t)2)

struct resolver {
	struct rpt *r;
	const struct ses_tasks *t;
	uintptr_t *dense; /* id -> its name's cell, MEMO_UNKNOWN, MEMO_COMMA; 0 = not yet */
	size_t ndense;
	struct util_hash sparse; /* the same for ids from MEMO_DENSE up */
	struct util_hash cells;	 /* interned string -> its cell */
	struct cell_chunk *chunks;
};

static void resolver_release(struct resolver *rs)
{
	free(rs->dense);
	util_hash_release(&rs->sparse);
	util_hash_release(&rs->cells);
	while (rs->chunks) {
		struct cell_chunk *next = rs->chunks->next;

		free(rs->chunks);
		rs->chunks = next;
	}
}

/* The one cell of interned string @str (NULL: out of memory before); NULL on OOM. */
static struct name_cell *cell_for(struct resolver *rs, const char *str)
{
	uint64_t *slot = str ? util_hash_slot(&rs->cells, (uintptr_t)str, 0, 0) : NULL;
	struct name_cell *c;

	if (!slot)
		return NULL;
	if (*slot)
		return (struct name_cell *)(uintptr_t)*slot;
	if (!rs->chunks || rs->chunks->n == CELLS_PER_CHUNK) {
		struct cell_chunk *ch = malloc(sizeof(*ch));

		if (!ch)
			return NULL;
		ch->next = rs->chunks;
		ch->n = 0;
		rs->chunks = ch;
	}
	c = &rs->chunks->v[rs->chunks->n++];
	*c = (struct name_cell){ str, NULL, -1 };
	*slot = (uintptr_t)c;
	return c;
}

/* The memo slot of @id, made on first sight (0); NULL on out of memory. */
static uintptr_t *memo_slot(struct resolver *rs, uint32_t id)
{
	if (id >= MEMO_DENSE) {
		_Static_assert(sizeof(uint64_t) >= sizeof(uintptr_t), "a pointer fits a slot");
		return (uintptr_t *)util_hash_slot(&rs->sparse, id, 0, 0);
	}
	if (id >= rs->ndense) {
		size_t n = rs->ndense ? rs->ndense : 256;
		uintptr_t *g;

		while (n <= id)
			n *= 2;
		g = realloc(rs->dense, n * sizeof(*g));
		if (!g)
			return NULL;
		memset(g + rs->ndense, 0, (n - rs->ndense) * sizeof(*g));
		rs->dense = g;
		rs->ndense = n;
	}
	return &rs->dense[id];
}

/* What @id names: its name's cell, MEMO_UNKNOWN or MEMO_COMMA; 0 on out of memory. */
static uintptr_t resolve_id(struct resolver *rs, uint32_t id)
{
	const char *s = ses_tasks_string(rs->t, id);

	if (!s)
		return MEMO_UNKNOWN;
	if (strchr(s, ',')) {
		if (!rs->r->task_comma) /* the first such record's name */
			snprintf(rs->r->task_comma_name, sizeof(rs->r->task_comma_name), "%s", s);
		return MEMO_COMMA;
	}
	return (uintptr_t)cell_for(rs, rpt_strpool_intern(&rs->r->names, s));
}

/* A string id of the file as its name's cell; NULL if unknown or refused (each record
 * counted). Id 0 is the target's "no name": its string table was full. */
static const void *resolve(void *arg, uint32_t id, enum rpt_tk_role role)
{
	struct resolver *rs = arg;
	struct rpt *r = rs->r;
	uintptr_t *memo;

	(void)role;
	if (!id) {
		r->task_unnamed++;
		return NULL;
	}
	memo = memo_slot(rs, id);
	if (memo && !*memo)
		*memo = resolve_id(rs, id);
	if (!memo || !*memo) /* out of memory: refused, as the pool's NULL was before */
		return NULL;
	if (*memo == MEMO_UNKNOWN) {
		r->task_malformed++;
		return NULL;
	}
	if (*memo == MEMO_COMMA) {
		r->task_comma++;
		return NULL;
	}
	return (const void *)*memo;
}

/* A thread name record: the sampled thread @rec->tid of this process gets the name. */
static int name_thread(struct rpt *r, const struct ses_tasks *t, const struct ses_task_record *rec)
{
	const char *s = rec->name ? ses_tasks_string(t, rec->name) : NULL;
	uint64_t *slot = util_hash_find(&r->world.tid_index, rec->tid, 0, 0);
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

static int match_file(struct rpt *r, struct ses_tasks *t)
{
	struct resolver rs = { .r = r, .t = t };
	struct rpt_tk_names names = { resolve, &rs, NULL };
	struct file_tally ft = { 0 };
	struct rpt_tk_result m;
	int ret = 0;

	names.reserved = cell_for(&rs, rpt_strpool_intern(&r->names, EVENT_DOMAIN));
	if (!names.reserved) {
		resolver_release(&rs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nrecords && !ret; i++)
		if (t->records[i].kind == SES_THREAD_NAME)
			ret = name_thread(r, t, &t->records[i]);
	if (!ret)
		ret = rpt_tk_match(t->records, t->nrecords, r->pauses, r->npauses, &names, &m);
	if (ret) {
		resolver_release(&rs);
		return ret;
	}
	/* the reserved domain and names the resolver could not count are malformed records */
	r->task_malformed += m.counts.reserved;
	for (size_t i = 0; i < m.n && !ret; i++) {
		const struct rpt_tk_inst *in = &m.v[i];

		/* the matcher's keys and names are the resolver's cells (borrowed: const) */
		ret = add_instance(r, &ft, t->pid, in->tid, in->event ? names.reserved : in->key,
				   (struct name_cell *)in->name, in->begin, in->end);
	}
	file_tally_release(&ft);
	resolver_release(&rs);
	rpt_tk_result_release(&m);
	return ret;
}

/* instrument/@name could not be used, or only in part: the report says so by name (the
 * first RPT_FILE_NOTES files; all are counted). */
static void note_file(struct rpt *r, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note_file(struct rpt *r, const char *name, const char *fmt, ...)
{
	struct rpt_file_note *n;
	va_list ap;

	r->task_malformed++; /* counted as before: a file that could not be used */
	if (r->nfile_notes++ >= RPT_FILE_NOTES)
		return;
	n = &r->file_notes[r->nfile_notes - 1];
	snprintf(n->file, sizeof(n->file), SES_TASKS_DIR "/%s", name);
	va_start(ap, fmt);
	vsnprintf(n->why, sizeof(n->why), fmt, ap);
	va_end(ap);
}

/*
 * One process's tasks. A file that cannot be used (not a regular file, empty, not a
 * tasks file) costs that process its tasks, not the report: it is skipped and named. A
 * file damaged after its header is read up to the damage, which is named too.
 */
static int load_file(struct rpt *r, int dfd, const char *name)
{
	char why[256];
	struct ses_tasks t;
	const void *map;
	size_t len;
	int ret;

	ret = ses_file_map_at(dfd, name, &map, &len, why, sizeof(why));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		note_file(r, name, "%s; its tasks are not reported", why);
		return 0;
	}
	if (!len) {
		note_file(r, name, "is empty (0 bytes); its tasks are not reported");
		return 0;
	}
	ret = ses_tasks_parse(map, len, &t, why, sizeof(why));
	ses_file_unmap(map, len);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		note_file(r, name, "%s; its tasks are not reported", why);
		return 0;
	}
	r->task_lost += t.dropped_records;
	r->task_names_dropped += t.dropped_names;
	r->task_records += t.nrecords;
	if (t.damaged_at)
		note_file(r, name, "damaged from offset %llu (%s); %zu records before it reported",
			  (unsigned long long)t.damaged_at, t.damage, t.nrecords);
	ret = match_file(r, &t);
	ses_tasks_release(&t);
	return ret;
}

int rpt_tasks_load(struct rpt *r)
{
	struct dirent *e;
	DIR *d = NULL;
	int fd, ret = 0;

	if (r->info.foreign || !rpt_tasks_present(r))
		return 0;
	r->has_tasks = true;
	rpt_tk_sort_samples(r->stimes, r->nstimes);
	/* beneath the session's fd, no symlink followed: another user's session must not
	 * send root's reads elsewhere (docs/DESIGN.md §4) */
	fd = util_at_dir(r->dfd, SES_TASKS_DIR);
	if (fd >= 0 && !(d = fdopendir(fd))) {
		int e = -errno;

		close(fd);
		fd = e;
	}
	if (!d) {
		if (fd == -ENOMEM)
			return -ENOMEM;
		if (fd == -ELOOP)
			note_file(r, "", "is a symbolic link, not followed; no tasks are reported");
		else
			note_file(r, "", "cannot be read (%s); no tasks are reported",
				  strerror(-fd));
		return 0;
	}
	while (!ret && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 7 || strcmp(e->d_name + len - 6, ".tasks"))
			continue;
		ret = load_file(r, dirfd(d), e->d_name);
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
	util_hash_release(&r->item_index);
	util_hash_release(&r->proc_task);
	util_hash_release(&r->thread_task);
}
