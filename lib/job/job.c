// SPDX-License-Identifier: MIT
/*
 * The job report (docs/DESIGN.md §10): job.ini names the ranks; each rank's session is
 * reported on its own (rpt_open, as for any session), its rows copied into the job's
 * tables, and its report freed before the next is opened, so a job of many ranks costs
 * the memory of one rank's report plus the merged rows. Functions and modules are summed
 * over ranks; processes and threads stay rows of their rank. A rank that job.ini lists
 * (or that the world size says should be there) without a readable session is listed as
 * missing, a session whose collect did not finish as interrupted: never dropped unsaid.
 */
#include "job/internal.h"
#include "unwind/unwind.h"
#include "symbols/symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int rpt_rank_list_parse(const char *s, uint8_t *bits)
{
	const char *p = s;

	memset(bits, 0, RPT_RANK_BITMAP_BYTES);
	if (!*s)
		return -EINVAL;
	while (*p) {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtol(p, &end, 10);
		}
		if (errno || lo > hi)
			return errno == ERANGE ? -ERANGE : -EINVAL;
		if (hi >= SES_JOB_MAX_RANKS)
			return -ERANGE;
		for (long r = lo; r <= hi; r++)
			bits[r / 8] |= (uint8_t)(1u << (r % 8));
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return -EINVAL;
		p = end;
	}
	return 0;
}

bool rpt_is_job_dir(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool is = dfd >= 0 && rpt_is_job_dir_at(dfd);

	if (dfd >= 0)
		close(dfd);
	return is;
}

bool rpt_is_job_dir_at(int dfd)
{
	struct stat sb;

	return !fstatat(dfd, SES_JOB_FILE, &sb, AT_SYMLINK_NOFOLLOW) && S_ISREG(sb.st_mode);
}

static bool host_selected(const char *hosts, const char *host)
{
	size_t len = strlen(host);

	if (!hosts || !strcmp(hosts, "all"))
		return true;
	for (const char *p = hosts; *p;) {
		size_t n = strcspn(p, ",");

		if (n == len && !memcmp(p, host, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct rpt_job_rank *x = a, *y = b;

	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The selected ranks: job.ini's, and those under the world size that never joined. */
static int select_ranks(struct rpt_job *j, const struct rpt_job_select *sel)
{
	const struct ses_job *job = &j->job;
	size_t cap = job->nranks + (job->size > 0 ? (size_t)job->size : 0) + 1;
	uint8_t *listed = calloc(RPT_RANK_BITMAP_BYTES, 1);

	j->ranks = calloc(cap, sizeof(*j->ranks));
	j->mpi = calloc(cap, sizeof(*j->mpi));
	j->omp = calloc(cap, sizeof(*j->omp));
	if (!j->ranks || !j->mpi || !j->omp || !listed) {
		free(listed);
		return -ENOMEM;
	}
	for (size_t i = 0; i < job->nranks; i++) {
		const struct ses_job_rank *r = &job->ranks[i];
		struct rpt_job_rank *o;

		listed[r->rank / 8] |= (uint8_t)(1u << (r->rank % 8));
		if ((sel->ranks && !(sel->ranks[r->rank / 8] & (1u << (r->rank % 8)))) ||
		    !host_selected(sel->hosts, r->host))
			continue;
		o = &j->ranks[j->nranks++];
		o->rank = r->rank;
		snprintf(o->host, sizeof(o->host), "%s", r->host);
	}
	for (int r = 0; r < job->size; r++) {
		struct rpt_job_rank *o;

		if ((listed[r / 8] & (1u << (r % 8))) ||
		    (sel->ranks && !(sel->ranks[r / 8] & (1u << (r % 8)))) ||
		    (sel->hosts && strcmp(sel->hosts, "all")))
			continue;
		o = &j->ranks[j->nranks++];
		o->rank = r;
		o->state = RPT_RANK_MISSING;
		o->end = RPT_END_NEVER_JOINED;
		snprintf(o->host, sizeof(o->host), "?");
		snprintf(o->why, sizeof(o->why), "never joined the job (no [rank.%d] in job.ini)",
			 r);
	}
	free(listed);
	util_qsort(j->ranks, j->nranks, sizeof(*j->ranks), cmp_rank);
	return 0;
}

static int items_grow(struct rpt_job_items *t)
{
	struct rpt_job_item *v;
	size_t cap = t->cap ? t->cap * 2 : 64;

	if (t->n < t->cap)
		return 0;
	v = realloc(t->v, cap * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->v = v;
	t->cap = cap;
	return 0;
}

/* A row of rank @rank into table @t: summed into its (name, module) row when @rank < 0. */
static int add_item(struct rpt_job *j, int t, const struct rpt_row *row, int rank, double value)
{
	struct rpt_job_items *tab = &j->t[t];
	struct rpt_job_item *it;
	char key[8192];
	void *found = NULL;

	if (rank < 0) {
		snprintf(key, sizeof(key), "%s\x1f%s", row->name, row->module ? row->module : "");
		found = util_strmap_get(&tab->index, key);
	}
	if (found) {
		it = &tab->v[(uintptr_t)found - 1];
		it->value += value;
		it->samples += row->samples;
		return 0;
	}
	if (items_grow(tab))
		return -ENOMEM;
	it = &tab->v[tab->n];
	memset(it, 0, sizeof(*it));
	it->name = util_strmap_intern(&j->pool, row->name);
	it->module = row->module ? util_strmap_intern(&j->pool, row->module) : NULL;
	if (!it->name || (row->module && !it->module))
		return -ENOMEM;
	it->rank = rank;
	it->id = row->id;
	it->value = value;
	it->samples = row->samples;
	tab->n++;
	if (rank < 0 && util_strmap_put(&tab->index, key, (void *)(uintptr_t)tab->n))
		return -ENOMEM;
	return 0;
}

static const enum rpt_section sections[RPT_JOB_NTABLES] = {
	[RPT_JOB_FUNCS] = RPT_FUNCTIONS,
	[RPT_JOB_MODS] = RPT_MODULES,
	[RPT_JOB_PROCS] = RPT_PROCESSES,
	[RPT_JOB_THREADS] = RPT_THREADS,
};

/* Rank @rank's rows into the job's tables; @info is its session's. */
static int add_rows(struct rpt_job *j, const struct rpt *r, const struct ses_info *info, int rank)
{
	int max = rpt_rows_max(r);
	double period = info->nevents ? (double)info->events[0].period : 1.0;
	struct rpt_row *rows = malloc(sizeof(*rows) * (size_t)max);
	int ret = 0;

	if (!rows)
		return -ENOMEM;
	for (int t = 0; t < RPT_JOB_NTABLES && !ret; t++) {
		int n = rpt_rows(r, sections[t], rows, max);

		for (int i = 0; i < n && !ret; i++)
			ret = add_item(j, t, &rows[i],
				       t == RPT_JOB_PROCS || t == RPT_JOB_THREADS ? rank : -1,
				       j->timer ? rows[i].seconds
						: (double)rows[i].samples * period);
	}
	free(rows);
	return ret;
}

/* Rank @i's OpenMP TRACING REPORT, from its report @r, kept as text: the job's report
 * writes it after the merged tables, in the rank's place (job_csv.c). */
static int keep_omp(struct rpt_job *j, int i, const struct rpt *r)
{
	char rank[32], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!rpt_omp_traced(r))
		return 0;
	f = open_memstream(&text, &len);
	if (!f)
		return -ENOMEM;
	snprintf(rank, sizeof(rank), "RANK-%d", j->ranks[i].rank);
	rpt_omp_write_report_of(r, rank, f);
	if (fclose(f) || !text) {
		free(text);
		return -ENOMEM;
	}
	j->omp[i] = text;
	j->nomp++;
	return 0;
}

/* Rank @o's session: reported, its facts into @o, its rows into the tables. */
static int load_rank(struct rpt_job *j, struct rpt_job_rank *o, const char *session)
{
	char path[PATH_MAX + 80], err[512];
	struct rpt_summary s;
	const struct ses_info *info;
	struct rpt_options ro = j->opts;
	struct rpt *r = NULL;
	int sfd, ret;

	snprintf(path, sizeof(path), "%s/%s", j->dir, session); /* to name it */
	/* beneath the job's fd, no symlink followed: job.ini names it, and job.ini is
	 * another user's as much as the directory is */
	sfd = util_at_dir(j->dfd, session);
	if (sfd == -ELOOP || sfd == -EXDEV)
		snprintf(err, sizeof(err), "%s: %s; not followed", path,
			 sfd == -ELOOP ? "a symbolic link" : "outside the job directory");
	else if (sfd < 0 && sfd != -ENOENT)
		snprintf(err, sizeof(err), "%s: %s", path, strerror(-sfd));
	rpt_job_intervals_opts(j, (int)(o - j->ranks), &ro); /* its buckets on the job's line */
	ret = sfd < 0 ? sfd : rpt_open_at(&r, sfd, path, &ro, err, sizeof(err));
	if (ret == -ENOMEM) {
		if (sfd >= 0)
			close(sfd);
		return ret;
	}
	if (ret) {
		if (sfd >= 0)
			close(sfd);
		o->state = ret == -ENOENT ? RPT_RANK_MISSING : RPT_RANK_UNREADABLE;
		snprintf(o->why, sizeof(o->why), "%s: %s", session,
			 ret == -ENOENT ? "no session (its collect never started or was removed)"
					: err);
		return 0;
	}
	rpt_summary(r, &s);
	info = s.info;
	if (!j->head) {
		j->timer = !info->nevents || ses_event_is_timer(&info->events[0]);
		snprintf(j->event, sizeof(j->event), "%s",
			 info->nevents ? info->events[0].name : "CPU_TIME");
	}
	o->pid = info->npids ? info->pids[0] : 0;
	o->exit_code = info->exit_code;
	o->exit_signal = info->exit_signal;
	o->stop_signal = info->stop_signal;
	o->collect_killed = s.collect_killed;
	if (info->status == SES_STATUS_RUNNING) /* its collect is alive (load.c) */
		o->end = RPT_END_RUNNING;
	o->cpu_s = s.cpu_time_s;
	o->samples = s.samples;
	o->lost = s.lost;
	o->elapsed_s = info->end_mono_ns > info->start_mono_ns
			       ? (double)(info->end_mono_ns - info->start_mono_ns) / 1e9
			       : 0;
	if (s.info->status == SES_STATUS_INTERRUPTED && s.info->stop_signal > 0) {
		const char *abbrev = sigabbrev_np(s.info->stop_signal);

		o->state = RPT_RANK_INTERRUPTED;
		snprintf(o->why, sizeof(o->why),
			 "%s: interrupted (its collect got SIG%s before the rank ended); what "
			 "it wrote is reported",
			 session, abbrev ? abbrev : "?");
	} else if (s.info->status != SES_STATUS_COMPLETE) {
		o->state = RPT_RANK_INTERRUPTED;
		snprintf(o->why, sizeof(o->why),
			 "%s: interrupted (session %s: its collect did not "
			 "finish); what it wrote is reported",
			 session, ses_status_name(s.info->status));
	} else if (s.damaged_at || s.count_damage) {
		o->state = RPT_RANK_DAMAGED;
		snprintf(o->why, sizeof(o->why),
			 "%s: damaged (samples.data holds less than its "
			 "collect wrote); what it holds is reported",
			 session);
	}
	if (info->start_epoch_ns &&
	    (!j->start_epoch_ns || info->start_epoch_ns < j->start_epoch_ns))
		j->start_epoch_ns = info->start_epoch_ns;
	if (info->end_epoch_ns > j->end_epoch_ns)
		j->end_epoch_ns = info->end_epoch_ns;
	j->nprocesses += s.nprocesses;
	{
		struct rpt_stack_summary ss;

		rpt_stack_summary(r, &ss);
		j->leaf_fixed += ss.leaf_fixed;
		j->leaf_fp += ss.leaf_fp;
		j->leaf_unknown += ss.leaf_unknown;
	}
	j->nthreads += s.nthreads;
	rpt_job_clock_note(j, o, info);
	rpt_job_rate_note(j, o, r);
	ret = add_rows(j, r, info, o->rank);
	if (!ret)
		ret = rpt_job_mpi_load(j, (int)(o - j->ranks), sfd);
	if (!ret) /* while the rank's report is open: its mappings name its call sites */
		ret = rpt_job_sites_add(j, (int)(o - j->ranks), r);
	if (!ret)
		ret = rpt_job_intervals_add(j, (int)(o - j->ranks), r);
	close(sfd);
	if (!ret)
		ret = keep_omp(j, (int)(o - j->ranks), r);
	if (!j->head)
		j->head = r;
	else
		rpt_free(r);
	return ret;
}

const char *rpt_job_session_of(const struct ses_job *job, int rank)
{
	for (size_t i = 0; i < job->nranks; i++)
		if (job->ranks[i].rank == rank)
			return job->ranks[i].session;
	return NULL;
}

int rpt_job_open(struct rpt_job **out, const char *jobdir, const struct rpt_options *opts,
		 const struct rpt_job_select *sel, char *err, size_t errlen)
{
	int dfd = util_dir_open(jobdir);
	int ret;

	*out = NULL;
	if (dfd < 0) {
		snprintf(err, errlen, "%s/" SES_JOB_FILE ": %s", jobdir,
			 dfd == -ENOENT ? "no such file (not a job directory)" : strerror(-dfd));
		return dfd;
	}
	ret = rpt_job_open_at(out, dfd, jobdir, opts, sel, err, errlen);
	close(dfd);
	return ret;
}

int rpt_job_open_at(struct rpt_job **out, int dfd, const char *jobdir,
		    const struct rpt_options *opts, const struct rpt_job_select *sel, char *err,
		    size_t errlen)
{
	struct rpt_job *j = calloc(1, sizeof(*j));
	char why[256];
	int ret, reported = 0;

	*out = NULL;
	if (!j)
		return -ENOMEM;
	snprintf(j->dir, sizeof(j->dir), "%s", jobdir);
	j->dfd = dfd;
	j->opts = *opts;
	/* every rank of a host ran the same files: their symbols read once (symshare.c) */
	j->symshare = rpt_symshare_new();
	if (!j->symshare) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory reading job %s", jobdir);
		goto fail;
	}
	j->opts.symshare = j->symshare;
	/* and the leaf steps' CFI rows of those files (unwind_share.c) */
	j->unwindshare = rpt_unwind_share_new();
	if (!j->unwindshare) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory reading job %s", jobdir);
		goto fail;
	}
	j->opts.unwindshare = j->unwindshare;
	ret = ses_job_read_at(dfd, &j->job, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "%s/" SES_JOB_FILE ": %s", jobdir,
			 ret == -ENOENT ? "no such file (not a job directory)" : why);
		goto fail;
	}
	ret = select_ranks(j, sel);
	if (!ret)
		ret = rpt_job_intervals_begin(j);
	for (int i = 0; i < j->nranks && !ret; i++) {
		const char *session = rpt_job_session_of(&j->job, j->ranks[i].rank);

		if (session)
			ret = load_rank(j, &j->ranks[i], session);
		reported += j->ranks[i].state < RPT_RANK_MISSING;
	}
	if (ret) {
		snprintf(err, errlen, "out of memory reading job %s", jobdir);
		goto fail;
	}
	rpt_job_ends(j);
	if (!reported) {
		ret = -ENODATA;
		if (!j->nranks)
			snprintf(err, errlen,
				 "%s: no rank of the job is selected (%zu ranks in "
				 "job.ini; see --rank and --host)",
				 jobdir, j->job.nranks);
		else
			snprintf(err, errlen, "%s: no rank has a session to report; rank %d: %s",
				 jobdir, j->ranks[0].rank, j->ranks[0].why);
		goto fail;
	}
	*out = j;
	return 0;
fail:
	rpt_job_free(j);
	return ret;
}

void rpt_job_free(struct rpt_job *j)
{
	if (!j)
		return;
	rpt_free(j->head);
	rpt_symshare_free(j->symshare); /* after the last report that used it */
	rpt_unwind_share_free(j->unwindshare);
	for (int t = 0; t < RPT_JOB_NTABLES; t++) {
		free(j->t[t].v);
		util_strmap_release(&j->t[t].index);
	}
	util_strmap_release(&j->pool);
	rpt_job_mpi_release(j);
	rpt_job_sites_free(j);
	rpt_job_intervals_free(j);
	for (int i = 0; j->omp && i < j->nranks; i++)
		free(j->omp[i]);
	free(j->omp);
	ses_job_release(&j->job);
	free(j->ranks);
	free(j);
}

void rpt_job_summary(const struct rpt_job *j, struct rpt_job_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->id = j->job.id;
	s->app = j->job.app;
	s->dir = j->dir;
	s->size = j->job.size;
	s->nranks = j->nranks;
	s->timer = j->timer;
	s->nprocesses = j->nprocesses;
	s->nthreads = j->nthreads;
	for (int i = 0; i < j->nranks; i++) {
		const struct rpt_job_rank *r = &j->ranks[i];
		bool new_host = true;

		if (r->state >= RPT_RANK_MISSING) {
			s->nmissing++;
			continue;
		}
		s->nreported++;
		s->ndamaged += r->state != RPT_RANK_OK;
		s->cpu_s += r->cpu_s;
		s->samples += r->samples;
		s->lost += r->lost;
		for (int k = 0; k < i && new_host; k++)
			new_host = j->ranks[k].state >= RPT_RANK_MISSING ||
				   strcmp(j->ranks[k].host, r->host);
		s->nhosts += new_host;
	}
}

int rpt_job_ranks(const struct rpt_job *j, const struct rpt_job_rank **ranks)
{
	*ranks = j->ranks;
	return j->nranks;
}

static int cmp_item(const void *a, const void *b)
{
	const struct rpt_job_item *x = *(const struct rpt_job_item *const *)a;
	const struct rpt_job_item *y = *(const struct rpt_job_item *const *)b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->rank != y->rank) /* equal rows in rank order: the same report every time */
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

int rpt_job_sorted(const struct rpt_job *j, int t, const struct rpt_job_item ***out)
{
	const struct rpt_job_items *tab = &j->t[t];
	const struct rpt_job_item **v = malloc(sizeof(*v) * (tab->n ? tab->n : 1));

	*out = v;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < tab->n; i++)
		v[i] = &tab->v[i];
	util_qsort(v, tab->n, sizeof(*v), cmp_item);
	return (int)tab->n;
}

int rpt_job_functions(const struct rpt_job *j, struct rpt_row *rows, int max)
{
	const struct rpt_job_item **v;
	int n = rpt_job_sorted(j, RPT_JOB_FUNCS, &v);

	for (int i = 0; i < n && i < max; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		rows[i].name = v[i]->name;
		rows[i].module = v[i]->module;
		rows[i].seconds = v[i]->value;
		rows[i].samples = v[i]->samples;
	}
	free(v);
	return n < 0 ? 0 : n < max ? n : max;
}
