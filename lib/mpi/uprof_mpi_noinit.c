// SPDX-License-Identifier: MIT
/*
 * lib/mpi: what a rank whose MPI_Init was never seen leaves. The interposer records from the
 * MPI_Init it interposes (C, mpif.h, use mpi_f08); a program whose MPI starts through an
 * entry point it does not interpose (a `use mpi_f08` program before uprof_mpi_fbind.c), or
 * that never starts MPI, ran to its end with nothing recorded, and the report could only
 * guess "killed by SIGKILL, or it never called MPI_Init", wrongly for a rank that called
 * it. So, loaded by collect (UPROF_MPI_DIR set), the library leaves an empty
 * <pid>.noinit (lib/session/mpi.h) when the process exits without an MPI_Init it saw:
 * the report then says the library was there and saw no start, not that it was killed.
 */
#include "mpi/internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pid_t loaded_in; /* a child forked later is not the process that was traced */

/* At exit: no MPI_Init seen (umpi.on never set), in the process the library was loaded
 * in. The directory as umpi_start() opens it: collect's fd of it followed, any other name
 * not, and only a directory of ours. */
static void mark_noinit(void)
{
	const char *dir = getenv(SES_MPI_ENV_DIR);
	char name[32];
	struct stat sb;
	int dfd, fd;

	if (umpi.on || getpid() != loaded_in || !dir || !*dir)
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
				(strncmp(dir, "/proc/", 6) ? O_NOFOLLOW : 0));
	if (dfd < 0)
		return;
	if (!fstat(dfd, &sb) && sb.st_uid == geteuid()) {
		snprintf(name, sizeof(name), "%d" SES_MPI_NOINIT_SUFFIX, (int)getpid());
		fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd >= 0)
			close(fd);
	}
	close(dfd);
}

__attribute__((constructor)) static void noinit_watch(void)
{
	const char *dir = getenv(SES_MPI_ENV_DIR);

	if (!dir || !*dir)
		return; /* not under collect --trace mpi: nothing at all */
	loaded_in = getpid();
	atexit(mark_noinit);
}
