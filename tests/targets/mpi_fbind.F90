! SPDX-License-Identifier: MIT
! e2e mpi_f08.sh: one MPI pattern through a Fortran module binding, `use mpi_f08` (built
! with -DUSE_F08) or `use mpi`. The program counts its own calls, bytes and transfers per
! peer as it makes them and prints them (lines "count <rank> <function> <calls> <sent>
! <received>" and "pair <from> <to> <bytes> <transfers>"), for the test to compare with
! what uprof recorded. Bytes as uprof counts them (uprof-mpi(7)): a send's to its peer, a
! blocking receive's what arrived (its status's count), a nonblocking one's posted count, a
! broadcast's sent by the root and received by the others, an allreduce's both ways, an
! MPI_IN_PLACE allgather's own part sent. On N ranks (N >= 2), with nxt = rank + 1 and
! prv = rank - 1:
!   5 x MPI_Send of (rank+1)*4 integers to nxt, MPI_Recv posted for 64 from prv (which
!     sends (prv+1)*4), its status the program's (checked with MPI_Get_count) in rounds
!     1, 3, 5 and MPI_STATUS_IGNORE in rounds 2, 4
!   2 x MPI_Isend of rank+2 doubles to prv, MPI_Irecv of nxt+2 from nxt, 2 MPI_Wait (the
!     second with MPI_STATUS_IGNORE)
!   1 x MPI_Isend of rank+1 doubles to nxt, MPI_Irecv of prv+1 from prv, MPI_Waitall
!   2 x MPI_Bcast of 16 integers from rank 0, 1 x MPI_Allreduce of 3 doubles, 2 x MPI_Barrier
!   1 x MPI_Allgather of 2 integers a rank, MPI_IN_PLACE (send count 0)
!   persistent: MPI_Recv_init of 4 integers from prv, MPI_Send_init of 4 to nxt, started
!     once by MPI_Startall (+ MPI_Waitall, MPI_STATUSES_IGNORE) and once by 2 MPI_Start
!     (+ 2 MPI_Wait): a
!     start counts the request's bytes, the inits none
!   communicators: MPI_Comm_split by rank parity, MPI_Comm_dup of it, 2 x MPI_Comm_free
!   MPI-IO on the file named by $UPROF_FBIND_FILE: MPI_File_open, MPI_File_write_at of 64
!     integers at the rank's own offset, MPI_File_read_at of them back, MPI_File_read_at of
!     64 past every rank's block (it reads what its status says: nothing), MPI_File_close
!   RMA on a window of 16 integers: 3 x MPI_Win_fence around MPI_Put of (rank+1)*2
!     integers to nxt and MPI_Get of rank+3 integers from prv, MPI_Win_create, _free
!     (lines "rma <origin> <target> <operations> <put bytes> <get bytes>")
program mpi_fbind
#ifdef USE_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: NF = 26, SEND = 1, RECV = 2, ISEND = 3, IRECV = 4, WAIT = 5, &
    WAITALL = 6, BCAST = 7, ALLRED = 8, BARR = 9, SINIT = 10, RINIT = 11, START = 12, &
    STARTALL = 13, SPLIT = 14, CDUP = 15, CFREE = 16, FOPEN = 17, FWRITE = 18, FREAD = 19, &
    FCLOSE = 20, WCREATE = 21, FENCE = 22, PUT = 23, GET = 24, WFREE = 25, ALLGATH = 26
  character(len=20), parameter :: names(NF) = [character(len=20) :: 'MPI_Send', 'MPI_Recv', &
    'MPI_Isend', 'MPI_Irecv', 'MPI_Wait', 'MPI_Waitall', 'MPI_Bcast', 'MPI_Allreduce', &
    'MPI_Barrier', 'MPI_Send_init', 'MPI_Recv_init', 'MPI_Start', 'MPI_Startall', &
    'MPI_Comm_split', 'MPI_Comm_dup', 'MPI_Comm_free', 'MPI_File_open', 'MPI_File_write_at', &
    'MPI_File_read_at', 'MPI_File_close', 'MPI_Win_create', 'MPI_Win_fence', 'MPI_Put', &
    'MPI_Get', 'MPI_Win_free', 'MPI_Allgather']
  integer(8) :: calls(NF), sent(NF), recvd(NF)
  integer(8), allocatable :: pbytes(:), pn(:)
  integer :: ierr, rank, nranks, nxt, prv, i, isz, dsz, n
  integer, allocatable :: ag(:)
  integer :: ibuf(64), iback(64), bc(16)
  double precision :: d(8), dr(8), d2(8), dr2(8), s3(3), r3(3)
  integer :: pin(4), pout(4), wbuf(16), gbuf(16)
  character(len=4096) :: path
  integer(kind=MPI_OFFSET_KIND) :: off
  integer(kind=MPI_ADDRESS_KIND) :: wsize, disp
#ifdef USE_F08
  type(MPI_Request) :: rq(2), pq(2)
  type(MPI_Status) :: st, sts(2)
  type(MPI_Comm) :: sub, dup
  type(MPI_File) :: fh
  type(MPI_Win) :: win
#else
  integer :: rq(2), pq(2), st(MPI_STATUS_SIZE), sts(MPI_STATUS_SIZE, 2)
  integer :: sub, dup, fh, win
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
      call ring_recv(i)
    else
      call ring_recv(i)
      call MPI_Send(ibuf, (rank + 1) * 4, MPI_INTEGER, nxt, i, MPI_COMM_WORLD, ierr)
    end if
    call sent_to(SEND, nxt, (rank + 1) * 4 * isz)
    call got(RECV, (prv + 1) * 4 * isz) ! what arrived, not the 64 posted
  end do

  do i = 1, 2
    call MPI_Irecv(dr, nxt + 2, MPI_DOUBLE_PRECISION, nxt, 10 + i, MPI_COMM_WORLD, rq(1), ierr)
    call got(IRECV, (nxt + 2) * dsz)
    call MPI_Isend(d, rank + 2, MPI_DOUBLE_PRECISION, prv, 10 + i, MPI_COMM_WORLD, rq(2), ierr)
    call sent_to(ISEND, prv, (rank + 2) * dsz)
    call MPI_Wait(rq(1), st, ierr)
    call MPI_Wait(rq(2), MPI_STATUS_IGNORE, ierr)
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

  ! MPI_IN_PLACE: the rank's part is already in the receive buffer; the send count and
  ! type are ignored (0 and MPI_DATATYPE_NULL here): its part counts as sent
  allocate(ag(2 * nranks))
  ag = -1
  ag(2 * rank + 1:2 * rank + 2) = rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ag(2 * nranks) /= nranks - 1) stop 5
  calls(ALLGATH) = calls(ALLGATH) + 1
  sent(ALLGATH) = sent(ALLGATH) + 2 * isz
  recvd(ALLGATH) = recvd(ALLGATH) + 2 * nranks * isz

  ! persistent requests: the inits move nothing, each start what its request moves
  pout = rank
  call MPI_Recv_init(pin, 4, MPI_INTEGER, prv, 30, MPI_COMM_WORLD, pq(1), ierr)
  call MPI_Send_init(pout, 4, MPI_INTEGER, nxt, 30, MPI_COMM_WORLD, pq(2), ierr)
  calls(RINIT) = calls(RINIT) + 1
  calls(SINIT) = calls(SINIT) + 1
  call MPI_Startall(2, pq, ierr)
  recvd(STARTALL) = recvd(STARTALL) + 4 * isz ! its call counted by sent_to
  call sent_to(STARTALL, nxt, 4 * isz)
  call MPI_Waitall(2, pq, MPI_STATUSES_IGNORE, ierr)
  calls(WAITALL) = calls(WAITALL) + 1
  call MPI_Start(pq(1), ierr)
  call got(START, 4 * isz)
  call MPI_Start(pq(2), ierr)
  call sent_to(START, nxt, 4 * isz)
  call MPI_Wait(pq(1), st, ierr)
  call MPI_Wait(pq(2), st, ierr)
  calls(WAIT) = calls(WAIT) + 2
  call MPI_Request_free(pq(1), ierr)
  call MPI_Request_free(pq(2), ierr)

  ! communicators: calls only
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, sub, ierr)
  call MPI_Comm_dup(sub, dup, ierr)
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(sub, ierr)
  calls(SPLIT) = calls(SPLIT) + 1
  calls(CDUP) = calls(CDUP) + 1
  calls(CFREE) = calls(CFREE) + 2

  ! MPI-IO: a write's bytes are sent, a read's received
  call get_environment_variable('UPROF_FBIND_FILE', path)
  if (len_trim(path) == 0) path = 'mpi_fbind.dat'
  call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
    MPI_INFO_NULL, fh, ierr)
  if (ierr /= MPI_SUCCESS) stop 2
  off = int(rank, MPI_OFFSET_KIND) * 64 * isz
  ibuf = rank + 100
  call MPI_File_write_at(fh, off, ibuf, 64, MPI_INTEGER, st, ierr)
  iback = -1
  call MPI_File_read_at(fh, off, iback, 64, MPI_INTEGER, st, ierr)
  if (iback(64) /= rank + 100) stop 3
  calls(FOPEN) = calls(FOPEN) + 1
  calls(FWRITE) = calls(FWRITE) + 1
  sent(FWRITE) = sent(FWRITE) + 64 * isz
  calls(FREAD) = calls(FREAD) + 1
  recvd(FREAD) = recvd(FREAD) + 64 * isz
  ! a read past every rank's block: at the end of the file it reads less than it asks
  ! (nothing), which its status says
  off = int(nranks, MPI_OFFSET_KIND) * 64 * isz
  call MPI_File_read_at(fh, off, iback, 64, MPI_INTEGER, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, n, ierr)
  if (n < 0 .or. n > 64) stop 4
  calls(FREAD) = calls(FREAD) + 1
  recvd(FREAD) = recvd(FREAD) + int(n, 8) * isz
  call MPI_File_close(fh, ierr)
  calls(FCLOSE) = calls(FCLOSE) + 1

  ! RMA: a put's bytes are sent, a get's received, between fences
  wbuf = rank
  gbuf = -1
  wsize = 16 * isz
  disp = 0
  call MPI_Win_create(wbuf, wsize, isz, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(ibuf, (rank + 1) * 2, MPI_INTEGER, nxt, disp, (rank + 1) * 2, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Get(gbuf, rank + 3, MPI_INTEGER, prv, disp, rank + 3, MPI_INTEGER, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_free(win, ierr)
  calls(WCREATE) = calls(WCREATE) + 1
  calls(FENCE) = calls(FENCE) + 3
  calls(PUT) = calls(PUT) + 1
  sent(PUT) = sent(PUT) + (rank + 1) * 2 * isz
  calls(GET) = calls(GET) + 1
  recvd(GET) = recvd(GET) + (rank + 3) * isz
  calls(WFREE) = calls(WFREE) + 1
  ! the RMA matrix's rows: "rma <origin> <target> <operations> <put bytes> <get bytes>"
  write (*, '(A,I0,1X,I0,A,I0,A)') 'rma ', rank, nxt, ' 1 ', (rank + 1) * 2 * isz, ' 0'
  write (*, '(A,I0,1X,I0,A,I0)') 'rma ', rank, prv, ' 1 0 ', (rank + 3) * isz

  do i = 1, NF
    write (*, '(A,I0,1X,A,4(1X,I0))') 'count ', rank, trim(names(i)), calls(i), sent(i), recvd(i)
  end do
  do i = 0, nranks - 1
    if (pn(i) > 0) write (*, '(A,I0,1X,I0,2(1X,I0))') 'pair ', rank, i, pbytes(i), pn(i)
  end do
  call MPI_Finalize(ierr)
  if (nint(r3(1)) /= nranks .or. bc(16) /= 7) stop 1

contains

  ! the ring's receive of round @r: 64 integers posted, (prv+1)*4 sent
  subroutine ring_recv(r)
    integer, intent(in) :: r
    if (mod(r, 2) == 1) then
      call MPI_Recv(iback, 64, MPI_INTEGER, prv, r, MPI_COMM_WORLD, st, ierr)
      call MPI_Get_count(st, MPI_INTEGER, n, ierr)
      if (n /= (prv + 1) * 4) stop 4
    else
      call MPI_Recv(iback, 64, MPI_INTEGER, prv, r, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end subroutine ring_recv

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
