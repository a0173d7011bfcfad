! SPDX-License-Identifier: MIT
! e2e mpi.sh, Must show 6: a Fortran (mpif.h) program traced. On 4 ranks: a ring of
! 6 MPI_SEND/MPI_RECV of (rank+1)*10 integers to rank+1, 2 MPI_ISEND/MPI_IRECV +
! MPI_WAITALL of 50 doubles from rank 0 to rank 3, one MPI_BARRIER, one MPI_ALLREDUCE.
program mpi_fortran
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, nranks, nxt, prv, i, one, total
  integer :: buf(40), back(40), reqs(2), stats(MPI_STATUS_SIZE, 2)
  integer :: status(MPI_STATUS_SIZE)
  double precision :: d(50, 2)

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  nxt = mod(rank + 1, nranks)
  prv = mod(rank + nranks - 1, nranks)
  buf = rank
  d = 1.0d0
  do i = 1, 6
    if (mod(rank, 2) == 0) then
      call MPI_SEND(buf, (rank + 1) * 10, MPI_INTEGER, nxt, i, MPI_COMM_WORLD, ierr)
      call MPI_RECV(back, (prv + 1) * 10, MPI_INTEGER, prv, i, MPI_COMM_WORLD, status, ierr)
    else
      call MPI_RECV(back, (prv + 1) * 10, MPI_INTEGER, prv, i, MPI_COMM_WORLD, status, ierr)
      call MPI_SEND(buf, (rank + 1) * 10, MPI_INTEGER, nxt, i, MPI_COMM_WORLD, ierr)
    end if
  end do
  if (rank == 0) then
    call MPI_ISEND(d(1, 1), 50, MPI_DOUBLE_PRECISION, 3, 7, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_ISEND(d(1, 2), 50, MPI_DOUBLE_PRECISION, 3, 8, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_WAITALL(2, reqs, stats, ierr)
  else if (rank == 3) then
    call MPI_IRECV(d(1, 1), 50, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_IRECV(d(1, 2), 50, MPI_DOUBLE_PRECISION, 0, 8, MPI_COMM_WORLD, reqs(2), ierr)
    call MPI_WAITALL(2, reqs, stats, ierr)
  end if
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  one = 1
  call MPI_ALLREDUCE(one, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_FINALIZE(ierr)
  if (total /= nranks) stop 1
end program mpi_fortran
