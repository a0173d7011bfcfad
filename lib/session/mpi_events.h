/* SPDX-License-Identifier: MIT */
/*
 * mpi/<pid>.mpiev: every MPI call of one rank, one event each, as lib/mpi's interposer
 * recorded them under `--trace mpi=full` (docs/DESIGN.md §10), and its bounded reader
 * (mpi_events.c). The interposer includes this header alone (it needs only <stdint.h>);
 * lib/session/session.h includes it for everything else.
 *
 * A side-file container (container.c), little-endian:
 *   header (struct ses_mpiev_file_header, 96 bytes): the container's prefix (magic
 *     "UPMPIEV1", major.minor, header_size), the rank, world size and pid, the clock the
 *     events' times are in, two (ticks, CLOCK_MONOTONIC ns) pairs that turn them into the
 *     samples' clock, the events recorded and the calls past the cap, and how the file
 *     was flushed (enum ses_mpi_end)
 *   records (the container's u32 code, u32 length, payload):
 *     NAME    a function's id (u32), its kind (enum ses_mpi_kind), its name (no NUL)
 *     EVENTS  whole struct ses_mpiev_event, in the order they were recorded (several
 *             records, each a chunk the rank wrote as its buffer filled)
 *     END     record count and event count: the file is whole
 * An event is a call, or the completion of a nonblocking request (SES_MPIEV_COMPLETION):
 * which event posted it (done), what arrived (source, recv_tag, recvd, from the status),
 * and the call that completed it, which is the call recorded before it on its thread.
 * A PART event (1.1) is one message of the call recorded before it on its thread, for a
 * call that moves several (MPI_Startall: each persistent request it starts, with its
 * peer, tag and bytes, and a COMPLETION of its own); it is no call of its own.
 * Its "func" is 1 + a NAME's id; 0 marks a slot a thread had taken but not yet filled
 * when the file was flushed (a signal in the middle of a call): read and counted.
 */
#ifndef UPROF_SESSION_MPI_EVENTS_H
#define UPROF_SESSION_MPI_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SES_MPIEV_SUFFIX ".mpiev"
#define SES_MPIEV_ENV_CAP "UPROF_MPI_EVENTS" /* collect: record events, at most this many */
#define SES_MPIEV_MAGIC "UPMPIEV1"
#define SES_MPIEV_MAJOR 1
#define SES_MPIEV_MINOR 1 /* 1.1: PART events (MPI_Startall's messages) */
/* A rank's events: 1M is 64 MiB of buffer, allocated at MPI_Init and touched as used */
#define SES_MPIEV_CAP_DEFAULT 1000000
#define SES_MPIEV_CAP_MAX (16u << 20) /* 1 GiB of events: the reader's bound too */
#define SES_MPIEV_MAX_NAMES 1024
#define SES_MPIEV_NAME_MAX 32
#define SES_MPIEV_CHUNK 4096 /* events per EVENTS record */

enum ses_mpiev_code { SES_MPIEV_REC_NAME = 1, SES_MPIEV_REC_EVENTS = 2, SES_MPIEV_REC_END = 3 };
enum ses_mpiev_clock {
	SES_MPIEV_CLOCK_NS = 1, /* ticks are CLOCK_MONOTONIC ns */
	SES_MPIEV_CLOCK_TSC = 2 /* TSC ticks: between the header's two pairs, linearly */
};

/* What an event did. */
enum ses_mpiev_flag {
	SES_MPIEV_SEND = 1,	   /* sent a message: dest, send_tag, sent */
	SES_MPIEV_RECV = 2,	   /* received one: source, recv_tag, recvd */
	SES_MPIEV_NONBLOCKING = 4, /* posted only: a COMPLETION event says where it completed */
	SES_MPIEV_STATUS = 8,	   /* source, recv_tag and recvd are the status's (what came) */
	SES_MPIEV_COLL = 16,	   /* a collective over comm */
	SES_MPIEV_COMPLETION = 32, /* not a call: request done - 1 completed (see above) */
	SES_MPIEV_PART = 64	   /* not a call: a message of the call before it (see above) */
};

struct ses_mpiev_file_header {
	char magic[8];
	uint16_t major, minor;
	uint32_t header_size;
	int32_t rank, size;
	int32_t pid;
	uint32_t clock;		     /* enum ses_mpiev_clock */
	int64_t ref0_ticks, ref0_ns; /* at MPI_Init */
	int64_t ref1_ticks, ref1_ns; /* at the flush */
	uint64_t recorded;	     /* events in the file */
	uint64_t dropped;	     /* calls past the cap: not recorded */
	uint32_t cap;		     /* at most this many recorded */
	uint32_t end_how;	     /* enum ses_mpi_end */
	uint8_t reserved[8];
};
_Static_assert(sizeof(struct ses_mpiev_file_header) == 96, "mpiev header is 96 bytes");

struct ses_mpiev_rec_name { /* + the name, len - 8 bytes, no NUL */
	uint32_t id;
	uint32_t kind; /* enum ses_mpi_kind */
};

struct ses_mpiev_event {
	int64_t begin, end;	  /* ticks (the header's clock) */
	uint64_t sent, recvd;	  /* bytes */
	uint16_t func;		  /* 1 + a NAME's id; 0: never filled */
	uint16_t flags;		  /* enum ses_mpiev_flag */
	int32_t tid;		  /* the calling thread */
	uint32_t comm;		  /* the communicator: 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF, else
				 * a hash of its group's world ranks (the same on every rank) */
	uint32_t done;		  /* COMPLETION: 1 + index of the event that posted it */
	int32_t dest, send_tag;	  /* world rank sent to (-1 none); collectives: root, or -1 */
	int32_t source, recv_tag; /* world rank received from (-1 none or unknown) */
};
_Static_assert(sizeof(struct ses_mpiev_event) == 64, "an MPI event is 64 bytes");

struct ses_mpiev_rec_end {
	uint64_t nrecords; /* records before this one */
	uint64_t events;   /* events in them */
};

/* ---- the reader (not in the interposer) ---- */

/* One call, its times on the samples' clock (CLOCK_MONOTONIC ns). */
struct ses_mpiev_call {
	int64_t begin_ns, end_ns;
	uint64_t sent, recvd;
	uint32_t func; /* index into names */
	uint32_t flags;
	int tid;
	uint32_t comm;
	uint32_t done; /* NONBLOCKING: 1 + index into calls of the call that completed it
			* (a Wait or Test), 0 none recorded; what arrived is then in source,
			* recv_tag, recvd (STATUS) */
	/* PART: 1 + index into calls of the call it is a message of */
	uint32_t part_of;
	int dest, send_tag, source, recv_tag;
};

struct ses_mpiev {
	int rank, size, pid;
	uint32_t end_how;
	char (*names)[SES_MPIEV_NAME_MAX + 1]; /* owned; by id */
	size_t nnames;
	struct ses_mpiev_call *calls; /* owned: ses_mpiev_release() */
	size_t ncalls;
	uint64_t dropped;	  /* the header's: calls past the cap */
	uint32_t cap;		  /* the header's */
	uint64_t unfilled;	  /* slots never filled (func 0): not in calls */
	uint64_t completions;	  /* COMPLETION events read (not calls) */
	uint64_t unlinked;	  /* ... whose posting or completing call the file lacks;
				   * PARTs whose call it lacks */
	bool complete;		  /* an END that counts every record and event before it */
	uint64_t unknown_records; /* of a newer minor's types: skipped */
	uint64_t damaged_at;	  /* offset of the first record that could not be read */
	char damage[128];	  /* why, "" when none */
};

/* Parse a whole .mpiev file of @len bytes (untrusted) into @e (zeroed first). A bad header
 * is -EINVAL (not such a file, impossible rank or clock), -EPROTO (a newer major) or
 * -EFBIG, with the reason in @err and nothing to release. A record cut or malformed ends
 * the parse with what came before kept: 0 with e->damaged_at and e->damage set. -ENOMEM. */
int ses_mpiev_parse(const void *buf, size_t len, struct ses_mpiev *e, char *err, size_t errlen);
/* The same for @name beneath the directory fd @dfd, no symlink followed. */
int ses_mpiev_read_at(int dfd, const char *name, struct ses_mpiev *e, char *err, size_t errlen);
/* The first mpi/<pid>.mpiev beneath session directory fd @sdfd into @e: 1 read, 0 none
 * there (not collected with --trace mpi=full), or ses_mpiev_read_at's error (@err says
 * which file). */
int ses_mpiev_find_at(int sdfd, struct ses_mpiev *e, char *err, size_t errlen);
void ses_mpiev_release(struct ses_mpiev *e); /* NULL is fine; safe twice */

/* Streaming: each event handed to @sink as it is read, @index its place among the file's
 * events (from 0), nothing kept (e->calls stays NULL; e->ncalls counts the calls handed).
 * A completion is handed too, as itself: its flags have SES_MPIEV_COMPLETION, its func is
 * the completing call's, its done 1 + the index of the event that posted the request
 * (not linked: that would keep every call). The sink returns 0, or a negative errno that
 * stops the walk and is returned. */
typedef int (*ses_mpiev_sink)(void *ctx, const struct ses_mpiev *e, uint64_t index,
			      const struct ses_mpiev_call *c);
/* ses_mpiev_parse's checks and results (names, counts, damage), the events to @sink. */
int ses_mpiev_stream(const void *buf, size_t len, struct ses_mpiev *e, ses_mpiev_sink sink,
		     void *ctx, char *err, size_t errlen);
/* The same over @name beneath @dfd, mapped, its pages handed back as they are read: the
 * memory is the names and a few pages, whatever the file's size. */
int ses_mpiev_stream_at(int dfd, const char *name, struct ses_mpiev *e, ses_mpiev_sink sink,
			void *ctx, char *err, size_t errlen);
/* ses_mpiev_find_at's file, streamed: 1, 0 none there, or the error. ses_mpiev_release
 * @e after either. */
int ses_mpiev_stream_find_at(int sdfd, struct ses_mpiev *e, ses_mpiev_sink sink, void *ctx,
			     char *err, size_t errlen);

#endif
