// SPDX-License-Identifier: MIT
/*
 * Call stacks: the --call-graph spec parser and attr bits (lib/pmc/callchain.c), and
 * lib/report on a hand-built session with callchains against a real binary
 * (build/targets/callgraph_fp): self and total time, recursion counted once, callers and
 * callees, kernel frames, a chain into unmapped memory ending in [unwind failed], a chain
 * cut at sample_max_stack ending in [truncated], and the three exports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch/arch.h"
#include "pmc/pmc.h"
#include "export/export.h"
#include "report/stacks.h" /* white box: the call graph and stacks themselves */

#define BASE 0x555500000000ULL
#define KADDR 0xffffffff81000100ULL

static char bin[PATH_MAX];
static uint64_t a_at, b_at, leaf_at, main_at, rec_at, recleaf_at;

/* ---- the spec parser ---- */

static void spec_forms(void **state)
{
	static const struct {
		const char *spec;
		int ret;
		enum pmc_cg_mode mode;
		uint32_t stack;
		int depth;
		enum pmc_cg_scope scope;
		int line;
	} t[] = {
		{ "fp", 0, PMC_CG_FP, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf", 0, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:4096", 0, PMC_CG_DWARF, 4096, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf,1024", 0, PMC_CG_DWARF, 1024, 128, PMC_CG_ALL, __LINE__ },
		{ "fpo:512", 0, PMC_CG_DWARF, 512, 128, PMC_CG_ALL, __LINE__ },
		{ "fp:512", 0, PMC_CG_FP, 8192, 128, PMC_CG_ALL, __LINE__ }, /* the leaf copy's */
		{ "1:64:user:fpo", 0, PMC_CG_DWARF, 8192, 64, PMC_CG_USER, __LINE__ },
		{ "0.5:2:kernel:fp", 0, PMC_CG_FP, 8192, 2, PMC_CG_KERNEL, __LINE__ },
		{ "1:1024:all:dwarf", 0, PMC_CG_DWARF, 8192, 1024, PMC_CG_ALL, __LINE__ },
		{ "", -EINVAL, PMC_CG_NONE, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "lbr", -EINVAL, PMC_CG_NONE, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:", -ERANGE, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:100", -ERANGE, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:8", -ERANGE, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:65536", -ERANGE, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:-8", -ERANGE, PMC_CG_DWARF, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "dwarf:1:2", -EINVAL, PMC_CG_NONE, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "1:1:user:fp", -ERANGE, PMC_CG_NONE, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "1:64:both:fp", -EINVAL, PMC_CG_NONE, 8192, 64, PMC_CG_ALL, __LINE__ },
		{ "x:64:user:fp", -EINVAL, PMC_CG_NONE, 8192, 128, PMC_CG_ALL, __LINE__ },
		{ "1:64:user:lbr", -EINVAL, PMC_CG_NONE, 8192, 64, PMC_CG_USER, __LINE__ },
	};
	char err[160];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pmc_callgraph cg;
		int ret;

		pmc_callgraph_init(&cg);
		err[0] = 0;
		ret = pmc_callgraph_parse(t[i].spec, &cg, err, sizeof(err));
		if (ret != t[i].ret || cg.mode != t[i].mode || cg.stack_bytes != t[i].stack ||
		    cg.depth != t[i].depth || cg.scope != t[i].scope)
			fail_msg("line %d '%s': ret %d mode %d stack %u depth %d scope %d (%s)",
				 t[i].line, t[i].spec, ret, cg.mode, cg.stack_bytes, cg.depth, cg.scope,
				 err);
		if (ret && !err[0])
			fail_msg("line %d: no message for '%s'", t[i].line, t[i].spec);
	}
}

/* fp:BYTES sizes the leaf copy: 0 or 64..4096, a multiple of 8 */
static void fp_leaf_spec(void **state)
{
	static const struct {
		const char *spec;
		int ret;
		uint32_t leaf;
	} t[] = {
		{ "fp", 0, PMC_CG_DEFAULT_LEAF }, { "fp:0", 0, 0 },	  { "fp:64", 0, 64 },
		{ "fp,4096", 0, 4096 },		  { "fp:100", -ERANGE, 0 }, { "fp:56", -ERANGE, 0 },
		{ "fp:4104", -ERANGE, 0 },	  { "fp:-8", -ERANGE, 0 },  { "dwarf:512", 0, 0 },
	};
	char err[160];

	(void)state;
	if (!arch_this.leaf_regs_mask)
		skip();
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct pmc_callgraph cg;
		int ret;

		pmc_callgraph_init(&cg);
		err[0] = 0;
		ret = pmc_callgraph_parse(t[i].spec, &cg, err, sizeof(err));
		if (ret != t[i].ret || (!ret && cg.mode == PMC_CG_FP && cg.leaf_bytes != t[i].leaf))
			fail_msg("'%s': ret %d leaf %u (%s)", t[i].spec, ret, cg.leaf_bytes, err);
		if (ret && !strstr(err, "leaf copy"))
			fail_msg("'%s': message '%s'", t[i].spec, err);
	}
}

static void attr_bits(void **state)
{
	struct perf_event_attr a;
	struct pmc_callgraph cg;

	(void)state;
	pmc_callgraph_init(&cg);
	pmc_timer_attr(&a, 1000000, false);
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &a), 0);
	assert_int_equal(a.sample_type, PMC_SAMPLE_TYPE); /* none: nothing changes */
	cg.mode = PMC_CG_FP;
	cg.leaf_bytes = 0; /* fp:0 */
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &a), 0);
	assert_true(a.sample_type & PERF_SAMPLE_CALLCHAIN);
	assert_false(a.sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER));
	assert_int_equal(a.sample_max_stack, 127); /* 128 capped by the kernel's limit */
	/* fp with the default leaf copy: a few registers and 512 bytes, the chain kept */
	pmc_timer_attr(&a, 1000000, false);
	pmc_callgraph_init(&cg);
	cg.mode = PMC_CG_FP;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &a), 0);
	if (arch_this.leaf_regs_mask) {
		assert_int_equal(a.sample_type & (PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER),
				 PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER);
		assert_int_equal(a.sample_regs_user, arch_this.leaf_regs_mask);
		assert_int_equal(__builtin_popcountll(a.sample_regs_user), 3);
		assert_int_equal(a.sample_stack_user, PMC_CG_DEFAULT_LEAF);
		assert_false(a.exclude_callchain_user);
		assert_true(ses_split_is_leaf_attr(&a));
	}
	/* scope kernel: no user chain, no leaf copy */
	pmc_timer_attr(&a, 1000000, false);
	cg.scope = PMC_CG_KERNEL;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &a), 0);
	assert_false(a.sample_type & PERF_SAMPLE_REGS_USER);
	cg.scope = PMC_CG_ALL;
	pmc_timer_attr(&a, 1000000, false);
	cg.mode = PMC_CG_DWARF;
	cg.stack_bytes = 4096;
	cg.depth = 32;
	cg.scope = PMC_CG_USER;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &a), 0);
	assert_true(a.sample_type & PERF_SAMPLE_REGS_USER);
	assert_true(a.sample_type & PERF_SAMPLE_STACK_USER);
	assert_int_equal(a.sample_stack_user, 4096);
	assert_true(a.sample_regs_user != 0);
	assert_true(a.exclude_callchain_user);   /* the user part is unwound by report */
	assert_true(a.exclude_callchain_kernel); /* scope user */
	assert_int_equal(a.sample_max_stack, 32);
	assert_string_equal(pmc_callgraph_mode_name(PMC_CG_DWARF), "dwarf");
	assert_string_equal(pmc_callgraph_scope_name(PMC_CG_USER), "user");
}

/* ---- a session with callchains ---- */

#include "target_bins.h"

static int setup(void **state)
{
	(void)state;
	target_path(bin, sizeof(bin), "callgraph_fp");
	a_at = nm_addr(bin, "chain_a");
	b_at = nm_addr(bin, "chain_b");
	leaf_at = nm_addr(bin, "chain_leaf");
	main_at = nm_addr(bin, "main");
	rec_at = nm_addr(bin, "recurse");
	recleaf_at = nm_addr(bin, "recurse_leaf");
	return a_at && b_at && leaf_at && main_at && rec_at && recleaf_at ? 0 : -1;
}

#include "record_builder.h"
#include "session_at.h"


static void rec_comm(struct ses_writer *w, uint32_t pid, const char *comm)
{
	struct buf b = { .n = 8 };
	char name[16] = { 0 };

	put32x2(&b, pid, pid);
	strncpy(name, comm, 15);
	put(&b, name, 16);
	put32x2(&b, pid, pid), put64(&b, 1), put32x2(&b, 0, 0), put64(&b, 1);
	finish(w, &b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
}

static void rec_mmap2(struct ses_writer *w, uint32_t pid)
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

/* A sample with callchain @ips (@n entries, markers included). */
static void rec_sample(struct ses_writer *w, uint32_t pid, uint64_t t, const uint64_t *ips,
		       int n, bool kernel)
{
	struct buf b = { .n = 8 };
	uint64_t ip = 0;

	for (int i = 0; i < n && !ip; i++)
		if (ips[i] < (uint64_t)PERF_CONTEXT_MAX)
			ip = ips[i];
	put64(&b, 1);
	put64(&b, ip);
	put32x2(&b, pid, pid);
	put64(&b, t);
	put32x2(&b, 0, 0);
	put64(&b, 1000000);
	put64(&b, (uint64_t)n);
	for (int i = 0; i < n; i++)
		put64(&b, ips[i]);
	finish(w, &b, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
}

#define U (uint64_t) PERF_CONTEXT_USER
#define K (uint64_t) PERF_CONTEXT_KERNEL
#define AT(x, off) (BASE + (x) + (off))

/* An fp session of pid 100 ("app") with the binary mapped: its writer, for the samples. */
static struct ses_writer *begin_session(char *dir)
{
	struct ses_info in = { 0 };
	struct perf_event_attr attr;
	struct pmc_callgraph cg;
	struct ses_writer *w;
	uint64_t id = 1;

	assert_non_null(mkdtemp(dir));
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", bin);
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = 1000000;
	in.status = SES_STATUS_COMPLETE;
	in.start_mono_ns = 1;
	in.end_mono_ns = 100;
	snprintf(in.callgraph_mode, sizeof(in.callgraph_mode), "fp");
	in.callgraph_depth = 8;
	assert_int_equal(test_info_write(dir, &in), 0);
	w = test_writer_open(dir);
	assert_non_null(w);
	pmc_timer_attr(&attr, 1000000, false);
	pmc_callgraph_init(&cg);
	cg.mode = PMC_CG_FP;
	cg.depth = 8;
	assert_int_equal(pmc_callgraph_attr(&cg, 127, &attr), 0);
	ses_split_strip_attr(&attr); /* what samples.data holds: collect keeps the leaf copy apart */
	assert_int_equal(ses_writer_add_attr(w, &attr, &id, 1), 0);
	rec_comm(w, 100, "app");
	rec_mmap2(w, 100);
	return w;
}

static void end_session(struct ses_writer *w, const char *dir)
{
	char ks[PATH_MAX + 16];
	FILE *f;

	assert_int_equal(ses_writer_close(w), 0);
	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	f = fopen(ks, "w");
	assert_non_null(f);
	fprintf(f, "ffffffff81000000 T _stext\nffffffff81000100 T kfunc\nffffffff81000200 T kcaller\n");
	fclose(f);
}

static void make_session(char *dir)
{
	struct ses_writer *w;
	const uint64_t chain[] = { U, AT(leaf_at, 4), AT(b_at, 9), AT(a_at, 9), AT(main_at, 9) };
	const uint64_t recur[] = { U, AT(recleaf_at, 4), AT(rec_at, 9), AT(rec_at, 9),
				   AT(rec_at, 9), AT(main_at, 9) };
	const uint64_t kern[] = { K, KADDR + 0x10, KADDR + 0x110, U, AT(leaf_at, 4), AT(b_at, 9),
				  AT(a_at, 9), AT(main_at, 9) };
	const uint64_t broken[] = { U, AT(leaf_at, 4), 0x1234 };
	/* as long as sample_max_stack (8): the kernel cut it */
	const uint64_t cut[] = { U, AT(recleaf_at, 4), AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9),
				 AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9) };

	w = begin_session(dir);
	rec_sample(w, 100, 10, chain, 5, false);
	rec_sample(w, 100, 11, chain, 5, false);
	rec_sample(w, 100, 12, recur, 6, false);
	rec_sample(w, 100, 13, kern, 8, true);
	rec_sample(w, 100, 14, broken, 3, false);
	rec_sample(w, 100, 15, cut, 9, false);
	end_session(w, dir);
}

static struct rpt *open_report(const char *dir)
{
	char ks[PATH_MAX + 16], err[256];
	struct rpt_options o = { .cutoff = 10, .detail = true, .kallsyms = ks, .exports = true };
	struct rpt *r = NULL;

	snprintf(ks, sizeof(ks), "%s/kallsyms", dir);
	if (rpt_open(&r, dir, &o, err, sizeof(err)))
		fail_msg("rpt_open: %s", err);
	return r;
}

static const struct rpt_cfunc *func(const struct rpt *r, const char *name)
{
	for (uint32_t i = 0; i < r->stacks->nfuncs; i++)
		if (!strcmp(r->stacks->funcs[i].name, name))
			return &r->stacks->funcs[i];
	fail_msg("no function %s", name);
	return NULL;
}

/* The export as a string (caller frees). */
static char *export(struct rpt *r, enum rpt_export e)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	assert_non_null(f);
	assert_int_equal(rpt_export(r, e, f), 0);
	fclose(f);
	return s;
}

static void rm_session(const char *dir)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void self_total_edges(void **state)
{
	char dir[] = "/tmp/uprof-cg.XXXXXX";
	struct rpt_stack_summary cs;
	struct rpt *r;
	uint64_t *edge;

	(void)state;
	make_session(dir);
	r = open_report(dir);
	rpt_stack_summary(r, &cs);
	assert_true(cs.collected);
	assert_int_equal(cs.truncated, 1);
	assert_int_equal(cs.unwind_failed, 1);
	assert_int_equal(func(r, "chain_leaf")->self, 3);
	assert_int_equal(func(r, "chain_leaf")->total, 4); /* the kernel sample under it too */
	assert_int_equal(func(r, "chain_b")->total, 3);	    /* not the broken one */
	assert_int_equal(func(r, "main")->total, 4);
	assert_int_equal(func(r, "main")->self, 0);
	assert_int_equal(func(r, "recurse")->total, 2); /* once per sample, however deep */
	assert_int_equal(func(r, "kfunc")->self, 1);
	assert_int_equal(func(r, "kcaller")->total, 1);
	assert_int_equal(func(r, "[unwind failed]")->total, 1);
	assert_int_equal(func(r, "[truncated]")->total, 1);
	/* recurse -> recurse once per sample */
	edge = util_hash_find(&r->stacks->edge_index, 0, func(r, "recurse") - r->stacks->funcs,
			     func(r, "recurse") - r->stacks->funcs);
	assert_non_null(edge);
	assert_int_equal(r->stacks->edges[*edge - 1].count, 2);
	edge = util_hash_find(&r->stacks->edge_index, 0, func(r, "chain_b") - r->stacks->funcs,
			     func(r, "chain_leaf") - r->stacks->funcs);
	assert_non_null(edge);
	assert_int_equal(r->stacks->edges[*edge - 1].count, 3);
	rpt_free(r);
	rm_session(dir);
}

static void csv_sections(void **state)
{
	char dir[] = "/tmp/uprof-cg.XXXXXX";
	char *csv = NULL;
	size_t n = 0;
	struct rpt *r;
	FILE *f;

	(void)state;
	make_session(dir);
	r = open_report(dir);
	f = open_memstream(&csv, &n);
	assert_int_equal(rpt_write_csv(r, f), 0);
	fclose(f);
	assert_non_null(strstr(csv, "Call Stack Sampling:,\"True\"\n"));
	assert_non_null(strstr(csv, "Stacks Truncated:,\"1\"\n"));
	assert_non_null(strstr(csv, "\"10 HOTTEST FUNCTIONS BY TOTAL TIME (Sort Event - TOTAL "
				    "CPU_TIME)\"\nFUNCTION,\"TOTAL CPU_TIME\" (seconds),\"SELF "
				    "CPU_TIME\" (seconds),Module\n"));
	assert_non_null(strstr(csv, "\nCALLGRAPH FOR PROCESS - app (PID:100)\n"));
	assert_non_null(strstr(csv, "\"chain_leaf\",function,0.0040,0.0030,4,3,"));
	assert_non_null(strstr(csv, "\"chain_b\",caller,0.0030,,3,,"));
	assert_null(strstr(csv, "\"[truncated]\",function")); /* markers are not listed */
	free(csv);
	rpt_free(r);
	rm_session(dir);
}

static void exports(void **state)
{
	char dir[] = "/tmp/uprof-cg.XXXXXX";
	struct rpt *r;
	char *s;

	(void)state;
	make_session(dir);
	r = open_report(dir);
	s = export(r, RPT_EXPORT_FOLDED);
	assert_string_equal(s, "app;[truncated];recurse;recurse;recurse;recurse;recurse;recurse;"
			       "recurse;recurse_leaf 1\n"
			       "app;[unwind failed];chain_leaf 1\n"
			       "app;main;chain_a;chain_b;chain_leaf 2\n"
			       "app;main;chain_a;chain_b;chain_leaf;kcaller;kfunc 1\n"
			       "app;main;recurse;recurse;recurse;recurse_leaf 1\n");
	free(s);
	s = export(r, RPT_EXPORT_FLAMEGRAPH);
	assert_true(!strncmp(s, "<?xml", 5));
	assert_non_null(strstr(s, "data-total=\"6\""));
	assert_non_null(strstr(s, "<title>chain_leaf (3 samples, 50.00%)</title>"));
	assert_non_null(strstr(s, "</svg>\n"));
	free(s);
	s = export(r, RPT_EXPORT_PERFETTO);
	assert_true(!strncmp(s, "{\"traceEvents\":[", 16));
	assert_non_null(strstr(s, "\"stack\":\"main;chain_a;chain_b;chain_leaf;kcaller;kfunc\""));
	assert_non_null(strstr(s, "\"name\":\"process_name\",\"args\":{\"name\":\"app\"}"));
	assert_non_null(strstr(s, "\"stackFrames\":{"));
	free(s);
	/* the exporter table itself: test_export.c */
	assert_int_equal(rpt_export(r, RPT_EXPORT_COUNT, stdout), -EINVAL);
	rpt_free(r);
	rm_session(dir);
}

/* Every fp stack of a user process that stops short of an entry point gets an [ends
 * early] mark at its end, one stack per way of stopping: the kernel's walk ends (no
 * frame pointer in a caller), a 0 return address, no user part but the leaf, a kernel
 * sample with no user part. Complete, cut ([truncated]) and broken ([unwind failed])
 * stacks are left as they are; report's count of early stacks takes them all. */
static void every_early_fp_stack_marked(void **state)
{
	const uint64_t stops[] = { U, AT(leaf_at, 4), AT(b_at, 9), AT(a_at, 9) };
	const uint64_t zero[] = { U, AT(leaf_at, 4), AT(b_at, 9), 0, AT(a_at, 9), AT(main_at, 9) };
	const uint64_t leaf_only[] = { U, AT(leaf_at, 4) };
	const uint64_t kernel_only[] = { K, KADDR + 0x10, KADDR + 0x110 };
	const uint64_t whole[] = { U, AT(leaf_at, 4), AT(b_at, 9), AT(a_at, 9), AT(main_at, 9) };
	const uint64_t broken[] = { U, AT(leaf_at, 4), 0x1234 };
	const uint64_t cut[] = { U, AT(recleaf_at, 4), AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9),
				 AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9), AT(rec_at, 9) };
	char dir[] = "/tmp/uprof-cg.XXXXXX";
	struct ses_writer *w;
	struct rpt *r;
	char *s;

	(void)state;
	w = begin_session(dir);
	rec_sample(w, 100, 10, stops, 4, false);
	rec_sample(w, 100, 11, zero, 6, false);
	rec_sample(w, 100, 12, leaf_only, 2, false);
	rec_sample(w, 100, 13, kernel_only, 3, true);
	rec_sample(w, 100, 14, whole, 5, false);
	rec_sample(w, 100, 15, broken, 3, false);
	rec_sample(w, 100, 16, cut, 9, false);
	end_session(w, dir);
	r = open_report(dir);
	s = export(r, RPT_EXPORT_FOLDED);
	assert_string_equal(s, "app;[ends early];chain_a;chain_b;chain_leaf 1\n"
			       "app;[ends early];chain_b;chain_leaf 1\n"
			       "app;[ends early];chain_leaf 1\n"
			       "app;[ends early];kcaller;kfunc 1\n"
			       "app;[truncated];recurse;recurse;recurse;recurse;recurse;recurse;"
			       "recurse;recurse_leaf 1\n"
			       "app;[unwind failed];chain_leaf 1\n"
			       "app;main;chain_a;chain_b;chain_leaf 1\n");
	free(s);
	/* the user stacks that end early: the three marked, and the broken one */
	assert_int_equal(r->stacks->early_stacks, 4);
	rpt_free(r);
	rm_session(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_forms),
		cmocka_unit_test(fp_leaf_spec),
		cmocka_unit_test(attr_bits),
		cmocka_unit_test(self_total_edges),
		cmocka_unit_test(csv_sections),
		cmocka_unit_test(exports),
		cmocka_unit_test(every_early_fp_stack_marked),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
