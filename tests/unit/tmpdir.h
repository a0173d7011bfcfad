/* SPDX-License-Identifier: MIT */
/* Unit tests' scratch paths: under $TMPDIR when it is set (as mktemp(1) does), else /tmp. */
#ifndef UPROF_TEST_TMPDIR_H
#define UPROF_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* @buf = "$TMPDIR/@name" (a mkdtemp/mkstemp template when @name ends in XXXXXX). */
static inline char *test_tmp_path(char *buf, size_t len, const char *name)
{
	const char *t = getenv("TMPDIR");

	snprintf(buf, len, "%s/%s", t && *t ? t : "/tmp", name);
	return buf;
}

#endif
