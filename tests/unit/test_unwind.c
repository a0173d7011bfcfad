// SPDX-License-Identifier: MIT
/*
 * Dwarf stacks as complete as perf's (issue 11): lib/unwind's unwinder, inline
 * chains (inline.c), code labels and PLT stubs as names (symtab.c, plt.c) and self time
 * past inlined frames (callgraph.c), on real binaries built by make (and, for the PLT, by
 * the test):
 *   build/targets/unwind_frames  frames whose CFI is known to the byte (unwind_frames.S):
 *                                dwarf samples built by hand, registers and stack copy
 *   build/targets/inline_chain   three functions inlined into each other
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tmpdir.h"

#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "export/export.h"
#include "report/stacks.h" /* white box: the call graph and stacks themselves */
#include "symbols/symbols.h"
#include "target_bins.h"
#include "record_builder.h"
#include "session_at.h"

#define BASE 0x555500000000ULL
#define STACK 0x7ffd00001000ULL /* where the sampled %rsp points */

/* perf's x86-64 register numbers (asm/perf_regs.h) */
enum { R_BP = 6, R_SP = 7, R_IP = 8 };

static char frames_bin[PATH_MAX], chain_bin[PATH_MAX];

static int setup(void **state)
{
	(void)state;
	target_path(frames_bin, sizeof(frames_bin), "unwind_frames");
	target_path(chain_bin, sizeof(chain_bin), "inline_chain");
	return access(frames_bin, R_OK) || access(chain_bin, R_OK) ? -1 : 0;
}

static uint64_t at(const char *bin, const char *sym)
{
	uint64_t a = nm_addr(bin, sym);

	if (!a)
		fail_msg("no %s in %s", sym, bin);
	return a;
}

/* ---- a dwarf session, by hand ---- */

static void rec_comm(struct ses_writer *w, uint32_t pid)
{
	struct buf b = { .n = 8 };
	char name[16] = "app";

	put32x2(&b, pid, pid);
	put(&b, name, 16);
	put32x2(&b, pid, pid), put64(&b, 1), put32x2(&b, 0, 0), put64(&b, 1);
	finish(w, &b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
}

/* @bin mapped whole at BASE (its vaddrs are its file offsets: a PIE from gcc). */
static void rec_mmap2(struct ses_writer *w, uint32_t pid, const char *bin)
{
	struct buf b = { .n = 8 };
	char name[PATH_MAX] = { 0 };
	size_t plen = (strlen(bin) + 8) & ~7UL;

	put32x2(&b, pid, pid);
	put64(&b, BASE), put64(&b, 0x100000), put64(&b, 0);
	put64(&b, 0), put64(&b, 0), put64(&b, 0);
	put32x2(&b, 5, 2);
	strcpy(name, bin);
	put(&b, name, plen);
	put32x2(&b, pid, pid), put64(&b, 2), put32x2(&b, 0, 0), put64(&b, 1);
	finish(w, &b, PERF_RECORD_MMAP2, 0);
}

/* A user-mode sample at @ip with registers %rsp = STACK, %rbp = @bp and the stack copy
 * @stack (@n words from STACK up), in the layout @attr asks for. */
static void rec_dwarf_sample(struct ses_writer *w, const struct perf_event_attr *attr,
			     uint64_t t, uint64_t ip, uint64_t bp, const uint64_t *stack, int n)
{
	struct buf b = { .n = 8 };
	uint64_t st = attr->sample_type, mask = attr->sample_regs_user;

	put64(&b, 1); /* IDENTIFIER */
	put64(&b, ip);
	put32x2(&b, 100, 100);
	put64(&b, t);
	put32x2(&b, 0, 0);
	put64(&b, 1000000);
	if (st & PERF_SAMPLE_CALLCHAIN)
		put64(&b, 0); /* the user part is unwound by report */
	assert_true(st & PERF_SAMPLE_REGS_USER);
	put64(&b, PERF_SAMPLE_REGS_ABI_64);
	for (int r = 0; r < 64; r++)
		if (mask & (1ULL << r))
			put64(&b, r == R_IP ? ip : r == R_SP ? STACK : r == R_BP ? bp : 0);
	assert_true(st & PERF_SAMPLE_STACK_USER);
	put64(&b, (uint64_t)n * 8);
	put(&b, stack, (size_t)n * 8);
	put64(&b, (uint64_t)n * 8); /* dyn_size */
	finish(w, &b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

static void write_info(const char *dir, const char *bin, const char *mode)
{
	struct ses_info in = { 0 };

	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", bin);
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.start_mono_ns = 1;
	in.end_mono_ns = 100;
	snprintf(in.callgraph_mode, sizeof(in.callgraph_mode), "%s", mode);
	in.callgraph_depth = 16;
	in.callgraph_stack_bytes = 64;
	assert_int_equal(test_info_write(dir, &in), 0);
}

static struct ses_writer *open_session(char *dir, const char *bin, enum pmc_cg_mode mode,
				       struct perf_event_attr *attr)
{
	struct pmc_callgraph cg;
	struct ses_writer *w;
	uint64_t id = 1;
	FILE *f;
	char ks[PATH_MAX + 16];

	assert_non_null(mkdtemp(dir));
	write_info(dir, bin, pmc_callgraph_mode_name(mode));
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(attr, 1000000, false);
	pmc_callgraph_init(&cg);
	cg.mode = mode;
	cg.stack_bytes = 64;
	cg.depth = 16;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, attr), 0);
	if (ses_split_is_leaf_attr(attr)) /* fp: samples.data holds no leaf copy (collect) */
		ses_split_strip_attr(attr);
	assert_int_equal(ses_writer_add_attr(w, attr, &id, 1), 0);
	rec_comm(w, 100);
	rec_mmap2(w, 100, bin);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	f = fopen(ks, "w"); /* no kernel frames: an empty list */
	assert_non_null(f);
	fclose(f);
	return w;
}

static struct rpt *open_report(const char *dir)
{
	char ks[PATH_MAX + 16], err[256];
	struct rpt_options o = { .cutoff = 0, .detail = true, .kallsyms = ks, .exports = true };
	struct rpt *r = NULL;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	if (rpt_open(&r, dir, &o, err, sizeof(err)))
		fail_msg("rpt_open: %s", err);
	return r;
}

static char *folded(struct rpt *r)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	assert_non_null(f);
	assert_int_equal(rpt_export(r, RPT_EXPORT_FOLDED, f), 0);
	fclose(f);
	return s;
}

static void rm_session(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/*
 * uw_entry calls uw_rsp_func calls uw_fp_func calls uw_leaf; the stack as each frame left
 * it, from the sampled %rsp up (unwind_frames.S):
 *   epilogue: in uw_leaf after "pop %rbp", whose save slot is below %rsp now: %rbp is
 *             uw_fp_func's frame pointer again, and uw_fp_func's CFA needs it
 *   entry:    in uw_rsp_func, called by the entry point, which has no CFI
 *   nocfi:    in code without CFI that is not the entry point: a failed unwind
 */
static void dwarf_frames(void **state)
{
	char dir[PATH_MAX];

	test_tmp_path(dir, sizeof(dir), "uprof-uw.XXXXXX");
	uint64_t fp_ret = BASE + at(frames_bin, "uw_fp_ret"),
		 rsp_ret = BASE + at(frames_bin, "uw_rsp_ret"),
		 entry_ret = BASE + at(frames_bin, "uw_entry_ret");
	/* %rsp = S after the pop; uw_fp_func's %rbp = S + 8 (where it saved its caller's) */
	const uint64_t epilogue[] = { fp_ret, 0, rsp_ret, 0, entry_ret, 0 };
	const uint64_t entry[] = { 0, entry_ret, 0, 0 };
	const uint64_t nocfi[] = { 0, 0, 0, 0 };
	struct perf_event_attr attr;
	struct rpt_stack_summary cs;
	struct ses_writer *w;
	struct rpt *r;
	char *s;

	(void)state;
	w = open_session(dir, frames_bin, PMC_CG_DWARF, &attr);
	rec_dwarf_sample(w, &attr, 10, BASE + at(frames_bin, "uw_leaf_after_pop"), STACK + 8,
			 epilogue, 6);
	rec_dwarf_sample(w, &attr, 11, rsp_ret, 0, entry, 4);
	rec_dwarf_sample(w, &attr, 12, BASE + at(frames_bin, "uw_nocfi") + 1, 0, nocfi, 4);
	assert_int_equal(ses_writer_close(w), 0);
	r = open_report(dir);
	s = folded(r);
	print_message("%s", s);
	assert_non_null(strstr(s, "app;uw_entry;uw_rsp_func;uw_fp_func;uw_leaf 1\n"));
	assert_non_null(strstr(s, "app;uw_entry;uw_rsp_func 1\n"));
	assert_non_null(strstr(s, "app;[unwind failed];uw_nocfi 1\n"));
	rpt_stack_summary(r, &cs);
	assert_int_equal(cs.unwind_failed, 1);
	assert_int_equal(cs.truncated, 0);
	free(s);
	rpt_free(r);
	rm_session(dir);
}

/* An fp sample at @ip (tid 100, time @t) whose kernel chain is @chain (@n addresses). */
static void rec_fp_sample(struct ses_writer *w, uint64_t t, uint64_t ip, const uint64_t *chain,
			  int n)
{
	struct buf b = { .n = 8 };

	put64(&b, 1); /* IDENTIFIER */
	put64(&b, ip);
	put32x2(&b, 100, 100);
	put64(&b, t);
	put32x2(&b, 0, 0);
	put64(&b, 1000000);
	put64(&b, (uint64_t)n + 1);
	put64(&b, PERF_CONTEXT_USER);
	put(&b, chain, (size_t)n * 8);
	finish(w, &b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
}

static void add_leaf(struct ses_leaf_writer *lw, uint64_t seq, uint64_t t, uint64_t ip,
		     uint64_t bp, const uint64_t *stack, int n)
{
	const uint64_t regs[] = { bp, STACK, ip }; /* perf's BP, SP, IP: lowest bit first */
	struct ses_leaf l = { .seq = seq, .id = 1, .pid = 100, .tid = 100, .time = t,
			      .regs_abi = PERF_SAMPLE_REGS_ABI_64, .nregs = 3, .regs = regs,
			      .stack_len = (uint32_t)n * 8, .stack = stack };

	assert_int_equal(ses_leaf_writer_add(lw, &l), 0);
}

/*
 * -g with leaf copies (leafstack.data), in the same frames as dwarf_frames:
 *   epilogue  uw_leaf after "pop %rbp" (CFA from %rsp): the kernel's walk from %rbp
 *             (uw_fp_func's frame) gave uw_rsp_func; one CFI step puts uw_fp_func back
 *   framed    at uw_fp_func's call (CFA from %rbp): the chain is right, left alone
 *   no copy   the epilogue sample again without a record: the kernel's stack
 */
static void fp_leaf_callers(void **state)
{
	char dir[PATH_MAX];

	test_tmp_path(dir, sizeof(dir), "uprof-uw.XXXXXX");
	uint64_t fp_ret = BASE + at(frames_bin, "uw_fp_ret"),
		 rsp_ret = BASE + at(frames_bin, "uw_rsp_ret"),
		 after_pop = BASE + at(frames_bin, "uw_leaf_after_pop");
	const uint64_t epilogue[] = { fp_ret, 0, rsp_ret, 0 };
	const uint64_t chain_leaf[] = { after_pop, rsp_ret };
	const uint64_t chain_fp[] = { fp_ret - 5, rsp_ret }; /* the call instruction */
	struct perf_event_attr attr;
	struct rpt_stack_summary cs;
	struct ses_leaf_writer *lw;
	struct ses_info in;
	struct ses_writer *w;
	struct rpt *r;
	char *s;

	(void)state;
	w = open_session(dir, frames_bin, PMC_CG_FP, &attr);
	assert_false(attr.sample_type & PERF_SAMPLE_REGS_USER); /* samples.data's attr */
	assert_int_equal(ses_info_read(dir, &in, NULL, 0), 0);
	in.callgraph_leaf_bytes = 64;
	assert_int_equal(test_info_write(dir, &in), 0);
	lw = test_leaf_writer_open(dir, (1ULL << R_BP) | (1ULL << R_SP) | (1ULL << R_IP), 64);
	assert_non_null(lw);
	rec_fp_sample(w, 10, after_pop, chain_leaf, 2);
	add_leaf(lw, 0, 10, after_pop, STACK + 8, epilogue, 4);
	rec_fp_sample(w, 11, fp_ret - 5, chain_fp, 2);
	add_leaf(lw, 1, 11, fp_ret - 5, STACK + 8, epilogue, 4);
	rec_fp_sample(w, 12, after_pop, chain_leaf, 2); /* seq 2: no record */
	assert_int_equal(ses_leaf_writer_close(lw), 0);
	assert_int_equal(ses_writer_close(w), 0);
	r = open_report(dir);
	s = folded(r);
	print_message("%s", s);
	/* no stack reaches an entry point: each ends in the mark that says so */
	assert_non_null(strstr(s, "app;[ends early];uw_rsp_func;uw_fp_func;uw_leaf 1\n"));
	assert_non_null(strstr(s, "app;[ends early];uw_rsp_func;uw_fp_func 1\n"));
	assert_non_null(strstr(s, "app;[ends early];uw_rsp_func;uw_leaf 1\n"));
	rpt_stack_summary(r, &cs);
	assert_int_equal(cs.leaf_fixed, 1);
	assert_null(cs.leaf_note);
	/* no stack reaches an entry point: all of them end early */
	assert_true(cs.early);
	assert_true(cs.early_pct > 99.9);
	assert_string_equal(cs.early_module, "unwind_frames");
	free(s);
	rpt_free(r);
	rm_session(dir);
}

/* A label names the code no function symbol covers (the entry point's); one inside a
 * function does not take its addresses from it. */
static void label_names(void **state)
{
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	struct rpt_sym out;

	(void)state;
	assert_non_null(st);
	rpt_symtab_lookup(st, frames_bin, NULL, at(frames_bin, "uw_entry") + 7, &out);
	assert_true(out.resolved);
	assert_string_equal(out.name, "uw_entry");
	rpt_symtab_lookup(st, frames_bin, NULL, at(frames_bin, "uw_leaf_after_pop"), &out);
	assert_string_equal(out.name, "uw_leaf");
	rpt_symtab_lookup(st, frames_bin, NULL, at(frames_bin, "uw_rsp_ret"), &out);
	assert_string_equal(out.name, "uw_rsp_func");
	rpt_symtab_lookup(st, frames_bin, NULL, at(frames_bin, "uw_nocfi") + 1, &out);
	assert_string_equal(out.name, "uw_nocfi");
	rpt_symtab_free(st);
}

/* PLT stubs are named as objdump -C labels them, "name@plt" (demangled, as perf does),
 * both in .plt.sec (gcc's default IBT layout here) and in a .plt without it. */
static void plt_names(void **state)
{
	static const struct {
		const char *cc, *lang, *src;
	} builds[] = {
		{ "cc", "c", "#include <stdio.h>\n#include <stdlib.h>\n"
			     "int main(int c, char **v) { char *p = malloc(c); "
			     "printf(\"%s %p\\n\", v[0], (void *)p); free(p); return 0; }" },
		{ "cc -fcf-protection=none", "c", NULL /* the same, without IBT */ },
		/* C++: the stubs of operator new and delete, demangled as objdump -C does */
		{ "g++", "c++", "#include <cstdio>\nint main(int c, char **v) { int *p = new int[c]; "
				"std::printf(\"%s %p\\n\", v[0], (void *)p); delete[] p; return 0; }" },
	};
	struct rpt_symtab *st = rpt_symtab_new(NULL, NULL);
	char cmd[PATH_MAX * 2 + 128], line[1024], bin[64];
	unsigned long long a;

	(void)state;
	assert_non_null(st);
	for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
		const char *src = builds[i].src ? builds[i].src : builds[0].src;
		int seen = 0;
		FILE *p;

		snprintf(bin, sizeof(bin), "/tmp/uprof-plt.%d.%zu", (int)getpid(), i);
		snprintf(cmd, sizeof(cmd), "%s -O2 -Wl,-z,lazy -o %s -x %s - <<'E'\n%s\nE",
			 builds[i].cc, bin, builds[i].lang, src);
		assert_int_equal(system(cmd), 0);
		snprintf(cmd, sizeof(cmd), "objdump -d -C %s", bin);
		p = popen(cmd, "r");
		assert_non_null(p);
		while (fgets(line, sizeof(line), p)) {
			char name[256], want[300];
			struct rpt_sym out;

			if (!strstr(line, "@plt>:") || sscanf(line, "%llx <%255[^@>]", &a, name) != 2)
				continue;
			/* gcc's PIE: text's file offsets are its vaddrs */
			rpt_symtab_lookup(st, bin, NULL, a + 4, &out);
			snprintf(want, sizeof(want), "%s@plt", name);
			assert_string_equal(out.name, want);
			seen++;
		}
		pclose(p);
		print_message("%s: %d stubs\n", builds[i].cc, seen);
		assert_true(seen >= 4); /* malloc or new, printf, free or delete; __cxa_finalize
					 * in .plt.got */
		unlink(bin);
	}
	rpt_symtab_free(st);
}

/* ---- inline chains ---- */

/* binutils' addr2line -i -f for each of @n addresses from @from: the functions of each,
 * innermost first, ';'-joined, into @out[i] (caller frees). */
static void addr2line(const char *bin, uint64_t from, int n, char **out)
{
	char cmd[PATH_MAX + 64], line[4096];
	FILE *p;
	int cur = -1, odd = 0;

	snprintf(cmd, sizeof(cmd), "for i in $(seq 0 %d); do printf '%%x\\n' $((%llu + i)); done |"
		 " addr2line -a -i -f -e %s", n - 1, (unsigned long long)from, bin);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "0x", 2)) {
			cur++;
			odd = 0;
			assert_true(cur < n);
			out[cur] = strdup("");
			continue;
		}
		if (cur >= 0 && !(odd++ & 1)) { /* function lines; file:line lines between */
			char *g = NULL;

			assert_true(asprintf(&g, "%s%s%s", out[cur], *out[cur] ? ";" : "", line) > 0);
			free(out[cur]);
			out[cur] = g;
		}
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(cur, n - 1);
}

/* At every address of chain_outer, the inlined functions are binutils' (all of them, in
 * order); some addresses hold all three. */
static void inline_chains(void **state)
{
	uint64_t from = at(chain_bin, "chain_outer");
	struct rpt_inlines *il = rpt_inlines_new(NULL);
	char *want[48];
	int three = 0;

	(void)state;
	assert_non_null(il);
	addr2line(chain_bin, from, 48, want);
	for (int i = 0; i < 48; i++) {
		const char *names[16];
		char got[1024] = "";
		/* gcc's PIE: .text's file offsets are its vaddrs */
		int n = rpt_inlines_at(il, chain_bin, from + (uint64_t)i, names, 16);

		for (int k = 0; k < n; k++)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s;", names[k]);
		strcat(got, "chain_outer");
		if (strlen(want[i]) < 11 || strcmp(want[i] + strlen(want[i]) - 11, "chain_outer")) {
			free(want[i]); /* past chain_outer's end */
			continue;
		}
		if (strcmp(got, want[i]))
			fail_msg("chain_outer+%d: uprof %s, addr2line %s", i, got, want[i]);
		three += n == 3 && !strcmp(got, "chain_c3;chain_c2;chain_c1;chain_outer");
		free(want[i]);
	}
	assert_true(three > 0);
	rpt_inlines_free(il);
}

/* A sample in code inlined three deep: the stack has the three inlined frames, and the
 * self time goes to chain_outer, the function the code is in, as the flat profile has it. */
static void self_past_inlined(void **state)
{
	char dir[PATH_MAX];

	test_tmp_path(dir, sizeof(dir), "uprof-uw.XXXXXX");
	struct rpt_inlines *il = rpt_inlines_new(NULL);
	uint64_t from = at(chain_bin, "chain_outer"), ip = 0;
	struct perf_event_attr attr;
	struct ses_writer *w;
	struct rpt *r;
	char *s;

	(void)state;
	for (uint64_t a = from; a < from + 64 && !ip; a++) {
		const char *names[16];

		if (rpt_inlines_at(il, chain_bin, a, names, 16) == 3)
			ip = BASE + a;
	}
	rpt_inlines_free(il);
	assert_true(ip != 0);
	w = open_session(dir, chain_bin, PMC_CG_FP, &attr);
	{
		struct buf b = { .n = 8 };

		put64(&b, 1);
		put64(&b, ip);
		put32x2(&b, 100, 100);
		put64(&b, 10);
		put32x2(&b, 0, 0);
		put64(&b, 1000000);
		put64(&b, 2);
		put64(&b, (uint64_t)PERF_CONTEXT_USER);
		put64(&b, ip);
		finish(w, &b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	}
	assert_int_equal(ses_writer_close(w), 0);
	r = open_report(dir);
	s = folded(r);
	/* an fp stack of one frame, short of an entry point: marked */
	assert_non_null(strstr(s, "app;[ends early];chain_outer;chain_c1 (inlined);"
				  "chain_c2 (inlined);chain_c3 (inlined) 1\n"));
	for (uint32_t i = 0; i < r->stacks->nfuncs; i++) {
		const struct rpt_cfunc *f = &r->stacks->funcs[i];

		assert_int_equal(f->total, 1);
		assert_int_equal(f->self, !strcmp(f->name, "chain_outer") ? 1 : 0);
	}
	free(s);
	rpt_free(r);
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dwarf_frames),
		cmocka_unit_test(fp_leaf_callers),
		cmocka_unit_test(label_names),
		cmocka_unit_test(plt_names),
		cmocka_unit_test(inline_chains),
		cmocka_unit_test(self_past_inlined),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
