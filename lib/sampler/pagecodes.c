// SPDX-License-Identifier: MIT
/*
 * The control page's codes as the session files' own (session.h): pause/resume how and
 * task kinds for pauses.csv and the .tasks files, and the OpenMP records
 * (lib/instrument/ctlpage.h 2.2) as openmp/<pid>.ompt holds them (lib/session/openmp.h).
 * Every code is translated, never copied, so that the ABI and the files can each be
 * renumbered alone; a record whose codes or fields the ABI does not allow (a scribbled
 * page) is refused.
 */
#include "sampler/internal.h"
#include "instrument/ctlpage.h"

uint16_t smp_page_session_how(uint16_t how)
{
	switch (how) {
	case UPROF_HOW_API_STRICT:
		return SES_PAUSE_API_STRICT;
	case UPROF_HOW_ITT:
		return SES_PAUSE_ITT;
	default:
		return SES_PAUSE_API;
	}
}

/* 0 for a kind the .tasks file has no code for */
uint16_t smp_page_session_kind(uint16_t kind)
{
	switch (kind) {
	case UPROF_REC_TASK_BEGIN:
		return SES_TASK_BEGIN;
	case UPROF_REC_TASK_END:
		return SES_TASK_END;
	case UPROF_REC_EVENT_START:
		return SES_EVENT_START;
	case UPROF_REC_EVENT_END:
		return SES_EVENT_END;
	case UPROF_REC_THREAD_NAME:
		return SES_THREAD_NAME;
	default:
		return 0;
	}
}

#define MAX_SITE 65536 /* far over what the tool keeps: a larger site id is garbage */
#define MAX_DEPTH 64

static uint16_t field(uint16_t f)
{
	static const uint16_t map[][2] = {
		{ UPROF_OMP_F_ITASKS, SES_OMPT_F_ITASKS },
		{ UPROF_OMP_F_SPAN, SES_OMPT_F_SPAN },
		{ UPROF_OMP_F_JOINED, SES_OMPT_F_JOINED },
		{ UPROF_OMP_F_SYNC, SES_OMPT_F_SYNC },
		{ UPROF_OMP_F_BARRIER, SES_OMPT_F_BARRIER },
		{ UPROF_OMP_F_TASKWAIT, SES_OMPT_F_TASKWAIT },
		{ UPROF_OMP_F_TASKGROUP, SES_OMPT_F_TASKGROUP },
		{ UPROF_OMP_F_LOCKWAIT, SES_OMPT_F_LOCKWAIT },
		{ UPROF_OMP_F_TASKS, SES_OMPT_F_TASKS },
		{ UPROF_OMP_F_TASK_TIME, SES_OMPT_F_TASK_TIME },
		{ UPROF_OMP_F_TEAM_INDEX, SES_OMPT_F_TEAM_INDEX },
		{ UPROF_OMP_F_WS_LOOPS, SES_OMPT_F_WS_LOOPS },
		{ UPROF_OMP_F_WS_ITERS, SES_OMPT_F_WS_ITERS },
		{ UPROF_OMP_F_WS_SCHEDS, SES_OMPT_F_WS_SCHEDS },
		{ UPROF_OMP_F_REGIONS, SES_OMPT_F_REGIONS },
		{ UPROF_OMP_F_ELAPSED, SES_OMPT_F_ELAPSED },
		{ UPROF_OMP_F_TEAM_SUM, SES_OMPT_F_TEAM_SUM },
		{ UPROF_OMP_F_IDLE, SES_OMPT_F_IDLE },
		{ UPROF_OMP_F_LOOPS, SES_OMPT_F_LOOPS },
		{ UPROF_OMP_F_LOOP_ITERS, SES_OMPT_F_LOOP_ITERS },
		{ UPROF_OMP_F_LOOP_KIND, SES_OMPT_F_LOOP_KIND },
		{ UPROF_OMP_F_NEST_LEVEL, SES_OMPT_F_NEST_LEVEL },
		{ UPROF_OMP_F_NESTED, SES_OMPT_F_NESTED },
		{ UPROF_OMP_F_ENCLOSED, SES_OMPT_F_ENCLOSED },
		{ UPROF_OMP_F_TEAM_MAX, SES_OMPT_F_TEAM_MAX },
		{ UPROF_OMP_F_TEAM_MIN, SES_OMPT_F_TEAM_MIN },
		{ UPROF_OMP_F_LOOP_INSTANCES, SES_OMPT_F_LOOP_INSTANCES },
		{ UPROF_OMP_F_LOOP_COUNT, SES_OMPT_F_LOOP_COUNT },
		{ UPROF_OMP_F_LOOP_SCHEDS, SES_OMPT_F_LOOP_SCHEDS },
		{ UPROF_OMP_F_LOOP_REGION, SES_OMPT_F_LOOP_REGION },
		{ UPROF_OMP_F_ACQUIRES, SES_OMPT_F_ACQUIRES },
		{ UPROF_OMP_F_ACQ_WAIT, SES_OMPT_F_ACQ_WAIT },
		{ UPROF_OMP_F_WAIT_IMPLICIT, SES_OMPT_F_WAIT_IMPLICIT },
		{ UPROF_OMP_F_WAIT_WORKSHARE, SES_OMPT_F_WAIT_WORKSHARE },
		{ UPROF_OMP_F_WAIT_EXPLICIT, SES_OMPT_F_WAIT_EXPLICIT },
		{ UPROF_OMP_F_WAIT_IMPLEMENTATION, SES_OMPT_F_WAIT_IMPLEMENTATION },
		{ UPROF_OMP_F_WAIT_REDUCTION, SES_OMPT_F_WAIT_REDUCTION },
		{ UPROF_OMP_F_WAIT_LOCK, SES_OMPT_F_WAIT_LOCK },
		{ UPROF_OMP_F_WAIT_CRITICAL, SES_OMPT_F_WAIT_CRITICAL },
		{ UPROF_OMP_F_WAIT_ORDERED, SES_OMPT_F_WAIT_ORDERED },
		{ UPROF_OMP_F_THREAD_LIFE, SES_OMPT_F_THREAD_LIFE },
		{ UPROF_OMP_F_THREAD_IN, SES_OMPT_F_THREAD_IN },
		{ UPROF_OMP_F_THREAD_TYPE, SES_OMPT_F_THREAD_TYPE },
		{ UPROF_OMP_F_CALLBACKS, SES_OMPT_F_CALLBACKS },
		{ UPROF_OMP_F_LOST_THREADS, SES_OMPT_F_LOST_THREADS },
		{ UPROF_OMP_F_LOST_SITES, SES_OMPT_F_LOST_SITES },
		{ UPROF_OMP_F_LOST_RECORDS, SES_OMPT_F_LOST_RECORDS },
		{ UPROF_OMP_F_SCOPE, SES_OMPT_F_SCOPE },
		{ UPROF_OMP_F_CUT_EXIT, SES_OMPT_F_CUT_EXIT },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i][0] == f)
			return map[i][1];
	return 0;
}

static uint16_t wait_kind(uint16_t w)
{
	switch (w) {
	case UPROF_OMP_WAIT_BARRIER_IMPLICIT:
		return SES_OMPT_WAIT_BARRIER_IMPLICIT;
	case UPROF_OMP_WAIT_BARRIER_EXPLICIT:
		return SES_OMPT_WAIT_BARRIER_EXPLICIT;
	case UPROF_OMP_WAIT_TASKWAIT:
		return SES_OMPT_WAIT_TASKWAIT;
	case UPROF_OMP_WAIT_TASKGROUP:
		return SES_OMPT_WAIT_TASKGROUP;
	case UPROF_OMP_WAIT_OTHER:
		return SES_OMPT_WAIT_OTHER;
	case UPROF_OMP_WAIT_MUTEX:
		return SES_OMPT_WAIT_MUTEX;
	case UPROF_OMP_WAIT_BARRIER_WORKSHARE:
		return SES_OMPT_WAIT_BARRIER_WORKSHARE;
	case UPROF_OMP_WAIT_BARRIER_IMPLEMENTATION:
		return SES_OMPT_WAIT_BARRIER_IMPLEMENTATION;
	case UPROF_OMP_WAIT_REDUCTION:
		return SES_OMPT_WAIT_REDUCTION;
	default:
		return 0;
	}
}

static uint16_t site_kind(uint16_t k)
{
	switch (k) {
	case UPROF_OMP_SITE_PARALLEL:
		return SES_OMPT_SITE_PARALLEL;
	case UPROF_OMP_SITE_LOCK:
		return SES_OMPT_SITE_LOCK;
	case UPROF_OMP_SITE_NEST_LOCK:
		return SES_OMPT_SITE_NEST_LOCK;
	case UPROF_OMP_SITE_CRITICAL:
		return SES_OMPT_SITE_CRITICAL;
	case UPROF_OMP_SITE_ORDERED:
		return SES_OMPT_SITE_ORDERED;
	case UPROF_OMP_SITE_ATOMIC:
		return SES_OMPT_SITE_ATOMIC;
	case UPROF_OMP_SITE_TARGET:
		return SES_OMPT_SITE_TARGET;
	case UPROF_OMP_SITE_LOOP:
		return SES_OMPT_SITE_LOOP;
	case UPROF_OMP_SITE_TASKLOOP:
		return SES_OMPT_SITE_TASKLOOP;
	default:
		return 0;
	}
}

/* ompt_target_t: 1..4, and 9..12 their nowait forms */
static uint16_t target_kind(uint16_t k)
{
	if (k >= 1 && k <= 4)
		return k; /* SES_OMPT_TGT_REGION .. UPDATE */
	if (k >= 9 && k <= 12)
		return (uint16_t)((k - 8) | SES_OMPT_TGT_NOWAIT);
	return 0;
}

/* ompt_target_data_op_t: 1..6, and 17..20 the async forms of 1..4 */
static uint16_t data_op(uint16_t op)
{
	if (op >= 1 && op <= 6)
		return op; /* SES_OMPT_DATA_ALLOC .. DISASSOCIATE */
	if (op >= 17 && op <= 20)
		return (uint16_t)(op - 16);
	return 0;
}

static uint16_t device_event(uint16_t e)
{
	switch (e) {
	case UPROF_OMP_DEV_INIT:
		return SES_OMPT_DEV_INIT;
	case UPROF_OMP_DEV_FINI:
		return SES_OMPT_DEV_FINI;
	case UPROF_OMP_DEV_LOAD:
		return SES_OMPT_DEV_LOAD;
	case UPROF_OMP_DEV_UNLOAD:
		return SES_OMPT_DEV_UNLOAD;
	case UPROF_OMP_DEV_NO_LOOKUP:
		return SES_OMPT_DEV_NO_LOOKUP;
	case UPROF_OMP_DEV_NO_ENTRY:
		return SES_OMPT_DEV_NO_ENTRY;
	case UPROF_OMP_DEV_REFUSED:
		return SES_OMPT_DEV_REFUSED;
	case UPROF_OMP_DEV_TRACING:
		return SES_OMPT_DEV_TRACING;
	case UPROF_OMP_DEV_NO_TIME:
		return SES_OMPT_DEV_NO_TIME;
	case UPROF_OMP_DEV_LOST:
		return SES_OMPT_DEV_LOST;
	default:
		return 0;
	}
}

/* A device trace record's type (ompt_callbacks_t of the callback it stands for). */
static uint16_t devrec(uint16_t type)
{
	switch (type) {
	case 8:
	case 33:
		return SES_OMPT_DEVREC_TARGET; /* target, target_emi */
	case 9:
	case 34:
		return SES_OMPT_DEVREC_DATA_OP; /* target_data_op(_emi) */
	case 10:
	case 35:
		return SES_OMPT_DEVREC_KERNEL; /* target_submit(_emi) */
	default:
		return type ? SES_OMPT_DEVREC_OTHER : 0;
	}
}

/* 2.3's target and device records: 0 when @r is not one of them or not valid */
static bool target_record(const struct uprof_ctl_record *r, struct ses_ompt_record *out)
{
	static const uint16_t kinds[][2] = {
		{ UPROF_REC_OMP_TARGET_BEGIN, SES_OMPT_TARGET_BEGIN },
		{ UPROF_REC_OMP_TARGET_END, SES_OMPT_TARGET_END },
		{ UPROF_REC_OMP_DATA_BEGIN, SES_OMPT_DATA_BEGIN },
		{ UPROF_REC_OMP_DATA_END, SES_OMPT_DATA_END },
		{ UPROF_REC_OMP_DATA_BYTES, SES_OMPT_DATA_BYTES },
		{ UPROF_REC_OMP_SUBMIT_BEGIN, SES_OMPT_SUBMIT_BEGIN },
		{ UPROF_REC_OMP_SUBMIT_END, SES_OMPT_SUBMIT_END },
		{ UPROF_REC_OMP_DEVICE, SES_OMPT_DEVICE },
		{ UPROF_REC_OMP_DEV_BEGIN, SES_OMPT_DEV_BEGIN },
		{ UPROF_REC_OMP_DEV_END, SES_OMPT_DEV_END },
		{ UPROF_REC_OMP_DEV_BYTES, SES_OMPT_DEV_BYTES },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i][0] == r->kind)
			out->kind = kinds[i][1];
	switch (out->kind) {
	case SES_OMPT_TARGET_BEGIN:
	case SES_OMPT_TARGET_END:
		out->how = target_kind(r->how);
		break;
	case SES_OMPT_DATA_BEGIN:
	case SES_OMPT_DATA_END:
	case SES_OMPT_DATA_BYTES:
		out->how = data_op(r->how);
		break;
	case SES_OMPT_SUBMIT_BEGIN:
	case SES_OMPT_SUBMIT_END:
		return r->how == 0;
	case SES_OMPT_DEVICE:
		out->how = device_event(r->how);
		break;
	case SES_OMPT_DEV_BEGIN:
	case SES_OMPT_DEV_END:
	case SES_OMPT_DEV_BYTES:
		out->how = devrec(r->how);
		break;
	default:
		return false;
	}
	return out->how != 0;
}

bool smp_page_omp_record(const struct uprof_ctl_record *r, struct ses_ompt_record *out)
{
	*out = (struct ses_ompt_record){ r->time_ns, r->tid, 0, 0, r->domain, r->name };
	if (r->domain >= MAX_SITE)
		return false;
	switch (r->kind) {
	case UPROF_REC_OMP_BEGIN:
	case UPROF_REC_OMP_END:
		out->kind = r->kind == UPROF_REC_OMP_BEGIN ? SES_OMPT_BEGIN : SES_OMPT_END;
		out->how = r->how;
		return r->how < MAX_DEPTH;
	case UPROF_REC_OMP_WAIT_BEGIN:
	case UPROF_REC_OMP_WAIT_END:
		out->kind = r->kind == UPROF_REC_OMP_WAIT_BEGIN ? SES_OMPT_WAIT_BEGIN
								: SES_OMPT_WAIT_END;
		out->how = wait_kind(r->how);
		return out->how != 0;
	case UPROF_REC_OMP_SITE:
		out->kind = SES_OMPT_SITE;
		out->how = site_kind(r->how);
		return out->how && r->domain;
	case UPROF_REC_OMP_VALUE:
		out->kind = SES_OMPT_VALUE;
		out->how = field(r->how);
		return out->how != 0;
	case UPROF_REC_OMP_RUNTIME:
		out->kind = SES_OMPT_RUNTIME;
		return true;
	default:
		return target_record(r, out);
	}
}
