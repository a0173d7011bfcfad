// SPDX-License-Identifier: MIT
/*
 * The OpenMP model (openmp.h): openmp/<pid>.ompt files read as untrusted input (through
 * lib/session's bounded parser), sites named from their code address with libdw (the
 * function by rpt_inlines_function, the line by openmp_source.c), and timer samples
 * labelled with the region their thread was in.
 */
#include "report/internal.h"
#include "symbols/symbols.h"
#include "openmp/openmp.h"
#include "report/taskmatch.h"
#include "report/openmp_state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NEST 64
#define MAX_SITE_THREADS 1024 /* the tool keeps 256 */

static void note(struct rpt *r, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void note(struct rpt *r, const char *name, const char *fmt, ...)
{
	struct rpt_file_note *n;
	va_list ap;

	r->omp->files_bad++;
	if (r->nfile_notes++ >= RPT_FILE_NOTES)
		return;
	n = &r->file_notes[r->nfile_notes - 1];
	snprintf(n->file, sizeof(n->file), SES_OMPT_DIR "/%s", name);
	va_start(ap, fmt);
	vsnprintf(n->why, sizeof(n->why), fmt, ap);
	va_end(ap);
}

/* The thread @slot of @s, made on first sight (with @p: through its index; without: by
 * a scan, for the few threads of a site being merged); NULL with *@full set past
 * MAX_SITE_THREADS, else out of memory. */
static struct rpt_omp_tstat *tstat_for(struct rpt_omp_proc *p, struct rpt_omp_site *s,
				       uint32_t slot, uint32_t tid, bool *full)
{
	uint64_t *h;

	*full = false;
	if (p) {
		h = util_hash_find(&p->index, 2, s->id, slot);
		if (h)
			return &s->threads[*h - 1];
	} else {
		for (int i = 0; i < s->nthreads; i++)
			if (s->threads[i].slot == slot)
				return &s->threads[i];
	}
	if (s->nthreads >= MAX_SITE_THREADS) {
		*full = true;
		return NULL;
	}
	if (s->nthreads == s->capthreads) {
		int cap = s->capthreads ? s->capthreads * 2 : 4;
		struct rpt_omp_tstat *g = realloc(s->threads, sizeof(*g) * (size_t)cap);

		if (!g)
			return NULL;
		s->threads = g;
		s->capthreads = cap;
	}
	memset(&s->threads[s->nthreads], 0, sizeof(s->threads[0]));
	s->threads[s->nthreads].slot = slot;
	s->threads[s->nthreads].tid = tid;
	/* one slot at a time: making a slot may move the table's others */
	if (p) {
		if (!(h = util_hash_slot(&p->index, 2, s->id, slot)))
			return NULL;
		*h = (uint64_t)s->nthreads + 1;
		if (!(h = util_hash_slot(&p->index, 3, s->id, tid)))
			return NULL;
		if (!*h)
			*h = (uint64_t)s->nthreads + 1;
	}
	return &s->threads[s->nthreads++];
}

/* The process-wide and per-thread fields (site 0), and the (site, thread) ones. */
static int take_values(struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	/* per thread: life, time in regions, type; kept by slot until all are seen */
	struct {
		uint32_t slot;
		uint64_t life, in, type;
	} th[256];
	int nth = 0;

	for (size_t i = 0; i < o->nvalues; i++) {
		const struct ses_ompt_record *v = &o->values[i];

		if (v->site == 0 && v->slot == 0) {
			if (v->how == SES_OMPT_F_CALLBACKS)
				p->callbacks = v->value;
			else if (v->how == SES_OMPT_F_LOST_THREADS)
				p->lost_threads = v->value;
			else if (v->how == SES_OMPT_F_LOST_SITES)
				p->lost_sites = v->value;
			else if (v->how == SES_OMPT_F_LOST_RECORDS)
				p->lost_records = v->value;
		} else if (v->site == 0) {
			int k = 0;

			while (k < nth && th[k].slot != v->slot)
				k++;
			if (k == nth) {
				if (nth == 256)
					continue; /* more than the tool keeps: a forged file */
				th[nth++] = (typeof(th[0])){ v->slot, 0, 0, 0 };
			}
			if (v->how == SES_OMPT_F_THREAD_LIFE)
				th[k].life = v->value;
			else if (v->how == SES_OMPT_F_THREAD_IN)
				th[k].in = v->value;
			else if (v->how == SES_OMPT_F_THREAD_TYPE)
				th[k].type = v->value;
		} else {
			bool full;
			struct rpt_omp_site *s = rpt_omp_site_for(p, v->site, &full);
			struct rpt_omp_tstat *t = s ? tstat_for(p, s, v->slot, v->tid, &full)
						    : NULL;

			if (!t && full) {
				p->ignored++;
				continue;
			}
			if (!t)
				return -ENOMEM;
			t->f[v->how] = v->value;
			if (v->how == SES_OMPT_F_TEAM_INDEX)
				t->team_index = (uint32_t)v->value;
		}
	}
	p->nthreads = nth;
	for (int k = 0; k < nth; k++) {
		uint64_t in = th[k].in < th[k].life ? th[k].in : th[k].life;

		p->thread_life += th[k].life;
		p->thread_in += in;
		if (th[k].type == 1) /* the initial thread: outside regions it runs the program */
			p->initial_in += in;
		else
			p->idle_ns += th[k].life - in;
	}
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct ses_ompt_record *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return 0;
}

static void add_samples(struct rpt_omp_proc *p, uint32_t tid, uint32_t site, uint64_t n)
{
	uint64_t *hs = util_hash_find(&p->index, 1, site, 0);
	uint64_t *ht = util_hash_find(&p->index, 3, site, tid);
	struct rpt_omp_site *s;

	if (!hs)
		return;
	s = &p->sites[*hs - 1];
	s->samples += n;
	if (ht)
		s->threads[*ht - 1].samples += n;
}

/* Timer samples inside each implicit task: BEGIN/END paired per thread by depth; those in
 * a task nested in it on the thread are the nested region's only (openmp.h). */
static int label(struct rpt *r, struct rpt_omp_proc *p, const struct ses_ompt *o)
{
	struct ses_ompt_record *ev, stack[MAX_NEST];
	uint64_t inner[MAX_NEST]; /* samples of the tasks nested in each, on the thread */
	size_t n = 0;
	int depth = 0;
	uint32_t tid = 0;

	ev = malloc(sizeof(*ev) * (o->nevents ? o->nevents : 1));
	if (!ev)
		return -ENOMEM;
	for (size_t i = 0; i < o->nevents; i++)
		if (o->events[i].kind == SES_OMPT_BEGIN || o->events[i].kind == SES_OMPT_END)
			ev[n++] = o->events[i];
	util_qsort(ev, n, sizeof(*ev), cmp_event);
	for (size_t i = 0; i < n; i++) {
		const struct ses_ompt_record *e = &ev[i];

		if (e->tid != tid) {
			p->unpaired += (uint64_t)depth;
			depth = 0;
			tid = e->tid;
		}
		if (e->kind == SES_OMPT_BEGIN) {
			if (depth < MAX_NEST && e->how == depth) {
				inner[depth] = 0;
				stack[depth++] = *e;
			} else
				p->unpaired++;
			continue;
		}
		if (depth > 0 && stack[depth - 1].how == e->how &&
		    stack[depth - 1].site == e->site) {
			const struct ses_ompt_record *b = &stack[--depth];
			uint64_t n = 0;

			if (r->stimes && e->value >= b->value)
				n = rpt_tk_samples(r->stimes, r->nstimes, e->tid, b->value,
						   e->value);
			add_samples(p, e->tid, e->site, n > inner[depth] ? n - inner[depth] : 0);
			if (depth > 0)
				inner[depth - 1] += n;
		} else {
			p->unpaired++;
		}
	}
	p->unpaired += (uint64_t)depth;
	free(ev);
	return 0;
}

static const char *construct(const struct rpt_omp_site *s)
{
	switch (s->kind) {
	case SES_OMPT_SITE_PARALLEL:
		if (s->teams)
			return "teams";
		if (s->gomp_sections)
			return "parallel_sections";
		return s->f[SES_OMPT_F_LOOPS] ? "parallel_for" : "parallel";
	case SES_OMPT_SITE_LOCK:
		return "lock";
	case SES_OMPT_SITE_NEST_LOCK:
		return "nest_lock";
	case SES_OMPT_SITE_CRITICAL:
		return "critical";
	case SES_OMPT_SITE_ORDERED:
		return "ordered";
	case SES_OMPT_SITE_ATOMIC:
		return "atomic";
	case SES_OMPT_SITE_TARGET:
		return "target";
	case SES_OMPT_SITE_LOOP:
		return "for";
	case SES_OMPT_SITE_TASKLOOP:
		return "taskloop";
	default:
		return "region";
	}
}

/* func, file and line of each site: the code before its return address (the call into
 * the runtime, on the pragma's line), named after the function the source has it in
 * (rpt_inlines_function). */
static void locate(struct rpt *r, struct rpt_inlines *il, struct rpt_omp_proc *p,
		   struct rpt_omp_site *s)
{
	char src[PATH_MAX] = "";
	const char *base, *fn = NULL;
	const struct rpt_map *m = s->code > 1 ? rpt_world_find_map(&r->world, p->pid, s->code - 1)
					      : NULL;
	struct rpt_module *mod;
	struct rpt_sym sym;
	uint64_t off;

	s->line_exact = false;
	snprintf(s->func, sizeof(s->func), "unknown");
	snprintf(s->file, sizeof(s->file), "unknown");
	if (!m)
		return;
	mod = &r->world.modules[m->module];
	off = s->code - 1 - m->start + m->pgoff;
	rpt_symtab_lookup(r->symtab, mod->path, &mod->id, off, &sym);
	snprintf(s->func, sizeof(s->func), "%s", sym.name);
	rpt_omp_source_locate(mod->path, off, s, src, sizeof(src));
	if (il && !rpt_inlines_function(il, mod->path, off, s->line ? src : NULL, s->line, &fn))
		snprintf(s->func, sizeof(s->func), "%s", fn);
	else
		rpt_omp_unoutline(s->func, sizeof(s->func));
	base = strrchr(src, '/');
	snprintf(s->file, sizeof(s->file), "%s", s->line ? (base ? base + 1 : src) : "unknown");
	for (char *c = s->func; *c; c++)
		if (*c == '"' || *c == ',')
			*c = ' '; /* CSV cells */
}

static int cmp_site(const void *a, const void *b)
{
	const struct rpt_omp_site *x = a, *y = b;
	int c = strcmp(x->func, y->func);

	if (c)
		return c;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->outlined != y->outlined)
		return x->outlined < y->outlined ? -1 : 1;
	/* a "target data" region's begin (enter) before its end (exit), on its one line */
	if (x->tgt && y->tgt && x->tgt->kind != y->tgt->kind)
		return x->tgt->kind < y->tgt->kind ? -1 : 1;
	return x->code < y->code ? -1 : x->code > y->code;
}

/* Sum each site's threads, name it: <func>$omp$<construct>:<n>@<file>:<line>, n the
 * site's place among its function's sites of that construct, by line. */
static bool max_field(int f)
{
	return f == SES_OMPT_F_LOOP_KIND || f == SES_OMPT_F_TEAM_INDEX ||
	       f == SES_OMPT_F_NEST_LEVEL || f == SES_OMPT_F_LOOP_REGION ||
	       f == SES_OMPT_F_TEAM_MAX || f == SES_OMPT_F_ENCLOSED;
}

static bool bits_field(int f)
{
	return f == SES_OMPT_F_WS_SCHEDS || f == SES_OMPT_F_LOOP_SCHEDS;
}

static void add_fields(uint64_t *to, const uint64_t *from)
{
	uint64_t lo = to[SES_OMPT_F_TEAM_MIN], from_lo = from[SES_OMPT_F_TEAM_MIN];

	for (int f = 0; f < SES_OMPT_F_MAX; f++)
		to[f] = bits_field(f)  ? to[f] | from[f]
			: max_field(f) ? (from[f] > to[f] ? from[f] : to[f])
				       : to[f] + from[f];
	/* the smallest team either saw (0: none seen) */
	to[SES_OMPT_F_TEAM_MIN] = !lo ? from_lo : !from_lo || lo < from_lo ? lo : from_lo;
}

/* Fold site @b into @a (one construct at several code addresses: a loop the compiler
 * unrolled, a function inlined twice). 0 or -ENOMEM. */
static int merge_site(struct rpt_omp_site *a, struct rpt_omp_site *b)
{
	for (int k = 0; k < b->nthreads; k++) {
		struct rpt_omp_tstat *from = &b->threads[k];
		bool full;
		struct rpt_omp_tstat *to = tstat_for(NULL, a, from->slot, from->tid, &full);

		if (!to && full)
			continue; /* past MAX_SITE_THREADS: a forged file */
		if (!to)
			return -ENOMEM;
		add_fields(to->f, from->f);
		rpt_omp_waits_add(to, from);
		to->samples += from->samples;
		to->team_index = to->f[SES_OMPT_F_TEAM_INDEX];
	}
	a->samples += b->samples;
	if (rpt_omp_target_merge(a, b) || rpt_omp_hot_merge(a, b))
		return -ENOMEM;
	free(b->threads);
	b->threads = NULL;
	b->nthreads = 0;
	return 0;
}

/* Are @a and @b one construct at two code addresses (a function inlined twice, a loop
 * unrolled)? Only when the line table puts both on the same pragma: a line looked back to
 * or forward from is a guess, and two guesses landing on one line are two constructs'
 * sites, each its own row. */
static bool same_place(const struct rpt_omp_site *a, const struct rpt_omp_site *b)
{
	if (a->outlined || b->outlined) /* gcc's: the function outlined is the construct */
		return a->outlined == b->outlined && a->kind == b->kind &&
		       !strcmp(a->func, b->func) && !strcmp(a->file, b->file);
	return a->line_exact && b->line_exact && a->line > 0 && a->line == b->line &&
	       a->kind == b->kind && !strcmp(a->func, b->func) && !strcmp(a->file, b->file);
}

/* Name each site <func>$omp$<construct>:<n>@<file>:<line>, n its place among its
 * function's sites of that construct, by line; sites of one source place are one. */
static int name_sites(struct rpt *r, struct rpt_omp_proc *p)
{
	/* NULL (no memory): sites named from the symbol tables alone */
	struct rpt_inlines *il = rpt_inlines_new(r->locator);
	int n = 0, ret = -ENOMEM;

	for (int i = 0; i < p->nsites; i++)
		locate(r, il, p, &p->sites[i]);
	rpt_omp_gomp_leagues(r, p);
	util_qsort(p->sites, (size_t)p->nsites, sizeof(*p->sites), cmp_site);
	for (int i = 0; i < p->nsites; i++) {
		if (n && same_place(&p->sites[n - 1], &p->sites[i])) {
			if (merge_site(&p->sites[n - 1], &p->sites[i]) ||
			    rpt_omp_site_alias(p, p->sites[i].id, p->sites[n - 1].id) ||
			    rpt_omp_trace_merged(r, p->pid, p->sites[i].id, p->sites[n - 1].id))
				goto out;
			continue;
		}
		p->sites[n++] = p->sites[i];
	}
	p->nsites = n;
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];

		memset(s->f, 0, sizeof(s->f));
		for (int k = 0; k < s->nthreads; k++)
			add_fields(s->f, s->threads[k].f);
	}
	rpt_omp_gomp_sections(p);
	for (int i = 0; i < p->nsites; i++) {
		struct rpt_omp_site *s = &p->sites[i];
		int k = 1;

		for (int j = 0; j < i; j++)
			k += !strcmp(p->sites[j].func, s->func) && p->sites[j].kind == s->kind &&
			     !strcmp(construct(&p->sites[j]), construct(s));
		snprintf(s->name, sizeof(s->name), "%s$omp$%s:%d@%s:%d", s->func, construct(s), k,
			 s->file, s->line);
	}
	ret = 0;
out:
	rpt_inlines_free(il);
	return ret;
}

static bool paused_at(const void *r, uint64_t t)
{
	return rpt_paused_at(r, t);
}

static bool paused_within(const void *r, uint64_t from, uint64_t to)
{
	return rpt_paused_within(r, from, to);
}

static int load_file(struct rpt *r, int dfd, const char *name)
{
	char why[256];
	struct rpt_omp_proc *g, *p;
	struct ses_ompt_record *rebuilt = NULL;
	struct rpt_omp_pauses pauses = { r, paused_at, paused_within };
	size_t nrebuilt = 0;
	struct ses_ompt o;
	const void *map;
	size_t len;
	int ret;

	ret = ses_file_map_at(dfd, name, &map, &len, why, sizeof(why));
	if (ret == -ENOMEM)
		return ret;
	if (ret || !len) {
		note(r, name, "%s; its OpenMP data is not reported",
		     ret ? why : "is empty (0 bytes)");
		return 0;
	}
	ret = ses_ompt_parse(map, len, &o, why, sizeof(why));
	ses_file_unmap(map, len);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		note(r, name, "%s; its OpenMP data is not reported", why);
		return 0;
	}
	if (o.damaged_at)
		note(r, name, "damaged from offset %llu (%s); what came before it is reported",
		     (unsigned long long)o.damaged_at, o.damage);
	if (!o.has_runtime && !o.nvalues && !o.nevents && !o.ntargets)
		goto out; /* a process of the run without an OpenMP runtime */
	g = realloc(r->omp->procs, sizeof(*g) * (size_t)(r->omp->nprocs + 1));
	if (!g) {
		ret = -ENOMEM;
		goto out;
	}
	r->omp->procs = g;
	p = &g[r->omp->nprocs++];
	memset(p, 0, sizeof(*p));
	p->pid = o.pid;
	p->impl = o.impl;
	p->scope = o.scope;
	p->has_runtime = o.has_runtime;
	p->omp_version = o.omp_version;
	p->dropped = o.dropped_records;
	snprintf(p->runtime, sizeof(p->runtime), "%s", o.runtime);
	for (size_t i = 0; i < o.nsites; i++) {
		bool full;
		struct rpt_omp_site *s = rpt_omp_site_for(p, o.sites[i].id, &full);

		if (!s && full) {
			p->ignored++;
			continue;
		}
		if (!s) {
			ret = -ENOMEM;
			goto out;
		}
		s->kind = o.sites[i].kind;
		s->code = o.sites[i].code;
		if (rpt_omp_is_loop(s)) /* the tool's key, not the address */
			s->code &= SES_OMPT_SITE_ADDR_MASK;
	}
	ret = rpt_omp_window_rebuild(p, &o, r->npauses ? &pauses : NULL, &rebuilt, &nrebuilt);
	if (!ret) { /* the summary, or what the window's records rebuild of it */
		struct ses_ompt view = o;

		if (rebuilt) {
			view.values = rebuilt;
			view.nvalues = nrebuilt;
		}
		ret = take_values(p, &view);
	}
	if (!ret)
		rpt_omp_nest_prepare(p);
	if (!ret)
		ret = rpt_omp_waits_load(p, &o);
	if (!ret)
		ret = rpt_omp_target_load(p, &o);
	if (!ret)
		ret = label(r, p, &o);
	if (p->rebuilt) /* the records an edge of the window cut are counted as cut */
		p->unpaired = p->window_unpaired;
	if (!ret)
		ret = rpt_omp_state_label(r, p, &o);
	if (!ret)
		ret = rpt_omp_trace_take(r, p, &o);
	util_hash_release(&p->index); /* sorting the sites leaves it stale */
	if (!ret)
		ret = name_sites(r, p);
	if (!ret)
		rpt_omp_name_taskloops(p);
	if (!ret)
		ret = rpt_omp_trace_name(r, p);
	if (!ret)
		rpt_omp_nest_link(p);
	for (int i = 0; i < r->world.nprocs; i++)
		if (r->world.procs[i].pid == p->pid)
			p->samples = r->world.procs[i].samples;
out:
	free(rebuilt);
	ses_ompt_release(&o);
	return ret;
}

int rpt_omp_load(struct rpt *r)
{
	struct dirent *e;
	struct stat sb;
	DIR *d;
	int fd, ret = 0;

	/* one name beneath the session's fd, not followed: a link there is no trace, but
	 * said (collect makes a directory; something else put the link there) */
	if (fstatat(r->dfd, SES_OMPT_DIR, &sb, AT_SYMLINK_NOFOLLOW) ||
	    (!S_ISDIR(sb.st_mode) && !S_ISLNK(sb.st_mode)))
		return 0;
	r->omp = calloc(1, sizeof(*r->omp));
	if (!r->omp)
		return -ENOMEM;
	r->omp->traced = true;
	if (S_ISLNK(sb.st_mode)) {
		note(r, "", "a symbolic link where the session's directory belongs: not followed, "
			    "no OpenMP data read");
		return 0;
	}
	for (int i = 0; i < r->world.nmodules; i++)
		if (r->world.modules[i].path && strstr(r->world.modules[i].path, "/libgomp.so"))
			r->omp->libgomp_seen = true;
	fd = util_at_dir(r->dfd, SES_OMPT_DIR);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		ret = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		return ret == -ENOMEM ? -ENOMEM : 0;
	}
	while (!ret && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".ompt"))
			continue;
		ret = load_file(r, dirfd(d), e->d_name);
	}
	closedir(d);
	return ret;
}

void rpt_omp_free(struct rpt_omp *o)
{
	if (!o)
		return;
	for (int i = 0; i < o->nprocs; i++) {
		rpt_omp_target_free(&o->procs[i]);
		rpt_omp_loops_free(&o->procs[i]);
		for (int k = 0; k < o->procs[i].nsites; k++) {
			free(o->procs[i].sites[k].threads);
			rpt_omp_hot_free(o->procs[i].sites[k].hot);
		}
		rpt_omp_hot_free(o->procs[i].hot);
		free(o->procs[i].sites);
		util_hash_release(&o->procs[i].index);
	}
	free(o->procs);
	free(o);
}
