// SPDX-License-Identifier: MIT
/*
 * lib/session/input.c: every reader of a session file opens it there, so a FIFO, a
 * device, a directory or a socket in place of a session file is refused at once, by
 * what it is, and never read: each of these would hang or feed a reader forever. Every
 * test runs under alarm(): a reader that blocks fails the test instead of hanging it.
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "session/session.h"

#include "session_helpers.h"

#define HANG_S 10 /* any of these would block forever; none takes a second */

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* @path made into each kind of non-regular file in turn, checked by @check. */
enum kind { FIFO, DIRECTORY, DEV_ZERO, SOCKET, NKINDS };
static const char *const kind_text[] = {
	"is a FIFO, not a regular file",
	"is a directory, not a regular file",
	"is a character device, not a regular file",
	"is a socket, not a regular file",
};

static int make_kind(const char *path, enum kind k)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	unlink(path);
	rmdir(path);
	switch (k) {
	case FIFO:
		return mkfifo(path, 0600);
	case DIRECTORY:
		return mkdir(path, 0700);
	case DEV_ZERO:
		return symlink("/dev/zero", path);
	case SOCKET:
		if (strlen(path) >= sizeof(a.sun_path))
			return -1;
		strcpy(a.sun_path, path);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		/* left bound and open: a reader that connected would wait on it */
		return fd < 0 ? -1 : bind(fd, (struct sockaddr *)&a, sizeof(a));
	default:
		return -1;
	}
}

static void open_read_refuses_non_regular(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[128];
	uint64_t size = 77;

	(void)state;
	alarm(HANG_S);
	subdir(dir, sizeof(dir), "kinds");
	snprintf(path, sizeof(path), "%s/f", dir);
	for (int k = 0; k < NKINDS; k++) {
		assert_int_equal(make_kind(path, k), 0);
		err[0] = 0;
		assert_int_equal(ses_file_open_read(path, &size, err, sizeof(err)), -SES_ENOTREG);
		assert_string_equal(err, kind_text[k]);
		assert_int_equal(size, 77); /* untouched on failure */
	}
	alarm(0);
}

static void read_all_and_map_refuse_non_regular(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[128];
	const void *map = (const void *)1;
	char *buf = (char *)1;
	size_t len = 5;

	(void)state;
	alarm(HANG_S);
	subdir(dir, sizeof(dir), "kinds2");
	snprintf(path, sizeof(path), "%s/f", dir);
	for (int k = 0; k < NKINDS; k++) {
		assert_int_equal(make_kind(path, k), 0);
		assert_int_equal(ses_file_read_all(path, 1 << 20, &buf, &len, err, sizeof(err)),
				 -SES_ENOTREG);
		assert_null(buf);
		assert_int_equal(len, 0);
		assert_string_equal(err, kind_text[k]);
		len = 5;
		assert_int_equal(ses_file_map(path, &map, &len, err, sizeof(err)), -SES_ENOTREG);
		assert_null(map);
		assert_int_equal(len, 0);
		assert_string_equal(err, kind_text[k]);
	}
	alarm(0);
}

static void regular_files_read_whole(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[128];
	static const char text[] = "a = 1\nb = 2\n";
	const void *map;
	char *buf;
	size_t len;
	uint64_t size;
	int fd;

	(void)state;
	subdir(dir, sizeof(dir), "regular");
	snprintf(path, sizeof(path), "%s/f", dir);
	write_file(path, text, sizeof(text) - 1);
	fd = ses_file_open_read(path, &size, err, sizeof(err));
	assert_true(fd >= 0);
	assert_int_equal(size, sizeof(text) - 1);
	assert_int_equal(fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	close(fd);
	assert_int_equal(ses_file_read_all(path, 100, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, sizeof(text) - 1);
	assert_memory_equal(buf, text, len);
	assert_int_equal(buf[len], 0); /* NUL-terminated for text parsers */
	free(buf);
	/* one byte under the file's size is too big; the size itself is not */
	assert_int_equal(ses_file_read_all(path, sizeof(text) - 2, &buf, &len, err, sizeof(err)),
			 -EFBIG);
	assert_null(buf);
	assert_non_null(strstr(err, "is 12 bytes, more than the 11"));
	assert_int_equal(ses_file_read_all(path, sizeof(text) - 1, &buf, &len, err, sizeof(err)),
			 0);
	free(buf);
	assert_int_equal(ses_file_map(path, &map, &len, err, sizeof(err)), 0);
	assert_int_equal(len, sizeof(text) - 1);
	assert_memory_equal(map, text, len);
	ses_file_unmap(map, len);
	/* a symlink to a regular file is that file */
	snprintf(path, sizeof(path), "%s/link", dir);
	assert_int_equal(symlink("f", path), 0);
	assert_int_equal(ses_file_read_all(path, 100, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, sizeof(text) - 1);
	free(buf);
}

static void empty_and_missing(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[128];
	const void *map = (const void *)1;
	char *buf;
	size_t len = 5;

	(void)state;
	subdir(dir, sizeof(dir), "empty");
	snprintf(path, sizeof(path), "%s/f", dir);
	write_file(path, "", 0);
	assert_int_equal(ses_file_map(path, &map, &len, err, sizeof(err)), 0);
	assert_null(map);
	assert_int_equal(len, 0);
	ses_file_unmap(map, len);
	assert_int_equal(ses_file_read_all(path, 100, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, 0);
	assert_int_equal(buf[0], 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(ses_file_open_read(path, NULL, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "cannot open: No such file or directory");
	assert_int_equal(ses_file_map(path, &map, &len, err, sizeof(err)), -ENOENT);
}

/* The readers built on it: session.ini, samples.data and .tasks in FIFO form. */
static void session_readers_refuse_a_fifo(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], err[256];
	struct ses_reader *r = (struct ses_reader *)1;
	struct ses_info info;

	(void)state;
	alarm(HANG_S);
	subdir(dir, sizeof(dir), "fifo_session");
	snprintf(path, sizeof(path), "%s/" SES_INFO_FILE, dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ses_info_read(dir, &info, err, sizeof(err)), -SES_ENOTREG);
	assert_string_equal(err, "is a FIFO, not a regular file");
	snprintf(path, sizeof(path), "%s/" SES_DATA_FILE, dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(ses_reader_open_file(&r, path, err, sizeof(err)), -SES_ENOTREG);
	assert_null(r);
	assert_string_equal(err, "is a FIFO, not a regular file");
	alarm(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_read_refuses_non_regular),
		cmocka_unit_test(read_all_and_map_refuse_non_regular),
		cmocka_unit_test(regular_files_read_whole),
		cmocka_unit_test(empty_and_missing),
		cmocka_unit_test(session_readers_refuse_a_fifo),
	};

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
