// SPDX-License-Identifier: MIT
/*
 * lib/report on damaged and hostile inputs: a cut file, a cut at a record boundary, a
 * header-only file, FIFOs in place of session files, bad .tasks files, task names
 * per record, a run interrupted before session.ini, a directory that is not a session.
 * Every case ends in a clear error or a stated note, never a crash or a silent loss.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "report/internal.h"
#include "report_fixture.h"

static void test_cut_file_reports_damage(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32];
	struct rpt_summary s;
	struct rpt *r;
	long size;
	FILE *f;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, size - 5), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_true(s.damaged_at > 0);
	assert_non_null(s.damage);
	assert_int_equal(s.samples, 8); /* the cut record was the LOST one */
	rpt_free(r);
	rm_session(dir);
}

static void test_not_a_session(void **state)
{
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r = (struct rpt *)1;
	char err[256];

	(void)state;
	assert_int_equal(rpt_open(&r, "/tmp", &o, err, sizeof(err)), -ENOENT);
	assert_null(r);
	assert_non_null(strstr(err, "not a uprof session"));
}

/* Offset of the end of the @n-th record (after HEADER_ATTR) and the SAMPLE records up to it. */
static size_t record_boundary(const char *path, int n, uint64_t *samples)
{
	struct ses_reader *rd;
	struct ses_record rec;
	char err[128];
	size_t end = 0;

	*samples = 0;
	assert_int_equal(ses_reader_open_file(&rd, path, err, sizeof(err)), 0);
	while (n > 0 && ses_reader_next(rd, &rec) == 1) {
		end = rec.offset + rec.size;
		if (rec.type == SES_RECORD_HEADER_ATTR)
			continue;
		*samples += rec.type == PERF_RECORD_SAMPLE;
		n--;
	}
	ses_reader_free(rd);
	return end;
}

/* A file cut at a record boundary reads cleanly: only session.ini's counts show it. */
static void test_boundary_cut_counts_damage(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32], want[128];
	struct rpt_summary s;
	struct ses_info info;
	uint64_t kept;
	size_t cut;
	char *text;
	struct rpt *r;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	cut = record_boundary(path, 5, &kept);
	assert_int_equal(kept, 5); /* CPU 1's ring comes first in the file */
	assert_int_equal(truncate(path, (off_t)cut), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.damaged_at, 0);
	assert_true(s.count_damage);
	assert_int_equal(s.counted_samples, 8);
	assert_int_equal(s.file_samples, 5);
	assert_int_equal(s.counted_lost, 7);
	assert_int_equal(s.file_lost, 0); /* the LOST record was cut */
	text = csv_text(r);
	snprintf(want, sizeof(want), "Data Damage:,\"session.ini counted 8 samples, samples.data "
				     "holds 5\"\n");
	assert_non_null(strstr(text, want));
	assert_non_null(strstr(text, "Data Damage:,\"session.ini counted 7 lost samples, "
				     "samples.data records 0\"\n"));
	free(text);
	rpt_free(r);
	/* a session left running (collect killed) has no final count to hold against it */
	assert_int_equal(ses_info_read(dir, &info, want, sizeof(want)), 0);
	info.status = SES_STATUS_RUNNING;
	info.collector_pid = 0;
	assert_int_equal(test_info_write(dir, &info), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_false(s.count_damage);
	assert_int_equal(s.file_samples, 5);
	text = csv_text(r);
	assert_null(strstr(text, "Data Damage"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* 16 bytes: the pipe header and nothing else; no record, no event description. */
static void test_header_only_file(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32];
	struct rpt_summary s;
	struct rpt *r;
	char *text;

	(void)state;
	make_session(dir);
	snprintf(path, sizeof(path), "%s/samples.data", dir);
	assert_int_equal(truncate(path, 16), 0);
	r = open_report(dir, true);
	rpt_summary(r, &s);
	assert_int_equal(s.damaged_at, 16);
	assert_non_null(strstr(s.damage, "nothing after the 16-byte header"));
	assert_int_equal(s.samples, 0);
	assert_int_equal(s.file_samples, 0);
	assert_true(s.count_damage);
	text = csv_text(r);
	assert_non_null(strstr(text, "Data Damage:,\"samples.data unreadable from offset 16: "));
	assert_non_null(strstr(text, "session.ini counted 8 samples, samples.data holds 0"));
	free(text);
	rpt_free(r);
	rm_session(dir);
}

/* A FIFO in place of any file report must read is refused by name, at once. */
static void test_fifo_session_files_refused(void **state)
{
	static const char *const files[] = { "samples.data", "session.ini", "pauses.csv" };
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 32], err[512], want[PATH_MAX + 64];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r = (struct rpt *)1;

	(void)state;
	make_session(dir);
	alarm(10); /* a reader that blocks on the FIFO fails here instead of hanging */
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char cmd[PATH_MAX * 2 + 64];

		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s.keep' 2>/dev/null; rm -f '%s'", path,
			 path, path);
		assert_int_equal(system(cmd), 0);
		assert_int_equal(mkfifo(path, 0600), 0);
		err[0] = 0;
		assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -SES_ENOTREG);
		assert_null(r);
		snprintf(want, sizeof(want), "%s is a FIFO, not a regular file; ", path);
		if (strncmp(err, want, strlen(want)))
			fail_msg("%s: '%s'", files[i], err);
		unlink(path);
		snprintf(cmd, sizeof(cmd), "[ ! -e '%s.keep' ] || mv '%s.keep' '%s'", path, path,
			 path);
		assert_int_equal(system(cmd), 0);
	}
	alarm(0);
	rm_session(dir);
}

static const struct rpt_file_note *note_of(const struct rpt_summary *s, const char *file)
{
	for (size_t i = 0; i < s->nfile_notes && i < RPT_FILE_NOTES; i++)
		if (!strcmp(s->file_notes[i].file, file))
			return &s->file_notes[i];
	fail_msg("no note for %s", file);
	return NULL;
}

/* Each .tasks file that cannot be used costs its process's tasks and is named. */
static void test_bad_tasks_files_noted(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX", path[PATH_MAX + 64];
	const struct ses_task_record rec = { 14, 100, SES_TASK_BEGIN, 0, 1, 2 };
	struct ses_tasks_writer *w;
	struct rpt_summary s;
	struct rpt *r;
	FILE *f;

	(void)state;
	make_session(dir);
	w = test_tasks_writer_open(dir, 100);
	assert_non_null(w);
	assert_int_equal(ses_tasks_write_string(w, 1, "Dom", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, 2, "Task", 4), 0);
	assert_int_equal(ses_tasks_write_record(w, &rec), 0);
	assert_int_equal(ses_tasks_writer_close(w), 0);
	snprintf(path, sizeof(path), "%s/instrument/100.tasks", dir);
	assert_int_equal(truncate(path, 24 + 19 + 20 + 20), 0); /* inside the record */
	snprintf(path, sizeof(path), "%s/instrument/101.tasks", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/instrument/102.tasks", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/instrument/103.tasks", dir);
	assert_int_equal(symlink("/dev/zero", path), 0);
	snprintf(path, sizeof(path), "%s/instrument/104.tasks", dir);
	f = fopen(path, "w"); /* what `head -c 4096 /dev/zero` leaves */
	assert_non_null(f);
	for (int i = 0; i < 4096; i++)
		fputc(0, f);
	fclose(f);
	alarm(10);
	r = open_report(dir, false);
	alarm(0);
	rpt_summary(r, &s);
	assert_int_equal(s.nfile_notes, 5);
	assert_string_equal(note_of(&s, "instrument/100.tasks")->why,
			    "damaged from offset 63 (entry runs past the end of the file); 0 "
			    "records before it reported");
	assert_string_equal(note_of(&s, "instrument/101.tasks")->why,
			    "is a FIFO, not a regular file; its tasks are not reported");
	assert_string_equal(note_of(&s, "instrument/102.tasks")->why,
			    "is empty (0 bytes); its tasks are not reported");
	/* a link (to /dev/zero here) in a session is never followed (docs/DESIGN.md §4) */
	assert_string_equal(note_of(&s, "instrument/103.tasks")->why,
			    "is a symbolic link, not followed in a session directory; its "
			    "tasks are not reported");
	assert_string_equal(note_of(&s, "instrument/104.tasks")->why,
			    "offset 0: not a uprof tasks file (no UPTASKS1 header); its tasks "
			    "are not reported");
	assert_int_equal(s.samples, 8); /* the rest of the session is reported */
	rpt_free(r);
	rm_session(dir);
}

/* Names are resolved once per id, yet counted per record: a name with a comma used by
 * three records is three records skipped; an id far above the target's numbering (a
 * forged file) resolves as well as a small one. */
static void test_task_names_per_record(void **state)
{
	char dir[] = "/tmp/uprof-rpt.XXXXXX";
	const uint32_t big = 0x90000000u;
	struct ses_tasks_writer *w;
	struct rpt_summary s;
	struct rpt_row rows[8];
	struct rpt *r;
	int n, found = 0;

	(void)state;
	make_session(dir);
	w = test_tasks_writer_open(dir, 100);
	assert_non_null(w);
	assert_int_equal(ses_tasks_write_string(w, 1, "Dom", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, 2, "Task", 4), 0);
	assert_int_equal(ses_tasks_write_string(w, 3, "a,b", 3), 0);
	assert_int_equal(ses_tasks_write_string(w, big, "Big", 3), 0);
	for (uint64_t i = 0; i < 3; i++) {
		const struct ses_task_record rec[] = {
			{ 13 + i, 100, SES_TASK_BEGIN, 0, 1, 3 }, /* a comma: skipped */
			{ 13 + i, 100, SES_TASK_END, 0, 1, 0 },
			{ 14 + i, 100, SES_TASK_BEGIN, 0, 1, 2 },
			{ 15 + i, 100, SES_TASK_END, 0, 1, 0 },
			{ 15 + i, 100, SES_TASK_BEGIN, 0, 1, big },
			{ 16 + i, 100, SES_TASK_END, 0, 1, 0 },
		};

		for (size_t k = 0; k < sizeof(rec) / sizeof(rec[0]); k++)
			assert_int_equal(ses_tasks_write_record(w, &rec[k]), 0);
	}
	/* one Dom/Task on each of 6 more threads: past the few a file's tallies keep dense */
	for (uint32_t tid = 200; tid < 206; tid++) {
		const struct ses_task_record b = { 20, tid, SES_TASK_BEGIN, 0, 1, 2 };
		const struct ses_task_record e = { 21 + tid, tid, SES_TASK_END, 0, 1, 0 };

		assert_int_equal(ses_tasks_write_record(w, &b), 0);
		assert_int_equal(ses_tasks_write_record(w, &e), 0);
	}
	assert_int_equal(ses_tasks_writer_close(w), 0);
	r = open_report(dir, false);
	rpt_summary(r, &s);
	assert_int_equal(s.task_comma, 3);
	assert_string_equal(s.task_comma_name, "a,b");
	assert_int_equal(s.task_records, 18 + 12);
	assert_int_equal(s.task_instances, 6 + 6);
	n = rpt_rows(r, RPT_TASKS, rows, 8);
	assert_int_equal(n, 2);
	for (int i = 0; i < n; i++) {
		assert_string_equal(rows[i].module, "Dom");
		assert_int_equal(rows[i].count, !strcmp(rows[i].name, "Task") ? 9 : 3);
		found += !strcmp(rows[i].name, "Task") + 2 * !strcmp(rows[i].name, "Big");
	}
	assert_int_equal(found, 3);
	/* per thread: 3 and 3 on thread 100, one on each of the others, with its elapsed */
	for (int item = 0; item < r->nitems; item++) {
		bool task = !strcmp(r->items[item].name, "Task");
		uint64_t *slot = util_hash_find(&r->thread_task, 100, (uint64_t)item, 0);

		assert_non_null(slot);
		assert_int_equal(r->tstats[*slot - 1].count, 3);
		for (uint32_t tid = 200; tid < 206; tid++) {
			slot = util_hash_find(&r->thread_task, tid, (uint64_t)item, 0);
			if (!task) {
				assert_null(slot);
				continue;
			}
			assert_non_null(slot);
			assert_int_equal(r->tstats[*slot - 1].count, 1);
			assert_int_equal(r->tstats[*slot - 1].elapsed_ns, tid + 1);
		}
		slot = util_hash_find(&r->proc_task, 100, (uint64_t)item, 0);
		assert_non_null(slot);
		assert_int_equal(r->tstats[*slot - 1].count, task ? 9 : 3);
	}
	rpt_free(r);
	rm_session(dir);
}

/* A collect killed before session.ini leaves its directory, empty: said as such. */
static void test_interrupted_before_session_ini(void **state)
{
	char dir[] = "/tmp/uprof-demo-TBP_XXXXXX", path[PATH_MAX + 32], err[512];
	struct rpt_options o = { .cutoff = 10 };
	struct rpt *r;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "holds no profile: collect was interrupted before it "
				    "wrote session.ini"));
	/* a directory with files collect never writes is just not a session */
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(rpt_open(&r, dir, &o, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "is not a uprof session (no session.ini)"));
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut_file_reports_damage),
		cmocka_unit_test(test_not_a_session),
		cmocka_unit_test(test_boundary_cut_counts_damage),
		cmocka_unit_test(test_header_only_file),
		cmocka_unit_test(test_fifo_session_files_refused),
		cmocka_unit_test(test_bad_tasks_files_noted),
		cmocka_unit_test(test_interrupted_before_session_ini),
		cmocka_unit_test(test_task_names_per_record),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
