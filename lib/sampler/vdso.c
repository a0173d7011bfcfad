// SPDX-License-Identifier: MIT
/* Copy of the vDSO for the session: the one ELF image no file on disk holds. */
#include "sampler/internal.h"
#include "session/session.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* Size of the [vdso] mapping, from /proc/self/maps. */
static size_t vdso_size(uintptr_t base)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t size = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &lo, &hi) == 2 && lo == base &&
		    strstr(line, "[vdso]")) {
			size = hi - lo;
			break;
		}
	}
	fclose(f);
	return size;
}

int smp_vdso_save(int dfd, const char *rel)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	const char *p = (const char *)base;
	size_t size, done = 0;
	int fd, ret = 0;

	if (!base)
		return -ENOENT;
	size = vdso_size(base);
	if (!size)
		return -ENOENT;
	fd = util_at_create(dfd, rel, O_WRONLY | O_EXCL, SES_FILE_MODE); /* it is in a session */
	if (fd < 0)
		return fd;
	while (done < size) {
		ssize_t n = write(fd, p + done, size - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
