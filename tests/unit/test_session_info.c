// SPDX-License-Identifier: MIT
/* lib/session unit tests, part 1: session.ini (write, read back, every malformed line,
 * a file cut anywhere). Part 2, samples.data, is test_session.c. */
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
#include "session_at.h"

/* ---- session.ini ---------------------------------------------------------------- */

/* Every field set to something other than its zero value, extremes included. */
static void fill_info(struct ses_info *in)
{
	memset(in, 0, sizeof(*in));
	in->format_version = SES_FORMAT_VERSION;
	strcpy(in->uprof_version, "0.1.0");
	strcpy(in->config, "tbp");
	strcpy(in->label, "TBP");
	strcpy(in->description, "Time-based profiling = CPU_TIME; # not a comment");
	strcpy(in->command, "uprof collect -o /tmp/x -- ./prog --flag=1");
	strcpy(in->target_path, "/usr/bin/prog");
	strcpy(in->target_args, "--flag=1 [not a section]");
	strcpy(in->working_dir, "/home/user/work dir");
	strcpy(in->host, "host.example");
	strcpy(in->cpu_model, "AMD EPYC 9654 96-Core Processor");
	in->ncpus = 192;
	strcpy(in->kernel, "6.18.44");
	strcpy(in->os, "Debian GNU/Linux 12 (bookworm)");
	in->npids = 3;
	in->pids[0] = 1;
	in->pids[1] = 4242;
	in->pids[2] = INT32_MAX;
	in->start_epoch_ns = 1795976477383904580;
	in->end_epoch_ns = 1795976477386593907;
	in->start_mono_ns = 700506572785;
	in->end_mono_ns = INT64_MAX;
	in->nevents = 1;
	strcpy(in->events[0].name, "CPU_TIME");
	in->events[0].type = PERF_TYPE_SOFTWARE;
	in->events[0].config = PERF_COUNT_SW_CPU_CLOCK;
	in->events[0].period = 1000000;
	in->pause_total_ns = INT64_MIN;
	in->samples = UINT64_MAX;
	in->lost_samples = 7;
	in->lost_task_records = 3;
	in->target_cpu_ns = 1646000;
	in->exit_code = INT32_MIN;
	in->exit_signal = 9;
	in->stop_signal = 15;
	in->collector_pid = 4241;
	in->attached = true;
	in->system_wide = true;
	in->status = SES_STATUS_COMPLETE;
}

static void assert_event_eq(const struct ses_event *a, const struct ses_event *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->config, b->config);
	assert_int_equal(a->period, b->period);
	assert_int_equal(a->exclude_kernel, b->exclude_kernel);
	assert_int_equal(a->exclude_user, b->exclude_user);
}

static void assert_info_eq(const struct ses_info *a, const struct ses_info *b)
{
	assert_int_equal(a->format_version, b->format_version);
	assert_string_equal(a->uprof_version, b->uprof_version);
	assert_string_equal(a->config, b->config);
	assert_string_equal(a->label, b->label);
	assert_string_equal(a->description, b->description);
	assert_string_equal(a->command, b->command);
	assert_string_equal(a->target_path, b->target_path);
	assert_string_equal(a->target_args, b->target_args);
	assert_string_equal(a->working_dir, b->working_dir);
	assert_string_equal(a->host, b->host);
	assert_string_equal(a->cpu_model, b->cpu_model);
	assert_int_equal(a->ncpus, b->ncpus);
	assert_string_equal(a->kernel, b->kernel);
	assert_string_equal(a->os, b->os);
	assert_int_equal(a->npids, b->npids);
	for (int i = 0; i < a->npids; i++)
		assert_int_equal(a->pids[i], b->pids[i]);
	assert_int_equal(a->start_epoch_ns, b->start_epoch_ns);
	assert_int_equal(a->end_epoch_ns, b->end_epoch_ns);
	assert_int_equal(a->start_mono_ns, b->start_mono_ns);
	assert_int_equal(a->end_mono_ns, b->end_mono_ns);
	assert_int_equal(a->nevents, b->nevents);
	for (int i = 0; i < a->nevents; i++)
		assert_event_eq(&a->events[i], &b->events[i]);
	assert_int_equal(a->pause_total_ns, b->pause_total_ns);
	assert_int_equal(a->samples, b->samples);
	assert_int_equal(a->lost_samples, b->lost_samples);
	assert_int_equal(a->lost_task_records, b->lost_task_records);
	assert_int_equal(a->target_cpu_ns, b->target_cpu_ns);
	assert_int_equal(a->exit_code, b->exit_code);
	assert_int_equal(a->exit_signal, b->exit_signal);
	assert_int_equal(a->stop_signal, b->stop_signal);
	assert_int_equal(a->collector_pid, b->collector_pid);
	assert_int_equal(a->attached, b->attached);
	assert_int_equal(a->system_wide, b->system_wide);
	assert_int_equal(a->status, b->status);
}

/* test_info_write() into a fresh dir @name, then ses_info_read() it back into @out. */
static void write_read(const char *name, const struct ses_info *in, struct ses_info *out)
{
	char dir[PATH_MAX], err[256] = "";

	subdir(dir, sizeof(dir), name);
	assert_int_equal(test_info_write(dir, in), 0);
	if (ses_info_read(dir, out, err, sizeof(err)))
		fail_msg("ses_info_read: %s", err);
}

/* Parse a string (copied without its NUL) and return the result; @err gets the text. */
static int parse_str(const char *text, struct ses_info *info, char *err, size_t errlen)
{
	size_t len = strlen(text);
	char *buf = dup_exact(text, len);
	int ret;

	err[0] = 0;
	ret = ses_info_parse(buf, len, info, err, errlen);
	free(buf);
	return ret;
}

static void info_round_trip_all_fields(void **state)
{
	struct ses_info in, out;

	(void)state;
	fill_info(&in);
	write_read("all_fields", &in, &out);
	assert_info_eq(&in, &out);
}

static void info_round_trip_escaped_strings(void **state)
{
	static const char *const strs[] = {
		"line1\nline2\n",
		"C:\\path\\to\\file",
		"ends with backslash\\",
		"\\n is not a newline",
		"carriage\rreturn\r\n",
		"\\\\\\\n\\",
		"tab\tinside = [x] ; #",
	};
	struct ses_info in, out;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
		fill_info(&in);
		strcpy(in.command, strs[i]);
		strcpy(in.target_args, strs[i]);
		strcpy(in.description, strs[i]);
		strcpy(in.events[0].name, strs[i]);
		write_read("escaped", &in, &out);
		assert_info_eq(&in, &out);
	}
}

/* A string field of full length whose every byte needs escaping still fits. */
static void info_round_trip_longest_string(void **state)
{
	struct ses_info in, out;

	(void)state;
	fill_info(&in);
	memset(in.command, '\n', sizeof(in.command) - 1);
	in.command[sizeof(in.command) - 1] = 0;
	memset(in.target_args, '\\', sizeof(in.target_args) - 1);
	in.target_args[sizeof(in.target_args) - 1] = 0;
	write_read("longest", &in, &out);
	assert_info_eq(&in, &out);
}

static void info_round_trip_pids(void **state)
{
	static const int counts[] = { 0, 1, 2, SES_MAX_PIDS };
	struct ses_info in, out;

	(void)state;
	for (size_t c = 0; c < ARRAY_SIZE(counts); c++) {
		fill_info(&in);
		in.npids = counts[c];
		for (int i = 0; i < in.npids; i++)
			in.pids[i] = 1000 + i * 7;
		write_read("pids", &in, &out);
		assert_info_eq(&in, &out);
	}
}

static void info_round_trip_events(void **state)
{
	struct ses_info in, out;

	(void)state;
	fill_info(&in);
	in.nevents = SES_MAX_EVENTS;
	for (int i = 0; i < in.nevents; i++) {
		struct ses_event *e = &in.events[i];

		snprintf(e->name, sizeof(e->name), "event-%d", i);
		e->type = i == 0 ? UINT32_MAX : (uint32_t)i;
		e->config = i == 1 ? UINT64_MAX : 0x5300c0 + (uint64_t)i;
		e->period = 100000 * (uint64_t)(i + 1);
		e->exclude_kernel = i & 1;
		e->exclude_user = (i >> 1) & 1;
	}
	write_read("events", &in, &out);
	assert_info_eq(&in, &out);
}

static void info_round_trip_each_status(void **state)
{
	static const enum ses_status all[] = {
		SES_STATUS_RUNNING, SES_STATUS_COMPLETE, SES_STATUS_INTERRUPTED,
	};
	struct ses_info in, out;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		fill_info(&in);
		in.status = all[i];
		write_read("status", &in, &out);
		assert_int_equal(out.status, all[i]);
		assert_info_eq(&in, &out);
	}
	assert_string_equal(ses_status_name(SES_STATUS_RUNNING), "running");
	assert_string_equal(ses_status_name(SES_STATUS_COMPLETE), "complete");
	assert_string_equal(ses_status_name(SES_STATUS_INTERRUPTED), "interrupted");
	assert_string_equal(ses_status_name((enum ses_status)42), "unknown");
}

/* One malformed line, its 1-based number and the error's expected text. */
struct bad_ini {
	int line;
	const char *text;
	int lineno;
	const char *what;
};

static void check_bad(const struct bad_ini *t, size_t n)
{
	struct ses_info info;
	char err[256], want[64];

	for (size_t i = 0; i < n; i++) {
		int ret = parse_str(t[i].text, &info, err, sizeof(err));

		if (ret != -EINVAL)
			fail_msg("table line %d: ret %d, want -EINVAL", t[i].line, ret);
		snprintf(want, sizeof(want), "line %d: ", t[i].lineno);
		if (strncmp(err, want, strlen(want)) || !strstr(err, t[i].what))
			fail_msg("table line %d: error '%s', want '%s...%s'", t[i].line, err, want,
				 t[i].what);
	}
}

#define HDR "[session]\nformat_version = 1\n"

static void info_parse_missing_equals(void **state)
{
	static const struct bad_ini t[] = {
		{ __LINE__, HDR "status complete\n", 3, "key = value" },
		{ __LINE__, HDR "\n\n# c\n  label\n", 6, "key = value" },
		{ __LINE__, "format_version\n", 1, "key = value" },
		{ __LINE__, HDR "[session\n", 3, "section" },
		{ __LINE__, HDR "[]\n", 3, "section" },
	};

	(void)state;
	check_bad(t, ARRAY_SIZE(t));
}

static void info_parse_bad_number(void **state)
{
	static const struct bad_ini t[] = {
		{ __LINE__, HDR "collector_pid = 12x\n", 3, "collector_pid" },
		{ __LINE__, HDR "collector_pid =\n", 3, "collector_pid" },
		{ __LINE__, HDR "collector_pid = 2147483648\n", 3, "collector_pid" },
		{ __LINE__, HDR "collector_pid = 0x10\n", 3, "collector_pid" },
		{ __LINE__, "[system]\nncpus = 1 2\n", 2, "ncpus" },
		{ __LINE__, "[counts]\nsamples = -1\n", 2, "samples" },
		{ __LINE__, "[counts]\nsamples = 18446744073709551616\n", 2, "samples" },
		{ __LINE__, "[time]\nstart_mono_ns = 9223372036854775808\n", 2, "start_mono_ns" },
		{ __LINE__, "[time]\nstart_mono_ns = 1.5\n", 2, "start_mono_ns" },
		{ __LINE__, "[event.0]\ntype = 4294967296\n", 2, "type" },
		{ __LINE__, "[target]\npids = 1,,2\n", 2, "pids" },
		{ __LINE__, "[target]\npids = 0\n", 2, "pids" },
		{ __LINE__, "[target]\npids = 1,-5\n", 2, "pids" },
		{ __LINE__, "[target]\npids = 12345678901234567890123456789012\n", 2, "pids" },
	};

	(void)state;
	check_bad(t, ARRAY_SIZE(t));
}

static void info_parse_bad_bool(void **state)
{
	static const struct bad_ini t[] = {
		{ __LINE__, HDR "[event.0]\nexclude_user = true\n", 4, "exclude_user" },
		{ __LINE__, HDR "[event.0]\nexclude_kernel = 2\n", 4, "exclude_kernel" },
		{ __LINE__, HDR "[event.0]\nexclude_kernel =\n", 4, "exclude_kernel" },
		{ __LINE__, HDR "[event.0]\nexclude_kernel = 01\n", 4, "exclude_kernel" },
		{ __LINE__, HDR "[target]\nattached = yes\n", 4, "attached" },
	};

	(void)state;
	check_bad(t, ARRAY_SIZE(t));
}

static void info_parse_bad_status(void **state)
{
	static const struct bad_ini t[] = {
		{ __LINE__, HDR "status = done\n", 3, "status" },
		{ __LINE__, HDR "status = Complete\n", 3, "status" },
		{ __LINE__, HDR "status = complete!\n", 3, "status" },
		{ __LINE__, HDR "status =\n", 3, "status" },
	};

	(void)state;
	check_bad(t, ARRAY_SIZE(t));
}

static void info_parse_event_index_out_of_range(void **state)
{
	static const struct bad_ini t[] = {
		{ __LINE__, HDR "[event.16]\nname = x\n", 4, "name" },
		{ __LINE__, HDR "[event.-1]\nname = x\n", 4, "name" },
		{ __LINE__, HDR "[event.x]\nname = x\n", 4, "name" },
		{ __LINE__, HDR "[event.99999999999999999999]\nperiod = 1\n", 4, "period" },
		{ __LINE__, HDR "[event.16]\nfuture_key = 1\n", 4, "future_key" },
	};
	struct ses_info info;
	char err[256];

	(void)state;
	check_bad(t, ARRAY_SIZE(t));
	/* the last valid index is fine, and the ones below it count as events */
	assert_int_equal(parse_str(HDR "[event.15]\nname = last\n", &info, err, sizeof(err)), 0);
	assert_int_equal(info.nevents, SES_MAX_EVENTS);
	assert_string_equal(info.events[15].name, "last");
	assert_string_equal(info.events[0].name, "");
}

/* [tool.N]: the tools of collect --tool and what they asked for */
static void info_round_trip_tools(void **state)
{
	struct ses_info in, out;
	struct ses_info info;
	char err[256];

	(void)state;
	fill_info(&in);
	in.ntools = SES_MAX_TOOLS;
	for (int i = 0; i < in.ntools; i++) {
		snprintf(in.tools[i].path, sizeof(in.tools[i].path), "/opt/tools/t%d.so", i);
		snprintf(in.tools[i].name, sizeof(in.tools[i].name), "t%d", i);
		snprintf(in.tools[i].stacks, sizeof(in.tools[i].stacks), "%s", i & 1 ? "dwarf" : "");
		snprintf(in.tools[i].events, sizeof(in.tools[i].events), "%s",
			 i == 2 ? "event=0x76,interval=100000; task-clock" : "");
	}
	write_read("tools", &in, &out);
	assert_int_equal(out.ntools, SES_MAX_TOOLS);
	for (int i = 0; i < in.ntools; i++) {
		assert_string_equal(out.tools[i].path, in.tools[i].path);
		assert_string_equal(out.tools[i].name, in.tools[i].name);
		assert_string_equal(out.tools[i].stacks, in.tools[i].stacks);
		assert_string_equal(out.tools[i].events, in.tools[i].events);
	}
	/* an index past the table is an error naming the key, as for events */
	assert_int_not_equal(parse_str(HDR "[tool.8]\nname = x\n", &info, err, sizeof(err)), 0);
	assert_int_equal(parse_str(HDR "[tool.1]\nname = second\n", &info, err, sizeof(err)), 0);
	assert_int_equal(info.ntools, 2);
	assert_string_equal(info.tools[1].name, "second");
}

static void info_parse_unknown_format_version(void **state)
{
	static const char *const texts[] = {
		"[session]\nformat_version = 2\n",
		"[session]\nformat_version = 0\n",
		"[session]\nformat_version = -1\n",
		"[session]\nlabel = TBP\n",	/* none at all */
		"",
		"[other]\nformat_version = 1\n", /* in the wrong section */
	};
	struct ses_info info;
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		assert_int_equal(parse_str(texts[i], &info, err, sizeof(err)), -EPROTO);
		assert_non_null(strstr(err, "format_version"));
	}
}

static void info_parse_ignores_unknown_keys_and_sections(void **state)
{
	static const char text[] =
		"; a comment\n"
		"# another\n"
		"[session]\n"
		"format_version = 1\n"
		"new_in_v1_1 = whatever = it is\n"
		"\t label\t=\tTBP \r\n"
		"[future]\n"
		"format_version = 99\n"
		"status = nonsense\n"
		"[event.0]\n"
		"name = CPU_TIME\n"
		"colour = blue\n"
		"[ session ]\n"
		"status = interrupted\n";
	struct ses_info info;
	char err[256];

	(void)state;
	assert_int_equal(parse_str(text, &info, err, sizeof(err)), 0);
	assert_int_equal(info.format_version, 1);
	assert_string_equal(info.label, "TBP");
	assert_int_equal(info.status, SES_STATUS_INTERRUPTED);
	assert_int_equal(info.nevents, 1);
	assert_string_equal(info.events[0].name, "CPU_TIME");
	assert_int_equal(info.exit_code, -1); /* the default when absent */
}

static void info_parse_nul_byte(void **state)
{
	static const char text[] = "[session]\nformat_version = 1\nlabel = T\0BP\n";
	struct ses_info info;
	char err[256] = "";
	char *buf = dup_exact(text, sizeof(text) - 1);

	(void)state;
	assert_int_equal(ses_info_parse(buf, sizeof(text) - 1, &info, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "line 3: NUL byte");
	free(buf);
}

static void info_parse_err_buffer_optional(void **state)
{
	struct ses_info info;
	char err[8];

	(void)state;
	assert_int_equal(ses_info_parse("x", 1, &info, NULL, 0), -EINVAL);
	assert_int_equal(ses_info_parse("x", 1, &info, err, 0), -EINVAL);
	assert_int_equal(ses_info_parse("x", 1, &info, err, sizeof(err)), -EINVAL);
	assert_int_equal(strlen(err), sizeof(err) - 1); /* cut, still terminated */
}

/* A session.ini cut at every byte: parses or fails cleanly, never reads past the cut. */
static void info_parse_truncated_everywhere(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[256];
	struct ses_info in, out;
	unsigned char *file;
	size_t len;

	(void)state;
	fill_info(&in);
	in.nevents = 2;
	strcpy(in.events[1].name, "RETIRED_INST");
	strcpy(in.command, "a\\b\nc");
	subdir(dir, sizeof(dir), "truncated_ini");
	assert_int_equal(test_info_write(dir, &in), 0);
	snprintf(path, sizeof(path), "%s/%s", dir, SES_INFO_FILE);
	file = slurp(path, &len);
	for (size_t cut = 0; cut <= len; cut++) {
		char *buf = dup_exact(file, cut);
		int ret;

		err[0] = 0;
		ret = ses_info_parse(buf, cut, &out, err, sizeof(err));
		if (ret)
			assert_true(ret == -EINVAL || ret == -EPROTO);
		if (ret)
			assert_true(err[0] != 0);
		else
			assert_int_equal(out.format_version, 1);
		free(buf);
	}
	assert_int_equal(ses_info_parse((char *)file, len, &out, err, sizeof(err)), 0);
	assert_info_eq(&in, &out);
	free(file);
}

static void info_read_missing_dir(void **state)
{
	char dir[PATH_MAX], err[PATH_MAX + 64] = "";
	struct ses_info info;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/does-not-exist", tmpdir);
	assert_int_equal(ses_info_read(dir, &info, err, sizeof(err)), -ENOENT);
	/* what is wrong; the caller names the file (rpt_open: "<dir>/session.ini: ...") */
	assert_non_null(strstr(err, "cannot open: No such file"));
	/* a directory that exists but holds no session.ini is no session either */
	subdir(dir, sizeof(dir), "empty");
	assert_int_equal(ses_info_read(dir, &info, err, sizeof(err)), -ENOENT);
}

static void info_write_is_atomic(void **state)
{
	char dir[PATH_MAX];
	struct ses_info in, out;
	struct dirent *e;
	DIR *d;

	(void)state;
	fill_info(&in);
	in.status = SES_STATUS_RUNNING;
	write_read("atomic", &in, &out);
	in.status = SES_STATUS_COMPLETE;
	in.samples = 12;
	write_read("atomic", &in, &out); /* rewritten at the end of a run */
	assert_info_eq(&in, &out);
	snprintf(dir, sizeof(dir), "%s/atomic", tmpdir);
	/* no temp file left beside it: session.ini is all the directory holds */
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			assert_string_equal(e->d_name, SES_INFO_FILE);
	closedir(d);
	/* no directory fd, nothing written */
	assert_int_equal(ses_info_write(-1, &in), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(info_round_trip_all_fields),
		cmocka_unit_test(info_round_trip_escaped_strings),
		cmocka_unit_test(info_round_trip_longest_string),
		cmocka_unit_test(info_round_trip_pids),
		cmocka_unit_test(info_round_trip_events),
		cmocka_unit_test(info_round_trip_tools),
		cmocka_unit_test(info_round_trip_each_status),
		cmocka_unit_test(info_parse_missing_equals),
		cmocka_unit_test(info_parse_bad_number),
		cmocka_unit_test(info_parse_bad_bool),
		cmocka_unit_test(info_parse_bad_status),
		cmocka_unit_test(info_parse_event_index_out_of_range),
		cmocka_unit_test(info_parse_unknown_format_version),
		cmocka_unit_test(info_parse_ignores_unknown_keys_and_sections),
		cmocka_unit_test(info_parse_nul_byte),
		cmocka_unit_test(info_parse_err_buffer_optional),
		cmocka_unit_test(info_parse_truncated_everywhere),
		cmocka_unit_test(info_read_missing_dir),
		cmocka_unit_test(info_write_is_atomic),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
