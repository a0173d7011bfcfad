// SPDX-License-Identifier: MIT
/* lib/job/job.c: --rank lists, and a job whose ranks have no sessions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/internal.h" /* rpt_job_ends on made-up ranks */

#include <signal.h>

static bool has(const uint8_t *bits, int r)
{
	return bits[r / 8] & (1u << (r % 8));
}

static void rank_lists(void **state)
{
	static const struct {
		const char *s;
		int ret;
	} bad[] = { { "", -EINVAL },	  { "a", -EINVAL },	 { "1-", -EINVAL },
		    { "3-1", -EINVAL },	  { "1,", -EINVAL },	 { ",1", -EINVAL },
		    { "-1", -EINVAL },	  { "1 2", -EINVAL },	 { "65536", -ERANGE },
		    { "0-65536", -ERANGE }, { "99999999999999999999", -ERANGE } };
	uint8_t *bits = malloc(RPT_RANK_BITMAP_BYTES);
	int n = 0;

	(void)state;
	assert_int_equal(rpt_rank_list_parse("0-3,8,10-11", bits), 0);
	for (int r = 0; r < SES_JOB_MAX_RANKS; r++)
		n += has(bits, r);
	assert_int_equal(n, 7);
	assert_true(has(bits, 0) && has(bits, 3) && has(bits, 8) && has(bits, 11));
	assert_false(has(bits, 4) || has(bits, 9) || has(bits, 12));
	assert_int_equal(rpt_rank_list_parse("65535", bits), 0);
	assert_true(has(bits, 65535) && !has(bits, 0));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rpt_rank_list_parse(bad[i].s, bits), bad[i].ret);
	free(bits);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* job.ini lists ranks 0 and 1 and says 3: none has a session, so there is nothing to
 * report, and the error names a rank and why; the directory is a job directory. */
static void job_without_sessions(void **state)
{
	char dir[] = "/tmp/uprof-test-job.XXXXXX", path[128], err[512];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt_job_select sel = { 0 };
	struct rpt_job *j = (void *)1;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_false(rpt_is_job_dir(dir));
	snprintf(path, sizeof(path), "%s/job.ini", dir);
	write_file(path, "[job]\nformat_version = 1\nid = 7\napp = a\nranks = 3\n"
			 "[rank.1]\nsession = rank-1\nhost = h\n[rank.0]\nsession = rank-0\nhost = h\n");
	assert_true(rpt_is_job_dir(dir));
	assert_int_equal(rpt_job_open(&j, dir, &o, &sel, err, sizeof(err)), -ENODATA);
	assert_null(j);
	assert_non_null(strstr(err, "no rank has a session to report; rank 0: rank-0: no session"));
	sel.hosts = "elsewhere";
	assert_int_equal(rpt_job_open(&j, dir, &o, &sel, err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(err, "no rank of the job is selected (2 ranks in job.ini"));
	write_file(path, "[job]\nformat_version = 9\n");
	sel.hosts = NULL;
	assert_int_equal(rpt_job_open(&j, dir, &o, &sel, err, sizeof(err)), -EPROTO);
	assert_non_null(strstr(err, "format_version 9"));
	unlink(path);
	assert_int_equal(rpt_job_open(&j, dir, &o, &sel, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "not a job directory"));
	rmdir(dir);
	rpt_job_free(NULL);
}

/* A made-up rank: its session.ini's facts (job.c fills them from the session) */
static struct rpt_job_rank rank_of(int rank, int exit_code, int exit_signal, int stop_signal,
				   bool collect_killed)
{
	struct rpt_job_rank r = { .rank = rank,
				  .exit_code = exit_code,
				  .exit_signal = exit_signal,
				  .stop_signal = stop_signal,
				  .collect_killed = collect_killed };

	return r;
}

/* How each rank ended, from its own session and the others': a rank killed while it ran
 * after another failed is the launcher's; alone, its own signal or an interruption. */
static void rank_ends(void **state)
{
	struct rpt_job j = { 0 };
	struct rpt_job_rank r[6];
	char sum[512];

	(void)state;
	j.ranks = r;
	/* MPICH: rank 1 SIGKILLed itself, rank 2 exit(3); hydra SIGKILLed 0 and 3 with
	 * their collects */
	r[0] = rank_of(0, -1, 0, 0, true);
	r[1] = rank_of(1, -1, SIGKILL, 0, false);
	r[2] = rank_of(2, 3, 0, 0, false);
	r[3] = rank_of(3, -1, 0, 0, true);
	j.nranks = 4;
	rpt_job_ends(&j);
	assert_string_equal(r[0].end_label, "killed by the launcher with SIGKILL");
	assert_int_equal(r[0].end, RPT_END_LAUNCHER);
	assert_string_equal(r[1].end_label, "killed by SIGKILL");
	assert_string_equal(r[2].end_label, "exit(3)");
	assert_int_equal(r[2].end_value, 3);
	assert_string_equal(rpt_job_end_summary(&j, sum, sizeof(sum)),
			    "2 killed by the launcher with SIGKILL (ranks 0,3), 1 killed by SIGKILL "
			    "(rank 1), 1 exit(3) (rank 2)");
	/* Open MPI: the survivors' collects got SIGTERM (passed on) while they ran */
	r[0] = rank_of(0, -1, SIGTERM, SIGTERM, false);
	r[3] = rank_of(3, -1, 0, SIGTERM, true); /* collect killed after it said so */
	rpt_job_ends(&j);
	assert_string_equal(r[0].end_label, "killed by the launcher with SIGTERM");
	assert_string_equal(r[3].end_label, "killed by the launcher with SIGTERM");
	/* no rank failed: a collect killed alone is its own SIGKILL; a collect stopped by
	 * Ctrl-C with its rank's end unseen is interrupted; exit(0) completed */
	r[0] = rank_of(0, -1, 0, 0, true);
	r[1] = rank_of(1, 0, 0, 0, false);
	r[2] = rank_of(2, -1, 0, SIGINT, false);
	r[3] = rank_of(3, 0, 0, 0, false);
	r[4] = rank_of(4, -1, 0, 0, false);
	r[4].state = RPT_RANK_MISSING;
	r[4].end = RPT_END_NEVER_JOINED;
	r[5] = rank_of(5, -1, 0, 0, false);
	r[5].state = RPT_RANK_MISSING;
	j.nranks = 6;
	rpt_job_ends(&j);
	assert_string_equal(r[0].end_label, "killed by SIGKILL");
	assert_string_equal(r[2].end_label, "interrupted by SIGINT");
	r[1].state = RPT_RANK_UNREADABLE; /* its exit(0) is not read from a session unread */
	rpt_job_ends(&j);
	assert_string_equal(r[1].end_label, "end unknown");
	r[1].state = RPT_RANK_OK;
	rpt_job_ends(&j);
	assert_string_equal(rpt_job_end_summary(&j, sum, sizeof(sum)),
			    "1 killed by SIGKILL (rank 0), 2 completed (ranks 1,3), 1 interrupted by "
			    "SIGINT (rank 2), 1 never joined (rank 4), 1 no session (rank 5)");
	/* a job ended by timeout: every collect passed SIGTERM on; a collect still there */
	for (int i = 0; i < 4; i++)
		r[i] = rank_of(i, -1, SIGTERM, SIGTERM, false);
	r[3].end = RPT_END_RUNNING;
	j.nranks = 4;
	rpt_job_ends(&j);
	assert_string_equal(rpt_job_end_summary(&j, sum, sizeof(sum)),
			    "3 killed by the launcher with SIGTERM (ranks 0-2), 1 still running "
			    "(rank 3)");
	/* a summary cut short by its buffer stays a string */
	assert_int_equal(strlen(rpt_job_end_summary(&j, sum, 10)), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rank_lists),
		cmocka_unit_test(job_without_sessions),
		cmocka_unit_test(rank_ends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
