// SPDX-License-Identifier: MIT
/*
 * report.csv's OS trace sections (--trace os, docs/DESIGN.md §12), in uProf's threading
 * report style where it has one (CPU TRACING REPORT, SYSTEM CALL SUMMARY, THREAD
 * SUMMARY: docs/reference/uprof-cli.md §5.3) and ours beside: the system calls per
 * thread, the slowest calls with their call sites, THREAD STATES, OFF-CPU FUNCTIONS,
 * OFF-CPU STACKS and LOCK WAKERS. Stacks are the report's, symbolized by its call graph.
 */
#include "report/ostrace.h"
#include "report/stacks.h"
#include "util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ROWS_MAX 50 /* rows of the stack and function sections */
#define SEC(ns) ((double)(ns) / 1e9)

static int thread_index(const struct rpt *r, int tid)
{
	for (int i = r->world.nthreads - 1; i >= 0; i--)
		if (r->world.threads[i].tid == tid)
			return i;
	return -1;
}

static void process_cell(const struct rpt *r, FILE *f, int pid)
{
	char name[128];

	snprintf(name, sizeof(name), "(PID:%d)", pid);
	for (int i = 0; i < r->world.nprocs; i++)
		if (r->world.procs[i].pid == pid)
			rpt_process_name(r, i, name, sizeof(name));
	util_csv_quoted(f, name);
}

static void thread_cell(const struct rpt *r, FILE *f, int tid)
{
	char name[128];
	int i = thread_index(r, tid);

	if (i >= 0)
		rpt_thread_name(r, i, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "Thread-%d", tid);
	util_csv_quoted(f, name);
}

/* The functions of @stack, leaf first (NULL when none: no stack or no call graph). */
static const uint32_t *stack_fids(const struct rpt *r, uint32_t stack, uint32_t *n)
{
	const struct rpt_symstack *sym;

	*n = 0;
	if (stack == OST_NO_STACK || !r->stacks->built || stack >= r->stacks->nstacks)
		return NULL;
	sym = rpt_callgraph_sym(r, stack);
	*n = sym->n;
	return rpt_callgraph_fids(r, sym);
}

/* The function of @stack that made the call: the innermost one outside the system
 * libraries, else its leaf; UINT32_MAX for none. */
static uint32_t call_site(const struct rpt *r, uint32_t stack)
{
	uint32_t n;
	const uint32_t *fids = stack_fids(r, stack, &n);

	for (uint32_t i = 0; i < n; i++) {
		const struct rpt_cfunc *fn = &r->stacks->funcs[fids[i]];

		if (fn->kind != RPT_CF_MARK && !rpt_system_path(rpt_callgraph_module(r, fn)))
			return fids[i];
	}
	return n ? fids[0] : UINT32_MAX;
}

static void function_cell(const struct rpt *r, FILE *f, uint32_t fid)
{
	util_csv_quoted(f, fid == UINT32_MAX ? "[no stack]" : r->stacks->funcs[fid].name);
}

/* "root;...;leaf", folded-stack style. */
static void stack_cell(const struct rpt *r, FILE *f, uint32_t stack)
{
	struct util_sbuf sb = { 0 };
	uint32_t n;
	const uint32_t *fids = stack_fids(r, stack, &n);
	int ret = 0;

	for (uint32_t i = n; i-- > 0 && !ret;) {
		const char *name = r->stacks->funcs[fids[i]].name;

		ret = (i + 1 < n ? util_sbuf_add(&sb, ";", 1) : 0) ||
		      util_sbuf_add(&sb, name, strlen(name));
	}
	util_csv_quoted(f, n && !ret ? sb.s : "[no stack]");
	free(sb.s);
}

static void write_notes(const struct rpt *r, FILE *f)
{
	const struct ost_counts *c = ost_model_counts(r->os->m);
	uint64_t unseen;

	fprintf(f, "CPU TRACING REPORT\n");
	fprintf(f, "Note: Time represents the total runtime & wait time of all the threads\n");
	unseen = 0;
	for (int k = 0; k < OST_NWAITS; k++)
		unseen += c->unseen_wakeups[k];
	if (unseen) {
		/* a wakeup is seen only from a traced waker's events */
		fprintf(f,
			"Note: %llu waits ended with no wakeup recorded (woken by an interrupt, "
			"a timer or a task outside the traced processes; blocked up to the "
			"switch-in):",
			(unsigned long long)unseen);
		for (int k = 0; k < OST_NWAITS; k++)
			fprintf(f, "%s %s %llu", k ? "," : "", ost_wait_name((enum ost_wait)k),
				(unsigned long long)c->unseen_wakeups[k]);
		fputc('\n', f);
	}
	if (r->lost)
		fprintf(f,
			"Note: %llu records lost (ring buffer full): the states around them are "
			"unaccounted, calls across them unmatched; raise -m\n",
			(unsigned long long)r->lost);
	if (r->lost && r->os->fm && r->os->fm->nfuncs)
		fprintf(f, "Note: the calls of --func's functions among the lost records are not "
			   "in FUNCTION COUNTS\n");
	if (c->func_unmatched)
		fprintf(f,
			"Note: %llu --func probe records at an address of no probed function (its "
			"mapping not recorded) are not counted\n",
			(unsigned long long)c->func_unmatched);
	if (c->unparsable)
		fprintf(f,
			"Note: %llu tracepoint records could not be read (fields outside "
			"their record, or no format)\n",
			(unsigned long long)c->unparsable);
	if (c->unmatched)
		fprintf(f,
			"Note: %llu system call exits without their entry (begun before "
			"tracing, or lost)\n",
			(unsigned long long)c->unmatched);
	if (c->out_of_order)
		fprintf(f,
			"Note: %llu switch records that contradict the thread's state "
			"(records lost between them)\n",
			(unsigned long long)c->out_of_order);
	if (c->threads_left_out)
		fprintf(f,
			"Note: %llu threads past --max-threads %llu left out (%llu of their "
			"records not modelled); raise --max-threads\n",
			(unsigned long long)c->threads_left_out,
			(unsigned long long)ost_model_max_threads(r->os->m),
			(unsigned long long)c->left_out_records);
}

static void call_cells(FILE *f, const struct ost_call_stat *c)
{
	fprintf(f, ",%llu,%llu,%.6f,%.6f,%.6f,%.6f,%llu\n", (unsigned long long)c->calls,
		(unsigned long long)c->errors, SEC(c->total_ns),
		SEC(c->min_ns == UINT64_MAX ? 0 : c->min_ns), SEC(c->max_ns),
		c->calls ? SEC(c->total_ns) / (double)c->calls : 0.0, (unsigned long long)c->bytes);
}

static int cmp_call_total(const void *a, const void *b)
{
	const struct ost_call_stat *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* Per process: the per-thread rows summed by call number. */
static int write_calls(const struct rpt *r, FILE *f)
{
	const struct ost_call_stat *calls;
	size_t n = ost_model_calls(r->os->m, &calls), np = 0;
	struct ost_call_stat *per = calloc(n ? n : 1, sizeof(*per));
	struct ost_call_stat *byt = malloc((n ? n : 1) * sizeof(*byt));
	char name[32];

	if (!per || !byt) {
		free(per);
		free(byt);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < np && (per[j].pid != calls[i].pid || per[j].nr != calls[i].nr))
			j++;
		if (j == np) {
			per[np++] = calls[i];
			per[j].tid = 0;
			continue;
		}
		per[j].calls += calls[i].calls;
		per[j].errors += calls[i].errors;
		per[j].total_ns += calls[i].total_ns;
		per[j].bytes += calls[i].bytes;
		if (calls[i].min_ns < per[j].min_ns)
			per[j].min_ns = calls[i].min_ns;
		if (calls[i].max_ns > per[j].max_ns)
			per[j].max_ns = calls[i].max_ns;
	}
	util_qsort(per, np, sizeof(*per), cmp_call_total);
	fprintf(f, "\nSYSTEM CALL SUMMARY\nProcess,System Call,Count,Errors,Total Time(seconds),"
		   "Min Time(seconds),Max Time(seconds),Avg Time(seconds),Bytes\n");
	for (size_t i = 0; i < np; i++) {
		process_cell(r, f, per[i].pid);
		fputc(',', f);
		util_csv_quoted(f, ost_syscall_name(per[i].nr, name, sizeof(name)));
		call_cells(f, &per[i]);
	}
	memcpy(byt, calls, n * sizeof(*byt));
	util_qsort(byt, n, sizeof(*byt), cmp_call_total);
	fprintf(f, "\nSYSTEM CALLS BY THREAD\nProcess,Thread,TID,System Call,Count,Errors,"
		   "Total Time(seconds),Min Time(seconds),Max Time(seconds),Avg Time(seconds),"
		   "Bytes\n");
	for (size_t i = 0; i < n; i++) {
		process_cell(r, f, byt[i].pid);
		fputc(',', f);
		thread_cell(r, f, byt[i].tid);
		fprintf(f, ",%d,", byt[i].tid);
		util_csv_quoted(f, ost_syscall_name(byt[i].nr, name, sizeof(name)));
		call_cells(f, &byt[i]);
	}
	free(per);
	free(byt);
	return 0;
}

static void write_slow(const struct rpt *r, FILE *f)
{
	const struct ost_slow_call *s;
	size_t n = ost_model_slow(r->os->m, &s);
	uint64_t t0 = r->info.start_mono_ns > 0 ? (uint64_t)r->info.start_mono_ns : 0;
	char name[32];

	fprintf(f, "\nSLOWEST SYSTEM CALLS (%.3f us or more; at most %d)\n",
		(double)ost_model_threshold_ns(r->os->m) / 1e3, OST_SLOW_MAX);
	fprintf(f, "Process,Thread,TID,System Call,Start(seconds),Time(seconds),Result,"
		   "Call Site,Call Stack\n");
	for (size_t i = 0; i < n; i++) {
		process_cell(r, f, s[i].pid);
		fputc(',', f);
		thread_cell(r, f, s[i].tid);
		fprintf(f, ",%d,", s[i].tid);
		util_csv_quoted(f, ost_syscall_name(s[i].nr, name, sizeof(name)));
		fprintf(f, ",%.6f,%.6f,%lld,", s[i].start > t0 ? SEC(s[i].start - t0) : 0.0,
			SEC(s[i].ns), (long long)s[i].ret);
		function_cell(r, f, call_site(r, s[i].stack));
		fputc(',', f);
		stack_cell(r, f, s[i].stack);
		fputc('\n', f);
	}
}

static void write_threads(const struct rpt *r, FILE *f)
{
	const struct ost_thread *t;
	size_t n = ost_model_threads(r->os->m, &t);

	fprintf(f, "\nTHREAD SUMMARY\nProcess,Thread,Time(seconds),Wait Time(seconds),"
		   "Wait Time(%% From Thread Elapsed Time)\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t life = t[i].end - t[i].start;
		uint64_t wait = t[i].state_ns[OST_BLOCKED] + t[i].state_ns[OST_RUNNABLE];

		process_cell(r, f, t[i].pid);
		fputc(',', f);
		thread_cell(r, f, t[i].tid);
		fprintf(f, ",%.6f,%.6f,%.2f\n", SEC(life), SEC(wait),
			life ? 100.0 * (double)wait / (double)life : 0.0);
	}
	fprintf(f, "\nTHREAD STATES\nProcess,Thread,TID,Lifetime(seconds),Running(seconds),"
		   "Runnable(seconds),Blocked(seconds),Sleep(seconds),I/O(seconds),Lock(seconds),"
		   "Other(seconds),Unaccounted(seconds),Unaccounted(%%),Switches,Preemptions,"
		   "Wakeups Seen\n");
	for (size_t i = 0; i < n; i++) {
		uint64_t life = t[i].end - t[i].start;

		process_cell(r, f, t[i].pid);
		fputc(',', f);
		thread_cell(r, f, t[i].tid);
		fprintf(f, ",%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.2f,%llu,%llu,%llu\n",
			t[i].tid, SEC(life), SEC(t[i].state_ns[OST_RUNNING]),
			SEC(t[i].state_ns[OST_RUNNABLE]), SEC(t[i].state_ns[OST_BLOCKED]),
			SEC(t[i].blocked_ns[OST_WAIT_SLEEP]), SEC(t[i].blocked_ns[OST_WAIT_IO]),
			SEC(t[i].blocked_ns[OST_WAIT_LOCK]), SEC(t[i].blocked_ns[OST_WAIT_OTHER]),
			SEC(t[i].unaccounted_ns),
			life ? 100.0 * (double)t[i].unaccounted_ns / (double)life : 0.0,
			(unsigned long long)t[i].switches, (unsigned long long)t[i].preemptions,
			(unsigned long long)t[i].wakeups);
	}
}

struct func_row {
	uint32_t fid;
	enum ost_wait wait;
	uint64_t ns, self_ns, count;
};

static int cmp_func_row(const void *a, const void *b)
{
	const struct func_row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	if (x->fid != y->fid)
		return x->fid < y->fid ? -1 : 1;
	return (int)x->wait - (int)y->wait;
}

static int ost_grow_rows(struct func_row **rows, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap * 2 : 64;
	struct func_row *p;

	if (need <= *cap)
		return 0;
	p = realloc(*rows, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*rows = p;
	*cap = n;
	return 0;
}

/* Off-CPU time per (function, wait kind): inclusive (each function once per stack) and
 * self (the stack's leaf). */
static int write_functions(const struct rpt *r, FILE *f)
{
	const struct ost_offcpu *o;
	size_t n = ost_model_offcpu(r->os->m, &o), nrows = 0, cap = 0;
	struct func_row *rows = NULL;
	struct util_hash index = { 0 };
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		uint32_t k;
		const uint32_t *fids = stack_fids(r, o[i].stack, &k);

		for (uint32_t j = 0; j < k && !ret; j++) {
			uint64_t *slot;
			bool again = false;

			for (uint32_t q = 0; q < j && !again; q++)
				again = fids[q] == fids[j]; /* recursion: once per stack */
			if (again || r->stacks->funcs[fids[j]].kind == RPT_CF_MARK)
				continue;
			slot = util_hash_slot(&index, fids[j], (uint64_t)o[i].wait, 0);
			if (!slot || (!*slot && ost_grow_rows(&rows, &cap, nrows + 1))) {
				ret = -ENOMEM;
				break;
			}
			if (!*slot) {
				rows[nrows] = (struct func_row){ fids[j], o[i].wait, 0, 0, 0 };
				*slot = ++nrows;
			}
			rows[*slot - 1].ns += o[i].ns;
			rows[*slot - 1].count += o[i].count;
			if (!j)
				rows[*slot - 1].self_ns += o[i].ns;
		}
	}
	if (!ret) {
		util_qsort(rows, nrows, sizeof(*rows), cmp_func_row);
		fprintf(f, "\nOFF-CPU FUNCTIONS (time blocked under each function, by what it "
			   "waited for)\n");
		fprintf(f, "Function,Wait Kind,Count,Off-CPU Time(seconds),Self Off-CPU "
			   "Time(seconds),Module\n");
		for (size_t i = 0; i < nrows && i < ROWS_MAX; i++) {
			const struct rpt_cfunc *fn = &r->stacks->funcs[rows[i].fid];

			util_csv_quoted(f, fn->name);
			fputc(',', f);
			util_csv_quoted(f, ost_wait_name(rows[i].wait));
			fprintf(f, ",%llu,%.6f,%.6f,", (unsigned long long)rows[i].count,
				SEC(rows[i].ns), SEC(rows[i].self_ns));
			util_csv_quoted(f, rpt_callgraph_module(r, fn));
			fputc('\n', f);
		}
	}
	free(rows);
	util_hash_release(&index);
	return ret;
}

static int cmp_off(const void *a, const void *b)
{
	const struct ost_offcpu *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int write_stacks(const struct rpt *r, FILE *f)
{
	const struct ost_offcpu *o;
	size_t n = ost_model_offcpu(r->os->m, &o);
	struct ost_offcpu *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	memcpy(v, o, n * sizeof(*v));
	util_qsort(v, n, sizeof(*v), cmp_off);
	fprintf(f, "\nOFF-CPU STACKS (switch-out to switch-in, by the stack that blocked)\n");
	fprintf(f, "Process,Thread,TID,Wait Kind,Count,Off-CPU Time(seconds),Blocked In,"
		   "Call Stack\n");
	for (size_t i = 0; i < n && i < ROWS_MAX; i++) {
		process_cell(r, f, v[i].pid);
		fputc(',', f);
		thread_cell(r, f, v[i].tid);
		fprintf(f, ",%d,", v[i].tid);
		util_csv_quoted(f, ost_wait_name(v[i].wait));
		fprintf(f, ",%llu,%.6f,", (unsigned long long)v[i].count, SEC(v[i].ns));
		function_cell(r, f, call_site(r, v[i].stack));
		fputc(',', f);
		stack_cell(r, f, v[i].stack);
		fputc('\n', f);
	}
	free(v);
	return 0;
}

static void write_wakers(const struct rpt *r, FILE *f)
{
	const struct ost_wake *w;
	size_t n = ost_model_wakes(r->os->m, &w);

	fprintf(f, "\nLOCK WAKERS (who ended each lock wait)\n");
	fprintf(f, "Process,Thread,TID,Blocked In,Woken By,Waker TID,Waker Function,Count,"
		   "Off-CPU Time(seconds),Waker Call Stack\n");
	for (size_t i = 0; i < n; i++) {
		process_cell(r, f, w[i].pid);
		fputc(',', f);
		thread_cell(r, f, w[i].tid);
		fprintf(f, ",%d,", w[i].tid);
		function_cell(r, f, call_site(r, w[i].stack));
		fputc(',', f);
		thread_cell(r, f, w[i].waker_tid);
		fprintf(f, ",%d,", w[i].waker_tid);
		function_cell(r, f, call_site(r, w[i].waker_stack));
		fprintf(f, ",%llu,%.6f,", (unsigned long long)w[i].count, SEC(w[i].ns));
		stack_cell(r, f, w[i].waker_stack);
		fputc('\n', f);
	}
}

int rpt_os_write_csv(const struct rpt *r, FILE *f)
{
	int ret;

	if (!r->os)
		return 0;
	fputc('\n', f);
	if (!r->os->m) {
		fprintf(f, "CPU TRACING REPORT\nNote: %s\n", r->os->note);
		return 0;
	}
	write_notes(r, f);
	ret = write_calls(r, f);
	if (ret)
		return ret;
	write_slow(r, f);
	write_threads(r, f);
	ret = write_functions(r, f);
	if (!ret)
		ret = write_stacks(r, f);
	if (!ret)
		write_wakers(r, f);
	if (!ret)
		ret = rpt_os_write_funcs_csv(r, f);
	return ret;
}

void rpt_os_summary(const struct rpt *r, struct rpt_os_summary *out)
{
	const struct ost_thread *t;
	const struct ost_call_stat *c;
	const struct ost_offcpu *o;
	size_t n;

	memset(out, 0, sizeof(*out));
	out->note = "";
	out->top_kind = "";
	if (!r->os)
		return;
	out->traced = true;
	out->note = r->os->note;
	if (!r->os->m)
		return;
	out->threads = ost_model_threads(r->os->m, &t);
	for (size_t i = 0; i < out->threads; i++)
		for (int k = 0; k < OST_NWAITS && k < 4; k++)
			out->blocked_ns[k] += t[i].blocked_ns[k];
	n = ost_model_calls(r->os->m, &c);
	for (size_t i = 0; i < n; i++) {
		out->calls += c[i].calls;
		out->errors += c[i].errors;
	}
	n = ost_model_offcpu(r->os->m, &o);
	for (size_t i = 0; i < n; i++) {
		uint32_t fid;

		if (o[i].ns <= out->top_ns)
			continue;
		fid = call_site(r, o[i].stack);
		out->top_ns = o[i].ns;
		out->top_kind = ost_wait_name(o[i].wait);
		snprintf(out->top_func, sizeof(out->top_func), "%s",
			 fid == UINT32_MAX ? "[no stack]" : r->stacks->funcs[fid].name);
	}
}
