// SPDX-License-Identifier: MIT
/*
 * lib/job's MPI tables with MPI_Init/Finalize apart (job_mpi.c, job_mpi_apart.c), on a
 * job of three made-up ranks whose every figure is known: rank 1 starts slowest (MPI_Init
 * 3 s against 1 s) and waits longest in MPI_Barrier (0.4 s against 0.1 s). The barrier is
 * flagged, the start-up is not, and no MPI time or share counts MPI_Init or MPI_Finalize.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/internal.h"

#define S 1000000000ull /* ns */

static struct ses_mpi_func fn(const char *name, uint32_t kind, uint64_t calls, uint64_t ns,
			      uint64_t sent)
{
	struct ses_mpi_func f = { .kind = kind, .calls = calls, .time_ns = ns, .bytes_sent = sent };

	snprintf(f.name, sizeof(f.name), "%s", name);
	return f;
}

struct fixture {
	struct rpt_job j;
	struct rpt_job_rank ranks[3];
	struct rpt_job_mpi mpi[3];
	struct ses_mpi_func funcs[3][4];
};

/* rank r: MPI_Init (3 s on rank 1, else 1 s), 10 MPI_Send of 100 bytes in 0.15 s,
 * MPI_Barrier (0.4 s on rank 1, else 0.1 s), MPI_Finalize 0.05 s; from MPI_Init's call
 * to the flush, the init time + 1 s */
static void make_job(struct fixture *x)
{
	memset(x, 0, sizeof(*x));
	x->j.nranks = 3;
	x->j.ranks = x->ranks;
	x->j.mpi = x->mpi;
	x->j.ntraced = 3;
	for (int r = 0; r < 3; r++) {
		uint64_t init = r == 1 ? 3 * S : 1 * S;
		struct ses_mpi *m = &x->mpi[r].m;

		x->ranks[r].rank = r;
		x->mpi[r].traced = x->mpi[r].has = true;
		x->funcs[r][0] = fn("MPI_Init", SES_MPI_K_OTHER, 1, init, 0);
		x->funcs[r][1] = fn("MPI_Send", SES_MPI_K_P2P, 10, 150000000, 1000);
		x->funcs[r][2] = fn("MPI_Barrier", SES_MPI_K_COLL, 1, r == 1 ? 400000000 : 100000000,
				    0);
		x->funcs[r][3] = fn("MPI_Finalize", SES_MPI_K_OTHER, 1, 50000000, 0);
		m->rank = r;
		m->size = 3;
		m->pid = 100 + r;
		m->funcs = x->funcs[r];
		m->nfuncs = 4;
		m->init_mono_ns = 5 * S;
		m->end_mono_ns = (int64_t)(5 * S + init + 1 * S);
		m->complete = true;
	}
}

/* What @write puts in a memory stream, NUL-terminated (free it). */
static char *text_of(struct fixture *x, bool snapshot)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	if (snapshot)
		rpt_job_mpi_snapshot(&x->j, f);
	else
		assert_int_equal(rpt_job_mpi_write(&x->j, f), 0);
	fclose(f);
	return buf;
}

static void has_line(const char *text, const char *line)
{
	char want[512];

	snprintf(want, sizeof(want), "\n%s\n", line);
	if (!strstr(text, want))
		fail_msg("no line '%s' in:\n%s", line, text);
}

static void snapshot_keeps_init_apart(void **state)
{
	struct fixture x;
	char *t;

	(void)state;
	make_job(&x);
	t = text_of(&x, true);
	/* 0.25 + 0.55 + 0.25: MPI_Send and MPI_Barrier only */
	assert_string_equal(t, "MPI Time,\"1.05 seconds\"\nMPI Init Time,\"5 seconds\"\n"
			       "MPI Finalize Time,\"0.15 seconds\"\n");
	free(t);
}

static void tables_keep_init_apart(void **state)
{
	struct fixture x;
	char *t, *fns;

	(void)state;
	make_job(&x);
	t = text_of(&x, false);
	has_line(t, "Rank,PID,MPI Time(seconds),MPI Time(%),Wait Time(seconds),Wait Time(%),"
		    "Call Count,Volume(Bytes),Volume(%),Elapsed Time(seconds),Time(%),"
		    "Init Time(seconds),Finalize Time(seconds),End State");
	/* MPI time 0.55 of 1.05, its wait the barrier's 0.4, 13 calls, a third of the bytes,
	 * elapsed 4 s - 3 s of MPI_Init - 0.05 s of MPI_Finalize */
	/* (End State empty: the fixture's ranks have no session.ini to end by) */
	has_line(t, "1, 101, 0.55, 52.381, 0.4, 72.7273, 13, 1000, 33.3333, 0.95, 57.8947, 3, 0.05, ");
	has_line(t, "0, 100, 0.25, 23.8095, 0.1, 40, 13, 1000, 33.3333, 0.95, 26.3158, 1, 0.05, ");
	/* the functions by time, the runtime's start and end last with no share of MPI time */
	fns = strstr(t, "\nMPI FUNCTION SUMMARY TABLE (All Ranks)\n");
	assert_non_null(fns);
	assert_non_null(strstr(fns, "Total Time(seconds)\n"
				    "MPI_Barrier, 0.1, 0.4, 0.2, 57.1429, 0, 3, 0.6\n"
				    "MPI_Send, 0.15, 0.15, 0.15, 42.8571, 3000, 30, 0.45\n"
				    "MPI_Init, 1, 3, 1.66667, , 0, 3, 5\n"
				    "MPI_Finalize, 0.05, 0.05, 0.05, , 0, 3, 0.15\n\n"));
	/* MPI_Init's max/avg - 1 is 0.8, over the flag's 0.25: not flagged all the same */
	has_line(t, "MPI_Barrier, 0.4, 1, 0.1, 0, 0.2, 1, 0.707107, IMBALANCED");
	has_line(t, "MPI_Init, 3, 1, 1, 0, 1.66667, 0.8, 0.565685, ");
	free(t);
}

static void summary_names_top_and_imbalance(void **state)
{
	struct rpt_job_mpi_summary s;
	struct fixture x;

	(void)state;
	make_job(&x);
	rpt_job_mpi_summary(&x.j, &s);
	assert_int_equal(s.traced, 3);
	assert_int_equal(s.ranks, 3);
	assert_float_equal(s.mpi_s, 1.05, 1e-9);
	assert_float_equal(s.elapsed_s, 2.85, 1e-9);
	assert_float_equal(s.init_s, 5, 1e-9);
	assert_float_equal(s.finalize_s, 0.15, 1e-9);
	assert_string_equal(s.top, "MPI_Barrier");
	assert_float_equal(s.top_s, 0.6, 1e-9);
	assert_string_equal(s.imbalanced, "MPI_Barrier");
	assert_float_equal(s.imbalance, 1.0, 1e-9);
	assert_int_equal(s.imbalance_rank, 1);
	/* the barrier even: nothing flagged (MPI_Init's 0.8 never is) */
	for (int r = 0; r < 3; r++)
		x.funcs[r][2].time_ns = 100000000;
	rpt_job_mpi_summary(&x.j, &s);
	assert_string_equal(s.imbalanced, "");
	assert_int_equal(s.imbalance_rank, -1);
	assert_string_equal(s.top, "MPI_Send");
	/* a rank without data counts nowhere */
	x.mpi[2].has = false;
	rpt_job_mpi_summary(&x.j, &s);
	assert_int_equal(s.ranks, 2);
	assert_float_equal(s.init_s, 4, 1e-9);
}

/* <pid>.noinit names a rank that ran with the library and saw no MPI_Init: said so */
static void noinit_marker_named(void **state)
{
	char why[256];

	(void)state;
	assert_true(rpt_job_mpi_is_noinit("4242.noinit"));
	assert_false(rpt_job_mpi_is_noinit(".noinit"));
	assert_false(rpt_job_mpi_is_noinit("4242.mpi"));
	assert_false(rpt_job_mpi_is_noinit("4242.noinit.tmp"));
	rpt_job_mpi_why_none(why, sizeof(why), 1);
	assert_non_null(strstr(why, "no MPI data: the program ran with uprof's MPI library "
				    "loaded and exited, and the library saw no MPI_Init"));
	rpt_job_mpi_why_none(why, sizeof(why), 0);
	assert_non_null(strstr(why, "no MPI data: the rank wrote no mpi/<pid>.mpi: killed"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(snapshot_keeps_init_apart),
		cmocka_unit_test(tables_keep_init_apart),
		cmocka_unit_test(summary_names_top_and_imbalance),
		cmocka_unit_test(noinit_marker_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
