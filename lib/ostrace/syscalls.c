// SPDX-License-Identifier: MIT
/*
 * System calls by number, for this architecture (report refuses a session of another:
 * session.ini's arch): their names, from the C library's <sys/syscall.h> at build time
 * (ost_sysnames.h, made by lib/ostrace/module.mk), and what a thread blocked in one is
 * waiting for. The kinds follow perf trace's and VTune's: sleeps, I/O on descriptors,
 * futex (every pthread mutex, condition variable and join ends there), the rest.
 */
#include "ostrace/ostrace.h"

#include <stdio.h>
#include <sys/syscall.h>

static const struct {
	long nr;
	const char *name;
} NAMES[] = {
#include "ost_sysnames.h"
};

const char *ost_wait_name(enum ost_wait w)
{
	static const char *const N[OST_NWAITS] = { "sleep", "I/O", "lock", "other" };

	return w >= 0 && w < OST_NWAITS ? N[w] : "other";
}

const char *ost_syscall_name(int64_t nr, char *buf, size_t len)
{
	for (size_t i = 0; i < sizeof(NAMES) / sizeof(NAMES[0]); i++)
		if (NAMES[i].nr == nr)
			return NAMES[i].name;
	snprintf(buf, len, "syscall_%lld", (long long)nr);
	return buf;
}

/* clang-format off */
enum ost_wait ost_syscall_wait(int64_t nr)
{
	switch (nr) {
#ifdef SYS_nanosleep
	case SYS_nanosleep:
#endif
#ifdef SYS_pause
	case SYS_pause:
#endif
	case SYS_clock_nanosleep:
		return OST_WAIT_SLEEP;
	case SYS_futex:
#ifdef SYS_futex_waitv
	case SYS_futex_waitv:
#endif
		return OST_WAIT_LOCK;
	case SYS_read: case SYS_write: case SYS_readv: case SYS_writev:
	case SYS_pread64: case SYS_pwrite64: case SYS_preadv: case SYS_pwritev:
#ifdef SYS_poll
	case SYS_poll:
#endif
#ifdef SYS_select
	case SYS_select:
#endif
#ifdef SYS_epoll_wait
	case SYS_epoll_wait:
#endif
	case SYS_ppoll: case SYS_pselect6: case SYS_epoll_pwait:
	case SYS_recvfrom: case SYS_sendto: case SYS_recvmsg: case SYS_sendmsg:
	case SYS_recvmmsg: case SYS_sendmmsg: case SYS_accept: case SYS_accept4:
	case SYS_connect: case SYS_fsync: case SYS_fdatasync: case SYS_openat:
	case SYS_io_getevents: case SYS_io_uring_enter: case SYS_splice:
#ifdef SYS_sendfile
	case SYS_sendfile:
#endif
		return OST_WAIT_IO;
	default:
		return OST_WAIT_OTHER;
	}
}

bool ost_syscall_moves_bytes(int64_t nr)
{
	switch (nr) {
	case SYS_read: case SYS_write: case SYS_readv: case SYS_writev:
	case SYS_pread64: case SYS_pwrite64: case SYS_preadv: case SYS_pwritev:
	case SYS_recvfrom: case SYS_sendto: case SYS_recvmsg: case SYS_sendmsg:
#ifdef SYS_sendfile
	case SYS_sendfile:
#endif
	case SYS_splice:
		return true;
	default:
		return false;
	}
}
/* clang-format on */
