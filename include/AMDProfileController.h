/* SPDX-License-Identifier: MIT */
/*
 * AMDProfileController.h — profile control and Domain/Task/Event instrumentation for
 * uprof, source-compatible with AMD uProf's header of the same name.
 *
 *   amdProfileResume() / amdProfilePause()               group 1: stamp and return
 *   amdProfileStrictResume() / amdProfileStrictPause()   group 2: wait until applied
 *   amdDomainCreate(name), amdStringHandleCreate(name)
 *   amdTaskBegin(domain, id, parentid, name), amdTaskEnd(domain)
 *   amdEventCreate(name), amdEventStart(event), amdEventEnd(event)
 *
 * Link with -lAMDProfileController (shared or static). Compile with
 * -DAMDUPROF_DISABLE_INSTRUMENT_API to turn every call into nothing (arguments are still
 * type-checked); run with AMDUPROF_INSTRUMENT_ENABLE=0 to make every call a no-op.
 * Without a profiler the calls cost a few nanoseconds. Names may not contain a comma.
 * See AMDProfileController(3).
 */
#ifndef AMD_PROFILE_CONTROLLER_H
#define AMD_PROFILE_CONTROLLER_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdbool.h>

typedef void *amdDomainHandle;
typedef void *amdStringHandle;
typedef void *amdEventHandle;

#if defined(__GNUC__)
#define AMDPROF_API __attribute__((visibility("default")))
#else
#define AMDPROF_API
#endif

/*
 * Non-zero while the library may record (before its first-use setup, and while
 * instrumentation is on); 0 once it knows it is off (no profiler session in the
 * environment, or AMDUPROF_INSTRUMENT_ENABLE=0). The macros test it first, so a disabled
 * call costs a load and a branch (its arguments are then not evaluated, as with
 * assert()). Written only by the library.
 */
AMDPROF_API extern volatile int amdProfileControllerGate;

/* The library's entry points. Call them through the macros below. */
AMDPROF_API bool amdProfileResumeImpl(void);
AMDPROF_API bool amdProfilePauseImpl(void);
AMDPROF_API bool amdProfileStrictResumeImpl(void);
AMDPROF_API bool amdProfileStrictPauseImpl(void);
AMDPROF_API amdDomainHandle amdDomainCreate(const char *name);
AMDPROF_API amdStringHandle amdStringHandleCreate(const char *name);
AMDPROF_API amdEventHandle amdEventCreate(const char *name);
AMDPROF_API void AMDTaskBegin(const char *func, const char *file, int line, amdDomainHandle domain,
			      unsigned long long id, unsigned long long parentid,
			      amdStringHandle name);
AMDPROF_API void AMDTaskEnd(const char *func, const char *file, int line, amdDomainHandle domain);
AMDPROF_API void AMDEventStart(const char *func, const char *file, int line, amdEventHandle event);
AMDPROF_API void AMDEventEnd(const char *func, const char *file, int line, amdEventHandle event);

#ifndef AMDUPROF_DISABLE_INSTRUMENT_API

#define AMDPROF_IF_ON(call) ((void)(amdProfileControllerGate ? (call), 0 : 0))
#define amdProfileResume() (amdProfileControllerGate ? amdProfileResumeImpl() : true)
#define amdProfilePause() (amdProfileControllerGate ? amdProfilePauseImpl() : true)
#define amdProfileStrictResume() (amdProfileControllerGate ? amdProfileStrictResumeImpl() : true)
#define amdProfileStrictPause() (amdProfileControllerGate ? amdProfileStrictPauseImpl() : true)
#define amdTaskBegin(domain, id, parentid, name) \
	AMDPROF_IF_ON( \
		AMDTaskBegin(__func__, __FILE__, __LINE__, (domain), (id), (parentid), (name)))
#define amdTaskEnd(domain) AMDPROF_IF_ON(AMDTaskEnd(__func__, __FILE__, __LINE__, (domain)))
#define amdEventStart(event) AMDPROF_IF_ON(AMDEventStart(__func__, __FILE__, __LINE__, (event)))
#define amdEventEnd(event) AMDPROF_IF_ON(AMDEventEnd(__func__, __FILE__, __LINE__, (event)))

#else /* compiled out: no call, no symbol reference, but the arguments still type-check */

static inline bool amdprof_nop_bool(void)
{
	return true;
}
static inline amdDomainHandle amdprof_nop_handle(const char *n)
{
	(void)n;
	return (void *)0;
}
static inline void amdprof_nop_task(amdDomainHandle d, unsigned long long i, unsigned long long p,
				    amdStringHandle n)
{
	(void)d;
	(void)i;
	(void)p;
	(void)n;
}
static inline void amdprof_nop_ptr(void *p)
{
	(void)p;
}

#define amdProfileResume() amdprof_nop_bool()
#define amdProfilePause() amdprof_nop_bool()
#define amdProfileStrictResume() amdprof_nop_bool()
#define amdProfileStrictPause() amdprof_nop_bool()
#define amdDomainCreate(name) amdprof_nop_handle(name)
#define amdStringHandleCreate(name) amdprof_nop_handle(name)
#define amdEventCreate(name) amdprof_nop_handle(name)
#define amdTaskBegin(domain, id, parentid, name) \
	amdprof_nop_task((domain), (id), (parentid), (name))
#define amdTaskEnd(domain) amdprof_nop_ptr(domain)
#define amdEventStart(event) amdprof_nop_ptr(event)
#define amdEventEnd(event) amdprof_nop_ptr(event)

#endif

#ifdef __cplusplus
}
#endif

#endif
