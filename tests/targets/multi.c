// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
/*
 * Everything a profiler must follow, each with its own hot function:
 *   main thread        main_work
 *   thread "worker-a"  thread_a_work   (renamed with pthread_setname_np)
 *   unnamed thread     thread_b_work
 *   fork, no exec      forked_child_work      (same binary, new process)
 *   fork + exec        exec_child_work        (in the program given as argv[1])
 *   posix_spawn        exec_child_work        (same program, another process)
 *   vfork + exec       exec_child_work
 *   dlopen(argv[2])    plugin_work            (in the shared library)
 *   multi <exec_child> <plugin.so>
 */
#include <dlfcn.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static volatile double sink;

#define BURN(iters)                                          \
	do {                                                 \
		double x = sink;                             \
		for (long i = 0; i < (iters); i++)           \
			x = x * 1.0000001 + 1e-9;            \
		sink = x;                                    \
	} while (0)

#define UNIT 60000000L /* ~0.12 s on this project's machines */

__attribute__((noinline)) void main_work(void) { BURN(2 * UNIT); }
__attribute__((noinline)) void thread_a_work(void) { BURN(2 * UNIT); }
__attribute__((noinline)) void thread_b_work(void) { BURN(2 * UNIT); }
__attribute__((noinline)) void forked_child_work(void) { BURN(2 * UNIT); }

static void *thread_a(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "worker-a");
	thread_a_work();
	return NULL;
}

static void *thread_b(void *arg)
{
	(void)arg;
	thread_b_work();
	return NULL;
}

static pid_t run_vfork(char *const argv[])
{
	pid_t pid = vfork();

	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	pthread_t a, b;
	pid_t p1, p2, p3, p4;
	char *child_argv[] = { argc > 1 ? argv[1] : "exec_child", NULL };
	void *h;
	void (*plugin)(void);

	if (argc < 3) {
		fprintf(stderr, "usage: multi <exec_child> <plugin.so>\n");
		return 2;
	}
	pthread_create(&a, NULL, thread_a, NULL);
	pthread_create(&b, NULL, thread_b, NULL);
	p1 = fork();
	if (p1 == 0) {
		forked_child_work();
		_exit(0);
	}
	p2 = fork();
	if (p2 == 0) {
		execv(child_argv[0], child_argv);
		_exit(127);
	}
	if (posix_spawn(&p3, child_argv[0], NULL, NULL, child_argv, environ))
		p3 = -1;
	p4 = run_vfork(child_argv);
	main_work();
	h = dlopen(argv[2], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	plugin = (void (*)(void))dlsym(h, "plugin_work");
	plugin();
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	waitpid(p1, NULL, 0);
	waitpid(p2, NULL, 0);
	if (p3 > 0)
		waitpid(p3, NULL, 0);
	waitpid(p4, NULL, 0);
	return 0;
}
