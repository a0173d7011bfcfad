// SPDX-License-Identifier: MIT
/*
 * Finding the control pages of a run (sampler.h, smp_pageset_*): inotify on the pages'
 * directory, a rescan when its queue overflowed, pages not published yet retried, page
 * files of other users named after no process yet watched, and what is refused told
 * once a pid. All of it runs in the caller's thread; pageset.c reads what is taken.
 */
#include "sampler/internal.h"
#include "instrument/ctlpage.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#define YOUNG_NS 1000000000LL	 /* a page is published microseconds after it is made */
#define OLD_RETRY_NS 100000000LL /* retry of a page empty for longer than that */

bool smp_pidlist_has(const struct smp_pidlist *l, int pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == pid)
			return true;
	return false;
}

bool smp_pidlist_add(struct smp_pidlist *l, int pid, size_t max)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		int *g = l->n < max ? realloc(l->v, cap * sizeof(*g)) : NULL;

		if (!g)
			return false;
		l->v = g;
		l->cap = cap;
	}
	l->v[l->n++] = pid;
	return true;
}

/* Is @pid a process of this run? Attach mode: one we attached to, or a descendant; launch
 * mode: a descendant of ours (a page we cannot read has no session token to tell). */
bool smp_pageset_of_run(const struct smp_pageset *s, int pid)
{
	int self = (int)getpid();

	if (!s->o.token)
		return s->o.owns && s->o.owns(s->o.arg, pid);
	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		pid = smp_proc_ppid(pid);
		if (pid == self)
			return true;
	}
	return false;
}

/* Say once why the page of @pid, a process of this run, is not read. Pages of other
 * processes (another user's run, files anyone may make in /dev/shm) are none of this
 * session's business: no word. */
/* Count a refused page of this run, and say it once. */
static void count_refused(struct smp_pageset *s, int pid, const struct smp_page_why *why)
{
	/* another uid's file (or a link, a FIFO) holds the name: squatted */
	if (why->reason == SMP_PAGE_OWNER || why->reason == SMP_PAGE_LINK ||
	    why->reason == SMP_PAGE_NOT_REGULAR)
		s->counts.squatted++;
	else
		s->counts.refused++;
	smp_pageset_note(s, pid);
	if (!smp_pidlist_add(&s->warned, pid, SMP_PAGESET_MAX_WARNED)) {
		s->counts.over_warned++;
		return;
	}
	smp_pageset_say(s, SMP_PAGESET_REFUSED, pid, 0, why);
}

/* With the channel, a process of the run may hand its page over and never use its name:
 * a refused name is judged at the end (judge_suspects). */
static void suspect(struct smp_pageset *s, int pid, const struct smp_page_why *why)
{
	for (size_t i = 0; i < s->nsuspects; i++)
		if (s->suspects[i].pid == pid)
			return;
	if (s->nsuspects == s->capsuspects) {
		size_t cap = s->capsuspects ? s->capsuspects * 2 : 16;
		struct smp_suspect *g = cap <= SMP_PAGESET_MAX_WARNED
						? realloc(s->suspects, cap * sizeof(*g))
						: NULL;

		if (!g) {
			s->counts.over_warned++;
			return;
		}
		s->suspects = g;
		s->capsuspects = cap;
	}
	s->suspects[s->nsuspects++] = (struct smp_suspect){ pid, *why };
}

/* Say once why the page of @pid, a process of this run, is not read. Pages of other
 * processes (another user's run, files anyone may make in /dev/shm) are none of this
 * session's business: no word. */
static void refused(struct smp_pageset *s, int pid, const struct smp_page_why *why)
{
	switch (why->reason) {
	case SMP_PAGE_LINK:
	case SMP_PAGE_NOT_REGULAR:
	case SMP_PAGE_OWNER:
	case SMP_PAGE_SIZE:
	case SMP_PAGE_PID:
	case SMP_PAGE_LAYOUT:
	case SMP_PAGE_FAULTED:
		break;
	default:
		return; /* another session's, or its process is gone */
	}
	if (smp_pidlist_has(&s->warned, pid) || !smp_pageset_of_run(s, pid))
		return;
	if (s->chan_fd >= 0)
		suspect(s, pid, why);
	else
		count_refused(s, pid, why);
}

/* A page of an ABI major this uprof does not read: said once, remembered: nobody else
 * will remove it when its process ends without its exit handler. */
static void other_major(struct smp_pageset *s, int pid)
{
	if (!smp_pageset_of_run(s, pid) || smp_pidlist_has(&s->refused, pid))
		return;
	smp_pageset_say(s, SMP_PAGESET_VERSION, pid, 0, NULL);
	if (!smp_pidlist_add(&s->refused, pid, SMP_PAGESET_MAX_PENDING))
		s->counts.over_warned++;
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

static void forget(struct smp_pidlist *l, int pid)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == pid) {
			l->v[i] = l->v[--l->n];
			return;
		}
}

/* Take the page of @pid. 0, -EAGAIN (retry later) or another -errno (give up); @why
 * says why smp_page_open_at refused it. */
static int adopt(struct smp_pageset *s, int pid, struct smp_page_why *why)
{
	struct smp_page *page;
	int ret;

	memset(why, 0, sizeof(*why));
	for (int i = 0; i < s->npages; i++)
		if (smp_page_pid(s->pages[i]->page) == pid)
			return 0;
	for (size_t i = 0; i < s->nparked; i++)
		if (smp_page_pid(s->parked[i]->page) == pid)
			return 0;
	/* launch mode: our token proves the page is of this run; attach mode: the process
	 * (or an ancestor) is one we attached to, and its page carries no token */
	if (!s->o.token && !(s->o.owns && s->o.owns(s->o.arg, pid)))
		return -EPERM;
	if (s->npages + (int)s->nparked >= s->o.max_pages) { /* before the page is touched */
		/* launch mode: only a page of this run counts (its token, read without
		 * touching it); a page another run or a killed process left is not ours to
		 * count, and one not published yet is tried again */
		if (s->o.token) {
			char tok[UPROF_SMP_TOKEN_MAX];
			int r = smp_page_peek_session(s->dir, pid, tok, sizeof(tok));

			if (r)
				return r;
			if (strcmp(tok, s->token))
				return -EINVAL;
		}
		/* once a pid: the page is tried again at the end (rescan) */
		if (!smp_pidlist_has(&s->over, pid)) {
			s->counts.over_pages++;
			smp_pidlist_add(&s->over, pid, SMP_PAGESET_MAX_WARNED);
		}
		return -E2BIG;
	}
	ret = smp_page_open_at(&page, s->dir, pid, s->o.token, (uint32_t)getpid(), why);
	if (ret)
		return ret;
	if (!s->o.token && page_predates(page, pid)) {
		smp_page_close(page);
		return -ESTALE;
	}
	ret = smp_pageset_take(s, pid, page, true);
	if (!ret)
		forget(&s->nofd, pid);
	return ret;
}

/* A page file named after a pid no process has (yet): anyone can make one for the pid a
 * process of this run will get, and that process's library cannot replace a file of
 * another user in /dev/shm (sticky) unless it runs as root: remembered, and looked at
 * again while the run goes on (recheck_squatted). */
static void squatted(struct smp_pageset *s, int pid)
{
	if (smp_pidlist_has(&s->squatted, pid))
		return;
	if (!smp_pidlist_add(&s->squatted, pid, SMP_PAGESET_MAX_WARNED))
		s->counts.over_squatted++;
}

/* What an attempt at @pid's page came to: taken, waiting, or refused and said. True
 * while it is worth trying again. */
static bool settle(struct smp_pageset *s, int pid, int ret, const struct smp_page_why *why)
{
	if (ret == -EAGAIN)
		return true;
	/* no descriptor to open it with (RLIMIT_NOFILE): tried again while the run goes
	 * on and at the end, when the pages read so far have closed theirs; counted then
	 * if it still cannot be (smp_pageset_stop) */
	if (ret == -EMFILE || ret == -ENFILE) {
		if (!smp_pidlist_has(&s->nofd, pid))
			smp_pidlist_add(&s->nofd, pid, SMP_PAGESET_MAX_PENDING);
		return true;
	}
	/* a process of ours whose page went before we read it: its library leaves it for a
	 * running uprof, so this is one that removed it some other way; counted */
	if (ret == -ENOENT && s->o.token && smp_pageset_of_run(s, pid))
		s->counts.vanished++;
	else if (ret == -EPROTONOSUPPORT)
		other_major(s, pid);
	else if (ret == -ESRCH && why->reason == SMP_PAGE_NO_PROCESS)
		squatted(s, pid);
	else if (ret == -EBUSY && !s->o.token)
		smp_pageset_say(s, SMP_PAGESET_HELD_ELSEWHERE, pid, 0, why);
	else if (ret)
		refused(s, pid, why);
	return false;
}

static void try_pid(struct smp_pageset *s, int pid)
{
	struct smp_page_why why;
	struct smp_pending *g;

	if (!settle(s, pid, adopt(s, pid, &why), &why))
		return;
	for (size_t i = 0; i < s->npending; i++)
		if (s->pending[i].pid == pid)
			return;
	if (s->npending >= s->o.max_pending) {
		if (!smp_pidlist_has(&s->unwaited, pid)) { /* once a pid: rescans try again */
			s->counts.over_pending++;
			smp_pidlist_add(&s->unwaited, pid, SMP_PAGESET_MAX_WARNED);
		}
		return;
	}
	if (s->npending == s->cappending) {
		size_t cap = s->cappending ? s->cappending * 2 : 64;

		g = realloc(s->pending, cap * sizeof(*g));
		if (!g) {
			s->counts.over_pending++;
			return;
		}
		s->pending = g;
		s->cappending = cap;
	}
	s->pending[s->npending++] = (struct smp_pending){ pid, smp_pageset_now() };
}

/* The squatted names whose pid is a process now: its page is what it is (a process of
 * this run that cannot have its own is said, by the owner check); one of root's will
 * replace the file itself (its library removes a page it did not make), so no word. */
static void recheck_squatted(struct smp_pageset *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->squatted.n; i++) {
		int pid = s->squatted.v[i];
		struct smp_page_why why;
		int ret;

		if (kill(pid, 0) && errno == ESRCH) {
			s->squatted.v[n++] = pid; /* not yet */
			continue;
		}
		ret = adopt(s, pid, &why);
		if (ret == -EPERM && why.reason == SMP_PAGE_OWNER && why.uid == 0)
			continue;
		if (ret == -ESRCH && why.reason == SMP_PAGE_NO_PROCESS) {
			s->squatted.v[n++] = pid; /* gone again: a pid reused by a short life */
			continue;
		}
		if (settle(s, pid, ret, &why))
			try_pid(s, pid); /* not published yet: waits as any page does */
	}
	s->squatted.n = n;
}

/* Retry the pages that were not ready: the young ones each time, the old ones now and
 * then; keep those still worth waiting for. */
static void retry_pending(struct smp_pageset *s)
{
	int64_t now = smp_pageset_now();
	bool old_too = now - s->last_old_retry >= OLD_RETRY_NS;
	size_t n = 0;

	if (old_too)
		s->last_old_retry = now;
	for (size_t i = 0; i < s->npending; i++) {
		struct smp_pending e = s->pending[i];
		struct smp_page_why why;

		if ((now - e.seen_ns < YOUNG_NS || old_too) &&
		    !settle(s, e.pid, adopt(s, e.pid, &why), &why))
			continue;
		s->pending[n++] = e;
	}
	s->npending = n;
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

void smp_pageset_watch(struct smp_pageset *s)
{
	s->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (s->inotify_fd >= 0 && inotify_add_watch(s->inotify_fd, s->dir, IN_CREATE) < 0) {
		int err = errno;

		close(s->inotify_fd);
		s->inotify_fd = -1;
		errno = err;
	}
	if (s->inotify_fd < 0)
		smp_pageset_say(s, SMP_PAGESET_UNWATCHED, 0, errno, NULL);
}

/* Every page file in the directory: at start (files made before it get no inotify
 * event), when the kernel's queue of inotify events overflowed (anyone can make files in
 * /dev/shm faster than we read), and at stop. */
void smp_pageset_rescan(struct smp_pageset *s)
{
	struct dirent *e;
	DIR *d;

	d = opendir(s->dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid = page_pid(e->d_name);

		if (pid > 0)
			try_pid(s, pid);
	}
	closedir(d);
}

int smp_pageset_fd(const struct smp_pageset *s)
{
	return !s ? -1 : s->poll_fd >= 0 ? s->poll_fd : s->inotify_fd;
}

bool smp_pageset_busy(const struct smp_pageset *s)
{
	int64_t now;

	if (!s || !s->npending)
		return false;
	now = smp_pageset_now();
	for (size_t i = 0; i < s->npending; i++)
		if (now - s->pending[i].seen_ns < YOUNG_NS)
			return true;
	return false;
}

void smp_pageset_add_pid(struct smp_pageset *s, int pid)
{
	if (s)
		try_pid(s, pid);
}

void smp_pageset_poll(struct smp_pageset *s)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t len;

	if (!s)
		return;
	smp_pageset_channel_take(s); /* before the names: a handed page needs none */
	smp_pageset_unpark(s);
	retry_pending(s);
	recheck_squatted(s);
	while (s->inotify_fd >= 0 && (len = read(s->inotify_fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + len;) {
			struct inotify_event *ev = (struct inotify_event *)p;
			int pid = ev->len ? page_pid(ev->name) : -1;

			if (ev->mask & IN_Q_OVERFLOW)
				smp_pageset_rescan(s);
			else if (pid > 0)
				try_pid(s, pid);
			p += sizeof(*ev) + ev->len;
		}
	}
}

/* Pages not read for the bound on pages read at once: one of this run (its token, its
 * process's uid) whose process ended was left for us by its library and would stay in
 * /dev/shm for good; removed. Another run's is that run's business. */
static void drop_over(struct smp_pageset *s)
{
	for (size_t i = 0; i < s->over.n; i++) {
		struct smp_page_why why;
		struct smp_page *page;

		if (smp_page_open_at(&page, s->dir, s->over.v[i], s->o.token, (uint32_t)getpid(),
				     &why))
			continue;
		smp_page_close(page);
		smp_pageset_unlink_if_dead(s, s->over.v[i]);
	}
}

/* Channel: the processes of the run whose page name was refused, and whose page did not
 * come over the channel either: lost to the squatter (or to a page we do not read). */
static void judge_suspects(struct smp_pageset *s)
{
	for (size_t i = 0; i < s->nsuspects; i++)
		if (!smp_pidlist_has(&s->handed, s->suspects[i].pid))
			count_refused(s, s->suspects[i].pid, &s->suspects[i].why);
	free(s->suspects);
	s->suspects = NULL;
	s->nsuspects = s->capsuspects = 0;
}

void smp_pageset_find_end(struct smp_pageset *s)
{
	judge_suspects(s);
	for (size_t i = 0; i < s->refused.n; i++)
		smp_pageset_unlink_if_dead(s, s->refused.v[i]);
	drop_over(s);
	if (s->inotify_fd >= 0)
		close(s->inotify_fd);
	s->inotify_fd = -1;
	free(s->pending);
	free(s->refused.v);
	free(s->warned.v);
	free(s->squatted.v);
	free(s->over.v);
	free(s->unwaited.v);
	free(s->handed.v);
	free(s->nofd.v);
	s->pending = NULL;
	s->npending = 0;
	memset(&s->refused, 0, sizeof(s->refused));
	memset(&s->warned, 0, sizeof(s->warned));
	memset(&s->squatted, 0, sizeof(s->squatted));
	memset(&s->over, 0, sizeof(s->over));
	memset(&s->unwaited, 0, sizeof(s->unwaited));
	memset(&s->handed, 0, sizeof(s->handed));
	memset(&s->nofd, 0, sizeof(s->nofd));
}
