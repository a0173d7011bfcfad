/* SPDX-License-Identifier: MIT */
/*
 * lib/sampler: perf_event fds and their mmap rings, and the launched target.
 *
 * Lifecycle (launch mode):
 *   smp_child_spawn()   fork the target; it waits at a start gate, uprof is not sampled
 *   smp_open()          one event per (attr, online CPU), following the target's pid,
 *                       inherited by its threads and children, enabled at its exec
 *   smp_child_release() open the gate: the target execs (errors come back as -errno)
 *   loop: poll(smp_pollfds) ; smp_drain(sink)   copy ring bytes out, whole records
 *   smp_close()
 */
#ifndef UPROF_SAMPLER_H
#define UPROF_SAMPLER_H

#include <linux/perf_event.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct smp;

struct smp_opts {
	size_t mmap_pages; /* data pages per ring, a power of two; 0 = default (128) */
	const int *cpus;   /* sample on these CPUs only (online ones; borrowed) */
	int ncpus;	   /* 0: every online CPU */
};

/*
 * A sampler for @nattrs events (@attrs copied) on every online CPU (or those of
 * @opts->cpus that are online), with no task yet. 0 or -errno (-ENODEV: none of
 * @opts->cpus is online).
 */
int smp_new(struct smp **out, const struct perf_event_attr *attrs, int nattrs,
	    const struct smp_opts *opts);

/*
 * Open every event on every CPU for task @tid (a thread; with inherit, the threads and
 * processes it creates later are followed too). The first task's fds own one ring per
 * CPU; all others write into those. On failure this task's fds are closed again,
 * *@failed_attr says which attr failed, and -errno is returned (-ESRCH: the task is
 * gone). The first task failing leaves @s without rings: close it.
 */
int smp_add_task(struct smp *s, pid_t tid, int *failed_attr);

/* smp_new + smp_add_task(@pid): launch mode. On failure nothing stays open. */
int smp_open(struct smp **out, const struct perf_event_attr *attrs, int nattrs, pid_t pid,
	     const struct smp_opts *opts, int *failed_attr);

/* Close every fd and unmap every ring. NULL is fine. */
void smp_close(struct smp *s);

/* Kernel ids of attr @i's fds (for PERF_RECORD_HEADER_ATTR); owned by @s. */
const uint64_t *smp_ids(const struct smp *s, int i, size_t *n);

/* Disable every event now (ioctl on each fd): the collection's end. 0 or -errno. (Events
 * start enabled, or by enable_on_exec.) */
int smp_disable(struct smp *s);
/* The same for the events of attr @i only (pause/resume of sampling, while the tracking
 * event keeps recording mappings). Safe to call from any thread. */
int smp_set_enabled(struct smp *s, int i, bool on);

/* The ring fds, to poll for POLLIN; @max entries at most. Returns how many. */
int smp_pollfds(const struct smp *s, struct pollfd *fds, int max);

/* Where drained bytes go: whole records, in ring order. Return 0 or -errno to stop. */
typedef int (*smp_sink_fn)(void *arg, const void *records, size_t len);

struct smp_stats {
	uint64_t samples; /* PERF_RECORD_SAMPLE seen */
	uint64_t lost;	  /* samples the kernel reported lost (PERF_RECORD_LOST) */
	uint64_t bytes;
};

/*
 * Copy everything available in every ring to @sink and free the ring space.
 * Returns the number of bytes drained (>= 0) or the sink's -errno.
 */
long smp_drain(struct smp *s, smp_sink_fn sink, void *arg);

void smp_get_stats(const struct smp *s, struct smp_stats *st);

/* ---- the launched target ---- */

struct smp_child {
	pid_t pid;
	int gate_fd;  /* write end: one byte releases the child */
	int error_fd; /* read end: exec's errno, or EOF when exec succeeded */
};

/*
 * Fork a child that waits at the gate, then chdir(@workdir) (if not NULL) and
 * execv(@path, @argv) (both borrowed). 0 or -errno. The child restores default signal
 * dispositions and an empty signal mask before exec.
 */
int smp_child_spawn(struct smp_child *c, const char *path, char *const argv[], const char *workdir);

/*
 * Open the gate and wait until the child has exec'd. 0, or the -errno of a failed
 * chdir/exec (the child has then exited with 127; reap it with waitpid).
 * *@what gets "chdir" or "exec" on failure.
 */
int smp_child_release(struct smp_child *c, const char **what);

/* Kill a child that never got released and reap it. */
void smp_child_abort(struct smp_child *c);

/* ---- control pages of instrumented processes (lib/instrument/ctlpage.h) ----
 *
 * The profiler side. Every field of a page is untrusted: the layout is validated once
 * and copied, strings are copied out before use, records are bounds-checked, and every
 * loop is bounded, so a target scribbling on its page cannot crash or hang us.
 */
struct smp_page;
struct uprof_ctl_record;

/* Why smp_page_open_at() refused a page (beside its return code), for the CLI's message. */
enum smp_page_reason {
	SMP_PAGE_OK = 0,
	SMP_PAGE_LINK,		/* a symbolic link (never followed) */
	SMP_PAGE_NOT_REGULAR,	/* a FIFO, directory, device...: not a regular file */
	SMP_PAGE_NO_PROCESS,	/* no process has the pid it is named after */
	SMP_PAGE_OWNER,		/* owned by a uid that process does not have */
	SMP_PAGE_SIZE,		/* its size is not the one its header gives */
	SMP_PAGE_PID,		/* its header names another pid than its file name */
	SMP_PAGE_LAYOUT,	/* offsets, counts or clock the ABI does not allow */
	SMP_PAGE_OTHER_SESSION, /* another run's page (launch mode): not an error */
	SMP_PAGE_FAULTED,	/* it shrank under us (smp_page_faulted) */
};
struct smp_page_why {
	enum smp_page_reason reason;
	uint32_t owner;	  /* SMP_PAGE_OWNER: the file's uid */
	uint32_t uid;	  /* SMP_PAGE_OWNER: the process's effective uid */
	uint64_t size;	  /* SMP_PAGE_SIZE: the file's size */
	uint64_t want;	  /* SMP_PAGE_SIZE: the size its header gives (0: none readable) */
	int32_t page_pid; /* SMP_PAGE_PID: the pid its header names */
};

/*
 * Map <@dir>/uprof.<@pid> (@dir NULL: /dev/shm) and validate it; @why (may be NULL) says
 * why it was refused. A page a hostile process made is refused before it is mapped: it
 * is opened with O_NOFOLLOW|O_NONBLOCK, read-only, and must be a regular file owned by a
 * uid of the process @pid names (<procfs>/<pid>/status, pmc_procfs_root()), or, with a
 * @session, when no process has that pid any more, our own uid (a process of the run
 * that ended before its page was read leaves it for us); only then is
 * it reopened for writing through our own descriptor (the same file, never the name
 * again) and mapped, and its header must name @pid and give exactly the file's size.
 * @session (borrowed, may be NULL) must match the page's session token when given.
 * 0, -ENOENT (no page), -EAGAIN (not published yet: retry), -ESRCH (no such process),
 * -EPERM (a link, not a regular file, or another owner), -EINVAL (malformed: size, pid or
 * layout; or another session's), -EBUSY (another live profiler holds it, or, with no
 * @session, another uprof collect launched its process), -EPROTONOSUPPORT (a major
 * version of the ABI this uprof does not read: the page is left untouched;
 * smp_page_peek_version() says which), -EFAULT (it shrank while we validated it), -errno.
 * Pages of any minor version of our major are taken (ctlpage.h's rules). On success the
 * page is marked attached with @generation. */
int smp_page_open_at(struct smp_page **out, const char *dir, int pid, const char *session,
		     uint32_t generation, struct smp_page_why *why);
/* The same checks on a page handed over as descriptor @fd (borrowed: the caller closes it)
 * by process @pid of uid @uid (the kernel's credentials of the sender): a regular file of
 * that uid (or one the process has), mapped read-write through @fd itself. */
int smp_page_open_fd(struct smp_page **out, int fd, int pid, uint32_t uid, const char *session,
		     uint32_t generation, struct smp_page_why *why);
/* smp_page_open_at(out, NULL, pid, session, generation, NULL). */
int smp_page_open(struct smp_page **out, int pid, const char *session, uint32_t generation);

/* The version word (UPROF_CTL_MAJOR_OF / _MINOR_OF) of @pid's page, read without mapping
 * or changing it, for a message. 0, -EINVAL (not a page) or -errno. */
int smp_page_peek_version(int pid, uint32_t *version);
/* The session token of <@dir>/uprof.<@pid> (@dir NULL: /dev/shm) into @buf, read without
 * mapping or changing the page (for a page left alone: over the bound on pages read).
 * 0, -EAGAIN (not published yet: too short or no token), -EPERM (not a regular file or a
 * link), -errno. */
int smp_page_peek_session(const char *dir, int pid, char *buf, size_t len);

/* The same checks on a page image at @mem (@len bytes, borrowed: it must outlive the
 * handle), for tests and the fuzz target. */
int smp_page_open_mem(struct smp_page **out, void *mem, size_t len, const char *session);

/* Detach and unmap. NULL is fine. */
void smp_page_close(struct smp_page *p);

int smp_page_pid(const struct smp_page *p);
/* The page's version word, and the uprof version its library names ("" before 2.1; a
 * copy owned by @p, NUL-terminated). */
uint32_t smp_page_version(const struct smp_page *p);
const char *smp_page_lib_version(const struct smp_page *p);
/* When the page was created (CLOCK_MONOTONIC ns, as its creator wrote it). */
int64_t smp_page_created_mono_ns(const struct smp_page *p);

/* Copy strings published since the last call; @fn gets each new (id, bytes, length).
 * Returns how many, or -errno from @fn. */
typedef int (*smp_page_str_fn)(void *arg, uint32_t id, const char *s, size_t len);
int smp_page_strings(struct smp_page *p, smp_page_str_fn fn, void *arg);

/* Take a fresh pair of clock readings: records drained until the next call are converted
 * from TSC stamps with it (pages whose clock is the TSC; see ctlpage.h). */
void smp_page_sync_clock(struct smp_page *p);

/* Take up to one ring's worth of records from the task ring (@pauses false) or the
 * pause ring; @fn gets a validated private copy of each. Returns the number taken. */
typedef void (*smp_page_rec_fn)(void *arg, const struct uprof_ctl_record *rec);
long smp_page_drain(struct smp_page *p, bool pauses, smp_page_rec_fn fn, void *arg);

/* Pause records the target's ring dropped (docs/DESIGN.md §5): the session's pause state is
 * unknown from @from_ns, the stamp of the last record surely made before them, to @to_ns,
 * the first surely made after (CLOCK_MONOTONIC ns). @from_ns is INT64_MIN when no record
 * came before them, @to_ns INT64_MAX when none came after (the page ended first).
 * @dropped: the records the ring counted as dropped in it. */
struct smp_pause_gap {
	int64_t from_ns, to_ns;
	uint64_t dropped;
	/* true: no record came after the drops, but two looks at the page (@to_ns and one a
	 * drain later) found its ring empty, nothing more dropped and its state word the
	 * same: from @to_ns on the process's state is @paused, as a call would say */
	bool by_state;
	bool paused;
};
typedef void (*smp_page_gap_fn)(void *arg, const struct smp_pause_gap *gap);
/* Where smp_page_drain(p, true, ...) hands each gap, just before the record that ends it
 * (NULL: nowhere; the default). */
void smp_page_on_gap(struct smp_page *p, smp_page_gap_fn fn, void *arg);
/* Look at the pause ring's drop count once more and hand out a gap still open (its
 * to_ns INT64_MAX): at the end, after the last drain. */
void smp_page_flush_gap(struct smp_page *p);

/* Wait up to @timeout_ms for the target to signal (strict request, exit). Returns true
 * if it did. */
bool smp_page_wait(struct smp_page *p, int timeout_ms);

/* Tell strict callers that everything requested so far is applied. */
void smp_page_ack(struct smp_page *p);

void smp_page_set_active(struct smp_page *p, bool active);
bool smp_page_exiting(const struct smp_page *p);
/* Task records the task ring dropped, and names the string table could not hold (the
 * pause ring's drops are gaps: smp_page_on_gap). */
void smp_page_dropped(const struct smp_page *p, uint64_t *records, uint64_t *names);
/* Did the page fault (its process truncated it under us)? From then on every call above
 * is a no-op (drain takes nothing, wait returns false at once) and close only unmaps. */
bool smp_page_faulted(const struct smp_page *p);

/* ---- the control pages of a run: discovery, one drain thread, pause arbitration ----
 *
 * Discovery: inotify on the pages' directory reports each new uprof.<pid>; a page is
 * taken when its session token is ours (launch mode: every process of the run inherits
 * UPROF_SESSION) or its process is one the caller attached to (opts.owns). A page is
 * created empty and published a moment later, so one not ready yet is retried.
 *
 * One drain thread reads every page taken: it sleeps on the pages' doorbells (their
 * req_seq words, futex_waitv; ctlpage.h 2.4), 100 ms at most, 10 ms while a page of an
 * older minor or more pages than one wait takes are read. Awake, it applies the pause and
 * resume records to the sampling (opts.set_sampling: the latest call by time stamp wins,
 * across all processes of the run), acknowledges strict callers and writes the task
 * records and new strings into <session_dir>/instrument/<pid>.tasks (and .ompt). A page
 * another user made, or one its process scribbles on, is refused or read within bounds:
 * it cannot crash, hang or stall the reading of the others (lib/sampler/ctlpage.c).
 *
 * Use (discovery calls and the notes come in the caller's thread):
 *   smp_pageset_start()   rescan the directory, start the thread
 *   loop: poll(smp_pageset_fd) ; smp_pageset_poll()   (sooner while smp_pageset_busy)
 *   smp_pageset_stop()    last discovery, join, read each page to its end
 *   smp_pageset_counts(), smp_pageset_write_pauses()   pauses.csv
 *   smp_pageset_free()
 */
struct smp_pageset;
struct ses_pause_state;

#define UPROF_SMP_TOKEN_MAX 64

/* What the caller is told, once each (it words the message). */
enum smp_pageset_what {
	SMP_PAGESET_UNWATCHED,	    /* @err: the directory cannot be watched */
	SMP_PAGESET_REFUSED,	    /* @why: a page of this run is not read (once a pid) */
	SMP_PAGESET_VERSION,	    /* a page of this run of an ABI major we do not read (@err: its
				     * version word when handed over, else 0: peek by name) */
	SMP_PAGESET_HELD_ELSEWHERE, /* attach mode: another profiler reads the page */
	SMP_PAGESET_NO_TASKS_FILE,  /* @err: its .tasks file cannot be made (not read) */
	SMP_PAGESET_NO_OMPT_FILE,   /* @err: its .ompt file cannot be made (tasks still are) */
	SMP_PAGESET_TRUNCATED,	    /* at stop: it was truncated while we read it */
	SMP_PAGESET_OMPT_FAILED,    /* at stop: its .ompt file could not be written */
};
typedef void (*smp_pageset_say_fn)(void *arg, enum smp_pageset_what what, int pid, int err,
				   const struct smp_page_why *why);

struct smp_pageset_opts {
	const char *dir;	   /* the pages' directory; NULL: /dev/shm (borrowed, copied) */
	const char *token;	   /* launch mode: the run's UPROF_SESSION; NULL: attach mode */
	const char *session_dir;   /* the session's path, for messages (copied) */
	int session_dfd;	   /* the session directory's fd: instrument/<pid>.tasks, openmp/
				    * and pauses.csv are made beneath it (borrowed: open until
				    * smp_pageset_free) */
	bool ompt;		   /* --trace openmp: .ompt files too, of this impl and scope */
	int ompt_impl, ompt_scope; /* SES_OMPT_IMPL_*, SES_OMPT_SCOPE_* */
	bool start_paused;	   /* the programs start paused */
	bool held;		   /* sampling stays off until smp_pageset_release_hold */
	bool channel;		   /* launch mode: pages handed over a socket (no name) */
	int max_pages;		   /* 0: 4096 pages read at once (lower only for tests) */
	size_t max_pending;	   /* 0: 65536 pages waited for at once */
	/* sampling on or off (from the drain thread, the set's lock held) */
	void (*set_sampling)(void *arg, bool on);
	/* attach mode: is @pid a process we attached to, or a descendant? */
	bool (*owns)(void *arg, int pid);
	smp_pageset_say_fn say;
	void *arg;
};

#define SMP_PAGESET_NOTED 16 /* pids of pages not read or kept, named in the session */
/* What was not read or kept, for the caller's messages (after smp_pageset_stop). */
struct smp_pageset_counts {
	uint64_t over_pages;	     /* pages not read: max_pages were */
	uint64_t over_pending;	     /* pages not waited for: max_pending were */
	uint64_t over_squatted;	     /* other users' page files named after no process, not kept */
	uint64_t over_warned;	     /* refusals not said: SMP_PAGESET_MAX_WARNED were */
	uint64_t vanished;	     /* pages of this run removed before they could be read */
	uint64_t lost_calls;	     /* pause/resume calls not kept (no memory) */
	uint64_t lost_task_records;  /* task records the targets' rings dropped */
	uint64_t handed;	     /* pages taken over the channel (no name) */
	uint64_t named;		     /* pages taken by their name in the directory */
	uint64_t squatted;	     /* processes of the run whose page name another uid held */
	uint64_t refused;	     /* other pages of the run not read (smp_page_why) */
	uint64_t not_followed;	     /* processes of the run whose page or data was not kept */
	uint64_t channel_refused;    /* pages handed over by processes not of this run */
	int pids[SMP_PAGESET_NOTED]; /* the first squatted, refused or not followed */
	int npids;
	int max_pages;
	size_t max_pending;
	int max_warned;
};

/* Start: the pages already there are looked at, the thread started. 0 or -errno
 * (-ENOMEM). A directory that cannot be watched is said (SMP_PAGESET_UNWATCHED), not an
 * error: no page made later is seen. */
int smp_pageset_start(struct smp_pageset **out, const struct smp_pageset_opts *opts);
/* The fd to poll for POLLIN (pages handed over, pages named in the directory), or -1. */
int smp_pageset_fd(const struct smp_pageset *s);
/* opts.channel: the name of the abstract socket the run's processes hand their pages to
 * (UPROF_PAGE_CHANNEL), or NULL (none could be made: the processes name their pages). */
const char *smp_pageset_channel(const struct smp_pageset *s);
/* The lanes (docs of lib/instrument/ctlpage.h, 2.6) the processes a collect launches should
 * give their pages: UPROF_CTL_LANES_ENV's value. A value already in the environment is
 * kept (benches compare 0 with the default); else one per CPU and a few more, at least 8,
 * at most UPROF_CTL_MAX_LANES. */
unsigned smp_page_lanes_wanted(void);
/* At a collect's start: remove the page files of @uid in @dir (NULL: /dev/shm) whose
 * process is gone, or whose pid a younger process has now (made before it started): left
 * by a killed process, read by nobody, memory for good. One readdir, nothing opened or
 * mapped. The count removed. */
uint64_t smp_pages_remove_stale(const char *dir, uint32_t uid);
/* Pages made in the last second and not published yet: poll again within a few ms. */
bool smp_pageset_busy(const struct smp_pageset *s);
/* Take the pages inotify reported, and retry those not ready. */
void smp_pageset_poll(struct smp_pageset *s);
/* Attach mode: take the page of @pid, made before we came. */
void smp_pageset_add_pid(struct smp_pageset *s, int pid);
/* opts.held is over: sampling follows the programs' pause/resume from now on. */
void smp_pageset_release_hold(struct smp_pageset *s);
/* The last discovery, the thread stopped, each page read to its end and closed, its
 * files written; the page files of ended processes of this run removed. */
void smp_pageset_stop(struct smp_pageset *s);
/* Pages taken so far, and times the drain thread woke up. */
int smp_pageset_npages(const struct smp_pageset *s);
uint64_t smp_pageset_wakeups(const struct smp_pageset *s);
void smp_pageset_counts(const struct smp_pageset *s, struct smp_pageset_counts *out);

/* What writing pauses.csv came to, for the caller's messages. */
struct smp_pageset_pauses {
	int err;	   /* the arbitration failed (-errno): nothing below is filled */
	uint64_t future;   /* calls stamped later than they were read (counted as read) */
	bool unknown_lost; /* the stretches of dropped records could not be marked */
	uint64_t folded;   /* rows folded into the last "unknown" one (max_rows were) */
	int max_rows;
	double folded_s;      /* that row's length */
	uint64_t gap_records; /* pause records the targets' full rings dropped */
	int64_t total_ns, unknown_ns;
	int write_err; /* pauses.csv could not be written (-errno) */
};
/* Arbitrate every process's calls into intervals from @start_mono to @end_mono (<= 0:
 * now) and write <session_dir>/pauses.csv. After smp_pageset_stop. */
void smp_pageset_write_pauses(struct smp_pageset *s, int64_t start_mono, int64_t end_mono,
			      struct smp_pageset_pauses *out);
/* NULL is fine. Stops first if smp_pageset_stop was not called. */
void smp_pageset_free(struct smp_pageset *s);

/* ---- running processes (attach) ---- */

/* Threads of process @pid, from <procfs>/<pid>/task. Count (up to @max) or -errno
 * (-ESRCH: no such process). */
int smp_proc_threads(pid_t pid, pid_t *tids, int max);
/* The pids of every process in /proc, at most @max of them. Count or -errno. */
int smp_proc_pids(pid_t *pids, int max);

/* The process a thread belongs to (Tgid), or -errno. */
/* The real, effective, saved and filesystem uids of @pid (status "Uid:"). 0, -ESRCH (no
 * such process), -EINVAL. */
int smp_proc_uids(pid_t pid, uint32_t uids[4]);
/* Has @pid ended: no such process, or a zombie its parent has not reaped yet (it runs no
 * code any more)? False when procfs cannot say (EACCES...). */
bool smp_proc_ended(pid_t pid);
pid_t smp_proc_tgid(pid_t tid);

/* The command name of a task (/proc/<tid>/comm) into @buf; 0 or -errno. */
int smp_proc_comm(pid_t tid, char *buf, size_t len);

/* Parent pid of a process, or -errno. */
pid_t smp_proc_ppid(pid_t pid);

/* User+system CPU time of a process (all threads), ns; -errno when it is gone. */
int64_t smp_proc_cpu_ns(pid_t pid);
/* The user and system shares of @pid's CPU time, its reaped children's included, in clock
 * ticks (/proc/<pid>/stat utime + cutime, stime + cstime). 0 or -ESRCH. */
int smp_proc_cpu_split(pid_t pid, int64_t *user_ticks, int64_t *sys_ticks);
/* When @pid started, in CLOCK_MONOTONIC ns (to the kernel's clock tick), or -errno. */
int64_t smp_proc_start_mono_ns(pid_t pid);

/*
 * What the kernel would have told us had we been there from the start: a COMM record for
 * each thread in @tids and an MMAP2 record for every executable mapping of @pid (and every
 * readable one, marked PERF_RECORD_MISC_MMAP_DATA, when @attr has mmap_data), with
 * the sample_id trailer @attr (borrowed; the tracking event's) lays out: pid/tid, @time,
 * cpu 0, @id. Encoded by lib/session's codec, written to @sink. 0 or -errno.
 */
int smp_synth_process(pid_t pid, const pid_t *tids, int ntids, const struct perf_event_attr *attr,
		      uint64_t id, uint64_t time, smp_sink_fn sink, void *arg);

/*
 * The kernel's own mapping, as perf record writes it first (an MMAP of
 * "[kernel.kallsyms]_text" for pid -1), so that perf report can name kernel functions
 * from kallsyms, with @attr's trailer (pid -1, tid 0, @time, @id). Only the start of
 * /proc/kallsyms is read (_text comes early). 0, or -ENOENT when kernel addresses are
 * hidden (kptr_restrict) or not found.
 */
int smp_synth_kernel(const struct perf_event_attr *attr, uint64_t id, uint64_t time,
		     smp_sink_fn sink, void *arg);

/* ---- side files ---- */

/* Save this process's vDSO image as @rel (a new file) beneath the session's fd @dfd so
 * report can symbolize [vdso] samples with the kernel's own copy (every process on one
 * kernel maps the same image). 0 or -errno. */
int smp_vdso_save(int dfd, const char *rel);

#endif
