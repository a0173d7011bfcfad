/* SPDX-License-Identifier: MIT */
/*
 * lib/pmc: what to count or sample, as perf_event_attr, and the arithmetic on counts.
 *
 *   timer       CPU_TIME (software cpu-clock) and the tracking event of a session
 *   cpus/topo   CPU sets, the CPU topology (package, CCX, core) from sysfs
 *   pmus        PMU discovery from <sysfs>/bus/event_source/devices (type, cpumask,
 *               format/, events/), the counter count of each
 *   events      event specs in uProf's form (event=,umask=,user=,os=,inv=,cmask=,
 *               interval=), predefined names (RETIRED_INST, cycles-not-in-halt),
 *               PMCxNNN codes, perf software names, pmu/terms/, libpfm4 names
 *   evlist      counting: events planned into kernel groups per CPU or task, opened,
 *               read with TOTAL_TIME_ENABLED/RUNNING
 *   counts      multiplex scaling and deltas (with counter wrap)
 *   interval    counting an opened evlist at an interval, with idle times, to a callback
 *   groups      pcm's metric groups (configs/pcm/<group>.ini): events into one evlist,
 *               formulas (lib/metric) evaluated over a unit's counter deltas
 *
 * Typical use, sampling (collect):
 *   pmc_pmus_load(&pmus);                       // NULL pmus is fine for pure encoding
 *   pmc_event_parse(spec, strlen(spec), pmus, &ev, err, sizeof(err));
 *   pmc_event_require(&ev, pmus, err, sizeof(err));   // the PMU is there, or a message
 *   pmc_event_sample_attr(&ev, user_only, &attr);     // then lib/sampler opens it
 * Counting (pcm):
 *   pmc_evlist_new, pmc_evlist_add (each event), pmc_evlist_plan, pmc_evlist_open,
 *   pmc_evlist_enable, then pmc_evlist_read at each interval, pmc_count_delta and
 *   pmc_count_scale per counter, then the metrics with lib/metric; pmc_evlist_free.
 *
 * Files under sysfs and procfs are read below $UPROF_SYSFS_ROOT (default /sys) and
 * $UPROF_PROCFS_ROOT (default /proc), so tests can point at a fake tree. libpfm4 is used
 * here and nowhere else. Nothing in this module prints or exits.
 */
#ifndef UPROF_PMC_H
#define UPROF_PMC_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* ==== the timer and the tracking event ==== */

/* What every sampling event of a session records: the fields lib/session's reader and
 * perf's pipe-mode reader both need. */
#define PMC_SAMPLE_TYPE \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Shortest and longest timer period we accept, in ns (0.01 ms .. 1 hour). */
#define PMC_TIMER_MIN_NS 10000ULL
#define PMC_TIMER_MAX_NS 3600000000000ULL

/*
 * Fill @attr (zeroed first) for CPU_TIME sampling every @period_ns of CPU time, with
 * CLOCK_MONOTONIC time stamps, inherited by threads and children, disabled until the
 * target's exec (enable_on_exec). @user_only excludes kernel samples.
 */
void pmc_timer_attr(struct perf_event_attr *attr, uint64_t period_ns, bool user_only);

/*
 * Fill @attr for the tracking event: a dummy software event that samples nothing and
 * carries the side-band records report needs (MMAP2, COMM, FORK/EXIT). Kept apart from
 * the sampling events so these can be paused while mappings are still recorded (perf
 * does the same).
 */
void pmc_tracking_attr(struct perf_event_attr *attr);

/* Name shown for an attr in reports and session.ini: "CPU_TIME" for the timer,
 * "TRACKING", the predefined name of a core PMC (RETIRED_INST), "PMCx0NN" for other
 * core events, "EVENT" otherwise. Returns a static string. */
const char *pmc_attr_name(const struct perf_event_attr *attr);

/*
 * Parse a timer interval in milliseconds ("1", "0.25", "1e-1") into ns.
 * -EINVAL for text, zero, negative, NaN; -ERANGE outside PMC_TIMER_MIN/MAX_NS.
 */
int pmc_parse_interval_ms(const char *s, uint64_t *period_ns);

/* ==== call stacks (callchain.c) ==== */

enum pmc_cg_mode { PMC_CG_NONE, PMC_CG_FP, PMC_CG_DWARF };
enum pmc_cg_scope { PMC_CG_ALL, PMC_CG_USER, PMC_CG_KERNEL };

#define PMC_CG_DEFAULT_STACK 8192 /* user stack bytes copied per sample (dwarf) */
/* fp: the top of the user stack copied per sample, with the few registers one CFI step
 * from the leaf needs (report gives a frameless leaf its caller back); 0: none */
#define PMC_CG_DEFAULT_LEAF 512
#define PMC_CG_MIN_LEAF 64
#define PMC_CG_MAX_LEAF 4096
#define PMC_CG_MIN_STACK 16
#define PMC_CG_MAX_STACK 65528
#define PMC_CG_DEFAULT_DEPTH 128
#define PMC_CG_MIN_DEPTH 2
#define PMC_CG_MAX_DEPTH 1024

/* How stacks are collected (a value type). */
struct pmc_callgraph {
	enum pmc_cg_mode mode;
	uint32_t stack_bytes;	 /* dwarf: user stack copied per sample, multiple of 8 */
	uint32_t leaf_bytes;	 /* fp: leaf copy per sample (PMC_CG_DEFAULT_LEAF), 0: none */
	int depth;		 /* frames kept per stack */
	enum pmc_cg_scope scope; /* whose frames: user, kernel or both */
	double interval_ms;	 /* uProf 5.x unwind interval: accepted, every sample unwinds */
};

/* No stacks, 8192 bytes (dwarf), 512 (fp leaf copy), depth 128, scope all. */
void pmc_callgraph_init(struct pmc_callgraph *cg);

/*
 * Parse a --call-graph spec into @cg (fields not in the spec keep their value):
 *   fp | fpo | dwarf [(:|,)BYTES]    perf and uProf 4.0 (fpo = dwarf: frames that frame
 *                                    pointer omission hides are recovered); fp's BYTES is
 *                                    the leaf copy (0: none), dwarf's the stack copy
 *   INTERVAL:DEPTH:SCOPE:MODE        uProf 5.x, e.g. 1:64:user:fpo
 * 0, -EINVAL (syntax; @err says what), -ERANGE (a number out of range), -EOPNOTSUPP
 * (dwarf on an architecture without register sampling support here).
 */
int pmc_callgraph_parse(const char *s, struct pmc_callgraph *cg, char *err, size_t errlen);
/* The separate 5.x options: --call-graph-mode, -depth (PMC_CG_MIN..MAX_DEPTH), -scope. */
int pmc_callgraph_set_mode(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen);
int pmc_callgraph_set_depth(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen);
int pmc_callgraph_set_scope(struct pmc_callgraph *cg, const char *s, char *err, size_t errlen);
const char *pmc_callgraph_mode_name(enum pmc_cg_mode m);   /* "none", "fp", "dwarf" */
const char *pmc_callgraph_scope_name(enum pmc_cg_scope s); /* "all", "user", "kernel" */

/* kernel.perf_event_max_stack (127 when unreadable). */
int pmc_callgraph_kernel_max_stack(void);

/*
 * Add @cg's sampling bits to a sampling @attr: CALLCHAIN with sample_max_stack (at most
 * @kernel_max_stack), and for dwarf REGS_USER + STACK_USER with the user part of the
 * callchain off (report unwinds it); for fp with a leaf copy REGS_USER (lib/arch's leaf
 * mask) + STACK_USER of @cg->leaf_bytes beside the callchain (collect moves them to
 * leafstack.data). Nothing for PMC_CG_NONE. 0 or -EOPNOTSUPP.
 */
int pmc_callgraph_attr(const struct pmc_callgraph *cg, int kernel_max_stack,
		       struct perf_event_attr *attr);

/* ==== where sysfs and procfs are ==== */

/* $UPROF_SYSFS_ROOT or "/sys"; $UPROF_PROCFS_ROOT or "/proc". Read at each call. */
const char *pmc_sysfs_root(void);
const char *pmc_procfs_root(void);

/* ==== CPU sets ==== */

#define PMC_MAX_CPUS 4096

/* A set of CPU numbers (a value type: copy it freely). */
struct pmc_cpus {
	uint64_t bits[PMC_MAX_CPUS / 64];
};

void pmc_cpus_clear(struct pmc_cpus *s);
void pmc_cpus_set(struct pmc_cpus *s, int cpu); /* ignores cpu outside 0..PMC_MAX_CPUS-1 */
bool pmc_cpus_has(const struct pmc_cpus *s, int cpu);
int pmc_cpus_count(const struct pmc_cpus *s);
/* The lowest CPU >= @from in @s, or -1. Loop: for (c = pmc_cpus_next(s, 0); c >= 0;
 * c = pmc_cpus_next(s, c + 1)). */
int pmc_cpus_next(const struct pmc_cpus *s, int from);

/*
 * Parse a kernel CPU list ("0-3,8,10-11", trailing newline allowed) of @len bytes (not
 * NUL-terminated) into @out. 0, -EINVAL (syntax, descending range) or -ERANGE (a CPU
 * >= PMC_MAX_CPUS).
 */
int pmc_cpus_parse(const char *s, size_t len, struct pmc_cpus *out);

/* Write @s as a CPU list ("0-3,8") into @buf. Returns the length it needed (snprintf
 * style); "" for an empty set. */
int pmc_cpus_format(const struct pmc_cpus *s, char *buf, size_t len);

/* ==== topology ==== */

/* Where one CPU sits: its physical_package_id, and the numbers of its CCX (CPUs sharing
 * an L3, from cache/index3/shared_cpu_list; one per package when sysfs has no L3 data)
 * and core (thread siblings), both numbered 0.. in order of their lowest CPU. */
struct pmc_cpu_place {
	int package;
	int ccx;
	int core;
};

struct pmc_topo;

/*
 * Read the online CPUs and their places from <sysfs>/devices/system/cpu. 0 or -errno
 * (-ENOENT: no online list). Free with pmc_topo_free().
 */
int pmc_topo_load(struct pmc_topo **out);
void pmc_topo_free(struct pmc_topo *t);

/* The online CPUs (borrowed, lives as long as @t). */
const struct pmc_cpus *pmc_topo_online(const struct pmc_topo *t);
/* 0 or -ENOENT for a CPU that is not online. */
int pmc_topo_place(const struct pmc_topo *t, int cpu, struct pmc_cpu_place *out);
/* Counts of distinct packages, CCXs, cores (thread siblings share a core). */
int pmc_topo_packages(const struct pmc_topo *t);
int pmc_topo_ccxs(const struct pmc_topo *t);
int pmc_topo_cores(const struct pmc_topo *t);

/* Levels a set of CPUs can be grouped by (pcm -c and -A). */
enum pmc_level {
	PMC_LEVEL_SYSTEM,
	PMC_LEVEL_PACKAGE,
	PMC_LEVEL_CCX,
	PMC_LEVEL_CORE,
	PMC_LEVEL_CPU
};

/*
 * The CPUs of unit @idx at @level: package @idx, the @idx-th CCX (numbered in order of
 * their lowest CPU), core @idx (numbered likewise), or CPU @idx. SYSTEM: all online
 * (idx 0). 0 or -ENOENT when there is no such unit.
 */
int pmc_topo_unit(const struct pmc_topo *t, enum pmc_level level, int idx, struct pmc_cpus *out);
/* How many units @level has (SYSTEM: 1). */
int pmc_topo_units(const struct pmc_topo *t, enum pmc_level level);

/* CPU identity from <procfs>/cpuinfo (first processor entry). */
struct pmc_cpuid {
	char vendor[16];
	char model_name[96];
	int family, model, stepping; /* -1 when unknown */
	bool hypervisor;	     /* "hypervisor" in flags */
	double mhz;		     /* "cpu MHz", 0 when unknown */
};
/* 0 or -errno (-ENOENT: no cpuinfo). Missing fields stay -1 / "" / false. */
int pmc_cpuid_read(struct pmc_cpuid *out);

/* The nominal (P0) core frequency in MHz: cpufreq's base_frequency or
 * amd_pstate_nominal_freq of cpu0 under <sysfs>, else "cpu MHz" of <procfs>/cpuinfo.
 * 0 when unknown. */
double pmc_cpu_nominal_mhz(void);

/*
 * Idle time of each CPU so far (idle + iowait columns of <procfs>/stat, in ns): fills
 * @idle_ns[cpu] for cpu < @max (others untouched) and returns the highest CPU + 1, or
 * -errno. Resolution is one clock tick (usually 10 ms).
 */
int pmc_procstat_idle(uint64_t *idle_ns, int max);

/* ==== PMUs ==== */

struct pmc_pmus;
struct pmc_pmu;

/* How events of a PMU are placed on CPUs. */
enum pmc_pmu_scope {
	PMC_SCOPE_CPU,	   /* per CPU or per task (cpu, software, msr, tracepoint, ...) */
	PMC_SCOPE_CCX,	   /* one CPU per L3 complex, from its cpumask (amd_l3) */
	PMC_SCOPE_PACKAGE, /* one CPU per package/die, from its cpumask (amd_df, others) */
};

/*
 * Read every PMU under <sysfs>/bus/event_source/devices. 0 or -errno; a missing
 * directory gives an empty table, not an error. Free with pmc_pmus_free().
 */
int pmc_pmus_load(struct pmc_pmus **out);
void pmc_pmus_free(struct pmc_pmus *p);

/* Lookup by name ("cpu", "amd_l3"); NULL when absent. Pointers live as long as @p. */
const struct pmc_pmu *pmc_pmus_find(const struct pmc_pmus *p, const char *name);
size_t pmc_pmus_count(const struct pmc_pmus *p);
/* The @i-th PMU in name order. */
const struct pmc_pmu *pmc_pmus_at(const struct pmc_pmus *p, size_t i);

const char *pmc_pmu_name(const struct pmc_pmu *u);
uint32_t pmc_pmu_type(const struct pmc_pmu *u);
enum pmc_pmu_scope pmc_pmu_scope(const struct pmc_pmu *u);
/* The PMU's cpumask file (uncore PMUs), or NULL when it has none. */
const struct pmc_cpus *pmc_pmu_cpumask(const struct pmc_pmu *u);
/* Generic counters one CPU/CCX/package offers this PMU (sysfs does not say; these are
 * AMD's): cpu 6 (5 while <procfs>/sys/kernel/nmi_watchdog is 1: the watchdog holds one),
 * amd_l3 6, amd_df 4, amd_umc/amd_l2 4; 0 = not limited (software, msr, others). */
int pmc_pmu_counters(const struct pmc_pmu *u);
/* Value of event alias @name (events/<name>, e.g. "event=0x04,umask=0xff"), or NULL. */
const char *pmc_pmu_alias(const struct pmc_pmu *u, const char *name);

/* A PMU's perf_event_mux_interval_ms as it was before pmc_pmu_set_mux_interval changed
 * it: a system setting, put back on every way out (pmc_mux_restore). The file stays open
 * so that putting it back is one write(2), which a signal handler may do. */
struct pmc_mux_saved {
	int fd;		/* the file, open to write; -1: nothing to put back */
	char value[24]; /* what it held, as read ("4\n") */
	int len;
};

/* Write @ms to the PMU's perf_event_mux_interval_ms, having kept what it held in @saved.
 * 0 or -errno (-EACCES when not root, -ENOENT when the file is absent); on error nothing
 * was changed and saved->fd is -1. */
int pmc_pmu_set_mux_interval(const struct pmc_pmu *u, unsigned ms, struct pmc_mux_saved *saved);
/* Put the kept value back (one pwrite; async-signal-safe, @saved untouched). 0 or -errno. */
int pmc_mux_put_back(const struct pmc_mux_saved *saved);
/* Put it back and close the file (saved->fd becomes -1); safe to call twice. 0 or -errno. */
int pmc_mux_restore(struct pmc_mux_saved *saved);

/* ==== events ==== */

/* Default sampling interval of a PMC event when the spec gives none (uProf's). */
#define PMC_DEFAULT_INTERVAL 250000ULL

enum pmc_event_kind {
	PMC_EV_CORE,	 /* core PMC (cpu PMU): predefined, PMCxNNN, raw, libpfm4 */
	PMC_EV_UNCORE,	 /* pmu/terms/ or pmu=NAME: amd_l3, amd_df, any sysfs PMU */
	PMC_EV_SOFTWARE, /* task-clock, context-switches, cpu-migrations, page-faults, ... */
	PMC_EV_TIMER,	 /* event=timer: CPU_TIME, interval in ms */
	PMC_EV_IBS,	 /* ibs-op / ibs-fetch (ibs_op / ibs_fetch PMUs) */
};

/*
 * One event, parsed and encoded (a value type). attr holds type, config, config1/2 and
 * exclude_user/exclude_kernel/exclude_hv only; the *_attr functions below add the rest.
 */
struct pmc_event {
	char name[64]; /* RETIRED_INST, PMCx0C4, task-clock, amd_l3/event=0x4/, ... */
	char pmu[32];  /* PMU that must exist: "cpu", "amd_l3", "software", "ibs_op" */
	enum pmc_event_kind kind;
	struct perf_event_attr attr;
	uint64_t interval;  /* sampling period from interval= (events; the timer: ns, from
				ms, default 1 ms); 0 when not given */
	uint64_t frequency; /* frequency= (Hz); 0 when not given */
	bool call_graph;    /* call-graph key given */
	uint16_t code;	    /* core events: the 12-bit event select */
	uint8_t umask;	    /* core events: the unit mask */
};

/*
 * Parse and encode event spec @s (@len bytes, not NUL-terminated) into @ev. Forms:
 *   RETIRED_INST | cycles-not-in-halt | pmcx76 | PMCx076 | timer | ibs-op | ibs-fetch
 *   task-clock | context-switches | cpu-migrations | page-faults | cpu-clock | ...
 *   event=<name|pmcxNNN|0xNNN>,umask=,user=,os=,inv=,edge=,cmask=,interval=,
 *       frequency=,call-graph,ibsop-count-control=,ibsop-l3miss,pmu=<sysfs pmu>
 *   <pmu>/<term>=<value>,<alias>,.../   (terms from the PMU's sysfs format/ and events/)
 *   any libpfm4 event string (amd64_fam19h_zen3::RETIRED_OPS, RETIRED_INSTRUCTIONS:u)
 * Numbers are decimal, or hex with 0x; event= codes need the pmcx or 0x prefix. Defaults:
 * umask 0, user 1, os 1, inv 0, cmask 0. Core events use the cpu PMU's sysfs format when
 * @pmus (may be NULL) has one, AMD's layout otherwise (event 0-7,32-35; umask 8-15;
 * edge 18; inv 23; cmask 24-31), and type PERF_TYPE_RAW unless sysfs says otherwise.
 * 0, or -EINVAL (@err says what and where: "column N: ..."), -ENOENT (unknown event
 * name, or a PMU without that events/ alias: @err names it), -ERANGE (a value out of
 * range), -ENODEV (the spec names a PMU @pmus lacks, e.g. amd_l3/.../ or ibs-op with
 * no ibs_op: @err is pmc_event_require's message). Core events parse without a cpu PMU;
 * check them with pmc_event_require() before opening.
 */
int pmc_event_parse(const char *s, size_t len, const struct pmc_pmus *pmus, struct pmc_event *ev,
		    char *err, size_t errlen);

/*
 * Check that @ev's PMU exists in @pmus. 0, or -ENODEV with a one-line message in @err
 * naming the PMU and what to check ("uprof info --system").
 */
int pmc_event_require(const struct pmc_event *ev, const struct pmc_pmus *pmus, char *err,
		      size_t errlen);

/*
 * Sampling attr for @ev (collect): @ev's encoding, sample_period = interval (default
 * PMC_DEFAULT_INTERVAL; timer: ns) or sample_freq, PMC_SAMPLE_TYPE (+ CALLCHAIN with
 * call_graph), CLOCK_MONOTONIC, inherit, disabled + enable_on_exec, sample_id_all, as
 * pmc_timer_attr does. @user_only forces exclude_kernel.
 */
void pmc_event_sample_attr(const struct pmc_event *ev, bool user_only,
			   struct perf_event_attr *attr);

/* Counting attr for @ev: no sampling, read_format TOTAL_TIME_ENABLED|RUNNING, disabled
 * (enable_on_exec when @task), inherit when @task. */
void pmc_event_count_attr(const struct pmc_event *ev, bool task, struct perf_event_attr *attr);

/* Report column label (uProf's "NAME (PMCx0NN)"): "RETIRED_INST (PMCx0C0)", "PMCx0C4",
 * "task-clock", "amd_l3/event=0x04,umask=0xff/". */
void pmc_event_label(const struct pmc_event *ev, char *buf, size_t len);

/* Every non-zero field of @attr as "type=4,config=0xc0,disabled=1,...". Returns the
 * length it needed (snprintf style). */
int pmc_attr_format(const struct perf_event_attr *attr, char *buf, size_t len);

/* Predefined events (uProf names) for `uprof info --list predefined-events`. */
struct pmc_predef {
	const char *name;
	uint16_t code;
	uint8_t umask;
	const char *desc;
};
/* The @i-th predefined event, or NULL past the end. Static data. */
const struct pmc_predef *pmc_predef_at(size_t i);

/* Every event libpfm4 knows for the hardware PMUs present (core and uncore; the ones
 * LIBPFM_FORCE_PMU names count as present): @fn gets the PMU's and the event's libpfm
 * names, its code and description, and stops the walk by returning non-zero. Returns
 * the number of such PMUs (0: none here), @fn's value, or -EINVAL if libpfm4 failed. */
typedef int (*pmc_pfm_list_fn)(void *arg, const char *pmu, const char *event, uint64_t code,
			       const char *desc);
int pmc_pfm_list(pmc_pfm_list_fn fn, void *arg);
/* The unit masks of libpfm4's event @pmu::@event: @fn gets each one's name, its code
 * (the umask bits libpfm4 encodes, before any shift), description and whether libpfm4
 * takes it when none is given; a non-zero return stops the walk. Returns the number of
 * unit masks, @fn's value, -ENOENT for no such event, or -EINVAL if libpfm4 failed. */
typedef int (*pmc_pfm_umask_fn)(void *arg, const char *umask, uint64_t code, const char *desc,
				bool dfl);
int pmc_pfm_umasks(const char *pmu, const char *event, pmc_pfm_umask_fn fn, void *arg);
/* By uProf name, case-insensitive, '-' same as '_' (cycles-not-in-halt). NULL if none. */
const struct pmc_predef *pmc_predef_find(const char *name, size_t len);

/* ==== counts ==== */

/* One reading of a counter: read() with TOTAL_TIME_ENABLED|RUNNING. */
struct pmc_count {
	uint64_t value;
	uint64_t enabled; /* ns the event was enabled */
	uint64_t running; /* ns it was on a counter (less when multiplexed) */
};

/*
 * cur - prev, field by field, modulo 2^@width for value (a counter of @width bits wraps:
 * width 64 for perf read(), 48 for raw AMD counters) and modulo 2^64 for the times.
 */
void pmc_count_delta(const struct pmc_count *prev, const struct pmc_count *cur, unsigned width,
		     struct pmc_count *out);

/*
 * Multiplex-scaled estimate: value * enabled / running. running == 0: 0 when the event
 * was not enabled either (nothing happened), NaN when it was enabled but never on a
 * counter (not counted). No scaling when running >= enabled.
 */
double pmc_count_scale(const struct pmc_count *c);
/*
 * A CPU-bound counter's (pid -1, cpu N) scaled count over @interval_ns: the count per ns of
 * its own enabled time (the time between its reads) times @interval_ns, so counters read
 * at slightly different moments describe the same interval; a CPU's clock events then
 * never exceed it. pmc_count_scale when enabled is 0 or @interval_ns <= 0. Not for task
 * counters: a task context's time stops while the task is off the CPU.
 */
double pmc_count_over(const struct pmc_count *c, int64_t interval_ns);

/* ==== counting: the event list ==== */

struct pmc_evlist;

/* What to count: a task, or CPUs. */
struct pmc_target {
	pid_t pid;	      /* > 0: this task (CPU-scope events); 0: CPU mode */
	bool inherit;	      /* task mode: follow threads and children */
	struct pmc_cpus cpus; /* CPU mode: CPU-scope events open on each; uncore events on
				 the domains (CCX, package) these touch. Task mode: uncore
				 events open on these domains (all online if empty). */
};

/* Where one counter (one fd) goes; pointers live as long as the evlist. */
struct pmc_counter_info {
	int event;   /* index returned by pmc_evlist_add */
	int cpu;     /* -1 in task mode */
	pid_t pid;   /* -1 in CPU mode */
	int group;   /* kernel group number (events of one group are scheduled together) */
	bool leader; /* first counter of its group */
	const struct perf_event_attr *attr;
};

/* NULL when out of memory. Free with pmc_evlist_free(). */
struct pmc_evlist *pmc_evlist_new(void);
/* Closes what is open. NULL is fine. */
void pmc_evlist_free(struct pmc_evlist *l);

/* Add @ev (copied). Returns its index (>= 0) or -errno (-EBUSY after planning). */
int pmc_evlist_add(struct pmc_evlist *l, const struct pmc_event *ev);
size_t pmc_evlist_nevents(const struct pmc_evlist *l);
const struct pmc_event *pmc_evlist_event(const struct pmc_evlist *l, size_t i);

/*
 * Decide the counters: for each PMU, its events split into kernel groups of at most
 * pmc_pmu_counters() (the kernel multiplexes when there are several), each group
 * opened on every CPU of @t (CPU-scope PMUs) or on the cpumask CPU of each domain @t
 * touches (uncore). 0, -ENODEV (a PMU is missing: @err names it and says what to
 * check), -EINVAL (nothing to count on those CPUs). May be called again to re-plan.
 */
int pmc_evlist_plan(struct pmc_evlist *l, const struct pmc_pmus *pmus, const struct pmc_topo *topo,
		    const struct pmc_target *t, char *err, size_t errlen);

size_t pmc_evlist_ncounters(const struct pmc_evlist *l);
/* 0 or -ERANGE. */
int pmc_evlist_counter(const struct pmc_evlist *l, size_t i, struct pmc_counter_info *out);

/*
 * Open every planned counter, disabled (task mode: enabled at the task's exec). 0 or
 * -errno; then *@failed (if not NULL) is the counter that failed and nothing stays
 * open. Undo with pmc_evlist_close().
 */
int pmc_evlist_open(struct pmc_evlist *l, int *failed);
void pmc_evlist_close(struct pmc_evlist *l);
/* ioctl ENABLE / DISABLE on every group leader. 0 or -errno. */
int pmc_evlist_enable(struct pmc_evlist *l);
int pmc_evlist_disable(struct pmc_evlist *l);
/* Read every counter into @out (pmc_evlist_ncounters entries). 0 or -errno. */
int pmc_evlist_read(struct pmc_evlist *l, struct pmc_count *out);

/* What was being opened when perf_event_open failed: the advice depends on it. */
enum pmc_open_scope {
	PMC_OPEN_TASK,	 /* a program uprof started, its threads and children */
	PMC_OPEN_ATTACH, /* a running process (@pid) uprof attaches to */
	PMC_OPEN_CPU,	 /* per-CPU events: -a, uncore, pcm's CPU mode */
};

struct pmc_open_what {
	const char *event; /* as the user named it (NULL: "the event"); borrowed */
	const char *pmu;   /* its PMU, NULL if unknown */
	enum pmc_open_scope scope;
	bool kernel;  /* kernel code was to be sampled or counted too */
	int pid;      /* PMC_OPEN_ATTACH: the process */
	unsigned uid; /* who asked (geteuid()); 0, root, is not bound by paranoid */
};

/*
 * The one explanation of a failed perf_event_open (or ring mmap), perf's
 * evsel__open_strerror, for collect and pcm alike: @err (-errno) for @w (NULL: a task
 * event). EACCES/EPERM name what refuses it: another user's process, the
 * perf_event_paranoid level @w needs (2 profiling, 1 kernel code, 0 per-CPU) with the
 * sysctl that allows it, yama's ptrace_scope, else a security policy. Others: a missing
 * PMU (ENOENT, ENODEV), counting mode (EOPNOTSUPP), busy counters (EBUSY), ulimit -n,
 * locked memory (ENOMEM). One line into @buf, no newline.
 */
void pmc_open_strerror(int err, const struct pmc_open_what *w, char *buf, size_t len);
/* @what for event @ev (borrowed, may be NULL) opened in @scope. */
void pmc_open_what_event(struct pmc_open_what *w, const struct pmc_event *ev,
			 enum pmc_open_scope scope);

/* ==== the perf_event kernel seam (sys.c) ====
 * Every perf_event syscall of uprof goes through these: counting here, sampling in
 * lib/sampler. Tests replace them with -Wl,--wrap=pmc_sys_... (and may call
 * __real_pmc_sys_...). Each returns what its syscall does, with -errno for failure;
 * pmc_sys_mmap returns MAP_FAILED with errno set. */
int pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			    unsigned long flags);
int pmc_sys_ioctl(int fd, unsigned long req, unsigned long arg);
ssize_t pmc_sys_read(int fd, void *buf, size_t len);
void pmc_sys_close(int fd); /* a negative fd is ignored */
/* A perf ring of @len bytes (its header page first), shared and writable. */
void *pmc_sys_mmap(int fd, size_t len);
int pmc_sys_munmap(void *addr, size_t len);

/*
 * A value as text with @decimals places: NaN and infinities give "" (an empty CSV cell:
 * one rule everywhere a metric is printed). Returns the length it needed.
 */
int pmc_value_format(double v, int decimals, char *buf, size_t len);

/* ---- pcm's metric groups (groups.c, over lib/metric's formulas) ---- */

/* configs/pcm/<group>.ini: events (lib/pmc specs, resolved against this machine's PMUs
 * into one evlist shared by all groups, identical events counted once) and formulas over
 * the events' names, the ids of earlier metrics of the group and the variables ELAPSED_NS,
 * NCPUS, P0_FREQ_MHZ and IDLE_NS. */
#define PMC_GROUPS_MAX 16
#define PMC_GROUPS_MAX_METRICS 256
#define PMC_GROUPS_MAX_NAMES 256

/* The widest unit a group's metrics make sense for: a core's, an L3's (CCX) or a Data
 * Fabric's (package) counters; the class of the group's widest-scoped event. */
enum pmc_group_class { PMC_GROUP_CORE, PMC_GROUP_L3, PMC_GROUP_DF };

struct pmc_group {
	char name[32];	/* ipc, l3, ... */
	char title[32]; /* CORE METRICS, ... ([config] title; METRICS when unset) */
	enum pmc_group_class cls;
	int first_metric, nmetrics; /* its metrics in pmc_groups.metrics */
	int first_name, nnames;	    /* its event names in pmc_groups.names */
};

struct mtr_expr; /* lib/metric */
struct pmc_group_metric {
	char name[64];
	char id[32];
	struct mtr_expr *expr; /* owned */
	int count_name;	       /* the formula is this event name alone (an index into
				* pmc_groups.names): a count, shown as counted; else -1 */
};

/* A name a group's formulas use for an event: its evlist index, -1 for an optional event
 * this machine lacks (metrics using it are NaN). */
struct pmc_group_name {
	char name[64];
	int event;
};

/* Groups in the order added. Zero it to start; pmc_groups_release frees what it owns. */
struct pmc_groups {
	struct pmc_evlist *evl; /* owned; created by the first pmc_groups_add when NULL */
	struct pmc_group groups[PMC_GROUPS_MAX];
	int ngroups;
	struct pmc_group_metric metrics[PMC_GROUPS_MAX_METRICS];
	int nmetrics;
	struct pmc_group_name names[PMC_GROUPS_MAX_NAMES];
	int nnames;
};

/* @path = <dir>/pcm/0x<family>/<name>.ini when it is readable (a family's own codes; no
 * such try when @family < 0), else <dir>/pcm/<name>.ini. 0, or -ENOENT when neither is. */
int pmc_group_path(const char *dir, int family, const char *name, char *path, size_t len);

/* AMD core generations pcm's groups are defined for (pcm_family.c). */
enum pmc_zen { PMC_ZEN_NONE = 0, PMC_ZEN3 = 3, PMC_ZEN4 = 4, PMC_ZEN5 = 5 };
/* AMDuProfPcm's -m group @name and the generations it is defined for (bit 1 << PMC_ZEN*);
 * @why_not: why the others are refused. */
struct pmc_pcm_group {
	const char *name;
	unsigned zens;
	const char *why_not;
};
int pmc_pcm_group_count(void);
const struct pmc_pcm_group *pmc_pcm_group_at(int i);
/* NULL when @name is not one of the nineteen (uprof's own groups, e.g. swi, are files only). */
const struct pmc_pcm_group *pmc_pcm_group_find(const char *name);
/* The generation of a CPUID family/model; PMC_ZEN_NONE for others. */
int pmc_zen_of(int family, int model);
const char *pmc_zen_name(int zen);
/* "zen3", "zen4", "zen5" (any case); PMC_ZEN_NONE otherwise. */
int pmc_zen_parse(const char *s);
/* @path of group @name for generation @zen: <dir>/pcm/zen<N>/<name>.ini, else
 * pmc_group_path's (the family directory only when @zen is PMC_ZEN_NONE). 0; -EOPNOTSUPP when
 * the generation lacks the group or, on a CPU that is no Zen 3/4/5, the group has only
 * per-generation files (@why says which and why); -ENOENT when there is no such group. */
int pmc_pcm_group_path(const char *dir, int zen, int family, const char *name, char *path,
		       size_t len, char *why, size_t whylen);

/* Add group @name read from @path, its events parsed against @pmus (borrowed). 0; -ENODEV
 * when an event's PMU is missing (@err: which); -ENOMEM; -E2BIG past the PMC_GROUPS_MAX*
 * limits, -EINVAL for a bad file (@err names the file and section). */
int pmc_groups_add(struct pmc_groups *gs, const char *path, const char *name,
		   const struct pmc_pmus *pmus, char *err, size_t errlen);
void pmc_groups_release(struct pmc_groups *gs);

/* What a group's formulas are evaluated over: counter deltas of an interval (@cinfo and
 * @delta: pmc_evlist's counters) and the unit they are summed for. All borrowed. */
struct pmc_group_input {
	const struct pmc_counter_info *cinfo;
	const struct pmc_count *delta;
	size_t ncounters;
	const struct pmc_cpus *cpus;	 /* the unit: CPU counters on these add up */
	int ncpus;			 /* NCPUS: CPUs of the unit that are counted */
	const struct pmc_cpus *measured; /* the CPUs counted, for IDLE_NS */
	const uint64_t *idle;		 /* per CPU idle ns; NULL: IDLE_NS is 0 (task mode) */
	double p0_mhz;			 /* P0_FREQ_MHZ; <= 0: unknown (NaN) */
	int64_t elapsed_ns;
};

/* Metric @m (an index into gs->metrics) of group @group over @in; NaN when it cannot be
 * computed (a missing optional event, x/0). */
double pmc_groups_value(const struct pmc_groups *gs, int group, int m,
			const struct pmc_group_input *in);

/*
 * A count (a metric whose formula is one event's name) as counted: the sum of its
 * counters' deltas over @in's unit, no multiplex scaling and no rescaling to the row's
 * interval (pmc_groups_value scales both: derived metrics use the scaled estimates).
 * 0; -ENOENT when @m is not a count; -ENODEV when its event is missing here (an optional
 * one); -ENODATA when one of its counters was enabled but never on a counter (no count).
 */
int pmc_groups_count(const struct pmc_groups *gs, int m, const struct pmc_group_input *in,
		     uint64_t *count);

/* The multiplexing of group @group's counters over @in's unit: the largest enabled /
 * running among them (1: none was multiplexed; what pmc_groups_value multiplies their
 * counts by is at most this). NaN when one was enabled but never ran. */
double pmc_groups_mux_scale(const struct pmc_groups *gs, int group,
			    const struct pmc_group_input *in);

/* "<group>:<name>" of the first group naming evlist event @ev, written to @buf; "?" when
 * no group names it. */
const char *pmc_groups_event_name(const struct pmc_groups *gs, int ev, char *buf, size_t len);

/* ---- counting at an interval (interval.c) ---- */

/* One interval's readings: every counter's delta (as pmc_evlist_read orders them; scale
 * with pmc_count_over or pmc_count_scale), each CPU's idle ns (all 0 without idle
 * reading), the interval's length and its end (CLOCK_MONOTONIC ns). Borrowed: valid until
 * the next reading. */
struct pmc_interval {
	const struct pmc_count *delta;
	const uint64_t *idle;
	int64_t elapsed_ns;
	int64_t t_ns;
};

struct pmc_interval_ops {
	int fd;			  /* polled while waiting (a signalfd); -1: none */
	void (*on_fd)(void *arg); /* @fd is readable */
	/* True: read once more, for the partial interval, and end. Asked before each wait. */
	bool (*stopped)(void *arg);
	void (*on_interval)(void *arg, const struct pmc_interval *iv);
	void *arg;
};

/* The readings of an opened evlist @evl (borrowed; its counters planned), with /proc/stat's
 * idle times per CPU when @idle. 0 or -ENOMEM; pmc_counting_free. */
struct pmc_counting;
int pmc_counting_new(struct pmc_counting **out, struct pmc_evlist *evl, bool idle);
void pmc_counting_free(struct pmc_counting *c); /* NULL is fine */
/* Start the clock, once the counters are enabled: counts from zero, idle times from now. */
void pmc_counting_baseline(struct pmc_counting *c);
/* Start again from now: a reading of the running counters becomes the baseline (what they
 * counted before is left out of every row and the total; the clock restarts). 0 or -errno. */
int pmc_counting_rebase(struct pmc_counting *c);
/*
 * Read every @interval_ns after the previous reading, calling ops->on_interval with each
 * interval's deltas, until ops->stopped says so or @duration_ns (> 0) after the baseline:
 * the last interval is the partial one up to then. 0, or pmc_evlist_read's -errno.
 */
int pmc_counting_loop(struct pmc_counting *c, int64_t interval_ns, int64_t duration_ns,
		      const struct pmc_interval_ops *ops);
/* Deltas from the baseline to the last reading. */
void pmc_counting_total(struct pmc_counting *c, struct pmc_interval *out);

/* ==== kernel tracepoints (tracepoint.c; --trace os, docs/DESIGN.md §12) ==== */

/* Where tracefs is mounted ($UPROF_TRACEFS_ROOT, /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing) into @root: 0, -ENOENT (not mounted) or -EACCES (there, not
 * readable by this user; @root names it). */
int pmc_tracefs_find(char *root, size_t len);
/* The id of tracepoint @system:@name under tracefs @root: 0 or -errno (-ENOENT: this
 * kernel has no such tracepoint). */
int pmc_tracepoint_id(const char *root, const char *system, const char *name, uint64_t *id);
/* Its format file (field names, offsets, sizes) into @buf (@len bytes, NUL-terminated;
 * *@got its length): 0 or -errno (-EFBIG: longer than @len). */
int pmc_tracepoint_format(const char *root, const char *system, const char *name, char *buf,
			  size_t len, size_t *got);
/* @attr (zeroed first) samples every occurrence of tracepoint @id with its raw fields
 * (PMC_SAMPLE_TYPE | PERF_SAMPLE_RAW), CLOCK_MONOTONIC, inherited, disabled. */
void pmc_tracepoint_attr(struct perf_event_attr *attr, uint64_t id);

/* ==== uprobes (uprobe.c; collect --func, docs/DESIGN.md §12) ==== */

/* Every group of uprof's probes is this and the pid of the uprof that made it. */
#define PMC_UPROBE_GROUP_PREFIX "uprof_"
/* @group gets "uprof_<pid>" (@len bytes: 32 is enough). */
void pmc_uprobe_group(char *group, size_t len, pid_t pid);
/* A probe at @offset of ELF file @file (an absolute path without spaces or colons:
 * -EINVAL) as event @group/@event under tracefs @root; a second probe of the same event
 * is appended to it (Linux 5.7 on; an older kernel says -EEXIST). 0 or -errno (-ENOENT:
 * no uprobe_events, this kernel has no uprobes). */
int pmc_uprobe_add(const char *root, const char *group, const char *event, const char *file,
		   uint64_t offset);
/* Event @group/@event and all its probes removed: 0 or -errno (-EBUSY: a perf event of
 * it is still open; -ENOENT: none such). */
int pmc_uprobe_remove(const char *root, const char *group, const char *event);
/* Every uprof group whose process is gone (a uprof killed before its end) removed;
 * *@removed: how many events. 0 or the first -errno (others are still tried). */
int pmc_uprobe_sweep(const char *root, int *removed);

#endif
