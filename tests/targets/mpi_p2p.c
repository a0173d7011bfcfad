// SPDX-License-Identifier: MIT
/*
 * e2e mpi.sh, Must show 2: a known point-to-point pattern on 4 ranks (more ranks join
 * the ring only), so that the communication matrix and the call counts can be checked
 * exactly:
 *   ring, blocking: rank r MPI_Send's 5 messages of (r+1)*100 ints to r+1, MPI_Recv's 5
 *     from r-1                                        (r -> r+1: 5 transfers, 2000(r+1) B)
 *   nonblocking: rank 0 MPI_Isend's 3 messages of 1000 bytes to rank 2, which
 *     MPI_Irecv's them; both MPI_Waitall                 (0 -> 2: 3 transfers, 3000 B)
 *   persistent: rank 1 MPI_Send_init's 64 doubles to rank 3, which MPI_Recv_init's
 *     them; MPI_Start + MPI_Wait 4 times on both         (1 -> 3: 4 transfers, 2048 B)
 *   MPI_Pcontrol(0) .. (1) around 7 more ring sends: not counted
 *   then MPI_Barrier and MPI_Allreduce of one int
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ints[5][400], back[5][400];

static void ring(int rank, int size, int times)
{
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;

	for (int i = 0; i < times; i++) {
		if (rank % 2 == 0) {
			MPI_Send(ints[i % 5], (rank + 1) * 100, MPI_INT, next, i, MPI_COMM_WORLD);
			MPI_Recv(back[i % 5], (prev + 1) * 100, MPI_INT, prev, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(back[i % 5], (prev + 1) * 100, MPI_INT, prev, i, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(ints[i % 5], (rank + 1) * 100, MPI_INT, next, i, MPI_COMM_WORLD);
		}
	}
}

int main(int argc, char **argv)
{
	char bytes[3][1000];
	double dbl[64];
	MPI_Request req[3];
	MPI_Status st[3];
	int rank, size, one = 1, sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 4 || size * 100 > 400 * 4) {
		if (!rank)
			fprintf(stderr, "mpi_p2p: run it on 4 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(bytes, 7, sizeof(bytes));
	memset(dbl, 0, sizeof(dbl));
	ring(rank, size, 5);
	if (rank == 0) {
		for (int i = 0; i < 3; i++)
			MPI_Isend(bytes[i], 1000, MPI_BYTE, 2, 100 + i, MPI_COMM_WORLD, &req[i]);
		MPI_Waitall(3, req, st);
	} else if (rank == 2) {
		for (int i = 0; i < 3; i++)
			MPI_Irecv(bytes[i], 1000, MPI_BYTE, 0, 100 + i, MPI_COMM_WORLD, &req[i]);
		MPI_Waitall(3, req, st);
	}
	if (rank == 1 || rank == 3) {
		MPI_Request p;

		if (rank == 1)
			MPI_Send_init(dbl, 64, MPI_DOUBLE, 3, 200, MPI_COMM_WORLD, &p);
		else
			MPI_Recv_init(dbl, 64, MPI_DOUBLE, 1, 200, MPI_COMM_WORLD, &p);
		for (int i = 0; i < 4; i++) {
			MPI_Start(&p);
			MPI_Wait(&p, MPI_STATUS_IGNORE);
		}
		MPI_Request_free(&p);
	}
	MPI_Pcontrol(0);
	ring(rank, size, 7);
	MPI_Pcontrol(1);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return sum == size ? 0 : 1;
}
