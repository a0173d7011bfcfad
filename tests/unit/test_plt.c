// SPDX-License-Identifier: MIT
/*
 * lib/symbols' PLT reader (plt.c) on bytes it did not write: a real program's image cut at
 * every 64th byte and overwritten at random. Apart from test_symtab.c, whose tests share a
 * build of tests/targets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/plt.h"

static int count_stub(void *arg, uint64_t addr, uint64_t size, const char *name)
{
	assert_true(size == 8 || size == 16);
	assert_true(addr != 0 && strlen(name) > 0);
	++*(int *)arg;
	return 0;
}

/* The PLT reader on a real file cut at every 64th byte, and with bytes overwritten all
 * over: no crash, no read outside the image (ASan), no stub without a name; the whole
 * file gives every stub. */
static void plt_truncated_corrupted(void **state)
{
	char bin[64], cmd[256];
	unsigned char *img;
	long len;
	int whole = 0;
	FILE *f;

	(void)state;
	elf_version(EV_CURRENT);
	snprintf(bin, sizeof(bin), "/tmp/uprof-pltc.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "printf '#include <stdio.h>\\nint main(void){return puts(\"x\");}\\n' |"
		 " cc -O2 -x c - -o %s", bin);
	assert_int_equal(system(cmd), 0);
	f = fopen(bin, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	img = malloc((size_t)len);
	assert_non_null(img);
	assert_int_equal(fread(img, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	unlink(bin);
	for (long cut = 0; cut <= len; cut += cut + 64 > len && cut < len ? len - cut : 64) {
		unsigned char *c = malloc(cut ? (size_t)cut : 1); /* exact size: ASan sees overreads */
		Elf *elf;
		int n = 0;

		memcpy(c, img, (size_t)cut);
		elf = elf_memory((char *)c, (size_t)cut);
		if (elf)
			rpt_plt_each(elf, count_stub, &n);
		elf_end(elf);
		free(c);
		if (cut == len)
			whole = n;
	}
	assert_true(whole >= 2); /* puts, __cxa_finalize */
	srand(7);
	for (int round = 0; round < 200; round++) {
		unsigned char *c = malloc((size_t)len);
		Elf *elf;
		int n = 0;

		memcpy(c, img, (size_t)len);
		for (int k = 0; k < 16; k++)
			c[64 + rand() % (len - 64)] = (unsigned char)rand(); /* the ELF header stays */
		elf = elf_memory((char *)c, (size_t)len);
		if (elf)
			rpt_plt_each(elf, count_stub, &n);
		elf_end(elf);
		free(c);
	}
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plt_truncated_corrupted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
