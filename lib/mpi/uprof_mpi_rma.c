// SPDX-License-Identifier: MIT
/*
 * lib/mpi: one-sided communication (RMA). A put or an accumulate "sends" its origin
 * buffer's bytes, a get "receives" them, a get-accumulate (and fetch-and-op,
 * compare-and-swap) does both: the bytes the program asked to move when it posted the
 * operation, which completes later (a fence, an unlock, a flush: their time is the
 * wait). Windows, fences, locks and flushes are calls and time only. Each operation also
 * counts for its target (the RMA matrix: origin ---> target), a world rank found through
 * the window's group at each operation (a group translation: microseconds, beside an
 * operation that moves data).
 */
#include "mpi/internal.h"

int umpi_win_world(MPI_Win win, int r)
{
	MPI_Group g, world;
	int out = -1;

	if (r < 0 || PMPI_Win_get_group(win, &g) != MPI_SUCCESS)
		return -1;
	if (PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
		if (PMPI_Group_translate_ranks(g, 1, &r, world, &out) != MPI_SUCCESS ||
		    out == MPI_UNDEFINED)
			out = -1;
		PMPI_Group_free(&world);
	}
	PMPI_Group_free(&g);
	return out;
}

/* @sent and @recv count when the call succeeded */
#define RMA_CALL(name, params, args, sent, recv) \
	UMPI_WRAP(name, params, args, (void)0, ret == MPI_SUCCESS ? (sent) : 0, \
		  ret == MPI_SUCCESS ? (recv) : 0, (void)0)
/* ... an operation on @target of @win: the RMA matrix's too */
#define RMA_OP(name, params, args, sent, recv) \
	UMPI_WRAP(name, params, args, (void)0, ret == MPI_SUCCESS ? (sent) : 0, \
		  ret == MPI_SUCCESS ? (recv) : 0, \
		  ret == MPI_SUCCESS ? umpi_rma_peer(umpi_win_world(win, target), sent, recv) \
				     : (void)0)

RMA_CALL(Win_create,
	 (void *base, MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, MPI_Win *win),
	 (base, size, unit, info, comm, win), 0, 0)
RMA_CALL(Win_allocate,
	 (MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, void *base, MPI_Win *win),
	 (size, unit, info, comm, base, win), 0, 0)
RMA_CALL(Win_free, (MPI_Win * win), (win), 0, 0)
RMA_OP(Put,
       (const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
	MPI_Datatype ttype, MPI_Win win),
       (obuf, ocount, otype, target, disp, tcount, ttype, win), umpi_bytes(ocount, otype), 0)
RMA_OP(Get,
       (void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
	MPI_Datatype ttype, MPI_Win win),
       (obuf, ocount, otype, target, disp, tcount, ttype, win), 0, umpi_bytes(ocount, otype))
RMA_OP(Accumulate,
       (const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
	MPI_Datatype ttype, MPI_Op op, MPI_Win win),
       (obuf, ocount, otype, target, disp, tcount, ttype, op, win), umpi_bytes(ocount, otype), 0)
RMA_OP(Get_accumulate,
       (const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
	MPI_Datatype rtype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype, MPI_Op op,
	MPI_Win win),
       (obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype, op, win),
       umpi_bytes(ocount, otype), umpi_bytes(rcount, rtype))
RMA_OP(Fetch_and_op,
       (const void *obuf, void *rbuf, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op op,
	MPI_Win win),
       (obuf, rbuf, type, target, disp, op, win), umpi_bytes(1, type), umpi_bytes(1, type))
RMA_OP(Compare_and_swap,
       (const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type, int target,
	MPI_Aint disp, MPI_Win win),
       (obuf, cbuf, rbuf, type, target, disp, win), umpi_bytes(1, type), umpi_bytes(1, type))
RMA_OP(Rput,
       (const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
	MPI_Datatype ttype, MPI_Win win, MPI_Request *req),
       (obuf, ocount, otype, target, disp, tcount, ttype, win, req), umpi_bytes(ocount, otype), 0)
RMA_OP(Rget,
       (void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
	MPI_Datatype ttype, MPI_Win win, MPI_Request *req),
       (obuf, ocount, otype, target, disp, tcount, ttype, win, req), 0, umpi_bytes(ocount, otype))
RMA_CALL(Win_fence, (int assert, MPI_Win win), (assert, win), 0, 0)
RMA_CALL(Win_lock, (int type, int rank, int assert, MPI_Win win), (type, rank, assert, win), 0, 0)
RMA_CALL(Win_unlock, (int rank, MPI_Win win), (rank, win), 0, 0)
RMA_CALL(Win_lock_all, (int assert, MPI_Win win), (assert, win), 0, 0)
RMA_CALL(Win_unlock_all, (MPI_Win win), (win), 0, 0)
RMA_CALL(Win_flush, (int rank, MPI_Win win), (rank, win), 0, 0)
RMA_CALL(Win_flush_all, (MPI_Win win), (win), 0, 0)
RMA_CALL(Win_flush_local, (int rank, MPI_Win win), (rank, win), 0, 0)
RMA_CALL(Win_sync, (MPI_Win win), (win), 0, 0)
