// SPDX-License-Identifier: MIT
/*
 * The job report's MPI call sites, after mpiP's tables: each rank's SITE records (what
 * lib/mpi's interposer counted per MPI function and return address) named while the
 * rank's report is open (its own mappings and symbols: rpt_code_places), then merged
 * over the ranks by (MPI function, file:line, caller), the place mpiP calls a site;
 * where no line is known, by module and offset. Formulas: man uprof-mpi(7).
 */
#include "job/internal.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct site_rank {
	uint64_t calls, time_ns, messages, bytes, min_bytes, max_bytes;
};

struct job_site {
	int id; /* 1.., in order of place: the same numbers every time */
	char fn[SES_MPI_NAME_MAX + 1];
	struct rpt_code_place where;
	char chain[600]; /* its callers (collect -g): "f (file:line) < g", "" without */
	uint64_t calls, time_ns, messages, bytes, min_bytes, max_bytes;
	struct site_rank *ranks; /* [j->nranks] */
};

struct rpt_job_sites {
	struct job_site *v;
	size_t n, cap;
	struct util_strmap index; /* the merge key -> index + 1 */
	/* rpt_code_key() -> its struct rpt_code_place (owned): the ranks of one program
	 * have the same sites at other addresses, named once, not once a rank */
	struct util_strmap places;
	uint64_t lost_calls; /* calls the ranks' tables had no room for */
	int lost_ranks, counted_ranks;
	bool numbered; /* v sorted by place, ids given (number()): nothing is added after */
};

static int sites_new(struct rpt_job *j)
{
	if (!j->sites)
		j->sites = calloc(1, sizeof(*j->sites));
	return j->sites ? 0 : -ENOMEM;
}

void rpt_job_sites_free(struct rpt_job *j)
{
	struct rpt_job_sites *s = j->sites;

	if (!s)
		return;
	for (size_t k = 0; k < s->n; k++)
		free(s->v[k].ranks);
	free(s->v);
	util_strmap_release(&s->index);
	util_strmap_for_each(&s->places, e) free(e->val);
	util_strmap_release(&s->places);
	free(s);
	j->sites = NULL;
}

static void merge_key(const char *fn, const struct rpt_code_place *w, const char *chain, char *key,
		      size_t len)
{
	if (w->line > 0)
		snprintf(key, len, "%s\t%s:%d\t%s\t%s", fn, w->file, w->line, w->func, chain);
	else if (w->mapped)
		snprintf(key, len, "%s\t%s+0x%" PRIx64 "\t%s", fn, w->module, w->offset, chain);
	else
		snprintf(key, len, "%s\t?\t%s", fn, chain);
}

/* The job's site of @fn at @w, made on first sight. NULL: out of memory. */
static struct job_site *site_of(struct rpt_job *j, const char *fn, const struct rpt_code_place *w,
				const char *chain)
{
	struct rpt_job_sites *s = j->sites;
	char key[1400];
	uintptr_t at;
	struct job_site *o;

	merge_key(fn, w, chain, key, sizeof(key));
	at = (uintptr_t)util_strmap_get(&s->index, key);
	if (at)
		return &s->v[at - 1];
	if (s->n == s->cap) {
		size_t n = s->cap ? s->cap * 2 : 32;

		o = realloc(s->v, n * sizeof(*o));
		if (!o)
			return NULL;
		s->v = o;
		s->cap = n;
	}
	o = &s->v[s->n];
	memset(o, 0, sizeof(*o));
	o->ranks = calloc((size_t)j->nranks, sizeof(*o->ranks));
	if (!o->ranks || util_strmap_put(&s->index, key, (void *)(uintptr_t)(s->n + 1))) {
		free(o->ranks);
		return NULL;
	}
	snprintf(o->fn, sizeof(o->fn), "%s", fn);
	o->where = *w;
	snprintf(o->chain, sizeof(o->chain), "%s", chain);
	s->n++;
	return o;
}

static void add_to(struct job_site *o, struct site_rank *r, const struct ses_mpi_site *x)
{
	if (x->messages) {
		if (!r->messages || x->min_bytes < r->min_bytes)
			r->min_bytes = x->min_bytes;
		if (x->max_bytes > r->max_bytes)
			r->max_bytes = x->max_bytes;
		if (!o->messages || x->min_bytes < o->min_bytes)
			o->min_bytes = x->min_bytes;
		if (x->max_bytes > o->max_bytes)
			o->max_bytes = x->max_bytes;
	}
	r->calls += x->calls, o->calls += x->calls;
	r->time_ns += x->time_ns, o->time_ns += x->time_ns;
	r->messages += x->messages, o->messages += x->messages;
	r->bytes += x->bytes, o->bytes += x->bytes;
}

/* Where each of @n code addresses of process @pid is, into @where: from the places named
 * for another rank, the others named now with @r (and kept for the next rank). 0 or
 * -ENOMEM. */
static int name_addrs(struct rpt_job_sites *s, struct rpt *r, int pid, const uint64_t *at, size_t n,
		      struct rpt_code_place *where)
{
	size_t nnew = 0;
	uint64_t *addrs = malloc((n ? n : 1) * sizeof(*addrs));
	size_t *which = malloc((n ? n : 1) * sizeof(*which));
	char(*keys)[600] = malloc((n ? n : 1) * sizeof(*keys));
	struct rpt_code_place *got = NULL;
	int ret = -ENOMEM;

	if (!addrs || !which || !keys)
		goto out;
	for (size_t k = 0; k < n; k++) {
		const struct rpt_code_place *known;

		keys[k][0] = 0;
		if (rpt_code_key(r, pid, at[k], keys[k], sizeof(keys[k]))) {
			memset(&where[k], 0, sizeof(where[k]));
			snprintf(where[k].func, sizeof(where[k].func), "unknown");
			continue;
		}
		known = util_strmap_get(&s->places, keys[k]);
		if (known) {
			where[k] = *known;
			continue;
		}
		addrs[nnew] = at[k];
		which[nnew++] = k;
	}
	got = malloc((nnew ? nnew : 1) * sizeof(*got));
	if (!got || (nnew && rpt_code_places(r, pid, addrs, nnew, got)))
		goto out;
	for (size_t x = 0; x < nnew; x++) {
		struct rpt_code_place *keep;

		where[which[x]] = got[x];
		if (util_strmap_get(&s->places, keys[which[x]]))
			continue; /* two addresses of this rank at one place */
		keep = malloc(sizeof(*keep));
		if (!keep)
			goto out;
		*keep = got[x];
		if (util_strmap_put(&s->places, keys[which[x]], keep)) {
			free(keep);
			goto out;
		}
	}
	ret = 0;
out:
	free(addrs);
	free(which);
	free(keys);
	free(got);
	return ret;
}

/* A caller chain's places as "f (file:line) < g (file:line)", innermost first. */
static void chain_text(const struct rpt_code_place *w, size_t n, char *out, size_t len)
{
	size_t at = 0;

	out[0] = 0;
	for (size_t c = 0; c < n && at < len; c++) {
		if (w[c].line > 0)
			at += (size_t)snprintf(out + at, len - at, "%s%s (%s:%d)", c ? " < " : "",
					       w[c].func, w[c].file, w[c].line);
		else
			at += (size_t)snprintf(out + at, len - at, "%s%s", c ? " < " : "",
					       w[c].func);
	}
}

int rpt_job_sites_add(struct rpt_job *j, int i, struct rpt *r)
{
	const struct ses_mpi *m = &j->mpi[i].m;
	struct rpt_code_place *where = NULL;
	uint64_t *addrs = NULL;
	size_t n = m->sites.n, nall = n, at;
	int ret;

	if (!j->mpi[i].has || (!n && !m->sites.counted))
		return 0;
	ret = sites_new(j);
	if (ret)
		return ret;
	j->sites->counted_ranks++;
	j->sites->lost_calls += m->sites.lost_calls;
	j->sites->lost_ranks += m->sites.lost_calls > 0;
	if (!n)
		return 0;
	for (size_t k = 0; k < n; k++)
		nall += m->sites.v[k].nchain;
	/* the sites, then their callers (collect -g): each a return address less one, the
	 * call instruction, on the call's own line */
	addrs = malloc(nall * sizeof(*addrs));
	where = malloc(nall * sizeof(*where));
	ret = -ENOMEM;
	if (!addrs || !where)
		goto out;
	at = n;
	for (size_t k = 0; k < n; k++) {
		addrs[k] = m->sites.v[k].addr ? m->sites.v[k].addr - 1 : 0;
		for (uint32_t c = 0; c < m->sites.v[k].nchain; c++)
			addrs[at++] = m->sites.v[k].chain[c] ? m->sites.v[k].chain[c] - 1 : 0;
	}
	ret = name_addrs(j->sites, r, m->pid, addrs, nall, where);
	at = n;
	for (size_t k = 0; !ret && k < n; k++) {
		const struct ses_mpi_site *x = &m->sites.v[k];
		char chain[sizeof(((struct job_site *)0)->chain)];
		struct job_site *o;

		chain_text(where + at, x->nchain, chain, sizeof(chain));
		at += x->nchain;
		o = site_of(j, x->name, &where[k], chain);
		if (!o)
			ret = -ENOMEM;
		else
			add_to(o, &o->ranks[i], x);
	}
out:
	free(addrs);
	free(where);
	return ret;
}

/* ---- the tables ---- */

static int by_place(const void *a, const void *b)
{
	const struct job_site *x = a, *y = b;
	int c = strcmp(x->where.module, y->where.module);

	if (!c)
		c = strcmp(x->where.file, y->where.file);
	if (!c)
		c = (x->where.line > y->where.line) - (x->where.line < y->where.line);
	if (!c)
		c = (x->where.offset > y->where.offset) - (x->where.offset < y->where.offset);
	if (!c)
		c = strcmp(x->fn, y->fn);
	if (!c)
		c = strcmp(x->where.func, y->where.func);
	return c ? c : strcmp(x->chain, y->chain);
}

static const struct job_site *const *sort_by(const struct rpt_job_sites *s, bool bytes)
{
	const struct job_site **v = malloc((s->n ? s->n : 1) * sizeof(*v));

	for (size_t k = 0; v && k < s->n; k++) {
		size_t at = k;

		v[k] = &s->v[k];
		/* largest first, ties by site id (a few hundred sites: insertion) */
		for (; at > 0; at--) {
			uint64_t a = bytes ? v[at]->bytes : v[at]->time_ns;
			uint64_t b = bytes ? v[at - 1]->bytes : v[at - 1]->time_ns;
			const struct job_site *t;

			if (a < b || (a == b && v[at]->id > v[at - 1]->id))
				break;
			t = v[at], v[at] = v[at - 1], v[at - 1] = t;
		}
	}
	return v;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	util_put_escaped(f, s, UTIL_ESC_CSV);
	fputc('"', f);
}

/* The File:Line column: "file:line", "module+0xoffset" or "unknown". */
static void place_text(const struct job_site *o, char *at, size_t len)
{
	if (o->where.line > 0)
		snprintf(at, len, "%s:%d", o->where.file, o->where.line);
	else if (o->where.mapped)
		snprintf(at, len, "%s+0x%" PRIx64, o->where.module, o->where.offset);
	else
		snprintf(at, len, "unknown");
}

static void put_place(FILE *f, const struct job_site *o)
{
	char at[300];

	place_text(o, at, sizeof(at));
	put_str(f, at);
}

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static void write_places(const struct rpt_job *j, FILE *f)
{
	const struct rpt_job_sites *s = j->sites;

	fprintf(f, "\nMPI CALL SITES\nSite,MPI Function,File:Line,Caller,Module,Calls,Callers "
		   "Above(collect -g)\n");
	for (size_t k = 0; k < s->n; k++) {
		const struct job_site *o = &s->v[k];

		fprintf(f, "%d, %s, ", o->id, o->fn);
		put_place(f, o);
		fprintf(f, ", ");
		put_str(f, o->where.func);
		fprintf(f, ", ");
		put_str(f, o->where.mapped ? o->where.module : "unknown");
		fprintf(f, ", %" PRIu64 ", ", o->calls);
		put_str(f, o->chain);
		fputc('\n', f);
	}
	if (s->lost_calls)
		fprintf(f,
			"Calls Without A Site, %" PRIu64 ", \"%d of %d ranks filled their table of "
			"call sites: these calls are in the function tables only\"\n",
			s->lost_calls, s->lost_ranks, s->counted_ranks);
}

/* Each rank's time at @o (0 for a rank with MPI data that never called it): min, mean,
 * max and the coefficient of variation (population standard deviation / mean). */
static void rank_spread(const struct rpt_job *j, const struct job_site *o, double *min, double *avg,
			double *max, double *cov)
{
	double sum = 0, sumsq = 0;
	int n = 0;

	*min = INFINITY, *max = 0;
	for (int i = 0; i < j->nranks; i++) {
		double t = sec(o->ranks[i].time_ns);

		if (!j->mpi[i].has)
			continue;
		n++, sum += t, sumsq += t * t;
		*min = t < *min ? t : *min;
		*max = t > *max ? t : *max;
	}
	*avg = n ? sum / n : 0;
	*min = n ? *min : 0;
	sumsq = n ? sumsq / n - *avg * *avg : 0;
	*cov = *avg > 0 ? sqrt(sumsq > 0 ? sumsq : 0) / *avg : 0;
}

static void write_time(const struct rpt_job *j, FILE *f, const struct job_site *const *v, size_t n)
{
	uint64_t app = 0, mpi = 0;

	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		if (!j->mpi[i].has)
			continue;
		/* the RANK SUMMARY TABLE's own figures: Elapsed is mpiP's AppTime, MPI Time
		 * leaves MPI_Init and MPI_Finalize out (job_mpi_apart.c) */
		app += rpt_job_rank_app_ns(m);
		mpi += rpt_job_rank_mpi_ns(m);
	}
	fprintf(f,
		"\nMPI CALL SITE TIME (top %zu)\nSite,MPI Function,File:Line,Calls,"
		"Time(seconds),Min Rank Time(seconds),Avg Rank Time(seconds),Max Rank "
		"Time(seconds),App(%%),MPI(%%),COV\n",
		n);
	for (size_t k = 0; k < n; k++) {
		double min, avg, max, cov;

		rank_spread(j, v[k], &min, &avg, &max, &cov);
		fprintf(f, "%d, %s, ", v[k]->id, v[k]->fn);
		put_place(f, v[k]);
		fprintf(f, ", %" PRIu64 ", %g, %g, %g, %g, %g, %g, %g\n", v[k]->calls,
			sec(v[k]->time_ns), min, avg, max, pct((double)v[k]->time_ns, (double)app),
			pct((double)v[k]->time_ns, (double)mpi), cov);
	}
}

static void put_sizes(FILE *f, uint64_t messages, uint64_t bytes, uint64_t min, uint64_t max)
{
	fprintf(f, "%" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %g, %" PRIu64 "\n", messages, bytes, min,
		messages ? (double)bytes / (double)messages : 0.0, max);
}

static void write_sizes(FILE *f, const struct job_site *const *v, size_t n)
{
	fprintf(f,
		"\nMPI CALL SITE MESSAGE SIZES (top %zu)\nSite,MPI Function,File:Line,"
		"Messages,Total(Bytes),Min(Bytes),Avg(Bytes),Max(Bytes)\n",
		n);
	for (size_t k = 0; k < n && v[k]->messages; k++) {
		fprintf(f, "%d, %s, ", v[k]->id, v[k]->fn);
		put_place(f, v[k]);
		fprintf(f, ", ");
		put_sizes(f, v[k]->messages, v[k]->bytes, v[k]->min_bytes, v[k]->max_bytes);
	}
}

/* Per rank, its @top sites by time (0: all). */
static void write_ranks(const struct rpt_job *j, FILE *f, const struct job_site *const *v, int top)
{
	fprintf(f,
		"\nMPI CALL SITES PER RANK (top %d per rank)\nRank,Site,MPI Function,"
		"File:Line,Calls,Time(seconds),Messages,Total(Bytes),Min(Bytes),Avg(Bytes),"
		"Max(Bytes)\n",
		top);
	for (int i = 0; i < j->nranks; i++) {
		const struct job_site **mine = malloc(j->sites->n * sizeof(*mine) + 1);
		size_t n = 0;

		if (!mine)
			return;
		/* @v is by time over the job: a rank's own order is by its own time */
		for (size_t k = 0; k < j->sites->n; k++)
			if (v[k]->ranks[i].calls)
				mine[n++] = v[k];
		for (size_t a = 1; a < n; a++)
			for (size_t b = a;
			     b > 0 && mine[b]->ranks[i].time_ns > mine[b - 1]->ranks[i].time_ns;
			     b--) {
				const struct job_site *t = mine[b];

				mine[b] = mine[b - 1], mine[b - 1] = t;
			}
		for (size_t k = 0; k < n && (!top || k < (size_t)top); k++) {
			const struct site_rank *x = &mine[k]->ranks[i];

			fprintf(f, "%d, %d, %s, ", j->ranks[i].rank, mine[k]->id, mine[k]->fn);
			put_place(f, mine[k]);
			fprintf(f, ", %" PRIu64 ", %g, ", x->calls, sec(x->time_ns));
			put_sizes(f, x->messages, x->bytes, x->min_bytes, x->max_bytes);
		}
		free(mine);
	}
}

/* The sites in order of place, numbered from 1: the same numbers every time. Once every
 * rank is added (the index's positions are stale after it). */
static void number(struct rpt_job_sites *s)
{
	if (s->numbered)
		return;
	qsort(s->v, s->n, sizeof(*s->v), by_place);
	for (size_t k = 0; k < s->n; k++)
		s->v[k].id = (int)k + 1;
	s->numbered = true;
}

size_t rpt_job_mpi_sites(const struct rpt_job *j)
{
	if (!j->sites)
		return 0;
	number(j->sites);
	return j->sites->n;
}

int rpt_job_mpi_site_at(const struct rpt_job *j, size_t k, int i, struct rpt_job_mpi_site_view *v)
{
	const struct job_site *o;
	const struct site_rank *x;

	memset(v, 0, sizeof(*v));
	if (k >= rpt_job_mpi_sites(j) || i < 0 || i >= j->nranks)
		return -ENODATA;
	o = &j->sites->v[k];
	x = &o->ranks[i];
	if (!x->calls) /* MPI CALL SITES PER RANK has no row for it */
		return -ENODATA;
	v->rank = j->ranks[i].rank;
	v->site = o->id;
	v->line = o->where.line > 0 ? o->where.line : 0;
	v->function = o->fn;
	place_text(o, v->place, sizeof(v->place));
	v->caller = o->where.func;
	v->module = o->where.mapped ? o->where.module : "unknown";
	v->callers = o->chain;
	v->calls = x->calls;
	v->time_ns = x->time_ns;
	v->messages = x->messages;
	v->bytes = x->bytes;
	v->min_bytes = x->min_bytes;
	v->max_bytes = x->max_bytes;
	return 0;
}

int rpt_job_sites_write(const struct rpt_job *j, FILE *f)
{
	struct rpt_job_sites *s = j->sites;
	const struct job_site *const *by_time, *const *by_bytes;
	size_t top;

	if (!s)
		return 0;
	number(s);
	by_time = sort_by(s, false);
	by_bytes = sort_by(s, true);
	if (!by_time || !by_bytes) {
		free((void *)by_time);
		free((void *)by_bytes);
		return -ENOMEM;
	}
	top = j->opts.mpi_top > 0 && (size_t)j->opts.mpi_top < s->n ? (size_t)j->opts.mpi_top
								    : s->n;
	write_places(j, f);
	write_time(j, f, by_time, top);
	write_sizes(f, by_bytes, top);
	write_ranks(j, f, by_time, j->opts.mpi_top);
	free((void *)by_time);
	free((void *)by_bytes);
	return 0;
}
