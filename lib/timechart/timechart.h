/* SPDX-License-Identifier: MIT */
/*
 * lib/timechart: power, frequency and temperature sampled at an interval (uprof
 * timechart, uProf's "timechart" command), written in uProf's timechart.csv layout.
 *
 * Each quantity is read from the best source this machine exposes, and the machine says
 * which (tc_machine.freq_source) and which it has none for (tc_machine_missing):
 *   effective frequency  APERF/MPERF deltas (<dev>/cpu/N/msr, MSRs 0xE8/0xE7) times the
 *                        P0 clock MPERF counts at; else cpufreq's scaling_cur_freq;
 *                        else /proc/cpuinfo's "cpu MHz"
 *   P-state              AMD's PStateStat MSR (0xC0010063) where the MSR is readable;
 *                        else the index of scaling_cur_freq in cpufreq's
 *                        scaling_available_frequencies (P0 the highest)
 *   package power        RAPL through powercap: class/powercap/intel-rapl:N (AMD's too),
 *                        energy_uj deltas over the interval, wrapped at
 *                        max_energy_range_uj
 *   core power           AMD's per-core RAPL counters through the amd_energy hwmon
 *                        driver: class/hwmon/hwmonN named amd_energy, each energyK_input
 *                        (microjoules) labelled EcoreNNN in energyK_label (its Esocket
 *                        ones are the package's, which powercap gives), deltas over the
 *                        interval; the driver accumulates the 32-bit MSR into 64 bits, so
 *                        the delta wraps at 2^64
 *   temperature          hwmon: class/hwmon/hwmonN named k10temp, coretemp or zenpower,
 *                        temp1_input (millidegrees Celsius), one per socket in order
 * The roots (sysfs, procfs, dev) are given, so tests point them at a fake tree.
 * Nothing here prints; times are the caller's (tests give exact ones).
 */
#ifndef UPROF_TIMECHART_H
#define UPROF_TIMECHART_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TC_MAX_CPUS 1024
#define TC_MAX_SOCKETS 16
#define TC_MAX_PSTATES 32
#define TC_MAX_CORES 1024 /* amd_energy's Ecore counters read */
#define TC_MAX_ENERGY_INPUTS 4096 /* energyK_ files looked at in one amd_energy hwmon */

/* What to sample (uProf's -e words: frequency, p-state, power, temperature). */
enum tc_what {
	TC_FREQUENCY = 1 << 0,
	TC_PSTATE = 1 << 1,
	TC_POWER = 1 << 2,
	TC_TEMPERATURE = 1 << 3,
	TC_ALL = 0xf,
};

enum tc_freq_source { TC_FREQ_NONE, TC_FREQ_MSR, TC_FREQ_CPUFREQ, TC_FREQ_CPUINFO };
enum tc_pstate_source { TC_PSTATE_NONE, TC_PSTATE_MSR, TC_PSTATE_CPUFREQ };

struct tc_roots {
	const char *sysfs;  /* "/sys" */
	const char *procfs; /* "/proc" */
	const char *dev;    /* "/dev": <dev>/cpu/N/msr */
};

struct tc_machine {
	struct tc_roots roots;	     /* borrowed */
	unsigned want;		     /* enum tc_what asked for */
	int ncpus, cpu[TC_MAX_CPUS]; /* the CPUs sampled, ascending */
	enum tc_freq_source freq_source;
	double p0_mhz; /* TC_FREQ_MSR: the clock MPERF counts at */
	enum tc_pstate_source pstate_source;
	int npstates;				/* TC_PSTATE_CPUFREQ: cpu[0]'s frequencies, kHz */
	uint64_t pstate_khz[TC_MAX_PSTATES];	/* descending: index = P-state number */
	int npackages;				/* RAPL package zones found */
	int rapl_zone[TC_MAX_SOCKETS];		/* N of intel-rapl:N, per socket in order */
	uint64_t rapl_range_uj[TC_MAX_SOCKETS]; /* max_energy_range_uj (0: unknown) */
	int ncores;			   /* amd_energy per-core counters found */
	int core_id[TC_MAX_CORES];	   /* NNN of its EcoreNNN label, ascending */
	int core_hwmon[TC_MAX_CORES];	   /* N of hwmonN */
	int core_input[TC_MAX_CORES];	   /* K of energyK_input */
	uint64_t core_energy_uj[TC_MAX_CORES]; /* the last reading */
	bool core_primed[TC_MAX_CORES];	   /* it has a last reading */
	int nthermal;				/* hwmon temperature sensors found */
	int hwmon[TC_MAX_SOCKETS];		/* N of hwmonN, per socket in order */
	/* the last reading, for deltas */
	bool primed;
	double last_t;
	uint64_t *aperf, *mperf; /* ncpus each (TC_FREQ_MSR) */
	uint64_t energy_uj[TC_MAX_SOCKETS];
};

/* One record: values over the interval that ended at @t (NAN / -1 where not read). */
struct tc_row {
	double t;
	double *freq_mhz; /* ncpus */
	int *pstate;	  /* ncpus */
	double power_w[TC_MAX_SOCKETS];
	double *core_power_w; /* ncores */
	double temp_c[TC_MAX_SOCKETS];
};

/* Find the sources for @want on the CPUs in @cpus ("0-3,8"; NULL: every online CPU).
 * 0, -ENOMEM, -EINVAL (a bad CPU list, or a CPU not online: @err says which), -ENOENT
 * (no CPU list under sysfs). A quantity without a source is not an error: it is left
 * out (tc_machine_missing says why). */
int tc_machine_open(struct tc_machine *m, const struct tc_roots *roots, unsigned want,
		    const char *cpus, char *err, size_t errlen);
void tc_machine_close(struct tc_machine *m);
/* The asked-for quantities this machine has no source for, in one line ("package power
 * (no RAPL powercap zone under /sys/class/powercap); ..."), into @buf; "" when none. */
const char *tc_machine_missing(const struct tc_machine *m, char *buf, size_t len);
/* Words naming the frequency and P-state sources ("APERF/MPERF (/dev/cpu/N/msr)", ...). */
const char *tc_freq_source_name(enum tc_freq_source s);
const char *tc_pstate_source_name(enum tc_pstate_source s);

/* Rows hold the arrays tc_row_alloc gives (freed by tc_row_free). */
int tc_row_alloc(const struct tc_machine *m, struct tc_row *row);
void tc_row_free(struct tc_row *row);
/* Read every source at time @t (seconds, any monotonic origin). The first call only
 * primes the deltas: 0. Later calls fill @row with the interval since the previous
 * call: 1. -EINVAL when @t is not after the previous call's. A source that fails to read
 * leaves its value NAN (or -1), never stops the others. */
int tc_sample(struct tc_machine *m, double t, struct tc_row *row);

/* uProf's timechart.csv: the header line (RecordId,Timestamp,thread0-core-effective-
 * frequency,...,thread0-p-state,...,socket0-package-power,...,core0-power,...,
 * socket0-temperature) with
 * the columns this machine fills, then one line per row. @stamp is the row's time as
 * uProf writes it (h:m:s:ms). -errno of the write. */
int tc_csv_header(const struct tc_machine *m, FILE *f);
int tc_csv_row(const struct tc_machine *m, const struct tc_row *row, long record_id,
	       const char *stamp, FILE *f);
/* The same columns as a text table (-f txt): fixed-width, space-separated. */
int tc_txt_header(const struct tc_machine *m, FILE *f);
int tc_txt_row(const struct tc_machine *m, const struct tc_row *row, long record_id,
	       const char *stamp, FILE *f);

#endif
