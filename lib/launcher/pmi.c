// SPDX-License-Identifier: MIT
/*
 * A PMI-1 client of one question (launcher.h): MPICH's Hydra gives each rank a socket to
 * its proxy in PMI_FD and speaks the PMI-1 wire protocol on it, "cmd=<name> key=value..."
 * lines each way. We ask for the job's KVS name, the one id every rank of the job shares,
 * before the program starts; the program's MPI_Init then says init again on the same
 * socket.
 */
#include "launcher/launcher.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PMI_LINE_MAX 512

/* One reply line into @buf (NUL in place of its '\n'), read a byte at a time: the socket
 * is the program's after us, and not one byte of what follows may be taken from it.
 * 0 or -errno. */
static int pmi_line(int fd, int timeout_ms, char *buf, size_t size)
{
	size_t n = 0;

	while (n + 1 < size) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		r = read(fd, buf + n, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? -errno : -ECONNRESET;
		if (buf[n] == '\n') {
			buf[n] = 0;
			return 0;
		}
		n++;
	}
	return -E2BIG;
}

static int pmi_ask(int fd, int timeout_ms, const char *cmd, char *reply, size_t size)
{
	size_t len = strlen(cmd);

	if (write(fd, cmd, len) != (ssize_t)len)
		return -EIO;
	return pmi_line(fd, timeout_ms, reply, size);
}

int launcher_pmi_fd(void)
{
	const char *v = getenv("PMI_FD");
	char *end;
	long fd;

	if (!v)
		return -ENOENT;
	fd = strtol(v, &end, 10);
	if (*end || end == v || fd < 0 || fd > 65535 || fcntl((int)fd, F_GETFD) < 0)
		return -EBADF;
	return (int)fd;
}

int launcher_pmi_kvsname(int fd, int timeout_ms, char *out, size_t size)
{
	char reply[PMI_LINE_MAX];
	const char *k;
	int ret;

	ret = pmi_ask(fd, timeout_ms, "cmd=init pmi_version=1 pmi_subversion=1\n", reply,
		      sizeof(reply));
	if (!ret && (!strstr(reply, "cmd=response_to_init") || !strstr(reply, "rc=0")))
		ret = -EPROTO;
	if (!ret)
		ret = pmi_ask(fd, timeout_ms, "cmd=get_my_kvsname\n", reply, sizeof(reply));
	if (ret)
		return ret;
	k = strstr(reply, "kvsname=");
	if (!k || !k[8])
		return -EPROTO;
	k += 8;
	snprintf(out, size, "%.*s", (int)strcspn(k, " \t\r"), k);
	return 0;
}
