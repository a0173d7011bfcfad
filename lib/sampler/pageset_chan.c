// SPDX-License-Identifier: MIT
/*
 * The channel of a launched run (docs/DESIGN.md §5, issue 27): an abstract unix datagram
 * socket with a random name, passed to the run's processes in UPROF_PAGE_CHANNEL. Each
 * process's library hands its page over it, a memfd, with SCM_RIGHTS; the kernel adds
 * the sender's credentials (SO_PASSCRED), and only a process of this run (a descendant
 * of ours) is taken: anyone can send to an abstract socket, so everything else is
 * refused and counted. A page with no name cannot be squatted, forged under another's
 * pid or left behind by a killed process.
 *
 * Why a socket and not pidfd_getfd: that needs ptrace access to the target (refused for
 * a non-dumpable or setuid one, and by Yama's scope 2), and the number of the
 * descriptor in the target would still have to reach us; the socket needs neither, and
 * the page is laid out before it is sent, so it is taken at once.
 */
#include "sampler/internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_FDS 8	   /* descriptors taken from one datagram (one is expected) */
#define TAKE_PER_POLL 4096 /* datagrams read per call: the caller's loop is not starved */

void smp_pageset_channel_open(struct smp_pageset *s)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct epoll_event ev = { .events = EPOLLIN };
	unsigned char rnd[12];
	int one = 1, fd, ep;
	size_t len;

	/* random: nobody can bind it before us or guess it to send before the run */
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return;
	len = (size_t)snprintf(s->chan_name, sizeof(s->chan_name), "uprof.%d.", (int)getpid());
	for (size_t i = 0; i < sizeof(rnd); i++)
		len += (size_t)snprintf(s->chan_name + len, sizeof(s->chan_name) - len, "%02x",
					rnd[i]);
	memcpy(a.sun_path + 1, s->chan_name, len);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (fd < 0 || ep < 0 || setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&a,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len)) ||
	    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev)) {
		if (fd >= 0)
			close(fd);
		if (ep >= 0)
			close(ep);
		s->chan_name[0] = 0; /* the processes name their pages */
		return;
	}
	s->chan_fd = fd;
	s->poll_fd = ep;
}

const char *smp_pageset_channel(const struct smp_pageset *s)
{
	return s && s->chan_fd >= 0 ? s->chan_name : NULL;
}

void smp_pageset_channel_close(struct smp_pageset *s)
{
	if (s->chan_fd >= 0)
		close(s->chan_fd);
	if (s->poll_fd >= 0)
		close(s->poll_fd);
	s->chan_fd = s->poll_fd = -1;
}

static bool have_page(const struct smp_pageset *s, int pid)
{
	for (int i = 0; i < s->npages; i++)
		if (smp_page_pid(s->pages[i]->page) == pid)
			return true;
	for (size_t i = 0; i < s->nparked; i++)
		if (smp_page_pid(s->parked[i]->page) == pid)
			return true;
	return false;
}

/* A process of this run whose page we do not keep. */
static void lost(struct smp_pageset *s, int pid)
{
	s->counts.not_followed++;
	smp_pageset_note(s, pid);
}

/* One datagram: @n bytes of @msg, the sender's credentials (NULL: none), @fd (-1: none,
 * or more than one), @cut: the kernel could not give us every descriptor. */
static void handle(struct smp_pageset *s, const struct uprof_ctl_handoff *msg, ssize_t n,
		   const struct ucred *cred, int fd, bool cut)
{
	struct smp_page_why why;
	struct smp_page *page;
	int ret;

	if (!cred || cred->pid <= 0 || !smp_pageset_of_run(s, cred->pid)) {
		s->counts.channel_refused++; /* not ours to read, whatever it is */
		return;
	}
	if (cut || fd < 0 || n != (ssize_t)sizeof(*msg) || msg->magic != UPROF_CTL_HANDOFF_MAGIC) {
		lost(s, cred->pid); /* ours, and nothing we can read came */
		return;
	}
	if (s->npages + (int)s->nparked >= s->o.max_pages) {
		s->counts.over_pages++;
		return;
	}
	/* the same pid again: a program it exec'd made a page of its own; the first one's
	 * .tasks file is the pid's, so the second is not read (said, counted) */
	if (have_page(s, cred->pid)) {
		lost(s, cred->pid);
		return;
	}
	ret = smp_page_open_fd(&page, fd, cred->pid, cred->uid, s->token, (uint32_t)getpid(), &why);
	if (ret == -EPROTONOSUPPORT) {
		uint32_t version = 0;

		/* the version word, for the message (the page has no name to peek at) */
		if (pread(fd, &version, sizeof(version), 8) != (ssize_t)sizeof(version))
			version = 0;
		s->counts.refused++;
		smp_pageset_note(s, cred->pid);
		smp_pageset_say(s, SMP_PAGESET_VERSION, cred->pid, (int)version, NULL);
		return;
	}
	if (ret) {
		s->counts.refused++;
		smp_pageset_note(s, cred->pid);
		smp_pageset_say(s, SMP_PAGESET_REFUSED, cred->pid, -ret, &why);
		return;
	}
	smp_pidlist_add(&s->handed, cred->pid, SMP_PAGESET_MAX_PENDING);
	smp_pageset_take(s, cred->pid, page, false);
}

void smp_pageset_channel_take(struct smp_pageset *s)
{
	for (int k = 0; k < TAKE_PER_POLL && s->chan_fd >= 0; k++) {
		union {
			struct cmsghdr align;
			char buf[CMSG_SPACE(sizeof(struct ucred)) +
				 CMSG_SPACE(sizeof(int) * MAX_FDS)];
		} ctl;
		struct uprof_ctl_handoff msg = { 0 };
		struct iovec iov = { &msg, sizeof(msg) };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = ctl.buf,
				     .msg_controllen = sizeof(ctl.buf) };
		struct ucred cred;
		bool have_cred = false;
		int fds[MAX_FDS], nfds = 0;
		ssize_t n;

		/* no descriptor free for the page: a datagram read now would lose it (the
		 * kernel drops what it cannot install); the senders wait for room instead */
		if (!smp_pageset_fds_spare(s, 2))
			break;
		n = recvmsg(s->chan_fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_CREDENTIALS &&
			    c->cmsg_len >= CMSG_LEN(sizeof(cred))) {
				memcpy(&cred, CMSG_DATA(c), sizeof(cred));
				have_cred = true;
			} else if (c->cmsg_type == SCM_RIGHTS) {
				size_t got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);

				for (size_t i = 0; i < got && nfds < MAX_FDS; i++)
					memcpy(&fds[nfds++], CMSG_DATA(c) + i * sizeof(int),
					       sizeof(int));
			}
		}
		handle(s, &msg, n, have_cred ? &cred : NULL, nfds == 1 ? fds[0] : -1,
		       (mh.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0);
		for (int i = 0; i < nfds; i++)
			close(fds[i]);
	}
}
