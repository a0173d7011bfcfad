// SPDX-License-Identifier: MIT
/*
 * A control page with no name (docs/DESIGN.md §5, issue 27): in launch mode collect
 * passes the name of an abstract unix socket it bound (UPROF_PAGE_CHANNEL); the page is
 * a memfd, and its descriptor goes to collect over that socket. Nobody can squat a name
 * that does not exist, and a killed process leaves nothing in /dev/shm: the memory goes
 * with the last mapping. Where the channel cannot be used (no variable, another network
 * namespace, collect gone or not taking it) page.c makes the named page instead.
 */
#include "instrument/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 0x0001U
#define MFD_ALLOW_SEALING 0x0002U
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_SEAL_SEAL 0x0001
#define F_SEAL_SHRINK 0x0002
#define F_SEAL_GROW 0x0004
#endif

/* collect takes the pages of 1000 children forked at once: a sender may wait for room in
 * its socket's queue (net.unix.max_dgram_qlen) this long before falling back to a name */
#define SEND_WAIT_S 5

int ins_channel_memfd(size_t size)
{
	char name[32];
	int fd;

	if (!getenv(UPROF_CTL_CHANNEL_ENV) || !*getenv(UPROF_CTL_CHANNEL_ENV))
		return -1;
	snprintf(name, sizeof(name), UPROF_CTL_SHM_PREFIX "%d", (int)getpid());
	/* CLOEXEC: an exec'd program makes its own page; a forked child drops its parent's
	 * mapping (page.c's at_fork_child) and this descriptor is closed once mapped */
	fd = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		return -1;
	}
	/* sized for good: a page that cannot shrink never faults the profiler's reads
	 * (lib/sampler/pageguard.c still guards a page that was not sealed) */
	fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	return fd;
}

bool ins_channel_send(int fd)
{
	const char *chan = getenv(UPROF_CTL_CHANNEL_ENV);
	struct uprof_ctl_handoff msg = { UPROF_CTL_HANDOFF_MAGIC, (int32_t)getpid(),
					 UPROF_CTL_VERSION };
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	struct iovec iov = { &msg, sizeof(msg) };
	struct msghdr mh = { 0 };
	struct timeval wait = { SEND_WAIT_S, 0 };
	struct cmsghdr *c;
	size_t len;
	int sock;
	bool sent;

	if (!chan || !(len = strnlen(chan, UPROF_CTL_CHANNEL_MAX)) || len >= sizeof(to.sun_path))
		return false;
	memcpy(to.sun_path + 1, chan, len); /* sun_path[0] = 0: the abstract namespace */
	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0)
		return false;
	setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof(wait));
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_name = &to;
	mh.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	/* the kernel adds our credentials (collect sets SO_PASSCRED): it, not this
	 * message, tells collect whose page this is */
	sent = sendmsg(sock, &mh, MSG_NOSIGNAL) == (ssize_t)sizeof(msg);
	close(sock);
	return sent;
}
