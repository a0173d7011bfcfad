/* SPDX-License-Identifier: MIT */
/*
 * lib/launcher: what an MPI launcher tells one rank it started (docs/DESIGN.md §10): which rank,
 * of how many, and which job; and which MPI family a program is linked with. collect
 * --mpi asks it before the program starts; the words for the user stay in cli/.
 *
 * What the launchers set, as checked on this project's machines:
 *   Open MPI 4.1 (ORTE + PMIx): OMPI_COMM_WORLD_RANK/SIZE/LOCAL_RANK, PMIX_RANK,
 *     PMIX_NAMESPACE (the job id, also OMPI_MCA_ess_base_jobid)
 *   MPICH 4.0 (Hydra): PMI_RANK, PMI_SIZE, MPI_LOCALRANKID and PMI_FD, a socket to the
 *     local proxy; no job id in the environment: the PMI-1 wire protocol's
 *     get_my_kvsname answers one (kvs_<mpiexec pid>_<pgid>_<random>_<host>), the same
 *     on every host of the job
 *   Slurm (srun): SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_JOB_ID.SLURM_STEP_ID
 *
 *   env.c     rank, size, local rank and job id from the environment
 *   pmi.c     the PMI-1 client: the job's KVS name from the proxy's socket
 *   family.c  the MPI family of a program, from the libraries ldd lists for it
 */
#ifndef UPROF_LAUNCHER_H
#define UPROF_LAUNCHER_H

#include <stddef.h>

/* The largest rank + 1 and world size taken from a launcher (SES_JOB_MAX_RANKS). */
#define LAUNCHER_MAX_RANKS 65536
/* How long the PMI proxy may take to answer one request: it answers at once, and a
 * dead one must not hang a rank. */
#define LAUNCHER_PMI_TIMEOUT_MS 3000

struct launcher_rank {
	int rank;	  /* 0 .. LAUNCHER_MAX_RANKS - 1 */
	int size;	  /* the world size; -1 when the launcher did not say */
	int local_rank;	  /* the rank among those on this host; -1 when not said */
	const char *from; /* the variable the rank came from (a static string); NULL: none */
};

/*
 * This process's rank from the launcher's environment: the first of OMPI_COMM_WORLD_RANK,
 * PMIX_RANK, PMI_RANK, SLURM_PROCID set to a number in range, and likewise the size and
 * local rank. 0; -ENOENT when no rank variable is set (not started by a launcher);
 * -ERANGE when the size is 0 or not above the rank (@out holds what was read).
 */
int launcher_rank_detect(struct launcher_rank *out);

/*
 * The id every rank of the job shares, into @out (@size bytes): UPROF_MPI_JOB, else
 * PMIX_NAMESPACE, OMPI_MCA_ess_base_jobid, PMI_KVSNAME, else "slurm.<job>.<step>" from
 * SLURM_JOB_ID and SLURM_STEP_ID, else the KVS name the PMI-1 proxy in PMI_FD answers
 * (launcher_pmi_kvsname). Every character outside [A-Za-z0-9._-] becomes '_' (PRRTE's
 * namespaces hold '@'), and it is cut to @size - 1 characters. 0; -ENOENT when there is
 * no id and no PMI_FD to ask; another -errno of launcher_pmi_fd or launcher_pmi_kvsname.
 */
int launcher_job_id(char *out, size_t size);

/* @src as a job id into @dst (@size bytes): the alphabet and cut of launcher_job_id. */
void launcher_job_id_clean(char *dst, size_t size, const char *src);

/* The descriptor in PMI_FD: >= 0; -ENOENT when PMI_FD is not set; -EBADF when it is not
 * a number or no open descriptor. */
int launcher_pmi_fd(void);

/*
 * Ask the PMI-1 proxy on @fd (borrowed, left open) for the job's KVS name:
 * "cmd=init pmi_version=1 pmi_subversion=1", then "cmd=get_my_kvsname", each answered by
 * one line within @timeout_ms. The name goes into @out (@size bytes, cut to fit). Replies
 * are read a byte at a time: the socket is the program's after us (its MPI_Init says init
 * again, and Hydra answers each), and not one byte beyond our replies may be taken.
 * 0; -ETIMEDOUT (no full line in time); -ECONNRESET (the proxy closed); -E2BIG (a line
 * over 511 bytes); -EPROTO (init refused, or no kvsname= in the answer); -EIO (a short
 * write); -errno of read or write.
 */
int launcher_pmi_kvsname(int fd, int timeout_ms, char *out, size_t size);

/*
 * The MPI family @prog is linked with: enum ses_mpi_family (SES_MPI_OPENMPI,
 * SES_MPI_MPICH) from the libraries the loader would map for it, as `ldd` (found in PATH)
 * lists them: the libmpi may come in through another library. 0 when none is known or
 * ldd cannot run. @lib (@len bytes) gets the soname that told.
 */
int launcher_mpi_family(const char *prog, char *lib, size_t len);

/*
 * The MPI family of an interpreter's MPI, where the interpreter links none (family_interp.c):
 * for the Python @prog (the path it is run by: a venv's link finds the venv), that of the
 * mpi4py.MPI extension it would import, which @prog itself is asked for (run with -c,
 * bounded by 10 s). 0 when it has no mpi4py, its extension links no known libmpi, or it
 * is no Python. @lib as for launcher_mpi_family(); @module (@modlen bytes, may be NULL)
 * gets the extension's path.
 */
int launcher_mpi_family_interp(const char *prog, char *lib, size_t len, char *module,
			       size_t modlen);

#endif
