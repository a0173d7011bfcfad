// SPDX-License-Identifier: MIT
/*
 * The MPI part of trace.json, from the ranks' `--trace mpi=full` events (mpi/<pid>.mpiev)
 * matched by mpi_match.c:
 *   - each call a complete ("X") slice, category "mpi", on its thread's track (the
 *     samples' and tasks' track in a session's own trace), args: the peer it sent to and
 *     received from (world ranks), tags, bytes, communicator;
 *   - each message a flow ("s" on the sending call, "f" bound to the enclosing slice on
 *     the call where it arrived: a blocking receive, or the Wait/Test that completed a
 *     nonblocking or persistent one), category "mpi_message", at each slice's middle so
 *     that the slice encloses it, the "s" with the message's dest, tag and bytes (one
 *     MPI_Startall starts several: each is a PART event of it, no slice of its own);
 *   - a job's trace (rpt_export_mpi_job): a process per rank named "rank N (host, pid)",
 *     in rank order, every rank's times moved to its host's wall clock;
 *   - otherData's "mpi": the counts, the calls left out past RPT_MPI_SLICES_MAX (the
 *     earliest kept) and the ones the interposers never recorded (past their cap).
 */
#include "export/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int64_t at(const struct rpt_pf_mpi *m, size_t i, int64_t t)
{
	return t + m->ranks[i].offset_ns;
}

uint64_t rpt_pf_mpi_base(const struct rpt_pf_mpi *m, uint64_t base)
{
	for (size_t i = 0; m && i < m->nranks; i++)
		for (size_t k = 0; m->ranks[i].ev && k < m->ranks[i].ev->ncalls; k++) {
			int64_t t = at(m, i, m->ranks[i].ev->calls[k].begin_ns);

			if (rpt_pf_mpi_kept(m, i, k) && t > 0 && (!base || (uint64_t)t < base))
				base = (uint64_t)t;
		}
	return base;
}

static void put_call(struct rpt_pf *w, const struct rpt_pf_mpi *m, size_t i, size_t k)
{
	const struct ses_mpiev *ev = m->ranks[i].ev;
	const struct ses_mpiev_call *c = &ev->calls[k];
	FILE *f = w->f;

	rpt_pf_sep(w);
	fprintf(f, "{\"ph\":\"X\",\"cat\":\"mpi\",\"pid\":%d,\"tid\":%d,\"ts\":", ev->pid, c->tid);
	rpt_pf_ts(w, (uint64_t)at(m, i, c->begin_ns));
	fprintf(f, ",\"dur\":%.3f,\"name\":\"", (double)(c->end_ns - c->begin_ns) / 1e3);
	util_put_escaped(f, ev->names[c->func], UTIL_ESC_JSON);
	fprintf(f, "\",\"args\":{\"rank\":%d,\"comm\":%u", m->ranks[i].rank, c->comm);
	if (c->flags & SES_MPIEV_COLL) {
		fprintf(f, ",\"bytes_sent\":%" PRIu64 ",\"bytes_received\":%" PRIu64, c->sent,
			c->recvd);
	} else {
		if (c->flags & SES_MPIEV_SEND)
			fprintf(f, ",\"dest\":%d,\"send_tag\":%d,\"bytes_sent\":%" PRIu64, c->dest,
				c->send_tag, c->sent);
		if (c->flags & SES_MPIEV_RECV)
			fprintf(f, ",\"source\":%d,\"recv_tag\":%d,\"bytes_received\":%" PRIu64,
				c->source, c->recv_tag, c->recvd);
		if ((c->flags & SES_MPIEV_NONBLOCKING) && c->done)
			fprintf(f, ",\"completed_in\":\"%s\"",
				ev->names[ev->calls[c->done - 1].func]);
	}
	fputs("}}", f);
}

/* A PART (one message of MPI_Startall's) is no slice: its call's is. */
static bool is_part(const struct ses_mpiev_call *c)
{
	return (c->flags & SES_MPIEV_PART) != 0;
}

static const struct ses_mpiev_call *slice_of(const struct ses_mpiev *ev, uint32_t k)
{
	const struct ses_mpiev_call *c = &ev->calls[k];

	return is_part(c) && c->part_of ? &ev->calls[c->part_of - 1] : c;
}

/* One end of flow @id: "s" or "f" at the middle of the slice of call @k of rank @i; the
 * start says the message (a call of several, MPI_Startall, has no peer of its own). */
static void put_flow_end(struct rpt_pf *w, const struct rpt_pf_mpi *m, uint32_t i, uint32_t k,
			 size_t id, bool start)
{
	const struct ses_mpiev *ev = m->ranks[i].ev;
	const struct ses_mpiev_call *msg = &ev->calls[k], *c = slice_of(ev, k);

	rpt_pf_sep(w);
	fprintf(w->f,
		"{\"ph\":\"%s\",%s\"cat\":\"mpi_message\",\"name\":\"message\",\"id\":%zu,"
		"\"pid\":%d,\"tid\":%d,\"ts\":",
		start ? "s" : "f", start ? "" : "\"bp\":\"e\",", id, ev->pid, c->tid);
	rpt_pf_ts(w, (uint64_t)at(m, i, c->begin_ns + (c->end_ns - c->begin_ns) / 2));
	if (start)
		fprintf(w->f, ",\"args\":{\"dest\":%d,\"tag\":%d,\"bytes\":%" PRIu64 "}", msg->dest,
			msg->send_tag, msg->sent);
	fputc('}', w->f);
}

static void put_names(struct rpt_pf *w, const struct rpt_pf_mpi *m)
{
	for (size_t i = 0; i < m->nranks; i++) {
		const struct rpt_mpi_rank *r = &m->ranks[i];
		char name[256], tname[64];
		int *seen;
		size_t nseen = 0;

		if (!r->ev)
			continue;
		snprintf(name, sizeof(name), "rank %d (%s, %d)", r->rank, r->host ? r->host : "?",
			 r->ev->pid);
		rpt_pf_meta(w, "process_name", (uint32_t)r->ev->pid, (uint32_t)r->ev->pid, name,
			    "");
		rpt_pf_sep(w);
		fprintf(w->f,
			"{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\","
			"\"args\":{\"sort_index\":%d}}",
			r->ev->pid, r->rank);
		/* each thread that called MPI, once */
		seen = malloc(sizeof(*seen) * (r->ev->ncalls + 1));
		for (size_t k = 0; seen && k < r->ev->ncalls; k++) {
			int tid = r->ev->calls[k].tid;
			size_t s = 0;

			while (s < nseen && seen[s] != tid)
				s++;
			if (s < nseen)
				continue;
			seen[nseen++] = tid;
			if (tid == r->ev->pid)
				snprintf(tname, sizeof(tname), "rank %d", r->rank);
			else
				snprintf(tname, sizeof(tname), "rank %d thread %d", r->rank, tid);
			rpt_pf_meta(w, "thread_name", (uint32_t)r->ev->pid, (uint32_t)tid, tname,
				    "");
		}
		free(seen);
	}
}

void rpt_pf_mpi_put(struct rpt_pf *w, const struct rpt_pf_mpi *m, bool name_tracks)
{
	if (!m)
		return;
	if (name_tracks)
		put_names(w, m);
	for (size_t i = 0; i < m->nranks; i++)
		for (size_t k = 0; m->ranks[i].ev && k < m->ranks[i].ev->ncalls; k++)
			if (rpt_pf_mpi_kept(m, i, k) && !is_part(&m->ranks[i].ev->calls[k]))
				put_call(w, m, i, k);
	for (size_t n = 0; n < m->nflows; n++) {
		const struct rpt_pf_mpi_flow *fl = &m->flows[n];

		put_flow_end(w, m, fl->send_rank, fl->send_call, n + 1, true);
		put_flow_end(w, m, fl->recv_rank, fl->recv_call, n + 1, false);
	}
}

/* The slices kept (@only_kept) or all of them: the calls but PARTs */
static size_t slices(const struct rpt_pf_mpi *m, bool only_kept)
{
	size_t n = 0;

	for (size_t i = 0; i < m->nranks; i++)
		for (size_t k = 0; m->ranks[i].ev && k < m->ranks[i].ev->ncalls; k++)
			n += (!only_kept || rpt_pf_mpi_kept(m, i, k)) &&
			     !is_part(&m->ranks[i].ev->calls[k]);
	return n;
}

static size_t kept(const struct rpt_pf_mpi *m)
{
	return slices(m, true);
}

void rpt_pf_mpi_other(struct rpt_pf *w, const struct rpt_pf_mpi *m)
{
	FILE *f = w->f;
	size_t n = 0, shown;
	bool first = true;

	if (!m)
		return;
	shown = kept(m);
	for (size_t i = 0; i < m->nranks; i++)
		n += m->ranks[i].ev != NULL;
	fprintf(f,
		",\"mpi\":{\"ranks_with_events\":%zu,\"slices\":%zu,\"messages\":%zu,"
		"\"unmatched_sends\":%" PRIu64 ",\"unmatched_receives\":%" PRIu64
		",\"completions_unlinked\":%" PRIu64
		",\"not_recorded\":{\"events_past_the_cap\":%" PRIu64
		",\"calls_unfinished_at_the_flush\":%" PRIu64 "}",
		n, shown, m->nflows, m->unmatched_sends, m->unmatched_recvs, m->unlinked,
		m->dropped, m->unfilled);
	if (m->cut) {
		fprintf(f, ",\"left_out\":{\"slices\":%zu,\"from_ts\":", slices(m, false) - shown);
		rpt_pf_ts(w, (uint64_t)m->cut_ns);
		fprintf(f, ",\"kept_at_most\":%u}", RPT_MPI_SLICES_MAX);
	}
	for (size_t i = 0; i < m->nranks; i++) {
		if (m->ranks[i].ev || !m->ranks[i].why)
			continue;
		fprintf(f, "%s{\"rank\":%d,\"why\":\"", first ? ",\"ranks_without_events\":[" : ",",
			m->ranks[i].rank);
		util_put_escaped(f, m->ranks[i].why, UTIL_ESC_JSON);
		fputs("\"}", f);
		first = false;
	}
	if (!first)
		fputc(']', f);
	/* ranks whose file holds less than their whole run: flushed by a signal or an exit
	 * without MPI_Finalize (their calls up to then), or cut */
	first = true;
	for (size_t i = 0; i < m->nranks; i++) {
		const struct ses_mpiev *ev = m->ranks[i].ev;

		if (!ev || (ev->end_how == SES_MPI_END_FINALIZE && !ev->damage[0]))
			continue;
		fprintf(f, "%s{\"rank\":%d,\"flushed_by\":\"%s\"",
			first ? ",\"ranks_partial\":[" : ",", m->ranks[i].rank,
			ses_mpi_end_name(ev->end_how));
		if (ev->damage[0]) {
			fprintf(f, ",\"damaged_at\":%" PRIu64 ",\"damage\":\"", ev->damaged_at);
			util_put_escaped(f, ev->damage, UTIL_ESC_JSON);
			fputc('"', f);
		}
		fputc('}', f);
		first = false;
	}
	if (!first)
		fputc(']', f);
	fputc('}', f);
}

int rpt_pf_mpi_session(const struct rpt *r, struct rpt_pf_mpi **out)
{
	struct rpt_mpi_rank *rank;
	struct ses_mpiev *ev;
	char err[256];
	int ret;

	*out = NULL;
	if (rpt_dir_fd(r) < 0) /* a perf file: no session directory */
		return 0;
	rank = calloc(1, sizeof(*rank) + sizeof(*ev));
	if (!rank)
		return -ENOMEM;
	ev = (struct ses_mpiev *)(rank + 1);
	ret = ses_mpiev_find_at(rpt_dir_fd(r), ev, err, sizeof(err));
	if (ret <= 0) { /* none, or unreadable: the trace goes without (report's MPI tables
			 * say what is wrong with the rank's data) */
		free(rank);
		return ret == -ENOMEM ? ret : 0;
	}
	rank->ev = ev;
	rank->rank = ev->rank;
	rank->pid = ev->pid;
	ret = rpt_pf_mpi_new(out, rank, 1, RPT_MPI_SLICES_MAX);
	if (ret) {
		ses_mpiev_release(ev);
		free(rank);
	}
	return ret;
}

/* The session's model owns its one rank (rpt_pf_mpi_session): freed with it. */
void rpt_pf_mpi_session_free(struct rpt_pf_mpi *m)
{
	struct rpt_mpi_rank *rank;

	if (!m)
		return;
	rank = (struct rpt_mpi_rank *)m->ranks;
	rpt_pf_mpi_free(m);
	ses_mpiev_release((struct ses_mpiev *)(rank + 1));
	free(rank);
}

int rpt_export_mpi_job(FILE *f, const struct rpt_mpi_rank *ranks, size_t n, const char *jobdir,
		       struct rpt_mpi_trace_facts *facts)
{
	struct rpt_pf w = { .f = f, .first = true };
	struct rpt_pf_mpi *m;
	int ret = rpt_pf_mpi_new(&m, ranks, n, RPT_MPI_SLICES_MAX);

	if (ret)
		return ret;
	w.base = rpt_pf_mpi_base(m, 0);
	fputs("{\"traceEvents\":[", f);
	rpt_pf_mpi_put(&w, m, true);
	fputs("\n],\n\"displayTimeUnit\":\"ms\",\n", f);
	fprintf(f, "\"otherData\":{\"tool\":\"uprof %s\",\"job\":\"", UPROF_VERSION);
	util_put_escaped(f, jobdir, UTIL_ESC_JSON);
	fputs("\",\"clock\":\"each rank's CLOCK_MONOTONIC plus its host's wall-clock offset "
	      "(job.ini)\"",
	      f);
	rpt_pf_mpi_other(&w, m);
	fputs("}}\n", f);
	if (facts) {
		memset(facts, 0, sizeof(*facts));
		facts->ranks = n;
		facts->slices = kept(m);
		facts->messages = m->nflows;
		facts->left_out = slices(m, false) - facts->slices;
		facts->dropped = m->dropped;
	}
	rpt_pf_mpi_free(m);
	return ferror(f) ? -EIO : 0;
}
