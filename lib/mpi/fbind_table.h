/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: the Fortran bindings interposed (uprof_mpi_fbind.c), one line a function:
 * X(name in lower case, the C name, what it moves, where its arguments are). Every
 * function the C wrappers trace but MPI_Init, MPI_Init_thread and MPI_Finalize (timed
 * apart, by hand). The positions are 0-based in the Fortran argument list, which is the C
 * one with each argument by reference and ierror last; only the ones its shape reads
 * (struct fbind in uprof_mpi_fbind.c) are given.
 */
#ifndef UPROF_MPI_FBIND_TABLE_H
#define UPROF_MPI_FBIND_TABLE_H

/* clang-format off */
#define UMPI_FBINDS_P2P(X) \
	X(send, Send, FB_SEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5) \
	X(ssend, Ssend, FB_SEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5) \
	X(bsend, Bsend, FB_SEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5) \
	X(rsend, Rsend, FB_SEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5) \
	X(isend, Isend, FB_ISEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .req = 6) \
	X(issend, Issend, FB_ISEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .req = 6) \
	X(ibsend, Ibsend, FB_ISEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .req = 6) \
	X(irsend, Irsend, FB_ISEND, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .req = 6) \
	X(recv, Recv, FB_RECV, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .st = 6) \
	X(irecv, Irecv, FB_IRECV, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, .req = 6) \
	X(sendrecv, Sendrecv, FB_SENDRECV, .c = 1, .t = 2, .peer = 3, .tag = 4, .c2 = 6, .t2 = 7, \
	  .peer2 = 8, .tag2 = 9, .comm = 10, .st = 11) \
	X(sendrecv_replace, Sendrecv_replace, FB_SENDRECV, .c = 1, .t = 2, .peer = 3, .tag = 4, \
	  .c2 = 1, .t2 = 2, .peer2 = 5, .tag2 = 6, .comm = 7, .st = 8) \
	X(send_init, Send_init, FB_SEND_INIT, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, \
	  .req = 6) \
	X(ssend_init, Ssend_init, FB_SEND_INIT, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, \
	  .req = 6) \
	X(bsend_init, Bsend_init, FB_SEND_INIT, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, \
	  .req = 6) \
	X(rsend_init, Rsend_init, FB_SEND_INIT, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, \
	  .req = 6) \
	X(recv_init, Recv_init, FB_RECV_INIT, .c = 1, .t = 2, .peer = 3, .tag = 4, .comm = 5, \
	  .req = 6) \
	X(start, Start, FB_START, .req = 0) \
	X(startall, Startall, FB_STARTALL, .c = 0, .req = 1) \
	X(probe, Probe, FB_NONE) X(iprobe, Iprobe, FB_NONE) \
	X(wait, Wait, FB_WAIT, .req = 0, .st = 1) \
	X(waitall, Waitall, FB_WAITALL, .c = 0, .req = 1, .st = 2) \
	X(waitany, Waitany, FB_WAITANY, .c = 0, .req = 1, .idx = 2, .st = 3) \
	X(waitsome, Waitsome, FB_WAITSOME, .c = 0, .req = 1, .out = 2, .idx = 3, .st = 4) \
	X(test, Test, FB_TEST, .req = 0, .flag = 1, .st = 2) \
	X(testall, Testall, FB_TESTALL, .c = 0, .req = 1, .flag = 2, .st = 3) \
	X(testany, Testany, FB_TESTANY, .c = 0, .req = 1, .idx = 2, .flag = 3, .st = 4) \
	X(testsome, Testsome, FB_TESTSOME, .c = 0, .req = 1, .out = 2, .idx = 3, .st = 4)

#define UMPI_FBINDS_COLL(X) \
	X(barrier, Barrier, FB_COLL, .comm = 0) \
	X(ibarrier, Ibarrier, FB_COLL, .comm = 0) \
	X(bcast, Bcast, FB_BCAST, .c = 1, .t = 2, .root = 3, .comm = 4) \
	X(ibcast, Ibcast, FB_BCAST, .c = 1, .t = 2, .root = 3, .comm = 4) \
	X(reduce, Reduce, FB_REDUCE, .c = 2, .t = 3, .root = 5, .comm = 6) \
	X(allreduce, Allreduce, FB_ALLREDUCE, .c = 2, .t = 3, .comm = 5) \
	X(iallreduce, Iallreduce, FB_ALLREDUCE, .c = 2, .t = 3, .comm = 5) \
	X(scan, Scan, FB_ALLREDUCE, .c = 2, .t = 3, .comm = 5) \
	X(exscan, Exscan, FB_ALLREDUCE, .c = 2, .t = 3, .comm = 5) \
	X(reduce_scatter, Reduce_scatter, FB_REDUCE_SCATTER, .c2 = 2, .t2 = 3, .comm = 5) \
	X(gather, Gather, FB_GATHER, .c = 1, .t = 2, .c2 = 4, .t2 = 5, .root = 6, .comm = 7, \
	  .in_place = 1) \
	X(allgather, Allgather, FB_GATHER, .c = 1, .t = 2, .c2 = 4, .t2 = 5, .root = -1, .comm = 6, \
	  .in_place = 1) \
	X(gatherv, Gatherv, FB_GATHERV, .c = 1, .t = 2, .c2 = 4, .t2 = 6, .root = 7, .comm = 8, \
	  .in_place = 1) \
	X(allgatherv, Allgatherv, FB_GATHERV, .c = 1, .t = 2, .c2 = 4, .t2 = 6, .root = -1, \
	  .comm = 7, .in_place = 1) \
	X(scatter, Scatter, FB_SCATTER, .c = 1, .t = 2, .c2 = 4, .t2 = 5, .root = 6, .comm = 7, \
	  .in_place = 4) \
	X(scatterv, Scatterv, FB_SCATTERV, .c = 1, .t = 3, .c2 = 5, .t2 = 6, .root = 7, .comm = 8, \
	  .in_place = 5) \
	X(alltoall, Alltoall, FB_ALLTOALL, .c = 1, .t = 2, .c2 = 4, .t2 = 5, .comm = 6, \
	  .in_place = 1) \
	X(alltoallv, Alltoallv, FB_ALLTOALLV, .c = 1, .t = 3, .c2 = 5, .t2 = 7, .comm = 8, \
	  .in_place = 1)

#define UMPI_FBINDS_IO(X) \
	X(file_open, File_open, FB_NONE) X(file_close, File_close, FB_NONE) \
	X(file_delete, File_delete, FB_NONE) X(file_set_view, File_set_view, FB_NONE) \
	X(file_seek, File_seek, FB_NONE) X(file_sync, File_sync, FB_NONE) \
	X(file_set_size, File_set_size, FB_NONE) \
	X(file_read, File_read, FB_READ, .c = 2, .t = 3, .st = 4) \
	X(file_read_all, File_read_all, FB_READ, .c = 2, .t = 3, .st = 4) \
	X(file_read_shared, File_read_shared, FB_READ, .c = 2, .t = 3, .st = 4) \
	X(file_read_ordered, File_read_ordered, FB_READ, .c = 2, .t = 3, .st = 4) \
	X(file_iread, File_iread, FB_READ, .c = 2, .t = 3) \
	X(file_write, File_write, FB_WRITE, .c = 2, .t = 3, .st = 4) \
	X(file_write_all, File_write_all, FB_WRITE, .c = 2, .t = 3, .st = 4) \
	X(file_write_shared, File_write_shared, FB_WRITE, .c = 2, .t = 3, .st = 4) \
	X(file_write_ordered, File_write_ordered, FB_WRITE, .c = 2, .t = 3, .st = 4) \
	X(file_iwrite, File_iwrite, FB_WRITE, .c = 2, .t = 3) \
	X(file_read_at, File_read_at, FB_READ, .c = 3, .t = 4, .st = 5) \
	X(file_read_at_all, File_read_at_all, FB_READ, .c = 3, .t = 4, .st = 5) \
	X(file_iread_at, File_iread_at, FB_READ, .c = 3, .t = 4) \
	X(file_write_at, File_write_at, FB_WRITE, .c = 3, .t = 4, .st = 5) \
	X(file_write_at_all, File_write_at_all, FB_WRITE, .c = 3, .t = 4, .st = 5) \
	X(file_iwrite_at, File_iwrite_at, FB_WRITE, .c = 3, .t = 4)

#define UMPI_FBINDS_COMM(X) \
	X(comm_split, Comm_split, FB_NONE) X(comm_split_type, Comm_split_type, FB_NONE) \
	X(comm_dup, Comm_dup, FB_NONE) X(comm_create, Comm_create, FB_NONE) \
	X(comm_free, Comm_free, FB_NONE) X(comm_group, Comm_group, FB_NONE) \
	X(group_incl, Group_incl, FB_NONE) X(group_excl, Group_excl, FB_NONE) \
	X(group_union, Group_union, FB_NONE) X(group_intersection, Group_intersection, FB_NONE) \
	X(group_difference, Group_difference, FB_NONE) X(group_free, Group_free, FB_NONE)

#define UMPI_FBINDS_RMA(X) \
	X(win_create, Win_create, FB_NONE) X(win_allocate, Win_allocate, FB_NONE) \
	X(win_free, Win_free, FB_NONE) \
	X(put, Put, FB_PUT, .c = 1, .t = 2, .peer = 3, .win = 7) \
	X(rput, Rput, FB_PUT, .c = 1, .t = 2, .peer = 3, .win = 7) \
	X(accumulate, Accumulate, FB_PUT, .c = 1, .t = 2, .peer = 3, .win = 8) \
	X(get, Get, FB_GET, .c = 1, .t = 2, .peer = 3, .win = 7) \
	X(rget, Rget, FB_GET, .c = 1, .t = 2, .peer = 3, .win = 7) \
	X(get_accumulate, Get_accumulate, FB_GET_ACC, .c = 1, .t = 2, .c2 = 4, .t2 = 5, \
	  .peer = 6, .win = 11) \
	X(fetch_and_op, Fetch_and_op, FB_FETCH, .t = 2, .peer = 3, .win = 6) \
	X(compare_and_swap, Compare_and_swap, FB_FETCH, .t = 3, .peer = 4, .win = 6) \
	X(win_fence, Win_fence, FB_NONE) X(win_lock, Win_lock, FB_NONE) \
	X(win_unlock, Win_unlock, FB_NONE) X(win_lock_all, Win_lock_all, FB_NONE) \
	X(win_unlock_all, Win_unlock_all, FB_NONE) X(win_flush, Win_flush, FB_NONE) \
	X(win_flush_all, Win_flush_all, FB_NONE) X(win_flush_local, Win_flush_local, FB_NONE) \
	X(win_sync, Win_sync, FB_NONE)
/* clang-format on */

#define UMPI_FBINDS(X) \
	UMPI_FBINDS_P2P(X) \
	UMPI_FBINDS_COLL(X) UMPI_FBINDS_IO(X) UMPI_FBINDS_COMM(X) UMPI_FBINDS_RMA(X)

#endif
