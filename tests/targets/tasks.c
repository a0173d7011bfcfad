// SPDX-License-Identifier: MIT
/*
 * Domain/Task/Event semantics under uprof (docs/DESIGN.md §6), with known answers:
 *   DomA/Twice     run twice, 0.05 s spin each        count 2, elapsed ~0.10, cpu ~0.10
 *   DomA/Outer     0.05 s spin + nested Inner         count 1, elapsed ~0.10, cpu ~0.10
 *   DomA/Inner     0.05 s spin inside Outer           count 1, elapsed ~0.05
 *   DomA/Over1     overlaps DomB/Over2 (ends first)   elapsed ~0.05
 *   DomB/Over2     begins inside Over1, ends later    elapsed ~0.10
 *   DomB/Sleep     usleep 0.15 s                      elapsed ~0.15, cpu ~0
 *   DomB/Threaded  0.05 s on two threads + the child  count 3 (2 in parent, 1 in child)
 *   DomB/Child     0.05 s in a forked child           only in the child's process
 *   DomB/Spanning  begins, pause, resume, ends        dropped
 *   DomB/PausedEnd begins, pause, ends, resume        dropped
 *   DomB/Never     begun, never ended                 absent
 *   User/Ev        event around a 0.05 s spin         count 1
 *   User/Unended   event started, never ended         count 1, elapsed 0
 *   (an end without a begin, and an event end without a start, are ignored)
 */
#include <AMDProfileController.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static amdDomainHandle doma, domb;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(double secs)
{
	double end = now() + secs, x = sink;

	while (now() < end)
		for (int i = 0; i < 1000; i++)
			x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void *threaded(void *arg)
{
	(void)arg;
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Threaded"));
	spin(0.05);
	amdTaskEnd(domb);
	return NULL;
}

int main(void)
{
	amdStringHandle twice = amdStringHandleCreate("Twice");
	amdEventHandle ev = amdEventCreate("Ev"), unended = amdEventCreate("Unended");
	pthread_t t1, t2;
	pid_t child;

	doma = amdDomainCreate("DomA");
	domb = amdDomainCreate("DomB");
	amdTaskEnd(doma);   /* an end without a begin: ignored */
	amdEventEnd(ev);    /* an event end without a start: ignored */
	for (int i = 0; i < 2; i++) {
		amdTaskBegin(doma, 0, 0, twice);
		spin(0.05);
		amdTaskEnd(doma);
	}
	amdTaskBegin(doma, 0, 0, amdStringHandleCreate("Outer"));
	spin(0.05);
	amdTaskBegin(doma, 0, 0, amdStringHandleCreate("Inner"));
	spin(0.05);
	amdTaskEnd(doma);
	amdTaskEnd(doma);
	amdTaskBegin(doma, 0, 0, amdStringHandleCreate("Over1"));
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Over2"));
	spin(0.05);
	amdTaskEnd(doma);
	spin(0.05);
	amdTaskEnd(domb);
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Sleep"));
	usleep(150000);
	amdTaskEnd(domb);
	pthread_create(&t1, NULL, threaded, NULL);
	pthread_create(&t2, NULL, threaded, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	child = fork();
	if (child == 0) {
		amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Child"));
		spin(0.05);
		amdTaskEnd(domb);
		threaded(NULL);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	amdEventStart(ev);
	spin(0.05);
	amdEventEnd(ev);
	amdEventStart(unended);
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Spanning"));
	amdProfilePause();
	spin(0.02);
	amdProfileResume();
	amdTaskEnd(domb);
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("PausedEnd"));
	amdProfilePause();
	amdTaskEnd(domb);
	amdProfileResume();
	amdTaskBegin(domb, 0, 0, amdStringHandleCreate("Never"));
	printf("tasks done\n");
	return 0;
}
