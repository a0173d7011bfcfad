// SPDX-License-Identifier: MIT
/*
 * ClassicDomainTaskAPI: the instrumentation API of AMDProfileController.h in one small
 * C++ program (see AMDProfileController(3) and ../README.md).
 *
 * Matrix products stand in for real work. The program starts paused (run it under
 * `uprof collect --start-paused`), and profiles only the part between amdProfileResume()
 * and amdProfilePause():
 *
 *   CLASSIC_DOMAIN_INIT/CLASSIC_TASK_FILL      before the resume: not in the report
 *   CLASSIC_DOMAIN_AGG/CLASSIC_TASK_MULTIPLY   a loop of 3 instances of growing size,
 *                                              summed into one row (TASK COUNT 3)
 *   CLASSIC_DOMAIN_PIPELINE/CLASSIC_TASK_RUN   an outer task, with two nested tasks
 *     .../CLASSIC_TASK_STAGE_A, _STAGE_B       inside it; the outer one includes them
 *   CLASSIC_DOMAIN_POOL/CLASSIC_TASK_WORKER    one instance on each thread of a pool of
 *                                              std::threads (TASK COUNT 4 in all, one per
 *                                              thread with --detail --group-by thread)
 *   User/CLASSIC_EVENT_POOL                    an event on the main thread around the
 *                                              pool: long ELAPSED TIME, little CPU_TIME,
 *                                              since the work runs on other threads
 *   CLASSIC_DOMAIN_INIT/CLASSIC_TASK_VERIFY    after the pause: not in the report
 */
#include <AMDProfileController.h>

#include <cstdio>
#include <pthread.h>
#include <string>
#include <thread>
#include <vector>

static constexpr int N = 160; // one product is a few milliseconds of CPU time

struct Matrix {
	std::vector<double> v;
	explicit Matrix(double seed) : v(N * N)
	{
		for (int i = 0; i < N * N; i++)
			v[i] = seed + (i % 97) * 1e-3;
	}
};

// c = a * b, @reps times
__attribute__((noinline)) static double classic_multiply(const Matrix &a, const Matrix &b,
							 Matrix &c, int reps)
{
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++) {
				double s = 0;

				for (int k = 0; k < N; k++)
					s += a.v[i * N + k] * b.v[k * N + j];
				c.v[i * N + j] = s + r * 1e-9;
			}
	return c.v[N + 1];
}

// A task on its own thread: its own matrices, its own task instance.
static void worker(int id, amdDomainHandle pool, amdStringHandle task, int reps, double *result)
{
	std::string name = "pool-" + std::to_string(id);
	Matrix a(1.0), b(2.0), c(0.0);

	pthread_setname_np(pthread_self(), name.c_str()); // the report's thread name
	amdTaskBegin(pool, 0, 0, task);
	*result = classic_multiply(a, b, c, reps);
	amdTaskEnd(pool);
}

int main()
{
	// Handles: create each once, keep it for the life of the program.
	amdDomainHandle init = amdDomainCreate("CLASSIC_DOMAIN_INIT");
	amdDomainHandle agg = amdDomainCreate("CLASSIC_DOMAIN_AGG");
	amdDomainHandle pipeline = amdDomainCreate("CLASSIC_DOMAIN_PIPELINE");
	amdDomainHandle pool = amdDomainCreate("CLASSIC_DOMAIN_POOL");
	amdStringHandle fill = amdStringHandleCreate("CLASSIC_TASK_FILL");
	amdStringHandle multiply = amdStringHandleCreate("CLASSIC_TASK_MULTIPLY");
	amdStringHandle run = amdStringHandleCreate("CLASSIC_TASK_RUN");
	amdStringHandle stage_a = amdStringHandleCreate("CLASSIC_TASK_STAGE_A");
	amdStringHandle stage_b = amdStringHandleCreate("CLASSIC_TASK_STAGE_B");
	amdStringHandle work = amdStringHandleCreate("CLASSIC_TASK_WORKER");
	amdStringHandle verify = amdStringHandleCreate("CLASSIC_TASK_VERIFY");
	amdEventHandle pool_event = amdEventCreate("CLASSIC_EVENT_POOL");
	Matrix a(1.0), b(2.0), c(0.0);
	double sum = 0;

	std::printf("[START] ClassicDomainTaskAPI\n");

	// Set-up, still paused: neither its samples nor this task are reported.
	amdTaskBegin(init, 0, 0, fill);
	sum += classic_multiply(a, b, c, 20);
	amdTaskEnd(init);

	// The interesting part. (amdProfileStrictResume() would also wait, for at most
	// 200 ms, until uprof has switched the sampling on; it is seldom needed.)
	if (!amdProfileResume())
		std::fprintf(stderr, "resume failed\n");

	// One task item, three instances: the report sums them into one row.
	for (int i = 1; i <= 3; i++) {
		amdTaskBegin(agg, 0, 0, multiply);
		sum += classic_multiply(a, b, c, 10 * i);
		amdTaskEnd(agg);
	}

	// Nesting: amdTaskEnd(domain) closes the most recent open task of that domain.
	amdTaskBegin(pipeline, 0, 0, run);
	sum += classic_multiply(a, b, c, 10);
	amdTaskBegin(pipeline, 0, 0, stage_a);
	sum += classic_multiply(a, b, c, 20);
	amdTaskEnd(pipeline); // ends CLASSIC_TASK_STAGE_A
	amdTaskBegin(pipeline, 0, 0, stage_b);
	sum += classic_multiply(a, b, c, 40);
	amdTaskEnd(pipeline); // ends CLASSIC_TASK_STAGE_B
	amdTaskEnd(pipeline); // ends CLASSIC_TASK_RUN

	// A pool of threads, one task instance each. The event on the main thread only
	// waits: the workers' CPU time is theirs, not the event's.
	{
		std::vector<std::thread> threads;
		std::vector<double> results(4);

		amdEventStart(pool_event);
		for (int t = 0; t < 4; t++)
			threads.emplace_back(worker, t, pool, work, 30, &results[t]);
		for (auto &t : threads)
			t.join();
		amdEventEnd(pool_event);
		for (double r : results)
			sum += r;
	}

	if (!amdProfilePause())
		std::fprintf(stderr, "pause failed\n");

	// Paused again: not reported.
	amdTaskBegin(init, 0, 0, verify);
	sum += classic_multiply(a, b, c, 20);
	amdTaskEnd(init);

	std::printf("[DONE] ClassicDomainTaskAPI (checksum %.6g)\n", sum);
	return 0;
}
