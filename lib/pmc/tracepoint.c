// SPDX-License-Identifier: MIT
/*
 * Kernel tracepoints as sampled events (--trace os, docs/DESIGN.md §12): where tracefs is,
 * a tracepoint's id and format file there, and the attr that samples every occurrence
 * with its raw fields. The format file travels into the session so that report reads the
 * field offsets this kernel used (they change between kernels: never hard-coded).
 */
#include "pmc/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Where tracefs may be: its own mount point (kernel 4.1 on), then the debugfs one. */
static const char *const TRACEFS_PLACES[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

int pmc_tracefs_find(char *root, size_t len)
{
	const char *env = getenv("UPROF_TRACEFS_ROOT"); /* tests: a fake tree */
	char events[PATH_MAX];
	int ret = -ENOENT;

	for (size_t i = 0; i < 2 && ret; i++) {
		const char *place = env && *env ? env : TRACEFS_PLACES[i];

		snprintf(events, sizeof(events), "%s/events", place);
		if (!access(events, X_OK)) {
			snprintf(root, len, "%s", place);
			ret = 0;
		} else if (errno == EACCES || errno == EPERM) {
			snprintf(root, len, "%s", place); /* there, but not ours to read */
			ret = -EACCES;
			break;
		}
		if (env && *env)
			break;
	}
	return ret;
}

/* events/<system>/<name>/<file> under @root into @buf (@len bytes, NUL-terminated). */
static int read_event_file(const char *root, const char *system, const char *name, const char *file,
			   char *buf, size_t len, size_t *got)
{
	char path[PATH_MAX];
	size_t used = 0;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/events/%s/%s/%s", root, system, name, file);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	/* tracefs files report size 0: read until EOF */
	while (used + 1 < len) {
		ssize_t n = read(fd, buf + used, len - 1 - used);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		used += (size_t)n;
	}
	if (!ret && used + 1 >= len)
		ret = -EFBIG;
	close(fd);
	buf[used] = 0;
	if (got)
		*got = used;
	return ret;
}

int pmc_tracepoint_id(const char *root, const char *system, const char *name, uint64_t *id)
{
	char buf[32], *end;
	unsigned long long v;
	int ret = read_event_file(root, system, name, "id", buf, sizeof(buf), NULL);

	if (ret)
		return ret;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	*id = v;
	return 0;
}

int pmc_tracepoint_format(const char *root, const char *system, const char *name, char *buf,
			  size_t len, size_t *got)
{
	return read_event_file(root, system, name, "format", buf, len, got);
}

void pmc_tracepoint_attr(struct perf_event_attr *attr, uint64_t id)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	/* every occurrence (a tracepoint's period is 1 whatever is asked), with its fields */
	attr->sample_period = 1;
	attr->sample_type = PMC_SAMPLE_TYPE | PERF_SAMPLE_RAW;
	attr->disabled = 1;
	attr->inherit = 1;
	attr->sample_id_all = 1;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	/* a tracepoint fires in the kernel: exclude_kernel would drop every one of them */
	attr->exclude_hv = 1;
	attr->watermark = 1;
	attr->wakeup_watermark = 64 * 1024;
}
