// SPDX-License-Identifier: MIT
/*
 * bench/tools/gen_session: write a synthetic uprof session of N timer samples quickly,
 * for report's memory and time against the number of samples (bench/report_memory.sh).
 *
 *   gen_session DIR BINARY N < FUNCS
 *
 * FUNCS: one "hexaddr" line per function of BINARY (its link-time address, nm's), a few
 * hundred of them. The session is one process of 4 threads running BINARY, sampled every
 * 1 ms with -g (fp) call chains 2..6 frames deep inside those functions, written as
 * collect writes it: two CPU rings drained in turns (records out of time order inside a
 * round, a FINISHED_ROUND after each), with a thread created and exiting midway. The
 * sample choices come from a fixed xorshift generator: the same N gives the same file.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmc/pmc.h"
#include "session/session.h"

#define BASE 0x555555554000ULL
#define PID 4242
#define NTHREADS 4
#define PERIOD_NS 1000000ULL
#define T0 1000000000000ULL
#define ROUND 2000 /* samples per ring per round (64 KiB watermarks: about that) */

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct ses_writer *w;
static struct perf_event_attr attr;
static unsigned char rec[65536];

static void put(int len)
{
	if (len <= 0 || ses_writer_write(w, rec, (size_t)len)) {
		fprintf(stderr, "gen_session: cannot write a record\n");
		exit(1);
	}
}

static struct ses_sample_id sid(uint32_t tid, uint64_t time, uint32_t cpu)
{
	struct ses_sample_id s;

	memset(&s, 0, sizeof(s));
	s.pid = PID;
	s.tid = tid;
	s.time = time;
	s.cpu = cpu;
	s.id = 1;
	return s;
}

static void comm(uint32_t tid, const char *name, bool exec, uint64_t time)
{
	struct ses_comm c = { 0 };

	c.pid = PID;
	c.tid = tid;
	c.exec = exec;
	c.comm = name;
	c.comm_len = strlen(name);
	c.sid = sid(tid, time, 0);
	put(ses_encode_comm(rec, sizeof(rec), &attr, &c));
}

static void task(uint32_t type, uint32_t tid, uint64_t time)
{
	struct ses_task t = { PID, PID, tid, PID, time, sid(tid, time, 0) };

	put(ses_encode_task(rec, sizeof(rec), &attr, type, &t));
}

int main(int argc, char **argv)
{
	uint64_t *funcs = NULL, n, a, ips[8], id = 1, t_end;
	size_t nfuncs = 0, cap = 0;
	struct ses_info in = { 0 };
	struct ses_mmap m = { 0 };
	char dir[4096];

	if (argc != 4 || !(n = strtoull(argv[3], NULL, 10))) {
		fprintf(stderr, "usage: gen_session DIR BINARY NSAMPLES < FUNCS\n");
		return 2;
	}
	while (scanf("%lx", &a) == 1) {
		if (nfuncs == cap) {
			cap = cap ? cap * 2 : 512;
			funcs = realloc(funcs, cap * sizeof(*funcs));
			if (!funcs)
				return 1;
		}
		funcs[nfuncs++] = a;
	}
	if (nfuncs < 2) {
		fprintf(stderr, "gen_session: fewer than 2 function addresses on stdin\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	if (mkdir(dir, 0700) && errno != EEXIST) {
		perror(dir);
		return 1;
	}
	t_end = T0 + (n / 2 + 1) * PERIOD_NS; /* two CPUs */
	in.format_version = 1;
	snprintf(in.config, sizeof(in.config), "tbp");
	snprintf(in.target_path, sizeof(in.target_path), "%s", argv[2]);
	snprintf(in.arch, sizeof(in.arch), "x86_64");
	snprintf(in.callgraph_mode, sizeof(in.callgraph_mode), "fp");
	snprintf(in.callgraph_scope, sizeof(in.callgraph_scope), "user");
	in.nevents = 1;
	snprintf(in.events[0].name, sizeof(in.events[0].name), "CPU_TIME");
	in.events[0].period = PERIOD_NS;
	in.status = SES_STATUS_COMPLETE;
	in.ncpus = 2;
	in.npids = 1;
	in.pids[0] = PID;
	in.samples = n;
	in.start_mono_ns = (int64_t)T0;
	in.end_mono_ns = (int64_t)t_end;
	in.target_cpu_ns = (int64_t)(n * PERIOD_NS);
	in.target_user_ns = in.target_cpu_ns;
	if (ses_info_write(dir, &in)) {
		fprintf(stderr, "gen_session: cannot write %s/session.ini\n", dir);
		return 1;
	}
	w = ses_writer_open(dir);
	if (!w) {
		perror(dir);
		return 1;
	}
	pmc_timer_attr(&attr, PERIOD_NS, true);
	attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
	if (ses_writer_add_attr(w, &attr, &id, 1))
		return 1;
	comm(PID, "gen_target", true, T0 - 3);
	m.mmap2 = true;
	m.misc = PERF_RECORD_MISC_USER;
	m.pid = m.tid = PID;
	m.start = BASE;
	m.len = 0x10000000;
	m.prot = 5;
	m.flags = 2;
	m.filename = argv[2];
	m.filename_len = strlen(argv[2]);
	m.sid = sid(PID, T0 - 2, 0);
	put(ses_encode_mmap(rec, sizeof(rec), &attr, &m));
	for (uint32_t k = 1; k < NTHREADS; k++) {
		task(PERF_RECORD_FORK, PID + k, T0 - 1);
		comm(PID + k, k == 1 ? "worker-io" : "worker", false, T0 - 1);
	}
	/* rounds: CPU 0's ring, then CPU 1's, each in time order; CPU c's i-th sample is at
	 * T0 + i ms + c * 0.5 ms, so the two rings interleave in time */
	for (uint64_t done = 0; done < n;) {
		uint64_t first = done / 2;

		for (uint32_t cpu = 0; cpu < 2; cpu++) {
			for (uint64_t i = first; i < first + ROUND && done < n; i++) {
				uint64_t r = next_rand(), time = T0 + i * PERIOD_NS + cpu * 500000;
				struct ses_sample s = { 0 };
				/* a late thread: created and gone in the middle third */
				uint32_t nth = i > n / 6 && i < n / 3 ? NTHREADS + 1 : NTHREADS;
				uint32_t th = (uint32_t)(r % nth), depth = 2 + (uint32_t)(r >> 8) % 5;

				if (i == n / 6 + 1 && cpu == 0) {
					task(PERF_RECORD_FORK, PID + NTHREADS, time - 1);
					comm(PID + NTHREADS, "late", false, time - 1);
				}
				if (i == n / 3 && cpu == 0)
					task(PERF_RECORD_EXIT, PID + NTHREADS, time - 1);
				/* a skewed choice of leaf (some functions hot, most cold), callers
				 * from a small set per leaf: stacks repeat as in real programs */
				uint64_t leaf = (r >> 16) % nfuncs;

				if ((r >> 40) & 1)
					leaf = leaf % (nfuncs / 8 + 1);
				ips[0] = PERF_CONTEXT_USER;
				ips[1] = BASE + funcs[leaf] + 4 + ((r >> 24) & 3);
				for (uint32_t d = 1; d < depth; d++)
					ips[1 + d] = BASE + funcs[(leaf * 7 + d * 13 + (r >> 44) % 3) %
								  nfuncs] +
						     8;
				s.id = 1;
				s.ip = ips[1];
				s.pid = PID;
				s.tid = PID + th;
				s.time = time;
				s.cpu = cpu;
				s.period = PERIOD_NS;
				s.cpumode = PERF_RECORD_MISC_USER;
				s.ips = ips;
				s.nr_ips = 1 + depth;
				put(ses_encode_sample(rec, sizeof(rec), &attr, &s));
				done++;
			}
		}
		if (ses_writer_finished_round(w))
			return 1;
	}
	if (ses_writer_close(w)) {
		fprintf(stderr, "gen_session: cannot finish %s/samples.data\n", dir);
		return 1;
	}
	free(funcs);
	return 0;
}
