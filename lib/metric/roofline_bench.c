// SPDX-License-Identifier: MIT
/*
 * uprof pcm roofline: measuring the ceilings (metric.h). Every measurement runs one
 * thread pinned per CPU (or one, for the per-core figures); thread 0 first calibrates the
 * repetition to REP_CPU_NS of its CPU time (which also warms up caches and clocks), then
 * all threads run the repetitions together, a barrier between them. Each repetition's
 * rate is the sum over threads of work / that thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
 * so a machine busy with other work (which takes wall time, not the thread's CPU time)
 * changes it little; the wall-clock rate (all work / the repetition's wall span) is
 * written beside it. The ceiling is the best repetition; the median is stated. The
 * kernels are lib/arch's, for the architecture and the ISA the CPU runs.
 */
#include "metric/metric.h"
#include "arch/arch.h"
#include "util/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAX_REPS MTR_RL_MAX_REPS
#define REP_CPU_NS 20000000.0	   /* 20 ms */
#define TRIAD_REP_CPU_NS 8000000.0 /* 8 ms: more, shorter repetitions for the triad */
#define FMA_PIPES 2		   /* FMA pipes per core (Zen 1-5, Skylake-class) */

#define JOB_FMA MTR_RL_JOB_FMA
#define JOB_READ MTR_RL_JOB_READ
#define JOB_TRIAD MTR_RL_JOB_TRIAD
#define JOB_CLOCK MTR_RL_JOB_CLOCK

struct job {
	enum mtr_rl_job kind;
	const struct arch_rl_kernels *k;
	bool sp;
	size_t n;	/* doubles per array, per thread (READ, TRIAD) */
	uint64_t count; /* iterations (FMA) or passes (READ, TRIAD) per repetition */
	int reps, nthreads;
	pthread_barrier_t bar;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go; /* 0 until every thread is started; 1 run, -1 leave (one could not start) */
	struct worker *w;
	struct mtr_rl_sample *s; /* [rep * nthreads + thread] */
	int err;
};

struct worker {
	struct job *job;
	int idx, cpu;
	pthread_t tid;
	double *a, *b, *c;
	double sink;
	double mhz_best, fma_best; /* JOB_CLOCK: the best clock (MHz) and DP rate (FLOP/ns) */
	int err;
};

struct rate {
	struct mtr_rl_rate r;
	double fpc, fpc_mhz; /* JOB_CLOCK */
	uint64_t count;
};

static int64_t now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double mtr_rl_job_work(const struct arch_rl_kernels *k, enum mtr_rl_job kind, bool sp, size_t n,
		       uint64_t count)
{
	switch (kind) {
	case MTR_RL_JOB_FMA:
		return (double)ARCH_RL_ACC * (k->bits / (sp ? 32 : 64)) * 2 * (double)count;
	case MTR_RL_JOB_READ:
		return 8.0 * (double)n * (double)count;
	case MTR_RL_JOB_CLOCK:
		return 16.0 * (double)count;
	default:
		return 24.0 * (double)n * (double)count;
	}
}

/* One unit of work (@count of them); returns FLOPs, bytes or cycles done. */
static double run_unit(struct worker *w, uint64_t count)
{
	const struct job *j = w->job;

	switch (j->kind) {
	case JOB_FMA:
		w->sink += j->k->fma(j->sp, count);
		break;
	case JOB_READ:
		for (uint64_t k = 0; k < count; k++) {
			w->sink += j->k->read(w->a, j->n);
			__asm__ volatile("" ::: "memory"); /* each pass reads the memory again */
		}
		break;
	case JOB_CLOCK: {
		/* the clock, then the DP FMA kernel right after it (about as long): FLOPs per
		 * cycle from the two, at one and the same clock */
		int64_t t0 = now(CLOCK_THREAD_CPUTIME_ID), t1, t2;
		double mhz, fma;

		w->sink += (double)arch_rl_clock_chain(count);
		t1 = now(CLOCK_THREAD_CPUTIME_ID);
		w->sink += j->k->fma(false, count * 3);
		t2 = now(CLOCK_THREAD_CPUTIME_ID);
		mhz = t1 > t0 ? 16.0 * (double)count / (double)(t1 - t0) * 1e3 : 0;
		fma = t2 > t1 ? mtr_rl_job_work(j->k, JOB_FMA, false, 0, count * 3) /
					(double)(t2 - t1)
			      : 0;
		/* each best on its own: time the VM takes away (steal) only ever lowers a rate */
		w->mhz_best = mhz > w->mhz_best ? mhz : w->mhz_best;
		w->fma_best = fma > w->fma_best ? fma : w->fma_best;
		break;
	}
	default:
		for (uint64_t k = 0; k < count; k++) {
			j->k->triad(w->a, w->b, w->c, 3.0, j->n);
			__asm__ volatile("" ::: "memory"); /* each pass is stored, not merged */
		}
		w->sink += w->a[j->n / 2];
		break;
	}
	return mtr_rl_job_work(j->k, j->kind, j->sp, j->n, count);
}

/* @bytes of zeroed memory on 2 MiB pages where the kernel gives them (MADV_HUGEPAGE: with
 * 4 KiB pages the page walks of a 192 MiB stream vary from run to run); NULL on failure.
 * Free with unmap(). */
static double *map(size_t bytes)
{
	size_t len = (bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	madvise(p, len, MADV_HUGEPAGE); /* advice: without it the arrays still work */
	return p;
}

static void unmap(double *p, size_t bytes)
{
	if (p)
		munmap(p, (bytes + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1));
}

static int setup(struct worker *w)
{
	const struct job *j = w->job;
	cpu_set_t set;
	size_t bytes = j->n * sizeof(double);

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return -EINVAL;
	if (j->kind == JOB_FMA || j->kind == JOB_CLOCK)
		return 0;
	/* each thread touches its own arrays first, so their pages are near its CPU */
	w->a = map(bytes);
	if (j->kind == JOB_TRIAD) {
		w->b = map(bytes);
		w->c = map(bytes);
	}
	if (!w->a || (j->kind == JOB_TRIAD && (!w->b || !w->c)))
		return -ENOMEM;
	for (size_t i = 0; i < j->n; i++) {
		w->a[i] = 1.0;
		if (w->b) {
			w->b[i] = 2.0;
			w->c[i] = 0.5;
		}
	}
	return 0;
}

/* Thread 0: the count per repetition that takes about REP_CPU_NS of CPU time. */
static void calibrate(struct worker *w)
{
	struct job *j = w->job;
	uint64_t count = j->kind == JOB_FMA || j->kind == JOB_CLOCK ? 100000 : 1;
	double dt;

	for (;;) {
		int64_t t0 = now(CLOCK_THREAD_CPUTIME_ID);

		run_unit(w, count);
		dt = (double)(now(CLOCK_THREAD_CPUTIME_ID) - t0);
		if (dt >= REP_CPU_NS / 8 || count > (UINT64_MAX >> 4))
			break;
		count *= 4;
	}
	j->count = (uint64_t)ceil((double)count *
				  (j->kind == JOB_TRIAD ? TRIAD_REP_CPU_NS : REP_CPU_NS) /
				  (dt > 0 ? dt : 1));
	if (j->count < 1)
		j->count = 1;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct job *j = w->job;

	pthread_mutex_lock(&j->lock);
	while (!j->go)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	if (j->go < 0)
		return NULL;
	w->err = setup(w);
	if (w->idx == 0 && !w->err)
		calibrate(w);
	pthread_barrier_wait(&j->bar);
	for (int r = 0; r < j->reps; r++) {
		struct mtr_rl_sample *s = &j->s[r * j->nthreads + w->idx];
		int64_t c0;

		pthread_barrier_wait(&j->bar);
		if (j->err)
			break;
		s->wall0 = now(CLOCK_MONOTONIC);
		c0 = now(CLOCK_THREAD_CPUTIME_ID);
		if (!w->err)
			s->work = run_unit(w, j->count);
		s->cpu_ns = (double)(now(CLOCK_THREAD_CPUTIME_ID) - c0);
		s->wall1 = now(CLOCK_MONOTONIC);
	}
	unmap(w->a, j->n * sizeof(double));
	unmap(w->b, j->n * sizeof(double));
	unmap(w->c, j->n * sizeof(double));
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void mtr_rl_summarize(const struct mtr_rl_sample *s, int reps, int nthreads,
		      struct mtr_rl_rate *out)
{
	double cpu[MAX_REPS];

	memset(out, 0, sizeof(*out));
	if (reps < 1 || reps > MAX_REPS || nthreads < 1)
		return;
	for (int r = 0; r < reps; r++) {
		const struct mtr_rl_sample *row = &s[r * nthreads];
		int64_t lo = INT64_MAX, hi = INT64_MIN;
		double wall;

		cpu[r] = 0;
		for (int t = 0; t < nthreads; t++) {
			cpu[r] += row[t].cpu_ns > 0 ? row[t].work / row[t].cpu_ns : 0;
			lo = row[t].wall0 < lo ? row[t].wall0 : lo;
			hi = row[t].wall1 > hi ? row[t].wall1 : hi;
		}
		wall = hi > lo ? nthreads * row[0].work / (double)(hi - lo) : 0;
		out->best_cpu = cpu[r] > out->best_cpu ? cpu[r] : out->best_cpu;
		out->best_wall = wall > out->best_wall ? wall : out->best_wall;
	}
	out->work = s[(reps - 1) * nthreads].work;
	util_qsort(cpu, (size_t)reps, sizeof(cpu[0]), cmp_double);
	out->median_cpu = cpu[reps / 2];
	out->reps = reps;
	out->threads = nthreads;
}

/* Run @j on the first @nthreads CPUs of @b; rates in units per ns (GFLOP/s, GB/s). */
static int measure(const struct mtr_rl_bench *b, struct job *j, int nthreads, struct rate *out,
		   char *err, size_t errlen)
{
	int started = 0, ret = 0;

	j->nthreads = nthreads;
	j->err = 0;
	j->go = 0;
	j->w = calloc((size_t)nthreads, sizeof(*j->w));
	j->s = calloc((size_t)nthreads * (size_t)j->reps, sizeof(*j->s));
	if (!j->w || !j->s || pthread_barrier_init(&j->bar, NULL, (unsigned)nthreads)) {
		free(j->w);
		free(j->s);
		return -ENOMEM;
	}
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	for (int t = 0; t < nthreads; t++)
		j->w[t] = (struct worker){ .job = j, .idx = t, .cpu = b->cpus[t] };
	for (; started < nthreads; started++) {
		ret = -pthread_create(&j->w[started].tid, NULL, worker_main, &j->w[started]);
		if (ret)
			break;
	}
	if (ret)
		snprintf(err, errlen, "cannot start a measuring thread: %s", strerror(-ret));
	pthread_mutex_lock(&j->lock);
	j->go = ret ? -1 : 1; /* the barrier needs them all: with one missing, none runs */
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	for (int t = 0; t < started; t++) {
		pthread_join(j->w[t].tid, NULL);
		if (j->w[t].err && !ret) {
			ret = j->w[t].err;
			snprintf(err, errlen, "measuring thread on CPU %d: %s", j->w[t].cpu,
				 ret == -EINVAL ? "cannot pin it there" : strerror(-ret));
		}
	}
	if (!ret) {
		mtr_rl_summarize(j->s, j->reps, nthreads, &out->r);
		out->count = j->count;
	}
	if (!ret && j->kind == JOB_CLOCK) {
		out->fpc_mhz = j->w[0].mhz_best;
		out->fpc = out->fpc_mhz > 0 ? j->w[0].fma_best / (out->fpc_mhz * 1e-3) : 0;
	}
	pthread_barrier_destroy(&j->bar);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
	free(j->w);
	free(j->s);
	return ret;
}

/* ---- describing ---- */

enum { D_KERNEL, D_ISA, D_BITS, D_THREADS, D_WORK, D_REPS, D_STAT, D_CLOCK, D_NOTE };

static void describe(struct mtr_rl_ceiling *c, const struct mtr_rl_bench *b,
		     const struct mtr_rl_rate *r, const char *kernel, const char *work_unit)
{
	snprintf(c->desc[D_KERNEL], sizeof(c->desc[0]), "%s", kernel);
	snprintf(c->desc[D_ISA], sizeof(c->desc[0]), "%s", b->kernels->isa);
	snprintf(c->desc[D_BITS], sizeof(c->desc[0]), "%d", b->kernels->bits);
	if (r->threads == 1)
		snprintf(c->desc[D_THREADS], sizeof(c->desc[0]), "1 (pinned to CPU %d)",
			 b->cpus[0]);
	else
		snprintf(c->desc[D_THREADS], sizeof(c->desc[0]), "%d (one pinned per CPU %s)",
			 r->threads, b->cpus_text);
	snprintf(c->desc[D_WORK], sizeof(c->desc[0]), "%.4g %s per thread", r->work, work_unit);
	snprintf(c->desc[D_REPS], sizeof(c->desc[0]), "%d", r->reps);
	snprintf(c->desc[D_STAT], sizeof(c->desc[0]), "best of %d (median %.4g)", r->reps,
		 r->median_cpu);
	snprintf(c->desc[D_CLOCK], sizeof(c->desc[0]),
		 "thread CPU time (CLOCK_THREAD_CPUTIME_ID), summed over threads; wall clock: %.4g",
		 r->best_wall);
	c->value = r->best_cpu;
}

static int fma_ceilings(const struct mtr_rl_bench *b, struct mtr_roofline *r, double *dp_core,
			double *dp_all, char *err, size_t errlen)
{
	char kernel[160];
	int ret = 0;

	snprintf(kernel, sizeof(kernel), "fma: %d independent accumulators, acc = acc * m + a%s",
		 ARCH_RL_ACC, b->kernels->fma_how);
	for (int sp = 0; sp < 2 && !ret; sp++)
		for (int all = 0; all < 2 && !ret; all++) {
			struct job j = { .kind = JOB_FMA, .k = b->kernels, .sp = sp, .reps = 7 };
			struct mtr_rl_ceiling c = { .kind = MTR_RL_COMPUTE };
			struct rate rt;

			ret = measure(b, &j, all ? b->ncpus : 1, &rt, err, errlen);
			if (ret)
				break;
			snprintf(c.name, sizeof(c.name), "Peak %s FLOP/s (%s)", sp ? "SP" : "DP",
				 all ? "all cores" : "one core");
			describe(&c, b, &rt.r, kernel, "FLOP");
			snprintf(c.desc[D_NOTE], sizeof(c.desc[0]),
				 "%" PRIu64 " iterations of %.0f FLOP", rt.count,
				 mtr_rl_job_work(b->kernels, JOB_FMA, sp, 0, 1));
			if (!sp)
				*(all ? dp_all : dp_core) = c.value;
			ret = mtr_rl_add_ceiling(r, &c);
		}
	return ret;
}

/* ---- memory ---- */

/* <sysfs>/devices/system/cpu/cpu0/cache/index*: data/unified cache sizes by level (bytes);
 * 0 where unknown. */
static void cache_sizes(const char *sysfs, long size[4])
{
	for (int l = 0; l < 4; l++)
		size[l] = 0;
	for (int i = 0; i < 8; i++) {
		char path[512], type[32] = "", unit = 0;
		int level = 0;
		long kb = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/level",
			 sysfs, i);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fscanf(f, "%d", &level) != 1)
			level = 0;
		fclose(f);
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/type", sysfs,
			 i);
		if ((f = fopen(path, "re"))) {
			if (fscanf(f, "%31s", type) != 1)
				type[0] = '\0';
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu0/cache/index%d/size", sysfs,
			 i);
		if ((f = fopen(path, "re"))) {
			if (fscanf(f, "%ld%c", &kb, &unit) < 1)
				kb = 0;
			fclose(f);
		}
		if (unit == 'M')
			kb *= 1024;
		if (level >= 1 && level <= 3 && kb > 0 && kb < (1L << 30) &&
		    strcmp(type, "Instruction"))
			size[level] = kb * 1024;
	}
}

static int triad_ceilings(const struct mtr_rl_bench *b, struct mtr_roofline *r, long llc, char *err,
			  size_t errlen)
{
	/* 4 x the LLC per array when it is known (at least 32 MiB), 64 MiB when not */
	size_t bytes = llc ? (size_t)llc * 4 : (size_t)64 << 20;
	int ret = 0;

	if (bytes < ((size_t)32 << 20))
		bytes = (size_t)32 << 20;
	for (int all = 1; all >= 0 && !ret; all--) {
		int nt = all ? b->ncpus : 1;
		struct job j = { .kind = JOB_TRIAD, .k = b->kernels, .reps = 40 };
		struct mtr_rl_ceiling c = { .kind = MTR_RL_MEMORY };
		struct rate rt;

		j.n = bytes / sizeof(double) / (size_t)nt / 64 * 64;
		ret = measure(b, &j, nt, &rt, err, errlen);
		if (ret)
			break;
		snprintf(c.name, sizeof(c.name), "DRAM triad (%s)", all ? "all cores" : "one core");
		describe(&c, b, &rt.r, "STREAM triad a[i] = b[i] + s * c[i]", "bytes");
		snprintf(
			c.desc[D_NOTE], sizeof(c.desc[0]),
			"3 arrays of %zu MiB in all (%s; 2 MiB pages asked for); 24 B per element counted (b and c read, a "
			"written); the write-allocate read of a is not (it would add a third); threads "
			"run together, but on a busy machine their CPU-time rates may not overlap",
			bytes >> 20,
			llc ? "4 x the LLC each" : "the LLC size is unknown: 64 MiB each");
		ret = mtr_rl_add_ceiling(r, &c);
	}
	return ret;
}

static int cache_ceilings(const struct mtr_rl_bench *b, struct mtr_roofline *r, const long size[4],
			  char *err, size_t errlen)
{
	int ret = 0;

	for (int l = 1; l <= 3 && !ret; l++) {
		struct mtr_rl_ceiling c = { .kind = MTR_RL_MEMORY, .value = NAN };
		struct job j = { .kind = JOB_READ, .k = b->kernels, .reps = 7 };
		struct rate rt;

		snprintf(c.name, sizeof(c.name), "L%d read (one core)", l);
		if (!size[l]) {
			snprintf(c.desc[D_NOTE], sizeof(c.desc[0]),
				 "unknown: no size in %s/devices/system/cpu/cpu0/cache/index*/",
				 b->sysfs_root);
			ret = mtr_rl_add_ceiling(r, &c);
			continue;
		}
		j.n = (size_t)size[l] / 2 / sizeof(double) / 64 * 64; /* half the cache */
		if (j.n < 64)
			j.n = 64;
		ret = measure(b, &j, 1, &rt, err, errlen);
		if (ret)
			break;
		describe(&c, b, &rt.r, "read: sum of every double, 8 accumulators", "bytes");
		snprintf(c.desc[D_NOTE], sizeof(c.desc[0]),
			 "working set %zu KiB (half the %ld KiB L%d of sysfs), %" PRIu64 " passes",
			 j.n * 8 / 1024, size[l] / 1024, l, rt.count);
		ret = mtr_rl_add_ceiling(r, &c);
	}
	return ret;
}

/* ---- nominal ---- */

/* The clock the core runs at, and the DP FMA kernel's FLOPs per cycle at that clock:
 * dependent adds, then the kernel, timed apart in each repetition on one pinned core. */
static int clock_fact(const struct mtr_rl_bench *b, struct mtr_roofline *r, double *fpc, char *err,
		      size_t errlen)
{
	struct job j = { .kind = JOB_CLOCK, .k = b->kernels, .reps = 7 };
	struct rate rt;
	char buf[256];
	int ret = measure(b, &j, 1, &rt, err, errlen);

	if (ret)
		return ret;
	*fpc = rt.fpc;
	snprintf(buf, sizeof(buf),
		 "%.0f MHz (16 dependent adds per step, one core, best of 7 on "
		 "thread CPU time)",
		 rt.fpc_mhz);
	ret = mtr_rl_add_fact(r, "Clock measured", buf);
	snprintf(buf, sizeof(buf),
		 "%.2f (the DP FMA kernel timed right after the adds in each "
		 "repetition: its best rate / the best clock)",
		 rt.fpc);
	return ret ? ret : mtr_rl_add_fact(r, "DP FLOP per cycle measured (one core)", buf);
}

/* The first "flags" line of <procfs>/cpuinfo has @flag. */
static bool cpuinfo_flag(const char *procfs, const char *flag)
{
	char path[512], line[8192];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpuinfo", procfs);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok;

		if (strncmp(line, "flags", 5))
			continue;
		for (tok = strtok_r(strchr(line, ':') ? strchr(line, ':') + 1 : line, " \t\n",
				    &save);
		     tok; tok = strtok_r(NULL, " \t\n", &save))
			found |= !strcmp(tok, flag);
		break;
	}
	fclose(f);
	return found;
}

static int nominal(const struct mtr_rl_bench *b, struct mtr_roofline *r, double dp_core,
		   double dp_all, double fpc)
{
	const char *procfs = b->procfs_root;
	int bits = cpuinfo_flag(procfs, "avx512f") ? 512 : cpuinfo_flag(procfs, "avx2") ? 256 : 128;
	double mhz = b->cpuinfo_mhz;
	int ret = 0;

	for (int all = 0; all < 2 && !ret; all++) {
		struct mtr_rl_ceiling c = { .kind = MTR_RL_NOMINAL, .value = NAN };
		int cores = all ? b->ncores : 1;
		double meas = all ? dp_all : dp_core;

		snprintf(c.name, sizeof(c.name), "Nominal peak DP (%s)",
			 all ? "all cores" : "one core");
		snprintf(c.desc[D_KERNEL], sizeof(c.desc[0]), "none: from %s/cpuinfo", procfs);
		snprintf(c.desc[D_BITS], sizeof(c.desc[0]), "%d", bits);
		snprintf(c.desc[D_THREADS], sizeof(c.desc[0]), "%d core%s", cores,
			 cores > 1 ? "s" : "");
		if (mhz <= 0) {
			snprintf(c.desc[D_NOTE], sizeof(c.desc[0]),
				 "unknown: cpuinfo has no 'cpu MHz'");
		} else {
			c.value = bits / 64.0 * 2 * FMA_PIPES * mhz * 1e-3 * cores;
			snprintf(
				c.desc[D_NOTE], sizeof(c.desc[0]),
				"%d bit / 64 x 2 FLOP per FMA x %d FMA pipes x %.2f MHz x %d core(s); "
				"measured / nominal = %.3f; per cycle: %.2f of %.0f DP FLOP = %.3f",
				bits, FMA_PIPES, mhz, cores, meas / c.value, fpc,
				bits / 64.0 * 2 * FMA_PIPES, fpc / (bits / 64.0 * 2 * FMA_PIPES));
		}
		ret = mtr_rl_add_ceiling(r, &c);
	}
	return ret;
}

int mtr_rl_bench_run(const struct mtr_rl_bench *b, struct mtr_roofline *r, char *err, size_t errlen)
{
	long size[4];
	double dp_core = NAN, dp_all = NAN, fpc = NAN;
	char buf[256];
	int ret;

	cache_sizes(b->sysfs_root, size);
	if (size[1] || size[2] || size[3])
		snprintf(buf, sizeof(buf), "L1d %ld KiB, L2 %ld KiB, L3 %ld KiB (0: unknown)",
			 size[1] / 1024, size[2] / 1024, size[3] / 1024);
	else
		snprintf(buf, sizeof(buf),
			 "unknown (no %s/devices/system/cpu/cpu0/cache/index*/size)",
			 b->sysfs_root);
	mtr_rl_add_fact(r, "Caches (sysfs)", buf);
	snprintf(buf, sizeof(buf), "%s (%d bit), chosen at run time", b->kernels->isa,
		 b->kernels->bits);
	mtr_rl_add_fact(r, "Kernel ISA", buf);
	ret = fma_ceilings(b, r, &dp_core, &dp_all, err, errlen);
	if (!ret)
		ret = clock_fact(b, r, &fpc, err, errlen);
	if (!ret)
		ret = nominal(b, r, dp_core, dp_all, fpc);
	if (!ret)
		ret = triad_ceilings(b, r, size[3], err, errlen);
	if (!ret)
		ret = cache_ceilings(b, r, size, err, errlen);
	if (ret == -ENOSPC) {
		snprintf(err, errlen, "too many ceilings");
		ret = -ENOMEM;
	}
	return ret;
}
