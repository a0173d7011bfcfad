/* SPDX-License-Identifier: MIT */
/*
 * The part of the OpenMP tools interface (OpenMP 5.0 §4.2, §4.5, §4.6) that ompt.c uses,
 * written from the specification: omp-tools.h exists only in clang's resource directory,
 * and gcc builds this library too. Values are the specification's; the signatures are
 * the ABI every conforming runtime calls.
 */
#ifndef UPROF_OMPT_ABI_H
#define UPROF_OMPT_ABI_H

#include <stdint.h>

typedef union ompt_data_t {
	uint64_t value;
	void *ptr;
} ompt_data_t;

typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char *interface_function_name);
typedef void (*ompt_callback_t)(void);
typedef int (*ompt_initialize_t)(ompt_function_lookup_t lookup, int initial_device_num,
				 ompt_data_t *tool_data);
typedef void (*ompt_finalize_t)(ompt_data_t *tool_data);
typedef struct ompt_start_tool_result_t {
	ompt_initialize_t initialize;
	ompt_finalize_t finalize;
	ompt_data_t tool_data;
} ompt_start_tool_result_t;
typedef ompt_start_tool_result_t *(*ompt_start_tool_t)(unsigned int omp_version,
						       const char *runtime_version);

typedef int (*ompt_set_callback_t)(int event, ompt_callback_t callback);
typedef uint64_t ompt_wait_id_t;
typedef struct ompt_frame_t ompt_frame_t; /* never looked into */

enum {
	ompt_callback_thread_begin = 1,
	ompt_callback_thread_end = 2,
	ompt_callback_parallel_begin = 3,
	ompt_callback_parallel_end = 4,
	ompt_callback_task_create = 5,
	ompt_callback_task_schedule = 6,
	ompt_callback_implicit_task = 7,
	ompt_callback_sync_region_wait = 16,
	ompt_callback_mutex_released = 17,
	ompt_callback_work = 20,
	ompt_callback_mutex_acquire = 26,
	ompt_callback_mutex_acquired = 27,
	ompt_callback_max = 38, /* one past the last (error, 37) */
};

enum { ompt_set_error = 0, ompt_set_never = 1, ompt_set_always = 5 };
enum { ompt_thread_initial = 1, ompt_thread_worker = 2, ompt_thread_other = 3 };
enum { ompt_scope_begin = 1, ompt_scope_end = 2, ompt_scope_beginend = 3 };
enum {
	ompt_sync_region_barrier = 1,
	ompt_sync_region_barrier_implicit = 2,
	ompt_sync_region_barrier_explicit = 3,
	ompt_sync_region_barrier_implementation = 4,
	ompt_sync_region_taskwait = 5,
	ompt_sync_region_taskgroup = 6,
	ompt_sync_region_reduction = 7,
	ompt_sync_region_barrier_implicit_workshare = 8,
	ompt_sync_region_barrier_implicit_parallel = 9,
	ompt_sync_region_barrier_teams = 10,
};
enum {
	ompt_work_loop = 1,
	ompt_work_sections = 2,
	ompt_work_single_executor = 3,
	ompt_work_single_other = 4,
	ompt_work_workshare = 5,
	ompt_work_distribute = 6,
	ompt_work_taskloop = 7,
	ompt_work_scope = 8,
	/* OpenMP 5.2 */
	ompt_work_loop_static = 10,
	ompt_work_loop_dynamic = 11,
	ompt_work_loop_guided = 12,
	ompt_work_loop_other = 13,
};
enum {
	ompt_mutex_lock = 1,
	ompt_mutex_test_lock = 2,
	ompt_mutex_nest_lock = 3,
	ompt_mutex_test_nest_lock = 4,
	ompt_mutex_critical = 5,
	ompt_mutex_atomic = 6,
	ompt_mutex_ordered = 7,
};
enum { ompt_task_initial = 0x1, ompt_task_implicit = 0x2, ompt_task_explicit = 0x4 };
enum {
	ompt_task_complete = 1,
	ompt_task_yield = 2,
	ompt_task_cancel = 3,
	ompt_task_detach = 4,
	ompt_task_early_fulfill = 5,
	ompt_task_late_fulfill = 6,
	ompt_task_switch = 7,
};

#endif
