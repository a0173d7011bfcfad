/* SPDX-License-Identifier: MIT */
/*
 * mpi/<pid>.mpi: what lib/mpi's PMPI interposer recorded in one rank (docs/DESIGN.md §10), and
 * its bounded reader (mpi.c). The interposer includes this header alone (it needs only
 * <stdint.h>); lib/session/session.h includes it for everything else.
 *
 * A side-file container (container.c; the format had this framing from its first
 * version), in the writer's byte order (little-endian on every platform uprof runs on):
 *   header (struct ses_mpi_file_header, 64 bytes): the container's prefix (magic
 *     "UPROFMPI", major.minor, header_size), then the rank and world size, the MPI
 *     family, how the data was flushed (MPI_Finalize, a signal, exit without
 *     MPI_Finalize, or (1.2) a snapshot while the rank ran) and the monotonic clock at
 *     MPI_Init and at the flush
 *   records: the container's (a u32 code and a u32 payload length, then the payload):
 *     ENV   library version string, MPI standard version, thread level
 *     FUNC  per MPI function: kind, calls, time, bytes sent and received, name
 *     PEER  per world rank this rank talked to point-to-point: sends (transfers, bytes,
 *           time) and receives (transfers, bytes)
 *     RMA   (1.3) per world rank this rank's one-sided operations targeted: operations,
 *           bytes put (origin to target) and got (target to origin)
 *     INFLIGHT  (1.1) the MPI call the rank was in when a signal or an exit without
 *           MPI_Finalize flushed it, and for how long: where a hung rank hangs
 *     HIST  (1.1) per MPI function: messages by size, in powers of two
 *     SITE, SITES  (1.2, codes 40-49: mpi_sites.h) per call site (function, return
 *           address) and the site table's own counts
 *     END   record count and totals: the file is whole (a rank killed while writing, or
 *           a cut file, has none)
 * Codes are this file's own (never the control page's). A reader skips codes it does not
 * know (a newer minor version), and refuses a newer major version.
 */
#ifndef UPROF_SESSION_MPI_H
#define UPROF_SESSION_MPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_MPI_DIR "mpi"
#define SES_MPI_ENV_DIR "UPROF_MPI_DIR" /* collect tells the interposer where to write */
/* <pid>.noinit, empty: the interposer was loaded in process <pid>, which exited without an
 * MPI_Init it saw (lib/mpi/uprof_mpi_noinit.c) */
#define SES_MPI_NOINIT_SUFFIX ".noinit"
#define SES_MPI_MAGIC "UPROFMPI"
#define SES_MPI_MAJOR 1
#define SES_MPI_MINOR 3 /* 1.1: INFLIGHT, HIST; 1.2: SES_MPI_END_SNAPSHOT, SITE, SITES (mpi_sites.h); 1.3: RMA */
#define SES_MPI_NAME_MAX 32
#define SES_MPI_MAX_BYTES (64u << 20)
#define SES_MPI_MAX_FUNCS 4096
#define SES_MPI_MAX_WORLD 65536 /* SES_JOB_MAX_RANKS */
/* message sizes: bucket 0 holds 0 bytes, bucket b (1..31) [2^(b-1), 2^b - 1] bytes, the
 * last also everything larger */
#define SES_MPI_HIST_BUCKETS 32

enum ses_mpi_family { SES_MPI_OPENMPI = 1, SES_MPI_MPICH = 2 };
/* SNAPSHOT (1.2): written while the rank ran, at most once a second from an MPI call's
 * exit path; a file that still says so at the end is from a rank killed without a flush
 * (SIGKILL), its data up to end_mono_ns */
enum ses_mpi_end {
	SES_MPI_END_FINALIZE = 1,
	SES_MPI_END_SIGNAL = 2,
	SES_MPI_END_EXIT = 3,
	SES_MPI_END_SNAPSHOT = 4
};
enum ses_mpi_code {
	SES_MPI_REC_ENV = 1,
	SES_MPI_REC_FUNC = 2,
	SES_MPI_REC_PEER = 3,
	SES_MPI_REC_END = 4,
	SES_MPI_REC_INFLIGHT = 5,
	SES_MPI_REC_HIST = 6,
	SES_MPI_REC_RMA = 7
};
/* FUNC kinds: what the report's tables take them for */
enum ses_mpi_kind {
	SES_MPI_K_OTHER = 0,
	SES_MPI_K_P2P = 1,
	SES_MPI_K_COLL = 2,
	SES_MPI_K_WAIT = 3,
	SES_MPI_K_IO = 4,   /* MPI_File_*: bytes read (received) and written (sent) */
	SES_MPI_K_COMM = 5, /* communicator and group management */
	SES_MPI_K_RMA = 6   /* one-sided: windows, put/get/accumulate, fences, locks */
};

struct ses_mpi_file_header {
	char magic[8];
	uint16_t major, minor;
	uint32_t header_size; /* sizeof(struct ses_mpi_file_header) when written */
	int32_t rank, size;
	uint32_t family;  /* enum ses_mpi_family */
	uint32_t end_how; /* enum ses_mpi_end */
	int32_t signal;	  /* SES_MPI_END_SIGNAL: which */
	int32_t pid;
	int64_t init_mono_ns; /* CLOCK_MONOTONIC when MPI_Init was called */
	int64_t end_mono_ns;  /* ... when the data was flushed */
	uint8_t reserved[8];
};
_Static_assert(sizeof(struct ses_mpi_file_header) == 64, "mpi file header is 64 bytes");

struct ses_mpi_rec_header {
	uint32_t code, len; /* len: payload bytes after this header */
};

struct ses_mpi_rec_env {       /* + the library version string, len - 16 bytes, no NUL */
	uint32_t thread_level; /* MPI_THREAD_SINGLE 0 .. MPI_THREAD_MULTIPLE 3 */
	uint32_t std_major, std_minor;
	uint32_t pad;
};

struct ses_mpi_rec_func {
	uint32_t kind; /* enum ses_mpi_kind */
	uint32_t pad;
	uint64_t calls, time_ns, bytes_sent, bytes_recv;
	char name[SES_MPI_NAME_MAX]; /* NUL-padded; "MPI_Send" */
};
_Static_assert(sizeof(struct ses_mpi_rec_func) == 72, "func record is 72 bytes");

struct ses_mpi_rec_peer {
	int32_t peer; /* a world rank */
	uint32_t pad;
	uint64_t send_calls, send_bytes, send_time_ns;
	uint64_t recv_calls, recv_bytes;
};
_Static_assert(sizeof(struct ses_mpi_rec_peer) == 48, "peer record is 48 bytes");

/* MPI_Put, MPI_Accumulate, MPI_Rput put; MPI_Get, MPI_Rget get; MPI_Get_accumulate,
 * MPI_Fetch_and_op and MPI_Compare_and_swap do both: one operation each */
struct ses_mpi_rec_rma {
	int32_t peer; /* the target's world rank */
	uint32_t pad;
	uint64_t ops, put_bytes, get_bytes;
};
_Static_assert(sizeof(struct ses_mpi_rec_rma) == 32, "rma record is 32 bytes");

struct ses_mpi_rec_inflight {
	uint32_t kind; /* enum ses_mpi_kind */
	uint32_t pad;
	uint64_t elapsed_ns; /* in the call so far */
	char name[SES_MPI_NAME_MAX];
};
_Static_assert(sizeof(struct ses_mpi_rec_inflight) == 48, "inflight record is 48 bytes");

struct ses_mpi_rec_hist {
	char name[SES_MPI_NAME_MAX]; /* a FUNC record's name, before this record */
	uint64_t count[SES_MPI_HIST_BUCKETS];
};
_Static_assert(sizeof(struct ses_mpi_rec_hist) == 288, "hist record is 288 bytes");

struct ses_mpi_rec_end {
	uint64_t nrecords; /* records before this one */
	uint64_t mpi_time_ns, wait_ns, calls;
};

#include "session/mpi_sites.h" /* the call-site records (1.2) */

/* ---- the reader (not in the interposer) ---- */

struct ses_mpi_func {
	char name[SES_MPI_NAME_MAX + 1];
	uint32_t kind;
	uint64_t calls, time_ns, bytes_sent, bytes_recv;
	uint64_t hist[SES_MPI_HIST_BUCKETS]; /* messages by size (HIST), zero without one */
};

struct ses_mpi_peer {
	int peer;
	uint64_t send_calls, send_bytes, send_time_ns, recv_calls, recv_bytes;
};

struct ses_mpi_rma {
	int peer;
	uint64_t ops, put_bytes, get_bytes;
};

struct ses_mpi {
	int rank, size, pid;
	uint32_t family, end_how;
	int signal;
	int64_t init_mono_ns, end_mono_ns;
	uint32_t thread_level, std_major, std_minor;
	char lib_version[256];
	struct ses_mpi_func *funcs; /* owned: ses_mpi_release() */
	size_t nfuncs;
	struct ses_mpi_peer *peers; /* owned */
	size_t npeers;
	struct ses_mpi_rma *rma; /* owned: RMA records (1.3), one per target */
	size_t nrma;
	bool complete;			      /* an END record that counts every record before it */
	uint64_t mpi_time_ns, wait_ns, calls; /* END's totals (0 without one) */
	bool inflight;			      /* INFLIGHT: the call it was in at the flush */
	char inflight_name[SES_MPI_NAME_MAX + 1];
	uint64_t inflight_ns;
	/* SITE and SITES records (mpi_sites.c) */
	struct ses_mpi_sites sites;
	uint64_t unknown_records; /* of a newer minor's types: skipped */
	uint64_t damaged_at;	  /* offset of the first record that could not be read */
	char damage[128];	  /* why, "" when none */
};

/* Parse a whole .mpi file of @len bytes (untrusted) into @m (zeroed first). A bad header
 * is -EINVAL ("not an MPI data file", a header too short), -EPROTO (a newer major version)
 * or -EFBIG, with the reason in @err and nothing to release. A record cut or malformed
 * ends the parse with what came before kept: 0 with m->damaged_at and m->damage set.
 * -ENOMEM. */
int ses_mpi_parse(const void *buf, size_t len, struct ses_mpi *m, char *err, size_t errlen);
/* Read and parse regular file @path (input.c's rules: a FIFO is refused). */
int ses_mpi_read(const char *path, struct ses_mpi *m, char *err, size_t errlen);
/* The same for @name beneath the directory fd @dfd, no symlink followed. */
int ses_mpi_read_at(int dfd, const char *name, struct ses_mpi *m, char *err, size_t errlen);
void ses_mpi_release(struct ses_mpi *m); /* NULL is fine; safe twice */
/* "MPI_Finalize", "signal", "exit without MPI_Finalize", "snapshot" */
const char *ses_mpi_end_name(uint32_t end_how);

#endif
