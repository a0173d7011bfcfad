// SPDX-License-Identifier: MIT
/* The MPI family a program is linked with (launcher.h): an interposer of one family
 * aborts under the other, so collect --trace mpi must know which to preload. */
#include "launcher/launcher.h"
#include "session/mpi.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const struct {
	const char *soname;
	int family;
} known[] = { { "libmpi.so.40", SES_MPI_OPENMPI },
	      { "libmpi_mpifh.so.40", SES_MPI_OPENMPI },
	      { "libmpich.so.12", SES_MPI_MPICH },
	      { "libmpi.so.12", SES_MPI_MPICH },
	      { "libmpichfort.so.12", SES_MPI_MPICH } };

/* The family of one ldd line ("\tlibmpich.so.12 => /usr/lib/... (0x...)"), 0 if none;
 * @lib gets the soname. */
static int line_family(const char *line, char *lib, size_t len)
{
	const char *name = line + strspn(line, " \t");

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		size_t n = strlen(known[i].soname);

		if (!strncmp(name, known[i].soname, n) && strchr(" \t", name[n])) {
			snprintf(lib, len, "%s", known[i].soname);
			return known[i].family;
		}
	}
	return 0;
}

int launcher_mpi_family(const char *prog, char *lib, size_t len)
{
	char line[1024];
	int fds[2], status, family = 0;
	pid_t pid;
	FILE *f;

	if (pipe2(fds, O_CLOEXEC))
		return 0;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2);
		execlp("ldd", "ldd", prog, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = pid > 0 ? fdopen(fds[0], "r") : NULL;
	if (!f)
		close(fds[0]);
	while (f && fgets(line, sizeof(line), f))
		if (!family)
			family = line_family(line, lib, len);
	if (f)
		fclose(f);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return family;
}
