/* SPDX-License-Identifier: MIT */
/*
 * lib/mpi: the MPI functions traced beyond point-to-point, waits and collectives (the
 * X-list internal.h's UPROF_MPI_FUNCS goes on with): MPI-IO (uprof_mpi_io.c),
 * communicator and group management (uprof_mpi_comm.c) and one-sided communication
 * (uprof_mpi_rma.c), and the persistent sends MPI_Bsend_init and MPI_Rsend_init
 * (uprof_mpi_p2p.c). Their kinds are the .mpi file's SES_MPI_K_IO, _COMM and _RMA.
 */
#ifndef UPROF_MPI_FUNCS_MORE_H
#define UPROF_MPI_FUNCS_MORE_H

/* one group a line (clang-format indents an X-list deeper at each line, anew each run) */
/* clang-format off */
#define UPROF_MPI_FUNCS_IO(X) \
	X(File_open, IO) X(File_close, IO) X(File_delete, IO) X(File_set_view, IO) \
	X(File_seek, IO) X(File_sync, IO) X(File_set_size, IO) \
	X(File_read, IO) X(File_write, IO) X(File_read_at, IO) X(File_write_at, IO) \
	X(File_read_all, IO) X(File_write_all, IO) X(File_read_at_all, IO) \
	X(File_write_at_all, IO) X(File_read_shared, IO) X(File_write_shared, IO) \
	X(File_read_ordered, IO) X(File_write_ordered, IO) \
	X(File_iread, IO) X(File_iwrite, IO) X(File_iread_at, IO) X(File_iwrite_at, IO)

#define UPROF_MPI_FUNCS_COMM(X) \
	X(Comm_split, COMM) X(Comm_split_type, COMM) X(Comm_dup, COMM) X(Comm_create, COMM) \
	X(Comm_free, COMM) X(Comm_group, COMM) \
	X(Group_incl, COMM) X(Group_excl, COMM) X(Group_union, COMM) \
	X(Group_intersection, COMM) X(Group_difference, COMM) X(Group_free, COMM)

#define UPROF_MPI_FUNCS_RMA(X) \
	X(Win_create, RMA) X(Win_allocate, RMA) X(Win_free, RMA) \
	X(Put, RMA) X(Get, RMA) X(Accumulate, RMA) X(Get_accumulate, RMA) \
	X(Fetch_and_op, RMA) X(Compare_and_swap, RMA) X(Rput, RMA) X(Rget, RMA) \
	X(Win_fence, RMA) X(Win_lock, RMA) X(Win_unlock, RMA) X(Win_lock_all, RMA) \
	X(Win_unlock_all, RMA) X(Win_flush, RMA) X(Win_flush_all, RMA) \
	X(Win_flush_local, RMA) X(Win_sync, RMA)
/* the persistent sends beside internal.h's MPI_Send_init and MPI_Ssend_init */
#define UPROF_MPI_FUNCS_PERSIST(X) X(Bsend_init, P2P) X(Rsend_init, P2P)
/* clang-format on */

#define UPROF_MPI_FUNCS_MORE(X) \
	UPROF_MPI_FUNCS_IO(X) \
	UPROF_MPI_FUNCS_COMM(X) UPROF_MPI_FUNCS_RMA(X) UPROF_MPI_FUNCS_PERSIST(X)

/* In a wrapper of these (after umpi_active()): @call of @f timed whole into @ticks, its
 * result into @ret. The MPI_* calls a library makes inside one (ROMIO's collectives of a
 * collective write, a fence's barrier) are its own, not the program's: umpi_in_fortran
 * quiets them as it quiets the C calls under a Fortran binding. The caller then counts
 * it: umpi_count(f, ticks, sent, recv). */
#define UMPI_WHOLE(f, call) \
	do { \
		ticks = umpi_call_begin(f); \
		umpi_in_fortran++; \
		ret = (call); \
		umpi_in_fortran--; \
		ticks = umpi_call_end() - ticks; \
	} while (0)

/*
 * The whole C wrapper of MPI_@name, one home for the IO, COMM and RMA ones: (@params) its
 * parameter list, (@args) the arguments; @pre runs before the call when it is recorded
 * (declarations allowed), @sent and @recv are its bytes (expressions of the parameters
 * and ret), @post runs after it is counted ((void)0 for none).
 */
#define UMPI_WRAP(name, params, args, pre, sent, recv, post) \
	int MPI_##name params \
	{ \
		int64_t ticks; \
		int ret; \
		if (!umpi_active()) \
			return PMPI_##name args; \
		pre; \
		UMPI_WHOLE(UMPI_##name, PMPI_##name args); \
		umpi_count(UMPI_##name, ticks, sent, recv); \
		post; \
		return ret; \
	}

#endif
