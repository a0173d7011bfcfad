// SPDX-License-Identifier: MIT
/* PMU discovery: <sysfs>/bus/event_source/devices/<pmu>/{type,cpumask,format/,events/}. */
#include "pmc/internal.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEVICES "bus/event_source/devices"
#define MAX_FORMATS 32
#define MAX_ALIASES 256

struct pmc_alias {
	char name[64];
	char value[128];
};

struct pmc_pmu {
	char name[64];
	uint32_t type;
	bool has_cpumask;
	struct pmc_cpus cpumask;
	int counters;
	int nformats, naliases;
	struct pmc_format formats[MAX_FORMATS];
	struct pmc_alias *aliases;
};

struct pmc_pmus {
	size_t n;
	struct pmc_pmu *v;
};

/* ---- format files ---- */

static int format_range(const char *s, size_t len, size_t *i, uint8_t word, struct pmc_format *f)
{
	uint64_t lo, hi;
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9')
		(*i)++;
	if (pmc_parse_u64(s + start, *i - start, &lo) || lo > 63)
		return -EINVAL;
	hi = lo;
	if (*i < len && s[*i] == '-') {
		start = ++(*i);
		while (*i < len && s[*i] >= '0' && s[*i] <= '9')
			(*i)++;
		if (pmc_parse_u64(s + start, *i - start, &hi) || hi > 63 || hi < lo)
			return -EINVAL;
	}
	if (f->nranges == PMC_FMT_MAX_RANGES)
		return -EINVAL;
	f->r[f->nranges].word = word;
	f->r[f->nranges].lo = (uint8_t)lo;
	f->r[f->nranges].hi = (uint8_t)hi;
	f->nranges++;
	return 0;
}

int pmc_format_parse(const char *s, size_t len, struct pmc_format *f)
{
	uint8_t word;
	size_t i;

	f->nranges = 0;
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	if (len > 7 && !memcmp(s, "config1:", 8)) {
		word = 1, i = 8;
	} else if (len > 7 && !memcmp(s, "config2:", 8)) {
		word = 2, i = 8;
	} else if (len > 6 && !memcmp(s, "config:", 7)) {
		word = 0, i = 7;
	} else {
		return -EINVAL;
	}
	for (;;) {
		if (format_range(s, len, &i, word, f))
			return -EINVAL;
		if (i == len)
			return 0;
		if (s[i++] != ',')
			return -EINVAL;
	}
}

int pmc_format_apply(const struct pmc_format *f, uint64_t value, struct perf_event_attr *attr)
{
	__u64 *words[3] = { &attr->config, &attr->config1, &attr->config2 };
	unsigned shift = 0;

	for (int i = 0; i < f->nranges; i++) {
		unsigned width = f->r[i].hi - f->r[i].lo + 1;
		uint64_t mask = width == 64 ? ~0ULL : (1ULL << width) - 1;
		uint64_t part = shift >= 64 ? 0 : (value >> shift) & mask;

		*words[f->r[i].word] &= ~(mask << f->r[i].lo);
		*words[f->r[i].word] |= part << f->r[i].lo;
		shift += width;
	}
	if (shift < 64 && (value >> shift))
		return -ERANGE;
	return 0;
}

/* ---- one PMU directory ---- */

static void load_formats(struct pmc_pmu *u, const char *dir)
{
	char path[PATH_MAX], buf[256];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/format", dir);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) && u->nformats < MAX_FORMATS) {
		struct pmc_format *f = &u->formats[u->nformats];
		int n;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(f->name))
			continue;
		snprintf(path, sizeof(path), "%s/format/%s", dir, e->d_name);
		n = pmc_read_path(path, buf, sizeof(buf));
		if (n <= 0 || pmc_format_parse(buf, (size_t)n, f))
			continue;
		snprintf(f->name, sizeof(f->name), "%s", e->d_name);
		u->nformats++;
	}
	closedir(d);
}

static bool alias_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	if (name[0] == '.' || strlen(name) >= 64)
		return false;
	return !dot || (strcmp(dot, ".scale") && strcmp(dot, ".unit") && strcmp(dot, ".per-pkg") &&
			strcmp(dot, ".snapshot"));
}

static int load_aliases(struct pmc_pmu *u, const char *dir)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/events", dir);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && u->naliases < MAX_ALIASES) {
		struct pmc_alias *a;

		if (!alias_file(e->d_name))
			continue;
		if (!u->aliases) {
			u->aliases = calloc(MAX_ALIASES, sizeof(*u->aliases));
			if (!u->aliases) {
				closedir(d);
				return -ENOMEM;
			}
		}
		a = &u->aliases[u->naliases];
		snprintf(path, sizeof(path), "%s/events/%s", dir, e->d_name);
		if (pmc_read_path(path, a->value, sizeof(a->value)) <= 0)
			continue;
		snprintf(a->name, sizeof(a->name), "%s", e->d_name);
		u->naliases++;
	}
	closedir(d);
	return 0;
}

/* Counters per CPU / domain, by PMU name (sysfs does not say). */
static int known_counters(const char *name)
{
	char buf[16];
	int n;

	if (!strcmp(name, "cpu")) {
		n = 6; /* every Zen core */
		if (pmc_read_file(pmc_procfs_root(), "sys/kernel/nmi_watchdog", buf, sizeof(buf)) >
			    0 &&
		    buf[0] == '1')
			n--; /* the NMI watchdog holds one core counter */
		return n;
	}
	if (!strcmp(name, "amd_l3"))
		return 6;
	if (!strcmp(name, "amd_df") || !strncmp(name, "amd_umc", 7) || !strcmp(name, "amd_l2"))
		return 4;
	return 0;
}

static int load_pmu(struct pmc_pmu *u, const char *root, const char *name)
{
	char dir[PATH_MAX], buf[4096];
	uint64_t type;
	int n;

	if (snprintf(dir, sizeof(dir), "%s/" DEVICES "/%s", root, name) >= (int)sizeof(dir) ||
	    strlen(name) >= sizeof(u->name))
		return -ENAMETOOLONG;
	n = pmc_read_file(dir, "type", buf, sizeof(buf));
	if (n <= 0 || pmc_parse_u64(buf, (size_t)n, &type) || type > UINT32_MAX)
		return -EINVAL;
	snprintf(u->name, sizeof(u->name), "%s", name);
	u->type = (uint32_t)type;
	n = pmc_read_file(dir, "cpumask", buf, sizeof(buf));
	u->has_cpumask = n >= 0 && !pmc_cpus_parse(buf, (size_t)n, &u->cpumask);
	u->counters = known_counters(name);
	load_formats(u, dir);
	return load_aliases(u, dir);
}

static int cmp_pmu(const void *a, const void *b)
{
	return strcmp(((const struct pmc_pmu *)a)->name, ((const struct pmc_pmu *)b)->name);
}

static int add_pmu(struct pmc_pmus *p, const char *root, const char *name, size_t *cap)
{
	int ret;

	if (p->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct pmc_pmu *v = realloc(p->v, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->v = v;
		*cap = ncap;
	}
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	ret = load_pmu(&p->v[p->n], root, name);
	if (ret == -ENOMEM) {
		free(p->v[p->n].aliases);
		return ret;
	}
	if (ret) {
		free(p->v[p->n].aliases);
		return 0; /* unreadable PMU: skip it */
	}
	p->n++;
	return 0;
}

int pmc_pmus_load(struct pmc_pmus **out)
{
	const char *root = pmc_sysfs_root();
	struct pmc_pmus *p = calloc(1, sizeof(*p));
	char path[PATH_MAX];
	struct dirent *e;
	size_t cap = 0;
	int ret = 0;
	DIR *d;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/" DEVICES, root);
	d = opendir(path);
	while (d && (e = readdir(d)) && !ret)
		if (e->d_name[0] != '.')
			ret = add_pmu(p, root, e->d_name, &cap);
	if (d)
		closedir(d);
	if (ret) {
		pmc_pmus_free(p);
		return ret;
	}
	if (p->n)
		util_qsort(p->v, p->n, sizeof(*p->v), cmp_pmu);
	*out = p;
	return 0;
}

void pmc_pmus_free(struct pmc_pmus *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i].aliases);
	free(p->v);
	free(p);
}

const struct pmc_pmu *pmc_pmus_find(const struct pmc_pmus *p, const char *name)
{
	for (size_t i = 0; p && i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}

size_t pmc_pmus_count(const struct pmc_pmus *p)
{
	return p ? p->n : 0;
}

const struct pmc_pmu *pmc_pmus_at(const struct pmc_pmus *p, size_t i)
{
	return p && i < p->n ? &p->v[i] : NULL;
}

const char *pmc_pmu_name(const struct pmc_pmu *u)
{
	return u->name;
}

uint32_t pmc_pmu_type(const struct pmc_pmu *u)
{
	return u->type;
}

enum pmc_pmu_scope pmc_pmu_scope(const struct pmc_pmu *u)
{
	if (!u->has_cpumask || !strcmp(u->name, "cpu"))
		return PMC_SCOPE_CPU;
	if (!strcmp(u->name, "amd_l3"))
		return PMC_SCOPE_CCX;
	return PMC_SCOPE_PACKAGE;
}

const struct pmc_cpus *pmc_pmu_cpumask(const struct pmc_pmu *u)
{
	return u->has_cpumask ? &u->cpumask : NULL;
}

int pmc_pmu_counters(const struct pmc_pmu *u)
{
	return u->counters;
}

const char *pmc_pmu_alias(const struct pmc_pmu *u, const char *name)
{
	for (int i = 0; i < u->naliases; i++)
		if (!strcmp(u->aliases[i].name, name))
			return u->aliases[i].value;
	return NULL;
}

const struct pmc_format *pmc_pmu_format(const struct pmc_pmu *u, const char *name)
{
	for (int i = 0; u && i < u->nformats; i++)
		if (!strcmp(u->formats[i].name, name))
			return &u->formats[i];
	return NULL;
}

int pmc_pmu_set_mux_interval(const struct pmc_pmu *u, unsigned ms, struct pmc_mux_saved *saved)
{
	char path[PATH_MAX], buf[32];
	ssize_t got;
	int fd, n, ret = 0;

	saved->fd = -1;
	snprintf(path, sizeof(path), "%s/" DEVICES "/%s/perf_event_mux_interval_ms",
		 pmc_sysfs_root(), u->name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the old value first: a setting we could not put back is not changed at all */
	got = pread(fd, saved->value, sizeof(saved->value) - 1, 0);
	if (got <= 0 || !memchr(saved->value, '\n', (size_t)got)) {
		ret = got < 0 ? -errno : -EIO;
		goto out;
	}
	saved->len = (int)got;
	n = snprintf(buf, sizeof(buf), "%u\n", ms);
	if (pwrite(fd, buf, (size_t)n, 0) != n) {
		ret = errno ? -errno : -EIO;
		goto out;
	}
	saved->fd = fd;
	fd = -1;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

int pmc_mux_put_back(const struct pmc_mux_saved *saved)
{
	if (saved->fd < 0)
		return 0;
	return pwrite(saved->fd, saved->value, (size_t)saved->len, 0) == saved->len
		       ? 0
		       : (errno ? -errno : -EIO);
}

int pmc_mux_restore(struct pmc_mux_saved *saved)
{
	int ret = pmc_mux_put_back(saved);

	if (saved->fd >= 0)
		close(saved->fd);
	saved->fd = -1;
	return ret;
}
