// SPDX-License-Identifier: MIT
/*
 * The world as the samples saw it, rebuilt from side-band records in time order:
 * processes with their executable mappings, threads with their names, and modules.
 * FORK of a new process copies the parent's mappings (fork without exec runs the same
 * code); COMM with the exec flag starts a fresh address space.
 */
#include "report/internal.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	util_hash_release(&w->pid_index);
	util_hash_release(&w->tid_index);
	util_hash_release(&w->module_index);
}

struct rpt_process *rpt_world_process(struct rpt_world *w, int pid)
{
	uint64_t *slot = util_hash_slot(&w->pid_index, (uint32_t)pid, 0, 0);
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
	uint64_t *slot = util_hash_slot(&w->tid_index, (uint32_t)tid, 0, 0);
	struct rpt_process *p;
	struct rpt_thread *t;

	if (!slot)
		return NULL;
	if (*slot)
		return &w->threads[*slot - 1];
	p = rpt_world_process(w, pid);
	if (!p || grow((void **)&w->threads, &w->capthreads, w->nthreads + 1, sizeof(*w->threads)))
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
		uint64_t *slot = util_hash_slot(&w->module_index, h, len, chain);
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

static int apply_comm(struct rpt_world *w, const struct ses_comm *c)
{
	int pid = (int)c->pid, tid = (int)c->tid;
	size_t len = c->comm_len > 15 ? 15 : c->comm_len;
	const char *name = c->comm;
	struct rpt_thread *t;
	struct rpt_process *p;

	p = rpt_world_process(w, pid);
	t = rpt_world_thread(w, pid, tid);
	if (!p || !t)
		return -ENOMEM;
	if (c->exec) {
		p->nmaps = 0; /* a new program: a new address space */
		p->exe = 0;   /* its first mapping names it */
		memcpy(p->comm, name, len);
		p->comm[len] = 0;
		memcpy(p->exec_comm, name, len);
		p->exec_comm[len] = 0;
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

static int apply_fork(struct rpt_world *w, const struct ses_task *f)
{
	int pid = (int)f->pid, ppid = (int)f->ppid, tid = (int)f->tid;
	struct rpt_process *child, *parent;
	struct rpt_thread *t;

	if (pid != ppid) {
		parent = rpt_world_process(w, ppid);
		child = rpt_world_process(w, pid);
		if (!parent || !child)
			return -ENOMEM;
		parent = rpt_world_process(w, ppid); /* procs may have moved */
		memcpy(child->comm, parent->comm, sizeof(child->comm));
		/* fork without exec runs the parent's program */
		memcpy(child->exec_comm, parent->exec_comm, sizeof(child->exec_comm));
		child->exe = parent->exe;
		if (copy_maps(child, parent))
			return -ENOMEM;
	}
	t = rpt_world_thread(w, pid, tid);
	return t ? 0 : -ENOMEM;
}

/* MMAP2's file identity (inode or build id): the first mapping of a path names the file. */
static void file_id(struct rpt_module *mod, const struct ses_mmap *m)
{
	if (mod->id.build_id_len || mod->id.ino)
		return;
	if (m->build_id_form) {
		mod->id.build_id_len = m->build_id_size;
		memcpy(mod->id.build_id, m->build_id, m->build_id_size);
	} else {
		mod->id.maj = m->maj;
		mod->id.min = m->min;
		mod->id.ino = m->ino;
	}
}

/* Does the JIT of @p have a perf map? Looked for once per process, at its first
 * anonymous code mapping (only a regular file counts; perfmap.c checks its owner). */
static bool has_perfmap(struct rpt_process *p)
{
	char path[64];
	struct stat sb;

	if (!p->perfmap)
		p->perfmap = !lstat(rpt_perfmap_path(p->pid, path, sizeof(path)), &sb) &&
					     S_ISREG(sb.st_mode)
				     ? 1
				     : -1;
	return p->perfmap > 0;
}

/* @p mapped its JIT's dump @mm: its JIT code, mapped before or after, is named from the
 * dump. A dump wins over a perf map: the runtime named it in the process's own records,
 * where a perf map is only a file found at a fixed path. */
static int apply_jitdump(struct rpt_world *w, struct rpt_process *p, const struct ses_mmap *mm)
{
	int mod = rpt_world_module(w, mm->filename, mm->filename_len);

	if (mod < 0)
		return mod;
	p->jitdump = mod + 1;
	for (int i = 0; i < p->nmaps; i++) {
		const char *path = w->modules[p->maps[i].module].path;

		if (rpt_perfmap_anon(path) || rpt_perfmap_is_path(path)) {
			p->maps[i].module = mod;
			p->maps[i].pgoff = p->maps[i].start;
		}
	}
	/* the dump's own mapping is no code (nothing runs there): not a map */
	return 0;
}

static int apply_mmap(struct rpt_world *w, const struct ses_mmap *mm)
{
	struct rpt_process *p;
	char jit[64];
	struct rpt_map m;
	int mod;

	m.start = mm->start;
	m.end = mm->start + mm->len;
	m.pgoff = mm->pgoff;
	if (m.end <= m.start)
		return -EINVAL;
	p = rpt_world_process(w, (int)mm->pid);
	if (!p)
		return -ENOMEM;
	if (!memchr(mm->filename, 0, mm->filename_len) &&
	    rpt_jitdump_path_pid(mm->filename, mm->filename_len) == p->pid)
		return apply_jitdump(w, p, mm);
	if (mm->filename_len < sizeof(jit) && !memchr(mm->filename, 0, mm->filename_len)) {
		memcpy(jit, mm->filename, mm->filename_len);
		jit[mm->filename_len] = 0;
	} else {
		jit[0] = 0;
	}
	if (rpt_perfmap_anon(jit) && p->jitdump) {
		/* JIT code named by the dump the process mapped (jitdump.h); addresses are
		 * the process's own, as for a perf map */
		mod = p->jitdump - 1;
		m.pgoff = m.start;
	} else if (rpt_perfmap_anon(jit) && has_perfmap(p)) {
		/* JIT code, named by the process's perf map as perf does: the map is the
		 * module, and its addresses are the process's own (no file offsets) */
		rpt_perfmap_path(p->pid, jit, sizeof(jit));
		mod = rpt_world_module(w, jit, strlen(jit));
		m.pgoff = m.start;
	} else {
		mod = rpt_world_module(w, mm->filename, mm->filename_len);
	}
	if (mod < 0)
		return mod;
	m.module = mod;
	if (mm->mmap2)
		file_id(&w->modules[mod], mm);
	/* the first code an address space maps is its program (exec maps the executable
	 * before the interpreter; a synthesized /proc/PID/maps starts with it too) */
	if (!p->nmaps && !p->exe)
		p->exe = mod + 1;
	return add_map(p, m);
}

int rpt_world_apply(struct rpt_world *w, const struct ses_decoded *d, int decoded)
{
	/* data mappings (--call-graph dwarf records them for perf): no code, whatever else
	 * they hold */
	if ((d->type == PERF_RECORD_MMAP || d->type == PERF_RECORD_MMAP2) &&
	    (d->misc & PERF_RECORD_MISC_MMAP_DATA))
		return 0;
	switch (d->type) {
	case PERF_RECORD_COMM:
		return decoded ? -EINVAL : apply_comm(w, &d->u.comm);
	case PERF_RECORD_FORK:
		return decoded ? -EINVAL : apply_fork(w, &d->u.task);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decoded ? -EINVAL : apply_mmap(w, &d->u.mmap);
	default:
		return 0;
	}
}

const struct rpt_map *rpt_world_find_map(struct rpt_world *w, int pid, uint64_t ip)
{
	uint64_t *slot = util_hash_find(&w->pid_index, (uint32_t)pid, 0, 0);
	const struct rpt_process *p;

	if (!slot)
		return NULL;
	p = &w->procs[*slot - 1];
	for (int i = p->nmaps - 1; i >= 0; i--)
		if (ip >= p->maps[i].start && ip < p->maps[i].end)
			return &p->maps[i];
	return NULL;
}

/* ---- interned names ---- */

const char *rpt_strpool_intern(struct rpt_strpool *p, const char *s)
{
	return util_strmap_intern(&p->map, s);
}

void rpt_strpool_release(struct rpt_strpool *p)
{
	util_strmap_release(&p->map);
}
