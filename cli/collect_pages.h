/* SPDX-License-Identifier: MIT */
/*
 * What collect_pages.c and collect_pages_say.c share: the state of the control pages of
 * a run. Private to those two files.
 */
#ifndef UPROF_CLI_COLLECT_PAGES_H
#define UPROF_CLI_COLLECT_PAGES_H

#include "cli/collect.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHM_DIR "/dev/shm"
#define MAX_PAGES 4096	  /* pages read at once (a thread each); more are counted, said */
#define MAX_PENDING 65536 /* pages waiting to be published; more are counted, said */
#define MAX_WARNED 4096	  /* pids warned about; later refusals are only counted */
#define YOUNG_NS 1000000000LL /* a page is published microseconds after it is made */
#define OLD_RETRY_NS 100000000LL /* retry of a page empty for longer than that */
#define WAIT_MS 10

/* A page seen but not yet published. Anyone can make an empty /dev/shm/uprof.<pid> for a
 * process of their own, and leave it empty: such entries age out of the fast retry and
 * never crowd out a real page (the list grows; issue 12, item 3). */
struct pending {
	int pid;
	int64_t seen_ns;
};

/* A growable list of pids. */
struct pidlist {
	int *v;
	size_t n, cap;
};

struct page_worker {
	pthread_t thread;
	bool started;
	struct smp_page *page;
	struct ses_tasks_writer *tasks;
	struct ses_ompt_writer *ompt; /* --trace openmp */
	struct collect_pages *ctx;
};

struct collect_pages {
	struct collect_state *st;
	int inotify_fd;
	int stop; /* atomic */
	pthread_mutex_t lock; /* pause calls and the kernel's on/off state */
	struct ses_pause_call *events;
	size_t nevents, capevents;
	struct ses_pause_unknown *gaps; /* where a page's pause ring dropped records */
	size_t ngaps, capgaps;
	uint64_t gap_records;	/* the records dropped in them */
	struct ses_pause_unknown gap_all; /* to > from: the first gap found no memory */
	struct ses_pause_state programs; /* the newest pause/resume call of the programs */
	bool held;	     /* --start-delay: uprof itself holds sampling off until it ends */
	bool kernel_paused;  /* the sampling events are off (either of the two) */
	struct page_worker *workers[MAX_PAGES];
	int nworkers;
	struct pending *pending;
	size_t npending, cappending;
	int64_t last_old_retry;
	struct pidlist refused; /* pages of this run we do not read: removed at the end */
	struct pidlist warned;	/* pids a refusal was said for: once each */
	uint64_t future_stamps; /* pause/resume calls stamped later than when they were read */
	uint64_t over_pages;	/* pages not read: MAX_PAGES were */
	uint64_t over_pending;	/* pages not waited for: MAX_PENDING were */
	uint64_t over_warned;	/* refusals not said: MAX_WARNED were */
	uint64_t lost_calls;	/* pause/resume calls not kept for pauses.csv (no memory) */
	uint64_t vanished;	/* pages of this run removed before they could be read */
	/* the bounds above: MAX_PAGES and MAX_PENDING, lower only for tests (see
	 * collect_pages_start) */
	int max_pages;
	size_t max_pending;
	/* page files of another user named after no process yet (anyone may make one for
	 * a pid a process of this run will get, and its library then cannot make its own
	 * page): looked at again until the pid is a process; MAX_WARNED at most */
	struct pidlist squatted;
	struct pidlist over;	/* pids counted in over_pages (MAX_WARNED of them) */
	struct pidlist unwaited; /* pids counted in over_pending (MAX_WARNED of them) */
	uint64_t over_squatted;	/* not remembered: MAX_WARNED were */
};

/* collect_pages_say.c: the lists, and what collect says about pages */
bool pages_pidlist_has(const struct pidlist *l, int pid);
/* Add @pid unless the list holds @max already. False when it could not. */
bool pages_pidlist_add(struct pidlist *l, int pid, size_t max);
/* Is @pid a process of this run? */
bool pages_of_this_run(const struct collect_pages *c, int pid);
/* Say once why the page of @pid, a process of this run, is not read. False when nothing
 * needed saying. */
bool pages_warn_refused(struct collect_pages *c, int pid, const struct smp_page_why *why);
/* A page of an ABI major this uprof does not read: warn once, remember it. */
void pages_refused(struct collect_pages *c, int pid);
/* Every bounded list says when it was full: one line each, with the count. */
void pages_warn_overflows(const struct collect_pages *c);

#endif
