// SPDX-License-Identifier: MIT
/* CPU topology from <sysfs>/devices/system/cpu, and CPU identity from <procfs>/cpuinfo. */
#include "pmc/internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pmc_topo {
	struct pmc_cpus online;
	int ncpu; /* highest online CPU + 1 */
	/* per CPU: package id, lowest CPU of its L3 group, lowest CPU of its core */
	int *package, *ccx_first, *core_first;
	int *ccx_idx, *core_idx;
	int npackages, nccx, ncores;
};

void pmc_topo_free(struct pmc_topo *t)
{
	if (!t)
		return;
	free(t->package);
	free(t->ccx_first);
	free(t->core_first);
	free(t->ccx_idx);
	free(t->core_idx);
	free(t);
}

static int read_int(const char *root, int cpu, const char *what, int dflt)
{
	char rel[128], buf[32];
	uint64_t v;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/%s", cpu, what);
	if (pmc_read_file(root, rel, buf, sizeof(buf)) <= 0)
		return dflt;
	if (pmc_parse_u64(buf, strlen(buf), &v) || v > INT32_MAX)
		return dflt;
	return (int)v;
}

/* Lowest CPU of the list in file @what of @cpu, or -1 when missing. */
static int first_of_list(const char *root, int cpu, const char *what)
{
	char rel[128], buf[4096];
	struct pmc_cpus s;
	int n;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/%s", cpu, what);
	n = pmc_read_file(root, rel, buf, sizeof(buf));
	if (n <= 0 || pmc_cpus_parse(buf, (size_t)n, &s))
		return -1;
	return pmc_cpus_next(&s, 0);
}

/* Number the distinct values of @key (per CPU) in CPU order into @idx; returns count. */
static int number_units(const struct pmc_topo *t, const int *key, int *idx)
{
	int n = 0;

	for (int c = pmc_cpus_next(&t->online, 0); c >= 0; c = pmc_cpus_next(&t->online, c + 1)) {
		int found = -1;

		for (int d = pmc_cpus_next(&t->online, 0); d >= 0 && d < c;
		     d = pmc_cpus_next(&t->online, d + 1))
			if (key[d] == key[c]) {
				found = idx[d];
				break;
			}
		idx[c] = found >= 0 ? found : n++;
	}
	return n;
}

static void fill_cpu(struct pmc_topo *t, const char *root, int c)
{
	int core_id = read_int(root, c, "topology/core_id", c);

	t->package[c] = read_int(root, c, "topology/physical_package_id", 0);
	t->ccx_first[c] = first_of_list(root, c, "cache/index3/shared_cpu_list");
	t->core_first[c] = first_of_list(root, c, "topology/thread_siblings_list");
	if (t->core_first[c] < 0) /* no siblings list: the core id within the package */
		t->core_first[c] = -1 - (t->package[c] * 65536 + core_id);
}

static int fill_places(struct pmc_topo *t, const char *root)
{
	int c, *pkg_first;

	for (c = pmc_cpus_next(&t->online, 0); c >= 0; c = pmc_cpus_next(&t->online, c + 1))
		fill_cpu(t, root, c);
	pkg_first = calloc((size_t)t->ncpu, sizeof(int));
	if (!pkg_first)
		return -ENOMEM;
	t->npackages = number_units(t, t->package, pkg_first);
	for (c = pmc_cpus_next(&t->online, 0); c >= 0; c = pmc_cpus_next(&t->online, c + 1))
		if (t->ccx_first[c] < 0) /* no L3 information: one CCX per package */
			t->ccx_first[c] = -1 - pkg_first[c];
	free(pkg_first);
	t->nccx = number_units(t, t->ccx_first, t->ccx_idx);
	t->ncores = number_units(t, t->core_first, t->core_idx);
	return 0;
}

int pmc_topo_load(struct pmc_topo **out)
{
	const char *root = pmc_sysfs_root();
	struct pmc_topo *t = calloc(1, sizeof(*t));
	char buf[4096];
	size_t n;
	int ret, len;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	len = pmc_read_file(root, "devices/system/cpu/online", buf, sizeof(buf));
	ret = len < 0 ? len : pmc_cpus_parse(buf, (size_t)len, &t->online);
	if (!ret && !pmc_cpus_count(&t->online))
		ret = -ENOENT;
	if (ret)
		goto out;
	for (int c = pmc_cpus_next(&t->online, 0); c >= 0; c = pmc_cpus_next(&t->online, c + 1))
		t->ncpu = c + 1;
	n = (size_t)t->ncpu;
	t->package = calloc(n, sizeof(int));
	t->ccx_first = calloc(n, sizeof(int));
	t->core_first = calloc(n, sizeof(int));
	t->ccx_idx = calloc(n, sizeof(int));
	t->core_idx = calloc(n, sizeof(int));
	ret = (t->package && t->ccx_first && t->core_first && t->ccx_idx && t->core_idx)
		      ? fill_places(t, root)
		      : -ENOMEM;
out:
	if (ret)
		pmc_topo_free(t);
	else
		*out = t;
	return ret;
}

const struct pmc_cpus *pmc_topo_online(const struct pmc_topo *t)
{
	return &t->online;
}

int pmc_topo_place(const struct pmc_topo *t, int cpu, struct pmc_cpu_place *out)
{
	if (!pmc_cpus_has(&t->online, cpu))
		return -ENOENT;
	out->package = t->package[cpu];
	out->ccx = t->ccx_idx[cpu];
	out->core = t->core_idx[cpu];
	return 0;
}

int pmc_topo_packages(const struct pmc_topo *t)
{
	return t->npackages;
}

int pmc_topo_ccxs(const struct pmc_topo *t)
{
	return t->nccx;
}

int pmc_topo_cores(const struct pmc_topo *t)
{
	return t->ncores;
}

int pmc_topo_units(const struct pmc_topo *t, enum pmc_level level)
{
	switch (level) {
	case PMC_LEVEL_SYSTEM:
		return 1;
	case PMC_LEVEL_PACKAGE:
		return t->npackages;
	case PMC_LEVEL_CCX:
		return t->nccx;
	case PMC_LEVEL_CORE:
		return t->ncores;
	case PMC_LEVEL_CPU:
		return pmc_cpus_count(&t->online);
	}
	return 0;
}

static bool in_unit(const struct pmc_topo *t, enum pmc_level level, int idx, int c)
{
	switch (level) {
	case PMC_LEVEL_SYSTEM:
		return true;
	case PMC_LEVEL_PACKAGE:
		return t->package[c] == idx;
	case PMC_LEVEL_CCX:
		return t->ccx_idx[c] == idx;
	case PMC_LEVEL_CORE:
		return t->core_idx[c] == idx;
	case PMC_LEVEL_CPU:
		return c == idx;
	}
	return false;
}

int pmc_topo_unit(const struct pmc_topo *t, enum pmc_level level, int idx, struct pmc_cpus *out)
{
	pmc_cpus_clear(out);
	for (int c = pmc_cpus_next(&t->online, 0); c >= 0; c = pmc_cpus_next(&t->online, c + 1))
		if (in_unit(t, level, idx, c))
			pmc_cpus_set(out, c);
	return pmc_cpus_count(out) ? 0 : -ENOENT;
}

/* ---- /proc/cpuinfo ---- */

static void cpuid_field(struct pmc_cpuid *id, const char *key, const char *val)
{
	if (!strcmp(key, "vendor_id"))
		snprintf(id->vendor, sizeof(id->vendor), "%s", val);
	else if (!strcmp(key, "model name"))
		snprintf(id->model_name, sizeof(id->model_name), "%s", val);
	else if (!strcmp(key, "cpu family"))
		id->family = atoi(val);
	else if (!strcmp(key, "model"))
		id->model = atoi(val);
	else if (!strcmp(key, "stepping"))
		id->stepping = atoi(val);
	else if (!strcmp(key, "cpu MHz"))
		id->mhz = strtod(val, NULL);
	else if (!strcmp(key, "flags"))
		id->hypervisor = strstr(val, " hypervisor") || !strncmp(val, "hypervisor", 10);
}

int pmc_cpuid_read(struct pmc_cpuid *id)
{
	char path[4096], line[4096];
	FILE *f;

	memset(id, 0, sizeof(*id));
	id->family = id->model = id->stepping = -1;
	snprintf(path, sizeof(path), "%s/cpuinfo", pmc_procfs_root());
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *key_end;

		if (line[0] == '\n')
			break; /* end of the first processor */
		if (!colon)
			continue;
		key_end = colon;
		while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t'))
			key_end--;
		*key_end = 0;
		colon++;
		colon += *colon == ' ';
		colon[strcspn(colon, "\n")] = 0;
		cpuid_field(id, line, colon);
	}
	fclose(f);
	return 0;
}

double pmc_cpu_nominal_mhz(void)
{
	static const char *const files[] = {
		"devices/system/cpu/cpu0/cpufreq/base_frequency",
		"devices/system/cpu/cpu0/cpufreq/amd_pstate_nominal_freq"
	};
	struct pmc_cpuid id;
	char buf[64];
	uint64_t khz;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (pmc_read_file(pmc_sysfs_root(), files[i], buf, sizeof(buf)) > 0 &&
		    !pmc_parse_u64(buf, strlen(buf), &khz) && khz)
			return (double)khz / 1000.0;
	if (!pmc_cpuid_read(&id) && id.mhz > 0)
		return id.mhz;
	return 0;
}

int pmc_procstat_idle(uint64_t *idle_ns, int max)
{
	long tick = sysconf(_SC_CLK_TCK);
	char path[4096], line[1024];
	int top = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stat", pmc_procfs_root());
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (tick <= 0)
		tick = 100;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[5] = { 0 };
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4]) != 6 ||
		    cpu < 0)
			continue;
		if (cpu < max)
			idle_ns[cpu] = (v[3] + v[4]) * (1000000000ULL / (unsigned long long)tick);
		if (cpu + 1 > top)
			top = cpu + 1;
	}
	fclose(f);
	return top;
}
