// SPDX-License-Identifier: MIT
/*
 * uprof collect and the control pages of instrumented processes (docs/DESIGN.md §5).
 *
 * Discovery: inotify on /dev/shm reports each new uprof.<pid>; a page is taken when its
 * session token is ours (every process of the run inherits UPROF_SESSION). A page is
 * created empty and published a moment later, so a page that is not ready yet is retried.
 *
 * One thread per page waits on the page's request futex (or 10 ms), then: applies the
 * pause/resume records to the kernel events (the latest call by time stamp wins, across
 * all processes of the run), acknowledges strict callers, and drains task records and
 * new strings into instrument/<pid>.tasks. Pause intervals go to pauses.csv at the end.
 * The rules (which call wins, how calls become intervals) are lib/session's
 * ses_pause_state_feed() and ses_pauses_arbitrate(); this file only feeds them. It is
 * also where the control page's codes become the session files' own (session.h), so the
 * ABI can be renumbered without changing what sessions on disk mean.
 */
#include "cli/collect_pages.h"
#include "instrument/ctlpage.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const char *const CMD = "collect";

static void add_event(struct collect_pages *c, const struct ses_pause_call *ev)
{
	if (c->nevents == c->capevents) {
		size_t cap = c->capevents ? c->capevents * 2 : 64;
		struct ses_pause_call *g = realloc(c->events, cap * sizeof(*g));

		if (!g) { /* out of memory: the interval is lost, sampling still follows */
			c->lost_calls++;
			return;
		}
		c->events = g;
		c->capevents = cap;
	}
	c->events[c->nevents++] = *ev;
}

/* The kernel events follow the programs' state unless uprof holds them off. Locked. */
static void set_kernel(struct collect_pages *c)
{
	bool paused = c->programs.paused || c->held;

	if (paused != c->kernel_paused) {
		collect_events_enable(c->st, !paused);
		c->kernel_paused = paused;
	}
}

/* A pause or resume from any process: the newest call decides the programs' state. */
static void apply(struct collect_pages *c, struct page_worker *w, struct ses_pause_call *ev)
{
	int64_t now = cli_now_ns(CLOCK_MONOTONIC);

	pthread_mutex_lock(&c->lock);
	/* fed first: a stamp from the future is clamped to now, and recorded so */
	if (ses_pause_state_feed(&c->programs, ev, now, &c->future_stamps))
		set_kernel(c);
	add_event(c, ev);
	smp_page_set_active(w->page, !c->kernel_paused);
	pthread_mutex_unlock(&c->lock);
}

/* Pause records dropped by @w's ring: the session's state is unknown in [from, to]. A
 * gap that cannot be kept (no memory) widens the one before it to the end of the run, or
 * with none before it makes the whole run unknown: unknown is still true, a hole would
 * not be. */
static void on_pause_gap(void *arg, const struct smp_pause_gap *gap)
{
	struct page_worker *w = arg;
	struct collect_pages *c = w->ctx;
	struct ses_pause_unknown u = { smp_page_pid(w->page), gap->from_ns, gap->to_ns,
				       gap->by_state };
	/* ended by the page's state word: from to_ns on, it counts as a call saying so,
	 * live (the kernel follows it) and in pauses.csv */
	struct ses_pause_call ev = { gap->to_ns, u.pid, gap->paused, SES_PAUSE_API };

	if (gap->by_state)
		apply(c, w, &ev);
	pthread_mutex_lock(&c->lock);
	c->gap_records += gap->dropped;
	if (c->ngaps == c->capgaps) {
		size_t cap = c->capgaps ? c->capgaps * 2 : 16;
		struct ses_pause_unknown *g = realloc(c->gaps, cap * sizeof(*g));

		if (g) {
			c->gaps = g;
			c->capgaps = cap;
		}
	}
	if (c->ngaps < c->capgaps)
		c->gaps[c->ngaps++] = u;
	else if (c->ngaps)
		c->gaps[c->ngaps - 1].to = INT64_MAX;
	else
		c->gap_all = (struct ses_pause_unknown){ u.pid, INT64_MIN, INT64_MAX, false };
	pthread_mutex_unlock(&c->lock);
}

void collect_pages_release_hold(struct collect_state *st)
{
	struct collect_pages *c = st->pages;

	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->held = false;
	set_kernel(c);
	for (int i = 0; i < c->nworkers; i++)
		smp_page_set_active(c->workers[i]->page, !c->kernel_paused);
	pthread_mutex_unlock(&c->lock);
}

/* The control page's how (enum uprof_ctl_how) as the session's (enum ses_pause_how). */
static uint16_t session_how(uint16_t how)
{
	switch (how) {
	case UPROF_HOW_API_STRICT:
		return SES_PAUSE_API_STRICT;
	case UPROF_HOW_ITT:
		return SES_PAUSE_ITT;
	default:
		return SES_PAUSE_API;
	}
}

/* The control page's task record kind as the .tasks file's; 0 for one it has no code for. */
static uint16_t session_kind(uint16_t kind)
{
	switch (kind) {
	case UPROF_REC_TASK_BEGIN:
		return SES_TASK_BEGIN;
	case UPROF_REC_TASK_END:
		return SES_TASK_END;
	case UPROF_REC_EVENT_START:
		return SES_EVENT_START;
	case UPROF_REC_EVENT_END:
		return SES_EVENT_END;
	case UPROF_REC_THREAD_NAME:
		return SES_THREAD_NAME;
	default:
		return 0;
	}
}

static void on_pause_record(void *arg, const struct uprof_ctl_record *r)
{
	struct page_worker *w = arg;
	struct ses_pause_call ev = { (int64_t)r->time_ns, smp_page_pid(w->page),
				     r->kind == UPROF_REC_PAUSE, session_how(r->how) };

	apply(w->ctx, w, &ev);
}

static void on_task_record(void *arg, const struct uprof_ctl_record *r)
{
	struct page_worker *w = arg;
	struct ses_task_record out = { r->time_ns, r->tid, session_kind(r->kind),
				       r->how & UPROF_FLAG_GAP ? SES_TASK_GAP : 0, r->domain,
				       r->name };

	if (r->kind >= UPROF_REC_OMP_FIRST && r->kind <= UPROF_REC_OMP_LAST) {
		struct ses_ompt_record o;

		if (w->ompt && collect_omp_record(r, &o))
			ses_ompt_write_record(w->ompt, &o);
		return;
	}
	if (out.kind)
		ses_tasks_write_record(w->tasks, &out);
}

static int on_string(void *arg, uint32_t id, const char *s, size_t len)
{
	struct page_worker *w = arg;

	if (w->ompt) /* the runtime's name is among them */
		ses_ompt_write_string(w->ompt, id, s, len);
	return ses_tasks_write_string(w->tasks, id, s, len);
}

/* One pass over a page: pauses first (a strict caller is waiting for them), then names,
 * then as many task records as there are. */
static void service(struct page_worker *w, bool signaled)
{
	smp_page_sync_clock(w->page); /* one clock map for both rings of this pass */
	smp_page_drain(w->page, true, on_pause_record, w);
	if (signaled)
		smp_page_ack(w->page);
	smp_page_strings(w->page, on_string, w);
	while (smp_page_drain(w->page, false, on_task_record, w) > 0)
		smp_page_strings(w->page, on_string, w);
}

/* A process that ended without its exit handler (_exit, a crash, a truncated page)
 * leaves its page, and so does one that ended before we found it (lib/instrument's
 * at_exit). Ended: gone, or a zombie not reaped yet (it runs no code any more). */
static void unlink_if_dead(int pid)
{
	char name[64];

	if (smp_proc_ended(pid)) {
		snprintf(name, sizeof(name), "/" UPROF_CTL_SHM_PREFIX "%d", pid);
		shm_unlink(name);
	}
}

static void *worker_main(void *arg)
{
	struct page_worker *w = arg;

	while (!__atomic_load_n(&w->ctx->stop, __ATOMIC_ACQUIRE)) {
		bool signaled = smp_page_wait(w->page, WAIT_MS);

		service(w, signaled);
		if (smp_page_faulted(w->page))
			break; /* its process truncated it: nothing more to read */
		if (smp_page_exiting(w->page)) {
			service(w, false); /* the target is waiting for exactly this */
			/* one that ended before we found its page left it to us: all is read */
			unlink_if_dead(smp_page_pid(w->page));
			break;
		}
	}
	return NULL;
}

static void finish_worker(struct page_worker *w)
{
	uint64_t records, names;
	int pid = smp_page_pid(w->page);

	if (w->started)
		pthread_join(w->thread, NULL);
	service(w, false);
	smp_page_flush_gap(w->page); /* drops after the last record: unknown to the end */
	if (smp_page_faulted(w->page))
		cli_warn(CMD, "pid %d's control page was truncated while uprof read it; its tasks "
			      "and pauses from then on are not in this session",
			 pid);
	smp_page_dropped(w->page, &records, &names);
	ses_tasks_write_dropped(w->tasks, records, names);
	w->ctx->st->info.lost_task_records += records;
	ses_tasks_writer_close(w->tasks);
	if (w->ompt)
		ses_ompt_write_dropped(w->ompt, records);
	if (ses_ompt_writer_close(w->ompt))
		cli_warn(CMD, "could not write the OpenMP records of pid %d", pid);
	smp_page_close(w->page);
	unlink_if_dead(pid);
	free(w);
}

/* Attach mode: a page older than the process is a dead process's, left by a crash or a
 * SIGKILL, and the pid has been reused since; the process it names now did not write it.
 * (A clock tick of slack: the kernel keeps the start time in ticks.) Only a page of the
 * process's own uid gets here (smp_page_open_at's owner check), so this is about bad
 * luck, not forgery: a stamp is what its writer says. */
static bool page_predates(const struct smp_page *page, int pid)
{
	int64_t created = smp_page_created_mono_ns(page), started = smp_proc_start_mono_ns(pid);

	return created > 0 && started > 0 && created + 20000000 < started;
}

/* Take the page of @pid. 0, -EAGAIN (retry later) or another -errno (give up); @why
 * says why smp_page_open_at refused it. */
static int adopt(struct collect_pages *c, int pid, struct smp_page_why *why)
{
	struct page_worker *w;
	struct smp_page *page;
	int ret;

	memset(why, 0, sizeof(*why));
	for (int i = 0; i < c->nworkers; i++)
		if (smp_page_pid(c->workers[i]->page) == pid)
			return 0;
	/* launch mode: our token proves the page is of this run; attach mode: the process
	 * (or an ancestor) is one we attached to, and its page carries no token */
	if (c->st->attach && !collect_attach_owns(c->st, pid))
		return -EPERM;
	if (c->nworkers >= c->max_pages) { /* before the page is touched: it stays as it is */
		/* launch mode: only a page of this run counts (its token, read without
		 * touching it); a page another run or a killed process left is not ours to
		 * count, and one not published yet is tried again */
		if (!c->st->attach) {
			char tok[sizeof(c->st->token)];
			int r = smp_page_peek_session(SHM_DIR, pid, tok, sizeof(tok));

			if (r)
				return r;
			if (strcmp(tok, c->st->token))
				return -EINVAL;
		}
		/* once a pid: the page is tried again at the end (rescan) */
		if (!pages_pidlist_has(&c->over, pid)) {
			c->over_pages++;
			pages_pidlist_add(&c->over, pid, MAX_WARNED);
		}
		return -E2BIG;
	}
	ret = smp_page_open_at(&page, SHM_DIR, pid, c->st->attach ? NULL : c->st->token,
			       (uint32_t)getpid(), why);
	if (ret)
		return ret;
	if (c->st->attach && page_predates(page, pid)) {
		smp_page_close(page);
		return -ESTALE;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		smp_page_close(page);
		return -ENOMEM;
	}
	w->page = page;
	w->ctx = c;
	smp_page_on_gap(page, on_pause_gap, w);
	w->tasks = ses_tasks_writer_open(c->st->session_dir, pid);
	if (!w->tasks) {
		cli_warn(CMD, "cannot write task records of pid %d: %s", pid, strerror(errno));
		smp_page_close(page);
		free(w);
		return -EIO;
	}
	if (c->st->omp.on) {
		w->ompt = ses_ompt_writer_open(c->st->session_dir, pid,
					       c->st->omp.omplib ? SES_OMPT_IMPL_OMPLIB
								 : SES_OMPT_IMPL_OMPT,
					       c->st->omp.full ? SES_OMPT_SCOPE_FULL
							       : SES_OMPT_SCOPE_BASIC);
		if (!w->ompt)
			cli_warn(CMD, "cannot write the OpenMP records of pid %d: %s", pid,
				 strerror(errno));
	}
	smp_page_set_active(page, !c->kernel_paused);
	w->started = !pthread_create(&w->thread, NULL, worker_main, w);
	c->workers[c->nworkers++] = w;
	return 0;
}

/* A page file named after a pid no process has (yet): anyone can make one for the pid a
 * process of this run will get, and that process's library cannot replace a file of
 * another user in /dev/shm (sticky) unless it runs as root: remembered, and looked at
 * again while the run goes on (recheck_squatted). */
static void squatted(struct collect_pages *c, int pid)
{
	if (pages_pidlist_has(&c->squatted, pid))
		return;
	if (!pages_pidlist_add(&c->squatted, pid, MAX_WARNED))
		c->over_squatted++;
}

static bool settle(struct collect_pages *c, int pid, int ret, const struct smp_page_why *why);
static void try_pid(struct collect_pages *c, int pid);

/* The squatted names whose pid is a process now: its page is what it is (a process of
 * this run that cannot have its own is said, by the owner check); one of root's will
 * replace the file itself (its library removes a page it did not make), so no word. */
static void recheck_squatted(struct collect_pages *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->squatted.n; i++) {
		int pid = c->squatted.v[i];
		struct smp_page_why why;
		int ret;

		if (kill(pid, 0) && errno == ESRCH) {
			c->squatted.v[n++] = pid; /* not yet */
			continue;
		}
		ret = adopt(c, pid, &why);
		if (ret == -EPERM && why.reason == SMP_PAGE_OWNER && why.uid == 0)
			continue;
		if (ret == -ESRCH && why.reason == SMP_PAGE_NO_PROCESS) {
			c->squatted.v[n++] = pid; /* gone again: a pid reused by a short life */
			continue;
		}
		if (settle(c, pid, ret, &why))
			try_pid(c, pid); /* not published yet: waits as any page does */
	}
	c->squatted.n = n;
}

/* What an attempt at @pid's page came to: taken, waiting, or refused and said. True
 * while it is worth trying again. */
static bool settle(struct collect_pages *c, int pid, int ret, const struct smp_page_why *why)
{
	if (ret == -EAGAIN)
		return true;
	/* a process of ours whose page went before we read it: its library leaves it for a
	 * running uprof, so this is one that removed it some other way; said, counted */
	if (ret == -ENOENT && !c->st->attach && pages_of_this_run(c, pid))
		c->vanished++;
	else if (ret == -EPROTONOSUPPORT)
		pages_refused(c, pid);
	else if (ret == -ESRCH && why->reason == SMP_PAGE_NO_PROCESS)
		squatted(c, pid);
	else if (ret == -EBUSY && c->st->attach && !c->st->system_wide)
		cli_warn(CMD, "pid %d's instrumentation is read by another uprof collect; its tasks "
			      "and pauses are not in this session",
			 pid);
	else if (ret)
		pages_warn_refused(c, pid, why);
	return false;
}

static void try_pid(struct collect_pages *c, int pid)
{
	struct smp_page_why why;
	struct pending *g;

	if (!settle(c, pid, adopt(c, pid, &why), &why))
		return;
	for (size_t i = 0; i < c->npending; i++)
		if (c->pending[i].pid == pid)
			return;
	if (c->npending >= c->max_pending) {
		if (!pages_pidlist_has(&c->unwaited, pid)) { /* once a pid: rescans try again */
			c->over_pending++;
			pages_pidlist_add(&c->unwaited, pid, MAX_WARNED);
		}
		return;
	}
	if (c->npending == c->cappending) {
		size_t cap = c->cappending ? c->cappending * 2 : 64;

		g = realloc(c->pending, cap * sizeof(*g));
		if (!g) {
			c->over_pending++;
			return;
		}
		c->pending = g;
		c->cappending = cap;
	}
	c->pending[c->npending++] = (struct pending){ pid, cli_now_ns(CLOCK_MONOTONIC) };
}

/* The program is told where our instrumentation library is, the one next to this binary
 * (build/bin/uprof -> build/lib/, <prefix>/bin/uprof -> <prefix>/lib/), in every variable
 * a loader of it reads, unless the user set that variable: INTEL_LIBITTNOTIFY64 for
 * programs using Intel's ITT API (and LLVM's libomp, which carries ITT's static part),
 * AMDUPROF_LIB for python/amd_instrument.py (which could not find it from a checkout). */
static void set_library_env(void)
{
	static const char *const vars[] = { "INTEL_LIBITTNOTIFY64", "AMDUPROF_LIB" };
	char lib[PATH_MAX], real[PATH_MAX];

	if (!cli_beside_exe("../lib/libAMDProfileController.so", lib, sizeof(lib)) ||
	    !realpath(lib, real) || access(real, R_OK))
		return;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (!getenv(vars[i]))
			setenv(vars[i], real, 1);
}

static void test_limit(const char *name, int *limit)
{
	const char *s = getenv(name);
	long v = s ? strtol(s, NULL, 10) : 0;

	if (v > 0 && v < *limit)
		*limit = (int)v;
}

static void test_limit_size(const char *name, size_t *limit)
{
	int v = *limit > INT_MAX ? INT_MAX : (int)*limit;

	test_limit(name, &v);
	*limit = (size_t)v;
}

static void rescan(struct collect_pages *c);

int collect_pages_start(struct collect_state *st)
{
	struct collect_pages *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	set_library_env();
	c->st = st;
	pthread_mutex_init(&c->lock, NULL);
	c->programs = (struct ses_pause_state){ INT64_MIN, st->start_paused };
	c->held = st->start_delay_s > 0;
	c->kernel_paused = c->programs.paused || c->held;
	c->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (c->inotify_fd >= 0 && inotify_add_watch(c->inotify_fd, SHM_DIR, IN_CREATE) < 0) {
		close(c->inotify_fd);
		c->inotify_fd = -1;
	}
	if (c->inotify_fd < 0)
		cli_warn(CMD, "cannot watch %s (%s): instrumented processes will not be seen",
			 SHM_DIR, strerror(errno));
	c->max_pages = MAX_PAGES;
	c->max_pending = MAX_PENDING;
	/* tests only (tests/e2e/page_limits.sh): the same bounds, lower, so that their
	 * overflow is seen without 4096 processes; never higher */
	test_limit("UPROF_TEST_MAX_PAGES", &c->max_pages);
	test_limit_size("UPROF_TEST_MAX_PENDING", &c->max_pending);
	st->pages = c;
	/* page files made before the run: none gets an inotify event */
	rescan(c);
	return 0;
}

void collect_pages_adopt_attached(struct collect_state *st)
{
	if (!st->pages)
		return;
	for (int i = 0; i < st->nattach; i++)
		try_pid(st->pages, st->attach_pids[i]);
}

int collect_pages_fd(const struct collect_state *st)
{
	return st->pages ? st->pages->inotify_fd : -1;
}

/* Pages made in the last second: their process publishes them in microseconds, so they
 * are retried every few ms; older empty ones (someone's leftovers) every 100 ms. */
bool collect_pages_busy(const struct collect_state *st)
{
	const struct collect_pages *c = st->pages;
	int64_t now;

	if (!c || !c->npending)
		return false;
	now = cli_now_ns(CLOCK_MONOTONIC);
	for (size_t i = 0; i < c->npending; i++)
		if (now - c->pending[i].seen_ns < YOUNG_NS)
			return true;
	return false;
}

/* Retry the pages that were not ready: the young ones each time, the old ones now and
 * then; keep those still worth waiting for. */
static void retry_pending(struct collect_pages *c)
{
	int64_t now = cli_now_ns(CLOCK_MONOTONIC);
	bool old_too = now - c->last_old_retry >= OLD_RETRY_NS;
	size_t n = 0;

	if (old_too)
		c->last_old_retry = now;
	for (size_t i = 0; i < c->npending; i++) {
		struct pending e = c->pending[i];
		struct smp_page_why why;

		if ((now - e.seen_ns < YOUNG_NS || old_too) &&
		    !settle(c, e.pid, adopt(c, e.pid, &why), &why))
			continue;
		c->pending[n++] = e;
	}
	c->npending = n;
}

static int page_pid(const char *name)
{
	size_t plen = strlen(UPROF_CTL_SHM_PREFIX);
	char *end;
	long pid;

	if (strncmp(name, UPROF_CTL_SHM_PREFIX, plen))
		return -1;
	pid = strtol(name + plen, &end, 10);
	return *end || pid <= 0 || pid > 0x7fffffff ? -1 : (int)pid;
}

/* The kernel's queue of inotify events overflowed (anyone can make files in /dev/shm
 * faster than we read): the names it dropped are found by reading the directory. */
static void rescan(struct collect_pages *c)
{
	DIR *d = opendir(SHM_DIR);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid = page_pid(e->d_name);

		if (pid > 0)
			try_pid(c, pid);
	}
	closedir(d);
}

void collect_pages_poll(struct collect_state *st)
{
	struct collect_pages *c = st->pages;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t len;

	if (!c)
		return;
	retry_pending(c);
	recheck_squatted(c);
	while (c->inotify_fd >= 0 && (len = read(c->inotify_fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			int pid = ev->len ? page_pid(ev->name) : -1;

			if (ev->mask & IN_Q_OVERFLOW)
				rescan(c);
			else if (pid > 0)
				try_pid(c, pid);
			p += sizeof(*ev) + ev->len;
		}
	}
}

/* The calls of every process, arbitrated into the session's intervals (pauses.csv). */
static void write_pauses(struct collect_pages *c, int64_t end_mono)
{
	struct collect_state *st = c->st;
	int64_t now = cli_now_ns(CLOCK_MONOTONIC);
	struct ses_pause_unknown *gaps = c->gaps;
	struct ses_pause_clamps clamps;
	size_t n, ngaps = c->ngaps;
	struct ses_pause *v;
	int ret;

	if (end_mono <= 0) /* the run stopped before it could say when it ended */
		end_mono = now;
	ret = ses_pauses_arbitrate(c->events, c->nevents, st->start_paused,
				   st->info.start_mono_ns, end_mono, now, &v, &n, &clamps);
	if (ret) {
		cli_warn(CMD, "cannot work out the paused intervals: %s", strerror(-ret));
		return;
	}
	/* early calls (--start-delay) and late ones (attached processes go on) are normal;
	 * a call from the future was clamped live (apply), so it is counted there */
	clamps.future += c->future_stamps;
	if (clamps.future)
		cli_warn(CMD, "%" PRIu64 " pause/resume call%s stamped later than uprof read %s; "
			      "counted as made when read",
			 clamps.future, clamps.future == 1 ? " was" : "s were",
			 clamps.future == 1 ? "it" : "them");
	/* what the targets' full rings dropped becomes unknown, never a guessed pause; one
	 * ended by a state word is unknown on while another process's call in it may be
	 * the newer (c->events is sorted by the arbiter now) */
	if (c->gap_all.to > c->gap_all.from) { /* no gap could be kept */
		gaps = &c->gap_all;
		ngaps = 1;
	}
	ses_pauses_widen_unknown(c->events, c->nevents, gaps, ngaps);
	if (ses_pauses_add_unknown(&v, &n, gaps, ngaps, st->info.start_mono_ns, end_mono))
		cli_warn(CMD, "cannot mark the stretches of dropped pause records: out of memory");
	st->info.pauses_max = SES_MAX_PAUSES;
	st->info.pauses_folded = ses_pauses_cap(v, &n, SES_MAX_PAUSES);
	if (st->info.pauses_folded)
		cli_warn(CMD, "pauses.csv holds at most %d rows: the last %" PRIu64 " are one "
			      "\"unknown\" row (%.3f s), their samples kept and counted",
			 SES_MAX_PAUSES, st->info.pauses_folded,
			 (double)(v[n - 1].resumed_at - v[n - 1].paused_at) / 1e9);
	st->info.pause_total_ns = ses_pauses_total(v, n);
	st->info.pause_unknown_ns = ses_pauses_unknown_total(v, n);
	st->info.lost_pause_records = c->gap_records;
	if (c->gap_records)
		cli_warn(CMD, "%" PRIu64 " pause/resume record%s dropped by full rings in the "
			      "target%s: the pause state is unknown for %.3f s (\"unknown\" rows in "
			      "pauses.csv; report counts their samples)",
			 c->gap_records, c->gap_records == 1 ? " was" : "s were",
			 c->gap_records == 1 ? "" : "s", (double)st->info.pause_unknown_ns / 1e9);
	ret = ses_pauses_write(st->session_dir, v, n);
	if (ret)
		cli_error(1, CMD, "cannot write pauses.csv: %s", strerror(-ret));
	free(v);
}

/* Pages not read for the bound on pages read at once: one of this run (its token, its
 * process's uid) whose process ended was left for us by its library and would stay in
 * /dev/shm for good; removed. Another run's is that run's business. */
static void drop_over(struct collect_pages *c)
{
	for (size_t i = 0; i < c->over.n; i++) {
		struct smp_page_why why;
		struct smp_page *page;

		if (smp_page_open_at(&page, SHM_DIR, c->over.v[i], c->st->attach ? NULL : c->st->token,
				     (uint32_t)getpid(), &why))
			continue;
		smp_page_close(page);
		unlink_if_dead(c->over.v[i]);
	}
}

void collect_pages_stop(struct collect_state *st, int64_t end_mono)
{
	struct collect_pages *c = st->pages;

	if (!c)
		return;
	collect_pages_poll(st); /* pages that appeared at the very end (and squatted names) */
	/* and every page of the run still in /dev/shm that we did not take yet: a process
	 * that ended before we found it left its page for us */
	rescan(c);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < c->nworkers; i++)
		finish_worker(c->workers[i]);
	for (size_t i = 0; i < c->refused.n; i++)
		unlink_if_dead(c->refused.v[i]);
	drop_over(c);
	if (c->inotify_fd >= 0)
		close(c->inotify_fd);
	pages_warn_overflows(c);
	write_pauses(c, end_mono);
	pthread_mutex_destroy(&c->lock);
	free(c->events);
	free(c->gaps);
	free(c->pending);
	free(c->refused.v);
	free(c->warned.v);
	free(c->squatted.v);
	free(c->over.v);
	free(c->unwaited.v);
	free(c);
	st->pages = NULL;
}
