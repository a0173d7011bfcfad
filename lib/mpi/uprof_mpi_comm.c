// SPDX-License-Identifier: MIT
/*
 * lib/mpi: communicator and group management, calls and time (no bytes): splitting and
 * duplicating a communicator is collective and can cost as much as a barrier, which a
 * program that builds communicators in a loop pays each time.
 */
#include "mpi/internal.h"

/* a call of no bytes */
#define COMM_CALL(name, params, args) UMPI_WRAP(name, params, args, (void)0, 0, 0, (void)0)

COMM_CALL(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *out), (comm, color, key, out))
COMM_CALL(Comm_split_type, (MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *out),
	  (comm, type, key, info, out))
COMM_CALL(Comm_dup, (MPI_Comm comm, MPI_Comm *out), (comm, out))
COMM_CALL(Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *out), (comm, group, out))
COMM_CALL(Comm_free, (MPI_Comm * comm), (comm))
COMM_CALL(Comm_group, (MPI_Comm comm, MPI_Group *group), (comm, group))
COMM_CALL(Group_incl, (MPI_Group g, int n, const int ranks[], MPI_Group *out), (g, n, ranks, out))
COMM_CALL(Group_excl, (MPI_Group g, int n, const int ranks[], MPI_Group *out), (g, n, ranks, out))
COMM_CALL(Group_union, (MPI_Group a, MPI_Group b, MPI_Group *out), (a, b, out))
COMM_CALL(Group_intersection, (MPI_Group a, MPI_Group b, MPI_Group *out), (a, b, out))
COMM_CALL(Group_difference, (MPI_Group a, MPI_Group b, MPI_Group *out), (a, b, out))
COMM_CALL(Group_free, (MPI_Group * g), (g))
