// SPDX-License-Identifier: MIT
/*
 * e2e mpi.sh, Must show 1: rank r spins (r+1) units of its own CPU time, then all ranks
 * meet in a barrier and an allreduce. A unit is CPU time (CLOCK_THREAD_CPUTIME_ID), not
 * wall time, so 4 ranks sharing 2 loaded cores still do 1:2:3:4 of work; the barrier then
 * holds rank 0 about 3 units of the others' work, rank 3 about none.
 *   mpi_spin <unit_ms> [hang|kill|fork]
 * hang: rank 1 never comes to the barrier (a hung job, for timeout to end); kill: rank 2
 * SIGKILLs itself there (the launcher then ends the others); fork: rank 0 forks a child
 * after MPI_Init that ends with _exit only after the rank's MPI_Finalize (a child must
 * not write the rank's MPI data: its counters are the fork's).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

volatile unsigned long sink;

__attribute__((noinline)) static void spin_units(double seconds)
{
	double end = cpu_s() + seconds;
	unsigned long x = 1;

	while (cpu_s() < end)
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

int main(int argc, char **argv)
{
	double unit = argc > 1 ? atof(argv[1]) / 1e3 : 0.2;
	int rank, size, sum = 0, one = 1, go[2] = { -1, -1 };
	pid_t child = -1;
	char c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 2 && !strcmp(argv[2], "fork") && rank == 0 && !pipe(go)) {
		child = fork();
		if (child == 0) { /* waits for the rank's MPI_Finalize, then _exit */
			close(go[1]);
			while (read(go[0], &c, 1) < 0)
				;
			_exit(0);
		}
		close(go[0]);
	}
	spin_units(unit * (rank + 1));
	{
		struct timespec t;

		/* when this rank reached the barrier: the others' waits follow from these */
		clock_gettime(CLOCK_MONOTONIC, &t);
		printf("rank %d barrier_enter_ns %lld\n", rank, t.tv_sec * 1000000000LL + t.tv_nsec);
		fflush(stdout);
	}
	if (argc > 2 && !strcmp(argv[2], "hang") && rank == 1)
		for (;;)
			pause();
	if (argc > 2 && !strcmp(argv[2], "kill") && rank == 2)
		raise(SIGKILL);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("ranks %d sum %d\n", size, sum);
	MPI_Finalize();
	if (child > 0) {
		close(go[1]); /* the child's read ends */
		waitpid(child, NULL, 0);
	}
	return sum == size ? 0 : 1;
}
