// SPDX-License-Identifier: MIT
/*
 * lib/util's dirfd.c: every name resolved beneath the directory fd, no symlink followed on
 * any component, new files and directories with the mode asked whatever the umask, and a
 * directory swapped for another user's or a symlink refused. Each case builds its own tree
 * in a fresh mkdtemp directory; a "victim" directory outside it must stay untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

struct tree {
	char root[64];	 /* the directory held open */
	char victim[96]; /* outside it: nothing may appear or change here */
	int dfd;
};

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char victim[96];

	strcpy(t->root, "/tmp/uprof-dirfd-XXXXXX");
	if (!mkdtemp(t->root))
		return -1;
	snprintf(victim, sizeof(victim), "%s.victim", t->root);
	if (mkdir(victim, 0700))
		return -1;
	strcpy(t->victim, victim);
	t->dfd = util_dir_open(t->root);
	*state = t;
	return t->dfd < 0 ? -1 : 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[256];

	close(t->dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", t->root, t->victim);
	if (system(cmd))
		return -1;
	free(t);
	return 0;
}

static int count_entries(const char *dir)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

static void in_root(const struct tree *t, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", t->root, rel);
}

static void symlink_components_refused(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX];

	/* root/link -> victim: as a last component and as a middle one */
	in_root(t, "link", p, sizeof(p));
	assert_int_equal(symlink(t->victim, p), 0);
	assert_true(util_at_create(t->dfd, "link", O_WRONLY, 0600) < 0);
	assert_true(util_at_create(t->dfd, "link/f", O_WRONLY, 0600) < 0);
	assert_true(util_at_mkdir(t->dfd, "link/d", 0700, false) < 0);
	assert_null(util_at_fopen(t->dfd, "link/f", "w", 0600));
	assert_true(util_at_dir(t->dfd, "link") < 0);
	/* rename and unlink act on the symlink itself, never through it */
	assert_int_equal(util_at_rename(t->dfd, "link", "moved"), 0);
	assert_int_equal(util_at_unlink(t->dfd, "moved", 0), 0);
	assert_int_equal(count_entries(t->victim), 0);
	assert_int_equal(count_entries(t->root), 0);
}

static void nothing_leaves_the_directory(void **state)
{
	struct tree *t = *state;

	assert_int_equal(util_at_create(t->dfd, "../x", O_WRONLY, 0600), -EXDEV);
	assert_int_equal(util_at_create(t->dfd, "/tmp/x", O_WRONLY, 0600), -EINVAL);
	assert_int_equal(util_at_mkdir(t->dfd, "..", 0700, true), -EINVAL);
	assert_int_equal(util_at_unlink(t->dfd, "a/..", 0), -EINVAL);
}

static void modes_whatever_the_umask(void **state)
{
	struct tree *t = *state;
	mode_t old = umask(0077);
	struct stat sb;
	int fd, d;

	/* an existing file with a wide mode is narrowed to the mode asked */
	fd = util_at_create(t->dfd, "f", O_WRONLY | O_EXCL, 0666);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0666);
	close(fd);
	fd = util_at_create(t->dfd, "f", O_WRONLY, 0600);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	close(fd);
	assert_int_equal(util_at_create(t->dfd, "f", O_WRONLY | O_EXCL, 0600), -EEXIST);
	umask(0);
	d = util_at_mkdir(t->dfd, "d", 0700, false);
	assert_true(d >= 0);
	assert_int_equal(fstat(d, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0700);
	close(d);
	assert_int_equal(util_at_mkdir(t->dfd, "d", 0700, false), -EEXIST);
	d = util_at_mkdir(t->dfd, "d", 0700, true);
	assert_true(d >= 0);
	close(d);
	/* multi-component names beneath */
	fd = util_at_create(t->dfd, "d/g", O_WRONLY | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	umask(old);
}

/* The attack: the directory we hold is renamed away and a symlink to the victim put at its
 * name. Everything made through the fd lands in the renamed directory. */
static void swapped_directory_keeps_writes(void **state)
{
	struct tree *t = *state;
	char away[128], p[PATH_MAX];
	int d = util_at_mkdir(t->dfd, "session", 0700, false);
	int fd;

	assert_true(d >= 0);
	in_root(t, "session", p, sizeof(p));
	snprintf(away, sizeof(away), "%s/away", t->root);
	assert_int_equal(rename(p, away), 0);
	assert_int_equal(symlink(t->victim, p), 0);
	fd = util_at_create(d, "session.ini", O_WRONLY | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fchmod(d, 0700), 0);
	assert_int_equal(count_entries(t->victim), 0);
	assert_int_equal(count_entries(away), 1);
	/* making it again by name through the swapped symlink is refused */
	assert_true(util_at_mkdir(t->dfd, "session", 0700, true) < 0);
	close(d);
}

static void replace_is_atomic_and_exclusive(void **state)
{
	struct tree *t = *state;
	char tmp[PATH_MAX], *buf;
	size_t len;
	int fd;

	fd = util_at_replace_open(t->dfd, "a.ini", 0600, tmp, sizeof(tmp));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\n", 4), 4);
	assert_int_equal(util_at_replace_commit(t->dfd, tmp, "a.ini", fd, true), 0);
	assert_int_equal(util_at_read_all(t->dfd, "a.ini", 100, &buf, &len), 0);
	assert_int_equal(len, 4);
	assert_string_equal(buf, "one\n");
	free(buf);
	assert_int_equal(util_at_read_all(t->dfd, "a.ini", 3, &buf, &len), -EFBIG);
	assert_int_equal(count_entries(t->root), 1);
}

/* Through an unnamed file: a writer that dies before its commit leaves no name behind; a
 * commit replaces the file (and the name an earlier writer killed mid-commit left). */
static void unnamed_replace_leaves_nothing(void **state)
{
	struct tree *t = *state;
	struct stat sb;
	char *buf;
	size_t len;
	int fd;

	fd = util_at_tmpfile(t->dfd, 0640);
	if (fd == -EOPNOTSUPP || fd == -EISDIR)
		skip(); /* a file system without O_TMPFILE: callers fall back to a named one */
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "lost\n", 5), 5);
	close(fd); /* as a writer killed before its commit */
	assert_int_equal(count_entries(t->root), 0);
	fd = util_at_create(t->dfd, ".a.tmp", O_WRONLY, 0600); /* a killed commit's name */
	assert_true(fd >= 0);
	close(fd);
	fd = util_at_tmpfile(t->dfd, 0640);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "two\n", 4), 4);
	assert_int_equal(util_at_tmpfile_commit(t->dfd, fd, ".a.tmp", "a.ini", true), 0);
	assert_int_equal(util_at_read_all(t->dfd, "a.ini", 100, &buf, &len), 0);
	assert_int_equal(len, 4);
	assert_string_equal(buf, "two\n");
	free(buf);
	assert_int_equal(fstatat(t->dfd, "a.ini", &sb, AT_SYMLINK_NOFOLLOW), 0);
	assert_int_equal(sb.st_mode & 07777, 0640);
	assert_int_equal(sb.st_nlink, 1);
	assert_int_equal(count_entries(t->root), 1); /* the stale .a.tmp went too */
}

static void readers_refuse_fifos(void **state)
{
	struct tree *t = *state;
	char p[PATH_MAX], *buf;
	size_t len;

	in_root(t, "fifo", p, sizeof(p));
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_null(util_at_fopen(t->dfd, "fifo", "r", 0));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(util_at_read_all(t->dfd, "fifo", 100, &buf, &len), -EINVAL);
}

static void others_can_write(void **state)
{
	struct tree *t = *state;

	assert_int_equal(fchmod(t->dfd, 0700), 0);
	assert_false(util_dir_others_can_write(t->dfd));
	assert_int_equal(fchmod(t->dfd, 01777), 0);
	assert_true(util_dir_others_can_write(t->dfd));
	assert_int_equal(fchmod(t->dfd, 0700), 0);
}

/* A name that was there is written only when it is a plain file of ours with one name:
 * another user's file (root would truncate and chmod it) and a hard link to a file
 * elsewhere are refused and left as they were. */
static void existing_names_taken_only_when_ours(void **state)
{
	struct tree *t = *state;
	char path[160], outside[160];
	struct stat sb;
	int fd;

	in_root(t, "theirs", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	if (geteuid() == 0) { /* only root can give a file away */
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(util_at_create(t->dfd, "theirs", O_WRONLY | O_TRUNC, 0600), -EPERM);
		assert_int_equal(stat(path, &sb), 0);
		assert_int_equal(sb.st_size, 4);
		assert_int_equal(sb.st_mode & 07777, 0644);
		assert_int_equal(sb.st_uid, 65534);
	}
	snprintf(outside, sizeof(outside), "%s/precious", t->victim);
	fd = open(outside, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	in_root(t, "hard", path, sizeof(path));
	assert_int_equal(link(outside, path), 0);
	assert_int_equal(util_at_create(t->dfd, "hard", O_WRONLY | O_TRUNC, 0600), -EMLINK);
	assert_int_equal(stat(outside, &sb), 0);
	assert_int_equal(sb.st_size, 4);
	assert_int_equal(sb.st_mode & 07777, 0644);
	/* ours, one name: truncated only when asked */
	in_root(t, "mine", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_int_equal(write(fd, "data", 4), 4);
	close(fd);
	fd = util_at_create(t->dfd, "mine", O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, 4);
	close(fd);
	fd = util_at_create(t->dfd, "mine", O_WRONLY | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(symlink_components_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(nothing_leaves_the_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(modes_whatever_the_umask, setup, teardown),
		cmocka_unit_test_setup_teardown(swapped_directory_keeps_writes, setup, teardown),
		cmocka_unit_test_setup_teardown(replace_is_atomic_and_exclusive, setup, teardown),
		cmocka_unit_test_setup_teardown(readers_refuse_fifos, setup, teardown),
		cmocka_unit_test_setup_teardown(unnamed_replace_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(others_can_write, setup, teardown),
		cmocka_unit_test_setup_teardown(existing_names_taken_only_when_ours, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
