// SPDX-License-Identifier: MIT
/*
 * Why a rank traced with --trace mpi has no mpi/<pid>.mpi. lib/mpi's interposer leaves an
 * empty <pid>.noinit when the process it was loaded in exits without an MPI_Init it saw
 * (lib/mpi/uprof_mpi_noinit.c): then the rank ran to its end and its MPI started, if at
 * all, through an entry point uprof does not interpose. With neither file, the process
 * never reached an exit that runs atexit handlers with the library loaded: killed (SIGKILL
 * leaves nothing), ended with _exit before MPI_Init, or never loaded the library.
 */
#include "job/internal.h"

#include <string.h>

bool rpt_job_mpi_is_noinit(const char *name)
{
	size_t n = strlen(name), k = strlen(SES_MPI_NOINIT_SUFFIX);

	return n > k && name[0] != '.' && !strcmp(name + n - k, SES_MPI_NOINIT_SUFFIX);
}

void rpt_job_mpi_why_none(char *why, size_t len, int noinit)
{
	if (noinit)
		snprintf(why, len,
			 "no MPI data: the program ran with uprof's MPI library loaded and "
			 "exited, and the library saw no MPI_Init: MPI was started through an "
			 "entry point uprof does not trace, or never");
	else
		snprintf(why, len,
			 "no MPI data: the rank wrote no %s/<pid>.mpi: killed (SIGKILL), or "
			 "ended by _exit before MPI_Init, or uprof's MPI library was not loaded "
			 "in it",
			 SES_MPI_DIR);
}
