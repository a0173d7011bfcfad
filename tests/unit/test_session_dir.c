// SPDX-License-Identifier: MIT
/* lib/session unit tests, part 5: the session directory's name and modes (dir.c) and the
 * MPI job directory (job.c), including processes that create them at the same moment. */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "session/session.h"
#include "util/util.h"

#include "session_helpers.h"
#include "session_at.h"

#define T0 ((time_t)1700000000) /* Nov-14-2023 22:13:20 UTC */

static mode_t mode_of(const char *path)
{
	struct stat sb;

	assert_int_equal(lstat(path, &sb), 0);
	return sb.st_mode & 07777;
}

/* ses_dir_create beneath @dir's fd; the session's path into @out (as collect names it in
 * its messages), its fd closed. 0 or -errno (@out then holds what the name was left as). */
static int dir_create(const char *dir, const char *prog, const char *label, time_t when,
		      char *out, size_t outlen)
{
	char name[NAME_MAX + 1];
	int dfd = test_dir_open(dir);
	int fd = ses_dir_create(dfd, prog, label, when, name,
				outlen < sizeof(name) ? outlen : sizeof(name));

	close(dfd);
	if (fd < 0) {
		snprintf(out, outlen, "%s", fd == -EEXIST ? name : "");
		return fd;
	}
	close(fd);
	snprintf(out, outlen, "%s/%s", dir, name);
	return 0;
}

/* ses_job_join beneath @dir's fd; the rank's session path into @out, its fd closed. */
static int job_join(const char *dir, const char *prog, const char *job,
		    const struct ses_job_rank *r, char *out, size_t outlen)
{
	char name[NAME_MAX + 1];
	int dfd = test_dir_open(dir), fd = ses_job_join(dfd, prog, job, r, name, sizeof(name));

	close(dfd);
	if (fd < 0)
		return fd;
	close(fd);
	snprintf(out, outlen, "%s/%s/rank-%d", dir, name, r->rank);
	return 0;
}

static int count_entries(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void dir_name_is_uprofs(void **state)
{
	char out[PATH_MAX], dir[PATH_MAX], want[PATH_MAX + 64];

	(void)state;
	subdir(dir, sizeof(dir), "name");
	assert_int_equal(dir_create(dir, "/usr/bin/myapp", "TBP", T0, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/uprof-myapp-TBP_Nov-14-2023_22-13-20", dir);
	assert_string_equal(out, want);
	/* a bare name is its own base; another label is another name */
	assert_int_equal(dir_create(dir, "ls", "Custom", T0, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/uprof-ls-Custom_Nov-14-2023_22-13-20", dir);
	assert_string_equal(out, want);
	assert_int_equal(dir_create(dir, "/bin/", "TBP", T0, out, sizeof(out)), -EINVAL);
	assert_int_equal(dir_create(dir, "ls", "a/b", T0, out, sizeof(out)), -EINVAL);
	assert_int_equal(dir_create(dir, "ls", "TBP", T0, out, 20), -ENAMETOOLONG);
}

/* Two collects in one second into one -o: never one directory. */
static void dir_same_second_gets_suffix(void **state)
{
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], dir[PATH_MAX];

	(void)state;
	subdir(dir, sizeof(dir), "same");
	assert_int_equal(dir_create(dir, "app", "TBP", T0, a, sizeof(a)), 0);
	assert_int_equal(dir_create(dir, "app", "TBP", T0, b, sizeof(b)), 0);
	assert_int_equal(dir_create(dir, "app", "TBP", T0, c, sizeof(c)), 0);
	assert_string_equal(b + strlen(a), "-2");
	assert_string_equal(c + strlen(a), "-3");
	assert_memory_equal(a, b, strlen(a));
}

static void dir_too_many_in_one_second(void **state)
{
	char out[PATH_MAX], dir[PATH_MAX];

	(void)state;
	subdir(dir, sizeof(dir), "many");
	for (int i = 1; i < SES_DIR_MAX_SAME_SECOND; i++)
		assert_int_equal(dir_create(dir, "app", "TBP", T0, out, sizeof(out)), 0);
	assert_int_equal(dir_create(dir, "app", "TBP", T0, out, sizeof(out)), -EEXIST);
	assert_string_equal(out, "");
}

/* Forked collects racing for one name each get their own directory. */
static void dir_racing_processes_never_share(void **state)
{
	enum { N = 12 };
	char dir[PATH_MAX];
	int fds[2], status;
	pid_t pids[N];

	(void)state;
	subdir(dir, sizeof(dir), "race");
	assert_int_equal(pipe(fds), 0);
	for (int i = 0; i < N; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i]) {
			char out[PATH_MAX], go;

			close(fds[1]);
			/* all start at once: the pipe's close releases them together */
			_exit(read(fds[0], &go, 1) != 0 ||
			      dir_create(dir, "app", "TBP", T0, out, sizeof(out)));
		}
	}
	close(fds[0]);
	close(fds[1]);
	for (int i = 0; i < N; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(count_entries(dir, "uprof-app-TBP_"), N);
}

static void dir_modes_whatever_the_umask(void **state)
{
	static const mode_t masks[] = { 0, 022, 077, 0777 };
	char out[PATH_MAX], dir[PATH_MAX], file[PATH_MAX + 16], sub[PATH_MAX + 16];

	(void)state;
	subdir(dir, sizeof(dir), "modes");
	for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
		mode_t old = umask(masks[i]);
		int fd;

		int sfd, dfd;

		assert_int_equal(dir_create(dir, "app", "TBP", T0, out, sizeof(out)), 0);
		snprintf(file, sizeof(file), "%s/samples.data", out);
		snprintf(sub, sizeof(sub), "%s/instrument", out);
		sfd = util_dir_open(out);
		assert_true(sfd >= 0);
		fd = util_at_create(sfd, "samples.data", O_WRONLY | O_EXCL, SES_FILE_MODE);
		dfd = util_at_mkdir(sfd, "instrument", SES_DIR_MODE, false);
		assert_int_equal(util_at_mkdir(sfd, "instrument", SES_DIR_MODE, false), -EEXIST);
		umask(old);
		assert_true(fd >= 0);
		assert_true(dfd >= 0);
		close(fd);
		close(dfd);
		close(sfd);
		assert_int_equal(mode_of(out), 0700);
		assert_int_equal(mode_of(file), 0600);
		assert_int_equal(mode_of(sub), 0700);
	}
	/* a file of ours that was there with a wider mode is narrowed */
	{
		int sfd = util_dir_open(out);

		assert_int_equal(chmod(file, 0644), 0);
		close(util_at_create(sfd, "samples.data", O_WRONLY | O_TRUNC, SES_FILE_MODE));
		assert_int_equal(mode_of(file), 0600);
		/* a link planted where a session file goes is not followed */
		snprintf(sub, sizeof(sub), "%s/link", out);
		assert_int_equal(symlink(file, sub), 0);
		assert_int_equal(util_at_create(sfd, "link", O_WRONLY | O_TRUNC, SES_FILE_MODE),
				 -ELOOP);
		close(sfd);
	}
}

/* The session is written through its fd: renamed away by another user and a symlink to
 * another directory put at its name, every writer still writes into the directory made,
 * nothing lands where the symlink points, and the clean-up leaves the symlink alone. */
static void dir_writes_follow_the_fd_not_the_name(void **state)
{
	char dir[PATH_MAX], name[NAME_MAX + 1], path[PATH_MAX + 300], moved[PATH_MAX + 320];
	char victim[PATH_MAX + 16];
	struct ses_pause p = { .pid = -1, .paused_at = 1, .resumed_at = 2, .how = "api" };
	struct ses_info in;
	struct ses_tasks_writer *tw;
	struct ses_writer *w;
	struct stat sb;
	int dfd, sfd;

	(void)state;
	subdir(dir, sizeof(dir), "swap");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(mkdir(victim, 0700), 0);
	dfd = test_dir_open(dir);
	sfd = ses_dir_create(dfd, "app", "TBP", T0, name, sizeof(name));
	assert_true(sfd >= 0);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(moved, sizeof(moved), "%s.moved", path);
	assert_int_equal(rename(path, moved), 0);
	assert_int_equal(symlink(victim, path), 0);

	memset(&in, 0, sizeof(in));
	in.format_version = 1;
	assert_int_equal(ses_info_write(sfd, &in), 0);
	assert_int_equal(ses_pauses_write(sfd, &p, 1), 0);
	w = ses_writer_open(sfd);
	assert_non_null(w);
	assert_int_equal(ses_writer_close(w), 0);
	tw = ses_tasks_writer_open(sfd, 7);
	assert_non_null(tw);
	assert_int_equal(ses_tasks_writer_close(tw), 0);
	assert_int_equal(count_entries(victim, ""), 2); /* . and .. only */
	/* session.ini, pauses.csv, samples.data, instrument/ (no temp file left) */
	assert_int_equal(count_entries(moved, ""), 2 + 4);
	/* samples.data is a new file: a name already there is not written through */
	assert_null(ses_writer_open(sfd));
	assert_int_equal(errno, EEXIST);

	ses_dir_remove_at(dfd, name, sfd);
	assert_int_equal(count_entries(moved, ""), 2);
	assert_int_equal(lstat(path, &sb), 0);
	assert_true(S_ISLNK(sb.st_mode));
	assert_int_equal(count_entries(victim, ""), 2);
	close(sfd);
	close(dfd);
}

static void dir_mkdir_p_makes_parents(void **state)
{
	char dir[PATH_MAX], deep[PATH_MAX + 16];
	struct stat sb;

	(void)state;
	subdir(dir, sizeof(dir), "parents");
	snprintf(deep, sizeof(deep), "%s/a/b/c", dir);
	assert_int_equal(ses_mkdir_p(deep), 0);
	assert_int_equal(ses_mkdir_p(deep), 0); /* there already: fine */
	assert_int_equal(stat(deep, &sb), 0);
	assert_true(S_ISDIR(sb.st_mode));
	assert_int_equal(ses_mkdir_p(""), -EINVAL);
	snprintf(deep, sizeof(deep), "%s/a/b/c/f", dir);
	close(open(deep, O_WRONLY | O_CREAT, 0600));
	snprintf(deep, sizeof(deep), "%s/a/b/c/f/g", dir);
	assert_int_equal(ses_mkdir_p(deep), -ENOTDIR);
}

/* 64 bytes of name at most, never half a UTF-8 character. */
static void dir_app_name_cut_at_character(void **state)
{
	char name[80];

	(void)state;
	memset(name, 'a', 63);
	memcpy(name + 63, "\xc3\xa9xyz", 6); /* é straddles byte 64 */
	assert_int_equal(ses_app_name_len(name), 63);
	memset(name, 'a', 64);
	memcpy(name + 64, "\xc3\xa9", 3); /* a whole character after byte 64 */
	assert_int_equal(ses_app_name_len(name), 64);
	assert_int_equal(ses_app_name_len("short"), 5);
	assert_string_equal(ses_app_base("/a/b/prog"), "prog");
	assert_string_equal(ses_app_base("prog"), "prog");
}

/* ---- the job directory ---- */

static void job_dir_path(char *buf, size_t len, const char *dir, const char *job)
{
	snprintf(buf, len, "%s/uprof-app-HPC_MPI_%s", dir, job);
}

static void job_one_rank(void **state)
{
	char dir[PATH_MAX], out[PATH_MAX], want[PATH_MAX + 64], err[128];
	struct ses_job_rank r;
	struct ses_job j;

	(void)state;
	subdir(dir, sizeof(dir), "job1");
	ses_job_rank_init(&r, 3);
	assert_int_equal(r.pid, getpid());
	snprintf(r.host, sizeof(r.host), "node\n7"); /* a value stays on its line */
	r.clock_offset_ns = -42;
	assert_int_equal(r.local_rank, -1);
	r.size = 8;
	r.local_rank = 1;
	assert_int_equal(job_join(dir, "/opt/app", "4242", &r, out, sizeof(out)), 0);
	job_dir_path(want, sizeof(want), dir, "4242");
	assert_int_equal(mode_of(want), 0700);
	strcat(want, "/" SES_JOB_FILE);
	assert_int_equal(mode_of(want), 0600);
	job_dir_path(want, sizeof(want), dir, "4242");
	strcat(want, "/rank-3");
	assert_string_equal(out, want);
	assert_int_equal(mode_of(out), 0700);
	job_dir_path(want, sizeof(want), dir, "4242");
	assert_int_equal(ses_job_read(want, &j, err, sizeof(err)), 0);
	assert_int_equal(j.format_version, 1);
	assert_string_equal(j.id, "4242");
	assert_string_equal(j.app, "app");
	assert_int_equal(j.nranks, 1);
	assert_int_equal(j.ranks[0].rank, 3);
	assert_int_equal(j.ranks[0].pid, getpid());
	assert_string_equal(j.ranks[0].host, "node?7");
	assert_string_equal(j.ranks[0].session, "rank-3");
	assert_int_equal(j.ranks[0].clock_offset_ns, -42);
	assert_int_equal(j.size, 8);
	assert_int_equal(j.ranks[0].local_rank, 1);
	ses_job_release(&j);
	ses_job_release(&j);
	/* the same rank again: refused, job.ini unchanged */
	assert_int_equal(job_join(dir, "/opt/app", "4242", &r, out, sizeof(out)), -EEXIST);
	assert_int_equal(ses_job_read(want, &j, err, sizeof(err)), 0);
	assert_int_equal(j.nranks, 1);
	ses_job_release(&j);
}

static void job_refuses_bad_ids_and_foreign_dirs(void **state)
{
	char dir[PATH_MAX], out[PATH_MAX], path[PATH_MAX + 64];
	struct ses_job_rank r;

	(void)state;
	subdir(dir, sizeof(dir), "jobbad");
	ses_job_rank_init(&r, 0);
	assert_int_equal(job_join(dir, "app", "../x", &r, out, sizeof(out)), -EINVAL);
	assert_int_equal(job_join(dir, "app", "", &r, out, sizeof(out)), -EINVAL);
	assert_int_equal(job_join(dir, "app", "a b", &r, out, sizeof(out)), -EINVAL);
	r.rank = SES_JOB_MAX_RANKS;
	assert_int_equal(job_join(dir, "app", "1", &r, out, sizeof(out)), -EINVAL);
	r.rank = -1;
	assert_int_equal(job_join(dir, "app", "1", &r, out, sizeof(out)), -EINVAL);
	r.rank = 0;
	/* a link planted where the job directory goes */
	job_dir_path(path, sizeof(path), dir, "link");
	assert_int_equal(symlink("/tmp", path), 0);
	assert_int_equal(job_join(dir, "app", "link", &r, out, sizeof(out)), -ENOTDIR);
	/* a directory others may enter is not ours to fill */
	job_dir_path(path, sizeof(path), dir, "open");
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(chmod(path, 0755), 0);
	assert_int_equal(job_join(dir, "app", "open", &r, out, sizeof(out)), -EPERM);
	assert_int_equal(count_entries(path, ""), 2); /* . and .. only */
}

/* N ranks starting at the same moment agree on one directory and are all in job.ini. */
static void job_racing_ranks_agree(void **state)
{
	enum { N = 16 };
	char dir[PATH_MAX], jobdir[PATH_MAX + 64], err[128];
	int fds[2], status, seen[N] = { 0 };
	struct ses_job j;
	pid_t pids[N];

	(void)state;
	subdir(dir, sizeof(dir), "jobrace");
	assert_int_equal(pipe(fds), 0);
	for (int i = 0; i < N; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i]) {
			struct ses_job_rank r;
			char out[PATH_MAX], go;

			close(fds[1]);
			ses_job_rank_init(&r, i);
			_exit(read(fds[0], &go, 1) != 0 ||
			      job_join(dir, "/x/app", "77", &r, out, sizeof(out)));
		}
	}
	close(fds[0]);
	close(fds[1]);
	for (int i = 0; i < N; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	assert_int_equal(count_entries(dir, "uprof-"), 1);
	job_dir_path(jobdir, sizeof(jobdir), dir, "77");
	assert_int_equal(count_entries(jobdir, "rank-"), N);
	assert_int_equal(ses_job_read(jobdir, &j, err, sizeof(err)), 0);
	assert_string_equal(j.id, "77");
	assert_int_equal(j.nranks, N);
	for (size_t i = 0; i < j.nranks; i++) {
		char want[32];

		assert_true(j.ranks[i].rank >= 0 && j.ranks[i].rank < N);
		seen[j.ranks[i].rank]++;
		assert_int_equal(j.ranks[i].pid, pids[j.ranks[i].rank]);
		snprintf(want, sizeof(want), "rank-%d", j.ranks[i].rank);
		assert_string_equal(j.ranks[i].session, want);
	}
	for (int i = 0; i < N; i++)
		assert_int_equal(seen[i], 1);
	ses_job_release(&j);
}

static const char good_job[] = "[job]\nformat_version = 1\nid = 9\napp = a\n"
			       "\n[rank.1]\nsession = rank-1\nhost = h1\npid = 10\n"
			       "clock_offset_ns = 5\nnewer_key = x\n"
			       "\n[later]\nwhatever = 1\n"
			       "\n[rank.0]\nsession = rank-0\nhost = h0\npid = 11\n";

static void job_parse_fields_and_order(void **state)
{
	struct ses_job j;
	char err[128];

	(void)state;
	assert_int_equal(ses_job_parse(good_job, strlen(good_job), &j, err, sizeof(err)), 0);
	assert_int_equal(j.nranks, 2);
	assert_int_equal(j.ranks[0].rank, 1);
	assert_string_equal(j.ranks[0].host, "h1");
	assert_int_equal(j.ranks[0].clock_offset_ns, 5);
	assert_int_equal(j.ranks[1].rank, 0);
	assert_int_equal(j.ranks[1].pid, 11);
	assert_string_equal(j.ranks[1].session, "rank-0");
	/* keys an older writer did not write: unknown, not zero */
	assert_int_equal(j.size, 0);
	assert_int_equal(j.ranks[0].local_rank, -1);
	ses_job_release(&j);
}

static void job_parse_refuses_corruption(void **state)
{
	static const struct {
		const char *text;
		int ret;
		const char *err;
	} cases[] = {
		{ "[job]\nformat_version = 1\n[rank.1]\n[rank.1]\n", -EINVAL,
		  "line 4: a section listed twice" },
		{ "[job]\nformat_version = 1\n[job]\n", -EINVAL, "line 3: a section listed twice" },
		{ "[job]\nformat_version = 1\n[rank.1]\nsession = ../etc\n", -EINVAL,
		  "line 4: malformed" },
		{ "[job]\nformat_version = 1\n[rank.1]\nsession = a/b\n", -EINVAL,
		  "line 4: malformed" },
		{ "[job]\nformat_version = 1\n[rank.65536]\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 1\n[rank.-1]\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 1\n[rank.0]\npid = x\n", -EINVAL, "line 4: malformed" },
		{ "[job]\nformat_version = 1\nranks = 0\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 1\nranks = 65537\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 1\n[rank.0]\nlocal_rank = -1\n", -EINVAL,
		  "line 4: malformed" },
		{ "[job]\nformat_version = 1\n[rank.0\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 1\nno equals sign\n", -EINVAL, "line 3: malformed" },
		{ "[job]\nformat_version = 2\n", -EPROTO,
		  "format_version 2 is not one this uprof reads (1..1)" },
		{ "[rank.0]\nsession = rank-0\n", -EPROTO,
		  "format_version 0 is not one this uprof reads (1..1)" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ses_job j;
		char err[128] = "";

		assert_int_equal(ses_job_parse(cases[i].text, strlen(cases[i].text), &j, err,
					       sizeof(err)),
				 cases[i].ret);
		assert_string_equal(err, cases[i].err);
		assert_null(j.ranks);
	}
}

/* Every prefix of a good file parses or fails cleanly, never reading past its end (the
 * copy is exactly as long as the prefix, so ASan sees any overrun). */
static void job_parse_truncated(void **state)
{
	size_t len = strlen(good_job), head = strlen("[job]\nformat_version = 1\n");

	(void)state;
	for (size_t n = 0; n <= len; n++) {
		char *cut = dup_exact(good_job, n), err[128];
		struct ses_job j;
		int ret = ses_job_parse(cut, n, &j, err, sizeof(err));

		/* a cut at a line's end, after the version, is a shorter good file */
		if (n >= head && good_job[n - 1] == '\n')
			assert_int_equal(ret, 0);
		if (!ret) {
			assert_true(j.nranks <= 2);
			ses_job_release(&j);
		} else {
			assert_true(ret == -EINVAL || ret == -EPROTO);
			assert_null(j.ranks);
		}
		free(cut);
	}
}

static void job_read_refuses_fifo(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[128];
	struct ses_job j;

	(void)state;
	subdir(dir, sizeof(dir), "jobfifo");
	snprintf(path, sizeof(path), "%s/" SES_JOB_FILE, dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ses_job_read(dir, &j, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	assert_int_equal(ses_job_read("/nonexistent", &j, err, sizeof(err)), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dir_name_is_uprofs),
		cmocka_unit_test(dir_same_second_gets_suffix),
		cmocka_unit_test(dir_too_many_in_one_second),
		cmocka_unit_test(dir_racing_processes_never_share),
		cmocka_unit_test(dir_modes_whatever_the_umask),
		cmocka_unit_test(dir_writes_follow_the_fd_not_the_name),
		cmocka_unit_test(dir_mkdir_p_makes_parents),
		cmocka_unit_test(dir_app_name_cut_at_character),
		cmocka_unit_test(job_one_rank),
		cmocka_unit_test(job_refuses_bad_ids_and_foreign_dirs),
		cmocka_unit_test(job_racing_ranks_agree),
		cmocka_unit_test(job_parse_fields_and_order),
		cmocka_unit_test(job_parse_refuses_corruption),
		cmocka_unit_test(job_parse_truncated),
		cmocka_unit_test(job_read_refuses_fifo),
	};

	setenv("TZ", "UTC", 1); /* the directory's stamp is local time */
	tzset();
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
