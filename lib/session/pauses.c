// SPDX-License-Identifier: MIT
/* pauses.csv: paused intervals of a session, written by collect, read by report. */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEADER "pid,paused_at_ns,resumed_at_ns,how"

int ses_pauses_write(int dfd, const struct ses_pause *p, size_t n)
{
	/* a name in collect's own 0700 directory, where no other user makes one */
	static const char tmp[] = SES_PAUSES_FILE ".tmp";
	FILE *f;
	int ret = 0, fd = util_at_create(dfd, tmp, O_WRONLY | O_TRUNC, SES_FILE_MODE);

	if (fd < 0)
		return fd;
	/* the stream writes through a copy of the fd: the commit below closes the original */
	f = fdopen(dup(fd), "w");
	if (!f) {
		ret = -errno;
		close(fd);
		util_at_unlink(dfd, tmp, 0);
		return ret;
	}
	fprintf(f, HEADER "\n");
	for (size_t i = 0; i < n; i++) {
		if (p[i].pid < 0)
			fprintf(f, "all");
		else
			fprintf(f, "%d", p[i].pid);
		fprintf(f, ",%" PRId64 ",%" PRId64 ",%s\n", p[i].paused_at, p[i].resumed_at,
			p[i].how);
	}
	if (fflush(f) || ferror(f))
		ret = -(errno ? errno : EIO);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		close(fd);
		util_at_unlink(dfd, tmp, 0);
		return ret;
	}
	return util_at_replace_commit(dfd, tmp, SES_PAUSES_FILE, fd, false);
}

static bool valid_how(const char *s, size_t len)
{
	static const char *const hows[] = { "start-paused", "api", "api-strict", "itt",
					    SES_PAUSE_HOW_UNKNOWN };

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++)
		if (strlen(hows[i]) == len && !memcmp(hows[i], s, len))
			return true;
	return false;
}

static int parse_i64(const char *s, size_t len, int64_t *out)
{
	char buf[24];
	char *end;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return errno || *end || *out < 0 ? -EINVAL : 0;
}

/* One data row: four comma-separated fields. */
static int parse_row(const char *l, size_t len, struct ses_pause *p)
{
	const char *f[4];
	size_t fl[4];
	size_t start = 0;
	int n = 0;
	int64_t pid;

	for (size_t i = 0; i <= len && n < 4; i++) {
		if (i == len || l[i] == ',') {
			f[n] = l + start;
			fl[n++] = i - start;
			start = i + 1;
		}
	}
	if (n != 4 || start <= len)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	if (fl[0] == 3 && !memcmp(f[0], "all", 3))
		p->pid = -1;
	else if (parse_i64(f[0], fl[0], &pid) || pid > INT32_MAX)
		return -EINVAL;
	else
		p->pid = (int)pid;
	if (parse_i64(f[1], fl[1], &p->paused_at) || parse_i64(f[2], fl[2], &p->resumed_at) ||
	    p->resumed_at < p->paused_at || !valid_how(f[3], fl[3]))
		return -EINVAL;
	memcpy(p->how, f[3], fl[3]);
	return 0;
}

int ses_pauses_parse(const char *buf, size_t len, struct ses_pause **out, size_t *n, char *err,
		     size_t errlen)
{
	struct ses_pause *v = NULL, *grown;
	size_t pos = 0, cap = 0, count = 0;
	int lineno = 0, ret = 0;

	*out = NULL;
	*n = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		const char *line = buf + pos;

		pos += l + 1;
		lineno++;
		if (l && line[l - 1] == '\r')
			l--;
		if (lineno == 1) {
			if (l != strlen(HEADER) || memcmp(line, HEADER, l)) {
				ses_errf(err, errlen, "line 1: not the pauses.csv header");
				ret = -EINVAL;
				goto out;
			}
			continue;
		}
		if (!l)
			continue;
		if (count >= SES_MAX_PAUSES) {
			ses_errf(err, errlen, "line %d: more than %d pauses", lineno,
				 SES_MAX_PAUSES);
			ret = -E2BIG;
			goto out;
		}
		if (count == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown) {
				ret = -ENOMEM;
				goto out;
			}
			v = grown;
		}
		if (parse_row(line, l, &v[count])) {
			ses_errf(err, errlen,
				 "line %d: expected pid|all,paused_at_ns,resumed_at_ns,how",
				 lineno);
			ret = -EINVAL;
			goto out;
		}
		count++;
	}
	if (lineno == 0) {
		ses_errf(err, errlen, "empty file");
		ret = -EINVAL;
	}
out:
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	*n = count;
	return 0;
}

/* ---- arbitration: calls of every process -> the session's paused intervals ---- */

bool ses_pause_state_feed(struct ses_pause_state *s, struct ses_pause_call *c, int64_t now,
			  uint64_t *future)
{
	bool was = s->paused;

	/* a stamp from the future would outlast every real call after it (sampling off for
	 * good): it counts as made when it was seen, and the caller keeps it so */
	if (c->time > now) {
		c->time = now;
		if (future)
			(*future)++;
	}
	if (c->time >= s->last) { /* an older stamp seen late does not undo a newer call */
		s->last = c->time;
		s->paused = c->paused;
	}
	return s->paused != was;
}

const char *ses_pause_how_name(uint16_t how)
{
	switch (how) {
	case SES_PAUSE_START:
		return "start-paused";
	case SES_PAUSE_API_STRICT:
		return "api-strict";
	case SES_PAUSE_ITT:
		return "itt";
	default:
		return "api";
	}
}

bool ses_pause_is_unknown(const struct ses_pause *p)
{
	return !strcmp(p->how, SES_PAUSE_HOW_UNKNOWN);
}

int64_t ses_pauses_total(const struct ses_pause *p, size_t n)
{
	int64_t total = 0;

	for (size_t i = 0; i < n; i++)
		if (!ses_pause_is_unknown(&p[i]))
			total += p[i].resumed_at - p[i].paused_at;
	return total;
}

int64_t ses_pauses_unknown_total(const struct ses_pause *p, size_t n)
{
	int64_t total = 0;

	for (size_t i = 0; i < n; i++)
		if (ses_pause_is_unknown(&p[i]))
			total += p[i].resumed_at - p[i].paused_at;
	return total;
}

/* The first of @calls (sorted) stamped after @t. */
static size_t first_after(const struct ses_pause_call *calls, size_t n, int64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (calls[mid].time <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void ses_pauses_widen_unknown(const struct ses_pause_call *calls, size_t n,
			      struct ses_pause_unknown *u, size_t nu)
{
	for (size_t i = 0; i < nu; i++) {
		size_t k = u[i].from == INT64_MIN ? 0 : first_after(calls, n, u[i].from - 1);
		bool other = false;

		if (!u[i].by_state)
			continue;
		for (; k < n && calls[k].time <= u[i].to && !other; k++)
			other = calls[k].pid != u[i].pid;
		if (!other)
			continue;
		k = first_after(calls, n, u[i].to);
		u[i].to = k < n ? calls[k].time : INT64_MAX;
	}
}

static int cmp_unknown(const void *a, const void *b)
{
	const struct ses_pause_unknown *x = a, *y = b;

	return x->from < y->from ? -1 : x->from > y->from;
}

/* Clip @u to [start, end], sort and merge: the count left. */
static size_t merge_unknown(struct ses_pause_unknown *u, size_t nu, int64_t start, int64_t end)
{
	size_t k = 0;

	for (size_t i = 0; i < nu; i++) {
		struct ses_pause_unknown x = u[i];

		x.from = x.from < start ? start : x.from;
		x.to = x.to > end ? end : x.to;
		if (x.to > x.from)
			u[k++] = x;
	}
	if (k > 1)
		util_qsort(u, k, sizeof(*u), cmp_unknown);
	nu = k;
	k = 0;
	for (size_t i = 0; i < nu; i++) {
		if (k && u[i].from <= u[k - 1].to) {
			if (u[i].to > u[k - 1].to)
				u[k - 1].to = u[i].to;
		} else {
			u[k++] = u[i];
		}
	}
	return k;
}

static int cmp_row(const void *a, const void *b)
{
	const struct ses_pause *x = a, *y = b;

	return x->paused_at < y->paused_at ? -1 : x->paused_at > y->paused_at;
}

int ses_pauses_add_unknown(struct ses_pause **rows, size_t *n, struct ses_pause_unknown *u,
			   size_t nu, int64_t start, int64_t end)
{
	struct ses_pause *in = *rows, *out;
	size_t k = 0, j = 0;

	nu = merge_unknown(u, nu, start, end);
	if (!nu)
		return 0;
	/* a row splits in two at most once per unknown stretch inside it */
	out = calloc(2 * *n + 2 * nu + 1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++) {
		struct ses_pause r = in[i];

		/* the stretches end in order, as rows do (neither overlaps itself) */
		while (j < nu && u[j].to <= r.paused_at)
			j++;
		for (size_t m = j; m < nu && u[m].from < r.resumed_at && r.paused_at < r.resumed_at;
		     m++) {
			if (u[m].from > r.paused_at) {
				out[k] = r;
				out[k++].resumed_at = u[m].from;
			}
			r.paused_at = u[m].to < r.resumed_at ? u[m].to : r.resumed_at;
		}
		if (r.paused_at < r.resumed_at)
			out[k++] = r;
	}
	for (size_t m = 0; m < nu; m++) {
		out[k] = (struct ses_pause){ u[m].pid, u[m].from, u[m].to, "" };
		snprintf(out[k++].how, sizeof(out->how), "%s", SES_PAUSE_HOW_UNKNOWN);
	}
	util_qsort(out, k, sizeof(*out), cmp_row);
	free(in);
	*rows = out;
	*n = k;
	return 0;
}

size_t ses_pauses_cap(struct ses_pause *rows, size_t *n, size_t max)
{
	size_t folded;
	int64_t to = 0;

	if (*n <= max || !max)
		return 0;
	folded = *n - (max - 1);
	for (size_t i = max - 1; i < *n; i++)
		if (rows[i].resumed_at > to)
			to = rows[i].resumed_at;
	rows[max - 1].resumed_at = to;
	snprintf(rows[max - 1].how, sizeof(rows->how), "%s", SES_PAUSE_HOW_UNKNOWN);
	*n = max;
	return folded;
}

/* Sort @calls by time, equal stamps in their given order (the live state let the later
 * of two equal stamps win). */
static int sort_calls(struct ses_pause_call *calls, size_t n)
{
	uint64_t *keys;
	size_t *order;
	struct ses_pause_call *copy;
	int ret = -ENOMEM;

	if (n < 2)
		return 0; /* nothing to order (and calls may be NULL) */
	keys = malloc(n * sizeof(*keys));
	order = malloc(n * sizeof(*order));
	copy = malloc(n * sizeof(*copy));
	if (keys && order && copy) {
		for (size_t i = 0; i < n; i++)
			keys[i] = ses_time_key(calls[i].time);
		ret = ses_time_order(keys, n, order);
	}
	if (!ret) {
		memcpy(copy, calls, n * sizeof(*copy));
		for (size_t i = 0; i < n; i++)
			calls[i] = copy[order[i]];
	}
	free(keys);
	free(order);
	free(copy);
	return ret;
}

static int64_t clamp(int64_t t, int64_t start, int64_t end, int64_t now, struct ses_pause_clamps *c)
{
	if (t > now)
		c->future++;
	if (t < start) {
		c->before_start++;
		return start;
	}
	if (t > end) {
		c->after_end++;
		return end;
	}
	return t;
}

int ses_pauses_arbitrate(struct ses_pause_call *calls, size_t n, bool start_paused, int64_t start,
			 int64_t end, int64_t now, struct ses_pause **out, size_t *nout,
			 struct ses_pause_clamps *clamps)
{
	struct ses_pause_clamps none = { 0, 0, 0 };
	struct ses_pause *v;
	bool paused = start_paused;
	size_t k = 0, kept = 0;

	*out = NULL;
	*nout = 0;
	if (!clamps)
		clamps = &none;
	memset(clamps, 0, sizeof(*clamps));
	if (end < start)
		end = start;
	if (now < end)
		now = end;
	v = calloc(n + 1, sizeof(*v));
	if (!v || sort_calls(calls, n)) {
		free(v);
		return -ENOMEM;
	}
	if (paused)
		v[k++] = (struct ses_pause){ -1, start, end, "" };
	/* in true time order first, then each stamp clamped: calls before the start still
	 * decide the state the session starts in */
	for (size_t i = 0; i < n; i++) {
		const struct ses_pause_call *c = &calls[i];
		int64_t t = clamp(c->time, start, end, now, clamps);

		if (c->paused && !paused) {
			v[k] = (struct ses_pause){ c->pid, t, end, "" };
			snprintf(v[k].how, sizeof(v[k].how), "%s", ses_pause_how_name(c->how));
			k++;
		} else if (!c->paused && paused) {
			v[k - 1].resumed_at = t;
		}
		paused = c->paused;
	}
	if (start_paused)
		snprintf(v[0].how, sizeof(v[0].how), "%s", ses_pause_how_name(SES_PAUSE_START));
	/* an interval with no time inside (start, end) paused nothing */
	for (size_t i = 0; i < k; i++)
		if (v[i].resumed_at > start && v[i].paused_at < end)
			v[kept++] = v[i];
	*out = v;
	*nout = kept;
	return 0;
}
