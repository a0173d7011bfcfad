// SPDX-License-Identifier: MIT
/*
 * Side files as the release before the one container wrote them
 * (tests/fixtures/sidefiles-v1, README there says how they were made): a .tasks, an
 * .ompt, an .mpi and a leafstack.data of real collects. Each still reads, with the exact
 * counts, names and first and last records it was written with. Files a user kept from
 * that release must report as they did.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/session.h"

#include "session_helpers.h"

#define FIX "tests/fixtures/sidefiles-v1/"

/* tasks.tasks: tests/targets/tasks under `collect` (the parent process) */
static void tasks_v1(void **state)
{
	size_t len;
	unsigned char *b = slurp(FIX "tasks.tasks", &len);
	struct ses_tasks t;
	char err[128];
	const struct ses_task_record *r;

	(void)state;
	assert_int_equal(len, 1312);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.pid, 15514);
	assert_int_equal(t.damaged_at, 0);
	assert_null(t.damage);
	assert_int_equal(t.nrecords, 28);
	assert_int_equal(t.dropped_records, 0);
	assert_int_equal(t.dropped_names, 0);
	r = &t.records[0];
	assert_int_equal(r->time_ns, 507531980803ULL);
	assert_int_equal(r->tid, 15514);
	assert_int_equal(r->kind, SES_TASK_END);
	assert_int_equal(r->domain, 1);
	assert_int_equal(r->name, 0);
	r = &t.records[1];
	assert_int_equal(r->kind, SES_EVENT_END);
	assert_string_equal(ses_tasks_string(&t, r->name), "Ev");
	r = &t.records[27];
	assert_int_equal(r->time_ns, 508264059883ULL);
	assert_int_equal(r->kind, SES_TASK_BEGIN);
	assert_string_equal(ses_tasks_string(&t, r->domain), "DomB");
	assert_string_equal(ses_tasks_string(&t, r->name), "Never");
	assert_string_equal(ses_tasks_string(&t, 1), "DomA");
	assert_string_equal(ses_tasks_string(&t, 121), "Threaded");
	assert_string_equal(ses_tasks_string(&t, 165), "PausedEnd");
	assert_null(ses_tasks_string(&t, 2));
	ses_tasks_release(&t);
	free(b);
}

/* omp_regions.ompt: tests/targets/omp_regions balance 1 under `collect --trace openmp` */
static void ompt_v1(void **state)
{
	size_t len;
	unsigned char *b = slurp(FIX "omp_regions.ompt", &len);
	struct ses_ompt o;
	char err[128];

	(void)state;
	assert_int_equal(len, 1992);
	assert_int_equal(ses_ompt_parse(b, len, &o, err, sizeof(err)), 0);
	assert_int_equal(o.pid, 15543);
	assert_int_equal(o.impl, SES_OMPT_IMPL_OMPT);
	assert_int_equal(o.scope, SES_OMPT_SCOPE_BASIC);
	assert_int_equal(o.damaged_at, 0);
	assert_null(o.damage);
	assert_true(o.has_runtime);
	assert_int_equal(o.omp_version, 201611);
	assert_string_equal(o.runtime, "LLVM OMP version: 5.0.20140926");
	assert_int_equal(o.nevents, 8);
	assert_int_equal(o.nvalues, 46);
	assert_int_equal(o.nsites, 2);
	assert_int_equal(o.ntargets, 0);
	assert_int_equal(o.dropped_records, 0);
	assert_int_equal(o.events[0].value, 508380644963ULL);
	assert_int_equal(o.events[0].kind, SES_OMPT_BEGIN);
	assert_int_equal(o.events[0].site, 23);
	assert_int_equal(o.events[7].value, 508613121494ULL);
	assert_int_equal(o.events[7].tid, 15545);
	assert_int_equal(o.events[7].kind, SES_OMPT_END);
	assert_int_equal(o.events[7].site, 45);
	assert_int_equal(o.values[0].value, 239727181);
	assert_int_equal(o.values[0].how, 48);
	assert_int_equal(o.values[45].how, 60);
	assert_int_equal(o.sites[0].id, 23);
	assert_int_equal(o.sites[0].code, 94146900165924ULL);
	assert_int_equal(o.sites[1].id, 45);
	assert_int_equal(o.sites[1].code, 94146900166142ULL);
	assert_string_equal(ses_ompt_string(&o, 37), "OMP Primary Thread #0");
	assert_string_equal(ses_ompt_string(&o, 65), "OMP Worker Thread #9");
	ses_ompt_release(&o);
	free(b);
}

/* mpi_spin_rank0.mpi: rank 0 of tests/targets/mpi_spin.openmpi, 2 ranks, under
 * `mpirun -np 2 uprof collect --trace mpi` */
static void mpi_v1(void **state)
{
	struct ses_mpi m;
	char err[128];

	(void)state;
	assert_int_equal(ses_mpi_read(FIX "mpi_spin_rank0.mpi", &m, err, sizeof(err)), 0);
	assert_int_equal(m.rank, 0);
	assert_int_equal(m.size, 2);
	assert_int_equal(m.pid, 15593);
	assert_int_equal(m.family, SES_MPI_OPENMPI);
	assert_int_equal(m.end_how, SES_MPI_END_FINALIZE);
	assert_int_equal(m.init_mono_ns, 509052785510LL);
	assert_int_equal(m.end_mono_ns, 510812367351LL);
	assert_int_equal(m.thread_level, 0);
	assert_int_equal(m.std_major, 3);
	assert_int_equal(m.std_minor, 1);
	assert_string_equal(m.lib_version, "Open MPI v4.1.4, package: Debian OpenMPI, ident: "
					   "4.1.4, repo rev: v4.1.4, May 26, 2022");
	assert_true(m.complete);
	assert_string_equal(m.damage, "");
	assert_int_equal(m.nfuncs, 3);
	assert_string_equal(m.funcs[0].name, "MPI_Init");
	assert_int_equal(m.funcs[0].calls, 1);
	assert_int_equal(m.funcs[0].time_ns, 299393827);
	assert_string_equal(m.funcs[1].name, "MPI_Barrier");
	assert_int_equal(m.funcs[1].kind, SES_MPI_K_COLL);
	assert_int_equal(m.funcs[1].time_ns, 774571536);
	assert_string_equal(m.funcs[2].name, "MPI_Allreduce");
	assert_int_equal(m.funcs[2].bytes_sent, 4);
	assert_int_equal(m.funcs[2].bytes_recv, 4);
	assert_int_equal(m.funcs[2].hist[3], 1); /* 4 bytes: [4, 7] */
	assert_int_equal(m.npeers, 0);
	assert_false(m.inflight);
	assert_int_equal(m.calls, 3);
	ses_mpi_release(&m);
}

/* leafstack.data: tests/targets/leafg 5 under `collect -g` */
static void leafstack_v1(void **state)
{
	struct ses_leaf_reader *lr;
	struct ses_sample s = { .pid = 15659, .tid = 15659, .id = 170 };
	struct ses_leaf l;
	uint64_t joined, skipped, mismatched;
	const char *why = "";
	char err[128];

	(void)state;
	assert_int_equal(ses_leaf_reader_open_file(&lr, FIX "leafstack.data", err, sizeof(err)),
			 0);
	assert_int_equal(ses_leaf_reader_regs_mask(lr), 448);
	s.time = 511043260046ULL;
	assert_int_equal(ses_leaf_join(lr, 0, &s, &l), 1);
	assert_int_equal(l.seq, 0);
	assert_int_equal(l.regs_abi, 2);
	assert_int_equal(l.nregs, 3);
	assert_int_equal(ses_sample_u64(l.regs, 0), 140726454473968ULL);
	assert_int_equal(ses_sample_u64(l.regs, 2), 140651687185671ULL);
	assert_int_equal(l.stack_len, 512);
	assert_memory_equal(l.stack, "\x2d\xdb\xd8\x05\xec\x7f\x00\x00", 8);
	s.time = 511110376622ULL;
	assert_int_equal(ses_leaf_join(lr, 34, &s, &l), 1);
	assert_int_equal(l.seq, 34);
	assert_int_equal(ses_leaf_join(lr, 35, &s, &l), 0);
	ses_leaf_reader_counts(lr, &joined, &skipped, &mismatched);
	assert_int_equal(joined, 2);
	assert_int_equal(skipped, 33);
	assert_int_equal(mismatched, 0);
	assert_int_equal(ses_leaf_reader_damage(lr, &why), 0);
	assert_null(why);
	ses_leaf_reader_free(lr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tasks_v1),
		cmocka_unit_test(ompt_v1),
		cmocka_unit_test(mpi_v1),
		cmocka_unit_test(leafstack_v1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
