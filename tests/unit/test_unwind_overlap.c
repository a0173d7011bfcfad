// SPDX-License-Identifier: MIT
/*
 * A rank's own Dwfl and the job's shared CFI rows find a leaf's row in the same module
 * when module ranges overlap (lib/unwind/internal.h, rpt_unwind_map_index). The case of
 * Open MPI's dlopened components: a library dlclosed with no munmap record left its
 * mapping, and its whole ELF image as libdwfl reports it spans another library mapped
 * since into part of its place. libdwfl's dwfl_addrmodule answers such an overlap by
 * address (the stale library here), the process's mappings by which one is live.
 *
 * On real files: libz (the live library, its exported deflate the leaf, whose CFI row at
 * its first byte every x86-64 compiler writes: CFA = %rsp + 8, return address at CFA - 8)
 * and libdw (the stale one, placed to start inside libz's image, below the pc). The
 * mappings are laid out from the files' own program headers, as the kernel maps them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "arch/arch.h"
#include "session/record.h"
#include "unwind/unwind.h"

#define LIVE_BASE 0x7f0000000000ULL /* where the live library is mapped */
#define STACK 0x7ffd00001000ULL	    /* where the sampled %rsp points */
#define RA 0x7f00deadbeefULL	    /* the return address on the copied stack */
#define PAGE 4096ULL

struct lib {
	char path[4096];
	uint64_t sym_off; /* the symbol's address minus the load base */
};

/* The file and place of exported @sym (dlsym: the function itself, never a PLT stub). */
static void find_lib(const char *sym, struct lib *out)
{
	void *addr = dlsym(RTLD_DEFAULT, sym);
	Dl_info info;

	assert_non_null(addr);
	assert_true(dladdr(addr, &info) && info.dli_fname && info.dli_fbase);
	assert_true(strlen(info.dli_fname) < sizeof(out->path));
	strcpy(out->path, info.dli_fname);
	out->sym_off = (uint64_t)(uintptr_t)addr - (uint64_t)(uintptr_t)info.dli_fbase;
}

/* The executable PT_LOAD of @path mapped at load base @base, as the kernel maps it (and
 * perf records it: session mappings are the executable ones). */
static struct rpt_unwind_map exec_map(const char *path, uint64_t base, int module)
{
	struct rpt_unwind_map m = { 0 };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	size_t n = 0;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getphdrnum(elf, &n), 0);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		m.start = base + (ph.p_vaddr & ~(PAGE - 1));
		m.end = (base + ph.p_vaddr + ph.p_memsz + PAGE - 1) & ~(PAGE - 1);
		m.pgoff = ph.p_offset & ~(PAGE - 1);
		break;
	}
	elf_end(elf);
	close(fd);
	assert_true(m.end > m.start);
	m.module = module;
	m.path = path;
	return m;
}

/* Which file libdwfl's own lookup names for @pc with both reported at their bases. */
static bool dwfl_picks_stale(const struct lib *live, const struct lib *stale, uint64_t stale_base,
			     uint64_t pc)
{
	static char *debuginfo_path;
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &debuginfo_path,
	};
	Dwfl *dwfl = dwfl_begin(&cb);
	Dwfl_Module *mod;
	bool stale_wins;

	assert_non_null(dwfl);
	dwfl_report_begin(dwfl);
	assert_non_null(dwfl_report_elf(dwfl, live->path, live->path, -1, LIVE_BASE, true));
	assert_non_null(dwfl_report_elf(dwfl, stale->path, stale->path, -1, stale_base, true));
	assert_int_equal(dwfl_report_end(dwfl, NULL, NULL), 0);
	mod = dwfl_addrmodule(dwfl, pc);
	stale_wins = mod && !strcmp(dwfl_module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL,
						     NULL),
				    stale->path);
	dwfl_end(dwfl);
	return stale_wins;
}

/* rpt_unwind_leaf's answer for a leaf at @pc of @p, with the job's share or without. */
static int leaf(const struct rpt_unwind_proc *p, uint64_t pc, bool shared, uint64_t *ra)
{
	struct rpt_unwinder *u = rpt_unwinder_new(NULL, NULL);
	struct rpt_unwind_share *sh = shared ? rpt_unwind_share_new() : NULL;
	uint64_t stack[4] = { RA, 0, 0, 0 }, regs[2], leaf_pc = 0;
	struct ses_sample s = { 0 };
	int ret;

	assert_non_null(u);
	if (shared) {
		assert_non_null(sh);
		assert_int_equal(rpt_unwinder_share(u, sh, "host"), 0);
	}
	/* registers lowest perf number first: the stack pointer's is below the pc's */
	assert_true(arch_this.perf_sp < arch_this.perf_pc);
	regs[0] = STACK;
	regs[1] = pc;
	s.pid = s.tid = (uint32_t)p->pid;
	s.regs_abi = (uint64_t)arch_this.regs_abi;
	s.regs_mask = (1ULL << arch_this.perf_sp) | (1ULL << arch_this.perf_pc);
	s.regs = regs;
	s.nregs = 2;
	s.stack = stack;
	s.stack_size = s.stack_dyn_size = sizeof(stack);
	*ra = 0;
	ret = rpt_unwind_leaf(u, p, &s, &leaf_pc, ra);
	assert_int_equal(leaf_pc, pc);
	rpt_unwinder_free(u);
	rpt_unwind_share_free(sh);
	return ret;
}

static void overlapped_leaf_as_shared(void **state)
{
	struct lib live, stale;
	struct rpt_unwind_map maps[2];
	struct rpt_unwind_proc p = { 4242, maps, 2 };
	uint64_t pc, stale_base, ra_own, ra_shared;
	int own, shared;

	(void)state;
	assert_non_null(zlibVersion()); /* libz linked, whatever --as-needed does */
	find_lib("deflate", &live);
	find_lib("dwfl_begin", &stale);
	pc = LIVE_BASE + live.sym_off;
	/* the stale image starts below the pc, inside the live one's */
	stale_base = pc & ~(PAGE - 1);
	maps[0] = exec_map(stale.path, stale_base, 0); /* mapped first, never unmapped */
	maps[1] = exec_map(live.path, LIVE_BASE, 1);
	/* the mappings themselves do not overlap (the report's world would cut one away) */
	assert_true(maps[0].start >= maps[1].end || maps[0].end <= maps[1].start);
	assert_true(pc >= maps[1].start && pc < maps[1].end);
	if (!dwfl_picks_stale(&live, &stale, stale_base, pc))
		skip(); /* this libdwfl resolves the overlap by the live module: nothing to test */

	shared = leaf(&p, pc, true, &ra_shared);
	own = leaf(&p, pc, false, &ra_own);
	/* the entry row: the return address is the word at the stack pointer */
	assert_int_equal(shared, 1);
	assert_int_equal(ra_shared, RA);
	assert_int_equal(own, shared);
	assert_int_equal(ra_own, ra_shared);
}

/* A leaf in the other mapping (the stale library's own text, which libdwfl names too):
 * each mapping's pc is read from its own module on both paths. */
static void other_mapping_leaf(void **state)
{
	struct lib live, stale;
	struct rpt_unwind_map maps[2];
	struct rpt_unwind_proc p = { 4243, maps, 2 };
	uint64_t stale_base, pc, ra_own, ra_shared;

	(void)state;
	find_lib("deflate", &live);
	find_lib("dwfl_begin", &stale);
	stale_base = (LIVE_BASE + live.sym_off) & ~(PAGE - 1);
	maps[0] = exec_map(stale.path, stale_base, 0);
	maps[1] = exec_map(live.path, LIVE_BASE, 1);
	pc = stale_base + stale.sym_off;
	assert_true(pc >= maps[0].start && pc < maps[0].end);
	assert_int_equal(leaf(&p, pc, true, &ra_shared), 1);
	assert_int_equal(ra_shared, RA);
	assert_int_equal(leaf(&p, pc, false, &ra_own), 1);
	assert_int_equal(ra_own, RA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(overlapped_leaf_as_shared),
		cmocka_unit_test(other_mapping_leaf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
