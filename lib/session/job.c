// SPDX-License-Identifier: MIT
/*
 * The MPI job directory (docs/DESIGN.md §10): uprof-<app>-HPC_MPI_<job>/ with job.ini and one
 * session per rank in rank-<r>/. Every rank's collect joins the job on its own, at the
 * same moment as the others: mkdirat decides who creates the directory (the others find
 * it; all of it beneath the -o directory's fd, docs/DESIGN.md §4), and an exclusive flock on job.ini orders the ranks' appends, so N ranks agree on
 * one directory and job.ini lists each of them once.
 */
#include "session/internal.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A job id goes into a directory name: the launcher's ids are numbers, or names like
 * 'slurm.4242' or '3518103553'; nothing that could leave the output directory. */
static bool valid_job_id(const char *s)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._-";
	size_t len = strlen(s);

	return len && len <= SES_JOB_ID_MAX && strspn(s, ok) == len;
}

/* Copy @s into @dst, control characters as '?': a value must stay on its line. */
static void put_value(char *dst, size_t size, const char *s)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++)
		dst[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	dst[i] = 0;
}

void ses_job_rank_init(struct ses_job_rank *r, int rank)
{
	struct timespec rt, mono;

	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->local_rank = -1;
	r->pid = (int)getpid();
	if (gethostname(r->host, sizeof(r->host) - 1))
		snprintf(r->host, sizeof(r->host), "?");
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	r->clock_offset_ns = ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000 +
			     ((int64_t)rt.tv_nsec - mono.tv_nsec);
}

/* The job directory another rank made (mkdirat said EEXIST): opened beneath @outfd with
 * no symlink followed (a link planted where ours was to be: -ENOTDIR), and it must be ours
 * and private (-EPERM). Its fd, or -errno. */
static int open_found_dir(int outfd, const char *name)
{
	struct stat sb;
	int fd = util_at_dir(outfd, name);

	if (fd == -ELOOP)
		return -ENOTDIR;
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	if (sb.st_uid != geteuid() || (sb.st_mode & 077)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

/* Under the lock: the [job] header if we are the first, our rank's directory (its fd
 * returned), and our [rank.<r>] section. */
static int join_locked(int fd, int jobfd, const char *app, const char *job,
		       const struct ses_job_rank *r)
{
	char buf[1024], name[32], host[sizeof(r->host)];
	struct stat sb;
	int len, ret, rankfd;

	if (fstat(fd, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode))
		return -EINVAL;
	if (!sb.st_size) {
		len = snprintf(buf, sizeof(buf),
			       "[job]\nformat_version = %d\nid = %s\napp = %.*s\n",
			       SES_JOB_FORMAT_VERSION, job, (int)ses_app_name_len(app), app);
		if (r->size > 0)
			len += snprintf(buf + len, sizeof(buf) - len, "ranks = %d\n", r->size);
		ret = ses_write_full(fd, buf, (size_t)len);
		if (ret)
			return ret;
	}
	snprintf(name, sizeof(name), "rank-%d", r->rank);
	rankfd = util_at_mkdir(jobfd, name, SES_DIR_MODE,
			       false); /* -EEXIST: two ranks, one number */
	if (rankfd < 0)
		return rankfd;
	put_value(host, sizeof(host), r->host);
	len = snprintf(
		buf, sizeof(buf),
		"\n[rank.%d]\nsession = rank-%d\nhost = %s\npid = %d\nclock_offset_ns = %" PRId64
		"\n",
		r->rank, r->rank, host, r->pid, r->clock_offset_ns);
	if (r->local_rank >= 0)
		len += snprintf(buf + len, sizeof(buf) - len, "local_rank = %d\n", r->local_rank);
	ret = ses_write_full(fd, buf, (size_t)len);
	if (ret) {
		close(rankfd);
		unlinkat(jobfd, name, AT_REMOVEDIR);
		return ret;
	}
	return rankfd;
}

int ses_job_join(int outfd, const char *prog, const char *job, const struct ses_job_rank *r,
		 char *jobname, size_t jobnamelen)
{
	const char *app = ses_app_base(prog);
	int fd, jobfd, ret;

	if (!valid_job_id(job) || !*app || r->rank < 0 || r->rank >= SES_JOB_MAX_RANKS)
		return -EINVAL;
	if (snprintf(jobname, jobnamelen, "uprof-%.*s-HPC_MPI_%s", (int)ses_app_name_len(app), app,
		     job) >= (int)jobnamelen)
		return -ENAMETOOLONG;
	jobfd = util_at_mkdir(outfd, jobname, SES_DIR_MODE, false);
	if (jobfd == -EEXIST)
		jobfd = open_found_dir(outfd, jobname);
	if (jobfd < 0)
		return jobfd;
	fd = util_at_create(jobfd, SES_JOB_FILE, O_RDWR | O_APPEND, SES_FILE_MODE);
	if (fd < 0) {
		close(jobfd);
		return fd;
	}
	while (flock(fd, LOCK_EX))
		if (errno != EINTR) {
			ret = -errno;
			goto out;
		}
	ret = join_locked(fd, jobfd, app, job, r);
out:
	close(fd); /* drops the lock */
	close(jobfd);
	return ret;
}

/* ---- reading job.ini ---- */

struct span {
	const char *p;
	size_t len;
};

static struct span trim(const char *p, size_t len)
{
	while (len && (*p == ' ' || *p == '\t'))
		p++, len--;
	while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\r'))
		len--;
	return (struct span){ p, len };
}

static bool is(struct span s, const char *word)
{
	return s.len == strlen(word) && !memcmp(s.p, word, s.len);
}

static int to_i64(struct span s, int64_t min, int64_t max, int64_t *out)
{
	char buf[24], *end;
	long long v;

	if (!s.len || s.len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s.p, s.len);
	buf[s.len] = 0;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int to_str(struct span s, char *dst, size_t size)
{
	if (s.len >= size)
		return -EINVAL;
	memcpy(dst, s.p, s.len);
	dst[s.len] = 0;
	return 0;
}

/* A new [rank.N] section: N in range and not seen before (a linear scan would make a
 * hostile file of many ranks quadratic: a bitmap of seen ranks). */
static int add_rank(struct ses_job *j, struct span num, uint8_t *seen)
{
	struct ses_job_rank *grown;
	int64_t n;

	if (to_i64(num, 0, SES_JOB_MAX_RANKS - 1, &n))
		return -EINVAL;
	if (seen[n / 8] & (1u << (n % 8)))
		return -EEXIST;
	seen[n / 8] |= (uint8_t)(1u << (n % 8));
	if (j->nranks == j->capranks) {
		size_t cap = j->capranks ? j->capranks * 2 : 16;

		grown = realloc(j->ranks, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		j->ranks = grown;
		j->capranks = cap;
	}
	memset(&j->ranks[j->nranks], 0, sizeof(j->ranks[0]));
	j->ranks[j->nranks].rank = (int)n;
	j->ranks[j->nranks].local_rank = -1;
	j->nranks++;
	return 0;
}

static int set_rank_key(struct ses_job_rank *r, struct span key, struct span val)
{
	int64_t v;

	if (is(key, "session")) {
		/* report opens <jobdir>/<session>: a plain name only */
		if (!val.len || val.p[0] == '.' || memchr(val.p, '/', val.len))
			return -EINVAL;
		return to_str(val, r->session, sizeof(r->session));
	}
	if (is(key, "host"))
		return to_str(val, r->host, sizeof(r->host));
	if (is(key, "pid")) {
		if (to_i64(val, 0, INT32_MAX, &v))
			return -EINVAL;
		r->pid = (int)v;
		return 0;
	}
	if (is(key, "clock_offset_ns"))
		return to_i64(val, INT64_MIN, INT64_MAX, &r->clock_offset_ns);
	if (is(key, "local_rank")) {
		if (to_i64(val, 0, SES_JOB_MAX_RANKS - 1, &v))
			return -EINVAL;
		r->local_rank = (int)v;
		return 0;
	}
	return 0; /* a newer writer's key */
}

static int set_job_key(struct ses_job *j, struct span key, struct span val)
{
	int64_t v;

	if (is(key, "format_version")) {
		if (to_i64(val, 0, INT32_MAX, &v))
			return -EINVAL;
		j->format_version = (int)v;
		return 0;
	}
	if (is(key, "ranks")) { /* the launcher's world size: ranks 0..N-1 are expected */
		if (to_i64(val, 1, SES_JOB_MAX_RANKS, &v))
			return -EINVAL;
		j->size = (int)v;
		return 0;
	}
	if (is(key, "id"))
		return to_str(val, j->id, sizeof(j->id));
	if (is(key, "app"))
		return to_str(val, j->app, sizeof(j->app));
	return 0;
}

enum { IN_NONE, IN_JOB, IN_RANK, IN_OTHER };

static int parse_line(struct ses_job *j, struct span l, int *where, uint8_t *seen)
{
	const char *eq;
	struct span key, val;

	if (!l.len || l.p[0] == '#' || l.p[0] == ';')
		return 0;
	if (memchr(l.p, 0, l.len))
		return -EINVAL;
	if (l.p[0] == '[') {
		struct span sec;

		if (l.len < 3 || l.p[l.len - 1] != ']')
			return -EINVAL;
		sec = trim(l.p + 1, l.len - 2);
		if (is(sec, "job")) {
			/* two collects that both wrote the header did not hold the lock */
			if (j->seen_job)
				return -EEXIST;
			j->seen_job = true;
			*where = IN_JOB;
			return 0;
		}
		if (sec.len > 5 && !memcmp(sec.p, "rank.", 5)) {
			*where = IN_RANK;
			return add_rank(j, (struct span){ sec.p + 5, sec.len - 5 }, seen);
		}
		*where = IN_OTHER;
		return 0;
	}
	eq = memchr(l.p, '=', l.len);
	if (!eq)
		return -EINVAL;
	key = trim(l.p, (size_t)(eq - l.p));
	val = trim(eq + 1, l.len - (size_t)(eq + 1 - l.p));
	if (*where == IN_JOB)
		return set_job_key(j, key, val);
	if (*where == IN_RANK)
		return set_rank_key(&j->ranks[j->nranks - 1], key, val);
	return 0;
}

int ses_job_parse(const char *buf, size_t len, struct ses_job *j, char *err, size_t errlen)
{
	uint8_t *seen = NULL;
	size_t pos = 0;
	int lineno = 0, where = IN_NONE, ret = 0;

	memset(j, 0, sizeof(*j));
	if (len > SES_JOB_MAX_BYTES) {
		ses_errf(err, errlen, "file is %zu bytes, more than a job.ini can be", len);
		return -EFBIG;
	}
	seen = calloc(SES_JOB_MAX_RANKS / 8, 1);
	if (!seen)
		return -ENOMEM;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		lineno++;
		ret = parse_line(j, trim(buf + pos, n), &where, seen);
		pos += n + 1;
		if (ret == -ENOMEM)
			goto out;
		if (ret) {
			ses_errf(err, errlen, "line %d: %s", lineno,
				 ret == -EEXIST ? "a section listed twice" : "malformed");
			ret = -EINVAL;
			goto out;
		}
	}
	if (j->format_version < 1 || j->format_version > SES_JOB_FORMAT_VERSION) {
		ses_errf(err, errlen, "format_version %d is not one this uprof reads (1..%d)",
			 j->format_version, SES_JOB_FORMAT_VERSION);
		ret = -EPROTO;
	}
out:
	free(seen);
	if (ret)
		ses_job_release(j);
	return ret;
}

void ses_job_release(struct ses_job *j)
{
	if (!j)
		return;
	free(j->ranks);
	j->ranks = NULL;
	j->nranks = j->capranks = 0;
}

int ses_job_read(const char *jobdir, struct ses_job *j, char *err, size_t errlen)
{
	int dfd = open(jobdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret;

	if (dfd < 0) {
		memset(j, 0, sizeof(*j));
		ret = -errno;
		ses_errf(err, errlen, "cannot open: %s", strerror(-ret));
		return ret;
	}
	ret = ses_job_read_at(dfd, j, err, errlen);
	close(dfd);
	return ret;
}

int ses_job_read_at(int dfd, struct ses_job *j, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(j, 0, sizeof(*j));
	/* a FIFO in place of job.ini must not hang report (input.c) */
	ret = ses_file_read_all_at(dfd, SES_JOB_FILE, SES_JOB_MAX_BYTES, &buf, &len, err, errlen);
	if (ret)
		return ret == -EFBIG || ret == -SES_ENOTREG ? -EINVAL : ret;
	ret = ses_job_parse(buf, len, j, err, errlen);
	free(buf);
	return ret;
}
