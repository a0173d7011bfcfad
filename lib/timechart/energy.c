// SPDX-License-Identifier: MIT
/*
 * Per-core power from AMD's per-core RAPL energy counters, as the amd_energy hwmon driver
 * shows them: class/hwmon/hwmonN/name "amd_energy", energyK_label "Ecore000" (a core) or
 * "Esocket0" (a package: powercap's intel-rapl zone already gives that), energyK_input in
 * microjoules. powercap has no per-core zones, so this is the one per-core source.
 */
#include "timechart/internal.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct core_counter {
	int id, hwmon, input;
};

static int cmp_core(const void *a, const void *b)
{
	const struct core_counter *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* "Ecore<digits>" (a newline after it allowed): the core's number, else -1. */
static int core_of_label(const char *label)
{
	const char *p = label + 5;
	long id = 0;

	if (strncmp(label, "Ecore", 5) || *p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++)
		if ((id = id * 10 + (*p - '0')) >= TC_MAX_CORES * 16L)
			return -1;
	return *p == '\0' || (*p == '\n' && p[1] == '\0') ? (int)id : -1;
}

/* The Ecore counters of amd_energy device hwmon@n, numbered from energy1_ on until the
 * first label that is missing. */
static void add_device(struct tc_machine *m, struct core_counter *found, int n)
{
	char rel[128], label[32];

	for (int k = 1; k <= TC_MAX_ENERGY_INPUTS && m->ncores < TC_MAX_CORES; k++) {
		int id;

		snprintf(rel, sizeof(rel), "class/hwmon/hwmon%d/energy%d_label", n, k);
		if (tc_read_text(m->roots.sysfs, rel, label, sizeof(label)))
			break;
		id = core_of_label(label);
		if (id < 0)
			continue; /* Esocket<N>, or a label this driver version did not have */
		found[m->ncores++] = (struct core_counter){ id, n, k };
	}
}

void tc_find_core_energy(struct tc_machine *m)
{
	struct core_counter *found = calloc(TC_MAX_CORES, sizeof(*found));
	char rel[256], name[64];
	struct dirent *d;
	DIR *dir;
	int n;

	m->ncores = 0;
	if (!found)
		return;
	snprintf(rel, sizeof(rel), "%s/class/hwmon", m->roots.sysfs);
	dir = opendir(rel);
	while (dir && (d = readdir(dir))) {
		char tail;

		if (sscanf(d->d_name, "hwmon%d%c", &n, &tail) != 1)
			continue;
		snprintf(rel, sizeof(rel), "class/hwmon/%s/name", d->d_name);
		if (tc_read_text(m->roots.sysfs, rel, name, sizeof(name)))
			continue;
		name[strcspn(name, "\n")] = '\0';
		if (!strcmp(name, "amd_energy"))
			add_device(m, found, n);
	}
	if (dir)
		closedir(dir);
	qsort(found, m->ncores, sizeof(*found), cmp_core);
	for (int i = 0; i < m->ncores; i++) {
		m->core_id[i] = found[i].id;
		m->core_hwmon[i] = found[i].hwmon;
		m->core_input[i] = found[i].input;
		m->core_primed[i] = false;
	}
	free(found);
}

void tc_read_core_power(struct tc_machine *m, double dt, struct tc_row *row)
{
	char rel[128];
	uint64_t uj;

	for (int i = 0; i < m->ncores; i++) {
		row->core_power_w[i] = NAN;
		snprintf(rel, sizeof(rel), "class/hwmon/hwmon%d/energy%d_input", m->core_hwmon[i],
			 m->core_input[i]);
		if (tc_read_u64(m->roots.sysfs, rel, &uj)) {
			m->core_primed[i] = false; /* a gap: the next delta would span it */
			continue;
		}
		/* unsigned subtraction: a 64-bit counter that wrapped still gives the energy
		 * since the last reading */
		if (m->core_primed[i] && dt > 0)
			row->core_power_w[i] = (double)(uj - m->core_energy_uj[i]) / 1e6 / dt;
		m->core_energy_uj[i] = uj;
		m->core_primed[i] = true;
	}
}
