// SPDX-License-Identifier: MIT
/*
 * e2e mpi_trace.sh: persistent requests under `--trace mpi=full`, on an even number of
 * ranks (4 in the test): mpi_persist [ROUNDS] (5). Each rank makes, once, with partner
 * r^1, next r+1 and prev r-1 (mod size):
 *   A: MPI_Recv_init from partner, MPI_Send_init to partner (tag 40, 16 ints)
 *   B: MPI_Recv_init from prev, MPI_Ssend_init to next (tag 50, (r+1)*8 chars)
 *   C: MPI_Recv_init from partner, MPI_Bsend_init to partner (tag 60, 32 doubles; a
 *      buffer attached)
 *   D: MPI_Recv_init from prev, MPI_Rsend_init to next (tag 70, 4 ints)
 * and then ROUNDS rounds of:
 *   A: MPI_Startall of both, MPI_Waitall of both
 *   B: MPI_Start (receive), MPI_Start (send), MPI_Wait (receive), MPI_Wait (send)
 *   C: MPI_Start (receive), MPI_Start (send), MPI_Waitall of both
 *   D: MPI_Start (receive), MPI_Barrier (every receive posted before any ready send),
 *      MPI_Start (send), MPI_Wait (send), MPI_Wait (receive)
 * Per round each rank sends one message of each tag; slices per rank: MPI_Startall
 * ROUNDS, MPI_Start 6 ROUNDS, MPI_Waitall 2 ROUNDS, MPI_Wait 4 ROUNDS, MPI_Barrier
 * ROUNDS, one of each init but MPI_Recv_init (4), MPI_Init and MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* gcc reads MPI_Waitall's MPI_STATUSES_IGNORE (a null pointer) as a 0-byte array: the
 * call with it is the point (the interposer reads the sources from statuses of its own) */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

static int a_out[16], a_in[16], d_out[4], d_in[4];
static char b_out[64], b_in[64];
static double c_out[32], c_in[32];

int main(int argc, char **argv)
{
	int rank, size, rounds = argc > 1 ? atoi(argv[1]) : 5, bsize;
	MPI_Request a[2], b[2], c[2], d[2];
	void *bbuf;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size < 2 || size % 2 || size > 8) {
		if (!rank)
			fprintf(stderr, "mpi_persist: run it on 2, 4, 6 or 8 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	int partner = rank ^ 1, next = (rank + 1) % size, prev = (rank + size - 1) % size;

	MPI_Pack_size(32, MPI_DOUBLE, MPI_COMM_WORLD, &bsize);
	bsize += MPI_BSEND_OVERHEAD;
	bbuf = malloc((size_t)bsize);
	if (!bbuf)
		MPI_Abort(MPI_COMM_WORLD, 3);
	MPI_Buffer_attach(bbuf, bsize);

	MPI_Recv_init(a_in, 16, MPI_INT, partner, 40, MPI_COMM_WORLD, &a[0]);
	MPI_Send_init(a_out, 16, MPI_INT, partner, 40, MPI_COMM_WORLD, &a[1]);
	MPI_Recv_init(b_in, sizeof(b_in), MPI_CHAR, prev, 50, MPI_COMM_WORLD, &b[0]);
	MPI_Ssend_init(b_out, (rank + 1) * 8, MPI_CHAR, next, 50, MPI_COMM_WORLD, &b[1]);
	MPI_Recv_init(c_in, 32, MPI_DOUBLE, partner, 60, MPI_COMM_WORLD, &c[0]);
	MPI_Bsend_init(c_out, 32, MPI_DOUBLE, partner, 60, MPI_COMM_WORLD, &c[1]);
	MPI_Recv_init(d_in, 4, MPI_INT, prev, 70, MPI_COMM_WORLD, &d[0]);
	MPI_Rsend_init(d_out, 4, MPI_INT, next, 70, MPI_COMM_WORLD, &d[1]);

	for (int i = 0; i < rounds; i++) {
		a_out[0] = b_out[0] = d_out[0] = i;
		c_out[0] = i;
		MPI_Startall(2, a);
		MPI_Waitall(2, a, MPI_STATUSES_IGNORE);
		MPI_Start(&b[0]);
		MPI_Start(&b[1]);
		MPI_Wait(&b[0], MPI_STATUS_IGNORE);
		MPI_Wait(&b[1], MPI_STATUS_IGNORE);
		MPI_Start(&c[0]);
		MPI_Start(&c[1]);
		MPI_Waitall(2, c, MPI_STATUSES_IGNORE);
		MPI_Start(&d[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Start(&d[1]);
		MPI_Wait(&d[1], MPI_STATUS_IGNORE);
		MPI_Wait(&d[0], MPI_STATUS_IGNORE);
		if (a_in[0] != i || b_in[0] != i || c_in[0] != i || d_in[0] != i) {
			fprintf(stderr,
				"mpi_persist: rank %d round %d: a message of another round\n", rank,
				i);
			MPI_Abort(MPI_COMM_WORLD, 4);
		}
	}
	for (int k = 0; k < 2; k++) {
		MPI_Request_free(&a[k]);
		MPI_Request_free(&b[k]);
		MPI_Request_free(&c[k]);
		MPI_Request_free(&d[k]);
	}
	MPI_Buffer_detach(&bbuf, &bsize);
	free(bbuf);
	MPI_Finalize();
	return 0;
}
