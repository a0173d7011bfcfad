// SPDX-License-Identifier: MIT
/*
 * bench/mpi.sh: the cost the MPI interposer adds to a call.
 *   mpi_pingpong null <n>   one rank: <n> MPI_Send to MPI_PROC_NULL (the library returns at
 *                           once: what is left is the call, and the interposer around it)
 *   mpi_pingpong pp <n>     two ranks: <n> zero-byte round trips (MPI_Send + MPI_Recv each)
 * Prints "ns_per_call <x>" (rank 0's wall time over its MPI calls).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 1000000;
	int rank, size;
	char b = 0;
	double t0, t1;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && !strcmp(argv[1], "pp") && size >= 2) {
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = now();
		for (long i = 0; i < n && rank < 2; i++) {
			if (rank == 0) {
				MPI_Send(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
				MPI_Recv(&b, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(&b, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
			}
		}
		t1 = now();
		if (rank == 0)
			printf("ns_per_call %.1f\n", (t1 - t0) / (2.0 * n));
	} else if (rank == 0) {
		t0 = now();
		for (long i = 0; i < n; i++)
			MPI_Send(&b, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
		t1 = now();
		printf("ns_per_call %.1f\n", (t1 - t0) / n);
	}
	MPI_Finalize();
	return 0;
}
