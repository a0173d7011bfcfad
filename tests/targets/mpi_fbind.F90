! SPDX-License-Identifier: MIT
! e2e mpi_f08.sh: one MPI pattern through a Fortran module binding, `use mpi_f08` (built
! with -DUSE_F08) or `use mpi`. The program counts its own calls, bytes and transfers per
! peer as it makes them and prints them (lines "count <rank> <function> <calls> <sent>
! <received>" and "pair <from> <to> <bytes> <transfers>"), for the test to compare with
! what uprof recorded. Bytes as uprof counts them (uprof-mpi(7)): a send's to its peer, a
! receive's posted count, a broadcast's sent by the root and received by the others, an
! allreduce's both ways. On N ranks (N >= 2), with nxt = rank + 1 and prv = rank - 1:
!   5 x MPI_Send of (rank+1)*4 integers to nxt, MPI_Recv of (prv+1)*4 from prv
!   2 x MPI_Isend of rank+2 doubles to prv, MPI_Irecv of nxt+2 from nxt, 2 MPI_Wait
!   1 x MPI_Isend of rank+1 doubles to nxt, MPI_Irecv of prv+1 from prv, MPI_Waitall
!   2 x MPI_Bcast of 16 integers from rank 0, 1 x MPI_Allreduce of 3 doubles, 2 x MPI_Barrier
program mpi_fbind
#ifdef USE_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: NF = 9, SEND = 1, RECV = 2, ISEND = 3, IRECV = 4, WAIT = 5, &
    WAITALL = 6, BCAST = 7, ALLRED = 8, BARR = 9
  character(len=13), parameter :: names(NF) = [character(len=13) :: 'MPI_Send', 'MPI_Recv', &
    'MPI_Isend', 'MPI_Irecv', 'MPI_Wait', 'MPI_Waitall', 'MPI_Bcast', 'MPI_Allreduce', &
    'MPI_Barrier']
  integer(8) :: calls(NF), sent(NF), recvd(NF)
  integer(8), allocatable :: pbytes(:), pn(:)
  integer :: ierr, rank, nranks, nxt, prv, i, isz, dsz
  integer :: ibuf(64), iback(64), bc(16)
  double precision :: d(8), dr(8), d2(8), dr2(8), s3(3), r3(3)
#ifdef USE_F08
  type(MPI_Request) :: rq(2)
  type(MPI_Status) :: st, sts(2)
#else
  integer :: rq(2), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
#endif

  calls = 0
  sent = 0
  recvd = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  call MPI_Type_size(MPI_DOUBLE_PRECISION, dsz, ierr)
  allocate(pbytes(0:nranks - 1), pn(0:nranks - 1))
  pbytes = 0
  pn = 0
  nxt = mod(rank + 1, nranks)
  prv = mod(rank + nranks - 1, nranks)
  ibuf = rank
  d = rank
  d2 = rank

  do i = 1, 5
    if (mod(rank, 2) == 0) then
      call MPI_Send(ibuf, (rank + 1) * 4, MPI_INTEGER, nxt, i, MPI_COMM_WORLD, ierr)
      call MPI_Recv(iback, (prv + 1) * 4, MPI_INTEGER, prv, i, MPI_COMM_WORLD, st, ierr)
    else
      call MPI_Recv(iback, (prv + 1) * 4, MPI_INTEGER, prv, i, MPI_COMM_WORLD, st, ierr)
      call MPI_Send(ibuf, (rank + 1) * 4, MPI_INTEGER, nxt, i, MPI_COMM_WORLD, ierr)
    end if
    call sent_to(SEND, nxt, (rank + 1) * 4 * isz)
    call got(RECV, (prv + 1) * 4 * isz)
  end do

  do i = 1, 2
    call MPI_Irecv(dr, nxt + 2, MPI_DOUBLE_PRECISION, nxt, 10 + i, MPI_COMM_WORLD, rq(1), ierr)
    call got(IRECV, (nxt + 2) * dsz)
    call MPI_Isend(d, rank + 2, MPI_DOUBLE_PRECISION, prv, 10 + i, MPI_COMM_WORLD, rq(2), ierr)
    call sent_to(ISEND, prv, (rank + 2) * dsz)
    call MPI_Wait(rq(1), st, ierr)
    call MPI_Wait(rq(2), st, ierr)
    calls(WAIT) = calls(WAIT) + 2
  end do

  call MPI_Irecv(dr2, prv + 1, MPI_DOUBLE_PRECISION, prv, 20, MPI_COMM_WORLD, rq(1), ierr)
  call got(IRECV, (prv + 1) * dsz)
  call MPI_Isend(d2, rank + 1, MPI_DOUBLE_PRECISION, nxt, 20, MPI_COMM_WORLD, rq(2), ierr)
  call sent_to(ISEND, nxt, (rank + 1) * dsz)
  call MPI_Waitall(2, rq, sts, ierr)
  calls(WAITALL) = calls(WAITALL) + 1

  bc = 7
  do i = 1, 2
    call MPI_Bcast(bc, 16, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    calls(BCAST) = calls(BCAST) + 1
    if (rank == 0) then
      sent(BCAST) = sent(BCAST) + 16 * isz
    else
      recvd(BCAST) = recvd(BCAST) + 16 * isz
    end if
  end do

  s3 = 1.0d0
  call MPI_Allreduce(s3, r3, 3, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  calls(ALLRED) = calls(ALLRED) + 1
  sent(ALLRED) = sent(ALLRED) + 3 * dsz
  recvd(ALLRED) = recvd(ALLRED) + 3 * dsz

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  calls(BARR) = calls(BARR) + 2

  do i = 1, NF
    write (*, '(A,I0,1X,A,4(1X,I0))') 'count ', rank, trim(names(i)), calls(i), sent(i), recvd(i)
  end do
  do i = 0, nranks - 1
    if (pn(i) > 0) write (*, '(A,I0,1X,I0,2(1X,I0))') 'pair ', rank, i, pbytes(i), pn(i)
  end do
  call MPI_Finalize(ierr)
  if (nint(r3(1)) /= nranks .or. bc(16) /= 7) stop 1

contains

  subroutine sent_to(f, peer, bytes)
    integer, intent(in) :: f, peer, bytes
    calls(f) = calls(f) + 1
    sent(f) = sent(f) + bytes
    pbytes(peer) = pbytes(peer) + bytes
    pn(peer) = pn(peer) + 1
  end subroutine sent_to

  subroutine got(f, bytes)
    integer, intent(in) :: f, bytes
    calls(f) = calls(f) + 1
    recvd(f) = recvd(f) + bytes
  end subroutine got

end program mpi_fbind
