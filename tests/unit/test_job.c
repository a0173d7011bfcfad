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

#include "job/job.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rank_lists),
		cmocka_unit_test(job_without_sessions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
