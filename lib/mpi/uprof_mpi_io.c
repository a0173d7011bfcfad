// SPDX-License-Identifier: MIT
/*
 * lib/mpi: MPI-IO. A read's bytes are what it read ("received"), a write's what it wrote
 * ("sent"), from the status the library filled in (a read at the end of the file reads
 * less than it asked for); a nonblocking one counts what it posted. Opening, closing,
 * views, seeks and syncs are calls and time only.
 */
#include "mpi/internal.h"

/* What a blocking read or write of @count @dt moved, from its status. */
static uint64_t io_bytes(int ret, const MPI_Status *st, int count, MPI_Datatype dt)
{
	int got;

	if (ret != MPI_SUCCESS)
		return 0;
	if (PMPI_Get_count(st, dt, &got) == MPI_SUCCESS && got != MPI_UNDEFINED)
		return umpi_bytes(got, dt);
	return umpi_bytes(count, dt);
}

/* The status a blocking read or write fills in: the program's, or ours */
#define IO_STATUS \
	MPI_Status local_; \
	if (st == MPI_STATUS_IGNORE) \
	st = &local_
#define IO_SENT(is_read) (is_read ? 0 : io_bytes(ret, st, count, dt))
#define IO_RECV(is_read) (is_read ? io_bytes(ret, st, count, dt) : 0)
/* a nonblocking one: what it posted */
#define IO_POSTED(on) (on && ret == MPI_SUCCESS ? umpi_bytes(count, dt) : 0)

#define IO_RW(name, cbuf, is_read) \
	UMPI_WRAP(name, (MPI_File fh, cbuf void *buf, int count, MPI_Datatype dt, MPI_Status *st), \
		  (fh, buf, count, dt, st), IO_STATUS, IO_SENT(is_read), IO_RECV(is_read), \
		  (void)0)
IO_RW(File_read, , 1)
IO_RW(File_read_all, , 1)
IO_RW(File_read_shared, , 1)
IO_RW(File_read_ordered, , 1)
IO_RW(File_write, const, 0)
IO_RW(File_write_all, const, 0)
IO_RW(File_write_shared, const, 0)
IO_RW(File_write_ordered, const, 0)

#define IO_RW_AT(name, cbuf, is_read) \
	UMPI_WRAP(name, \
		  (MPI_File fh, MPI_Offset off, cbuf void *buf, int count, MPI_Datatype dt, \
		   MPI_Status *st), \
		  (fh, off, buf, count, dt, st), IO_STATUS, IO_SENT(is_read), IO_RECV(is_read), \
		  (void)0)
IO_RW_AT(File_read_at, , 1)
IO_RW_AT(File_read_at_all, , 1)
IO_RW_AT(File_write_at, const, 0)
IO_RW_AT(File_write_at_all, const, 0)

/* MPICH's mpio.h declares the nonblocking ones with MPIO_Request, a macro for MPI_Request */
#define IO_IRW(name, cbuf, is_read) \
	UMPI_WRAP(name, \
		  (MPI_File fh, cbuf void *buf, int count, MPI_Datatype dt, MPI_Request *req), \
		  (fh, buf, count, dt, req), (void)0, IO_POSTED(!is_read), IO_POSTED(is_read), \
		  (void)0)
IO_IRW(File_iread, , 1)
IO_IRW(File_iwrite, const, 0)

#define IO_IRW_AT(name, cbuf, is_read) \
	UMPI_WRAP(name, \
		  (MPI_File fh, MPI_Offset off, cbuf void *buf, int count, MPI_Datatype dt, \
		   MPI_Request *req), \
		  (fh, off, buf, count, dt, req), (void)0, IO_POSTED(!is_read), \
		  IO_POSTED(is_read), (void)0)
IO_IRW_AT(File_iread_at, , 1)
IO_IRW_AT(File_iwrite_at, const, 0)

/* A call of no bytes: @params the parameter list, @args the arguments. */
#define IO_PLAIN(name, params, args) UMPI_WRAP(name, params, args, (void)0, 0, 0, (void)0)
IO_PLAIN(File_open, (MPI_Comm comm, const char *path, int amode, MPI_Info info, MPI_File *fh),
	 (comm, path, amode, info, fh))
IO_PLAIN(File_close, (MPI_File * fh), (fh))
IO_PLAIN(File_delete, (const char *path, MPI_Info info), (path, info))
IO_PLAIN(File_set_view,
	 (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype ftype, const char *rep,
	  MPI_Info info),
	 (fh, disp, etype, ftype, rep, info))
IO_PLAIN(File_seek, (MPI_File fh, MPI_Offset off, int whence), (fh, off, whence))
IO_PLAIN(File_sync, (MPI_File fh), (fh))
IO_PLAIN(File_set_size, (MPI_File fh, MPI_Offset size), (fh, size))
