// SPDX-License-Identifier: MIT
/*
 * lib/timechart on a copy of tests/fixtures/timechart-sysfs (changed between readings):
 * the sources found, exact package power from energy_uj deltas over given times (and
 * across the counter's wrap), exact per-core power from amd_energy's counters (and their
 * 64-bit wrap, a damaged reading and the gap after it), temperatures, P-states, effective frequency from fake
 * APERF/MPERF files, the /proc/cpuinfo fallback, the CSV layout, and damaged files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timechart/internal.h"

static char tree[PATH_MAX], sysfs[PATH_MAX + 16], devdir[PATH_MAX + 16];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysfs, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	char cmd[PATH_MAX * 3];
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";

	(void)state;
	snprintf(tree, sizeof(tree), "%s/tc.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tree))
		return -1;
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tree);
	snprintf(devdir, sizeof(devdir), "%s/dev", tree);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/tests/fixtures/timechart-sysfs' '%s'", src, sysfs);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	return system(cmd) == 0 ? 0 : -1;
}

static struct tc_roots roots_of(const char *procfs)
{
	struct tc_roots r = { sysfs, procfs, devdir };

	return r;
}

static void test_sources_found(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	char err[256], missing[512];

	(void)state;
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err)), 0);
	assert_int_equal(m.ncpus, 4);
	assert_int_equal(m.freq_source, TC_FREQ_CPUFREQ); /* no msr files under <dev> */
	assert_int_equal(m.pstate_source, TC_PSTATE_CPUFREQ);
	assert_int_equal(m.npstates, 4);
	assert_int_equal(m.pstate_khz[0], 3700000);
	assert_int_equal(m.pstate_khz[3], 1500000);
	assert_int_equal(m.npackages, 2); /* intel-rapl:0:0 is a core subzone */
	assert_int_equal(m.rapl_zone[1], 1);
	assert_int_equal(m.rapl_range_uj[0], 65532610987ULL);
	assert_int_equal(m.nthermal, 2); /* acpitz is not a CPU sensor */
	assert_int_equal(m.hwmon[0], 1);
	assert_int_equal(m.hwmon[1], 2);
	assert_int_equal(m.ncores, 2); /* Esocket0 is the package's, not a core */
	assert_int_equal(m.core_id[1], 1);
	assert_int_equal(m.core_hwmon[1], 3);
	assert_int_equal(m.core_input[1], 2);
	assert_string_equal(tc_machine_missing(&m, missing, sizeof(missing)), "");
	tc_machine_close(&m);
	tc_machine_close(&m); /* twice is safe */
}

static void test_exact_power_and_values(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	struct tc_row row;
	char err[256];

	(void)state;
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err)), 0);
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	put("class/powercap/intel-rapl:0/energy_uj", "100000000\n");
	put("class/powercap/intel-rapl:1/energy_uj", "200000000\n");
	assert_int_equal(tc_sample(&m, 10.0, &row), 0); /* primes */
	put("class/powercap/intel-rapl:0/energy_uj", "103000000\n");
	put("class/powercap/intel-rapl:1/energy_uj", "200500000\n");
	assert_int_equal(tc_sample(&m, 10.5, &row), 1);
	/* 3 J and 0.5 J over 0.5 s */
	assert_true(row.power_w[0] == 6.0);
	assert_true(row.power_w[1] == 1.0);
	assert_true(row.temp_c[0] == 45.25);
	assert_true(row.temp_c[1] == 51.5);
	assert_true(row.freq_mhz[0] == 3700.0);
	assert_true(row.freq_mhz[3] == 1498.0);
	assert_int_equal(row.pstate[0], 0);
	assert_int_equal(row.pstate[1], 1);
	assert_int_equal(row.pstate[2], 2);
	assert_int_equal(row.pstate[3], 3); /* 1498 MHz: nearest 1500 */
	/* the counter wraps at max_energy_range_uj: 1 J before it, 2 J after, in 1.5 s */
	put("class/powercap/intel-rapl:0/energy_uj", "65531610987\n");
	assert_int_equal(tc_sample(&m, 11.0, &row), 1);
	put("class/powercap/intel-rapl:0/energy_uj", "2000000\n");
	assert_int_equal(tc_sample(&m, 12.5, &row), 1);
	assert_true(row.power_w[0] == 2.0);
	assert_true(row.power_w[1] == 0.0);
	/* time that does not advance is refused */
	assert_int_equal(tc_sample(&m, 12.5, &row), -EINVAL);
	tc_row_free(&row);
	tc_row_free(&row);
	tc_machine_close(&m);
	put("class/powercap/intel-rapl:0/energy_uj", "123456789\n");
	put("class/powercap/intel-rapl:1/energy_uj", "987654321\n");
}

/* The MSR device, replaced (-Wl,--wrap=tc_read_msr): this VM has no /dev/cpu/N/msr, and
 * a plain file cannot stand in for it (MSRs 0xE7 and 0xE8 are 8-byte registers at
 * adjacent offsets). msr_on: whether the fake answers; else the real reader runs. */
static bool msr_on;
static uint64_t msr_aperf[4], msr_mperf[4], msr_pstate[4];
int __real_tc_read_msr(const char *dev, int cpu, uint32_t msr, uint64_t *out);
int __wrap_tc_read_msr(const char *dev, int cpu, uint32_t msr, uint64_t *out)
{
	if (!msr_on)
		return __real_tc_read_msr(dev, cpu, msr, out);
	if (cpu < 0 || cpu >= 4)
		return -ENOENT;
	if (msr == TC_MSR_APERF)
		*out = msr_aperf[cpu];
	else if (msr == TC_MSR_MPERF)
		*out = msr_mperf[cpu];
	else if (msr == TC_MSR_PSTATE_STATUS)
		*out = msr_pstate[cpu];
	else
		return -EIO;
	return 0;
}

static void put_msr(int cpu, uint32_t msr, uint64_t v)
{
	if (msr == TC_MSR_APERF)
		msr_aperf[cpu] = v;
	else if (msr == TC_MSR_MPERF)
		msr_mperf[cpu] = v;
	else
		msr_pstate[cpu] = v;
}

static void test_aperf_mperf(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	struct tc_row row;
	char err[256];
	uint64_t v;

	(void)state;
	/* the real reader: no msr file under the tree's <dev> */
	assert_int_equal(tc_read_msr(devdir, 0, TC_MSR_APERF, &v), -ENOENT);
	msr_on = true;
	for (int c = 0; c < 4; c++) {
		put_msr(c, TC_MSR_APERF, 1000000);
		put_msr(c, TC_MSR_MPERF, 5000000);
		put_msr(c, TC_MSR_PSTATE_STATUS, 0x12); /* bits 2:0 = 2 */
	}
	assert_int_equal(tc_machine_open(&m, &r, TC_FREQUENCY | TC_PSTATE, "2-3", err, sizeof(err)),
			 0);
	assert_int_equal(m.ncpus, 2);
	assert_int_equal(m.freq_source, TC_FREQ_MSR);
	assert_int_equal(m.pstate_source, TC_PSTATE_MSR);
	assert_true(m.p0_mhz == 3700.0); /* cpuinfo_max_freq */
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	assert_int_equal(tc_sample(&m, 1.0, &row), 0);
	put_msr(2, TC_MSR_APERF, 4000000);
	put_msr(2, TC_MSR_MPERF, 9000000);
	put_msr(3, TC_MSR_APERF, 1000000); /* halted all interval: no MPERF delta */
	assert_int_equal(tc_sample(&m, 2.0, &row), 1);
	assert_true(row.freq_mhz[0] == 3700.0 * 3 / 4); /* 3M real ticks per 4M P0 ticks */
	assert_true(isnan(row.freq_mhz[1]));
	assert_int_equal(row.pstate[0], 2);
	assert_int_equal(row.pstate[1], 2);
	tc_row_free(&row);
	tc_machine_close(&m);
	msr_on = false;
}

static void test_cpuinfo_fallback_and_missing(void **state)
{
	char procfs[PATH_MAX + 16], missing[1024], err[256];
	struct tc_roots r = roots_of(procfs);
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";
	struct tc_machine m;
	struct tc_row row;
	char empty[PATH_MAX + 16];

	(void)state;
	snprintf(procfs, sizeof(procfs), "%s/tests/fixtures/procfs", src);
	/* a tree with only the CPU list: cpuinfo gives the frequency, nothing else */
	snprintf(empty, sizeof(empty), "%s/bare", tree);
	mkdir(empty, 0755);
	snprintf(sysfs, sizeof(sysfs), "%s/bare/devices", tree);
	mkdir(sysfs, 0755);
	snprintf(sysfs, sizeof(sysfs), "%s/bare/devices/system", tree);
	mkdir(sysfs, 0755);
	snprintf(sysfs, sizeof(sysfs), "%s/bare/devices/system/cpu", tree);
	mkdir(sysfs, 0755);
	snprintf(sysfs, sizeof(sysfs), "%s/bare", tree);
	put("devices/system/cpu/online", "0-1\n");
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err)), 0);
	assert_int_equal(m.freq_source, TC_FREQ_CPUINFO);
	assert_int_equal(m.pstate_source, TC_PSTATE_NONE);
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	assert_int_equal(tc_sample(&m, 1.0, &row), 0);
	assert_int_equal(tc_sample(&m, 2.0, &row), 1);
	assert_true(row.freq_mhz[1] == 2000.0);
	tc_machine_missing(&m, missing, sizeof(missing));
	assert_non_null(strstr(missing, "P-state (no readable"));
	assert_non_null(strstr(missing, "package power (no RAPL package zone under"));
	assert_non_null(strstr(missing, "temperature (no k10temp, zenpower or coretemp under"));
	tc_row_free(&row);
	tc_machine_close(&m);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", tree);
}

static void test_damaged_files(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	struct tc_row row;
	char err[256];

	(void)state;
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, "5", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "CPU 5 is not online (online: 0-3)");
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, "x", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "'x' is not a CPU list (such as 0-3,8)");
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err)), 0);
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	assert_int_equal(tc_sample(&m, 1.0, &row), 0);
	put("class/powercap/intel-rapl:0/energy_uj", "12ab\n"); /* corrupted */
	put("class/powercap/intel-rapl:1/energy_uj", "");	/* truncated to nothing */
	put("class/hwmon/hwmon1/temp1_input", "-");
	put("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "28");
	assert_int_equal(tc_sample(&m, 2.0, &row), 1);
	assert_true(isnan(row.power_w[0]));
	assert_true(isnan(row.power_w[1]));
	assert_true(isnan(row.temp_c[0]));
	assert_true(row.temp_c[1] == 51.5); /* the others go on */
	assert_true(row.freq_mhz[1] == 0.028);
	assert_int_equal(row.pstate[1], 3); /* 28 kHz: nearest the lowest */
	tc_row_free(&row);
	tc_machine_close(&m);
	put("class/powercap/intel-rapl:0/energy_uj", "123456789\n");
	put("class/powercap/intel-rapl:1/energy_uj", "987654321\n");
	put("class/hwmon/hwmon1/temp1_input", "45250\n");
	put("devices/system/cpu/cpu1/cpufreq/scaling_cur_freq", "2800000\n");
	put("devices/system/cpu/online", "0-3 garbage\n");
	assert_int_equal(tc_machine_open(&m, &r, TC_ALL, NULL, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/devices/system/cpu/online is not a CPU list"));
	put("devices/system/cpu/online", "0-3\n");
}

/* Per-core power: amd_energy's microjoule counters over the interval; the counter is the
 * driver's 64-bit accumulation, so it wraps at 2^64; a reading that fails leaves that core
 * empty for it and for the next one (whose delta would span the gap). */
static void test_core_power(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	struct tc_row row;
	char err[256];

	(void)state;
	assert_int_equal(tc_machine_open(&m, &r, TC_POWER, NULL, err, sizeof(err)), 0);
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	assert_int_equal(tc_sample(&m, 1.0, &row), 0); /* 5 J and 7 J: primes */
	assert_true(isnan(row.core_power_w[0]));
	put("class/hwmon/hwmon3/energy1_input", "6000000\n");
	put("class/hwmon/hwmon3/energy2_input", "7250000\n");
	put("class/hwmon/hwmon3/energy3_input", "1\n"); /* Esocket0: not read */
	assert_int_equal(tc_sample(&m, 1.5, &row), 1);
	assert_true(row.core_power_w[0] == 2.0); /* 1 J in 0.5 s */
	assert_true(row.core_power_w[1] == 0.5);
	/* 0.5 J before 2^64, 1.5 J after it, in 0.5 s */
	put("class/hwmon/hwmon3/energy1_input", "18446744073709051616\n");
	assert_int_equal(tc_sample(&m, 2.0, &row), 1);
	put("class/hwmon/hwmon3/energy1_input", "1500000\n");
	put("class/hwmon/hwmon3/energy2_input", "72ab\n"); /* corrupted */
	assert_int_equal(tc_sample(&m, 2.5, &row), 1);
	assert_true(row.core_power_w[0] == 4.0);
	assert_true(isnan(row.core_power_w[1]));
	put("class/hwmon/hwmon3/energy2_input", "8000000\n");
	assert_int_equal(tc_sample(&m, 3.0, &row), 1);
	assert_true(isnan(row.core_power_w[1])); /* no reading before it: the gap */
	put("class/hwmon/hwmon3/energy2_input", "8100000\n");
	put("class/hwmon/hwmon3/energy1_input", ""); /* truncated to nothing */
	assert_int_equal(tc_sample(&m, 4.0, &row), 1);
	assert_true(fabs(row.core_power_w[1] - 0.1) < 1e-12); /* 0.1 J in 1 s */
	assert_true(isnan(row.core_power_w[0]));
	tc_row_free(&row);
	tc_machine_close(&m);
	put("class/hwmon/hwmon3/energy1_input", "5000000\n");
	put("class/hwmon/hwmon3/energy2_input", "7000000\n");
	put("class/hwmon/hwmon3/energy3_input", "99000000\n");
	/* a label that is no EcoreNNN is not a core; none at all: said missing */
	put("class/hwmon/hwmon3/energy1_label", "Ecore0x1\n");
	put("class/hwmon/hwmon3/energy2_label", "Ecore\n");
	assert_int_equal(tc_machine_open(&m, &r, TC_POWER, NULL, err, sizeof(err)), 0);
	assert_int_equal(m.ncores, 0);
	assert_non_null(strstr(tc_machine_missing(&m, err, sizeof(err)),
			       "core power (no amd_energy hwmon with Ecore counters under "));
	tc_machine_close(&m);
	put("class/hwmon/hwmon3/energy1_label", "Ecore000\n");
	put("class/hwmon/hwmon3/energy2_label", "Ecore001\n");
}

static void test_csv_layout(void **state)
{
	struct tc_roots r = roots_of("/nonexistent");
	struct tc_machine m;
	struct tc_row row;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(tc_machine_open(&m, &r, TC_FREQUENCY | TC_POWER | TC_TEMPERATURE, "1", err,
					 sizeof(err)),
			 0);
	assert_int_equal(tc_row_alloc(&m, &row), 0);
	assert_int_equal(tc_sample(&m, 1.0, &row), 0);
	put("class/powercap/intel-rapl:1/energy_uj", "988654321\n");
	assert_int_equal(tc_sample(&m, 3.0, &row), 1);
	f = open_memstream(&text, &len);
	assert_int_equal(tc_csv_header(&m, f), 0);
	assert_int_equal(tc_csv_row(&m, &row, 1, "1:2:17:511", f), 0);
	fclose(f);
	assert_string_equal(text,
			    "RecordId,Timestamp,thread1-core-effective-frequency,"
			    "socket0-package-power,socket1-package-power,core0-power,core1-power,"
			    "socket0-temperature,socket1-temperature\n"
			    "1,1:2:17:511, 2800.00, 0.00, 0.50, 0.00, 0.00, 45.25, 51.50\n");
	free(text);
	tc_row_free(&row);
	tc_machine_close(&m);
	put("class/powercap/intel-rapl:1/energy_uj", "987654321\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sources_found),
		cmocka_unit_test(test_exact_power_and_values),
		cmocka_unit_test(test_aperf_mperf),
		cmocka_unit_test(test_cpuinfo_fallback_and_missing),
		cmocka_unit_test(test_damaged_files),
		cmocka_unit_test(test_core_power),
		cmocka_unit_test(test_csv_layout),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
