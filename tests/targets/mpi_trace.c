// SPDX-License-Identifier: MIT
/*
 * e2e mpi_trace.sh: a known MPI program for `--trace mpi=full`'s trace.json, on an even
 * number of ranks (4 in the test): mpi_trace [LONG_MS [ITER]] (300, 3). Per rank, ITER
 * rounds of:
 *   ring, blocking: even ranks MPI_Send to r+1 then MPI_Recv from MPI_ANY_SOURCE (the
 *     status says r-1), odd ranks the other way round; tag 10+i, (r+1)*100 bytes
 *   pairwise exchange with r^1: MPI_Irecv, MPI_Isend (tag 20+i, 64 ints), MPI_Waitall
 *     with MPI_STATUSES_IGNORE
 * then MPI_Bcast of 256 ints from rank 0, MPI_Barrier, and one long blocking call: rank 1
 * waits in MPI_Recv (tag 99) while rank 0 sleeps LONG_MS before its MPI_Send. Rank 1
 * prints how long its MPI_Recv took by its own clock ("long_recv_ns N", stdout).
 * Calls per rank: MPI_Send ITER (+1 rank 0), MPI_Recv ITER (+1 rank 1), MPI_Irecv,
 * MPI_Isend and MPI_Waitall ITER each, MPI_Bcast 1, MPI_Barrier 1; messages: 2 ITER per
 * rank, and the long one.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* gcc reads MPI_Waitall's MPI_STATUSES_IGNORE (a null pointer) as a 0-byte array: the
 * call with it is the point (the interposer reads the sources from statuses of its own) */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static char ring_out[1000], ring_in[1000];
static int ex_out[64], ex_in[64], bcast[256];

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	int rank, size, long_ms = argc > 1 ? atoi(argv[1]) : 300;
	int iter = argc > 2 ? atoi(argv[2]) : 3;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || size % 2 || size > 8) {
		if (!rank)
			fprintf(stderr, "mpi_trace: run it on 2, 4, 6 or 8 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (int i = 0; i < iter; i++) {
		int next = (rank + 1) % size, prev = (rank + size - 1) % size, partner = rank ^ 1;
		MPI_Request req[2];

		if (rank % 2 == 0) {
			MPI_Send(ring_out, (rank + 1) * 100, MPI_CHAR, next, 10 + i, MPI_COMM_WORLD);
			MPI_Recv(ring_in, sizeof(ring_in), MPI_CHAR, MPI_ANY_SOURCE, 10 + i,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(ring_in, sizeof(ring_in), MPI_CHAR, MPI_ANY_SOURCE, 10 + i,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(ring_out, (rank + 1) * 100, MPI_CHAR, next, 10 + i, MPI_COMM_WORLD);
		}
		(void)prev;
		MPI_Irecv(ex_in, 64, MPI_INT, partner, 20 + i, MPI_COMM_WORLD, &req[0]);
		MPI_Isend(ex_out, 64, MPI_INT, partner, 20 + i, MPI_COMM_WORLD, &req[1]);
		MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
	}
	MPI_Bcast(bcast, 256, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		struct timespec d = { long_ms / 1000, (long_ms % 1000) * 1000000L };

		nanosleep(&d, NULL);
		MPI_Send(bcast, 1, MPI_INT, 1, 99, MPI_COMM_WORLD);
	} else if (rank == 1) {
		long long t0 = now_ns(), t1;

		MPI_Recv(bcast, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		t1 = now_ns();
		printf("long_recv_ns %lld\n", t1 - t0);
		fflush(stdout);
	}
	MPI_Finalize();
	return 0;
}
