// SPDX-License-Identifier: MIT
/*
 * More call sites than the interposer's table holds (1024 a rank: lib/mpi/sites.h): 1100
 * MPI_Iprobe calls, each its own return address (tests/e2e/mpi_sites.sh). The calls the
 * full table has no room for are counted as lost, and with the kept sites' calls they
 * are every call.
 */
#include <mpi.h>

#define PROBE MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
#define PROBE10 PROBE PROBE PROBE PROBE PROBE PROBE PROBE PROBE PROBE PROBE
#define PROBE100 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10 PROBE10

int main(int argc, char **argv)
{
	int flag = 0;

	MPI_Init(&argc, &argv);
	PROBE100 PROBE100 PROBE100 PROBE100 PROBE100 PROBE100 PROBE100 PROBE100 PROBE100 PROBE100
	PROBE100
	MPI_Finalize();
	return flag;
}
