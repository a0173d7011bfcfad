// SPDX-License-Identifier: MIT
/*
 * examples/mpi: a ring with some imbalance, to see what uprof's MPI job report shows.
 * Rank r computes for (r+1) x 100 ms of CPU time, passes a message of (r+1) KiB around
 * the ring ten times, and all ranks meet in MPI_Allreduce: the report's MPI IMBALANCE
 * flags the waits of the fast ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

__attribute__((noinline)) static double compute(double seconds)
{
	double end = cpu_s() + seconds, x = 1;

	while (cpu_s() < end)
		for (int i = 0; i < 10000; i++)
			x = x * 1.0000001 + 1e-9;
	return x;
}

int main(int argc, char **argv)
{
	static char buf[64 << 10], in[64 << 10];
	int rank, size;
	double x, sum;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	x = compute(0.1 * (rank + 1));
	for (int i = 0; i < 10; i++)
		MPI_Sendrecv(buf, 1024 * (rank % 64 + 1), MPI_BYTE, (rank + 1) % size, i, in,
			     sizeof(in), MPI_BYTE, (rank + size - 1) % size, i, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	if (!rank)
		printf("%d ranks, sum %.3f\n", size, sum);
	MPI_Finalize();
	return 0;
}
