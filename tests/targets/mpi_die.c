// SPDX-License-Identifier: MIT
/*
 * e2e mpi_die.sh: a job of 4 ranks in which rank 1 is SIGKILLed and rank 2 calls exit(3),
 * after known MPI traffic, while ranks 0 and 3 are still running (the launcher ends them).
 *   mpi_die [snapshot_wait_s]
 * Every rank: 3 MPI_Send of (rank + 1) * 100 bytes to the next rank and 3 MPI_Recv from
 * the previous one, 1 MPI_Allgather (of pids), 1 MPI_Barrier; it prints those counts;
 * then it spends snapshot_wait_s (2.5 by default) in a loop of MPI_Iprobe, so that the
 * interposer takes at least one snapshot (at most once a second) after that traffic.
 * Then rank 1 raises SIGKILL; rank 2 waits until rank 1 is dead (a launcher ends the job
 * on the first death it sees, which comes through rank 1's collect ending: rank 2
 * exits before that) and calls exit(3); ranks 0 and 3 go on in MPI_Iprobe until the
 * launcher kills them (60 s at most, then MPI_Abort).
 */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MSGS 3

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* MPI_Iprobe for @s seconds, a millisecond apart: inside MPI, as a waiting rank is */
static long probe_for(double s)
{
	struct timespec ms = { 0, 1000000 };
	double end = now_s() + s;
	long n = 0;
	int flag;

	while (now_s() < end) {
		MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		n++;
		nanosleep(&ms, NULL);
	}
	return n;
}

/* rank 1's process is gone (or a zombie its collect has not reaped yet) */
static int dead(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	int gone = 1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		gone = p[2] == 'Z' || p[2] == 'X';
	fclose(f);
	return gone;
}

int main(int argc, char **argv)
{
	double wait_s = argc > 1 ? atof(argv[1]) : 2.5;
	int rank, size, me, pids[64];
	char msg[400] = { 0 }, in[400];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4) {
		if (!rank)
			fprintf(stderr, "mpi_die: run with 4 ranks\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	me = (int)getpid();
	MPI_Allgather(&me, 1, MPI_INT, pids, 1, MPI_INT, MPI_COMM_WORLD);
	for (int i = 0; i < MSGS; i++) {
		int to = (rank + 1) % size, from = (rank + size - 1) % size;

		if (rank % 2 == 0) { /* a ring of even size: even ranks send first */
			MPI_Send(msg, (rank + 1) * 100, MPI_CHAR, to, 1, MPI_COMM_WORLD);
			MPI_Recv(in, sizeof(in), MPI_CHAR, from, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(in, sizeof(in), MPI_CHAR, from, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(msg, (rank + 1) * 100, MPI_CHAR, to, 1, MPI_COMM_WORLD);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	printf("rank %d MPI_Send %d %d MPI_Recv %d %d MPI_Allgather 1 MPI_Barrier 1\n", rank, MSGS,
	       MSGS * (rank + 1) * 100, MSGS, MSGS * ((rank + size - 1) % size + 1) * 100);
	fflush(stdout);
	probe_for(wait_s);
	if (rank == 1)
		raise(SIGKILL);
	if (rank == 2) {
		double end = now_s() + 10;

		while (!dead(pids[1]) && now_s() < end)
			usleep(500);
		exit(3);
	}
	probe_for(60);
	fprintf(stderr, "mpi_die: rank %d was not ended by the launcher in 60 s\n", rank);
	MPI_Abort(MPI_COMM_WORLD, 4);
	return 4;
}
