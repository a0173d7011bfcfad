// SPDX-License-Identifier: MIT
/* lib/annotate/annot_elf.c: a function's code range and bytes from its module file, on the
 * programs of build/targets and on files cut short, made of garbage, or not files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annotate/annotate.h"
#include "target_bins.h"

/* the file offset of link-time address @vaddr in @bin (through its own segments) */
static uint64_t offset_of(const char *bin, uint64_t vaddr)
{
	struct rpt_annot_code c;
	uint64_t off = 0;

	/* the segments come back even when the offset given holds no function */
	rpt_annot_code_read(NULL, bin, UINT64_MAX, &c);
	assert_true(c.nsegs > 0);
	for (int i = 0; i < c.nsegs; i++)
		if (vaddr >= c.segs[i].vaddr && vaddr - c.segs[i].vaddr < c.segs[i].filesz)
			off = vaddr - c.segs[i].vaddr + c.segs[i].off;
	free(c.bytes);
	return off;
}

static void a_function_of_an_executable(void **state)
{
	char bin[PATH_MAX];
	struct rpt_annot_code c;
	uint64_t start, off, v;
	unsigned char first[16];
	int fd;

	(void)state;
	target_path(bin, sizeof(bin), "annotate");
	start = nm_addr(bin, "hot_loop");
	assert_true(start != 0);
	off = offset_of(bin, start);
	/* any address inside the function gives the whole function */
	assert_int_equal(rpt_annot_code_read(NULL, bin, off + 5, &c), 0);
	assert_true(c.start == start);
	assert_true(c.end > c.start + 16 && c.end - c.start < 4096);
	assert_true(c.sized && c.has_symtab && c.has_debug_line);
	assert_true(rpt_annot_code_vaddr(&c, off + 5, &v) && v == start + 5);
	/* the bytes are the file's at the function's offset */
	fd = open(bin, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, first, sizeof(first), (off_t)off), sizeof(first));
	close(fd);
	assert_memory_equal(c.bytes, first, sizeof(first));
	free(c.bytes);
}

static void a_stripped_library(void **state)
{
	char lib[PATH_MAX];
	struct rpt_annot_code c;
	uint64_t start;

	(void)state;
	target_path(lib, sizeof(lib), "libannot_strip.so");
	start = nm_addr_flags(lib, "-D", "strip_hot");
	assert_true(start != 0);
	assert_int_equal(rpt_annot_code_read(NULL, lib, offset_of(lib, start), &c), 0);
	/* named by the dynamic symbol table, which keeps sizes */
	assert_true(c.start == start && c.sized);
	assert_false(c.has_symtab);
	assert_false(c.has_debug_line);
	assert_non_null(c.bytes);
	free(c.bytes);
}

/* a copy of the first @len bytes of @from in @to */
static void cut_copy(const char *from, const char *to, size_t len)
{
	char *buf = malloc(len);
	FILE *f = fopen(from, "rb");

	assert_non_null(f);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	f = fopen(to, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
}

static void cut_short_garbage_and_not_files(void **state)
{
	char bin[PATH_MAX], dir[] = "/tmp/uprof-annelf-XXXXXX", path[PATH_MAX];
	struct rpt_annot_code c;
	uint64_t off;
	int ret;

	(void)state;
	target_path(bin, sizeof(bin), "annotate");
	off = offset_of(bin, nm_addr(bin, "hot_loop"));
	assert_non_null(mkdtemp(dir));
	/* cut inside the code: no function read past the end (an error, never a crash) */
	snprintf(path, sizeof(path), "%s/cut", dir);
	cut_copy(bin, path, off + 8);
	ret = rpt_annot_code_read(NULL, path, off, &c);
	assert_true(ret == -ENOEXEC || ret == -ENOENT);
	assert_null(c.bytes);
	/* cut inside the ELF header */
	cut_copy(bin, path, 40);
	assert_int_equal(rpt_annot_code_read(NULL, path, off, &c), -ENOENT);
	unlink(path);
	/* not ELF at all */
	snprintf(path, sizeof(path), "%s/text", dir);
	FILE *f = fopen(path, "w");
	fputs("#!/bin/sh\necho not code\n", f);
	fclose(f);
	assert_int_equal(rpt_annot_code_read(NULL, path, 0, &c), -ENOENT);
	unlink(path);
	/* a FIFO is not opened for its "code" (no block), a missing file, a pseudo path */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(rpt_annot_code_read(NULL, path, 0, &c), -ENOENT);
	unlink(path);
	assert_int_equal(rpt_annot_code_read(NULL, "/nonexistent/uprof/x.so", 0, &c), -ENOENT);
	assert_int_equal(rpt_annot_code_read(NULL, "[vdso]", 0, &c), -ENOENT);
	/* an offset no segment holds */
	assert_int_equal(rpt_annot_code_read(NULL, bin, UINT64_MAX - 1, &c), -ENOEXEC);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_function_of_an_executable),
		cmocka_unit_test(a_stripped_library),
		cmocka_unit_test(cut_short_garbage_and_not_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
