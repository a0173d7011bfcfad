/* SPDX-License-Identifier: MIT */
/*
 * The part of the OpenMP tools interface (OpenMP 5.0 §4.2, §4.5, §4.6) that ompt.c uses,
 * written from the specification: omp-tools.h exists only in clang's resource directory,
 * and gcc builds this library too. Values are the specification's; the signatures are
 * the ABI every conforming runtime calls.
 */
#ifndef UPROF_OMPT_ABI_H
#define UPROF_OMPT_ABI_H

#include <stddef.h>
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
	ompt_callback_nest_lock = 28,
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

/* ---- target offload and device tracing (OpenMP 5.1 §4.4.3.4, §4.5.2.19-26, §4.6.2) ---- */
enum {
	ompt_callback_target = 8,
	ompt_callback_target_data_op = 9,
	ompt_callback_target_submit = 10,
	ompt_callback_device_initialize = 12,
	ompt_callback_device_finalize = 13,
	ompt_callback_device_load = 14,
	ompt_callback_device_unload = 15,
	ompt_callback_target_emi = 33,
	ompt_callback_target_data_op_emi = 34,
	ompt_callback_target_submit_emi = 35,
};
enum {
	ompt_target = 1,
	ompt_target_enter_data = 2,
	ompt_target_exit_data = 3,
	ompt_target_update = 4,
	ompt_target_nowait = 9,
	ompt_target_enter_data_nowait = 10,
	ompt_target_exit_data_nowait = 11,
	ompt_target_update_nowait = 12,
};
enum {
	ompt_target_data_alloc = 1,
	ompt_target_data_transfer_to_device = 2,
	ompt_target_data_transfer_from_device = 3,
	ompt_target_data_delete = 4,
	ompt_target_data_associate = 5,
	ompt_target_data_disassociate = 6,
	ompt_target_data_alloc_async = 17,
	ompt_target_data_transfer_to_device_async = 18,
	ompt_target_data_transfer_from_device_async = 19,
	ompt_target_data_delete_async = 20,
};

typedef uint64_t ompt_id_t;
typedef uint64_t ompt_device_time_t;
typedef uint64_t ompt_buffer_cursor_t;
typedef void ompt_device_t;
typedef void ompt_buffer_t;

typedef void (*ompt_callback_buffer_request_t)(int device_num, ompt_buffer_t **buffer,
					       size_t *bytes);
typedef void (*ompt_callback_buffer_complete_t)(int device_num, ompt_buffer_t *buffer, size_t bytes,
						ompt_buffer_cursor_t begin, int buffer_owned);
typedef ompt_device_time_t (*ompt_get_device_time_t)(ompt_device_t *device);
typedef double (*ompt_translate_time_t)(ompt_device_t *device, ompt_device_time_t time);
typedef int (*ompt_set_trace_ompt_t)(ompt_device_t *device, unsigned int enable,
				     unsigned int etype);
typedef int (*ompt_start_trace_t)(ompt_device_t *device, ompt_callback_buffer_request_t request,
				  ompt_callback_buffer_complete_t complete);
typedef int (*ompt_flush_trace_t)(ompt_device_t *device);
typedef int (*ompt_stop_trace_t)(ompt_device_t *device);
typedef int (*ompt_advance_buffer_cursor_t)(ompt_device_t *device, ompt_buffer_t *buffer,
					    size_t size, ompt_buffer_cursor_t current,
					    ompt_buffer_cursor_t *next);

/* The OMPT trace records the tool reads (the union's other members are never looked at;
 * only the offsets of these matter, and the union starts at 32 whatever its size). */
typedef struct ompt_record_target_t {
	int kind, endpoint, device_num;
	ompt_id_t task_id, target_id;
	const void *codeptr_ra;
} ompt_record_target_t;
typedef struct ompt_record_target_data_op_t {
	ompt_id_t host_op_id;
	int optype;
	void *src_addr;
	int src_device_num;
	void *dest_addr;
	int dest_device_num;
	size_t bytes;
	ompt_device_time_t end_time;
	const void *codeptr_ra;
} ompt_record_target_data_op_t;
typedef struct ompt_record_target_kernel_t {
	ompt_id_t host_op_id;
	unsigned int requested_num_teams, granted_num_teams;
	ompt_device_time_t end_time;
} ompt_record_target_kernel_t;
typedef struct ompt_record_ompt_t {
	int type; /* ompt_callbacks_t: the callback the record stands for */
	ompt_device_time_t time;
	ompt_id_t thread_id, target_id;
	union {
		ompt_record_target_t target;
		ompt_record_target_data_op_t target_data_op;
		ompt_record_target_kernel_t target_kernel;
	} record;
} ompt_record_ompt_t;
typedef ompt_record_ompt_t *(*ompt_get_record_ompt_t)(ompt_buffer_t *buffer,
						      ompt_buffer_cursor_t current);
_Static_assert(__builtin_offsetof(ompt_record_ompt_t, record) == 32, "record ABI");

#endif
