// SPDX-License-Identifier: MIT
/*
 * e2e mpi_large.sh: MPI 4.0's large-count calls (MPICH 4.0), on 2 ranks. The program
 * counts its own calls, bytes and transfers as it makes them and prints them, as
 * mpi_fbind.F90 does ("count <rank> <function> <calls> <sent> <received>", "pair <from>
 * <to> <bytes> <transfers>"): uprof counts MPI_Send_c as MPI_Send, and so on.
 *   MPI_Send_c of 2^31 + 24 bytes from rank 0 to 1, MPI_Recv_c of them (past an int)
 *   MPI_Isend_c of 100 ints to the other rank, MPI_Irecv_c of 100, 2 MPI_Wait
 *   MPI_Bcast_c of 10 doubles from rank 0, MPI_Reduce_c of 3 doubles to rank 0,
 *   MPI_Allreduce_c of 4 ints
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (((MPI_Count)1 << 31) + 24)

enum { SEND, RECV, ISEND, IRECV, WAIT, BCAST, REDUCE, ALLREDUCE, NF };
static const char *const names[NF] = { "MPI_Send", "MPI_Recv",	"MPI_Isend",  "MPI_Irecv",
				       "MPI_Wait", "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce" };
static unsigned long long calls[NF], sent[NF], recvd[NF], pair_bytes, pair_n;

int main(int argc, char **argv)
{
	int rank, size, other, ia[100], ib[100], s4[4] = { 1, 2, 3, 4 }, r4[4];
	double d10[10] = { 0 }, d3[3] = { 1, 2, 3 }, r3[3];
	MPI_Request rq[2];
	char *big;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 2) {
		fprintf(stderr, "mpi_large: run on 2 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	other = 1 - rank;
	big = malloc(BIG);
	if (!big) {
		fprintf(stderr, "mpi_large: no memory for %lld bytes\n", (long long)BIG);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(big, rank + 1, BIG);
	if (rank == 0) {
		MPI_Send_c(big, BIG, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
		calls[SEND]++, sent[SEND] += BIG, pair_bytes += BIG, pair_n++;
	} else {
		MPI_Recv_c(big, BIG, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		calls[RECV]++, recvd[RECV] += BIG;
		if (big[BIG - 1] != 1)
			MPI_Abort(MPI_COMM_WORLD, 3);
	}
	free(big);

	MPI_Irecv_c(ib, 100, MPI_INT, other, 8, MPI_COMM_WORLD, &rq[0]);
	calls[IRECV]++, recvd[IRECV] += 100 * sizeof(int);
	MPI_Isend_c(ia, 100, MPI_INT, other, 8, MPI_COMM_WORLD, &rq[1]);
	calls[ISEND]++, sent[ISEND] += 100 * sizeof(int), pair_bytes += 100 * sizeof(int), pair_n++;
	MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
	calls[WAIT] += 2;

	MPI_Bcast_c(d10, 10, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	calls[BCAST]++, *(rank == 0 ? &sent[BCAST] : &recvd[BCAST]) += 10 * sizeof(double);
	MPI_Reduce_c(d3, r3, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	calls[REDUCE]++, sent[REDUCE] += 3 * sizeof(double);
	if (rank == 0)
		recvd[REDUCE] += 3 * sizeof(double);
	MPI_Allreduce_c(s4, r4, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	calls[ALLREDUCE]++, sent[ALLREDUCE] += 4 * sizeof(int), recvd[ALLREDUCE] += 4 * sizeof(int);

	for (int f = 0; f < NF; f++)
		if (calls[f])
			printf("count %d %s %llu %llu %llu\n", rank, names[f], calls[f], sent[f],
			       recvd[f]);
	printf("pair %d %d %llu %llu\n", rank, other, pair_bytes, pair_n);
	fflush(stdout);
	MPI_Finalize();
	return r4[3] == 8 ? 0 : 1;
}
