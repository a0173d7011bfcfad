/* SPDX-License-Identifier: MIT */
/* lib/sampler internals: the object layout. Kernel calls go through lib/pmc's seam
 * (pmc_sys_*, pmc.h), the one every perf_event syscall of uprof passes. */
#ifndef UPROF_SAMPLER_INTERNAL_H
#define UPROF_SAMPLER_INTERNAL_H

#include "pmc/pmc.h"
#include "sampler/sampler.h"

#include <setjmp.h>
#include <stddef.h>

/* Online CPUs from <sysfs>/devices/system/cpu/online (pmc_sysfs_root()), in order.
 * Fills @cpus (up to @max) and returns how many; -E2BIG for more, -EINVAL for a list
 * pmc_cpus_parse refuses or an empty one, -errno. */
int smp_online_cpus(int *cpus, int max);

struct smp_ring {
	int fd;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t data_size; /* power of two */
	size_t map_len;
};

struct smp_fd {
	int fd;
	int attr;
};

struct smp_ids {
	uint64_t *v;
	size_t n, cap;
};

struct smp {
	int ncpus;
	int *cpus; /* online CPU numbers */
	int nattrs;
	struct perf_event_attr *attrs; /* our copy */
	size_t pages;
	struct smp_fd *fds; /* every open event */
	size_t nfds, capfds;
	struct smp_ids *ids;	/* [attr] */
	struct smp_ring *rings; /* [cpu index]; created with the first task */
	bool have_rings;
	struct smp_stats stats;
	unsigned char *bounce; /* one record that wraps around the ring end */
};

#define SMP_MAX_CPUS PMC_MAX_CPUS
#define SMP_DEFAULT_PAGES 128

/* Drain one ring; see smp_drain. */
long smp_ring_drain(struct smp_ring *r, struct smp_stats *st, unsigned char *bounce,
		    smp_sink_fn sink, void *arg);

/* pageguard.c: a SIGBUS raised by an access inside [base, base + len) on this thread
 * returns to the sigsetjmp(jump, 0) made after smp_guard_push(), with the guard already
 * popped. Use (nothing between push and pop may take a lock or call out):
 *	smp_guard_push(&g, base, len);
 *	if (sigsetjmp(g.jump, 0)) { ...faulted: the mapping is gone; return... }
 *	...accesses...
 *	smp_guard_pop(&g);
 * smp_guard_install() before (0 or -errno): it puts the handler back if someone replaced
 * it, and is a syscall, so once per page open, not per access. */
struct smp_guard {
	sigjmp_buf jump;
	const void *base;
	size_t len;
	struct smp_guard *prev;
};
int smp_guard_install(void);
void smp_guard_push(struct smp_guard *g, const void *base, size_t len);
void smp_guard_pop(struct smp_guard *g);

/* pausegap.c: where in a pause ring the records it dropped were (ctlpage.h: a full or
 * contended ring drops a record and only counts it). A drop seen at one look at the
 * ring's counters and not at the look before happened while the producers' head was
 * between the two looks' heads: every record at a position below the first look's head
 * was made before it, every record at or past the second look's head after it. So the
 * calls between the last record surely before and the first surely after are unknown,
 * and that is the gap reported: wide enough to be true, never a guess at the order. The
 * counters are the target's and may be scribbled: a head outside [pos, pos + records] is
 * clamped to it, a count that goes down is taken as the new base. Pure: no page access. */
struct smp_gap_track {
	uint64_t seen;	     /* the ring's drop count at the last look */
	uint64_t clean_head; /* the head at the last look that saw no new drop */
	int64_t clean_t;     /* stamp of the last valid record below clean_head */
	int64_t last_t;	     /* stamp of the last valid record taken */
	bool have_t;
	bool open; /* a gap waits for its first record surely after it */
	uint64_t from_pos, to_pos;
	int64_t from_t;	  /* stamp of the last valid record below from_pos */
	uint64_t dropped; /* drops counted into the open gap */
	bool cand;	  /* a look found the ring empty and clean while open: */
	int64_t cand_t;	  /* when, and */
	int cand_state;	  /* the state word then */
};
/* Start at a ring whose consumer is at @pos: one never read before (@pos 0) counts its
 * drops from 0 (launch mode keeps records until we come), a read one from now. */
void smp_gap_init(struct smp_gap_track *g, uint64_t dropped, uint64_t head, uint64_t pos,
		  uint64_t records);
/* A look at the counters, every record below @pos taken already, at @now (CLOCK_MONOTONIC
 * ns), the page's state word read after them being @state (0 running, 1 paused, -1 not
 * read). True when it ends a gap (*@out, by_state): two looks in a row found the ring
 * empty, no new drop and the same state; the gap ends at the first of them. Why that is
 * the process's state from then on: lib/instrument stores the state word before it
 * stamps and emits the record of a call, so a call stored before a look is in its state
 * word, and a call emitted after it shows at the next look (head or drop count moved). */
bool smp_gap_observe(struct smp_gap_track *g, uint64_t dropped, uint64_t head, uint64_t pos,
		     uint64_t records, int state, int64_t now, struct smp_pause_gap *out);
/* The record at position @q was taken (@valid: it passed the checks; @t its stamp, in
 * CLOCK_MONOTONIC ns). True when it ends a gap: *@out is the gap, to be handed on before
 * the record itself. */
bool smp_gap_taken(struct smp_gap_track *g, uint64_t q, bool valid, int64_t t,
		   struct smp_pause_gap *out);
/* The end of the page: a gap still open is handed out with to_ns INT64_MAX. */
bool smp_gap_flush(struct smp_gap_track *g, struct smp_pause_gap *out);

/* ctlpage.c, for the drain thread (pageset.c). Take the page's req_seq: true when it moved
 * since the last take (a strict call, an exit or a doorbell). */
bool smp_page_take_signal(struct smp_page *p);
/* The page's req_seq word to sleep on, and the value it had at the last take; NULL once
 * the page faulted. */
uint32_t *smp_page_doorbell(struct smp_page *p, uint32_t *seen);
/* Does the page ring its doorbell for every record that needs a look (minor 2.4 on)? */
bool smp_page_rings(const struct smp_page *p);
/* Did the pause ring drop records its later looks have not placed yet (pausegap.c)? The
 * gap ends at two looks in a row that find the ring quiet: look often meanwhile. */
bool smp_page_gap_open(const struct smp_page *p);
/* Is a published record waiting at either ring's position (a drain would take it)? */
bool smp_page_pending(struct smp_page *p);

/* ---- pageset*.c: the control pages of a run ---- */
#include "instrument/ctlpage.h"
#include "session/session.h"
#include <pthread.h>

#define SMP_PAGESET_MAX_PAGES 4096    /* pages read at once; more are counted */
#define SMP_PAGESET_MAX_PENDING 65536 /* pages waiting to be published; more are counted */
#define SMP_PAGESET_MAX_WARNED 4096   /* pids warned about; later refusals only counted */

/* A page seen but not yet published. Anyone can make an empty /dev/shm/uprof.<pid> for a
 * process of their own, and leave it empty: such entries age out of the fast retry and
 * never crowd out a real page (the list grows; issue 12, item 3). */
struct smp_pending {
	int pid;
	int64_t seen_ns;
};

/* A growable list of pids. */
struct smp_pidlist {
	int *v;
	size_t n, cap;
};
bool smp_pidlist_has(const struct smp_pidlist *l, int pid);
/* Add @pid unless the list holds @max already. False when it could not. */
bool smp_pidlist_add(struct smp_pidlist *l, int pid, size_t max);

struct smp_pageset_page {
	struct smp_page *page;
	struct ses_tasks_writer *tasks;
	struct ses_ompt_writer *ompt; /* --trace openmp */
	struct smp_pageset *set;
	bool done;	   /* exited or faulted: read to the end, not looked at again until stop */
	bool named;	   /* a /dev/shm file (removed at the end); else handed over, no name */
	int64_t last_look; /* when the drain thread last serviced it (CLOCK_MONOTONIC ns) */
};

struct smp_pageset {
	struct smp_pageset_opts o;
	char dir[256];
	char token[UPROF_SMP_TOKEN_MAX];
	char session_dir[4096];
	int inotify_fd;
	int chan_fd;			       /* opts.channel: pages handed over; or -1 */
	int poll_fd;			       /* epoll of both, for the caller's poll; or -1 */
	char chan_name[UPROF_CTL_CHANNEL_MAX]; /* the abstract socket's name, "" if none */
	/* out of descriptors: pages mapped, waiting for their files (caller's thread) */
	struct smp_pageset_page **parked;
	size_t nparked, capparked;
	int short_of_fds; /* atomic: the drain thread closes the files of ended processes */
	/* notes from the drain thread, said by the caller (pid and smp_pageset_what) */
	struct {
		int pid, what;
	} late[64];
	int nlate;
	/* the drain thread */
	pthread_t thread;
	bool started;
	int stop;	      /* atomic */
	uint32_t wake;	      /* private futex word: pages were added, or stop */
	pthread_mutex_t lock; /* pages[], pause calls and the kernel's on/off state */
	struct smp_pageset_page *pages[SMP_PAGESET_MAX_PAGES];
	int npages;
	uint64_t wakeups; /* times the drain thread woke (tests, bench) */
	/* pause arbitration */
	struct ses_pause_call *events;
	size_t nevents, capevents;
	struct ses_pause_unknown *gaps; /* where a page's pause ring dropped records */
	size_t ngaps, capgaps;
	uint64_t gap_records;		  /* the records dropped in them */
	struct ses_pause_unknown gap_all; /* to > from: the first gap found no memory */
	struct ses_pause_state programs;  /* the newest pause/resume call of the programs */
	bool held;			  /* uprof itself holds sampling off until it ends */
	bool kernel_paused;		  /* the sampling events are off (either of the two) */
	uint64_t future_stamps; /* pause/resume calls stamped later than when they were read */
	/* discovery (pageset_find.c), main thread only */
	struct smp_pending *pending;
	size_t npending, cappending;
	int64_t last_old_retry;
	struct smp_pidlist refused;  /* pages of this run we do not read: removed at the end */
	struct smp_pidlist warned;   /* pids a refusal was said for: once each */
	struct smp_pidlist squatted; /* other users' page files named after no process yet */
	struct smp_pidlist over;     /* pids counted in over_pages */
	struct smp_pidlist unwaited; /* pids counted in over_pending */
	struct smp_pidlist handed;   /* pids whose page came over the channel */
	/* channel: pages named after processes of the run, refused: judged at the end */
	struct smp_suspect {
		int pid;
		struct smp_page_why why;
	} * suspects;
	size_t nsuspects, capsuspects;
	struct smp_pidlist nofd; /* pids whose page could not be opened: no fd */
	struct smp_pageset_counts counts;
};

/* pageset.c: take @page (opened and validated) of @pid into the set; @named: a file of the
 * directory, else handed over the channel. Out of descriptors for its files, it waits
 * mapped (parked). 0 or -errno. */
int smp_pageset_take(struct smp_pageset *s, int pid, struct smp_page *page, bool named);
/* pageset.c: the parked pages given their files where descriptors are free again (the
 * caller's thread), and the drain thread's notes said. */
void smp_pageset_unpark(struct smp_pageset *s);
/* pageset.c: are @n descriptors free (tried, then closed)? */
bool smp_pageset_fds_spare(const struct smp_pageset *s, int n);
/* pageset.c: a pid of the run whose page was not read or kept, in the bounded list. */
void smp_pageset_note(struct smp_pageset *s, int pid);
/* pageset_chan.c: the channel (opts.channel) made and bound; taken from; closed. */
void smp_pageset_channel_open(struct smp_pageset *s);
void smp_pageset_channel_take(struct smp_pageset *s);
void smp_pageset_channel_close(struct smp_pageset *s);
/* pageset_find.c: is @pid a process of this run? */
bool smp_pageset_of_run(const struct smp_pageset *s, int pid);
/* Tell the caller (opts.say) in the caller's thread. */
void smp_pageset_say(struct smp_pageset *s, enum smp_pageset_what what, int pid, int err,
		     const struct smp_page_why *why);
int64_t smp_pageset_now(void);
/* Remove the page file of @pid from the set's directory if its process has ended. */
void smp_pageset_unlink_if_dead(const struct smp_pageset *s, int pid);
/* pageset_find.c: watch the directory (said when it cannot be), and look at every page
 * file in it. */
void smp_pageset_watch(struct smp_pageset *s);
void smp_pageset_rescan(struct smp_pageset *s);
/* pageset_find.c: the end of discovery: pages refused and over the bound, removed when
 * their process ended; the inotify fd closed; lists freed. */
void smp_pageset_find_end(struct smp_pageset *s);
/* pagecodes.c: the control page's codes as the session files' own (session.h), so the
 * ABI can be renumbered without changing what sessions on disk mean. */
uint16_t smp_page_session_how(uint16_t how);
uint16_t smp_page_session_kind(uint16_t kind);
bool smp_page_omp_record(const struct uprof_ctl_record *r, struct ses_ompt_record *out);

#endif
