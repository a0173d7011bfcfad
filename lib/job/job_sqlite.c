// SPDX-License-Identifier: MIT
/*
 * report.db of an MPI job (report -i JOBDIR --export sqlite): the job's MPI data as
 * tables, the numbers of its report.csv's MPI TRACING REPORT (job_mpi.c's sums, through
 * job_tool.c's views), keyed by rank: uprof_mpi_ranks (RANK SUMMARY TABLE), uprof_mpi_calls
 * (each rank's functions, report --detail's MPI FUNCTION SUMMARY TABLE (Rank N)),
 * uprof_mpi_matrix (COMMUNICATION MATRIX) and uprof_mpi_sites (MPI CALL SITES PER RANK,
 * every site: report --mpi-top 0, with the site's place from MPI CALL SITES). Times in ns, as in a session's report.db. Built
 * in memory in one transaction and written whole to @f, as lib/export's report.db is.
 */
#include "job/internal.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>

/* clang-format off */
static const char schema[] =
	"PRAGMA journal_mode = OFF; BEGIN TRANSACTION;"
	"CREATE TABLE uprof_mpi_ranks (rank integer NOT NULL PRIMARY KEY, pid integer,"
	" host varchar(128), app_time bigint, mpi_time bigint, wait_time bigint,"
	" init_time bigint, finalize_time bigint, calls bigint, bytes_sent bigint,"
	" end_state varchar(48), why varchar(256));"
	"CREATE TABLE uprof_mpi_calls (id integer NOT NULL PRIMARY KEY, rank integer,"
	" function varchar(64), calls bigint, time bigint, bytes_sent bigint,"
	" bytes_recv bigint);"
	"CREATE TABLE uprof_mpi_matrix (id integer NOT NULL PRIMARY KEY, from_rank integer,"
	" to_rank integer, time bigint, bytes bigint, transfers bigint);"
	"CREATE TABLE uprof_mpi_sites (id integer NOT NULL PRIMARY KEY, rank integer,"
	" site integer, function varchar(64), place varchar(300), file_line integer,"
	" caller varchar(256), module varchar(256), callers varchar(600), calls bigint,"
	" time bigint, messages bigint, bytes bigint, min_bytes bigint, max_bytes bigint);";
/* clang-format on */

static int64_t ns(double s)
{
	return (int64_t)(s * 1e9 + 0.5);
}

/* Bind @n values (@text_mask: which are the strings of @texts, in order), step, reset. */
static int put(sqlite3_stmt *st, const int64_t *v, int n, unsigned text_mask,
	       const char *const *texts)
{
	int rc, t = 0;

	for (int i = 0; i < n; i++)
		if (text_mask & (1u << i))
			sqlite3_bind_text(st, i + 1, texts[t++], -1, SQLITE_TRANSIENT);
		else
			sqlite3_bind_int64(st, i + 1, v[i]);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

/* uprof_mpi_sites: rank by rank, site by site, as the tool API's mpi_site. */
static int fill_sites(sqlite3 *db, const struct rpt_job *j)
{
	size_t ns = rpt_job_mpi_sites(j);
	sqlite3_stmt *st = NULL;
	int64_t id = 0;
	int ret = 0;

	if (sqlite3_prepare_v2(db,
			       "INSERT INTO uprof_mpi_sites VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &st, NULL) != SQLITE_OK)
		ret = -EIO;
	for (int i = 0; !ret && i < j->nranks; i++)
		for (size_t k = 0; !ret && k < ns; k++) {
			struct rpt_job_mpi_site_view v;

			if (rpt_job_mpi_site_at(j, k, i, &v))
				continue;
			ret = put(st,
				  (int64_t[]){ ++id, v.rank, v.site, 0, 0, v.line, 0, 0, 0,
					       (int64_t)v.calls, (int64_t)v.time_ns,
					       (int64_t)v.messages, (int64_t)v.bytes,
					       (int64_t)v.min_bytes, (int64_t)v.max_bytes },
				  15, 1u << 3 | 1u << 4 | 1u << 6 | 1u << 7 | 1u << 8,
				  (const char *const[]){ v.function, v.place, v.caller, v.module,
							 v.callers });
		}
	sqlite3_finalize(st);
	return ret;
}

static int fill(sqlite3 *db, const struct rpt_job *j)
{
	sqlite3_stmt *rs = NULL, *cs = NULL, *ms = NULL;
	int64_t ncalls = 0, nlinks = 0;
	int ret = 0;

	if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO uprof_mpi_ranks VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &rs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO uprof_mpi_calls VALUES (?,?,?,?,?,?,?)", -1, &cs,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO uprof_mpi_matrix VALUES (?,?,?,?,?,?)", -1, &ms,
			       NULL) != SQLITE_OK)
		ret = -EIO;
	for (int i = 0; !ret && i < j->nranks; i++) {
		struct rpt_job_mpi_rank_view v;
		const struct ses_mpi_func *f;
		size_t nf;

		if (rpt_job_mpi_rank_at(j, i, &v))
			continue;
		/* the seconds of the view are ns / 1e9: back to the ns they were */
		ret = put(rs,
			  (int64_t[]){ v.rank, v.pid, 0, ns(v.app_s), ns(v.mpi_s), ns(v.wait_s),
				       ns(v.init_s), ns(v.finalize_s), (int64_t)v.calls,
				       (int64_t)v.bytes_sent, 0, 0 },
			  12, 1u << 2 | 1u << 10 | 1u << 11,
			  (const char *const[]){ v.host, v.end, v.why });
		nf = rpt_job_mpi_funcs_at(j, i, &f);
		for (size_t k = 0; !ret && k < nf; k++)
			ret = put(cs,
				  (int64_t[]){ ++ncalls, v.rank, 0, (int64_t)f[k].calls,
					       (int64_t)f[k].time_ns, (int64_t)f[k].bytes_sent,
					       (int64_t)f[k].bytes_recv },
				  7, 1u << 2, (const char *const[]){ f[k].name });
		/* sender ---> receiver from the senders' records, as the CSV's matrix */
		for (size_t k = 0; !ret && k < j->mpi[i].m.npeers; k++) {
			const struct ses_mpi_peer *p = &j->mpi[i].m.peers[k];

			if (p->send_calls)
				ret = put(ms,
					  (int64_t[]){ ++nlinks, j->mpi[i].m.rank, p->peer,
						       (int64_t)p->send_time_ns,
						       (int64_t)p->send_bytes,
						       (int64_t)p->send_calls },
					  6, 0, NULL);
		}
	}
	sqlite3_finalize(rs);
	sqlite3_finalize(cs);
	sqlite3_finalize(ms);
	if (!ret)
		ret = fill_sites(db, j);
	if (!ret && sqlite3_exec(db, "COMMIT;", NULL, NULL, NULL) != SQLITE_OK)
		ret = -EIO;
	return ret;
}

int rpt_job_export_sqlite(const struct rpt_job *j, FILE *f)
{
	sqlite3_int64 size = 0;
	unsigned char *image;
	sqlite3 *db = NULL;
	int ret;

	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(db);
		return -ENOMEM;
	}
	ret = fill(db, j);
	if (!ret) {
		image = sqlite3_serialize(db, "main", &size, 0);
		if (!image)
			ret = -ENOMEM;
		else if (fwrite(image, 1, (size_t)size, f) != (size_t)size)
			ret = -EIO;
		sqlite3_free(image);
	}
	sqlite3_close(db);
	return ret;
}
