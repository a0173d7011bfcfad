// SPDX-License-Identifier: MIT
/*
 * User-space function probes for collect --func (docs/DESIGN.md §12): uprobes made in
 * tracefs's uprobe_events under a group of this process's own ("uprof_<pid>"), all of
 * one event so that one tracepoint attr counts them all (the kernel appends a probe
 * to an existing event of the same name; each record's __probe_ip tells which one
 * fired), removed at the end. A uprof killed before its end leaves its group behind:
 * the next one removes every group whose process is gone.
 */
#include "pmc/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One command line into @root/uprobe_events (appended: the others stay). */
static int probe_command(const char *root, const char *line)
{
	char path[PATH_MAX];
	size_t len = strlen(line);
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

void pmc_uprobe_group(char *group, size_t len, pid_t pid)
{
	snprintf(group, len, "%s%d", PMC_UPROBE_GROUP_PREFIX, (int)pid);
}

int pmc_uprobe_add(const char *root, const char *group, const char *event, const char *file,
		   uint64_t offset)
{
	char line[PATH_MAX + 128];

	/* a path with a space or a colon cannot be said to uprobe_events */
	if (strpbrk(file, " \t\n:") || *file != '/')
		return -EINVAL;
	snprintf(line, sizeof(line), "p:%s/%s %s:0x%" PRIx64 "\n", group, event, file, offset);
	return probe_command(root, line);
}

int pmc_uprobe_remove(const char *root, const char *group, const char *event)
{
	char line[256];

	snprintf(line, sizeof(line), "-:%s/%s\n", group, event);
	return probe_command(root, line);
}

/* The pid of a group name "uprof_<pid>", or 0. */
static pid_t group_pid(const char *group, size_t len)
{
	size_t pre = strlen(PMC_UPROBE_GROUP_PREFIX);
	long v = 0;

	if (len <= pre || len > pre + 10 || strncmp(group, PMC_UPROBE_GROUP_PREFIX, pre))
		return 0;
	for (size_t i = pre; i < len; i++) {
		if (group[i] < '0' || group[i] > '9')
			return 0;
		v = v * 10 + (group[i] - '0');
	}
	return v > 0 && v <= INT32_MAX ? (pid_t)v : 0;
}

int pmc_uprobe_sweep(const char *root, int *removed)
{
	char path[PATH_MAX], *buf = NULL, *line, *save = NULL;
	size_t len = 0, cap = 0;
	int fd, ret = 0;

	*removed = 0;
	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (;;) { /* tracefs files say size 0: read to EOF */
		ssize_t n;

		if (len + 4096 + 1 > cap) {
			char *p = realloc(buf, cap = cap ? cap * 2 : 16384);

			if (!p) {
				ret = -ENOMEM;
				break;
			}
			buf = p;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = -errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (ret || !buf) {
		free(buf);
		return ret;
	}
	buf[len] = 0;
	/* "p:GROUP/EVENT FILE:0xOFF": a probe appended to an event is listed again under
	 * the same name; the event's removal takes them all, a second one finds none */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *slash, *space, group[64];
		pid_t pid;
		int r;

		if (line[0] != 'p' || line[1] != ':')
			continue;
		slash = strchr(line + 2, '/');
		space = slash ? strchr(slash, ' ') : NULL;
		if (!space || (size_t)(slash - line - 2) >= sizeof(group))
			continue;
		memcpy(group, line + 2, (size_t)(slash - line - 2));
		group[slash - line - 2] = 0;
		pid = group_pid(group, strlen(group));
		if (!pid || !kill(pid, 0) || errno != ESRCH)
			continue; /* not ours, or its uprof still runs */
		*space = 0;
		r = pmc_uprobe_remove(root, group, slash + 1);
		if (!r)
			(*removed)++;
		else if (r != -ENOENT && !ret)
			ret = r;
	}
	free(buf);
	return ret;
}
