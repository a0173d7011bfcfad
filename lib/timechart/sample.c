// SPDX-License-Identifier: MIT
/* One timechart reading: every source read at once, deltas against the last reading. */
#include "timechart/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_row_alloc(const struct tc_machine *m, struct tc_row *row)
{
	memset(row, 0, sizeof(*row));
	row->freq_mhz = calloc(m->ncpus ? m->ncpus : 1, sizeof(*row->freq_mhz));
	row->pstate = calloc(m->ncpus ? m->ncpus : 1, sizeof(*row->pstate));
	row->core_power_w = calloc(m->ncores ? m->ncores : 1, sizeof(*row->core_power_w));
	if (!row->freq_mhz || !row->pstate || !row->core_power_w) {
		tc_row_free(row);
		return -ENOMEM;
	}
	return 0;
}

void tc_row_free(struct tc_row *row)
{
	free(row->freq_mhz);
	free(row->pstate);
	free(row->core_power_w);
	row->freq_mhz = NULL;
	row->pstate = NULL;
	row->core_power_w = NULL;
}

/* A counter's increase; @range: where it wraps to 0 (0: a 64-bit counter). */
static uint64_t delta(uint64_t now, uint64_t before, uint64_t range)
{
	if (now >= before)
		return now - before;
	return range ? range - before + now : now - before; /* unsigned wrap of 64 bits */
}

static void read_frequency(struct tc_machine *m, double dt, struct tc_row *row)
{
	double mhz[TC_MAX_CPUS];
	char rel[128];
	uint64_t a, p, khz;
	int c;

	if (m->freq_source == TC_FREQ_CPUINFO) {
		for (int i = 0; i < TC_MAX_CPUS; i++)
			mhz[i] = NAN;
		tc_cpuinfo_mhz(m->roots.procfs, mhz, TC_MAX_CPUS);
	}
	for (int i = 0; i < m->ncpus; i++) {
		c = m->cpu[i];
		row->freq_mhz[i] = NAN;
		switch (m->freq_source) {
		case TC_FREQ_MSR:
			if (tc_read_msr(m->roots.dev, c, TC_MSR_APERF, &a) ||
			    tc_read_msr(m->roots.dev, c, TC_MSR_MPERF, &p))
				break;
			/* the ratio of the clocks over the interval: APERF ticks at the core's
			 * real clock, MPERF at P0's, both only while the core is not halted */
			if (dt > 0 && delta(p, m->mperf[i], 0))
				row->freq_mhz[i] = m->p0_mhz * delta(a, m->aperf[i], 0) /
						   delta(p, m->mperf[i], 0);
			m->aperf[i] = a;
			m->mperf[i] = p;
			break;
		case TC_FREQ_CPUFREQ:
			snprintf(rel, sizeof(rel),
				 "devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", c);
			if (!tc_read_u64(m->roots.sysfs, rel, &khz))
				row->freq_mhz[i] = khz / 1000.0;
			break;
		case TC_FREQ_CPUINFO:
			row->freq_mhz[i] = c < TC_MAX_CPUS ? mhz[c] : NAN;
			break;
		default:
			break;
		}
	}
}

static void read_pstate(struct tc_machine *m, struct tc_row *row)
{
	char rel[128];
	uint64_t v;

	for (int i = 0; i < m->ncpus; i++) {
		row->pstate[i] = -1;
		if (m->pstate_source == TC_PSTATE_MSR) {
			if (!tc_read_msr(m->roots.dev, m->cpu[i], TC_MSR_PSTATE_STATUS, &v))
				row->pstate[i] = (int)(v & 7);
			continue;
		}
		if (m->pstate_source != TC_PSTATE_CPUFREQ)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
			 m->cpu[i]);
		if (tc_read_u64(m->roots.sysfs, rel, &v))
			continue;
		/* the P-state whose frequency is nearest: a governor between two steps is
		 * at the nearer one */
		for (int k = 0; k < m->npstates; k++)
			if (row->pstate[i] < 0 ||
			    llabs((long long)(m->pstate_khz[k] - v)) <
				    llabs((long long)(m->pstate_khz[row->pstate[i]] - v)))
				row->pstate[i] = k;
	}
}

static void read_power(struct tc_machine *m, double dt, struct tc_row *row)
{
	char rel[128];
	uint64_t uj;

	for (int s = 0; s < m->npackages; s++) {
		row->power_w[s] = NAN;
		snprintf(rel, sizeof(rel), "class/powercap/intel-rapl:%d/energy_uj",
			 m->rapl_zone[s]);
		if (tc_read_u64(m->roots.sysfs, rel, &uj))
			continue;
		if (m->primed && dt > 0 &&
		    (uj >= m->energy_uj[s] || m->rapl_range_uj[s] >= m->energy_uj[s]))
			row->power_w[s] = delta(uj, m->energy_uj[s], m->rapl_range_uj[s]) / 1e6 /
					  dt;
		m->energy_uj[s] = uj;
	}
}

static void read_temperature(struct tc_machine *m, struct tc_row *row)
{
	char rel[128];
	uint64_t milli;

	for (int s = 0; s < m->nthermal; s++) {
		snprintf(rel, sizeof(rel), "class/hwmon/hwmon%d/temp1_input", m->hwmon[s]);
		row->temp_c[s] = tc_read_u64(m->roots.sysfs, rel, &milli) ? NAN : milli / 1000.0;
	}
}

int tc_sample(struct tc_machine *m, double t, struct tc_row *row)
{
	double dt = t - m->last_t;
	int ret;

	if (m->primed && !(dt > 0))
		return -EINVAL;
	row->t = t;
	if (m->want & TC_FREQUENCY || m->freq_source == TC_FREQ_MSR)
		read_frequency(m, m->primed ? dt : 0, row);
	if (m->want & TC_PSTATE)
		read_pstate(m, row);
	if (m->want & TC_POWER) {
		read_power(m, dt, row);
		tc_read_core_power(m, m->primed ? dt : 0, row);
	}
	if (m->want & TC_TEMPERATURE)
		read_temperature(m, row);
	ret = m->primed ? 1 : 0;
	m->primed = true;
	m->last_t = t;
	return ret;
}
