/* SPDX-License-Identifier: MIT */
/*
 * A stand-in for Intel's ITT "static part" (ittnotify_static.c), written by us from
 * docs/reference/itt-ompt.md (A1-A4) so that uprof's collector can be tested without
 * Intel's code. itt_static.c is compiled twice (-DITT_PART=a and -DITT_PART=b) into one
 * program: two static parts with their own __itt_global, as an application linked with
 * libittnotify.a that also uses LLVM's libomp has.
 *
 * Each part exports its pointer slots as <part>_<api>_ptr. They start at lazy _init
 * stubs: the first call through one dlopen()s $INTEL_LIBITTNOTIFY64 and calls its
 * __itt_api_init(&global, __itt_group_all), which fills the slots. domain_create and
 * string_handle_create never load the collector: before init they add an object of the
 * part's own to its lists. The ITT_* macros are what the application's ittnotify.h
 * macros expand to (a domain's flags guard the call).
 */
#ifndef ITT_STATIC_H
#define ITT_STATIC_H

#include <pthread.h>
#include <stddef.h>

typedef struct itt_domain_s {
	volatile int flags;
	const char *nameA;
	void *nameW;
	int extra1;
	void *extra2;
	struct itt_domain_s *next;
} itt_domain;

typedef struct itt_string_handle_s {
	const char *strA;
	void *strW;
	int extra1;
	void *extra2;
	struct itt_string_handle_s *next;
} itt_string_handle;

typedef struct {
	unsigned long long d1, d2, d3;
} itt_id;

typedef struct {
	const char *name;
	void **func_ptr;
	void *init_func;
	void *null_func;
	int group;
} itt_api_info;

typedef struct itt_global_s {
	unsigned char magic[8];
	unsigned long version_major, version_minor, version_build;
	volatile long api_initialized, mutex_initialized, atomic_counter;
	pthread_mutex_t mutex;
	void *lib;
	void *error_handler;
	const char **dll_path_ptr;
	itt_api_info *api_list_ptr;
	struct itt_global_s *next;
	void *thread_list;
	itt_domain *domain_list;
	itt_string_handle *string_list;
	int state;
	void *counter_list;	/* 3.26 has more fields from here on */
	unsigned int ipt_collect_events;
	void *histogram_list;
	void *counter_metadata_list;
} itt_global;

_Static_assert(sizeof(itt_domain) == 48 && sizeof(itt_string_handle) == 40, "ITT objects");
_Static_assert(sizeof(itt_api_info) == 40 && sizeof(itt_id) == 24, "ITT table");
_Static_assert(offsetof(itt_global, lib) == 96 && offsetof(itt_global, api_list_ptr) == 120 &&
		       offsetof(itt_global, domain_list) == 144 && offsetof(itt_global, state) == 160,
	       "ITT global");

#define ITT_PART_DECLS(p)                                                                  \
	extern itt_domain *(*p##_domain_create_ptr)(const char *);                          \
	extern itt_string_handle *(*p##_string_handle_create_ptr)(const char *);            \
	extern void (*p##_task_begin_ptr)(const itt_domain *, itt_id, itt_id, itt_string_handle *); \
	extern void (*p##_task_begin_fn_ptr)(const itt_domain *, itt_id, itt_id, void *);    \
	extern void (*p##_task_begin_overlapped_ptr)(const itt_domain *, itt_id, itt_id,    \
						     itt_string_handle *);                  \
	extern void (*p##_task_end_ptr)(const itt_domain *);                                \
	extern void (*p##_task_end_overlapped_ptr)(const itt_domain *, itt_id);             \
	extern int (*p##_event_create_ptr)(const char *, int);                              \
	extern int (*p##_event_start_ptr)(int);                                             \
	extern int (*p##_event_end_ptr)(int);                                               \
	extern void (*p##_pause_ptr)(void);                                                 \
	extern void (*p##_resume_ptr)(void);                                                \
	extern void (*p##_thread_set_name_ptr)(const char *);                               \
	extern void (*p##_frame_begin_v3_ptr)(const itt_domain *, itt_id *);                \
	extern void (*p##_frame_end_v3_ptr)(const itt_domain *, itt_id *);                  \
	extern void (*p##_sync_create_ptr)(void *, const char *, const char *, int);        \
	/* the global's collection state (0 until the first call, 4 with a collector) */    \
	int p##_state(void);                                                                \
	/* table entries neither bound by the collector nor set to their null_func */       \
	int p##_unbound(void);                                                              \
	/* table entries the collector bound to a function of its own */                    \
	int p##_bound(void)

static const itt_id itt_null = { 0, 0, 0 };

/* What the application's macros do: the domain's flags and the slot guard every call. */
#define ITT_TASK_BEGIN(p, d, name)                                                         \
	((d) && (d)->flags && p##_task_begin_ptr ? p##_task_begin_ptr((d), itt_null, itt_null, (name)) \
						 : (void)0)
#define ITT_TASK_BEGIN_FN(p, d, fn)                                                        \
	((d) && (d)->flags && p##_task_begin_fn_ptr                                        \
		 ? p##_task_begin_fn_ptr((d), itt_null, itt_null, (void *)(fn))             \
		 : (void)0)
#define ITT_TASK_BEGIN_OVERLAPPED(p, d, id, name)                                          \
	((d) && (d)->flags && p##_task_begin_overlapped_ptr                                \
		 ? p##_task_begin_overlapped_ptr((d), (id), itt_null, (name))               \
		 : (void)0)
#define ITT_TASK_END(p, d) ((d) && (d)->flags && p##_task_end_ptr ? p##_task_end_ptr(d) : (void)0)
#define ITT_TASK_END_OVERLAPPED(p, d, id)                                                  \
	((d) && (d)->flags && p##_task_end_overlapped_ptr ? p##_task_end_overlapped_ptr((d), (id)) \
							  : (void)0)
#define ITT_FRAME_BEGIN(p, d)                                                              \
	((d) && (d)->flags && p##_frame_begin_v3_ptr ? p##_frame_begin_v3_ptr((d), NULL) : (void)0)
#define ITT_FRAME_END(p, d)                                                                \
	((d) && (d)->flags && p##_frame_end_v3_ptr ? p##_frame_end_v3_ptr((d), NULL) : (void)0)
#define ITT_CALL(p, api, ...) (p##_##api##_ptr ? p##_##api##_ptr(__VA_ARGS__) : 0)
#define ITT_CALLV(p, api, ...) (p##_##api##_ptr ? p##_##api##_ptr(__VA_ARGS__) : (void)0)

#endif
