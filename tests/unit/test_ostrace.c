// SPDX-License-Identifier: MIT
/*
 * lib/ostrace: tracefs format files and the session's formats file (real ones of Linux
 * 6.18, then every truncation and a few corruptions), integer fields read only inside
 * their record, and the model on made-up records with exact answers: a sleep, a
 * preemption, a lock wait ended by a traced waker, a system call table with an error and
 * bytes, a short record counted unparsable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>

#include "ostrace/ostrace.h"
#include "session/session.h"

static const char SWITCH_FMT[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d\", REC->prev_comm, REC->prev_pid\n";

static const char FORMATS[] = OST_FORMATS_MAGIC
	"\n"
	"threshold_ns: 1000\n"
	"events: 7\n"
	"system: sched\n"
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"print fmt: \"\"\n"
	"system: sched\n"
	"name: sched_wakeup\n"
	"ID: 375\n"
	"format:\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"print fmt: \"\"\n"
	"system: raw_syscalls\n"
	"name: sys_enter\n"
	"ID: 24\n"
	"format:\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"print fmt: \"\"\n"
	"system: raw_syscalls\n"
	"name: sys_exit\n"
	"ID: 23\n"
	"format:\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
	"print fmt: \"\"\n";

static void format_fields(void **state)
{
	struct ost_format f;
	const struct ost_field *fl;
	char err[128];

	(void)state;
	assert_int_equal(ost_format_parse(SWITCH_FMT, strlen(SWITCH_FMT), &f, err, sizeof(err)), 0);
	assert_string_equal(f.name, "sched_switch");
	assert_int_equal(f.id, 372);
	assert_int_equal(f.nfields, 11);
	assert_int_equal(f.kind, OST_TP_SWITCH);
	fl = ost_format_field(&f, "prev_comm"); /* an array: its name without [16] */
	assert_non_null(fl);
	assert_int_equal(fl->offset, 8);
	assert_int_equal(fl->size, 16);
	fl = ost_format_field(&f, "prev_state");
	assert_int_equal(fl->offset, 32);
	assert_int_equal(fl->size, 8);
	assert_true(fl->is_signed);
	assert_int_equal(f.fields[f.f_next_pid].offset, 56);
	assert_null(ost_format_field(&f, "nope"));
}

/* Every cut of a real format is refused or read, never past its bytes (ASan's word). */
static void format_truncated(void **state)
{
	size_t len = strlen(SWITCH_FMT);
	char err[128];

	(void)state;
	for (size_t n = 0; n < len; n++) {
		char *copy = malloc(n ? n : 1); /* not NUL-terminated: exactly n bytes */
		struct ost_format f;
		int ret;

		memcpy(copy, SWITCH_FMT, n);
		ret = ost_format_parse(copy, n, &f, err, sizeof(err));
		/* cut before its last line, "print fmt:", it is refused */
		if (n < (size_t)(strstr(SWITCH_FMT, "print fmt:") - SWITCH_FMT) + 10)
			assert_int_equal(ret, -EINVAL);
		if (ret)
			assert_non_null(strstr(err, "line "));
		else
			assert_int_equal(f.id, 372);
		free(copy);
	}
}

static void format_corrupt(void **state)
{
	static const char *const BAD[] = {
		"name: x\nID: 1\n\tfield:int a;\toffset:99999999;\tsize:4;\tsigned:1;\nprint fmt: \"\"\n",
		"name: x\nID: 1\n\tfield:int a;\toffset:0;\tsize:4;\tsigned:7;\nprint fmt: \"\"\n",
		"name: x\nID: 1\n\tfield:int a\toffset:0;\tsize:4;\tsigned:1;\nprint fmt: \"\"\n",
		"name: x\nID: 1\n\tfield:int ;\toffset:0;\tsize:4;\tsigned:1;\nprint fmt: \"\"\n",
		"name: x\nID: 1\n\tfield:a;\toffset:0;\tsize:4;\tsigned:1;\nprint fmt: \"\"\n",
		"name: x\nID: 99999999999999999999999\nprint fmt: \"\"\n",
		"name: x\nID: 1\ngarbage\nprint fmt: \"\"\n",
		"ID: 1\nprint fmt: \"\"\n",
		"name: x\nID: 1\n", /* cut short: no print fmt */
	};
	struct ost_format f;
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
		assert_int_equal(ost_format_parse(BAD[i], strlen(BAD[i]), &f, err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "line "));
	}
}

static void field_bounds(void **state)
{
	struct ost_field fl = { "x", 4, 4, true };
	unsigned char raw[8] = { 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff };
	int64_t v = 0;

	(void)state;
	assert_int_equal(ost_field_int(&fl, raw, 8, &v), 0);
	assert_int_equal(v, -2);
	fl.is_signed = false;
	assert_int_equal(ost_field_int(&fl, raw, 8, &v), 0);
	assert_int_equal(v, 0xfffffffeLL);
	assert_int_equal(ost_field_int(&fl, raw, 7, &v), -EINVAL); /* past the record */
	fl.offset = UINT32_MAX;
	assert_int_equal(ost_field_int(&fl, raw, 8, &v), -EINVAL);
	fl = (struct ost_field){ "y", 0, 3, false }; /* no integer of 3 bytes */
	assert_int_equal(ost_field_int(&fl, raw, 8, &v), -EINVAL);
}

static void formats_file(void **state)
{
	struct ost_formats *fm = malloc(sizeof(*fm));
	size_t len = strlen(FORMATS);
	char err[128];

	(void)state;
	assert_int_equal(ost_formats_parse(FORMATS, len, fm, err, sizeof(err)), 0);
	assert_int_equal(fm->n, 4);
	assert_int_equal(fm->threshold_ns, 1000);
	assert_int_equal(fm->events, 7);
	assert_string_equal(fm->f[2].system, "raw_syscalls");
	assert_int_equal(ost_formats_find(fm, 23)->kind, OST_TP_SYS_EXIT);
	assert_null(ost_formats_find(fm, 999));
	/* an older session's sched_wakeup and today's sched_waking are both the waker */
	assert_int_equal(ost_formats_find(fm, 375)->kind, OST_TP_WAKEUP);
	{
		char *waking = strdup(FORMATS), *at = strstr(waking, "name: sched_wakeup\n");

		memcpy(at, "name: sched_waking\n", strlen("name: sched_waking\n"));
		assert_int_equal(ost_formats_parse(waking, strlen(waking), fm, err, sizeof(err)),
				 0);
		assert_int_equal(ost_formats_find(fm, 375)->kind, OST_TP_WAKEUP);
		assert_int_equal(ost_formats_find(fm, 372)->kind, OST_TP_SWITCH);
		free(waking);
	}
	/* every cut: refused with a line, or the blocks before the cut */
	for (size_t n = 0; n < len; n++) {
		int ret = ost_formats_parse(FORMATS, n, fm, err, sizeof(err));

		if (ret)
			assert_non_null(strstr(err, "line "));
		else
			assert_true(fm->n <= 4);
	}
	/* another file's first line */
	assert_int_equal(ost_formats_parse("hello\n", 6, fm, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "line 1"));
	/* --max-threads: optional; a number or refused with its line */
	{
		static const char MAXT[] = OST_FORMATS_MAGIC "\nthreshold_ns: 5\nmax_threads: 3\n";
		static const char BAD[] = OST_FORMATS_MAGIC "\nmax_threads: many\n";

		assert_int_equal(ost_formats_parse(MAXT, strlen(MAXT), fm, err, sizeof(err)), 0);
		assert_int_equal(fm->max_threads, 3);
		assert_int_equal(ost_formats_parse(BAD, strlen(BAD), fm, err, sizeof(err)),
				 -EINVAL);
		assert_string_equal(err, "line 2: max_threads is not a number");
		assert_int_equal(ost_formats_parse(FORMATS, len, fm, err, sizeof(err)), 0);
		assert_int_equal(fm->max_threads, 0); /* none: no limit */
	}
	free(fm);
}

/* A session of collect --func: its uprobe event (Linux 6.18's format) and two functions. */
static const char FUNCS[] = OST_FORMATS_MAGIC "\n"
			    "threshold_ns: 1000\n"
			    "events: 20\n"
			    "system: uprof_4242\n"
			    "name: funcs\n"
			    "ID: 2326\n"
			    "format:\n"
			    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
			    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
			    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
			    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
			    "\n"
			    "\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
			    "\n"
			    "print fmt: \"(%lx)\", REC->__probe_ip\n"
			    "func: 0x1310\t/opt/app/bin/app\tcount_alpha\n"
			    "func: 0x8ab80\t/usr/lib/x86_64-linux-gnu/libc.so.6\tpthread_join\n";

static void funcs_file(void **state)
{
	struct ost_formats *fm = malloc(sizeof(*fm));
	size_t len = strlen(FUNCS);
	char err[128], *many;
	const struct ost_format *f;

	(void)state;
	assert_int_equal(ost_formats_parse(FUNCS, len, fm, err, sizeof(err)), 0);
	assert_int_equal(fm->events, OST_EV_FUNCCOUNT | OST_EV_SCHED);
	f = ost_formats_find(fm, 2326);
	assert_non_null(f);
	assert_int_equal(f->kind, OST_TP_FUNC);
	assert_string_equal(f->fields[f->f_probe_ip].name, "__probe_ip");
	assert_int_equal(fm->nfuncs, 2);
	assert_int_equal(fm->funcs[1].offset, 0x8ab80);
	assert_string_equal(fm->funcs[1].module, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(fm->funcs[1].name, "pthread_join");
	/* found by the module's file name and the offset, both */
	assert_int_equal(ost_formats_func(fm, "app", 0x1310), 0);
	assert_int_equal(ost_formats_func(fm, "libc.so.6", 0x8ab80), 1);
	assert_int_equal(ost_formats_func(fm, "libc.so.6", 0x1310), -1);
	assert_int_equal(ost_formats_func(fm, "other", 0x1310), -1);
	/* every cut: refused with its line, or what came before it */
	for (size_t n = 0; n < len; n++) {
		int ret = ost_formats_parse(FUNCS, n, fm, err, sizeof(err));

		if (ret)
			assert_non_null(strstr(err, "line "));
		else
			assert_true(fm->nfuncs <= 2);
	}
	/* corrupted func lines: each refused with its line */
	{
		static const char *const BAD[] = {
			"func: 0x1310 /a/b count\n",	       /* no tabs */
			"func: 0x1310\t/a/b\n",		       /* no name */
			"func: 1310\t/a/b\tf\n",	       /* no 0x */
			"func: 0x13g0\t/a/b\tf\n",	       /* not hex */
			"func: 0x\t/a/b\tf\n",		       /* no digits */
			"func: 0x11112222333344445\t/a/b\tf\n", /* past 64 bits */
			"func: 0x10\t\tf\n",		       /* no module */
			"func: 0x10\t/a/b\t\n",		       /* empty name */
		};
		char buf[256];

		for (size_t i = 0; i < sizeof(BAD) / sizeof(BAD[0]); i++) {
			int n = snprintf(buf, sizeof(buf), "%s\n%s", OST_FORMATS_MAGIC, BAD[i]);

			assert_int_equal(ost_formats_parse(buf, (size_t)n, fm, err, sizeof(err)),
					 -EINVAL);
			assert_non_null(strstr(err, "line 2: "));
		}
	}
	/* a name as long as its field, and more functions than OST_MAX_FUNCS */
	many = malloc(64 + (OST_MAX_FUNCS + 1) * 32 + 400);
	{
		size_t at = (size_t)sprintf(many, "%s\nfunc: 0x1\t/m\t", OST_FORMATS_MAGIC);

		memset(many + at, 'x', sizeof(fm->funcs[0].name));
		at += sizeof(fm->funcs[0].name);
		many[at++] = '\n';
		assert_int_equal(ost_formats_parse(many, at, fm, err, sizeof(err)), -EINVAL);
		at = (size_t)sprintf(many, "%s\n", OST_FORMATS_MAGIC);
		for (int i = 0; i <= OST_MAX_FUNCS; i++)
			at += (size_t)sprintf(many + at, "func: 0x%x\t/m\tf%d\n", i, i);
		assert_int_equal(ost_formats_parse(many, at, fm, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "more than 256 functions"));
	}
	free(many);
	free(fm);
}

/* ---- the model on made-up records ---- */

#define MS 1000000ULL
enum { PID = 100, MAIN = 100, WORKER = 101 };

static struct ost_formats *formats(void)
{
	struct ost_formats *fm = malloc(sizeof(*fm));
	char err[128];

	assert_int_equal(ost_formats_parse(FORMATS, strlen(FORMATS), fm, err, sizeof(err)), 0);
	return fm;
}

static void tp(struct ost_model *m, uint64_t t, int tid, uint64_t id, const void *raw, size_t len,
	       uint32_t stack)
{
	assert_int_equal(
		ost_model_sample(m, &(struct ost_sample){ t, PID, tid, id, raw, len, stack }), 0);
}

static void enter(struct ost_model *m, uint64_t t, int tid, long nr, uint32_t stack)
{
	unsigned char raw[64] = { 0 };

	memcpy(raw + 8, &nr, 8);
	tp(m, t, tid, 24, raw, sizeof(raw), stack);
}

static void leave(struct ost_model *m, uint64_t t, int tid, long nr, long ret)
{
	unsigned char raw[24] = { 0 };

	memcpy(raw + 8, &nr, 8);
	memcpy(raw + 16, &ret, 8);
	tp(m, t, tid, 23, raw, sizeof(raw), OST_NO_STACK);
}

static void switch_out(struct ost_model *m, uint64_t t, int tid, long state, uint32_t stack)
{
	unsigned char raw[64] = { 0 };

	memcpy(raw + 32, &state, 8);
	tp(m, t, tid, 372, raw, sizeof(raw), stack);
	assert_int_equal(ost_model_switch(m, t + 1, PID, tid, true, state == 0), 0);
}

static void switch_in(struct ost_model *m, uint64_t t, int tid)
{
	assert_int_equal(ost_model_switch(m, t, PID, tid, false, false), 0);
}

static const struct ost_thread *thread(const struct ost_model *m, int tid)
{
	const struct ost_thread *t;
	size_t n = ost_model_threads(m, &t);

	for (size_t i = 0; i < n; i++)
		if (t[i].tid == tid)
			return &t[i];
	fail_msg("no thread %d", tid);
	return NULL;
}

static const struct ost_offcpu *offcpu(const struct ost_model *m, int tid, uint32_t stack)
{
	const struct ost_offcpu *o;
	size_t n = ost_model_offcpu(m, &o);

	for (size_t i = 0; i < n; i++)
		if (o[i].tid == tid && o[i].stack == stack)
			return &o[i];
	return NULL;
}

static void model_states(void **state)
{
	struct ost_formats *fm = formats();
	struct ost_model *m = ost_model_new(fm);
	const struct ost_thread *t;
	const struct ost_offcpu *o;
	const struct ost_wake *w;
	unsigned char wake[32] = { 0 };
	int worker = WORKER;

	ost_model_keep_spans(m, OST_SPANS_MAX); /* the timeline checked at the end */

	(void)state;
	/* main: runs 10 ms, sleeps 300 ms in clock_nanosleep (stack 7), runs 5, preempted
	 * 20, runs 5, exits */
	assert_int_equal(ost_model_begin(m, 0, PID, MAIN), 0);
	enter(m, 10 * MS, MAIN, SYS_clock_nanosleep, 7);
	switch_out(m, 10 * MS, MAIN, 1, 7);
	switch_in(m, 310 * MS + 1, MAIN);
	leave(m, 311 * MS, MAIN, SYS_clock_nanosleep, 0);
	switch_out(m, 315 * MS, MAIN, 0, 8); /* preempted: runnable */
	switch_in(m, 335 * MS + 1, MAIN);
	/* worker: begins at 400, waits on a futex (stack 9) from 401, main wakes it at 600
	 * (main's stack 11), on the CPU at 610, exits at 620 */
	assert_int_equal(ost_model_begin(m, 400 * MS, PID, WORKER), 0);
	switch_in(m, 400 * MS, WORKER);
	enter(m, 401 * MS, WORKER, SYS_futex, 9);
	switch_out(m, 401 * MS, WORKER, 1, 9);
	memcpy(wake + 24, &worker, 4);
	assert_int_equal(ost_model_sample(m, &(struct ost_sample){ 600 * MS, PID, MAIN, 375, wake,
								   sizeof(wake), 11 }),
			 0);
	switch_in(m, 610 * MS + 1, WORKER);
	leave(m, 611 * MS, WORKER, SYS_futex, 0);
	assert_int_equal(ost_model_exit(m, 620 * MS, PID, WORKER), 0);
	/* a read of 4096 bytes and a failed open */
	enter(m, 621 * MS, MAIN, SYS_read, OST_NO_STACK);
	leave(m, 622 * MS, MAIN, SYS_read, 4096);
	enter(m, 623 * MS, MAIN, SYS_openat, OST_NO_STACK);
	leave(m, 623 * MS + 500, MAIN, SYS_openat, -2);
	/* a sys_exit record too short for its ret: unparsable, not a call */
	tp(m, 624 * MS, MAIN, 23, wake, 12, OST_NO_STACK);
	assert_int_equal(ost_model_exit(m, 700 * MS, PID, MAIN), 0);
	ost_model_finish(m, 800 * MS);

	t = thread(m, MAIN);
	assert_int_equal(t->start, 0);
	assert_int_equal(t->end, 700 * MS);
	assert_int_equal(t->state_ns[OST_BLOCKED], 300 * MS);
	assert_int_equal(t->blocked_ns[OST_WAIT_SLEEP], 300 * MS);
	assert_int_equal(t->state_ns[OST_RUNNABLE], 20 * MS);
	assert_int_equal(t->state_ns[OST_RUNNING], 380 * MS);
	assert_int_equal(t->unaccounted_ns, 0);
	assert_int_equal(t->preemptions, 1);
	t = thread(m, WORKER);
	assert_int_equal(t->end - t->start, 220 * MS);
	assert_int_equal(t->blocked_ns[OST_WAIT_LOCK], 199 * MS - 1); /* out at 401+1 ns */
	assert_int_equal(t->state_ns[OST_RUNNABLE], 10 * MS + 1);     /* woken to on-CPU */
	assert_int_equal(t->state_ns[OST_RUNNING] + t->state_ns[OST_RUNNABLE] +
				 t->state_ns[OST_BLOCKED],
			 220 * MS);
	assert_int_equal(t->wakeups, 1);

	o = offcpu(m, MAIN, 7);
	assert_non_null(o);
	assert_int_equal(o->wait, OST_WAIT_SLEEP);
	assert_int_equal(o->ns, 300 * MS);
	assert_null(offcpu(m, MAIN, 8)); /* a preemption is not a wait */
	o = offcpu(m, WORKER, 9);
	assert_int_equal(o->wait, OST_WAIT_LOCK);
	assert_int_equal(o->ns, 209 * MS);
	assert_int_equal(ost_model_wakes(m, &w), 1);
	assert_int_equal(w->waker_tid, MAIN);
	assert_int_equal(w->waker_stack, 11);
	assert_int_equal(w->stack, 9);

	/* the timeline: each thread's state spans back to back over its life, adding up to
	 * its sums by state and kind; a span per call */
	{
		const struct ost_span *sp;
		uint64_t left_out, sum[2][4] = { { 0 } }, lock = 0, end[2] = { 0, 400 * MS };
		size_t n = ost_model_spans(m, &sp, &left_out), ncalls[2] = { 0 };

		assert_int_equal(left_out, 0);
		for (size_t i = 0; i < n; i++) {
			int who = sp[i].tid == WORKER;

			assert_true(sp[i].end > sp[i].begin);
			if (sp[i].kind == OST_SPAN_CALL) {
				ncalls[who]++;
				continue;
			}
			assert_int_equal(sp[i].begin, end[who]); /* back to back */
			end[who] = sp[i].end;
			sum[who][sp[i].kind] += sp[i].end - sp[i].begin;
			if (sp[i].kind == OST_SPAN_BLOCKED && sp[i].wait == OST_WAIT_LOCK)
				lock += sp[i].end - sp[i].begin;
		}
		for (int who = 0; who < 2; who++) {
			t = thread(m, who ? WORKER : MAIN);
			assert_int_equal(end[who], t->end);
			for (int k = 0; k < OST_NSTATES; k++)
				assert_int_equal(sum[who][k], t->state_ns[k]);
		}
		assert_int_equal(lock, 199 * MS - 1);
		assert_int_equal(ncalls[0], 3); /* clock_nanosleep, read, openat */
		assert_int_equal(ncalls[1], 1); /* futex */
	}

	{
		const struct ost_call_stat *c;
		size_t n = ost_model_calls(m, &c);
		const struct ost_slow_call *s;
		int seen = 0;

		for (size_t i = 0; i < n; i++) {
			if (c[i].nr == SYS_read) {
				assert_int_equal(c[i].bytes, 4096);
				assert_int_equal(c[i].errors, 0);
				seen++;
			}
			if (c[i].nr == SYS_openat) {
				assert_int_equal(c[i].errors, 1);
				assert_int_equal(c[i].total_ns, 500);
				seen++;
			}
		}
		assert_int_equal(seen, 2);
		assert_true(ost_model_slow(m, &s) >= 3);
		assert_int_equal(s[0].nr, SYS_clock_nanosleep); /* slowest first */
		assert_int_equal(s[0].ns, 301 * MS);
		assert_int_equal(s[0].stack, 7);
	}
	assert_int_equal(ost_model_counts(m)->unparsable, 1);
	/* main's sleep ended with no wakeup recorded (its timer woke it); the worker's lock
	 * wait had its waker: only the sleep is an unseen wakeup */
	assert_int_equal(ost_model_counts(m)->unseen_wakeups[OST_WAIT_SLEEP], 1);
	assert_int_equal(ost_model_counts(m)->unseen_wakeups[OST_WAIT_LOCK], 0);
	assert_int_equal(ost_model_counts(m)->unseen_wakeups[OST_WAIT_IO], 0);
	assert_int_equal(ost_model_counts(m)->unseen_wakeups[OST_WAIT_OTHER], 0);
	ost_model_free(m);
	free(fm);
}

/* main runs, sleeps 300 ms, runs, is preempted 20 ms, runs, exits: with at most @max
 * spans kept */
static struct ost_model *spans_run(struct ost_formats *fm, size_t max)
{
	struct ost_model *m = ost_model_new(fm);

	ost_model_keep_spans(m, max);
	assert_int_equal(ost_model_begin(m, 0, PID, MAIN), 0);
	enter(m, 10 * MS, MAIN, SYS_clock_nanosleep, 7);
	switch_out(m, 10 * MS, MAIN, 1, 7);
	switch_in(m, 310 * MS + 1, MAIN);
	leave(m, 311 * MS, MAIN, SYS_clock_nanosleep, 0);
	switch_out(m, 315 * MS, MAIN, 0, 8);
	switch_in(m, 335 * MS + 1, MAIN);
	assert_int_equal(ost_model_exit(m, 700 * MS, PID, MAIN), 0);
	ost_model_finish(m, 800 * MS);
	return m;
}

/* The spans kept for a timeline: each thread's states back to back, each state's spans
 * summing to the thread's total of it, a span per call; past the bound, counted as left
 * out and the totals unchanged; not asked, none kept and none counted. */
static void model_spans(void **state)
{
	struct ost_formats *fm = formats();
	struct ost_model *m = spans_run(fm, 100);
	const struct ost_span *s;
	const struct ost_thread *t = thread(m, MAIN);
	uint64_t lost, sum[OST_NSTATES] = { 0 }, end = 0;
	size_t n = ost_model_spans(m, &s, &lost), nstates = 0, ncalls = 0;
	int kinds[8] = { 0 };

	(void)state;
	assert_int_equal(lost, 0);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(s[i].tid, MAIN);
		if (s[i].kind == OST_SPAN_CALL) {
			ncalls++;
			continue;
		}
		assert_true(s[i].begin == end && s[i].end > s[i].begin);
		end = s[i].end;
		sum[s[i].kind] += s[i].end - s[i].begin;
		if (nstates < 8)
			kinds[nstates] = s[i].kind;
		nstates++;
	}
	assert_int_equal(nstates, 5); /* running, blocked, running, runnable, running */
	assert_int_equal(ncalls, 1);  /* the clock_nanosleep */
	assert_int_equal(kinds[1], OST_SPAN_BLOCKED);
	assert_int_equal(kinds[3], OST_SPAN_RUNNABLE);
	for (int k = 0; k < OST_NSTATES; k++)
		assert_int_equal(sum[k], t->state_ns[k]);
	assert_int_equal(end, 700 * MS);
	ost_model_free(m);

	m = spans_run(fm, 2);
	n = ost_model_spans(m, &s, &lost);
	assert_int_equal(n, 2);
	assert_int_equal(lost, 4); /* three states and the call */
	assert_int_equal(thread(m, MAIN)->state_ns[OST_BLOCKED], 300 * MS);
	ost_model_free(m);

	m = spans_run(fm, 0); /* not asked: none kept, none counted */
	assert_int_equal(ost_model_spans(m, &s, &lost), 0);
	assert_int_equal(lost, 0);
	ost_model_free(m);
	free(fm);
}

/* --max-threads 1: the first thread is modelled, a second is left out and its records
 * counted; a wakeup of it and its exit change nothing */
static void model_max_threads(void **state)
{
	struct ost_formats *fm = formats();
	struct ost_model *m;
	const struct ost_thread *t;
	const struct ost_counts *c;

	(void)state;
	fm->max_threads = 1;
	m = ost_model_new(fm);
	assert_int_equal(ost_model_begin(m, 0, PID, MAIN), 0);
	switch_in(m, 0, MAIN);
	assert_int_equal(ost_model_begin(m, 10 * MS, PID, WORKER), 0); /* left out: 1 */
	switch_in(m, 10 * MS, WORKER);				       /* 2 */
	enter(m, 11 * MS, WORKER, SYS_read, OST_NO_STACK);	       /* 3 */
	switch_out(m, 11 * MS, WORKER, 1, OST_NO_STACK);	       /* 4, 5 */
	assert_int_equal(ost_model_exit(m, 20 * MS, PID, WORKER), 0);
	assert_int_equal(ost_model_exit(m, 30 * MS, PID, MAIN), 0);
	ost_model_finish(m, 40 * MS);
	assert_int_equal(ost_model_threads(m, &t), 1);
	assert_int_equal(t->tid, MAIN);
	assert_int_equal(t->state_ns[OST_RUNNING], 30 * MS);
	c = ost_model_counts(m);
	assert_int_equal(c->threads_left_out, 1);
	assert_int_equal(c->left_out_records, 5);
	assert_int_equal(ost_model_max_threads(m), 1);
	assert_int_equal(ost_model_offcpu(m, &(const struct ost_offcpu *){ NULL }), 0);
	ost_model_free(m);
	free(fm);
}

static void syscall_kinds(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(ost_syscall_wait(SYS_clock_nanosleep), OST_WAIT_SLEEP);
	assert_int_equal(ost_syscall_wait(SYS_futex), OST_WAIT_LOCK);
	assert_int_equal(ost_syscall_wait(SYS_read), OST_WAIT_IO);
	assert_int_equal(ost_syscall_wait(SYS_getppid), OST_WAIT_OTHER);
	assert_string_equal(ost_syscall_name(SYS_getppid, buf, sizeof(buf)), "getppid");
	assert_string_equal(ost_syscall_name(99999, buf, sizeof(buf)), "syscall_99999");
}

/* lib/session's codec: a sample's PERF_SAMPLE_RAW decoded (where --trace os reads its
 * fields) and encoded back; cut records refused; a PERF_RECORD_SWITCH's time and task. */
static void raw_samples(void **state)
{
	struct perf_event_attr a = { .size = sizeof(a),
				     .type = PERF_TYPE_TRACEPOINT,
				     .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
						    PERF_SAMPLE_TIME | PERF_SAMPLE_RAW,
				     .sample_id_all = 1 };
	unsigned char raw[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
	struct ses_sample in = { .id = 7,
				 .pid = PID,
				 .tid = WORKER,
				 .time = 123456,
				 .raw = raw,
				 .raw_size = sizeof(raw) };
	unsigned char buf[256];
	struct ses_sample out;
	struct ses_decoded d;
	int n;

	(void)state;
	n = ses_encode_sample(buf, sizeof(buf), &a, &in);
	assert_true(n > 0);
	assert_int_equal(ses_decode_sample(&a, buf, (size_t)n, &out), 0);
	assert_int_equal(out.raw_size, 12);
	assert_memory_equal(out.raw, raw, 12);
	assert_int_equal(out.time, 123456);
	/* every cut of it is refused (its header says more than there is) */
	for (int k = 8; k < n; k++) {
		struct perf_event_header h;

		memcpy(&h, buf, sizeof(h));
		h.size = (uint16_t)k;
		memcpy(buf, &h, sizeof(h));
		assert_int_not_equal(ses_decode_sample(&a, buf, (size_t)k, &out), 0);
	}
	/* a raw size the kernel never writes (u32 + data not a multiple of 8) */
	in.raw_size = 11;
	assert_int_equal(ses_encode_sample(buf, sizeof(buf), &a, &in), -EINVAL);
	/* a sample that says its raw part is longer than the record */
	in.raw_size = 12;
	n = ses_encode_sample(buf, sizeof(buf), &a, &in);
	buf[8 + 24] = 200; /* the u32 size after id, tid and time */
	assert_int_equal(ses_decode_sample(&a, buf, (size_t)n, &out), -EINVAL);
	/* PERF_RECORD_SWITCH: its sample_id trailer (tid, time, id here) */
	{
		unsigned char sw[8 + 24] = { 0 };
		struct perf_event_header h = { PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT,
					       sizeof(sw) };
		uint32_t pt[2] = { PID, WORKER };
		uint64_t t = 999, id = 7;

		memcpy(sw, &h, sizeof(h));
		memcpy(sw + 8, pt, 8);
		memcpy(sw + 16, &t, 8);
		memcpy(sw + 24, &id, 8);
		assert_int_equal(ses_decode(&a, sw, sizeof(sw), &d), 0);
		assert_int_equal(d.u.sw.tid, WORKER);
		assert_int_equal(ses_decoded_time(&d), 999);
		assert_true(d.misc & PERF_RECORD_MISC_SWITCH_OUT);
	}
}

/* Function calls counted per thread and per slice, exactly; a record of no function's
 * address counted apart. */
static void model_funcs(void **state)
{
	struct ost_formats *fm = malloc(sizeof(*fm));
	const struct ost_func_count *c;
	const struct ost_func_slice *sl;
	struct ost_model *m;
	char err[128];
	uint64_t per_slice[2][3] = { { 0 } };
	size_t n;

	(void)state;
	assert_int_equal(ost_formats_parse(FUNCS, strlen(FUNCS), fm, err, sizeof(err)), 0);
	m = ost_model_new(fm);
	ost_model_func_slices(m, 1000, 10 * 1000000ULL); /* 10 ms slices from t=1000 ns */
	/* main calls function 0 seven times in the first 30 ms, the worker function 1 three
	 * times at 5, 15 and 25 ms after the origin, and 2 records name no function */
	for (int i = 0; i < 7; i++)
		assert_int_equal(ost_model_func_call(m, 1000 + (uint64_t)i * 4000000, PID, MAIN, 0), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(
			ost_model_func_call(m, 1000 + 5000000 + (uint64_t)i * 10000000, PID, WORKER, 1),
			0);
	assert_int_equal(ost_model_func_call(m, 2000, PID, MAIN, -1), 0);
	assert_int_equal(ost_model_func_call(m, 2000, PID, MAIN, 2), 0); /* past nfuncs */
	/* a record before the origin is in the first slice */
	assert_int_equal(ost_model_func_call(m, 10, PID, MAIN, 0), 0);
	ost_model_finish(m, 40 * 1000000ULL);
	assert_int_equal(ost_model_counts(m)->func_calls, 11);
	assert_int_equal(ost_model_counts(m)->func_unmatched, 2);
	n = ost_model_func_counts(m, &c);
	assert_int_equal(n, 2);
	assert_int_equal(c[0].func, 0);
	assert_int_equal(c[0].tid, MAIN);
	assert_int_equal(c[0].calls, 8);
	assert_int_equal(c[1].func, 1);
	assert_int_equal(c[1].tid, WORKER);
	assert_int_equal(c[1].calls, 3);
	assert_int_equal(ost_model_func_slice_ns(m), 10 * 1000000ULL);
	n = ost_model_func_slice_counts(m, &sl);
	for (size_t i = 0; i < n; i++) {
		assert_true(sl[i].slice < 3);
		per_slice[sl[i].func][sl[i].slice] += sl[i].calls;
	}
	/* main at 0, 4, 8 | 12, 16 | 20, 24 ms (+ the early one); the worker at 5, 15, 25 */
	assert_int_equal(per_slice[0][0], 4);
	assert_int_equal(per_slice[0][1], 2);
	assert_int_equal(per_slice[0][2], 2);
	for (int k = 0; k < 3; k++)
		assert_int_equal(per_slice[1][k], 1);
	ost_model_free(m);
	free(fm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(format_fields),  cmocka_unit_test(format_truncated),
		cmocka_unit_test(format_corrupt), cmocka_unit_test(field_bounds),
		cmocka_unit_test(formats_file),	  cmocka_unit_test(model_states),
		cmocka_unit_test(syscall_kinds),  cmocka_unit_test(raw_samples),
		cmocka_unit_test(model_spans),	  cmocka_unit_test(model_max_threads),
		cmocka_unit_test(funcs_file),	  cmocka_unit_test(model_funcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
