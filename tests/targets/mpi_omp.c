// SPDX-License-Identifier: MIT
/*
 * e2e mpi.sh, Must show 6 (hybrid): MPI + OpenMP, built with the MPI family's compiler
 * wrapper around clang -fopenmp (LLVM libomp, which has OMPT).
 *   mpi_omp <unit_ms> [regions]
 * Every rank runs one parallel region (2 threads) @regions times (default 3); in each,
 * thread t of rank r spins (r + 1) * (t + 1) units of its own CPU time divided by @regions
 * (CLOCK_THREAD_CPUTIME_ID: the ratios hold on a loaded machine). So over the run rank r
 * does 3 (r + 1) units, 1:2:3:4 across ranks, and inside a rank thread 1 does twice what
 * thread 0 does and thread 0 waits at the region's end. Then the main thread (the only one
 * calling MPI: MPI_THREAD_FUNNELED) meets the others in 1 MPI_Barrier and 2 MPI_Allreduce.
 */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

volatile unsigned long sink;

__attribute__((noinline)) static void spin(double seconds)
{
	double end = cpu_s() + seconds;
	unsigned long x = 1;

	while (cpu_s() < end)
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink += x;
}

int main(int argc, char **argv)
{
	double unit = argc > 1 ? atof(argv[1]) / 1e3 : 0.05;
	int regions = argc > 2 ? atoi(argv[2]) : 3;
	int rank, size, provided, sum = 0, one = 1, max = 0;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int k = 0; k < regions; k++) {
#pragma omp parallel num_threads(2)
		spin(unit * (rank + 1) * (omp_get_thread_num() + 1) / regions);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(&rank, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rank == 0)
		printf("ranks %d sum %d max %d thread_level %d\n", size, sum, max, provided);
	MPI_Finalize();
	return sum == size && max == size - 1 ? 0 : 1;
}
