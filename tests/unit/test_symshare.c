// SPDX-License-Identifier: MIT
/*
 * Tests for lib/symbols/symshare.c: symtabs that share module files and kallsyms (a job's
 * ranks) read each once per host and recorded identity, answer what a symtab of their own
 * answers, and keep names alive after the symtab that read them is freed. A real ELF file
 * (tests/targets/symtab_c.c, compiled at run time with a build id of our choosing) and a
 * kallsyms text written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symbols.h"

static char tmp[64];
static char bin[128], ksyms[128];
static uint64_t alpha_off; /* the file offset of c_alpha in bin */
static const unsigned char build_id[4] = { 0xde, 0xad, 0xbe, 0xef };

/* tests/targets: $UPROF_TARGETS_DIR, else next to this source (__FILE__ is relative to the
 * repository root, where the tests run) */
static const char *srcdir(void)
{
	return getenv("UPROF_TARGETS_DIR") ? getenv("UPROF_TARGETS_DIR") : "tests/targets";
}

/* c_alpha's link-time address (nm), then its file offset through the program headers */
static bool alpha_offset(uint64_t *off)
{
	char cmd[512];
	unsigned long long vaddr = 0;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm --defined-only %s | awk '$3 == \"c_alpha\" { print $1 }'",
		 bin);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%llx", &vaddr) != 1)
		vaddr = 0;
	if (p)
		pclose(p);
	p = fopen(bin, "rb");
	if (!vaddr || !p || fread(&eh, sizeof(eh), 1, p) != 1)
		goto out;
	for (int i = 0; i < eh.e_phnum && !found; i++) {
		if (fseek(p, (long)(eh.e_phoff + (uint64_t)i * eh.e_phentsize), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, p) != 1)
			break;
		if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			found = true;
		}
	}
out:
	if (p)
		fclose(p);
	return found;
}

static int setup(void **state)
{
	char cmd[1024];
	FILE *f;

	(void)state;
	strcpy(tmp, "/tmp/uprof-symshare-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(bin, sizeof(bin), "%s/c_pie", tmp);
	snprintf(cmd, sizeof(cmd),
		 "gcc -O0 -g -fPIE -pie -Wl,--build-id=0xdeadbeef -o %s %s/symtab_c.c", bin,
		 srcdir());
	if (system(cmd) || !alpha_offset(&alpha_off))
		return -1;
	snprintf(ksyms, sizeof(ksyms), "%s/kallsyms", tmp);
	f = fopen(ksyms, "w");
	if (!f)
		return -1;
	fputs("ffffffff81000000 T _stext\nffffffff81001000 T k_first\n"
	      "ffffffff81002000 t k_second\n",
	      f);
	return fclose(f) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) ? -1 : 0;
}

static struct rpt_file_id id_of(const unsigned char *bits, size_t n)
{
	struct rpt_file_id id = { .build_id_len = (unsigned char)n };

	memcpy(id.build_id, bits, n);
	return id;
}

static struct rpt_symtab *shared_symtab(struct rpt_symshare *sh, const char *host)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, ksyms);

	assert_non_null(st);
	assert_int_equal(rpt_symtab_share(st, sh, host), 0);
	return st;
}

/* Two ranks of one host: the file read once, the same answer as a lone symtab's, and the
 * name still there when the symtab that read it is gone. */
static void shared_file_read_once(void **state)
{
	struct rpt_file_id id = id_of(build_id, sizeof(build_id));
	struct rpt_symshare *sh = rpt_symshare_new();
	struct rpt_symtab *alone = rpt_symtab_new(NULL, ksyms), *a, *b;
	struct rpt_symshare_counts c;
	struct rpt_sym want, x, y;

	(void)state;
	assert_non_null(sh);
	rpt_symtab_lookup(alone, bin, &id, alpha_off + 3, &want);
	assert_true(want.resolved);
	assert_string_equal(want.name, "c_alpha");

	a = shared_symtab(sh, "h0");
	rpt_symtab_lookup(a, bin, &id, alpha_off + 3, &x);
	rpt_symtab_free(a); /* the rank's report is gone before the next is read */
	b = shared_symtab(sh, "h0");
	rpt_symtab_lookup(b, bin, &id, alpha_off + 3, &y);
	assert_ptr_equal(x.name, y.name); /* one copy: the share's, alive after a's free */
	assert_string_equal(y.name, want.name);
	assert_string_equal(y.module, want.module);
	assert_int_equal(y.sym_addr, want.sym_addr);
	assert_int_equal(rpt_symtab_file_state(b, bin), RPT_FILE_OK);
	assert_int_equal(rpt_symtab_file_found(b, bin), rpt_symtab_file_found(alone, bin));
	rpt_symshare_counts(sh, &c);
	assert_int_equal(c.files_read, 1);
	assert_int_equal(c.files_shared, 1);
	rpt_symtab_free(b);
	rpt_symtab_free(alone);
	rpt_symshare_free(sh);
}

/* Another host's rank, or a rank that recorded another file at the path (rebuilt), reads
 * its own: the rebuilt one stays unnamed as it would alone, the others keep their names. */
static void other_host_or_file_read_apart(void **state)
{
	static const unsigned char other_bits[4] = { 1, 2, 3, 4 };
	struct rpt_file_id id = id_of(build_id, sizeof(build_id));
	struct rpt_file_id other = id_of(other_bits, sizeof(other_bits));
	struct rpt_symshare *sh = rpt_symshare_new();
	struct rpt_symtab *a = shared_symtab(sh, "h0"), *b = shared_symtab(sh, "h1");
	struct rpt_symtab *c = shared_symtab(sh, "h0"), *d = shared_symtab(sh, "h0");
	struct rpt_symshare_counts n;
	struct rpt_sym x;

	(void)state;
	rpt_symtab_lookup(a, bin, &id, alpha_off, &x);
	assert_string_equal(x.name, "c_alpha");
	rpt_symtab_lookup(b, bin, &id, alpha_off, &x);
	assert_string_equal(x.name, "c_alpha");
	rpt_symtab_lookup(c, bin, &other, alpha_off, &x);
	assert_false(x.resolved);
	assert_int_equal(rpt_symtab_file_state(c, bin), RPT_FILE_CHANGED);
	rpt_symtab_lookup(d, bin, &id, alpha_off, &x);
	assert_true(x.resolved);
	assert_int_equal(rpt_symtab_file_state(d, bin), RPT_FILE_OK);
	rpt_symshare_counts(sh, &n);
	assert_int_equal(n.files_read, 3); /* h0's, h1's, h0's rebuilt one */
	assert_int_equal(n.files_shared, 1);
	rpt_symtab_free(a);
	rpt_symtab_free(b);
	rpt_symtab_free(c);
	rpt_symtab_free(d);
	rpt_symshare_free(sh);
}

/* kallsyms read by the first rank that needs it, then answered from memory; names that
 * are no file's ("//anon", "[vdso]") stay each symtab's own and are not counted. */
static void kallsyms_read_once(void **state)
{
	struct rpt_symshare *sh = rpt_symshare_new();
	struct rpt_symtab *a = shared_symtab(sh, "h0"), *b = shared_symtab(sh, "h1");
	struct rpt_symshare_counts n;
	struct rpt_sym x, y;

	(void)state;
	rpt_symtab_lookup_kernel(a, 0xffffffff81001010ull, &x);
	rpt_symtab_free(a);
	rpt_symtab_lookup_kernel(b, 0xffffffff81002001ull, &y);
	assert_string_equal(x.name, "k_first");
	assert_string_equal(y.name, "k_second");
	assert_int_equal(y.sym_addr, 0xffffffff81002000ull);
	rpt_symtab_lookup_kernel(b, 0xffffffff80000000ull, &y); /* below every symbol */
	assert_false(y.resolved);
	rpt_symtab_lookup(b, "//anon", NULL, 0x10, &y);
	assert_string_equal(y.name, "anon!0x10");
	rpt_symshare_counts(sh, &n);
	assert_int_equal(n.kallsyms_read, 1);
	assert_int_equal(n.kallsyms_shared, 1);
	assert_int_equal(n.files_read, 0);
	rpt_symtab_free(b);
	rpt_symshare_free(sh);
}

/* A list that cannot be read leaves kernel addresses unnamed, as in a report of its own. */
static void kallsyms_missing(void **state)
{
	struct rpt_symshare *sh = rpt_symshare_new();
	struct rpt_symtab *st = rpt_symtab_new(NULL, "/nonexistent/kallsyms");
	struct rpt_sym x;

	(void)state;
	assert_int_equal(rpt_symtab_share(st, sh, NULL), 0);
	rpt_symtab_lookup_kernel(st, 0xffffffff81001010ull, &x);
	assert_false(x.resolved);
	assert_string_equal(x.module, "[kernel.kallsyms]");
	rpt_symtab_free(st);
	rpt_symshare_free(sh);
	rpt_symshare_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shared_file_read_once),
		cmocka_unit_test(other_host_or_file_read_apart),
		cmocka_unit_test(kallsyms_read_once),
		cmocka_unit_test(kallsyms_missing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
