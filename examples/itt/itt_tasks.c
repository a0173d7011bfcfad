// SPDX-License-Identifier: MIT
/*
 * itt_tasks: a program instrumented with Intel's ITT API (ittnotify.h), as it would be for
 * VTune, profiled by uprof with no change: under `uprof collect`, libittnotify.a loads
 * uprof's collector (INTEL_LIBITTNOTIFY64), and the tasks, the event, the pause and the
 * thread name below land in uprof's report. Needs Intel's ittapi (github.com/intel/ittapi;
 * not part of uprof): see README.md. See uprof-itt(7).
 *
 *   Example.Compute/Setup     before the __itt_pause(): in the report
 *   Example.Compute/Ignored   between __itt_pause() and __itt_resume(): not in the report
 *   Example.Compute/Kernel    3 instances, summed into one row
 *   Example.IO/Write          on a thread named "writer thread"
 *   User/Checkpoint           an event
 */
#include <ittnotify.h>
#include <pthread.h>
#include <stdio.h>

static __itt_domain *compute, *io;
static volatile double sink;

static void work(long n)
{
	double x = sink;

	for (long i = 0; i < n; i++)
		x = x * 0.999999 + (double)(i & 7);
	sink = x;
}

static void *writer(void *arg)
{
	(void)arg;
	__itt_thread_set_name("writer thread");
	__itt_task_begin(io, __itt_null, __itt_null, __itt_string_handle_create("Write"));
	work(30000000);
	__itt_task_end(io);
	return NULL;
}

int main(void)
{
	__itt_string_handle *kernel;
	__itt_event checkpoint;
	pthread_t t;

	compute = __itt_domain_create("Example.Compute");
	io = __itt_domain_create("Example.IO");
	kernel = __itt_string_handle_create("Kernel");
	checkpoint = __itt_event_create("Checkpoint", 10);

	__itt_task_begin(compute, __itt_null, __itt_null, __itt_string_handle_create("Setup"));
	work(20000000);
	__itt_task_end(compute);

	__itt_pause();
	__itt_task_begin(compute, __itt_null, __itt_null, __itt_string_handle_create("Ignored"));
	work(20000000);
	__itt_task_end(compute);
	__itt_resume();

	for (int i = 0; i < 3; i++) {
		__itt_task_begin(compute, __itt_null, __itt_null, kernel);
		work(10000000);
		__itt_task_end(compute);
	}
	__itt_event_start(checkpoint);
	if (!pthread_create(&t, NULL, writer, NULL))
		pthread_join(t, NULL);
	__itt_event_end(checkpoint);
	printf("itt_tasks: done\n");
	return 0;
}
