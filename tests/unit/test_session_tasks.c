// SPDX-License-Identifier: MIT
/*
 * lib/session's own small files: instrument/<pid>.tasks (tasks.c) and pauses.csv
 * (pauses.c). Writer round trips, the files 0.1.0 wrote (tests/fixtures/release-0.1.0,
 * read with their version 1 codes), and every cut and corruption: a tasks file cut at any
 * byte reads up to its last whole entry and says where the damage is; a pauses.csv with a
 * bad line is refused naming the line. Damaged inputs are copied into buffers of exactly
 * their length, so an over-read shows under `make check SANITIZE=1`.
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
#include "session_at.h"

#define FIXTURE "tests/fixtures/release-0.1.0/session"

/* A tasks file written by the writer: two strings, three records, the dropped counts. */
static unsigned char *written_tasks(size_t *len)
{
	char dir[128], path[256];
	struct ses_tasks_writer *w;
	const struct ses_task_record r[] = {
		{ 100, 7, SES_TASK_BEGIN, 0, 1, 2 },
		{ 200, 7, SES_TASK_END, SES_TASK_GAP, 1, 0 },
		{ 300, 8, SES_EVENT_START, 0, 0, 2 },
	};

	subdir(dir, sizeof(dir), "tasks");
	w = test_tasks_writer_open(dir, 4321);
	assert_non_null(w);
	assert_int_equal(ses_tasks_write_string(w, 1, "Dom", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, 2, "Task", 4), 0);
	for (size_t i = 0; i < ARRAY_SIZE(r); i++)
		assert_int_equal(ses_tasks_write_record(w, &r[i]), 0);
	assert_int_equal(ses_tasks_write_dropped(w, 5, 6), 0);
	assert_int_equal(ses_tasks_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/" SES_TASKS_DIR "/4321.tasks", dir);
	return slurp(path, len);
}

static void tasks_round_trip(void **state)
{
	size_t len;
	unsigned char *b = written_tasks(&len);
	struct ses_tasks t;
	char err[128];

	(void)state;
	/* header 24, strings 8 + 8 + 3 and 8 + 8 + 4, records 8 + 24 each, dropped 8 + 16 */
	assert_int_equal(len, 24 + 19 + 20 + 3 * 32 + 24);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.pid, 4321);
	assert_int_equal(t.nrecords, 3);
	assert_int_equal(t.records[1].time_ns, 200);
	assert_int_equal(t.records[1].kind, SES_TASK_END);
	assert_int_equal(t.records[1].how, SES_TASK_GAP);
	assert_int_equal(t.records[2].tid, 8);
	assert_int_equal(t.records[2].name, 2);
	assert_string_equal(ses_tasks_string(&t, 1), "Dom");
	assert_string_equal(ses_tasks_string(&t, 2), "Task");
	assert_null(ses_tasks_string(&t, 3));
	assert_int_equal(t.dropped_records, 5);
	assert_int_equal(t.dropped_names, 6);
	assert_int_equal(t.damaged_at, 0);
	ses_tasks_release(&t);
	free(b);
}

/*
 * Names by id through the hashed index: many ids, sparse and in no order, some defined
 * twice (the later definition wins, as the target's string table appends), ids that
 * collide in a small table, and ids never defined. Correctness only; bench/tasks_names.sh
 * times it.
 */
#define MANY_NAMES 100000
static uint32_t many_id(uint32_t i)
{
	return (i * 2654435761u) ^ 0x5bd1e995u; /* a bijection: distinct, scattered ids */
}

static void tasks_many_names_by_id(void **state)
{
	char dir[128], path[256], name[32], err[128];
	struct ses_tasks_writer *w;
	struct ses_tasks t;
	unsigned char *b;
	size_t len;

	(void)state;
	subdir(dir, sizeof(dir), "many");
	w = test_tasks_writer_open(dir, 99);
	assert_non_null(w);
	for (uint32_t i = 0; i < MANY_NAMES; i++) {
		int n = snprintf(name, sizeof(name), "name-%u", i);

		assert_int_equal(ses_tasks_write_string(w, many_id(i), name, (size_t)n), 0);
	}
	/* every tenth id redefined later in the file */
	for (uint32_t i = 0; i < MANY_NAMES; i += 10) {
		int n = snprintf(name, sizeof(name), "again-%u", i);

		assert_int_equal(ses_tasks_write_string(w, many_id(i), name, (size_t)n), 0);
	}
	/* ids that share a slot in the first tables (multiples of a power of two) */
	for (uint32_t i = 1; i <= 64; i++) {
		int n = snprintf(name, sizeof(name), "pow-%u", i);

		assert_int_equal(ses_tasks_write_string(w, i << 20, name, (size_t)n), 0);
	}
	assert_int_equal(ses_tasks_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/" SES_TASKS_DIR "/99.tasks", dir);
	b = slurp(path, &len);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.damaged_at, 0);
	for (uint32_t i = 0; i < MANY_NAMES; i++) {
		snprintf(name, sizeof(name), i % 10 ? "name-%u" : "again-%u", i);
		if (!ses_tasks_string(&t, many_id(i)) ||
		    strcmp(ses_tasks_string(&t, many_id(i)), name))
			fail_msg("id %u (%u): '%s', want '%s'", many_id(i), i,
				 ses_tasks_string(&t, many_id(i)), name);
	}
	for (uint32_t i = 1; i <= 64; i++) {
		snprintf(name, sizeof(name), "pow-%u", i);
		assert_string_equal(ses_tasks_string(&t, i << 20), name);
	}
	assert_null(ses_tasks_string(&t, 65u << 20));
	assert_null(ses_tasks_string(&t, many_id(MANY_NAMES)));
	ses_tasks_release(&t);
	/* a file with no strings looks up nothing */
	assert_int_equal(ses_tasks_parse(b, 24, &t, err, sizeof(err)), 0);
	assert_null(ses_tasks_string(&t, many_id(0)));
	assert_null(ses_tasks_string(&t, 0));
	ses_tasks_release(&t);
	free(b);
}

/* Cut at every byte: the header alone is refused; past it, whole entries are kept and
 * the cut named. */
static void tasks_cut_anywhere(void **state)
{
	size_t len;
	unsigned char *b = written_tasks(&len);
	/* record ends: strings at 43, 63; records at 95, 127, 159; dropped at 183 */
	const size_t ends[] = { 24, 43, 63, 95, 127, 159, 183 };

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *c = dup_exact(b, cut);
		struct ses_tasks t;
		char err[128] = "";
		size_t whole = 0, records = 0;

		if (cut < 24) {
			assert_int_equal(ses_tasks_parse(c, cut, &t, err, sizeof(err)), -EINVAL);
			/* no magic, or a header cut after its size */
			assert_non_null(strstr(err, cut < 16 ? "offset 0" : "offset 12"));
			free(c);
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(ends); i++)
			if (ends[i] <= cut)
				whole = ends[i], records = i >= 3 ? (i < 6 ? i - 2 : 3) : 0;
		assert_int_equal(ses_tasks_parse(c, cut, &t, err, sizeof(err)), 0);
		assert_int_equal(t.nrecords, records);
		assert_int_equal(t.damaged_at, whole == cut ? 0 : whole);
		if (whole != cut)
			assert_non_null(t.damage);
		ses_tasks_release(&t);
		free(c);
	}
	free(b);
}

static void tasks_corrupted(void **state)
{
	size_t len;
	unsigned char *b = written_tasks(&len);
	struct ses_tasks t;
	char err[128];
	uint32_t v;

	(void)state;
	b[0] = 'X'; /* magic */
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), -EINVAL);
	b[0] = 'U';
	v = 3; /* a major this reader does not know: 3.0 */
	memcpy(b + 8, &v, 4);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, "offset 8: tasks file format 3.0 is newer than this uprof reads "
				 "(2.x): read it with a newer uprof");
	v = 2 | 7u << 16; /* a newer minor, 2.7: read */
	memcpy(b + 8, &v, 4);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrecords, 3);
	ses_tasks_release(&t);
	v = 2000; /* the first string's length: past the end */
	memcpy(b + 28, &v, 4);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.damaged_at, 24);
	assert_string_equal(t.damage, "entry runs past the end of the file");
	ses_tasks_release(&t);
	v = 11; /* its value: id, length, "Dom" */
	memcpy(b + 28, &v, 4);
	v = 100; /* a string longer than its entry */
	memcpy(b + 36, &v, 4);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.damaged_at, 24);
	assert_string_equal(t.damage, "string longer than its entry");
	assert_int_equal(t.nrecords, 0);
	ses_tasks_release(&t);
	v = 3;
	memcpy(b + 36, &v, 4);
	v = 99; /* an entry type of a later writer: skipped, the rest read */
	memcpy(b + 24, &v, 4);
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.nrecords, 3);
	assert_null(ses_tasks_string(&t, 1));
	assert_string_equal(ses_tasks_string(&t, 2), "Task");
	assert_int_equal(t.unknown_records, 1);
	assert_int_equal(t.damaged_at, 0);
	ses_tasks_release(&t);
	free(b);
}

/* What 0.1.0 wrote, counted by hand from the file: the codes of version 1. */
static void tasks_release_0_1_0(void **state)
{
	size_t len;
	unsigned char *b = slurp(FIXTURE "/instrument/13686.tasks", &len);
	size_t kinds[8] = { 0 };
	struct ses_tasks t;
	char err[128];

	(void)state;
	assert_int_equal(ses_tasks_parse(b, len, &t, err, sizeof(err)), 0);
	assert_int_equal(t.pid, 13686);
	assert_int_equal(t.nrecords, 28);
	for (size_t i = 0; i < t.nrecords; i++) {
		assert_true(t.records[i].kind < 8);
		kinds[t.records[i].kind]++;
	}
	assert_int_equal(kinds[SES_TASK_BEGIN], 12);
	assert_int_equal(kinds[SES_TASK_END], 12);
	assert_int_equal(kinds[SES_EVENT_START], 2);
	assert_int_equal(kinds[SES_EVENT_END], 2);
	assert_string_equal(ses_tasks_string(&t, 21), "Twice");
	assert_string_equal(ses_tasks_string(&t, 137), "Unended");
	assert_int_equal(t.dropped_records, 0);
	assert_int_equal(t.damaged_at, 0);
	ses_tasks_release(&t);
	free(b);
}

/* ---- pauses.csv ---- */

static void pauses_round_trip(void **state)
{
	const struct ses_pause p[] = { { -1, 10, 30, "start-paused" }, { 77, 40, 40, "api" },
				       { 78, 50, 90, "api-strict" }, { 79, 95, 99, "itt" } };
	char dir[128], path[256];
	struct ses_pause *got;
	size_t len, n;
	unsigned char *b;
	char err[128];

	(void)state;
	subdir(dir, sizeof(dir), "pauses");
	assert_int_equal(test_pauses_write(dir, p, ARRAY_SIZE(p)), 0);
	snprintf(path, sizeof(path), "%s/" SES_PAUSES_FILE, dir);
	b = slurp(path, &len);
	assert_int_equal(len, strlen("pid,paused_at_ns,resumed_at_ns,how\nall,10,30,start-paused\n"
				     "77,40,40,api\n78,50,90,api-strict\n79,95,99,itt\n"));
	assert_int_equal(ses_pauses_parse((char *)b, len, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(got[i].pid, p[i].pid);
		assert_int_equal(got[i].paused_at, p[i].paused_at);
		assert_int_equal(got[i].resumed_at, p[i].resumed_at);
		assert_string_equal(got[i].how, p[i].how);
	}
	free(got);
	free(b);
}

static void pauses_release_0_1_0(void **state)
{
	size_t len, n;
	unsigned char *b = slurp(FIXTURE "/pauses.csv", &len);
	struct ses_pause *got;
	char err[128];

	(void)state;
	assert_int_equal(ses_pauses_parse((char *)b, len, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(got[0].pid, 13686);
	assert_int_equal(got[0].paused_at, 233114168200);
	assert_int_equal(got[1].resumed_at, 233134174367);
	assert_int_equal(ses_pauses_total(got, n), 20001327 + 331);
	free(got);
	free(b);
}

/* Every cut of a good file is either a good file of fewer rows or names its line. */
static void pauses_cut_and_corrupted(void **state)
{
	static const char good[] = "pid,paused_at_ns,resumed_at_ns,how\r\nall,10,30,start-paused\n"
				   "77,40,50,api\n";
	static const struct {
		const char *text;
		int ret;
		const char *line;
	} bad[] = {
		{ "", -EINVAL, "empty" },
		{ "pid,paused,resumed,how\n", -EINVAL, "line 1" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n7,50,40,api\n", -EINVAL, "line 2" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n7,1,2,api\n7,1,2,fast\n", -EINVAL, "line 3" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n7,1,2\n", -EINVAL, "line 2" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n7,1,2,api,x\n", -EINVAL, "line 2" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n-7,1,2,api\n", -EINVAL, "line 2" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n7,1x,2,api\n", -EINVAL, "line 2" },
		{ "pid,paused_at_ns,resumed_at_ns,how\n9999999999,1,2,api\n", -EINVAL, "line 2" },
	};
	struct ses_pause *got;
	char err[128];
	size_t n;

	(void)state;
	for (size_t cut = 0; cut <= sizeof(good) - 1; cut++) {
		char *c = dup_exact(good, cut);
		int ret = ses_pauses_parse(c, cut, &got, &n, err, sizeof(err));

		/* a cut inside the header or a row is refused; at a row's end, fewer rows */
		if (!ret) {
			assert_true(n <= 2);
			free(got);
		} else {
			assert_int_equal(ret, -EINVAL);
			assert_null(got);
		}
		free(c);
	}
	assert_int_equal(ses_pauses_parse(good, sizeof(good) - 1, &got, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	free(got);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t l = strlen(bad[i].text);
		char *c = dup_exact(bad[i].text, l);

		err[0] = 0;
		assert_int_equal(ses_pauses_parse(c, l, &got, &n, err, sizeof(err)), bad[i].ret);
		if (!strstr(err, bad[i].line))
			fail_msg("case %zu: '%s' does not name %s", i, err, bad[i].line);
		free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tasks_round_trip),    cmocka_unit_test(tasks_cut_anywhere),
		cmocka_unit_test(tasks_corrupted),     cmocka_unit_test(tasks_release_0_1_0),
		cmocka_unit_test(pauses_round_trip),   cmocka_unit_test(pauses_release_0_1_0),
		cmocka_unit_test(pauses_cut_and_corrupted), cmocka_unit_test(tasks_many_names_by_id),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
