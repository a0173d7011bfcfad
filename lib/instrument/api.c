// SPDX-License-Identifier: MIT
/* The exported API of libAMDProfileController (include/AMDProfileController.h). */
#include "instrument/internal.h"

#include <AMDProfileController.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool ins_set_state(uint32_t paused, uint16_t how)
{
	int saved = errno;
	bool ok = true;

	if (ins_on()) {
		/* the state word first, then the stamped record: a profiler that lost records
		 * of a full ring reads the state word as what the calls it holds lead to
		 * (lib/sampler/pausegap.c) */
		__atomic_store_n(&ins_page->state, paused, __ATOMIC_RELEASE);
		ins_emit_pause(paused ? UPROF_REC_PAUSE : UPROF_REC_RESUME, how);
		if (how == UPROF_HOW_API_STRICT)
			ok = ins_wait_applied();
	}
	errno = saved;
	return ok;
}

bool amdProfileResumeImpl(void)
{
	return ins_set_state(0, UPROF_HOW_API);
}

bool amdProfilePauseImpl(void)
{
	return ins_set_state(1, UPROF_HOW_API);
}

bool amdProfileStrictResumeImpl(void)
{
	return ins_set_state(0, UPROF_HOW_API_STRICT);
}

bool amdProfileStrictPauseImpl(void)
{
	return ins_set_state(1, UPROF_HOW_API_STRICT);
}

/* Handles are made even when instrumentation is off, so that a later fork or the
 * environment cannot turn a NULL handle into a crash; they cost one allocation. */
static void *make_handle(const char *name)
{
	size_t len = name ? strnlen(name, UPROF_CTL_NAME_MAX) : 0;
	struct ins_handle *h;
	int saved = errno;

	h = calloc(1, sizeof(*h) + len + 1);
	if (h && len)
		memcpy(h->name, name, len);
	errno = saved;
	return h;
}

amdDomainHandle amdDomainCreate(const char *name)
{
	return make_handle(name);
}

amdStringHandle amdStringHandleCreate(const char *name)
{
	return make_handle(name);
}

amdEventHandle amdEventCreate(const char *name)
{
	return make_handle(name);
}

void AMDTaskBegin(const char *func, const char *file, int line, amdDomainHandle domain,
		  unsigned long long id, unsigned long long parentid, amdStringHandle name)
{
	(void)func, (void)file, (void)line, (void)id, (void)parentid;
	if (domain && name)
		ins_record(UPROF_REC_TASK_BEGIN, domain, name);
}

void AMDTaskEnd(const char *func, const char *file, int line, amdDomainHandle domain)
{
	(void)func, (void)file, (void)line;
	if (domain)
		ins_record(UPROF_REC_TASK_END, domain, NULL);
}

void AMDEventStart(const char *func, const char *file, int line, amdEventHandle event)
{
	(void)func, (void)file, (void)line;
	if (event)
		ins_record(UPROF_REC_EVENT_START, NULL, event);
}

void AMDEventEnd(const char *func, const char *file, int line, amdEventHandle event)
{
	(void)func, (void)file, (void)line;
	if (event)
		ins_record(UPROF_REC_EVENT_END, NULL, event);
}
