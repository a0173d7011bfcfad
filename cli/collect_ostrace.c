// SPDX-License-Identifier: MIT
/*
 * uprof collect --trace os[=EV[:THRESHOLD_US],...], --osrt-threshold and --config
 * threading (docs/DESIGN.md §12): kernel tracepoints sampled on the launched or attached
 * processes beside the timer. sched:sched_switch at every switch-out of a traced thread
 * (its state and user call stack), sched:sched_waking (the waker and its stack),
 * raw_syscalls:sys_enter/sys_exit (number, result; the call stack at entry) and
 * PERF_RECORD_SWITCH from the tracking event (the switch-ins). The tracepoints' format
 * files go into the session (OST_FORMATS_FILE) so that report reads their fields at the
 * offsets of the kernel that wrote them.
 */
#include "cli/collect.h"
#include "ostrace/ostrace.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const CMD = "collect";

/* Data pages per ring under --trace os unless -m says (the default is 128). */
#define OS_RING_PAGES 1024
/* The user stack a dwarf sys_enter sample copies: the call site is in its innermost
 * frames, and a call that blocks has its whole stack in the sched_switch sample. At 8 KiB
 * a burst of 1000 getppid calls overflowed a 512 KiB ring; at 2 KiB it fits in 4 MiB. */
#define OS_ENTRY_STACK_BYTES 2048

/* uProf's event names that map here; "sched" (thread states) comes with all of them */
static const struct {
	const char *name;
	unsigned bit;
} EVENTS[] = {
	{ "syscall", OST_EV_SYSCALL },
	{ "pthread", OST_EV_PTHREAD },
	{ "sched", OST_EV_SCHED },
	{ "pagefault", OST_EV_PAGEFAULT },
	{ "funccount", OST_EV_FUNCCOUNT }, /* the functions --func names (uprobes) */
};
#define EVENT_LIST "syscall, pthread, sched, pagefault, funccount"

/* The tracepoints each event needs: system, name, the event bits that want it, and
 * whether a kernel without it is an error. */
static const struct tp_need {
	const char *system, *name;
	unsigned wanted_by;
	bool optional;
} TRACEPOINTS[] = {
	{ "sched", "sched_switch", ~0u, false },
	/* sched_waking, not sched_wakeup: waking fires in the waker, in try_to_wake_up;
	 * wakeup fires where the wakee is put on a run queue, which for a wakee on another
	 * CPU is often that CPU's IPI, in whatever task runs there (sched_wakeup from an
	 * idle CPU or an untraced task: a lock wait with no waker; from a traced thread that
	 * happened to run there: the wrong waker) */
	{ "sched", "sched_waking", ~0u, false },
	{ "raw_syscalls", "sys_enter", OST_EV_SYSCALL | OST_EV_PTHREAD, false },
	{ "raw_syscalls", "sys_exit", OST_EV_SYSCALL | OST_EV_PTHREAD, false },
	/* x86's user page faults; other architectures have none of this name */
	{ "exceptions", "page_fault_user", OST_EV_PAGEFAULT, true },
};

static int parse_us(const char *s, size_t len, uint64_t *ns)
{
	char buf[32], *end;
	double v;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = 0;
	errno = 0;
	v = strtod(buf, &end);
	if (errno || *end || !(v >= 0) || v > 3.6e9)
		return -EINVAL;
	*ns = (uint64_t)(v * 1000.0 + 0.5);
	return 0;
}

/* One "EV[:THRESHOLD_US]" of the list. */
static int parse_one(struct collect_state *st, const char *s, size_t len)
{
	size_t name_len = strcspn(s, ":");
	uint64_t ns = 0;

	if (name_len > len)
		name_len = len;
	for (size_t i = 0; i < sizeof(EVENTS) / sizeof(EVENTS[0]); i++) {
		if (strlen(EVENTS[i].name) != name_len || strncmp(EVENTS[i].name, s, name_len))
			continue;
		if (name_len < len && parse_us(s + name_len + 1, len - name_len - 1, &ns))
			return cli_error(
				EXIT_USAGE, CMD,
				"--trace os: threshold '%.*s' of %s is not a number of "
				"microseconds (os=syscall:1000 lists calls of 1 ms or more)",
				(int)(len - name_len - 1), s + name_len + 1, EVENTS[i].name);
		st->os.events |= EVENTS[i].bit;
		if (name_len < len)
			st->os.threshold_ns = ns;
		return -1;
	}
	return cli_error(EXIT_USAGE, CMD,
			 "--trace os: unknown event '%.*s'; events: " EVENT_LIST
			 "[:threshold in microseconds], comma-separated",
			 (int)len, s);
}

int collect_ostrace_parse(struct collect_state *st, const char *arg)
{
	int ret = -1;

	st->os.on = true;
	if (!*arg) { /* --trace os: everything but page faults */
		st->os.events |= OST_EV_SYSCALL | OST_EV_PTHREAD | OST_EV_SCHED;
		return -1;
	}
	if (*arg != '=' || !arg[1])
		return cli_error(
			EXIT_USAGE, CMD,
			"--trace os%s: give os or os=EV[:THRESHOLD_US],... with EV one of " EVENT_LIST,
			arg);
	for (const char *p = arg + 1; ret < 0 && *p;) {
		size_t len = strcspn(p, ",");

		if (!len)
			return cli_error(EXIT_USAGE, CMD, "--trace os: an empty event in '%s'",
					 arg + 1);
		ret = parse_one(st, p, len);
		p += len + (p[len] == ',');
	}
	st->os.events |= OST_EV_SCHED;
	return ret;
}

int collect_ostrace_threshold(struct collect_state *st, const char *arg)
{
	/* uProf's form: pthread:NS or function:NS, or a plain number of ns */
	const char *colon = strchr(arg, ':');
	const char *num = colon ? colon + 1 : arg;
	uint64_t us_ns;

	if (colon && strncmp(arg, "pthread:", 8) && strncmp(arg, "syscall:", 8))
		return cli_error(EXIT_USAGE, CMD,
				 "--osrt-threshold '%s': give pthread:NS, syscall:NS or NS "
				 "(nanoseconds)",
				 arg);
	if (parse_us(num, strlen(num), &us_ns))
		return cli_error(EXIT_USAGE, CMD,
				 "--osrt-threshold '%s' is not a number of nanoseconds", arg);
	st->os.threshold_ns = (us_ns + 500) / 1000; /* parse_us scaled it by 1000 */
	st->os.threshold_given = true;
	return -1;
}

/* A whole number in [1, @max] (decimal digits only), or 0. */
static uint64_t count_arg(const char *arg, uint64_t max)
{
	uint64_t v = 0;

	if (!*arg)
		return 0;
	for (const char *p = arg; *p; p++) {
		if (*p < '0' || *p > '9' || v > max)
			return 0;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	return v <= max ? v : 0;
}

#define MAX_THREADS_LIMIT (1u << 22) /* a pid_max's worth of threads */

int collect_ostrace_max_threads(struct collect_state *st, const char *arg)
{
	st->os.max_threads = count_arg(arg, MAX_THREADS_LIMIT);
	if (!st->os.max_threads)
		return cli_error(EXIT_USAGE, CMD,
				 "--max-threads '%s' is not a number of threads from 1 to %u", arg,
				 MAX_THREADS_LIMIT);
	return -1;
}

int collect_ostrace_buffer_size(struct collect_state *st, const char *arg)
{
	uint64_t v = count_arg(arg, 65536);

	if (!v || (v & (v - 1)))
		return cli_error(EXIT_USAGE, CMD,
				 "--buffer-size '%s' is not a number of pages per CPU: a power "
				 "of two from 1 to 65536",
				 arg);
	st->os.buffer_pages = (size_t)v;
	return -1;
}

/* The tracefs path and what to do, for a tracefs that is missing or not readable. */
static int tracefs_error(int err, const char *root)
{
	if (err == -EACCES)
		return cli_error(1, CMD,
				 "--trace os: %s is not readable by this user: OS tracing needs "
				 "root (or CAP_PERFMON with read access to tracefs and "
				 "kernel.perf_event_paranoid=-1 for the tracepoints' raw fields)",
				 root);
	return cli_error(1, CMD,
			 "--trace os: tracefs is not mounted (no events/ under %s): as root, "
			 "'mount -t tracefs nodev /sys/kernel/tracing'",
			 getenv("UPROF_TRACEFS_ROOT") && *getenv("UPROF_TRACEFS_ROOT")
				 ? getenv("UPROF_TRACEFS_ROOT")
				 : "/sys/kernel/tracing or /sys/kernel/debug/tracing");
}

/* Append "system: S\n" and the format file of @system:@name to the session's formats text. */
static int add_format(struct collect_state *st, const char *system, const char *name)
{
	size_t room = sizeof(st->os.formats) - st->os.formats_len, got = 0;
	char *at = st->os.formats + st->os.formats_len;
	int n = snprintf(at, room, "system: %s\n", system);
	int ret;

	if (n < 0 || (size_t)n >= room)
		return -EFBIG;
	ret = pmc_tracepoint_format(st->os.tracefs, system, name, at + n, room - (size_t)n, &got);
	if (!ret)
		st->os.formats_len += (size_t)n + got;
	return ret;
}

int collect_ostrace_add_tracepoint(struct collect_state *st, const char *system, const char *name,
				   uint64_t id, const char *opt)
{
	int ret = add_format(st, system, name);

	if (ret)
		return cli_error(1, CMD, "%s: tracepoint %s:%s under %s: %s", opt, system, name,
				 st->os.tracefs, strerror(-ret));
	if (st->nattrs >= COLLECT_MAX_ATTRS)
		return cli_error(EXIT_USAGE, CMD, "%s: too many events with -e (at most %d in all)",
				 opt, COLLECT_MAX_ATTRS - 1);
	pmc_tracepoint_attr(&st->attrs[st->nattrs], id);
	snprintf(st->event_names[st->nattrs], sizeof(st->event_names[0]), "%s:%s", system, name);
	st->nattrs++;
	return -1;
}

int collect_ostrace_prepare(struct collect_state *st)
{
	int ret;

	if (st->config_name && !strcmp(st->config_name, "threading") && !st->os.on) {
		/* uProf's threading analysis: thread states and pthread (futex) waits */
		st->os.on = true;
		st->os.events |= OST_EV_PTHREAD | OST_EV_SCHED | OST_EV_SYSCALL;
	}
	if (st->config_name && !strcmp(st->config_name, "overview") && !st->os.on) {
		/* uProf's overview: the timer plus OS runtime functions (calls and waits) */
		st->os.on = true;
		st->os.events |= OST_EV_PTHREAD | OST_EV_SYSCALL;
	}
	if (!st->os.on && (st->os.max_threads || st->os.buffer_pages))
		return cli_error(EXIT_USAGE, CMD,
				 "--%s sets the OS trace: give --trace os (or --config "
				 "threading)",
				 st->os.max_threads ? "max-threads" : "buffer-size");
	if (!st->os.on)
		return -1;
	if (st->os.buffer_pages && st->mmap_pages && st->mmap_pages != st->os.buffer_pages)
		return cli_error(EXIT_USAGE, CMD,
				 "--buffer-size and -m/--mmap-pages both size the rings: give "
				 "one");
	if (st->os.buffer_pages)
		st->mmap_pages = st->os.buffer_pages;
	if (st->system_wide)
		return cli_usage_error(CMD, "--trace os traces the launched or attached "
					    "processes: leave out -a, or give -p");
	if (!st->os.threshold_given && !st->os.threshold_ns)
		st->os.threshold_ns = OST_DEFAULT_THRESHOLD_NS;
	ret = pmc_tracefs_find(st->os.tracefs, sizeof(st->os.tracefs));
	if (ret)
		return tracefs_error(ret, st->os.tracefs);
	st->os.formats_len = (size_t)snprintf(
		st->os.formats, sizeof(st->os.formats), "%s\nthreshold_ns: %llu\nevents: %u\n",
		OST_FORMATS_MAGIC, (unsigned long long)st->os.threshold_ns, st->os.events);
	if (st->os.max_threads)
		st->os.formats_len += (size_t)snprintf(st->os.formats + st->os.formats_len,
						       sizeof(st->os.formats) - st->os.formats_len,
						       "max_threads: %llu\n",
						       (unsigned long long)st->os.max_threads);
	st->os.first = st->nattrs;
	for (size_t i = 0; i < sizeof(TRACEPOINTS) / sizeof(TRACEPOINTS[0]); i++) {
		const struct tp_need *tp = &TRACEPOINTS[i];
		uint64_t id;

		if (!(tp->wanted_by & st->os.events))
			continue;
		ret = pmc_tracepoint_id(st->os.tracefs, tp->system, tp->name, &id);
		if (ret == -ENOENT && tp->optional) {
			cli_warn(CMD, "--trace os: this kernel has no %s:%s tracepoint: no %s",
				 tp->system, tp->name, "page faults traced");
			continue;
		}
		if (ret == -EACCES || ret == -EPERM)
			return tracefs_error(-EACCES, st->os.tracefs);
		if (ret)
			return cli_error(1, CMD, "--trace os: tracepoint %s:%s under %s: %s",
					 tp->system, tp->name, st->os.tracefs, strerror(-ret));
		ret = collect_ostrace_add_tracepoint(st, tp->system, tp->name, id, "--trace os");
		if (ret >= 0)
			return ret;
		st->os.is_exit[st->nattrs - 1] = !strcmp(tp->name, "sys_exit");
		st->os.is_enter[st->nattrs - 1] = !strcmp(tp->name, "sys_enter");
	}
	/* the user call stack where a thread blocks: libc's system call wrappers keep no
	 * frame pointer, so a frame-pointer chain skips the function that called them;
	 * unwinding the copied stack (dwarf) finds it. -g or --call-graph chooses instead. */
	/* every system call is a record or two: rings of 4 MiB per CPU hold a burst of a
	 * few thousand calls between drains (-m chooses) */
	if (!st->mmap_pages)
		st->mmap_pages = OS_RING_PAGES;
	if (st->cg.mode == PMC_CG_NONE) {
		st->cg.mode = PMC_CG_DWARF;
		if (!st->cg.stack_bytes)
			st->cg.stack_bytes = PMC_CG_DEFAULT_STACK;
	}
	return -1;
}

int collect_ostrace_sampling_end(const struct collect_state *st)
{
	return st->os.on && st->os.first > 0 ? st->os.first : st->nattrs;
}

void collect_ostrace_attrs(struct collect_state *st)
{
	if (!st->os.on)
		return;
	/* switch-ins and switch-outs of the traced threads, with preemption said */
	st->attrs[COLLECT_TRACKING].context_switch = 1;
	for (int i = st->os.first; i < st->nattrs; i++) {
		struct perf_event_attr *a = &st->attrs[i];

		a->exclude_kernel = 0; /* the kernel fires tracepoints: never excluded */
		/* the kernel's frames of a tracepoint are the scheduler's and the syscall
		 * path's, the same each time: only the user's are worth their bytes */
		a->exclude_callchain_kernel = 1;
		if (a->sample_type & PERF_SAMPLE_STACK_USER && a->exclude_callchain_user)
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN; /* dwarf: unwound */
		if (st->os.is_enter[i] && a->sample_stack_user > OS_ENTRY_STACK_BYTES)
			a->sample_stack_user = OS_ENTRY_STACK_BYTES;
		if (st->os.is_exit[i]) { /* a call's stack is the one at its entry */
			a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN |
						      PERF_SAMPLE_REGS_USER |
						      PERF_SAMPLE_STACK_USER);
			a->sample_regs_user = 0;
			a->sample_stack_user = 0;
		}
	}
}

int collect_ostrace_save(struct collect_state *st)
{
	size_t done = 0;
	int fd, ret = 0;

	if (!st->os.on)
		return -1;
	fd = util_at_create(st->session_fd, OST_FORMATS_FILE, O_WRONLY | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return cli_error(1, CMD, "cannot create %s/%s: %s", st->session_dir,
				 OST_FORMATS_FILE, strerror(-fd));
	while (!ret && done < st->os.formats_len) {
		ssize_t n = write(fd, st->os.formats + done, st->os.formats_len - done);

		if (n < 0 && errno != EINTR)
			ret = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (ret)
		return cli_error(1, CMD, "cannot write %s/%s: %s", st->session_dir,
				 OST_FORMATS_FILE, strerror(-ret));
	return collect_ostrace_tracing_data(st);
}
