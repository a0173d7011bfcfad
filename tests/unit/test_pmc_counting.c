// SPDX-License-Identifier: MIT
/*
 * lib/pmc/interval.c: counting at an interval, with software events of this process
 * (no PMU needed): the intervals' deltas add up to the total exactly, the last interval
 * ends at the duration, a stop asked before the first wait still gives one (partial)
 * interval, and a readable descriptor reaches the caller while waiting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "pmc/pmc.h"

static struct pmc_pmus *pmus;
static struct pmc_topo *topo;

struct seen {
	int intervals, fd_calls;
	bool stop;
	int pipe[2];
	uint64_t sum[2];
	int64_t elapsed, last_t, first_elapsed;
};

static void on_fd(void *arg)
{
	struct seen *s = arg;
	char b;

	s->fd_calls++;
	if (read(s->pipe[0], &b, 1) == 1)
		s->stop = true;
}

static bool stopped(void *arg)
{
	return ((struct seen *)arg)->stop;
}

static void on_interval(void *arg, const struct pmc_interval *iv)
{
	struct seen *s = arg;
	volatile double x = 1;

	for (int i = 0; i < 2; i++)
		s->sum[i] += iv->delta[i].value;
	if (!s->intervals)
		s->first_elapsed = iv->elapsed_ns;
	s->intervals++;
	s->elapsed += iv->elapsed_ns;
	s->last_t = iv->t_ns;
	assert_int_equal(iv->idle[0], 0); /* no idle reading asked for */
	for (int i = 0; i < 200000; i++)
		x = x * 1.0000001 + 1e-9; /* some task-clock for the next interval */
}

/* Open task-clock and context-switches on this process; NULL when perf_event is denied. */
static struct pmc_evlist *open_self(void)
{
	static const char *const specs[] = { "task-clock", "context-switches" };
	struct pmc_target t = { .pid = getpid() };
	struct pmc_evlist *l = pmc_evlist_new();
	char err[256];
	int failed, ret;

	assert_non_null(l);
	for (int i = 0; i < 2; i++) {
		struct pmc_event ev;

		assert_int_equal(
			pmc_event_parse(specs[i], strlen(specs[i]), pmus, &ev, err, sizeof(err)),
			0);
		assert_int_equal(pmc_evlist_add(l, &ev), i);
	}
	assert_int_equal(pmc_evlist_plan(l, pmus, topo, &t, err, sizeof(err)), 0);
	assert_int_equal(pmc_evlist_ncounters(l), 2);
	ret = pmc_evlist_open(l, &failed);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS) {
		pmc_evlist_free(l);
		return NULL;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(pmc_evlist_enable(l), 0);
	return l;
}

static void intervals_add_up_to_the_total(void **state)
{
	struct seen s = { .pipe = { -1, -1 } };
	const struct pmc_interval_ops ops = { -1, NULL, stopped, on_interval, &s };
	struct pmc_evlist *l = open_self();
	struct pmc_counting *c;
	struct pmc_interval total;
	int64_t t0;

	(void)state;
	if (!l)
		skip();
	assert_int_equal(pmc_counting_new(&c, l, false), 0);
	pmc_counting_baseline(c);
	pmc_counting_total(c, &total);
	t0 = total.t_ns;
	assert_int_equal(pmc_counting_loop(c, 20000000, 70000000, &ops), 0);
	pmc_counting_total(c, &total);
	assert_true(s.intervals >= 1 && s.intervals <= 4); /* 20, 40, 60, then 70 ms at most */
	assert_true(s.last_t >= t0 + 70000000);		   /* ends at the duration, not before */
	assert_true(total.t_ns == s.last_t);
	assert_true(total.elapsed_ns == s.elapsed); /* the intervals tile the run */
	assert_true(total.delta[0].value == s.sum[0]);
	assert_true(total.delta[1].value == s.sum[1]);
	assert_true(total.delta[0].value > 0); /* task-clock ran in on_interval */
	pmc_counting_free(c);
	pmc_counting_free(NULL);
	pmc_evlist_free(l);
}

static void a_stop_still_reads_once_and_the_fd_is_heard(void **state)
{
	struct seen s = { 0 };
	const struct pmc_interval_ops ops = { -1, on_fd, stopped, on_interval, &s };
	struct pmc_interval_ops piped = ops;
	struct pmc_evlist *l = open_self();
	struct pmc_counting *c;

	(void)state;
	if (!l)
		skip();
	assert_int_equal(pmc_counting_new(&c, l, false), 0);
	pmc_counting_baseline(c);
	s.stop = true; /* e.g. the program exited before the loop began */
	assert_int_equal(pmc_counting_loop(c, 1000000000, 0, &ops), 0);
	assert_int_equal(s.intervals, 1);
	assert_true(s.first_elapsed < 1000000000); /* the partial interval */
	/* a byte on the descriptor while waiting a second: on_fd, which stops the loop */
	memset(&s, 0, sizeof(s));
	assert_int_equal(pipe(s.pipe), 0);
	piped.fd = s.pipe[0];
	assert_int_equal(write(s.pipe[1], "x", 1), 1);
	assert_int_equal(pmc_counting_loop(c, 1000000000, 0, &piped), 0);
	assert_int_equal(s.fd_calls, 1);
	assert_int_equal(s.intervals, 1);
	assert_true(s.first_elapsed < 1000000000);
	close(s.pipe[0]);
	close(s.pipe[1]);
	pmc_counting_free(c);
	pmc_evlist_free(l);
}

static int setup(void **state)
{
	(void)state;
	return pmc_pmus_load(&pmus) || pmc_topo_load(&topo) ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	pmc_pmus_free(pmus);
	pmc_topo_free(topo);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intervals_add_up_to_the_total),
		cmocka_unit_test(a_stop_still_reads_once_and_the_fd_is_heard),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
