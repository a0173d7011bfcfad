/* SPDX-License-Identifier: MIT */
/*
 * lib/instrument: libAMDProfileController, inside the target. Tiny and never blocking:
 * the hot path is a load and a branch when disabled, and a clock read plus a ring slot
 * claim when enabled. No malloc, locks or stdio on the hot path; errno is preserved.
 */
#ifndef UPROF_INSTRUMENT_INTERNAL_H
#define UPROF_INSTRUMENT_INTERNAL_H

#include "instrument/ctlpage.h"

#include <stdbool.h>
#include <stdint.h>

enum ins_state { INS_UNINIT = 0, INS_BUSY, INS_OFF, INS_ON };

/* A domain, string or event handle: the name, and its string id in this process's page
 * (tagged with the page generation, so a forked child re-registers it). */
struct ins_handle {
	uint64_t idgen; /* atomic: generation << 32 | string id */
	char name[];
};

extern int ins_state; /* enum ins_state (atomic) */
extern struct uprof_ctl_header *ins_page;

/* Slow path of every call: first-use setup from the environment. Returns true when
 * instrumentation is on and ins_page is usable. */
bool ins_setup(void);

static inline bool ins_on(void)
{
	int s = __atomic_load_n(&ins_state, __ATOMIC_ACQUIRE);

	if (__builtin_expect(s == INS_ON, 1))
		return true;
	if (s == INS_OFF)
		return false;
	return ins_setup();
}

/* Register the handle's name in the current page and return its string id (0 if the
 * string table is full): the slow path of every record naming a handle. */
uint32_t ins_handle_register(struct ins_handle *h);

/* Append a pause/resume record to the pause ring. Drops and counts when full; nothing
 * when no profiler is attached outside launch mode. */
void ins_emit_pause(uint16_t kind, uint16_t how);

/* Record a pause (@paused = 1) or resume for the whole session; a strict @how waits
 * (bounded) until the profiler applied it. False only when a strict wait timed out. */
bool ins_set_state(uint32_t paused, uint16_t how);

/* Record @kind for @domain and @name (borrowed handles, either may be NULL: id 0) on the
 * task ring. Does nothing when instrumentation is off; errno is preserved. */
void ins_record(uint16_t kind, struct ins_handle *domain, struct ins_handle *name);

/* Strict handshake: wake the profiler and wait (bounded) for it to apply the change. */
bool ins_wait_applied(void);

uint64_t ins_now_ns(void);

/* ---- for the OMPT tool (ompt.c) ---- */
/* A time stamp in the page's clock (TSC ticks or CLOCK_MONOTONIC ns, ins_stamp_is_tsc). */
uint64_t ins_stamp(void);
bool ins_stamp_is_tsc(void);
/* A page stamp and CLOCK_MONOTONIC ns read at one instant (uprof_ctl_clock_pair): two
 * such pairs give the TSC's rate without a preemption between two reads in it. */
void ins_clock_pair(uint64_t *stamp, uint64_t *ns);
/* @s into the page's string table: its id, or 0 (full, or no page). Takes the table's
 * lock: not for the hot path. */
uint32_t ins_intern(const char *s);
/* One record on the task ring with @value in time_ns and thread @who (0: the caller).
 * False when the ring was full (counted as dropped there). errno is kept. */
bool ins_emit_raw(uint16_t kind, uint16_t how, uint32_t who, uint32_t domain, uint32_t name,
		  uint64_t value);
/* The same on this thread's lane (ctlpage.h, 2.6) when the page has one for it, else on
 * the shared ring: for the records a thread writes of itself, in its own order. */
bool ins_emit_lane(uint16_t kind, uint16_t how, uint32_t who, uint32_t domain, uint32_t name,
		   uint64_t value);
/* Take this thread's lane now (at its begin), so that the first record does not pay for
 * it. Nothing when the page has no lanes, or the thread has its lane already. */
void ins_lane_ready(void);
/* Run first by the exit handler while the page is still there (set once by ompt.c). */
extern void (*ins_exit_hook)(void);

/* channel.c: launch mode's page with no name. A sealed memfd of @size bytes, or -1 (no
 * channel in the environment, or no memfd): make the named page then. */
int ins_channel_memfd(size_t size);
/* Hand @fd (the page, laid out) to collect over UPROF_PAGE_CHANNEL. False: nobody took
 * it (no such socket here, its queue stayed full): make the named page then. */
bool ins_channel_send(int fd);

#endif
