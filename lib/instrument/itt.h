/* SPDX-License-Identifier: MIT */
/*
 * The ITT "dynamic part" ABI that libAMDProfileController implements as a collector
 * (INTEL_LIBITTNOTIFY64=.../libAMDProfileController.so). Our own mirrors of the structures
 * Intel's static part (ittnotify_static.c, linked into the application or into LLVM's
 * libomp) hands us, written from the measured layout in docs/reference/itt-ompt.md
 * (A3), not from Intel's headers. x86-64 SysV, natural alignment.
 *
 * The static part calls __itt_api_init(global, groups) once per global; we fill the
 * global's api_list slots with our functions. Domains and string handles it created
 * before loading us are its own objects: we only read {flags, nameA} / {strA} from them.
 * Only the fields up to `state` are read: older static parts end there.
 */
#ifndef UPROF_INSTRUMENT_ITT_H
#define UPROF_INSTRUMENT_ITT_H

#include <stddef.h>

#define ITT_MAGIC "\xED\xAB\xAB\xEC\x0D\xEE\xDA\x30"

struct itt_domain {
	volatile int flags; /* non-zero: the application's macros make the call */
	const char *nameA;
	void *nameW;  /* Windows only */
	int extra1;   /* ours: ITT_OURS */
	void *extra2; /* ours: our struct ins_handle */
	struct itt_domain *next;
};

struct itt_string_handle {
	const char *strA;
	void *strW;
	int extra1;
	void *extra2;
	struct itt_string_handle *next;
};

struct itt_id {
	unsigned long long d1, d2, d3; /* passed by value */
};

struct itt_api_info {
	const char *name; /* "__itt_task_begin"; NULL ends the table */
	void **func_ptr;  /* the static part's pointer slot */
	void *init_func;
	void *null_func; /* what an unimplemented entry is set to (may be NULL) */
	int group;
};

struct itt_global {
	unsigned char magic[8];
	unsigned long version_major, version_minor, version_build;
	volatile long api_initialized, mutex_initialized, atomic_counter;
	unsigned char mutex[40]; /* pthread_mutex_t, held by the caller of api_init */
	void *lib;
	void *error_handler;
	const char **dll_path_ptr;
	struct itt_api_info *api_list_ptr;
	struct itt_global *next;
	void *thread_list;
	struct itt_domain *domain_list;
	struct itt_string_handle *string_list;
	int state;
	/* newer static parts have more; never read past here */
};

_Static_assert(sizeof(struct itt_domain) == 48, "ITT domain ABI");
_Static_assert(offsetof(struct itt_domain, extra2) == 32, "ITT domain ABI");
_Static_assert(sizeof(struct itt_string_handle) == 40, "ITT string handle ABI");
_Static_assert(sizeof(struct itt_id) == 24, "ITT id ABI");
_Static_assert(sizeof(struct itt_api_info) == 40, "ITT api_info ABI");
_Static_assert(offsetof(struct itt_global, mutex) == 56, "ITT global ABI");
_Static_assert(offsetof(struct itt_global, lib) == 96, "ITT global ABI");
_Static_assert(offsetof(struct itt_global, api_list_ptr) == 120, "ITT global ABI");
_Static_assert(offsetof(struct itt_global, domain_list) == 144, "ITT global ABI");
_Static_assert(offsetof(struct itt_global, state) == 160, "ITT global ABI");

/* The collector's entry points (exported from libAMDProfileController.so). */
void __itt_api_init(struct itt_global *p, int init_groups);
void __itt_api_fini(struct itt_global *p);

#endif
