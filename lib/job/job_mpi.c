// SPDX-License-Identifier: MIT
/*
 * The job report's MPI part (docs/reference/uprof-cli.md §6): each rank's mpi/<pid>.mpi (what
 * lib/mpi's interposer recorded) read with lib/session's bounded reader, then uProf's MPI
 * TRACING REPORT: ENVIRONMENT, RANK SUMMARY TABLE, MPI FUNCTION SUMMARY TABLE (All Ranks),
 * COMMUNICATION MATRIX, COLLECTIVE EVENTS SUMMARY; values separated by ", " in %g style,
 * as uProf writes them. Then what uProf lacks: the imbalance of each function across the
 * ranks (man uprof-mpi(7) has the formulas) and, with --detail, each rank's functions.
 * A traced rank without its file, or with a file cut or flushed by a signal, is named.
 */
#include "job/internal.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IMBALANCE_FLAG RPT_JOB_IMBALANCE_FLAG
#define IMBALANCE_MIN_SHARE RPT_JOB_IMBALANCE_MIN_SHARE

static int load(struct rpt_job *j, int i, int session_dfd);

int rpt_job_mpi_load(struct rpt_job *j, int i, int session_dfd)
{
	int ret = load(j, i, session_dfd);

	j->ranks[i].mpi_traced = j->mpi[i].traced;
	snprintf(j->ranks[i].mpi_why, sizeof(j->ranks[i].mpi_why), "%s", j->mpi[i].why);
	return ret;
}

static int load(struct rpt_job *j, int i, int session_dfd)
{
	struct rpt_job_mpi *o = &j->mpi[i];
	char err[192], first[300] = "", rel[310];
	struct dirent *e;
	struct stat sb;
	int files = 0, noinit = 0, fd, ret;
	DIR *d;

	/* beneath the rank's session fd, nothing followed (docs/DESIGN.md §4) */
	if (fstatat(session_dfd, SES_MPI_DIR, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(sb.st_mode))
		return 0;
	o->traced = true;
	j->ntraced++;
	fd = util_at_dir(session_dfd, SES_MPI_DIR);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d && fd >= 0)
		close(fd);
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 4 && !strcmp(e->d_name + n - 4, ".mpi") && e->d_name[0] != '.' && !files++)
			snprintf(first, sizeof(first), "%s", e->d_name);
		noinit += rpt_job_mpi_is_noinit(e->d_name);
	}
	if (d)
		closedir(d);
	if (!files) {
		rpt_job_mpi_why_none(o->why, sizeof(o->why), noinit);
		return 0;
	}
	snprintf(rel, sizeof(rel), SES_MPI_DIR "/%s", first);
	ret = ses_mpi_read_at(session_dfd, rel, &o->m, err, sizeof(err));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		snprintf(o->why, sizeof(o->why), "%s/%s: %s; its MPI data is not reported",
			 SES_MPI_DIR, first, err);
		return 0;
	}
	o->has = true;
	if (o->m.rank != j->ranks[i].rank)
		snprintf(o->why, sizeof(o->why), "%s/%s says rank %d, job.ini rank %d", SES_MPI_DIR,
			 first, o->m.rank, j->ranks[i].rank);
	else if (!o->m.complete)
		snprintf(o->why, sizeof(o->why),
			 "%s/%s is damaged at offset %" PRIu64 " (%s); what "
			 "comes before is reported",
			 SES_MPI_DIR, first, o->m.damaged_at, o->m.damage);
	else if (o->m.end_how == SES_MPI_END_SIGNAL && o->m.inflight)
		snprintf(o->why, sizeof(o->why),
			 "flushed when signal %d (%s) ended the rank, before "
			 "MPI_Finalize: partial; it was in %s for %.3f s",
			 o->m.signal, sigabbrev_np(o->m.signal) ? sigabbrev_np(o->m.signal) : "?",
			 o->m.inflight_name, (double)o->m.inflight_ns / 1e9);
	else if (o->m.end_how == SES_MPI_END_SIGNAL)
		snprintf(o->why, sizeof(o->why),
			 "flushed when signal %d (%s) ended the rank, before "
			 "MPI_Finalize: partial; it was in no MPI call",
			 o->m.signal, sigabbrev_np(o->m.signal) ? sigabbrev_np(o->m.signal) : "?");
	else if (o->m.end_how == SES_MPI_END_EXIT && o->m.inflight)
		/* an exit inside an MPI call: the runtime's own abort (Open MPI's when its
		 * launcher is gone), where the rank hung */
		snprintf(o->why, sizeof(o->why),
			 "flushed when the rank exited without "
			 "MPI_Finalize: partial; it was in %s for %.3f s",
			 o->m.inflight_name, (double)o->m.inflight_ns / 1e9);
	else if (o->m.end_how == SES_MPI_END_EXIT)
		snprintf(o->why, sizeof(o->why),
			 "flushed when the rank exited without "
			 "MPI_Finalize: partial; it was in no MPI call");
	else if (o->m.end_how == SES_MPI_END_SNAPSHOT)
		/* no flush at the end: killed by SIGKILL (MPICH's launcher kills the process
		 * group of every rank when one dies), its last snapshot kept */
		snprintf(o->why, sizeof(o->why),
			 "a snapshot taken %.3f s after MPI_Init: the rank ended without a flush "
			 "(SIGKILL); partial, its calls up to then",
			 o->m.end_mono_ns > o->m.init_mono_ns
				 ? (double)(o->m.end_mono_ns - o->m.init_mono_ns) / 1e9
				 : 0.0);
	if (files > 1)
		snprintf(o->why + strlen(o->why), sizeof(o->why) - strlen(o->why),
			 "%s%d MPI data files; %s reported", o->why[0] ? "; " : "", files, first);
	return 0;
}

void rpt_job_mpi_release(struct rpt_job *j)
{
	for (int i = 0; j->mpi && i < j->nranks; i++)
		ses_mpi_release(&j->mpi[i].m);
	free(j->mpi);
	j->mpi = NULL;
}

/* ---- the sums ---- */

struct fn {
	char name[SES_MPI_NAME_MAX + 1];
	uint32_t kind;
	uint64_t calls, total_ns, sent, recv;
	double min_s, max_s;
	int min_rank, max_rank;
	double sumsq; /* of each rank's seconds: the coefficient of variation */
	uint64_t hist[SES_MPI_HIST_BUCKETS];
};

static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* MPI time: MPI_Init, MPI_Init_thread and MPI_Finalize are not in it (job_mpi_apart.c) */
static uint64_t rank_mpi_ns(const struct ses_mpi *m)
{
	return rpt_job_rank_mpi_ns(m);
}

uint64_t rpt_job_rank_wait_ns(const struct ses_mpi *m)
{
	uint64_t t = 0;

	for (size_t k = 0; k < m->nfuncs; k++)
		if (m->funcs[k].kind == SES_MPI_K_WAIT || !strcmp(m->funcs[k].name, "MPI_Barrier"))
			t += m->funcs[k].time_ns;
	return t;
}

uint64_t rpt_job_rank_sent(const struct ses_mpi *m)
{
	uint64_t b = 0;

	for (size_t k = 0; k < m->nfuncs; k++)
		b += m->funcs[k].bytes_sent;
	return b;
}

/* Every function over the ranks with data (a rank that never called one counts 0 for
 * its min, average and spread), in a malloc'ed array sorted by total time. */
static int functions(const struct rpt_job *j, struct fn **out, int *nranks)
{
	struct fn *v = NULL;
	int n = 0, cap = 0, ranks = 0;

	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		if (!j->mpi[i].has)
			continue;
		ranks++;
		for (size_t k = 0; k < m->nfuncs; k++) {
			const struct ses_mpi_func *f = &m->funcs[k];
			int x = 0;

			while (x < n && strcmp(v[x].name, f->name))
				x++;
			if (x == n) {
				if (n == cap) {
					struct fn *g = realloc(
						v, sizeof(*v) * (cap = cap ? cap * 2 : 64));

					if (!g) {
						free(v);
						return -ENOMEM;
					}
					v = g;
				}
				memset(&v[n], 0, sizeof(v[n]));
				memcpy(v[n].name, f->name, sizeof(v[n].name));
				v[n].kind = f->kind;
				v[n].min_s = INFINITY;
				v[n].min_rank = v[n].max_rank = -1;
				n++;
			}
			v[x].calls += f->calls;
			v[x].total_ns += f->time_ns;
			v[x].sent += f->bytes_sent;
			v[x].recv += f->bytes_recv;
			for (int b = 0; b < SES_MPI_HIST_BUCKETS; b++)
				v[x].hist[b] += f->hist[b];
		}
	}
	/* per rank: min, max and the sum of squares, with 0 for a rank without the call */
	for (int x = 0; x < n; x++)
		for (int i = 0; i < j->nranks; i++) {
			const struct ses_mpi *m = &j->mpi[i].m;
			double s = 0;

			if (!j->mpi[i].has)
				continue;
			for (size_t k = 0; k < m->nfuncs; k++)
				if (!strcmp(m->funcs[k].name, v[x].name))
					s += sec(m->funcs[k].time_ns);
			v[x].sumsq += s * s;
			if (s < v[x].min_s)
				v[x].min_s = s, v[x].min_rank = j->ranks[i].rank;
			if (v[x].max_rank < 0 || s > v[x].max_s)
				v[x].max_s = s, v[x].max_rank = j->ranks[i].rank;
		}
	/* by total time, largest first (a few dozen); MPI_Init/Finalize last, apart */
	for (int a = 1; a < n; a++)
		for (int b = a; b > 0 && rpt_job_mpi_before(v[b].name, v[b].total_ns, v[b - 1].name,
							    v[b - 1].total_ns);
		     b--) {
			struct fn t = v[b];

			v[b] = v[b - 1], v[b - 1] = t;
		}
	*out = v;
	*nranks = ranks;
	return n;
}

static uint64_t job_mpi_ns(const struct rpt_job *j)
{
	uint64_t t = 0;

	for (int i = 0; i < j->nranks; i++)
		if (j->mpi[i].has)
			t += rank_mpi_ns(&j->mpi[i].m);
	return t;
}

void rpt_job_mpi_snapshot(const struct rpt_job *j, FILE *f)
{
	uint64_t init = 0, fin = 0;

	if (!j->ntraced)
		return;
	for (int i = 0; i < j->nranks; i++)
		if (j->mpi[i].has) {
			init += rpt_job_rank_init_ns(&j->mpi[i].m);
			fin += rpt_job_rank_finalize_ns(&j->mpi[i].m);
		}
	fprintf(f, "MPI Time,\"%g seconds\"\n", sec(job_mpi_ns(j)));
	fprintf(f, "MPI Init Time,\"%g seconds\"\nMPI Finalize Time,\"%g seconds\"\n", sec(init),
		sec(fin));
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

static const char *thread_model(uint32_t t)
{
	static const char *const names[] = { "MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
					     "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE" };

	return t < 4 ? names[t] : "unknown";
}

static void write_env(const struct rpt_job *j, FILE *f, int nranks)
{
	const struct ses_mpi *m = NULL;

	for (int i = 0; i < j->nranks && !m; i++)
		if (j->mpi[i].has)
			m = &j->mpi[i].m;
	fprintf(f, "\nENVIRONMENT\nTotal Ranks, %d\n", m ? m->size : nranks);
	fprintf(f, "Library version, \"");
	util_put_escaped(f, m ? m->lib_version : "unknown", UTIL_ESC_CSV);
	fprintf(f, "\"\nMPI Std Version, %u.%06u\n", m ? m->std_major : 0,
		m ? m->std_minor * 100000 : 0);
	fprintf(f, "Thread Model, %s\n", thread_model(m ? m->thread_level : 9));
	fprintf(f, "MPI Family, %s\n",
		!m			       ? "unknown"
		: m->family == SES_MPI_OPENMPI ? "openmpi"
		: m->family == SES_MPI_MPICH   ? "mpich"
					       : "unknown");
	fprintf(f, "Ranks Traced, %d\nRanks With MPI Data, %d\n", j->ntraced, nranks);
	for (int i = 0; i < j->nranks; i++)
		if (j->mpi[i].traced && j->mpi[i].why[0]) {
			fprintf(f, "Rank MPI Data, %d, \"", j->ranks[i].rank);
			util_put_escaped(f, j->mpi[i].why, UTIL_ESC_CSV);
			fprintf(f, "\"\n");
		}
}

static void write_ranks(const struct rpt_job *j, FILE *f)
{
	uint64_t total = job_mpi_ns(j), vol = 0;

	for (int i = 0; i < j->nranks; i++)
		if (j->mpi[i].has)
			vol += rpt_job_rank_sent(&j->mpi[i].m);
	fprintf(f,
		"\nRANK SUMMARY TABLE\nRank,PID,MPI Time(seconds),MPI Time(%%),Wait Time(seconds),"
		"Wait Time(%%),Call Count,Volume(Bytes),Volume(%%),Elapsed Time(seconds),"
		"Time(%%),Init Time(seconds),Finalize Time(seconds),End State\n");
	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;
		uint64_t mpi, wait, calls = 0, sent;
		double el;

		if (!j->mpi[i].has)
			continue;
		mpi = rank_mpi_ns(m);
		wait = rpt_job_rank_wait_ns(m);
		sent = rpt_job_rank_sent(m);
		for (size_t k = 0; k < m->nfuncs; k++)
			calls += m->funcs[k].calls;
		el = sec(rpt_job_rank_app_ns(m));
		fprintf(f,
			"%d, %d, %g, %g, %g, %g, %" PRIu64 ", %" PRIu64
			", %g, %g, %g, %g, %g, %s\n",
			j->ranks[i].rank, m->pid, sec(mpi), pct((double)mpi, (double)total),
			sec(wait), pct((double)wait, (double)mpi), calls, sent,
			pct((double)sent, (double)vol), el, pct(sec(mpi), el),
			sec(rpt_job_rank_init_ns(m)), sec(rpt_job_rank_finalize_ns(m)),
			j->ranks[i].end_label);
	}
}

static void write_functions(FILE *f, const struct fn *v, int n, int nranks, uint64_t total,
			    bool coll)
{
	if (coll)
		fprintf(f,
			"\nCOLLECTIVE EVENTS SUMMARY\nFunction,Min Time(seconds),Max Time(seconds),"
			"Average Time(seconds),MPI Time(%%),Input Volume(Bytes),Output "
			"Volume(Bytes),Calls, Total Time(seconds)\n");
	else
		fprintf(f,
			"\nMPI FUNCTION SUMMARY TABLE (All Ranks)\nFunction,Min Time(seconds),"
			"Max Time(seconds),Average Time(seconds),MPI Time(%%),Volume(Bytes),Calls,"
			"Total Time(seconds)\n");
	for (int x = 0; x < n; x++) {
		double avg = nranks ? sec(v[x].total_ns) / nranks : 0;

		if (coll && v[x].kind != SES_MPI_K_COLL)
			continue;
		fprintf(f, "%s, %g, %g, %g, ", v[x].name, v[x].min_s, v[x].max_s, avg);
		if (rpt_job_mpi_lifecycle(v[x].name)) /* not MPI time: no share of it */
			fprintf(f, ", ");
		else
			fprintf(f, "%g, ", pct((double)v[x].total_ns, (double)total));
		if (coll)
			fprintf(f, "%" PRIu64 ", %" PRIu64 ", ", v[x].sent, v[x].recv);
		else
			fprintf(f, "%" PRIu64 ", ", v[x].sent);
		fprintf(f, "%" PRIu64 ", %g\n", v[x].calls, sec(v[x].total_ns));
	}
}

/* Sender ---> receiver, from the senders' records, in rank order. */
static void write_matrix(const struct rpt_job *j, FILE *f)
{
	uint64_t tns = 0, tb = 0;

	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			fprintf(f, "\nCOMMUNICATION MATRIX\nRank ---> Rank,MPI Time(seconds),MPI "
				   "Time(%%),Volume(Bytes),Volume(%%),Transfers\n");
		for (int i = 0; i < j->nranks; i++) {
			const struct ses_mpi *m = &j->mpi[i].m;

			for (size_t k = 0; j->mpi[i].has && k < m->npeers; k++) {
				const struct ses_mpi_peer *p = &m->peers[k];

				if (!p->send_calls)
					continue;
				if (!pass) {
					tns += p->send_time_ns, tb += p->send_bytes;
					continue;
				}
				fprintf(f, "%d ---> %d, %g, %g, %" PRIu64 ", %g, %" PRIu64 "\n",
					m->rank, p->peer, sec(p->send_time_ns),
					pct((double)p->send_time_ns, (double)tns), p->send_bytes,
					pct((double)p->send_bytes, (double)tb), p->send_calls);
			}
		}
	}
}

/* Imbalance = max/avg - 1 and CV = stddev/avg of each rank's time in the function. */
static void write_imbalance(const struct rpt_job *j, FILE *f, const struct fn *v, int n, int nranks)
{
	uint64_t max_rank_ns = 0;

	for (int i = 0; i < j->nranks; i++)
		if (j->mpi[i].has && rank_mpi_ns(&j->mpi[i].m) > max_rank_ns)
			max_rank_ns = rank_mpi_ns(&j->mpi[i].m);
	fprintf(f, "\nMPI IMBALANCE (across ranks)\nFunction,Max Time(seconds),Max Rank,Min "
		   "Time(seconds),Min Rank,Average Time(seconds),Imbalance(max/avg-1),CV(stddev/"
		   "avg),Flag\n");
	for (int x = 0; x < n; x++) {
		double avg = nranks ? sec(v[x].total_ns) / nranks : 0;
		double var = nranks ? v[x].sumsq / nranks - avg * avg : 0;
		double imb = avg > 0 ? v[x].max_s / avg - 1 : 0;
		double cv = avg > 0 ? sqrt(var > 0 ? var : 0) / avg : 0;
		bool flag = nranks > 1 && imb > IMBALANCE_FLAG &&
			    !rpt_job_mpi_lifecycle(v[x].name) &&
			    v[x].max_s >= IMBALANCE_MIN_SHARE * sec(max_rank_ns);

		fprintf(f, "%s, %g, %d, %g, %d, %g, %g, %g, %s\n", v[x].name, v[x].max_s,
			v[x].max_rank, v[x].min_s, v[x].min_rank, avg, imb, cv,
			flag ? "IMBALANCED" : "");
	}
}

/* Messages by size over all ranks: a row per function and size range that has any. */
static void write_sizes(FILE *f, const struct fn *v, int n)
{
	fprintf(f, "\nMPI MESSAGE SIZES (All Ranks)\nFunction,Min Size(Bytes),Max Size(Bytes),"
		   "Messages\n");
	for (int x = 0; x < n; x++)
		for (int b = 0; b < SES_MPI_HIST_BUCKETS; b++) {
			uint64_t lo = b ? 1ULL << (b - 1) : 0, hi = b ? (1ULL << b) - 1 : 0;

			if (!v[x].hist[b])
				continue;
			if (b == SES_MPI_HIST_BUCKETS - 1)
				fprintf(f, "%s, %" PRIu64 ", -, %" PRIu64 "\n", v[x].name, lo,
					v[x].hist[b]);
			else
				fprintf(f, "%s, %" PRIu64 ", %" PRIu64 ", %" PRIu64 "\n", v[x].name,
					lo, hi, v[x].hist[b]);
		}
}

static void write_rank_functions(const struct rpt_job *j, FILE *f)
{
	for (int i = 0; i < j->nranks; i++) {
		const struct ses_mpi *m = &j->mpi[i].m;

		if (!j->mpi[i].has)
			continue;
		fprintf(f,
			"\nMPI FUNCTION SUMMARY TABLE (Rank %d)\nFunction,Calls,Total "
			"Time(seconds),Volume Sent(Bytes),Volume Received(Bytes)\n",
			j->ranks[i].rank);
		for (size_t k = 0; k < m->nfuncs; k++)
			fprintf(f, "%s, %" PRIu64 ", %g, %" PRIu64 ", %" PRIu64 "\n",
				m->funcs[k].name, m->funcs[k].calls, sec(m->funcs[k].time_ns),
				m->funcs[k].bytes_sent, m->funcs[k].bytes_recv);
	}
}

int rpt_job_mpi_write(const struct rpt_job *j, FILE *f)
{
	struct fn *v = NULL;
	int n, nranks = 0, ret = 0;

	if (!j->ntraced)
		return 0;
	n = functions(j, &v, &nranks);
	if (n < 0)
		return n;
	fprintf(f, "\n\nMPI TRACING REPORT\n");
	write_env(j, f, nranks);
	write_ranks(j, f);
	write_functions(f, v, n, nranks, job_mpi_ns(j), false);
	write_matrix(j, f);
	rpt_job_mpi_rma_write(j, f); /* job_mpi_rma.c */
	write_functions(f, v, n, nranks, job_mpi_ns(j), true);
	write_imbalance(j, f, v, n, nranks);
	write_sizes(f, v, n);
	rpt_job_sizes_per_rank(j, f);	 /* job_sizes.c */
	ret = rpt_job_sites_write(j, f); /* job_sites.c */
	if (j->opts.detail)
		write_rank_functions(j, f);
	free(v);
	return ret;
}
