// SPDX-License-Identifier: MIT
/* lib/session unit tests, part 3: every input in tests/fixtures/fuzz (what the fuzzers
 * found worth keeping) replayed through the calls the fuzz targets make. Runs from the
 * repository root, as make check does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session/internal.h"
#include "session/session.h"
#include "session_helpers.h"

/* What fuzz/fuzz_samples_reader.c does with its input. */
static void replay_samples(const unsigned char *data, size_t len)
{
	struct ses_reader *r;
	struct ses_record rec;
	struct ses_sample s;
	struct ses_sample_id sid;
	const char *why;
	char err[128];
	int ret;

	if (ses_reader_open_mem(&r, data, len, err, sizeof(err)))
		return;
	while ((ret = ses_reader_next(r, &rec)) > 0) {
		assert_true(rec.offset + rec.size <= len);
		assert_true(rec.size >= sizeof(struct perf_event_header));
		ses_reader_sample(r, &rec, &s);
		ses_reader_sample_id(r, &rec, &sid);
	}
	assert_true(ret == 0 || ret == -ENOMEM);
	if (ses_reader_damage(r, &why))
		assert_non_null(why);
	for (size_t i = 0; i < ses_reader_nattrs(r); i++)
		assert_non_null(ses_reader_attr(r, i));
	ses_reader_free(r);
}

/* What fuzz/fuzz_session_ini.c does with its input. */
static void replay_ini(const unsigned char *data, size_t len)
{
	struct ses_info info;
	char err[128];
	int ret = ses_info_parse((const char *)data, len, &info, err, sizeof(err));

	assert_true(ret == 0 || ret == -EINVAL || ret == -EPROTO || ret == -EFBIG);
}

/*
 * tests/fixtures/fuzz/ holds every input a fuzzer crashed on, plus edge cases the fuzzers
 * reached (fuzz/README.md), each replayed through its target's code path. The name's
 * prefix says which: samples_reader-* or session_ini-*.
 */
static void fuzz_fixtures_replay(void **state)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	(void)state;
	d = opendir(FUZZ_FIXTURES);
	if (!d)
		fail_msg("cannot open %s (run from the repository root)", FUZZ_FIXTURES);
	while ((de = readdir(d))) {
		char path[PATH_MAX];
		unsigned char *data;
		size_t len;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", FUZZ_FIXTURES, de->d_name);
		data = slurp(path, &len);
		if (!strncmp(de->d_name, "samples_reader-", 15))
			replay_samples(data, len);
		else if (!strncmp(de->d_name, "session_ini-", 12))
			replay_ini(data, len);
		else
			fail_msg("%s: name says neither samples_reader- nor session_ini-", path);
		free(data);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fuzz_fixtures_replay),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
