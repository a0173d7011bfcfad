// SPDX-License-Identifier: MIT
/*
 * Call sites under MPI_THREAD_MULTIPLE (tests/e2e/mpi_sites.sh): 4 threads of each rank
 * call MPI_Iprobe 20000 times each at once, threads 0 and 1 at one line, 2 and 3 at
 * another, racing to claim each site's slot and to add to its counters: each site must
 * count 40000 calls a rank, none lost.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define CALLS 20000

static pthread_barrier_t go;

__attribute__((noinline)) static void probe_a(void)
{
	int flag;

	MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* site:mt_a */
	__asm__ volatile("" ::: "memory"); /* not a tail call: the site stays this line */
}

__attribute__((noinline)) static void probe_b(void)
{
	int flag;

	MPI_Iprobe(MPI_ANY_SOURCE, 98, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* site:mt_b */
	__asm__ volatile("" ::: "memory");
}

static void *worker(void *arg)
{
	long t = (long)arg;

	pthread_barrier_wait(&go);
	for (int i = 0; i < CALLS; i++)
		(t < 2 ? probe_a : probe_b)();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[4];
	int provided;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided != MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "mpi_sites_mt: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
		MPI_Finalize();
		return 3;
	}
	pthread_barrier_init(&go, NULL, 4);
	for (long t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, worker, (void *)t);
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	MPI_Finalize();
	return 0;
}
