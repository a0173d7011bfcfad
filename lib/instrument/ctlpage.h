/* SPDX-License-Identifier: MIT */
/*
 * The control page: the one thing the instrumented target and the profiler share
 * (docs/DESIGN.md §5). The target owns it: /dev/shm/uprof.<pid>, mode 0600, created on first
 * use when instrumentation is enabled, unlinked at exit after a bounded wait for the
 * profiler to drain it.
 *
 * Layout (fixed size, offsets in the header so a later version can grow):
 *   header      this struct, padded to 4 KiB
 *   strings     append-only table; an id is (offset of the entry + 1); entry =
 *               u32 length, bytes, NUL, padded to 4
 *   ring        MPSC ring of struct uprof_ctl_record (task/event records)
 *   pauses      MPSC ring of struct uprof_ctl_record (pause/resume records)
 *
 * Rings follow Vyukov's bounded MPMC queue with one consumer: a producer claims a slot by
 * CAS on head when slot.seq == pos, fills it, then publishes with a release store of
 * seq = pos + 1; the consumer reads slot.seq with acquire, copies the record when
 * seq == pos + 1, and frees the slot with a release store of seq = pos + capacity. A full
 * ring drops the record and counts it: the target never blocks. Slots start zeroed, not
 * at seq = i (later in 2.6): a producer takes seq 0 at a position of the first lap
 * (pos < capacity) as free, and to the consumer 0 is unpublished as i was (its side is
 * unchanged, so a profiler of any 2.x reads such a page), so making a page no longer
 * writes the task ring's 2 MiB (they are faulted in as records fill them).
 *
 * Futex words (shared, cross-process): req_seq is bumped by the target on a strict
 * pause/resume (and at exit), and the profiler waits on it; ack_seq is set by the profiler
 * to the req_seq it has applied, and a strict caller waits on it (bounded). From 2.4
 * req_seq is also the page's doorbell: the target bumps it and wakes the profiler when a
 * pause/resume record finds the pause ring drained up to itself (the first since the
 * profiler last looked), and when a task record fills a quarter of the task ring. The
 * profiler's one drain thread sleeps on the doorbells of all its pages (futex_waitv) and
 * looks at them all when one rings; a page of an older minor rings only for strict calls
 * and exit, so while one is read the thread also wakes every 10 ms (as each page's thread
 * did before). An older profiler reading a 2.4 page waits on req_seq as before: it only
 * wakes more often, and acknowledges a larger req_seq, which a strict caller takes as
 * applied exactly as before (its own bump is below it).
 *
 * The profiler treats every field as hostile: offsets, counts, ids and lengths are
 * checked before use, and a page that fails is ignored.
 *
 * Versions (libpfm4's rule for a struct that grows; docs/DESIGN.md §5). An application linked
 * statically against an older libAMDProfileController.a keeps the page of its day, so:
 *  - version = major | minor << 16. A page from before minors existed says plain 2: 2.0.
 *  - The first 24 bytes (magic, version, size, header_size, pid) never move in any
 *    version: every profiler can tell what a page is, and name its process.
 *  - A minor version only appends: fields at the end of the header (which stays within
 *    header_size), record kinds (an older profiler drops kinds it does not know), never a
 *    new meaning or offset for what exists. The profiler takes a page of any minor of its
 *    major: of an older minor it reads only the fields that minor has (the list below);
 *    a newer minor's fields and bytes it does not know are ignored.
 *  - A major version may change anything past the first 24 bytes. The profiler refuses a
 *    page of another major, older or newer, without touching it, and says so naming the
 *    pid (lib/sampler returns -EPROTONOSUPPORT, collect prints one warning on stderr);
 *    the target just runs unprofiled.
 *  - size is the whole object: the profiler maps that much (at most UPROF_CTL_MAX_SIZE)
 *    and checks the string table and the rings, wherever the header puts them, lie
 *    inside it; header_size is UPROF_CTL_HEADER_BYTES in major 2.
 * History: 1 (unreleased): no clock fields. 2.0: clock_kind, tsc0, mono0 (TSC stamps).
 * 2.1: lib_version. 2.2: the OpenMP record kinds (UPROF_REC_OMP_*, on the task ring),
 * no new header field. 2.3: the target-offload and device-tracing kinds (UPROF_REC_OMP_TARGET_BEGIN
 * .. UPROF_REC_OMP_DEV_BYTES, ompt_target.c), no new header field. 2.4: req_seq rings as a
 * doorbell (above), no new header field; later in 2.4, the LOOP and TASKLOOP site
 * kinds and the loop fields (UPROF_OMP_F_WS_*, UPROF_OMP_F_LOOP_*), the nesting fields
 * (UPROF_OMP_F_NESTED .. TEAM_MIN) and UPROF_OMP_F_CUT_EXIT, which an older profiler
 * drops (unknown codes). 2.5: wait kinds WORKSHARE, IMPLEMENTATION and REDUCTION (split
 * from BARRIER_IMPLICIT and OTHER) and the per-type wait fields UPROF_OMP_F_WAIT_*, no
 * new header field. 2.6: the lanes (below): lanes_offset, lane_count, lane_records and
 * lanes_claimed appended to the header; a page has lanes only when the profiler that
 * launched the process asked for them (UPROF_CTL_LANES_ENV), so a profiler of an older
 * minor, which does not read them, never gets a page that uses them. Bump the minor for
 * each addition and list it here.
 *
 * Lanes (2.6): one single-producer ring per thread for the OMPT tool's per-region records
 * (UPROF_REC_OMP_BEGIN/END/WAIT_BEGIN/WAIT_END), so that team members entering and
 * leaving a region at once do not contend on the shared ring's head: two threads writing
 * there at once cost 384-411 ns a record against 33-37 ns alone (bench/omp_tool_instr.sh,
 * issue 28). A thread claims lane lanes_claimed++ on its first such record; a thread past
 * lane_count uses the shared ring for all of them, so each thread's records stay in one
 * ring, in its own order (the report orders a thread's events by where they lie in the
 * file: lib/openmp). Every other record kind stays on the shared ring. A lane's slots
 * use the ring's seq protocol from the consumer's side (published: seq == pos + 1; freed:
 * seq = pos + capacity), so the drain code is the rings'; its producer is alone and knows
 * a slot is free from the lane's tail, so the slots need no initialisation (zeroed memory
 * reads as unpublished) and a record costs no atomic read-modify-write. The lanes region:
 * UPROF_CTL_LANE_CTL_BYTES of struct uprof_ctl_lane (one cache line each, lane_count of
 * them used), then lane_count arrays of lane_records slots, each page-aligned so that a
 * thread can fault its lane in at once (madvise) when it takes it.
 */
#ifndef UPROF_CTLPAGE_H
#define UPROF_CTLPAGE_H

#include <stddef.h>
#include <stdint.h>

#define UPROF_CTL_MAGIC 0x3147504c54435055ULL /* "UPCTLPG1" little-endian */
#define UPROF_CTL_MAJOR 2
/* The minor this library writes. Overridable only so that tests can build the library of
 * an older minor (-DUPROF_CTL_MINOR=0) or of a major this profiler does not read. */
#ifndef UPROF_CTL_MINOR
#define UPROF_CTL_MINOR 6
#endif
#ifndef UPROF_CTL_WRITE_MAJOR
#define UPROF_CTL_WRITE_MAJOR UPROF_CTL_MAJOR
#endif
#define UPROF_CTL_VERSION_OF(major, minor) ((uint32_t)(major) | (uint32_t)(minor) << 16)
#define UPROF_CTL_VERSION UPROF_CTL_VERSION_OF(UPROF_CTL_WRITE_MAJOR, UPROF_CTL_MINOR)
/* (clang-format 14 reads "(uint32_t)(version) & 0xffff" as a cast of "&0xffff") */
/* clang-format off */
#define UPROF_CTL_MAJOR_OF(version) ((uint32_t)(version) & 0xffff)
/* clang-format on */
#define UPROF_CTL_MINOR_OF(version) ((uint32_t)(version) >> 16)
#define UPROF_CTL_MAX_SIZE (64u << 20) /* largest page a profiler maps */
#define UPROF_CTL_HEADER_BYTES 4096
#define UPROF_CTL_STR_BYTES (64 * 1024)
#define UPROF_CTL_RING_RECORDS 65536  /* power of two: 2 MiB */
#define UPROF_CTL_PAUSE_RECORDS 1024  /* power of two */
#define UPROF_CTL_DOORBELL_MINOR 4    /* pages of this minor on ring req_seq as a doorbell */
#define UPROF_CTL_LANES_MINOR 6	      /* pages of this minor may have lanes */
#define UPROF_CTL_LANE_RECORDS 16384  /* power of two: 512 KiB a lane */
#define UPROF_CTL_MAX_LANES 64	      /* a page's lanes at most (32 MiB) */
#define UPROF_CTL_LANE_CTL_BYTES 4096 /* the lanes' control words, before their slots */
/* Set by a profiler that reads lanes, in the environment of the processes it launches:
 * how many lanes their pages should have (0 or unset: none). */
#define UPROF_CTL_LANES_ENV "UPROF_CTL_LANES"
#define UPROF_CTL_NAME_MAX 1024	      /* longest domain/task/event name kept */
#define UPROF_CTL_SHM_PREFIX "uprof." /* /dev/shm/uprof.<pid> */
#define UPROF_CTL_SESSION_MAX 64
/* Launch mode: the abstract unix socket (its name without the leading NUL) to which the
 * library hands its page, a memfd, with SCM_RIGHTS, so that no page has a name another
 * user could squat or a killed process leave behind (docs/DESIGN.md §5). One datagram:
 * struct uprof_ctl_handoff, the fd, and the kernel's SCM_CREDENTIALS of the sender. */
#define UPROF_CTL_CHANNEL_ENV "UPROF_PAGE_CHANNEL"
#define UPROF_CTL_CHANNEL_MAX 96		      /* longest name, NUL included */
#define UPROF_CTL_HANDOFF_MAGIC 0x314e414843505550ULL /* "UPPCHAN1" little-endian */
struct uprof_ctl_handoff {
	uint64_t magic;
	int32_t pid; /* informational: the kernel's credentials decide */
	uint32_t version;
};

enum uprof_ctl_kind {
	UPROF_REC_TASK_BEGIN = 1,
	UPROF_REC_TASK_END = 2,
	UPROF_REC_EVENT_START = 3,
	UPROF_REC_EVENT_END = 4,
	UPROF_REC_PAUSE = 5,
	UPROF_REC_RESUME = 6,
	UPROF_REC_THREAD_NAME = 7, /* task ring: thread @tid is named string @name (ITT) */
	/* 2.2: the OMPT tool (ompt.c), on the task ring. Stamped kinds carry a time in
	 * time_ns; the others carry a value there, never converted as a time. */
	UPROF_REC_OMP_BEGIN = 8,       /* stamped: thread @tid entered an implicit task of
					 * region site @domain as team member @name; how: depth */
	UPROF_REC_OMP_END = 9,	       /* stamped: ... and left it (same fields) */
	UPROF_REC_OMP_WAIT_BEGIN = 10, /* stamped (--openmp-scope full): a wait of kind @how
					 * (enum uprof_ctl_omp_wait) at site @domain */
	UPROF_REC_OMP_WAIT_END = 11,
	UPROF_REC_OMP_SITE = 12,    /* value: site @domain is code address time_ns, of
					 * construct @how (enum uprof_ctl_omp_site) */
	UPROF_REC_OMP_VALUE = 13,   /* value: field @how (enum uprof_ctl_omp_field) of site
					 * @domain (0: the thread or process) for thread @tid,
					 * whose tool slot is @name (0: the process) */
	UPROF_REC_OMP_RUNTIME = 14, /* value: the runtime's OpenMP version in time_ns, its
					 * version string @name */
	/* 2.3: target offload (ompt_target.c), from the host's EMI callbacks. A thread's
	 * records come in its own order, so an op's records follow each other on @tid. */
	UPROF_REC_OMP_TARGET_BEGIN = 15, /* stamped: a target construct of kind @how
					  * (ompt_target_t) at site @domain on device @name */
	UPROF_REC_OMP_TARGET_END = 16,	 /* stamped: ... ended (same fields) */
	UPROF_REC_OMP_DATA_BEGIN = 17,	 /* stamped: a data op of type @how
					 * (ompt_target_data_op_t) of site @domain's region,
					 * devices @name = UPROF_OMP_DEVPAIR(src, dest) */
	UPROF_REC_OMP_DATA_END = 18,	 /* stamped: ... ended (same fields) */
	UPROF_REC_OMP_DATA_BYTES = 19,	 /* value: the bytes of the data op begun just
					 * before on @tid (same fields) */
	UPROF_REC_OMP_SUBMIT_BEGIN = 20, /* stamped: a kernel submit in site @domain's region,
					  * @name teams requested */
	UPROF_REC_OMP_SUBMIT_END = 21,
	UPROF_REC_OMP_DEVICE = 22,    /* value: event @how (enum uprof_ctl_omp_dev) of device
					 * @domain at CLOCK_MONOTONIC ns time_ns (not a stamp),
					 * @name a string id (the device's type) or 0 */
	UPROF_REC_OMP_DEV_BEGIN = 23, /* value: a device trace record of type @how
					 * (ompt_callbacks_t) on device @domain for host op @name
					 * (low 32 bits) began at time_ns, CLOCK_MONOTONIC ns
					 * translated from the device's clock */
	UPROF_REC_OMP_DEV_END = 24,   /* value: ... ended at time_ns (same fields) */
	UPROF_REC_OMP_DEV_BYTES = 25, /* value: its bytes (a data op) or granted teams (a
					 * kernel), same fields */
};
#define UPROF_REC_OMP_FIRST UPROF_REC_OMP_BEGIN
#define UPROF_REC_OMP_LAST UPROF_REC_OMP_DEV_BYTES
/* Does a record of @kind carry a time stamp (converted from the TSC when drained)? */
static inline int uprof_ctl_kind_stamped(unsigned kind)
{
	switch (kind) {
	case UPROF_REC_OMP_SITE:
	case UPROF_REC_OMP_VALUE:
	case UPROF_REC_OMP_RUNTIME:
	case UPROF_REC_OMP_DATA_BYTES:
	case UPROF_REC_OMP_DEVICE:
	case UPROF_REC_OMP_DEV_BEGIN:
	case UPROF_REC_OMP_DEV_END:
	case UPROF_REC_OMP_DEV_BYTES:
		return 0;
	default:
		return 1;
	}
}
/* Two device numbers in one u32: each + 1 in 16 bits (0: none, e.g. -1 for "no device"). */
#define UPROF_OMP_DEVPAIR(src, dest) \
	((uint32_t)((src) + 1) & 0xffff) | (((uint32_t)((dest) + 1) & 0xffff) << 16)
/* What happened to a device (UPROF_REC_OMP_DEVICE's how). */
enum uprof_ctl_omp_dev {
	UPROF_OMP_DEV_INIT = 1, /* device_initialize; @name: its type */
	UPROF_OMP_DEV_FINI = 2, /* device_finalize */
	UPROF_OMP_DEV_LOAD = 3, /* device_load */
	UPROF_OMP_DEV_UNLOAD = 4,
	UPROF_OMP_DEV_NO_LOOKUP = 5, /* no device tracing: the runtime gave no lookup */
	UPROF_OMP_DEV_NO_ENTRY = 6,  /* no device tracing: its lookup has no
					 * ompt_start_trace/set_trace_ompt/... */
	UPROF_OMP_DEV_REFUSED = 7,   /* no device tracing: set_trace_ompt or start_trace
					 * failed */
	UPROF_OMP_DEV_TRACING = 8,   /* tracing started; time_ns: the anchor, the host's
					 * CLOCK_MONOTONIC at the device time the translation
					 * starts from */
	UPROF_OMP_DEV_NO_TIME = 9,   /* tracing, but no ompt_get_device_time/translate_time:
					 * its records carry no host times (0) */
	UPROF_OMP_DEV_LOST = 10,     /* time_ns: records of the device not sent (full ring,
					 * bad cursor) */
};

enum uprof_ctl_omp_site {
	UPROF_OMP_SITE_PARALLEL = 1,
	UPROF_OMP_SITE_LOCK = 2, /* omp_set_lock / omp_test_lock */
	UPROF_OMP_SITE_NEST_LOCK = 3,
	UPROF_OMP_SITE_CRITICAL = 4,
	UPROF_OMP_SITE_ORDERED = 5,
	UPROF_OMP_SITE_ATOMIC = 6,
	UPROF_OMP_SITE_TARGET = 7, /* 2.3: a target construct */
	/* 2.4: a worksharing loop and a taskloop (ompt_loops.c), from the work callback. Their
	 * code has UPROF_OMP_SITE_LOOP_KEY set: the table is the regions' too, and gcc's
	 * combined parallel loop may give the loop the region's return address. */
	UPROF_OMP_SITE_LOOP = 8,
	UPROF_OMP_SITE_TASKLOOP = 9,
	UPROF_OMP_SITE_LAST = 9,
};
enum uprof_ctl_omp_wait {
	UPROF_OMP_WAIT_BARRIER_IMPLICIT = 1,
	UPROF_OMP_WAIT_BARRIER_EXPLICIT = 2,
	UPROF_OMP_WAIT_TASKWAIT = 3,
	UPROF_OMP_WAIT_TASKGROUP = 4,
	UPROF_OMP_WAIT_OTHER = 5,
	UPROF_OMP_WAIT_MUTEX = 6,
	/* 2.5: kinds today's IMPLICIT lumped together (lib/instrument/ompt_waits.h) */
	UPROF_OMP_WAIT_BARRIER_WORKSHARE = 7,	   /* ending a worksharing construct */
	UPROF_OMP_WAIT_BARRIER_IMPLEMENTATION = 8, /* one the runtime added of its own */
	UPROF_OMP_WAIT_REDUCTION = 9,
};
/* Aggregates the tool keeps per (site, thread) and sends once, at the end: times in ns
 * (converted by the tool), the rest counts or codes. */
enum uprof_ctl_omp_field {
	/* per (region site, thread) */
	UPROF_OMP_F_ITASKS = 1,	     /* implicit tasks run (instances joined) */
	UPROF_OMP_F_SPAN = 2,	     /* ns in those implicit tasks */
	UPROF_OMP_F_JOINED = 3,	     /* ns: sum of the elapsed of the instances joined */
	UPROF_OMP_F_SYNC = 4,	     /* ns waiting: barriers, taskwait, taskgroup */
	UPROF_OMP_F_BARRIER = 5,     /* ns of that in barriers */
	UPROF_OMP_F_TASKWAIT = 6,    /* ns of that in taskwait */
	UPROF_OMP_F_TASKGROUP = 7,   /* ns of that at the end of taskgroups */
	UPROF_OMP_F_LOCKWAIT = 8,    /* ns waiting for locks, critical, ordered */
	UPROF_OMP_F_TASKS = 9,	     /* explicit tasks created */
	UPROF_OMP_F_TASK_TIME = 10,  /* ns running explicit tasks */
	UPROF_OMP_F_TEAM_INDEX = 11, /* the thread's number in the team (last seen) */
	/* per region site (2.4, ompt_loops.c): its loops and taskloops, each instance counted
	 * once (a loop by team member 0, a taskloop by the thread that encountered it) */
	UPROF_OMP_F_WS_LOOPS = 12,  /* loop and taskloop instances begun */
	UPROF_OMP_F_WS_ITERS = 13,  /* their iterations, summed */
	UPROF_OMP_F_WS_SCHEDS = 14, /* bit n: a loop of ompt_work_t n ran (or'ed) */
	/* per region site, on the thread that encountered it */
	UPROF_OMP_F_REGIONS = 16,    /* instances */
	UPROF_OMP_F_ELAPSED = 17,    /* ns, parallel begin to end */
	UPROF_OMP_F_TEAM_SUM = 18,   /* sum of the team sizes */
	UPROF_OMP_F_IDLE = 19,	     /* ns x threads of the process outside the team */
	UPROF_OMP_F_LOOPS = 20,	     /* worksharing loops begun (every member counts one) */
	UPROF_OMP_F_LOOP_ITERS = 21, /* the iterations the runtime gave for them */
	UPROF_OMP_F_LOOP_KIND = 22,  /* the runtime's ompt_work_t of the last loop */
	UPROF_OMP_F_NEST_LEVEL = 23, /* regions of the thread it is inside of, itself too */
	/* nesting (ompt_nest.c) */
	UPROF_OMP_F_NESTED = 24,   /* per (region site, thread): ns of its implicit tasks spent
				    * in regions it encountered in them (their elapsed) */
	UPROF_OMP_F_ENCLOSED = 25, /* per region site, encountering thread: bit 32, an
				    * instance began inside an implicit task of site bits
				    * 0..31 (the last such); bit 33, a teams construct */
	UPROF_OMP_F_TEAM_MAX = 26, /* per region site, encountering thread: team sizes */
	UPROF_OMP_F_TEAM_MIN = 27,
	/* per LOOP or TASKLOOP site, per thread (2.4, ompt_loops.c), counted as above */
	UPROF_OMP_F_LOOP_INSTANCES = 28, /* instances begun */
	UPROF_OMP_F_LOOP_COUNT = 29,	 /* their iterations, summed */
	UPROF_OMP_F_LOOP_SCHEDS = 30,	 /* bit n: an instance of ompt_work_t n (or'ed) */
	UPROF_OMP_F_LOOP_REGION = 31,	 /* the region site it ran in (the last) */
	/* per lock site, per thread */
	UPROF_OMP_F_ACQUIRES = 32,
	UPROF_OMP_F_ACQ_WAIT = 33, /* ns from acquire to acquired */
	/* 2.5: per (region site, thread), the waits by the type the runtime gives. Each wait
	 * end adds to one field only; the tool folds them into SYNC, BARRIER and LOCKWAIT as
	 * it sends those (lib/instrument/ompt_waits.h), so those keep their meaning. */
	UPROF_OMP_F_WAIT_IMPLICIT = 34,	      /* ns in the implicit barrier ending a parallel
					       * region (or one the runtime does not place) */
	UPROF_OMP_F_WAIT_WORKSHARE = 35,      /* ... ending a worksharing construct */
	UPROF_OMP_F_WAIT_EXPLICIT = 36,	      /* ... in #pragma omp barrier */
	UPROF_OMP_F_WAIT_IMPLEMENTATION = 37, /* ... in barriers the runtime added */
	UPROF_OMP_F_WAIT_REDUCTION = 38,      /* ... in reductions (where the runtime says) */
	UPROF_OMP_F_WAIT_LOCK = 39,	      /* ns acquiring omp locks and nest locks */
	UPROF_OMP_F_WAIT_CRITICAL = 40,	      /* ... entering critical sections */
	UPROF_OMP_F_WAIT_ORDERED = 41,	      /* ... entering ordered sections */
	/* per thread (site 0) */
	UPROF_OMP_F_THREAD_LIFE = 48, /* ns from thread begin to end (or the flush) */
	UPROF_OMP_F_THREAD_IN = 49,   /* ns of that in outermost implicit tasks */
	UPROF_OMP_F_THREAD_TYPE = 50, /* ompt_thread_t */
	/* per process (site 0, slot 0) */
	UPROF_OMP_F_CALLBACKS = 56,    /* bit n: callback id n registered as "always" */
	UPROF_OMP_F_LOST_THREADS = 57, /* threads beyond the tool's table (not traced) */
	UPROF_OMP_F_LOST_SITES = 58,   /* events at sites beyond the tool's table */
	UPROF_OMP_F_LOST_RECORDS = 59, /* aggregate records the ring could not take */
	UPROF_OMP_F_SCOPE = 60,	       /* 1 basic, 2 full */
	/* per region site, on the thread that encountered it */
	UPROF_OMP_F_CUT_EXIT = 61, /* instances the process's exit() ended (in REGIONS) */
};
#define UPROF_OMP_F_MAX 64
/* A LOOP or TASKLOOP site's code: the address in the low 48 bits, UPROF_OMP_SITE_LOOP_KEY
 * set, and for a TASKLOOP its region's site id in bits 48..62 (libomp gives every
 * taskloop one return address, inside itself). */
#define UPROF_OMP_SITE_LOOP_KEY (1ULL << 63)
#define UPROF_OMP_SITE_ADDR_MASK ((1ULL << 48) - 1)

/* Set in a task record's how field: records of this thread were dropped just before it
 * (full ring), so its open tasks cannot be paired reliably any more. */
#define UPROF_FLAG_GAP 0x8000

enum uprof_ctl_how {
	UPROF_HOW_API = 1,	  /* amdProfilePause/Resume: group 1 */
	UPROF_HOW_API_STRICT = 2, /* amdProfileStrictPause/Resume: group 2 */
	UPROF_HOW_ITT = 3,	  /* __itt_pause/__itt_resume */
};

struct uprof_ctl_record {
	uint64_t seq;	  /* ring slot sequence (atomic) */
	uint64_t time_ns; /* CLOCK_MONOTONIC, the samples' clock */
	uint32_t tid;
	uint16_t kind;	 /* enum uprof_ctl_kind */
	uint16_t how;	 /* enum uprof_ctl_how, pause/resume only */
	uint32_t domain; /* string id; 0 for events */
	uint32_t name;	 /* string id */
};
_Static_assert(sizeof(struct uprof_ctl_record) == 32, "record ABI");

struct uprof_ctl_ring {
	uint32_t offset;  /* from the start of the page */
	uint32_t records; /* capacity, a power of two */
	uint64_t head;	  /* producers' claim position (atomic) */
	uint64_t tail;	  /* consumer's position (atomic, written by the profiler) */
	uint64_t dropped; /* records dropped on a full ring (atomic) */
};
_Static_assert(sizeof(struct uprof_ctl_ring) == 32, "ring ABI");

/* A lane's control words (2.6): dropped written by its thread only, tail by the profiler
 * once per batch. No head: where its thread has got to is in the slots (the one at the
 * tail is published or not), so a record touches one line of the page, its slot's. */
struct uprof_ctl_lane {
	uint64_t tail;	  /* the profiler's position (atomic) */
	uint64_t dropped; /* records dropped on a full lane (atomic) */
	uint32_t tid;	  /* the thread that claimed it (informational) */
	uint32_t reserved;
	uint64_t pad[5];
};
_Static_assert(sizeof(struct uprof_ctl_lane) == 64, "lane ABI");
_Static_assert(UPROF_CTL_MAX_LANES * sizeof(struct uprof_ctl_lane) <= UPROF_CTL_LANE_CTL_BYTES,
	       "the lanes' control words fit before their slots");

struct uprof_ctl_header {
	/* fixed in every version: */
	uint64_t magic;
	uint32_t version;     /* major | minor << 16 */
	uint32_t size;	      /* whole object, bytes */
	uint32_t header_size; /* UPROF_CTL_HEADER_BYTES */
	int32_t pid;	      /* owner */
	/* target -> profiler */
	uint32_t state;	      /* last requested state: 0 running, 1 paused (atomic); stored
				 * before the call's pause record is emitted */
	uint32_t req_seq;     /* futex word, see above (atomic) */
	uint32_t exiting;     /* target is in its exit handler (atomic) */
	uint32_t launch_mode; /* 1: started by uprof collect (records kept until attach) */
	uint32_t str_offset;
	uint32_t str_bytes;
	uint32_t str_used;    /* bytes of the table in use, release-published (atomic) */
	uint32_t str_lock;    /* target-internal append lock (atomic) */
	uint64_t str_dropped; /* names that did not fit (atomic) */
	struct uprof_ctl_ring ring;
	struct uprof_ctl_ring pauses;
	/* profiler -> target */
	uint32_t attached;	  /* profiler generation, 0 = none (atomic) */
	uint32_t ack_seq;	  /* futex word (atomic) */
	uint32_t sampling_active; /* 1 while the kernel events are enabled (atomic) */
	uint32_t profiler_pid;
	char session[UPROF_CTL_SESSION_MAX]; /* UPROF_SESSION of the run, NUL-terminated */
	/* target -> profiler, set once at creation: the unit of task records' time_ns */
	uint32_t clock_kind; /* UPROF_CLOCK_MONO or UPROF_CLOCK_TSC */
	uint32_t reserved;
	uint64_t tsc0, mono0; /* one (TSC, CLOCK_MONOTONIC ns) pair taken at creation */
	/* 2.1: the uprof version the library was built from, NUL-terminated (for messages) */
	char lib_version[16];
	/* 2.6: the lanes (above); lanes_offset 0: none */
	uint32_t lanes_offset;	/* from the start of the page */
	uint32_t lane_count;	/* lanes there */
	uint32_t lane_records;	/* each lane's capacity, a power of two */
	uint32_t lanes_claimed; /* lanes threads took (atomic; may pass lane_count) */
				/* a new minor appends here */
};
/* The header as each minor of major 2 knows it: a profiler reads only what is below the
 * end of the page's minor. */
#define UPROF_CTL_HEADER_2_0 offsetof(struct uprof_ctl_header, lib_version)
#define UPROF_CTL_HEADER_2_1 offsetof(struct uprof_ctl_header, lanes_offset)
#define UPROF_CTL_HEADER_2_6 sizeof(struct uprof_ctl_header)
_Static_assert(sizeof(struct uprof_ctl_header) <= UPROF_CTL_HEADER_BYTES, "header fits");
_Static_assert(offsetof(struct uprof_ctl_header, version) == 8 &&
		       offsetof(struct uprof_ctl_header, size) == 12 &&
		       offsetof(struct uprof_ctl_header, header_size) == 16 &&
		       offsetof(struct uprof_ctl_header, pid) == 20,
	       "the first 24 bytes never move");
_Static_assert(UPROF_CTL_HEADER_2_0 == 232, "2.0's fields are where 2.0 put them");

/*
 * Task records are stamped with the TSC where the kernel itself keeps CLOCK_MONOTONIC on
 * it (x86-64, clocksource "tsc": constant, synchronized across CPUs): a third of a vDSO
 * clock_gettime here. The profiler converts them to CLOCK_MONOTONIC ns as it drains the
 * rings, from pairs of readings of both clocks; task and pause records of a page use the
 * same clock, so their order is kept exactly.
 */
#define UPROF_CLOCK_MONO 0
#define UPROF_CLOCK_TSC 1

/* The time stamp counter; 0 where there is none (then pages use UPROF_CLOCK_MONO). */
static inline uint64_t uprof_ctl_tsc(void)
{
#if defined(__x86_64__)
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
#else
	return 0;
#endif
}

/*
 * A (TSC, CLOCK_MONOTONIC ns) pair read at one instant: the TSC read on both sides of the
 * clock read, the narrowest of a few tries kept, with the TSC's midpoint. A thread
 * preempted between two plain reads (two CPU hogs beside it) made a pair milliseconds
 * apart, and the TSC rate taken between two pairs 0.3 s apart was 1 % off: a 20 ms task
 * came out 19.8 ms. @mono_ns is the caller's CLOCK_MONOTONIC reader.
 */
static inline void uprof_ctl_clock_pair(int64_t (*mono_ns)(void), uint64_t *tsc, int64_t *mono)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 8; i++) {
		uint64_t a = uprof_ctl_tsc();
		int64_t m = mono_ns();
		uint64_t b = uprof_ctl_tsc();

		if (b >= a && b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*mono = m;
		}
	}
	if (best == UINT64_MAX) { /* a TSC going backwards: take what there is */
		*tsc = uprof_ctl_tsc();
		*mono = mono_ns();
	}
}

#define UPROF_CTL_SIZE \
	(UPROF_CTL_HEADER_BYTES + UPROF_CTL_STR_BYTES + \
	 (UPROF_CTL_RING_RECORDS + UPROF_CTL_PAUSE_RECORDS) * sizeof(struct uprof_ctl_record))
/* A page with @lanes lanes (2.6): the lanes region follows the pause ring. */
#define UPROF_CTL_LANES_BYTES(lanes) \
	((lanes) ? UPROF_CTL_LANE_CTL_BYTES + (size_t)(lanes)*UPROF_CTL_LANE_RECORDS * \
						      sizeof(struct uprof_ctl_record) \
		 : 0)
_Static_assert(UPROF_CTL_SIZE + UPROF_CTL_LANES_BYTES(UPROF_CTL_MAX_LANES) <= UPROF_CTL_MAX_SIZE,
	       "the most lanes fit the largest page a profiler maps");

#endif
