// SPDX-License-Identifier: MIT
/*
 * The control pages of a run (sampler.h, smp_pageset_*): the one drain thread, the pause
 * arbitration it feeds, and each page's side files. Discovery is pageset_find.c; the
 * intervals for pauses.csv are pageset_pauses.c.
 *
 * The drain thread sleeps on every page's doorbell (req_seq, ctlpage.h 2.4) and on the
 * set's own word (a page added, stop) with one futex_waitv, and looks at every page when
 * it wakes: pauses first (a strict caller waits for them), then names and task records.
 * The rules (which call wins, how calls become intervals) are lib/session's
 * ses_pause_state_feed() and ses_pauses_arbitrate(); this file only feeds them.
 */
#include "sampler/internal.h"
#include "instrument/ctlpage.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
#ifndef FUTEX_32
#define FUTEX_32 2
#endif
/* linux/futex.h's, spelled out for headers older than 5.16 */
struct pageset_waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

#define WAITV_MAX 128 /* the kernel's bound on futex_waitv's words */
#define SAFETY_MS 100 /* longest sleep with every page ringing its doorbell */
#define POLL_MS 10    /* sleep while some page does not ring (older minor, too many) */

int64_t smp_pageset_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void smp_pageset_say(struct smp_pageset *s, enum smp_pageset_what what, int pid, int err,
		     const struct smp_page_why *why)
{
	if (s->o.say)
		s->o.say(s->o.arg, what, pid, err, why);
}

void smp_pageset_unlink_if_dead(const struct smp_pageset *s, int pid)
{
	char name[512];

	if (smp_proc_ended(pid)) {
		snprintf(name, sizeof(name), "%s/" UPROF_CTL_SHM_PREFIX "%d", s->dir, pid);
		unlink(name);
	}
}

static void add_event(struct smp_pageset *s, const struct ses_pause_call *ev)
{
	if (s->nevents == s->capevents) {
		size_t cap = s->capevents ? s->capevents * 2 : 64;
		struct ses_pause_call *g = realloc(s->events, cap * sizeof(*g));

		if (!g) { /* out of memory: the interval is lost, sampling still follows */
			s->counts.lost_calls++;
			return;
		}
		s->events = g;
		s->capevents = cap;
	}
	s->events[s->nevents++] = *ev;
}

/* The sampling follows the programs' state unless the caller holds it off. Locked. */
static void set_sampling(struct smp_pageset *s)
{
	bool paused = s->programs.paused || s->held;

	if (paused != s->kernel_paused) {
		if (s->o.set_sampling)
			s->o.set_sampling(s->o.arg, !paused);
		s->kernel_paused = paused;
	}
}

/* A pause or resume from any process: the newest call decides the programs' state. */
static void apply(struct smp_pageset_page *w, struct ses_pause_call *ev)
{
	struct smp_pageset *s = w->set;

	pthread_mutex_lock(&s->lock);
	/* fed first: a stamp from the future is clamped to now, and recorded so */
	if (ses_pause_state_feed(&s->programs, ev, smp_pageset_now(), &s->future_stamps))
		set_sampling(s);
	add_event(s, ev);
	smp_page_set_active(w->page, !s->kernel_paused);
	pthread_mutex_unlock(&s->lock);
}

/* Pause records dropped by @w's ring: the session's state is unknown in [from, to]. A
 * gap that cannot be kept (no memory) widens the one before it to the end of the run, or
 * with none before it makes the whole run unknown: unknown is still true, a hole would
 * not be. */
static void on_pause_gap(void *arg, const struct smp_pause_gap *gap)
{
	struct smp_pageset_page *w = arg;
	struct smp_pageset *s = w->set;
	struct ses_pause_unknown u = { smp_page_pid(w->page), gap->from_ns, gap->to_ns,
				       gap->by_state };
	/* ended by the page's state word: from to_ns on, it counts as a call saying so,
	 * live (the sampling follows it) and in pauses.csv */
	struct ses_pause_call ev = { gap->to_ns, u.pid, gap->paused, SES_PAUSE_API };

	if (gap->by_state)
		apply(w, &ev);
	pthread_mutex_lock(&s->lock);
	s->gap_records += gap->dropped;
	if (s->ngaps == s->capgaps) {
		size_t cap = s->capgaps ? s->capgaps * 2 : 16;
		struct ses_pause_unknown *g = realloc(s->gaps, cap * sizeof(*g));

		if (g) {
			s->gaps = g;
			s->capgaps = cap;
		}
	}
	if (s->ngaps < s->capgaps)
		s->gaps[s->ngaps++] = u;
	else if (s->ngaps)
		s->gaps[s->ngaps - 1].to = INT64_MAX;
	else
		s->gap_all = (struct ses_pause_unknown){ u.pid, INT64_MIN, INT64_MAX, false };
	pthread_mutex_unlock(&s->lock);
}

static void on_pause_record(void *arg, const struct uprof_ctl_record *r)
{
	struct smp_pageset_page *w = arg;
	struct ses_pause_call ev = { (int64_t)r->time_ns, smp_page_pid(w->page),
				     r->kind == UPROF_REC_PAUSE, smp_page_session_how(r->how) };

	apply(w, &ev);
}

static void on_task_record(void *arg, const struct uprof_ctl_record *r)
{
	struct smp_pageset_page *w = arg;
	struct ses_task_record out = { r->time_ns,
				       r->tid,
				       smp_page_session_kind(r->kind),
				       r->how & UPROF_FLAG_GAP ? SES_TASK_GAP : 0,
				       r->domain,
				       r->name };

	if (r->kind >= UPROF_REC_OMP_FIRST && r->kind <= UPROF_REC_OMP_LAST) {
		struct ses_ompt_record o;

		if (w->ompt && smp_page_omp_record(r, &o))
			ses_ompt_write_record(w->ompt, &o);
		return;
	}
	if (out.kind)
		ses_tasks_write_record(w->tasks, &out);
}

static int on_string(void *arg, uint32_t id, const char *str, size_t len)
{
	struct smp_pageset_page *w = arg;

	if (w->ompt) /* the runtime's name is among them */
		ses_ompt_write_string(w->ompt, id, str, len);
	return ses_tasks_write_string(w->tasks, id, str, len);
}

/* One pass over a page: pauses first (a strict caller is waiting for them), then names,
 * then as many task records as there are. */
static void service(struct smp_pageset_page *w, bool signaled)
{
	smp_page_sync_clock(w->page); /* one clock map for both rings of this pass */
	smp_page_drain(w->page, true, on_pause_record, w);
	if (signaled)
		smp_page_ack(w->page);
	smp_page_strings(w->page, on_string, w);
	while (smp_page_drain(w->page, false, on_task_record, w) > 0)
		smp_page_strings(w->page, on_string, w);
}

/* A look at one page by the drain thread. A page with nothing new (its doorbell still,
 * no record published, not exiting) costs a few loads; it is serviced all the same every
 * SAFETY_MS, for the pause ring's drop count and state word (pausegap.c), and every look
 * while its pause ring has a gap open (two quiet looks end it). A page whose
 * process ended (or truncated it) is read to its end and left alone until stop. */
static void look(struct smp_pageset_page *w, int64_t now)
{
	bool signaled = smp_page_take_signal(w->page);

	if (!signaled && now - w->last_look < SAFETY_MS * 1000000LL &&
	    !smp_page_gap_open(w->page) && !smp_page_pending(w->page) &&
	    !smp_page_exiting(w->page) && !smp_page_faulted(w->page))
		return;
	w->last_look = now;
	service(w, signaled);
	if (smp_page_faulted(w->page)) {
		w->done = true; /* its process truncated it: nothing more to read */
	} else if (smp_page_exiting(w->page)) {
		service(w, false); /* the target is waiting for exactly this */
		w->done = true;
		/* one that ended before we found its page left it to us: all is read */
		if (w->named)
			smp_pageset_unlink_if_dead(w->set, smp_page_pid(w->page));
	}
}

/* Sleep until a doorbell rings, the set changes or the timeout. The doorbells' values are
 * those the looks just took: one that moved since makes the wait return at once. */
static void sleep_on(struct smp_pageset *s, struct smp_pageset_page **v, int n, uint32_t wake)
{
	struct pageset_waitv w[WAITV_MAX];
	struct timespec ts;
	bool all_ring = n < WAITV_MAX;
	int k = 0, ms;

	w[k++] = (struct pageset_waitv){ wake, (uintptr_t)&s->wake, FUTEX_32 | FUTEX_PRIVATE_FLAG,
					 0 };
	for (int i = 0; i < n && k < WAITV_MAX; i++) {
		uint32_t seen, *word = smp_page_doorbell(v[i]->page, &seen);

		if (!word)
			continue;
		/* a gap in its pause ring ends at two quiet looks: 10 ms apart, as before */
		all_ring = all_ring && smp_page_rings(v[i]->page) && !smp_page_gap_open(v[i]->page);
		w[k++] = (struct pageset_waitv){ seen, (uintptr_t)word, FUTEX_32, 0 };
	}
	ms = all_ring ? SAFETY_MS : POLL_MS;
	/* futex_waitv's timeout is absolute */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += (long)ms * 1000000;
	ts.tv_sec += ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	/* EFAULT (a page truncated under us) is no signal: the next look marks it faulted.
	 * ENOSYS (before 5.16): every 10 ms, as each page's thread did before. */
	if (syscall(SYS_futex_waitv, w, k, 0, &ts, CLOCK_MONOTONIC) < 0 && errno == ENOSYS) {
		struct timespec poll = { 0, POLL_MS * 1000000L };

		nanosleep(&poll, NULL);
	}
}

static void retire_ended(struct smp_pageset *s);

static void *drain_main(void *arg)
{
	struct smp_pageset *s = arg;
	struct smp_pageset_page **v = NULL;
	int cap = 0;

	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		uint32_t wake = __atomic_load_n(&s->wake, __ATOMIC_ACQUIRE);
		bool pending = false;
		int64_t now;
		int n = 0;

		retire_ended(s);
		pthread_mutex_lock(&s->lock);
		if (cap < s->npages) {
			struct smp_pageset_page **g = realloc(v,
							      sizeof(*g) * SMP_PAGESET_MAX_PAGES);

			if (g) {
				v = g;
				cap = SMP_PAGESET_MAX_PAGES;
			}
		}
		for (int i = 0; i < s->npages && n < cap; i++)
			if (!s->pages[i]->done)
				v[n++] = s->pages[i];
		pthread_mutex_unlock(&s->lock);
		now = smp_pageset_now();
		for (int i = 0; i < n; i++)
			look(v[i], now);
		/* pairs with the target's fence between publishing a pause record and reading
		 * our tail (lib/instrument/page.c): a record published after the look is seen
		 * here, or its process saw our tail and rang */
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		for (int i = 0; i < n && !pending; i++)
			pending = !v[i]->done && smp_page_pending(v[i]->page);
		if (!pending)
			sleep_on(s, v, n, wake);
		__atomic_add_fetch(&s->wakeups, 1, __ATOMIC_RELAXED);
	}
	free(v);
	return NULL;
}

/* Wake the drain thread: the set changed, or stop. */
static void wake_drain(struct smp_pageset *s)
{
	__atomic_add_fetch(&s->wake, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &s->wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static bool out_of_fds(int err)
{
	return err == EMFILE || err == ENFILE;
}

bool smp_pageset_fds_spare(const struct smp_pageset *s, int n)
{
	int fds[8], k = 0;
	int any = s->poll_fd >= 0 ? s->poll_fd : s->inotify_fd >= 0 ? s->inotify_fd : s->chan_fd;

	if (any < 0)
		return true; /* nothing of ours to duplicate: the open itself will tell */
	while (k < n && k < 8 && (fds[k] = fcntl(any, F_DUPFD_CLOEXEC, 0)) >= 0)
		k++;
	for (int i = 0; i < k; i++)
		close(fds[i]);
	return k == n;
}

void smp_pageset_note(struct smp_pageset *s, int pid)
{
	for (int i = 0; i < s->counts.npids; i++)
		if (s->counts.pids[i] == pid)
			return;
	if (s->counts.npids < SMP_PAGESET_NOTED)
		s->counts.pids[s->counts.npids++] = pid;
}

/* @w's files. 0 or -errno. Two descriptors are left free beyond them: the drain thread
 * needs one now and then to tell an ended process (procfs), and the channel one to take
 * a page; with fewer, the page waits (parked) as if none were free. */
static int open_files(struct smp_pageset *s, struct smp_pageset_page *w)
{
	int pid = smp_page_pid(w->page);

	if (!smp_pageset_fds_spare(s, 4))
		return -EMFILE;
	w->tasks = ses_tasks_writer_open(s->o.session_dfd, pid);
	if (!w->tasks)
		return -errno;
	if (s->o.ompt) {
		w->ompt = ses_ompt_writer_open(s->o.session_dfd, pid, (uint16_t)s->o.ompt_impl,
					       (uint16_t)s->o.ompt_scope);
		if (!w->ompt && out_of_fds(errno)) {
			int err = errno;

			ses_tasks_writer_close(w->tasks);
			w->tasks = NULL;
			return -err;
		}
		if (!w->ompt)
			smp_pageset_say(s, SMP_PAGESET_NO_OMPT_FILE, pid, errno, NULL);
	}
	return 0;
}

static void add_page(struct smp_pageset *s, struct smp_pageset_page *w)
{
	pthread_mutex_lock(&s->lock);
	smp_page_set_active(w->page, !s->kernel_paused);
	s->pages[s->npages++] = w;
	pthread_mutex_unlock(&s->lock);
	wake_drain(s);
}

/* A page of a process we could not keep: counted, named. */
static void not_followed(struct smp_pageset *s, struct smp_pageset_page *w)
{
	s->counts.not_followed++;
	smp_pageset_note(s, smp_page_pid(w->page));
	smp_page_close(w->page);
	free(w);
}

/* No descriptor for @w's files: it waits, mapped (no descriptor), for the files of
 * ended processes to be closed (the drain thread does, while any page waits). */
static int park(struct smp_pageset *s, struct smp_pageset_page *w)
{
	if (s->nparked == s->capparked) {
		size_t cap = s->capparked ? s->capparked * 2 : 64;
		struct smp_pageset_page **g = realloc(s->parked, cap * sizeof(*g));

		if (!g) {
			not_followed(s, w);
			return -ENOMEM;
		}
		s->parked = g;
		s->capparked = cap;
	}
	s->parked[s->nparked++] = w;
	__atomic_store_n(&s->short_of_fds, 1, __ATOMIC_RELEASE);
	return 0;
}

int smp_pageset_take(struct smp_pageset *s, int pid, struct smp_page *page, bool named)
{
	struct smp_pageset_page *w = calloc(1, sizeof(*w));
	int ret;

	if (!w) {
		smp_page_close(page);
		return -ENOMEM;
	}
	w->page = page;
	w->set = s;
	w->named = named;
	smp_page_on_gap(page, on_pause_gap, w);
	if (named)
		s->counts.named++;
	else
		s->counts.handed++;
	ret = open_files(s, w);
	if (ret && out_of_fds(-ret))
		return park(s, w);
	if (ret) {
		smp_pageset_say(s, SMP_PAGESET_NO_TASKS_FILE, pid, -ret, NULL);
		not_followed(s, w);
		return -EIO;
	}
	add_page(s, w);
	return 0;
}

/* Say what the drain thread noted (it does not call the caller). */
static void say_late(struct smp_pageset *s)
{
	int n;

	pthread_mutex_lock(&s->lock);
	n = s->nlate;
	s->nlate = 0;
	pthread_mutex_unlock(&s->lock);
	for (int i = 0; i < n; i++)
		smp_pageset_say(s, (enum smp_pageset_what)s->late[i].what, s->late[i].pid, 0, NULL);
}

void smp_pageset_unpark(struct smp_pageset *s)
{
	size_t n = 0;

	say_late(s);
	for (size_t i = 0; i < s->nparked; i++) {
		struct smp_pageset_page *w = s->parked[i];
		int ret = s->npages < SMP_PAGESET_MAX_PAGES ? open_files(s, w) : -EMFILE;

		if (ret && out_of_fds(-ret)) {
			s->parked[n++] = w;
		} else if (ret) {
			smp_pageset_say(s, SMP_PAGESET_NO_TASKS_FILE, smp_page_pid(w->page), -ret,
					NULL);
			not_followed(s, w);
		} else {
			add_page(s, w);
		}
	}
	s->nparked = n;
	if (!n)
		__atomic_store_n(&s->short_of_fds, 0, __ATOMIC_RELEASE);
}

void smp_pageset_release_hold(struct smp_pageset *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->held = false;
	set_sampling(s);
	for (int i = 0; i < s->npages; i++)
		smp_page_set_active(s->pages[i]->page, !s->kernel_paused);
	pthread_mutex_unlock(&s->lock);
}

/* The last of a page, at stop: what is left in it, the drops, its files closed. */
/* A note for the caller: said now (its thread), or kept for it (the drain thread's). */
static void note(struct smp_pageset *s, enum smp_pageset_what what, int pid, bool late)
{
	if (!late) {
		smp_pageset_say(s, what, pid, 0, NULL);
		return;
	}
	pthread_mutex_lock(&s->lock);
	if (s->nlate < (int)(sizeof(s->late) / sizeof(s->late[0])))
		s->late[s->nlate++] = (typeof(s->late[0])){ pid, (int)what };
	else
		s->counts.over_warned++;
	pthread_mutex_unlock(&s->lock);
}

static void finish(struct smp_pageset_page *w, bool late)
{
	struct smp_pageset *s = w->set;
	uint64_t records, names;
	int pid = smp_page_pid(w->page);

	service(w, false);
	smp_page_flush_gap(w->page); /* drops after the last record: unknown to the end */
	if (smp_page_faulted(w->page))
		note(s, SMP_PAGESET_TRUNCATED, pid, late);
	smp_page_dropped(w->page, &records, &names);
	ses_tasks_write_dropped(w->tasks, records, names);
	pthread_mutex_lock(&s->lock);
	s->counts.lost_task_records += records;
	pthread_mutex_unlock(&s->lock);
	ses_tasks_writer_close(w->tasks);
	if (w->ompt)
		ses_ompt_write_dropped(w->ompt, records);
	if (ses_ompt_writer_close(w->ompt))
		note(s, SMP_PAGESET_OMPT_FAILED, pid, late);
	smp_page_close(w->page);
	if (w->named)
		smp_pageset_unlink_if_dead(s, pid);
	free(w);
}

/* While pages wait for descriptors: the pages of ended processes, read to their end,
 * are finished now, their files closed (otherwise at stop). The drain thread's, at the
 * top of its loop: no page it holds is among them. */
static void retire_ended(struct smp_pageset *s)
{
	struct smp_pageset_page *gone[64];
	int n = 0, k = 0;

	if (!__atomic_load_n(&s->short_of_fds, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&s->lock);
	for (int i = 0; i < s->npages; i++) {
		struct smp_pageset_page *w = s->pages[i];

		if (n < 64 && w->done && smp_proc_ended(smp_page_pid(w->page)))
			gone[n++] = w;
		else
			s->pages[k++] = w;
	}
	s->npages = k;
	pthread_mutex_unlock(&s->lock);
	for (int i = 0; i < n; i++)
		finish(gone[i], true);
}

/* The drain thread takes no signal sent to the process: they are the caller's (collect
 * reads SIGCHLD from a signalfd, which sees only signals blocked in every thread). Those
 * its own accesses raise stay open: a SIGBUS blocked would kill the process instead of
 * reaching the page guard (pageguard.c: a page truncated under us). */
static void start_thread(struct smp_pageset *s)
{
	static const int own[] = { SIGBUS, SIGSEGV, SIGFPE, SIGILL, SIGTRAP };
	sigset_t all, old;

	sigfillset(&all);
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		sigdelset(&all, own[i]);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->started = !pthread_create(&s->thread, NULL, drain_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int smp_pageset_start(struct smp_pageset **out, const struct smp_pageset_opts *opts)
{
	struct smp_pageset *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->o = *opts;
	snprintf(s->dir, sizeof(s->dir), "%s", opts->dir ? opts->dir : "/dev/shm");
	snprintf(s->token, sizeof(s->token), "%s", opts->token ? opts->token : "");
	snprintf(s->session_dir, sizeof(s->session_dir), "%s", opts->session_dir);
	s->o.dir = s->dir;
	s->o.token = opts->token ? s->token : NULL;
	s->o.session_dir = s->session_dir;
	if (s->o.max_pages <= 0 || s->o.max_pages > SMP_PAGESET_MAX_PAGES)
		s->o.max_pages = SMP_PAGESET_MAX_PAGES;
	if (!s->o.max_pending || s->o.max_pending > SMP_PAGESET_MAX_PENDING)
		s->o.max_pending = SMP_PAGESET_MAX_PENDING;
	s->counts.max_pages = s->o.max_pages;
	s->counts.max_pending = s->o.max_pending;
	s->counts.max_warned = SMP_PAGESET_MAX_WARNED;
	pthread_mutex_init(&s->lock, NULL);
	s->programs = (struct ses_pause_state){ INT64_MIN, opts->start_paused };
	s->held = opts->held;
	s->kernel_paused = s->programs.paused || s->held;
	s->chan_fd = s->poll_fd = -1;
	if (opts->channel && s->o.token)
		smp_pageset_channel_open(s);
	smp_pageset_watch(s);
	if (s->poll_fd >= 0 && s->inotify_fd >= 0) {
		struct epoll_event ev = { .events = EPOLLIN };

		epoll_ctl(s->poll_fd, EPOLL_CTL_ADD, s->inotify_fd, &ev);
	}
	smp_pageset_rescan(s); /* page files made before the run: no inotify event */
	start_thread(s);
	*out = s;
	return 0;
}

int smp_pageset_npages(const struct smp_pageset *s)
{
	return s ? s->npages : 0;
}

uint64_t smp_pageset_wakeups(const struct smp_pageset *s)
{
	return s ? __atomic_load_n(&s->wakeups, __ATOMIC_RELAXED) : 0;
}

void smp_pageset_counts(const struct smp_pageset *s, struct smp_pageset_counts *out)
{
	*out = s->counts;
}

/* At stop, the thread gone: every page read to its end; then those that waited for
 * descriptors, which finishing the others freed, and the named pages that could not be
 * opened for want of one; what still finds none is counted. */
static void finish_all(struct smp_pageset *s)
{
	for (;;) {
		for (int i = 0; i < s->npages; i++)
			finish(s->pages[i], false);
		s->npages = 0;
		if (!s->nparked && !s->nofd.n)
			break;
		smp_pageset_unpark(s);
		if (s->nofd.n) { /* tried again by name: a failure puts them back */
			struct smp_pidlist l = s->nofd;

			memset(&s->nofd, 0, sizeof(s->nofd));
			for (size_t i = 0; i < l.n; i++)
				smp_pageset_add_pid(s, l.v[i]);
			free(l.v);
		}
		if (!s->npages)
			break; /* no descriptor came free: what is left is not followed */
	}
	say_late(s);
	for (size_t i = 0; i < s->nparked; i++)
		not_followed(s, s->parked[i]);
	s->nparked = 0;
	for (size_t i = 0; i < s->nofd.n; i++) {
		s->counts.not_followed++;
		smp_pageset_note(s, s->nofd.v[i]);
	}
	s->nofd.n = 0;
}

void smp_pageset_stop(struct smp_pageset *s)
{
	if (!s || __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE))
		return;
	smp_pageset_poll(s); /* pages that appeared at the very end (and squatted names) */
	/* and every page of the run still there that we did not take yet: a process that
	 * ended before we found it left its page for us */
	smp_pageset_rescan(s);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	wake_drain(s);
	if (s->started)
		pthread_join(s->thread, NULL);
	s->started = false;
	finish_all(s);
	smp_pageset_find_end(s);
	smp_pageset_channel_close(s);
}

void smp_pageset_free(struct smp_pageset *s)
{
	if (!s)
		return;
	smp_pageset_stop(s);
	pthread_mutex_destroy(&s->lock);
	free(s->events);
	free(s->gaps);
	free(s->parked);
	free(s);
}
