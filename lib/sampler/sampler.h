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
};

/*
 * Open @nattrs events (@attrs borrowed) on every online CPU for @pid (-1 = all tasks,
 * needs privileges). The first fd per CPU owns the ring; the others are redirected into
 * it. On failure nothing stays open, *@failed_attr says which attr failed, and the
 * -errno is returned.
 */
int smp_open(struct smp **out, const struct perf_event_attr *attrs, int nattrs, pid_t pid,
	     const struct smp_opts *opts, int *failed_attr);

/* Close every fd and unmap every ring. NULL is fine. */
void smp_close(struct smp *s);

/* Kernel ids of attr @i's fds (for PERF_RECORD_HEADER_ATTR); owned by @s. */
const uint64_t *smp_ids(const struct smp *s, int i, size_t *n);

/* Enable or disable every event now (ioctl on each fd). 0 or -errno. */
int smp_enable(struct smp *s);
int smp_disable(struct smp *s);

/* The ring fds, to poll for POLLIN; @max entries at most. Returns how many. */
int smp_pollfds(const struct smp *s, struct pollfd *fds, int max);

/* Where drained bytes go: whole records, in ring order. Return 0 or -errno to stop. */
typedef int (*smp_sink_fn)(void *arg, const void *records, size_t len);

struct smp_stats {
	uint64_t samples;	/* PERF_RECORD_SAMPLE seen */
	uint64_t lost;		/* samples the kernel reported lost (PERF_RECORD_LOST) */
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
int smp_child_spawn(struct smp_child *c, const char *path, char *const argv[],
		    const char *workdir);

/*
 * Open the gate and wait until the child has exec'd. 0, or the -errno of a failed
 * chdir/exec (the child has then exited with 127; reap it with waitpid).
 * *@what gets "chdir" or "exec" on failure.
 */
int smp_child_release(struct smp_child *c, const char **what);

/* Kill a child that never got released and reap it. */
void smp_child_abort(struct smp_child *c);

/* ---- side files ---- */

/* Save this process's vDSO image to @path so report can symbolize [vdso] samples with the
 * kernel's own copy (every process on one kernel maps the same image). 0 or -errno. */
int smp_vdso_save(const char *path);

#endif
