/* SPDX-License-Identifier: MIT */
/* Helpers shared by the lib/session unit tests (test_session.c, test_session_info.c):
 * a temporary directory per run and small file utilities. Included once per test. */
#ifndef UPROF_TEST_SESSION_HELPERS_H
#define UPROF_TEST_SESSION_HELPERS_H

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define FUZZ_FIXTURES "tests/fixtures/fuzz"

/* IDENTIFIER|IP|TID|TIME|CPU|PERIOD, what collect asks for. */
#define ST_ALL (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

static char tmpdir[64] __attribute__((unused));

static inline int make_tmpdir(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/test_session.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int remove_tmpdir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

/* A fresh subdirectory of tmpdir, so tests do not see each other's files. */
static inline void subdir(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
	assert_true(mkdir(buf, 0755) == 0 || errno == EEXIST);
}

/* Read a whole file into a malloc()ed buffer of exactly its size. */
static inline unsigned char *slurp(const char *path, size_t *len)
{
	unsigned char *buf;
	struct stat st;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc(st.st_size ? st.st_size : 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static inline void *dup_exact(const void *p, size_t len)
{
	void *c = malloc(len ? len : 1);

	assert_non_null(c);
	memcpy(c, p, len);
	return c;
}

#endif
