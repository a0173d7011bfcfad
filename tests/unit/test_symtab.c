// SPDX-License-Identifier: MIT
/*
 * Tests for lib/symbols/symtab.c and kallsyms.c against real binaries: the targets in
 * tests/targets/ are compiled at run time (PIE, non-PIE, shared, stripped with a
 * separate debug file) into a temporary directory, and the expected addresses come
 * from `nm`, turned into file offsets through the program headers as perf would.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "symbols/fdes.h"
#include "symbols/kallsyms.h"
#include "symbols/plt.h"
#include "symbols/symbols.h"

static char tmp[64];     /* the temporary build directory */
static char srcdir[512]; /* tests/targets */
static bool have_cxx;

/* Run a shell command built from a format; true when it exited 0. */
__attribute__((format(printf, 1, 2))) static bool sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(cmd))
		return false;
	if (system(cmd) == 0)
		return true;
	print_error("command failed: %s\n", cmd);
	return false;
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmp, name);
}

/* Address and size of @sym in `nm -S` of @bin (a file in tmp). */
static bool nm_lookup(const char *bin, const char *sym, uint64_t *addr, uint64_t *size)
{
	char out[256], line[512], name[256], type;
	unsigned long long a, s;
	bool found = false;
	FILE *f;

	snprintf(out, sizeof(out), "%s/%s.nm", tmp, bin);
	if (!sh("nm -S --defined-only '%s/%s' > '%s' 2>/dev/null", tmp, bin, out))
		return false;
	f = fopen(out, "r");
	if (!f)
		return false;
	*size = 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %llx %c %255s", &a, &s, &type, name) == 4 ||
		    (s = 0, sscanf(line, "%llx %c %255s", &a, &type, name) == 3)) {
			if (!strcmp(name, sym)) {
				*addr = a;
				*size = s;
				found = true;
			}
		}
	}
	fclose(f);
	return found;
}

/* The file offset of @vaddr in @bin, from its PT_LOAD headers (64-bit ELF only). */
static bool vaddr_to_off(const char *bin, uint64_t vaddr, uint64_t *off)
{
	char path[256];
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	bool found = false;
	int fd, i;

	path_of(path, sizeof(path), bin);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh.e_phnum && !found; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)i * eh.e_phentsize) !=
		    sizeof(ph))
			goto out;
		if (ph.p_type == PT_LOAD && vaddr >= ph.p_vaddr &&
		    vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			found = true;
		}
	}
out:
	close(fd);
	return found;
}

/*
 * Look up @sym of @ref_bin (which has symbols) at @delta into it, in the file @bin
 * (ref_bin itself, or its stripped copy), and check the name @want.
 */
static void check_sym(struct rpt_symtab *st, const char *bin, const char *ref_bin,
		      const char *sym, uint64_t delta, const char *want)
{
	uint64_t addr, size, off;
	struct rpt_sym out;
	char path[256];

	assert_true(nm_lookup(ref_bin, sym, &addr, &size));
	assert_true(vaddr_to_off(ref_bin, addr + delta, &off));
	path_of(path, sizeof(path), bin);
	rpt_symtab_lookup(st, path, NULL, off, &out);
	if (!out.resolved || strcmp(out.name, want))
		print_error("%s: %s+%#" PRIx64 " (off %#" PRIx64 ") gave '%s'\n", bin, sym,
			    delta, off, out.name);
	assert_true(out.resolved);
	assert_string_equal(out.name, want);
	assert_string_equal(out.module, path);
	assert_int_equal(out.sym_addr, addr);
}

/* Start, middle and last byte of each C function, in @bin whose symbols @ref has. */
static void check_c_binary(const char *bin, const char *ref)
{
	static const char *const fns[] = { "c_alpha", "c_beta", "c_gamma_static" };
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	uint64_t addr, size;
	size_t i;

	assert_non_null(st);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		assert_true(nm_lookup(ref, fns[i], &addr, &size));
		assert_true(size > 2);
		check_sym(st, bin, ref, fns[i], 0, fns[i]);
		check_sym(st, bin, ref, fns[i], size / 2, fns[i]);
		check_sym(st, bin, ref, fns[i], size - 1, fns[i]);
	}
	/* no size: covered up to the next symbol */
	check_sym(st, bin, ref, "c_nosize", 0, "c_nosize");
	check_sym(st, bin, ref, "c_nosize", 4, "c_nosize");
	rpt_symtab_free(st);
}

/*
 * tests/targets: $UPROF_TARGETS_DIR, else next to this source (__FILE__ is relative to
 * the repository root), else two or three levels above build/[san/]tests/test_symtab.
 */
static bool find_srcdir(void)
{
	char exe[400] = "", cand[3][512], probe[600], *file = strdup(__FILE__);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *exedir;
	size_t i;

	exe[n > 0 ? n : 0] = '\0';
	exedir = dirname(exe);
	snprintf(cand[0], sizeof(cand[0]), "%s/../targets", file ? dirname(file) : ".");
	snprintf(cand[1], sizeof(cand[1]), "%s/../../tests/targets", exedir);
	snprintf(cand[2], sizeof(cand[2]), "%s/../../../tests/targets", exedir);
	free(file);
	if (getenv("UPROF_TARGETS_DIR"))
		snprintf(cand[0], sizeof(cand[0]), "%s", getenv("UPROF_TARGETS_DIR"));
	for (i = 0; i < 3; i++) {
		snprintf(probe, sizeof(probe), "%s/symtab_c.c", cand[i]);
		if (!access(probe, R_OK)) {
			snprintf(srcdir, sizeof(srcdir), "%s", cand[i]);
			return true;
		}
	}
	print_error("tests/targets/symtab_c.c not found; set UPROF_TARGETS_DIR\n");
	return false;
}

static int setup(void **state)
{
	static const char *const cflags = "-O0 -g -Wl,--build-id";

	(void)state;
	if (!find_srcdir())
		return -1;
	strcpy(tmp, "/tmp/uprof-symtab-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	if (!sh("gcc %s -fPIE -pie -o %s/c_pie '%s/symtab_c.c'", cflags, tmp, srcdir) ||
	    !sh("gcc %s -fno-pie -no-pie -o %s/c_nopie '%s/symtab_c.c'", cflags, tmp, srcdir) ||
	    !sh("gcc %s -fPIC -shared -o %s/libc_so.so '%s/symtab_c.c'", cflags, tmp, srcdir))
		return -1;
	/* stripped copies: debug file next to the binary, and in .debug/ */
	if (!sh("cd %s && objcopy --only-keep-debug c_pie c_pie.debug && "
		"objcopy --strip-all c_pie c_strip && "
		"objcopy --add-gnu-debuglink=c_pie.debug c_strip && "
		"mkdir .debug && objcopy --only-keep-debug c_nopie .debug/c_nopie.debug && "
		"objcopy --strip-all c_nopie c_strip2 && "
		"objcopy --add-gnu-debuglink=.debug/c_nopie.debug c_strip2 && "
		"objcopy --strip-all c_pie c_nodebug && "
		"objcopy --strip-all libc_so.so libc_so_nodebug.so", tmp))
		return -1;
	have_cxx = sh("g++ %s -o %s/cxx '%s/symtab_cxx.cpp'", cflags, tmp, srcdir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (tmp[0])
		sh("rm -rf '%s'", tmp);
	return 0;
}

static void test_pie(void **state)
{
	(void)state;
	check_c_binary("c_pie", "c_pie");
}

static void test_no_pie(void **state)
{
	(void)state;
	check_c_binary("c_nopie", "c_nopie");
}

static void test_shared_lib(void **state)
{
	(void)state;
	check_c_binary("libc_so.so", "libc_so.so");
}

static void test_debuglink_same_dir(void **state)
{
	(void)state;
	check_c_binary("c_strip", "c_pie");
}

static void test_debuglink_debug_subdir(void **state)
{
	(void)state;
	check_c_binary("c_strip2", "c_nopie");
}

/*
 * In @bin, a stripped copy of @ref_bin, two addresses inside @sym (first and last byte
 * but one) are unresolved but named after the function's start, from its FDE, with
 * sym_addr set: one name, one row.
 */
static void check_fde_named(const char *bin, const char *ref_bin, const char *sym)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	uint64_t addr, size, off1, off2;
	struct rpt_sym a, b;
	char path[256], want[128];

	assert_non_null(st);
	assert_true(nm_lookup(ref_bin, sym, &addr, &size));
	assert_true(size > 2);
	assert_true(vaddr_to_off(ref_bin, addr + 1, &off1));
	assert_true(vaddr_to_off(ref_bin, addr + size - 1, &off2));
	path_of(path, sizeof(path), bin);
	rpt_symtab_lookup(st, path, NULL, off1, &a);
	rpt_symtab_lookup(st, path, NULL, off2, &b);
	snprintf(want, sizeof(want), "%s!0x%" PRIx64, bin, addr);
	assert_false(a.resolved);
	assert_false(b.resolved);
	assert_string_equal(a.name, want);
	assert_ptr_equal(a.name, b.name);
	assert_int_equal(a.sym_addr, addr);
	assert_int_equal(b.sym_addr, addr);
	rpt_symtab_free(st);
}

/* Stripped, no debug file: the local function is gone, its FDE names it. */
static void test_stripped_fde(void **state)
{
	(void)state;
	check_fde_named("c_nodebug", "c_pie", "c_gamma_static");
	check_fde_named("c_nodebug", "c_pie", "c_beta");
}

/* A stripped library (libgcc_s): .dynsym names what it exports, and only that; its
 * internal functions are named by their FDE. */
static void test_stripped_lib_internal(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);

	(void)state;
	check_fde_named("libc_so_nodebug.so", "libc_so.so", "c_gamma_static");
	check_sym(st, "libc_so_nodebug.so", "libc_so.so", "c_beta", 1, "c_beta");
	rpt_symtab_free(st);
}

/* Where no FDE covers the address (the ELF header), the address itself is the name. */
static void test_stripped_no_fde(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	struct rpt_sym out;
	char path[256];

	(void)state;
	path_of(path, sizeof(path), "c_nodebug");
	rpt_symtab_lookup(st, path, NULL, 0x10, &out);
	assert_false(out.resolved);
	assert_string_equal(out.name, "c_nodebug!0x10");
	assert_int_equal(out.sym_addr, 0);
	rpt_symtab_free(st);
}

/* A copy of the .eh_frame of @bin (a file in tmp) in *buf (free it), its address and
 * the file's ELF ident; the size, 0 when there is none. */
static size_t eh_frame_of(const char *bin, unsigned char **buf, unsigned char *ident,
			  uint64_t *vaddr)
{
	Elf_Scn *scn = NULL;
	const char *name;
	Elf_Data *data;
	GElf_Shdr sh;
	char path[256];
	size_t len = 0, shstrndx;
	Elf *elf;
	int fd;

	path_of(path, sizeof(path), bin);
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		goto out;
	memcpy(ident, elf_getident(elf, NULL), EI_NIDENT);
	while (!len && (scn = elf_nextscn(elf, scn))) {
		name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
		data = name && !strcmp(name, ".eh_frame") ? elf_rawdata(scn, NULL) : NULL;
		if (!data || !data->d_size || !(*buf = malloc(data->d_size)))
			continue;
		memcpy(*buf, data->d_buf, data->d_size);
		*vaddr = sh.sh_addr;
		len = data->d_size;
	}
out:
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return len;
}

/* The FDE parser on real bytes finds c_beta's exact range; on every truncation and on
 * corrupted copies it reads nothing out of bounds (ASan) and finds no more. */
static void test_fdes_parse_bounds(void **state)
{
	struct rpt_fdes f = { 0 };
	unsigned char ident[EI_NIDENT], *buf = NULL, *copy;
	uint64_t addr, size, vaddr = 0;
	const struct rpt_fde *fde;
	size_t len, full, i;

	(void)state;
	len = eh_frame_of("c_pie", &buf, ident, &vaddr);
	assert_true(len > 0);
	assert_int_equal(rpt_fdes_parse(&f, ident, buf, len, vaddr, true), 0);
	rpt_fdes_sort(&f);
	full = f.n;
	assert_true(nm_lookup("c_pie", "c_beta", &addr, &size));
	fde = rpt_fdes_find(&f, addr + size - 1);
	assert_non_null(fde);
	assert_int_equal(fde->start, addr);
	assert_int_equal(fde->end, addr + size);
	rpt_fdes_release(&f);
	rpt_fdes_release(&f);
	for (i = 0; i < len; i++) { /* each prefix, in an exact-size copy */
		copy = malloc(i ? i : 1);
		assert_non_null(copy);
		memcpy(copy, buf, i);
		assert_int_equal(rpt_fdes_parse(&f, ident, copy, i, vaddr, true), 0);
		assert_true(f.n <= full);
		rpt_fdes_release(&f);
		free(copy);
	}
	for (i = 0; i < len; i++) { /* each byte flipped: anything but a crash */
		buf[i] ^= 0xff;
		assert_int_equal(rpt_fdes_parse(&f, ident, buf, len, vaddr, true), 0);
		rpt_fdes_sort(&f);
		rpt_fdes_release(&f);
		buf[i] ^= 0xff;
	}
	free(buf);
}

static void test_cxx_demangled(void **state)
{
	struct rpt_symtab *st;

	(void)state;
	if (!have_cxx)
		skip();
	st = rpt_symtab_new(NULL, NULL);
	assert_non_null(st);
	check_sym(st, "cxx", "cxx", "_ZN2ns4TmplIdE4stepEi", 0, "ns::Tmpl<double>::step(int)");
	check_sym(st, "cxx", "cxx", "_ZN2ns4TmplIdE4stepEi", 5, "ns::Tmpl<double>::step(int)");
	check_sym(st, "cxx", "cxx", "main", 0, "main");
	rpt_symtab_free(st);
}

/* Repeated lookups give the same interned pointers. */
static void test_names_interned(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	struct rpt_sym a, b, c, d;
	uint64_t addr, size, off;
	char path[256];
	int i;

	(void)state;
	assert_true(nm_lookup("c_pie", "c_beta", &addr, &size));
	assert_true(vaddr_to_off("c_pie", addr, &off));
	path_of(path, sizeof(path), "c_pie");
	rpt_symtab_lookup(st, path, NULL, off, &a);
	rpt_symtab_lookup(st, path, NULL, 0, &c);
	for (i = 0; i < 100000; i++) {
		rpt_symtab_lookup(st, path, NULL, off + i % 4, &b);
		assert_ptr_equal(a.name, b.name);
	}
	rpt_symtab_lookup(st, path, NULL, 0, &d);
	assert_ptr_equal(c.name, d.name);
	assert_string_equal(c.name, "c_pie!0x0"); /* the ELF header: no function */
	rpt_symtab_free(st);
}

static void expect_unresolved(struct rpt_symtab *st, const char *path, uint64_t off,
			      const char *want)
{
	struct rpt_sym out;

	rpt_symtab_lookup(st, path, NULL, off, &out);
	assert_false(out.resolved);
	assert_string_equal(out.name, want);
	assert_string_equal(out.module, path);
	assert_int_equal(out.sym_addr, 0);
}

static void test_unreadable_paths(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);

	(void)state;
	expect_unresolved(st, "/nonexistent/dir/libfoo.so.1", 0x4e30, "libfoo.so.1!0x4e30");
	expect_unresolved(st, "//anon", 0x10, "anon!0x10");
	expect_unresolved(st, "/tmp/gone (deleted)", 0x20, "gone (deleted)!0x20");
	expect_unresolved(st, "[heap]", 0x30, "[heap]!0x30");
	expect_unresolved(st, "", 0x40, "!0x40");
	rpt_symtab_free(st);
}

/* The file's build id as readelf prints it, into @id. */
static bool read_build_id(const char *bin, struct rpt_file_id *id)
{
	char cmd[512], hex[64] = "";
	unsigned int byte;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n %s/%s | awk '/Build ID/ {print $3}'", tmp, bin);
	p = popen(cmd, "r");
	if (!p)
		return false;
	if (!fgets(hex, sizeof(hex), p))
		hex[0] = 0;
	pclose(p);
	memset(id, 0, sizeof(*id));
	while (id->build_id_len < sizeof(id->build_id) &&
	       sscanf(hex + 2 * id->build_id_len, "%2x", &byte) == 1)
		id->build_id[id->build_id_len++] = (unsigned char)byte;
	return id->build_id_len > 0;
}

/* Look up c_alpha in c_pie as the file @id describes; true when it was symbolized. */
static bool lookup_as(const struct rpt_file_id *id, enum rpt_file_state *state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	uint64_t addr, size, off;
	struct rpt_sym out;
	char path[256];

	assert_non_null(st);
	assert_true(nm_lookup("c_pie", "c_alpha", &addr, &size));
	assert_true(vaddr_to_off("c_pie", addr, &off));
	path_of(path, sizeof(path), "c_pie");
	rpt_symtab_lookup(st, path, id, off, &out);
	*state = rpt_symtab_file_state(st, path);
	rpt_symtab_free(st);
	return out.resolved;
}

/* A file that is not the one profiled (rebuilt: another build id, or replaced: another
 * inode) must not lend its symbols to the samples; a missing one is said to be missing. */
static void test_file_identity(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	enum rpt_file_state fs;
	struct rpt_file_id id;
	struct rpt_sym out;
	char path[256];
	struct stat sb;

	(void)state;
	assert_true(read_build_id("c_pie", &id));
	assert_true(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_OK);
	id.build_id[0] ^= 0xff;
	assert_false(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_CHANGED);
	id.build_id_len--; /* a shorter id is another id too */
	id.build_id[0] ^= 0xff;
	assert_false(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_CHANGED);

	path_of(path, sizeof(path), "c_pie");
	assert_int_equal(stat(path, &sb), 0);
	id = (struct rpt_file_id){ .maj = major(sb.st_dev), .min = minor(sb.st_dev),
				   .ino = sb.st_ino };
	assert_true(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_OK);
	id.ino++;
	assert_false(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_CHANGED);
	id.min++; /* another device (a copy, overlayfs): nothing to tell */
	assert_true(lookup_as(&id, &fs));
	assert_int_equal(fs, RPT_FILE_OK);

	rpt_symtab_lookup(st, "/nonexistent/dir/libfoo.so.1", &id, 0x10, &out);
	assert_int_equal(rpt_symtab_file_state(st, "/nonexistent/dir/libfoo.so.1"),
			 RPT_FILE_MISSING);
	/* not files that could be gone since: nothing to warn about */
	rpt_symtab_lookup(st, "//anon", &id, 0x10, &out);
	assert_int_equal(rpt_symtab_file_state(st, "//anon"), RPT_FILE_OK);
	rpt_symtab_lookup(st, "/tmp/gone (deleted)", &id, 0x10, &out);
	assert_int_equal(rpt_symtab_file_state(st, "/tmp/gone (deleted)"), RPT_FILE_OK);
	rpt_symtab_lookup(st, "/memfd:jit (deleted)", &id, 0x10, &out);
	assert_int_equal(rpt_symtab_file_state(st, "/memfd:jit (deleted)"), RPT_FILE_OK);
	assert_int_equal(rpt_symtab_file_state(st, "/never/looked/up"), RPT_FILE_OK);
	rpt_symtab_free(st);
}
/* The check the unwinder makes before it uses a file's CFI: the same rules as symbols. */
static void test_file_id_differs(void **state)
{
	struct rpt_file_id id;
	char path[256];
	struct stat sb;
	Elf *elf;
	int fd;

	(void)state;
	elf_version(EV_CURRENT);
	assert_true(read_build_id("c_pie", &id));
	path_of(path, sizeof(path), "c_pie");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &sb), 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_false(rpt_file_id_differs(elf, &sb, NULL));
	assert_false(rpt_file_id_differs(elf, &sb, &id));
	id.build_id[3] ^= 0x10;
	assert_true(rpt_file_id_differs(elf, &sb, &id));
	id = (struct rpt_file_id){ .maj = major(sb.st_dev), .min = minor(sb.st_dev),
				   .ino = sb.st_ino };
	assert_false(rpt_file_id_differs(elf, &sb, &id));
	id.ino++;
	assert_true(rpt_file_id_differs(elf, &sb, &id));
	id.maj++; /* another device: nothing to tell */
	assert_false(rpt_file_id_differs(elf, &sb, &id));
	elf_end(elf);
	close(fd);
}


/* Garbage must not crash: unresolved, labelled with the vaddr if the headers survived. */
static void test_garbage_files(void **state)
{
	static const char *const files[] = { "trunc100", "trunc3000", "trunchalf", "text",
					     "empty", "adir" };
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	uint64_t addr, size, off;
	char path[256], want[128];
	struct rpt_sym out;
	size_t i;

	(void)state;
	assert_true(nm_lookup("c_pie", "c_alpha", &addr, &size));
	assert_true(vaddr_to_off("c_pie", addr, &off));
	assert_true(sh("cd %s && head -c 100 c_pie > trunc100 && head -c 3000 c_pie > trunc3000"
		       " && head -c $(( $(stat -c %%s c_pie) / 2 )) c_pie > trunchalf && "
		       "echo 'not an ELF file' > text && : > empty && mkdir adir", tmp));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		path_of(path, sizeof(path), files[i]);
		rpt_symtab_lookup(st, path, NULL, off, &out);
		assert_false(out.resolved);
		snprintf(want, sizeof(want), "%s!0x", files[i]);
		assert_memory_equal(out.name, want, strlen(want));
		assert_string_equal(out.module, path);
	}
	/* not ELF at all: the file offset */
	snprintf(want, sizeof(want), "text!0x%" PRIx64, off);
	path_of(path, sizeof(path), "text");
	expect_unresolved(st, path, off, want);
	expect_unresolved(st, "/dev/zero", 0x1000, "zero!0x1000");
	expect_unresolved(st, "/proc/self/mem", 0x1000, "mem!0x1000");
	rpt_symtab_free(st);
}

/* The vDSO function that clock_gettime() uses, at its address in this process. */
static void *vdso_clock_gettime(const char **name)
{
	static const char *const names[] = { "__vdso_clock_gettime",
					     "__kernel_clock_gettime" };
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD), *fn = NULL;
	size_t i;

	for (i = 0; h && !fn && i < sizeof(names) / sizeof(names[0]); i++) {
		fn = dlsym(h, names[i]);
		*name = names[i];
	}
	if (h)
		dlclose(h);
	return fn;
}

static void check_vdso(struct rpt_symtab *st)
{
	uintptr_t base = getauxval(AT_SYSINFO_EHDR);
	const char *want = NULL;
	void *fn = vdso_clock_gettime(&want);
	struct rpt_sym out;

	if (!base || !fn)
		skip();
	/* the [vdso] mapping has pgoff 0: the file offset is ip - start */
	rpt_symtab_lookup(st, "[vdso]", NULL, (uintptr_t)fn - base + 3, &out);
	assert_true(out.resolved);
	assert_string_equal(out.module, "[vdso]");
	if (strcmp(out.name, want) && strcmp(out.name, "clock_gettime"))
		fail_msg("vdso lookup gave '%s'", out.name);
	assert_int_equal(out.sym_addr + base, (uintptr_t)fn);
	rpt_symtab_lookup(st, "[vdso]", NULL, 0, &out); /* the ELF header */
	assert_false(out.resolved);
	assert_string_equal(out.name, "[vdso]!0x0");
	assert_string_equal(out.module, "[vdso]");
}

static void test_vdso_own(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);

	(void)state;
	check_vdso(st);
	rpt_symtab_free(st);
}

/* A session without vdso.so falls back to our own; one with it uses the file. */
static void test_vdso_session(void **state)
{
	struct rpt_symtab *st;
	uint64_t addr, size, off;
	struct rpt_sym out;
	char dir[256];

	(void)state;
	path_of(dir, sizeof(dir), "session");
	assert_true(sh("mkdir -p %s", dir));
	st = rpt_symtab_new(dir, NULL);
	check_vdso(st);
	rpt_symtab_free(st);

	/* any ELF file will do to show that the saved one is read */
	assert_true(sh("cp %s/c_pie %s/vdso.so", tmp, dir));
	assert_true(nm_lookup("c_pie", "c_beta", &addr, &size));
	assert_true(vaddr_to_off("c_pie", addr + 1, &off));
	st = rpt_symtab_new(dir, NULL);
	rpt_symtab_lookup(st, "[vdso]", NULL, off, &out);
	assert_true(out.resolved);
	assert_string_equal(out.name, "c_beta");
	assert_string_equal(out.module, "[vdso]");
	rpt_symtab_free(st);
}

/* libc is stripped: its names come from .dynsym, where they carry a symbol version
 * ("getpid@@GLIBC_2.2.5"); the report shows the plain name. */
static void test_dynsym_version_stripped(void **state)
{
	uintptr_t fn = (uintptr_t)dlsym(RTLD_DEFAULT, "getpid");
	char line[512], path[256] = "";
	unsigned long long lo, hi, off;
	struct rpt_symtab *st;
	struct rpt_sym out;
	FILE *f = fopen("/proc/self/maps", "r");
	uint64_t file_off = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %255s", &lo, &hi, &off, path) == 4 &&
		    fn >= lo && fn < hi) {
			file_off = fn - lo + off;
			break;
		}
		path[0] = 0;
	}
	fclose(f);
	if (!path[0])
		skip();
	st = rpt_symtab_new(NULL, NULL);
	rpt_symtab_lookup(st, path, NULL, file_off, &out);
	assert_true(out.resolved);
	assert_null(strchr(out.name, '@'));
	assert_non_null(strstr(out.name, "getpid"));
	rpt_symtab_free(st);
}

static void test_free_null(void **state)
{
	(void)state;
	rpt_symtab_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie),
		cmocka_unit_test(test_no_pie),
		cmocka_unit_test(test_shared_lib),
		cmocka_unit_test(test_debuglink_same_dir),
		cmocka_unit_test(test_debuglink_debug_subdir),
		cmocka_unit_test(test_stripped_fde),
		cmocka_unit_test(test_stripped_lib_internal),
		cmocka_unit_test(test_stripped_no_fde),
		cmocka_unit_test(test_fdes_parse_bounds),
		cmocka_unit_test(test_cxx_demangled),
		cmocka_unit_test(test_names_interned),
		cmocka_unit_test(test_unreadable_paths),
		cmocka_unit_test(test_file_identity),
		cmocka_unit_test(test_file_id_differs),
		cmocka_unit_test(test_garbage_files),
		cmocka_unit_test(test_vdso_own),
		cmocka_unit_test(test_vdso_session),
		cmocka_unit_test(test_dynsym_version_stripped),
		cmocka_unit_test(test_free_null),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
