// SPDX-License-Identifier: MIT
/* Which source each timechart quantity comes from on this machine (timechart.h). */
#include "timechart/internal.h"
#include "pmc/pmc.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tc_freq_source_name(enum tc_freq_source s)
{
	switch (s) {
	case TC_FREQ_MSR:
		return "APERF/MPERF (cpu/N/msr)";
	case TC_FREQ_CPUFREQ:
		return "cpufreq scaling_cur_freq";
	case TC_FREQ_CPUINFO:
		return "/proc/cpuinfo 'cpu MHz'";
	default:
		return "none";
	}
}

const char *tc_pstate_source_name(enum tc_pstate_source s)
{
	switch (s) {
	case TC_PSTATE_MSR:
		return "PStateStat MSR (cpu/N/msr)";
	case TC_PSTATE_CPUFREQ:
		return "cpufreq scaling_available_frequencies";
	default:
		return "none";
	}
}

static int cpu_list(struct tc_machine *m, const char *cpus, char *err, size_t errlen)
{
	struct pmc_cpus online, asked;
	char buf[4096];
	int ret, c;

	ret = tc_read_text(m->roots.sysfs, "devices/system/cpu/online", buf, sizeof(buf));
	if (ret) {
		snprintf(err, errlen, "cannot read %s/devices/system/cpu/online: %s",
			 m->roots.sysfs, strerror(-ret));
		return -ENOENT;
	}
	if (pmc_cpus_parse(buf, strcspn(buf, "\n"), &online) || !pmc_cpus_count(&online)) {
		snprintf(err, errlen, "%s/devices/system/cpu/online is not a CPU list",
			 m->roots.sysfs);
		return -ENOENT;
	}
	asked = online;
	if (cpus && (pmc_cpus_parse(cpus, strlen(cpus), &asked) || !pmc_cpus_count(&asked))) {
		snprintf(err, errlen, "'%s' is not a CPU list (such as 0-3,8)", cpus);
		return -EINVAL;
	}
	for (c = pmc_cpus_next(&asked, 0); c >= 0; c = pmc_cpus_next(&asked, c + 1)) {
		if (!pmc_cpus_has(&online, c)) {
			snprintf(err, errlen, "CPU %d is not online (online: %.*s)", c,
				 (int)strcspn(buf, "\n"), buf);
			return -EINVAL;
		}
		if (m->ncpus < TC_MAX_CPUS)
			m->cpu[m->ncpus++] = c;
	}
	return 0;
}

/* The clock MPERF counts at (AMD: P0; Intel: the base clock), in MHz: cpufreq's
 * base_frequency, else cpuinfo_max_freq. 0 when neither is there. */
static double p0_mhz(const struct tc_machine *m)
{
	static const char *const names[] = { "base_frequency", "cpuinfo_max_freq" };
	char rel[128];
	uint64_t khz;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/%s", m->cpu[0],
			 names[i]);
		if (!tc_read_u64(m->roots.sysfs, rel, &khz) && khz)
			return khz / 1000.0;
	}
	return 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

static void find_frequency(struct tc_machine *m)
{
	char rel[128], buf[1024], *p, *end;
	double mhz[TC_MAX_CPUS];
	uint64_t v;

	if (!tc_read_msr(m->roots.dev, m->cpu[0], TC_MSR_APERF, &v) &&
	    !tc_read_msr(m->roots.dev, m->cpu[0], TC_MSR_MPERF, &v)) {
		m->p0_mhz = p0_mhz(m);
		if (m->p0_mhz > 0)
			m->freq_source = TC_FREQ_MSR;
		if (!tc_read_msr(m->roots.dev, m->cpu[0], TC_MSR_PSTATE_STATUS, &v))
			m->pstate_source = TC_PSTATE_MSR;
	}
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", m->cpu[0]);
	if (m->freq_source == TC_FREQ_NONE && !tc_read_u64(m->roots.sysfs, rel, &v))
		m->freq_source = TC_FREQ_CPUFREQ;
	if (m->freq_source == TC_FREQ_NONE && tc_cpuinfo_mhz(m->roots.procfs, mhz, TC_MAX_CPUS) > 0)
		m->freq_source = TC_FREQ_CPUINFO;
	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/scaling_available_frequencies",
		 m->cpu[0]);
	if (m->pstate_source != TC_PSTATE_NONE ||
	    tc_read_text(m->roots.sysfs, rel, buf, sizeof(buf)))
		return;
	for (p = buf; m->npstates < TC_MAX_PSTATES;) {
		v = strtoull(p, &end, 10);
		if (end == p)
			break;
		m->pstate_khz[m->npstates++] = v;
		p = end;
	}
	qsort(m->pstate_khz, m->npstates, sizeof(m->pstate_khz[0]), cmp_desc);
	/* reading the current P-state needs scaling_cur_freq to look it up */
	if (m->npstates > 0 && m->freq_source == TC_FREQ_CPUFREQ)
		m->pstate_source = TC_PSTATE_CPUFREQ;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* intel-rapl:N with name "package-N" (the kernel names AMD's zones the same), in N order */
static void find_rapl(struct tc_machine *m)
{
	char rel[256], name[64];
	struct dirent *d;
	DIR *dir;
	int n;

	snprintf(rel, sizeof(rel), "%s/class/powercap", m->roots.sysfs);
	dir = opendir(rel);
	if (!dir)
		return;
	while ((d = readdir(dir)) && m->npackages < TC_MAX_SOCKETS) {
		char tail;

		if (sscanf(d->d_name, "intel-rapl:%d%c", &n, &tail) != 1)
			continue; /* intel-rapl:0:0 is a subzone (core, dram) */
		snprintf(rel, sizeof(rel), "class/powercap/%s/name", d->d_name);
		if (tc_read_text(m->roots.sysfs, rel, name, sizeof(name)) ||
		    strncmp(name, "package", 7))
			continue;
		m->rapl_zone[m->npackages++] = n;
	}
	closedir(dir);
	qsort(m->rapl_zone, m->npackages, sizeof(int), cmp_int);
	for (int i = 0; i < m->npackages; i++) {
		snprintf(rel, sizeof(rel), "class/powercap/intel-rapl:%d/max_energy_range_uj",
			 m->rapl_zone[i]);
		if (tc_read_u64(m->roots.sysfs, rel, &m->rapl_range_uj[i]))
			m->rapl_range_uj[i] = 0;
	}
}

/* hwmon devices of the CPU's temperature drivers, one per socket, in hwmonN order */
static void find_hwmon(struct tc_machine *m)
{
	static const char *const drivers[] = { "k10temp", "zenpower", "coretemp" };
	char rel[256], name[64];
	struct dirent *d;
	DIR *dir;
	int n;

	snprintf(rel, sizeof(rel), "%s/class/hwmon", m->roots.sysfs);
	dir = opendir(rel);
	if (!dir)
		return;
	while ((d = readdir(dir)) && m->nthermal < TC_MAX_SOCKETS) {
		char tail;

		if (sscanf(d->d_name, "hwmon%d%c", &n, &tail) != 1)
			continue;
		snprintf(rel, sizeof(rel), "class/hwmon/%s/name", d->d_name);
		if (tc_read_text(m->roots.sysfs, rel, name, sizeof(name)))
			continue;
		name[strcspn(name, "\n")] = '\0';
		for (size_t i = 0; i < sizeof(drivers) / sizeof(drivers[0]); i++)
			if (!strcmp(name, drivers[i]))
				m->hwmon[m->nthermal++] = n;
	}
	closedir(dir);
	qsort(m->hwmon, m->nthermal, sizeof(int), cmp_int);
}

int tc_machine_open(struct tc_machine *m, const struct tc_roots *roots, unsigned want,
		    const char *cpus, char *err, size_t errlen)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->roots = *roots;
	m->want = want;
	ret = cpu_list(m, cpus, err, errlen);
	if (ret)
		return ret;
	if (want & (TC_FREQUENCY | TC_PSTATE))
		find_frequency(m);
	if (want & TC_POWER) {
		find_rapl(m);
		tc_find_core_energy(m);
	}
	if (want & TC_TEMPERATURE)
		find_hwmon(m);
	m->aperf = calloc(m->ncpus, sizeof(*m->aperf));
	m->mperf = calloc(m->ncpus, sizeof(*m->mperf));
	if (!m->aperf || !m->mperf) {
		tc_machine_close(m);
		return -ENOMEM;
	}
	return 0;
}

void tc_machine_close(struct tc_machine *m)
{
	free(m->aperf);
	free(m->mperf);
	m->aperf = m->mperf = NULL;
}

const char *tc_machine_missing(const struct tc_machine *m, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
#define SAY(...) \
	do { \
		if (n < len) \
			n += snprintf(buf + n, len - n, "%s", n ? "; " : ""); \
		if (n < len) \
			n += snprintf(buf + n, len - n, __VA_ARGS__); \
	} while (0)
	if ((m->want & TC_FREQUENCY) && m->freq_source == TC_FREQ_NONE)
		SAY("effective frequency (no readable %s/cpu/%d/msr, cpufreq or 'cpu MHz')",
		    m->roots.dev, m->cpu[0]);
	if ((m->want & TC_PSTATE) && m->pstate_source == TC_PSTATE_NONE)
		SAY("P-state (no readable %s/cpu/%d/msr and no cpufreq "
		    "scaling_available_frequencies with scaling_cur_freq)",
		    m->roots.dev, m->cpu[0]);
	if ((m->want & TC_POWER) && !m->npackages)
		SAY("package power (no RAPL package zone under %s/class/powercap)", m->roots.sysfs);
	if ((m->want & TC_POWER) && !m->ncores)
		SAY("core power (no amd_energy hwmon with Ecore counters under %s/class/hwmon)",
		    m->roots.sysfs);
	if ((m->want & TC_TEMPERATURE) && !m->nthermal)
		SAY("temperature (no k10temp, zenpower or coretemp under %s/class/hwmon)",
		    m->roots.sysfs);
#undef SAY
	return buf;
}
