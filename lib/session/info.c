// SPDX-License-Identifier: MIT
/*
 * session.ini: written by collect (at start and again at the end), read by report.
 * One table of fields drives both directions so they cannot drift apart.
 */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SES_INFO_MAX_BYTES (1 << 20) /* a session.ini is a few KiB; refuse silly ones */

enum field_kind { F_STR, F_INT, F_I64, F_U64, F_BOOL, F_U32, F_PIDS, F_STATUS, F_ISO };

struct field {
	const char *section;
	const char *key;
	enum field_kind kind;
	size_t off;
	size_t size;
};

#define FLD(sec, key, kind, member) \
	{ \
		sec, key, kind, offsetof(struct ses_info, member), \
			sizeof(((struct ses_info *)0)->member) \
	}

static const struct field info_fields[] = {
	FLD("session", "format_version", F_INT, format_version),
	FLD("session", "uprof_version", F_STR, uprof_version),
	FLD("session", "config", F_STR, config),
	FLD("session", "label", F_STR, label),
	FLD("session", "description", F_STR, description),
	FLD("session", "command", F_STR, command),
	FLD("session", "status", F_STATUS, status),
	FLD("session", "collector_pid", F_INT, collector_pid),
	FLD("session", "stop_signal", F_INT, stop_signal),
	FLD("session", "limit_data_bytes", F_U64, limit_data_bytes),
	FLD("session", "limit_data_reached", F_BOOL, limit_data_reached),
	FLD("target", "path", F_STR, target_path),
	FLD("target", "args", F_STR, target_args),
	FLD("target", "working_dir", F_STR, working_dir),
	FLD("target", "pids", F_PIDS, pids),
	FLD("target", "attached", F_BOOL, attached),
	FLD("target", "system_wide", F_BOOL, system_wide),
	FLD("target", "exit_code", F_INT, exit_code),
	FLD("target", "exit_signal", F_INT, exit_signal),
	FLD("target", "orphans", F_INT, orphans),
	FLD("target", "not_profiled", F_STR, not_profiled),
	FLD("target", "cpu_ns", F_I64, target_cpu_ns),
	FLD("target", "user_ns", F_I64, target_user_ns),
	FLD("target", "sys_ns", F_I64, target_sys_ns),
	FLD("target", "voluntary_switches", F_U64, target_voluntary_switches),
	FLD("target", "involuntary_switches", F_U64, target_involuntary_switches),
	FLD("system", "host", F_STR, host),
	FLD("system", "cpu_model", F_STR, cpu_model),
	FLD("system", "ncpus", F_INT, ncpus),
	FLD("system", "cpu_mask", F_STR, cpu_mask),
	FLD("system", "kernel", F_STR, kernel),
	FLD("system", "os", F_STR, os),
	FLD("system", "arch", F_STR, arch),
	FLD("time", "start_iso", F_ISO, start_epoch_ns),
	FLD("time", "start_epoch_ns", F_I64, start_epoch_ns),
	FLD("time", "start_mono_ns", F_I64, start_mono_ns),
	FLD("time", "end_iso", F_ISO, end_epoch_ns),
	FLD("time", "end_epoch_ns", F_I64, end_epoch_ns),
	FLD("time", "end_mono_ns", F_I64, end_mono_ns),
	FLD("time", "pause_total_ns", F_I64, pause_total_ns),
	FLD("time", "pause_unknown_ns", F_I64, pause_unknown_ns),
	FLD("counts", "samples", F_U64, samples),
	FLD("counts", "lost_samples", F_U64, lost_samples),
	FLD("counts", "lost_task_records", F_U64, lost_task_records),
	FLD("counts", "lost_pause_records", F_U64, lost_pause_records),
	FLD("counts", "pauses_max", F_U64, pauses_max),
	FLD("counts", "pauses_folded", F_U64, pauses_folded),
	FLD("callgraph", "mode", F_STR, callgraph_mode),
	FLD("callgraph", "stack_bytes", F_U32, callgraph_stack_bytes),
	FLD("callgraph", "leaf_stack_bytes", F_U32, callgraph_leaf_bytes),
	FLD("callgraph", "depth", F_INT, callgraph_depth),
	FLD("callgraph", "scope", F_STR, callgraph_scope),
	FLD("pages", "handed", F_U64, pages_handed),
	FLD("pages", "named", F_U64, pages_named),
	FLD("pages", "squatted", F_U64, pages_squatted),
	FLD("pages", "refused", F_U64, pages_refused),
	FLD("pages", "not_followed", F_U64, pages_not_followed),
	FLD("pages", "channel_refused", F_U64, pages_channel_refused),
	FLD("pages", "stale_removed", F_U64, pages_stale_removed),
	FLD("pages", "not_read_pids", F_STR, pages_pids),
};

#define EFLD(key, kind, member) \
	{ \
		"event", key, kind, offsetof(struct ses_event, member), \
			sizeof(((struct ses_event *)0)->member) \
	}

static const struct field event_fields[] = {
	EFLD("name", F_STR, name),
	EFLD("type", F_U32, type),
	EFLD("config", F_U64, config),
	EFLD("period", F_U64, period),
	EFLD("exclude_kernel", F_BOOL, exclude_kernel),
	EFLD("exclude_user", F_BOOL, exclude_user),
};

#define MFLD(key, kind, member) \
	{ \
		"metric", key, kind, offsetof(struct ses_metric, member), \
			sizeof(((struct ses_metric *)0)->member) \
	}

static const struct field metric_fields[] = {
	MFLD("name", F_STR, name),
	MFLD("formula", F_STR, formula),
};

#define TFLD(key, kind, member) \
	{ \
		"tool", key, kind, offsetof(struct ses_tool, member), \
			sizeof(((struct ses_tool *)0)->member) \
	}

static const struct field tool_fields[] = {
	TFLD("path", F_STR, path),
	TFLD("name", F_STR, name),
	TFLD("stacks", F_STR, stacks),
	TFLD("events", F_STR, events),
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const status_names[] = {
	[SES_STATUS_RUNNING] = "running",
	[SES_STATUS_COMPLETE] = "complete",
	[SES_STATUS_INTERRUPTED] = "interrupted",
};

const char *ses_status_name(enum ses_status s)
{
	return (unsigned)s < ARRAY_SIZE(status_names) ? status_names[s] : "unknown";
}

void ses_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- writing ---- */

/* Values are one line: escape backslash, newline and carriage return. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\r')
			fputs("\\r", f);
		else
			fputc(*s, f);
	}
}

static void put_iso(FILE *f, int64_t epoch_ns)
{
	time_t t = (time_t)(epoch_ns / 1000000000);
	struct tm tm;
	char buf[64];

	if (!epoch_ns || !gmtime_r(&t, &tm)) {
		fputs("", f);
		return;
	}
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(f, "%s.%03dZ", buf, (int)(epoch_ns % 1000000000 / 1000000));
}

static void put_field(FILE *f, const struct field *fd, const void *base)
{
	const char *p = (const char *)base + fd->off;

	fprintf(f, "%s = ", fd->key);
	switch (fd->kind) {
	case F_STR:
		put_escaped(f, p);
		break;
	case F_INT:
		fprintf(f, "%d", *(const int *)p);
		break;
	case F_U32:
		fprintf(f, "%" PRIu32, *(const uint32_t *)p);
		break;
	case F_I64:
		fprintf(f, "%" PRId64, *(const int64_t *)p);
		break;
	case F_U64:
		fprintf(f, "%" PRIu64, *(const uint64_t *)p);
		break;
	case F_BOOL:
		fputs(*(const bool *)p ? "1" : "0", f);
		break;
	case F_STATUS:
		fputs(ses_status_name(*(const enum ses_status *)p), f);
		break;
	case F_ISO:
		put_iso(f, *(const int64_t *)p);
		break;
	case F_PIDS: {
		const struct ses_info *info = base;

		for (int i = 0; i < info->npids && i < SES_MAX_PIDS; i++)
			fprintf(f, "%s%d", i ? "," : "", info->pids[i]);
		break;
	}
	}
	fputc('\n', f);
}

static void write_all_fields(FILE *f, const struct ses_info *info)
{
	const char *section = "";

	fputs("# uprof session description (lib/session/session.h). Written by uprof collect.\n",
	      f);
	for (size_t i = 0; i < ARRAY_SIZE(info_fields); i++) {
		if (strcmp(section, info_fields[i].section)) {
			section = info_fields[i].section;
			fprintf(f, "\n[%s]\n", section);
		}
		put_field(f, &info_fields[i], info);
	}
	for (int e = 0; e < info->nevents && e < SES_MAX_EVENTS; e++) {
		fprintf(f, "\n[event.%d]\n", e);
		for (size_t i = 0; i < ARRAY_SIZE(event_fields); i++)
			put_field(f, &event_fields[i], &info->events[e]);
	}
	for (int m = 0; m < info->nmetrics && m < SES_MAX_METRICS; m++) {
		fprintf(f, "\n[metric.%d]\n", m);
		for (size_t i = 0; i < ARRAY_SIZE(metric_fields); i++)
			put_field(f, &metric_fields[i], &info->metrics[m]);
	}
	for (int t = 0; t < info->ntools && t < SES_MAX_TOOLS; t++) {
		fprintf(f, "\n[tool.%d]\n", t);
		for (size_t i = 0; i < ARRAY_SIZE(tool_fields); i++)
			put_field(f, &tool_fields[i], &info->tools[t]);
	}
}

int ses_info_write(int dfd, const struct ses_info *info)
{
	/* one name report knows (a collect killed inside this write, lib/report/load.c); the
	 * directory is collect's own, 0700: no other user makes a name in it */
	static const char tmp[] = "." SES_INFO_FILE ".tmp";
	FILE *f = NULL;
	int fd, ret = 0;
	/* an unnamed file first: collect killed while it writes (or syncs) leaves no name */
	bool named = (fd = util_at_tmpfile(dfd, SES_FILE_MODE)) < 0;

	if (named)
		fd = util_at_create(dfd, tmp, O_WRONLY | O_TRUNC, SES_FILE_MODE);
	if (fd < 0)
		return fd;
	/* the stream writes through a copy of the fd: the commit closes the original */
	f = fdopen(dup(fd), "w");
	if (!f) {
		ret = -errno;
		goto out_unlink;
	}
	write_all_fields(f, info);
	if (fflush(f) || ferror(f))
		ret = -(errno ? errno : EIO);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		goto out_unlink;
	/* only the final state is made durable: an fsync waits for the whole file system's
	 * pending writes, and collect rewrites this file while it starts */
	if (!named)
		return util_at_tmpfile_commit(dfd, fd, tmp, SES_INFO_FILE,
					      info->status != SES_STATUS_RUNNING);
	return util_at_replace_commit(dfd, tmp, SES_INFO_FILE, fd,
				      info->status != SES_STATUS_RUNNING);
out_unlink:
	close(fd);
	if (named)
		util_at_unlink(dfd, tmp, 0);
	return ret;
}

/* ---- parsing ---- */

struct line {
	const char *p;
	size_t len;
};

static struct line trim(const char *p, size_t len)
{
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	return (struct line){ p, len };
}

static bool line_eq(struct line l, const char *s)
{
	return strlen(s) == l.len && !memcmp(l.p, s, l.len);
}

static int parse_i64(struct line v, int64_t min, int64_t max, int64_t *out)
{
	char buf[32];
	char *end;
	long long x;

	if (!v.len || v.len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v.p, v.len);
	buf[v.len] = 0;
	errno = 0;
	x = strtoll(buf, &end, 10);
	if (errno || *end || x < min || x > max)
		return -EINVAL;
	*out = x;
	return 0;
}

static int parse_u64(struct line v, uint64_t *out)
{
	char buf[32];
	char *end;
	unsigned long long x;

	if (!v.len || v.len >= sizeof(buf) || v.p[0] == '-')
		return -EINVAL;
	memcpy(buf, v.p, v.len);
	buf[v.len] = 0;
	errno = 0;
	x = strtoull(buf, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = x;
	return 0;
}

static void unescape(struct line v, char *dst, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < v.len && o + 1 < size; i++) {
		char c = v.p[i];

		if (c == '\\' && i + 1 < v.len) {
			c = v.p[++i];
			c = c == 'n' ? '\n' : c == 'r' ? '\r' : c;
		}
		dst[o++] = c;
	}
	dst[o] = 0;
}

static int parse_pids(struct line v, struct ses_info *info)
{
	size_t i = 0;

	info->npids = 0;
	while (i < v.len) {
		size_t j = i;
		int64_t pid;

		while (j < v.len && v.p[j] != ',')
			j++;
		if (parse_i64(trim(v.p + i, j - i), 1, INT32_MAX, &pid))
			return -EINVAL;
		if (info->npids < SES_MAX_PIDS)
			info->pids[info->npids++] = (int)pid;
		i = j + 1;
	}
	return 0;
}

static int set_field(const struct field *fd, void *base, struct line v, struct ses_info *info)
{
	char *p = (char *)base + fd->off;
	int64_t i64;
	uint64_t u64;

	switch (fd->kind) {
	case F_STR:
		unescape(v, p, fd->size);
		return 0;
	case F_INT:
		if (parse_i64(v, INT32_MIN, INT32_MAX, &i64))
			return -EINVAL;
		*(int *)p = (int)i64;
		return 0;
	case F_U32:
		if (parse_u64(v, &u64) || u64 > UINT32_MAX)
			return -EINVAL;
		*(uint32_t *)p = (uint32_t)u64;
		return 0;
	case F_I64:
		if (parse_i64(v, INT64_MIN, INT64_MAX, &i64))
			return -EINVAL;
		*(int64_t *)p = i64;
		return 0;
	case F_U64:
		if (parse_u64(v, &u64))
			return -EINVAL;
		*(uint64_t *)p = u64;
		return 0;
	case F_BOOL:
		if (!line_eq(v, "0") && !line_eq(v, "1"))
			return -EINVAL;
		*(bool *)p = v.p[0] == '1';
		return 0;
	case F_STATUS:
		for (size_t s = 0; s < ARRAY_SIZE(status_names); s++) {
			if (line_eq(v, status_names[s])) {
				*(enum ses_status *)p = (enum ses_status)s;
				return 0;
			}
		}
		return -EINVAL;
	case F_ISO:
		return 0; /* informational: the epoch_ns key is authoritative */
	case F_PIDS:
		return parse_pids(v, info);
	}
	return -EINVAL;
}

/* Section "<prefix>N" → N (below @max), -1 for another section, -2 out of range. */
static int section_index(struct line sec, const char *prefix, int max)
{
	size_t plen = strlen(prefix);
	int64_t n;

	if (sec.len <= plen || memcmp(sec.p, prefix, plen))
		return -1;
	if (parse_i64((struct line){ sec.p + plen, sec.len - plen }, 0, max - 1, &n))
		return -2;
	return (int)n;
}

static int apply_kv(struct ses_info *info, struct line sec, struct line key, struct line val)
{
	int ev = section_index(sec, "event.", SES_MAX_EVENTS);
	int me = section_index(sec, "metric.", SES_MAX_METRICS);
	int to = section_index(sec, "tool.", SES_MAX_TOOLS);

	if (ev == -2 || me == -2 || to == -2)
		return -ERANGE;
	if (to >= 0) {
		for (size_t i = 0; i < ARRAY_SIZE(tool_fields); i++) {
			if (line_eq(key, tool_fields[i].key)) {
				if (to >= info->ntools)
					info->ntools = to + 1;
				return set_field(&tool_fields[i], &info->tools[to], val, info);
			}
		}
		return 0;
	}
	if (me >= 0) {
		for (size_t i = 0; i < ARRAY_SIZE(metric_fields); i++) {
			if (line_eq(key, metric_fields[i].key)) {
				if (me >= info->nmetrics)
					info->nmetrics = me + 1;
				return set_field(&metric_fields[i], &info->metrics[me], val, info);
			}
		}
		return 0;
	}
	if (ev >= 0) {
		for (size_t i = 0; i < ARRAY_SIZE(event_fields); i++) {
			if (line_eq(key, event_fields[i].key)) {
				if (ev >= info->nevents)
					info->nevents = ev + 1;
				return set_field(&event_fields[i], &info->events[ev], val, info);
			}
		}
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(info_fields); i++) {
		if (line_eq(sec, info_fields[i].section) && line_eq(key, info_fields[i].key))
			return set_field(&info_fields[i], info, val, info);
	}
	return 0; /* unknown keys: a newer writer */
}

int ses_info_parse(const char *buf, size_t len, struct ses_info *info, char *err, size_t errlen)
{
	struct line sec = { "", 0 };
	size_t pos = 0;
	int lineno = 0;

	memset(info, 0, sizeof(*info));
	info->exit_code = -1;
	if (len > SES_INFO_MAX_BYTES) {
		ses_errf(err, errlen, "file is %zu bytes, more than a session.ini can be", len);
		return -EFBIG;
	}
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		struct line l = trim(buf + pos, n);
		struct line key;
		const char *eq;
		int ret;

		pos += n + 1;
		lineno++;
		if (!l.len || l.p[0] == '#' || l.p[0] == ';')
			continue;
		if (memchr(l.p, 0, l.len)) {
			ses_errf(err, errlen, "line %d: NUL byte", lineno);
			return -EINVAL;
		}
		if (l.p[0] == '[') {
			if (l.len < 3 || l.p[l.len - 1] != ']') {
				ses_errf(err, errlen, "line %d: malformed section header", lineno);
				return -EINVAL;
			}
			sec = trim(l.p + 1, l.len - 2);
			continue;
		}
		eq = memchr(l.p, '=', l.len);
		if (!eq) {
			ses_errf(err, errlen, "line %d: expected 'key = value'", lineno);
			return -EINVAL;
		}
		key = trim(l.p, eq - l.p);
		ret = apply_kv(info, sec, key, trim(eq + 1, l.len - (eq + 1 - l.p)));
		if (ret) {
			ses_errf(err, errlen, "line %d: bad value for '%.*s'", lineno,
				 (int)(key.len > 40 ? 40 : key.len), key.p);
			return -EINVAL;
		}
	}
	if (info->format_version < 1 || info->format_version > SES_FORMAT_VERSION) {
		ses_errf(err, errlen, "format_version %d is not one this uprof reads (1..%d)",
			 info->format_version, SES_FORMAT_VERSION);
		return -EPROTO;
	}
	return 0;
}

int ses_info_read(const char *dir, struct ses_info *info, char *err, size_t errlen)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (dfd < 0) {
		ret = -errno;
		ses_errf(err, errlen, "cannot open: %s", strerror(-ret));
		return ret;
	}
	ret = ses_info_read_at(dfd, info, err, errlen);
	close(dfd);
	return ret;
}

int ses_info_read_at(int dfd, struct ses_info *info, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	ret = ses_file_read_all_at(dfd, SES_INFO_FILE, SES_INFO_MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = ses_info_parse(buf, len, info, err, errlen);
	free(buf);
	return ret;
}
