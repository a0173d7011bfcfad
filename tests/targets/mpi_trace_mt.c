// SPDX-License-Identifier: MIT
/*
 * e2e mpi_trace.sh: --trace mpi=full under MPI_THREAD_MULTIPLE (the interposer's slots
 * taken with an atomic add, several threads at once). 2 ranks, 2 threads each: rank 0's
 * thread t MPI_Send's 100 ints one at a time to rank 1 with tag t; rank 1's thread t
 * MPI_Irecv's them (tag t) and MPI_Wait's each: 200 messages, each arriving in the MPI_Wait
 * of the thread that posted its receive.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define MSGS 100

static int rank;

static void *run(void *arg)
{
	int t = (int)(long)arg, v = 0;

	for (int i = 0; i < MSGS; i++) {
		if (rank == 0) {
			MPI_Send(&v, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
		} else {
			MPI_Request r;

			MPI_Irecv(&v, 1, MPI_INT, 0, t, MPI_COMM_WORLD, &r);
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];
	int provided;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (provided != MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "mpi_trace_mt: the library gives no MPI_THREAD_MULTIPLE\n");
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	for (long t = 0; t < 2; t++)
		pthread_create(&th[t], NULL, run, (void *)t);
	for (int t = 0; t < 2; t++)
		pthread_join(th[t], NULL);
	MPI_Finalize();
	return 0;
}
