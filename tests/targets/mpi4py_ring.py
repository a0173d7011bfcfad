# SPDX-License-Identifier: MIT
# e2e mpi_python.sh: an mpi4py program (python3 links no libmpi; mpi4py's extension does)
# with a known pattern, printing what it did as mpi_fbind.F90 does ("count <rank>
# <function> <calls> <sent> <received>", "pair <from> <to> <bytes> <transfers>"): a ring
# of 4 MPI_Send/MPI_Recv of 100*(rank+1) bytes to rank+1, one MPI_Allreduce, one MPI_Barrier.
import array
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
nxt, prv = (rank + 1) % size, (rank - 1) % size
sent = got = 0
for i in range(4):
    buf = bytearray(100 * (rank + 1))
    back = bytearray(100 * (prv + 1))
    if rank % 2 == 0:
        comm.Send([buf, MPI.BYTE], dest=nxt, tag=i)
        comm.Recv([back, MPI.BYTE], source=prv, tag=i)
    else:
        comm.Recv([back, MPI.BYTE], source=prv, tag=i)
        comm.Send([buf, MPI.BYTE], dest=nxt, tag=i)
    sent += len(buf)
    got += len(back)
one, total = array.array("i", [1]), array.array("i", [0])
comm.Allreduce([one, MPI.INT], [total, MPI.INT], op=MPI.SUM)
comm.Barrier()
# in one write: the launcher forwards each rank's output as it reads it. Also, when a
# path is given, into <path>.<rank>: Open MPI's mpirun once spliced one rank's output into
# the middle of another's line (tests/e2e/mpi_python.sh reads the facts from the files)
lines = [
    "count %d MPI_Send 4 %d 0" % (rank, sent),
    "count %d MPI_Recv 4 0 %d" % (rank, got),
    "count %d MPI_Allreduce 1 4 4" % rank,
    "count %d MPI_Barrier 1 0 0" % rank,
    "pair %d %d %d 4" % (rank, nxt, sent),
]
print("\n".join(lines), flush=True)
if len(sys.argv) > 1:
    with open("%s.%d" % (sys.argv[1], rank), "w") as f:
        f.write("\n".join(lines) + "\n")
if total[0] != size:
    raise SystemExit(1)
