// SPDX-License-Identifier: MIT
/*
 * The world as the samples saw it, rebuilt from side-band records in time order:
 * processes with their executable mappings, threads with their names, and modules.
 * FORK of a new process copies the parent's mappings (fork without exec runs the same
 * code); COMM with the exec flag starts a fresh address space.
 */
#include "report/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int grow(void **arr, int *cap, int need, size_t elem)
{
	int ncap = *cap ? *cap * 2 : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, (size_t)ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

int rpt_world_init(struct rpt_world *w)
{
	memset(w, 0, sizeof(*w));
	if (rpt_world_module(w, "[kernel.kallsyms]", 17) != RPT_MODULE_KERNEL ||
	    rpt_world_module(w, "[unknown]", 9) != RPT_MODULE_UNKNOWN)
		return -ENOMEM;
	return 0;
}

void rpt_world_release(struct rpt_world *w)
{
	for (int i = 0; i < w->nprocs; i++)
		free(w->procs[i].maps);
	for (int i = 0; i < w->nmodules; i++)
		free(w->modules[i].path);
	free(w->procs);
	free(w->threads);
	free(w->modules);
	rpt_hash_release(&w->pid_index);
	rpt_hash_release(&w->tid_index);
	rpt_hash_release(&w->module_index);
}

struct rpt_process *rpt_world_process(struct rpt_world *w, int pid)
{
	uint64_t *slot = rpt_hash_slot(&w->pid_index, (uint32_t)pid, 0, 0);
	struct rpt_process *p;

	if (!slot)
		return NULL;
	if (*slot)
		return &w->procs[*slot - 1];
	if (grow((void **)&w->procs, &w->capprocs, w->nprocs + 1, sizeof(*w->procs)))
		return NULL;
	p = &w->procs[w->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	/* pid 0 is the CPUs' idle tasks (system-wide sessions), as perf calls them */
	if (pid)
		snprintf(p->comm, sizeof(p->comm), "[%d]", pid);
	else
		snprintf(p->comm, sizeof(p->comm), "swapper");
	*slot = (uint64_t)w->nprocs;
	return p;
}

struct rpt_thread *rpt_world_thread(struct rpt_world *w, int pid, int tid)
{
	uint64_t *slot = rpt_hash_slot(&w->tid_index, (uint32_t)tid, 0, 0);
	struct rpt_process *p;
	struct rpt_thread *t;

	if (!slot)
		return NULL;
	if (*slot)
		return &w->threads[*slot - 1];
	p = rpt_world_process(w, pid);
	if (!p || grow((void **)&w->threads, &w->capthreads, w->nthreads + 1,
		       sizeof(*w->threads)))
		return NULL;
	t = &w->threads[w->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	memcpy(t->comm, p->comm, sizeof(t->comm));
	*slot = (uint64_t)w->nthreads;
	return t;
}

/* FNV-1a over the path: module_index is keyed by (hash, length). Collisions are
 * resolved by comparing the stored paths along a short chain in the third key word. */
static uint64_t fnv(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

int rpt_world_module(struct rpt_world *w, const char *path, size_t len)
{
	uint64_t h = fnv(path, len);

	for (uint64_t chain = 0;; chain++) {
		uint64_t *slot = rpt_hash_slot(&w->module_index, h, len, chain);
		struct rpt_module *m;

		if (!slot)
			return -ENOMEM;
		if (*slot) {
			m = &w->modules[*slot - 1];
			if (!memcmp(m->path, path, len) && !m->path[len])
				return (int)(*slot - 1);
			continue;
		}
		if (grow((void **)&w->modules, &w->capmodules, w->nmodules + 1,
			 sizeof(*w->modules)))
			return -ENOMEM;
		m = &w->modules[w->nmodules];
		m->path = strndup(path, len);
		memset(&m->id, 0, sizeof(m->id));
		m->samples = 0;
		if (!m->path)
			return -ENOMEM;
		*slot = (uint64_t)++w->nmodules;
		return w->nmodules - 1;
	}
}

/* Insert a mapping, cutting away whatever it overlaps (a later mmap wins). */
static int add_map(struct rpt_process *p, struct rpt_map m)
{
	int n = 0;

	for (int i = 0; i < p->nmaps; i++) {
		struct rpt_map *o = &p->maps[i];

		if (o->end <= m.start || o->start >= m.end)
			p->maps[n++] = *o;
	}
	p->nmaps = n;
	if (grow((void **)&p->maps, &p->capmaps, p->nmaps + 1, sizeof(*p->maps)))
		return -ENOMEM;
	p->maps[p->nmaps++] = m;
	return 0;
}

static int copy_maps(struct rpt_process *dst, const struct rpt_process *src)
{
	dst->nmaps = 0;
	if (!src->nmaps)
		return 0; /* a kernel thread forking (system-wide sessions): nothing mapped */
	if (grow((void **)&dst->maps, &dst->capmaps, src->nmaps, sizeof(*dst->maps)))
		return -ENOMEM;
	memcpy(dst->maps, src->maps, sizeof(*src->maps) * src->nmaps);
	dst->nmaps = src->nmaps;
	return 0;
}

/* A NUL-terminated string inside [p, end), or NULL. */
static const char *bounded_str(const unsigned char *p, const unsigned char *end, size_t *len)
{
	const unsigned char *nul;

	if (p >= end)
		return NULL;
	nul = memchr(p, 0, end - p);
	if (!nul)
		return NULL;
	*len = nul - p;
	return (const char *)p;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static int apply_comm(struct rpt_world *w, const struct ses_record *rec)
{
	const unsigned char *d = rec->data, *end = d + rec->size;
	struct rpt_thread *t;
	struct rpt_process *p;
	const char *name;
	size_t len;
	int pid, tid;

	if (rec->size < 8 + 8 + 1)
		return -EINVAL;
	pid = (int)u32_at(d + 8);
	tid = (int)u32_at(d + 12);
	name = bounded_str(d + 16, end, &len);
	if (!name)
		return -EINVAL;
	if (len > 15)
		len = 15;
	p = rpt_world_process(w, pid);
	t = rpt_world_thread(w, pid, tid);
	if (!p || !t)
		return -ENOMEM;
	if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
		p->nmaps = 0; /* a new program: a new address space */
		memcpy(p->comm, name, len);
		p->comm[len] = 0;
	} else if (tid == pid) {
		memcpy(p->comm, name, len);
		p->comm[len] = 0;
	} else {
		/* a thread named like its process (attach: every thread's COMM is synthesized)
		 * is not a renamed one */
		t->renamed = strncmp(name, p->comm, len) || p->comm[len];
	}
	memcpy(t->comm, name, len);
	t->comm[len] = 0;
	return 0;
}

static int apply_fork(struct rpt_world *w, const struct ses_record *rec)
{
	const unsigned char *d = rec->data;
	struct rpt_process *child, *parent;
	struct rpt_thread *t;
	int pid, ppid, tid;

	if (rec->size < 8 + 16)
		return -EINVAL;
	pid = (int)u32_at(d + 8);
	ppid = (int)u32_at(d + 12);
	tid = (int)u32_at(d + 16);
	if (pid != ppid) {
		parent = rpt_world_process(w, ppid);
		child = rpt_world_process(w, pid);
		if (!parent || !child)
			return -ENOMEM;
		parent = rpt_world_process(w, ppid); /* procs may have moved */
		memcpy(child->comm, parent->comm, sizeof(child->comm));
		if (copy_maps(child, parent))
			return -ENOMEM;
	}
	t = rpt_world_thread(w, pid, tid);
	return t ? 0 : -ENOMEM;
}

/* MMAP2's file identity: maj min ino ino_gen, or (MISC_MMAP_BUILD_ID) a size byte, 3
 * pad bytes and 20 bytes of build id. The first mapping of a path names the file. */
static void file_id(struct rpt_module *m, const struct ses_record *rec)
{
	const unsigned char *d = rec->data + 40;

	if (m->id.build_id_len || m->id.ino)
		return;
	if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m->id.build_id_len = d[0] <= 20 ? d[0] : 20;
		memcpy(m->id.build_id, d + 4, m->id.build_id_len);
	} else {
		m->id.maj = u32_at(d);
		m->id.min = u32_at(d + 4);
		m->id.ino = u64_at(d + 8);
	}
}

/* MMAP: pid tid addr len pgoff filename; MMAP2 adds maj min ino ino_gen prot flags
 * (or a build id) before the filename. */
static int apply_mmap(struct rpt_world *w, const struct ses_record *rec)
{
	const unsigned char *d = rec->data, *end = d + rec->size;
	size_t fixed = rec->type == PERF_RECORD_MMAP2 ? 8 + 8 + 24 + 24 + 8 : 8 + 8 + 24;
	struct rpt_process *p;
	struct rpt_map m;
	const char *name;
	size_t len;
	int pid, mod;

	if (rec->misc & PERF_RECORD_MISC_MMAP_DATA)
		return 0; /* data mappings (--call-graph dwarf records them for perf): no code */
	if (rec->size < fixed + 1)
		return -EINVAL;
	pid = (int)u32_at(d + 8);
	m.start = u64_at(d + 16);
	m.end = m.start + u64_at(d + 24);
	m.pgoff = u64_at(d + 32);
	name = bounded_str(d + fixed, end, &len);
	if (!name || m.end <= m.start)
		return -EINVAL;
	mod = rpt_world_module(w, name, len);
	if (mod < 0)
		return mod;
	m.module = mod;
	if (rec->type == PERF_RECORD_MMAP2)
		file_id(&w->modules[mod], rec);
	p = rpt_world_process(w, pid);
	return p ? add_map(p, m) : -ENOMEM;
}

int rpt_world_apply(struct rpt_world *w, const struct ses_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM:
		return apply_comm(w, rec);
	case PERF_RECORD_FORK:
		return apply_fork(w, rec);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return apply_mmap(w, rec);
	default:
		return 0;
	}
}

const struct rpt_map *rpt_world_find_map(struct rpt_world *w, int pid, uint64_t ip)
{
	uint64_t *slot = rpt_hash_find(&w->pid_index, (uint32_t)pid, 0, 0);
	const struct rpt_process *p;

	if (!slot)
		return NULL;
	p = &w->procs[*slot - 1];
	for (int i = p->nmaps - 1; i >= 0; i--)
		if (ip >= p->maps[i].start && ip < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}
