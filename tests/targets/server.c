// SPDX-License-Identifier: MIT
/*
 * A long-running target to attach to. Prints "ready" once its early threads run.
 *   early_work   thread started at once
 *   plugin_work  in a library dlopen'ed at start, on its own thread
 *   late_work    thread started after LATE seconds (default 0.8)
 *   child_work   forked child started after LATE seconds
 *   main thread  a "Server/Tick" task every 50 ms: 20 ms of work, 30 ms of sleep
 * Runs for RUN seconds (default 3). server <plugin.so> [RUN [LATE]]
 */
#define _GNU_SOURCE
#include <AMDProfileController.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static double run_for = 3.0, late = 0.8, t0;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline __attribute__((always_inline)) void burn(double secs)
{
	double end = now() + secs, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

/* each worker burns 10 ms, sleeps 10 ms, until the run ends */
#define WORKER(fn)                                    \
	__attribute__((noinline)) void fn(void)       \
	{                                             \
		while (now() - t0 < run_for) {        \
			burn(0.01);                   \
			usleep(10000);                \
		}                                     \
	}
WORKER(early_work)
WORKER(late_work)
WORKER(child_work)

static void *thread_main(void *fn)
{
	((void (*)(void))fn)();
	return NULL;
}

int main(int argc, char **argv)
{
	amdDomainHandle dom = amdDomainCreate("Server");
	amdStringHandle tick = amdStringHandleCreate("Tick");
	pthread_t early, plug, lateth;
	void (*plugin)(void);
	pid_t child = -1;
	int started_late = 0;
	void *h;

	if (argc < 2)
		return 2;
	if (argc > 2)
		run_for = atof(argv[2]);
	if (argc > 3)
		late = atof(argv[3]);
	t0 = now();
	h = dlopen(argv[1], RTLD_NOW);
	plugin = h ? (void (*)(void))dlsym(h, "plugin_loop") : NULL;
	pthread_create(&early, NULL, thread_main, (void *)early_work);
	if (plugin)
		pthread_create(&plug, NULL, thread_main, (void *)plugin);
	printf("ready\n");
	fflush(stdout);
	while (now() - t0 < run_for) {
		if (!started_late && now() - t0 >= late) {
			started_late = 1;
			pthread_create(&lateth, NULL, thread_main, (void *)late_work);
			child = fork();
			if (child == 0) {
				child_work();
				_exit(0);
			}
		}
		amdTaskBegin(dom, 0, 0, tick);
		burn(0.02);
		amdTaskEnd(dom);
		usleep(30000);
	}
	pthread_join(early, NULL);
	if (plugin)
		pthread_join(plug, NULL);
	if (started_late) {
		pthread_join(lateth, NULL);
		waitpid(child, NULL, 0);
	}
	return 0;
}
