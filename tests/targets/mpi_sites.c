// SPDX-License-Identifier: MIT
/*
 * A known MPI program for call sites (tests/e2e/mpi_sites.sh), for 4 ranks: MPI calls at
 * distinct lines of four functions, each line's calls and bytes known (the "site:" marks
 * name them for the test, which finds their lines), MPI-IO to the file argv[1] and
 * one-sided put and get between fences. No MPI call is a function's last statement: a
 * tail call's return address would be the caller's. Each marked call is on one line: the
 * line the test expects whatever line of a statement a compiler gives its call.
 *   exchange: allreduce 5 x 32 bytes, bcast 2 x 400 bytes (root 0)
 *   ring:     isend/recv/wait 3 x 1000 bytes to the next rank, from the previous;
 *             send 100 x (rank + 1) bytes once, recv it (sized from its status)
 *   io:       open, write_at 256, write_at_all 128, read_at 256 (its own bytes), close
 *   rma:      win_create, fence, put 16 ints, fence, get 8 ints, fence, win_free
 *   main:     comm_split (even, odd), allreduce 8 bytes on it, comm_free
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;
static volatile int sink;

__attribute__((noinline)) void exchange(int rounds)
{
	double v[4] = { 1, 2, 3, 4 }, out[4];
	int ints[100] = { 0 };

	for (int i = 0; i < rounds; i++)
		MPI_Allreduce(v, out, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* site:allreduce */
	for (int i = 0; i < 2; i++)
		MPI_Bcast(ints, 100, MPI_INT, 0, MPI_COMM_WORLD); /* site:bcast */
	sink = (int)out[0] + ints[0];
}

__attribute__((noinline)) void ring(int rounds)
{
	char out[1000], in[1000];
	MPI_Request req;
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;

	memset(out, rank, sizeof(out));
	for (int i = 0; i < rounds; i++) {
		MPI_Isend(out, 1000, MPI_BYTE, next, 7, MPI_COMM_WORLD, &req); /* site:isend */
		MPI_Recv(in, 1000, MPI_BYTE, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv */
		MPI_Wait(&req, MPI_STATUS_IGNORE); /* site:wait */
	}
	/* eager sizes (under 4 KiB): a blocking send before its receive completes */
	MPI_Send(out, 100 * (rank + 1), MPI_BYTE, next, 8, MPI_COMM_WORLD); /* site:send_sized */
	MPI_Recv(in, 1000, MPI_BYTE, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv_sized */
	sink = in[0];
}

__attribute__((noinline)) void io(const char *path)
{
	char buf[256], back[256];
	MPI_File fh;

	memset(buf, 'a' + rank, sizeof(buf));
	MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh); /* site:file_open */
	MPI_File_write_at(fh, rank * 256, buf, 256, MPI_BYTE, MPI_STATUS_IGNORE); /* site:write_at */
	MPI_File_write_at_all(fh, (size + rank) * 256, buf, 128, MPI_BYTE, MPI_STATUS_IGNORE); /* site:write_at_all */
	MPI_File_read_at(fh, rank * 256, back, 256, MPI_BYTE, MPI_STATUS_IGNORE); /* site:read_at */
	MPI_File_close(&fh); /* site:file_close */
	sink = back[0] == buf[0];
}

__attribute__((noinline)) void rma(void)
{
	int win_mem[64] = { 0 }, src[16], dst[8];
	MPI_Win win;

	for (int i = 0; i < 16; i++)
		src[i] = rank * 100 + i;
	MPI_Win_create(win_mem, sizeof(win_mem), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win); /* site:win_create */
	MPI_Win_fence(0, win); /* site:fence1 */
	MPI_Put(src, 16, MPI_INT, (rank + 1) % size, 0, 16, MPI_INT, win); /* site:put */
	MPI_Win_fence(0, win); /* site:fence2 */
	MPI_Get(dst, 8, MPI_INT, (rank + size - 1) % size, 0, 8, MPI_INT, win); /* site:get */
	MPI_Win_fence(0, win); /* site:fence3 */
	MPI_Win_free(&win); /* site:win_free */
	sink = dst[0];
}

int main(int argc, char **argv)
{
	MPI_Comm half;
	long one = 1, sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc < 2) {
		if (!rank)
			fprintf(stderr, "usage: mpi_sites FILE (MPI-IO writes it)\n");
		MPI_Finalize();
		return 2;
	}
	exchange(5);
	ring(3);
	io(argv[1]);
	rma();
	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half); /* site:comm_split */
	MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, half); /* site:allreduce_half */
	MPI_Comm_free(&half); /* site:comm_free */
	MPI_Finalize();
	return sum == size / 2 ? 0 : 1;
}
