// SPDX-License-Identifier: MIT
/* CPU sets, kernel CPU lists, the sysfs/procfs roots and small file helpers. */
#include "pmc/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *pmc_sysfs_root(void)
{
	const char *r = getenv("UPROF_SYSFS_ROOT");

	return r && *r ? r : "/sys";
}

const char *pmc_procfs_root(void)
{
	const char *r = getenv("UPROF_PROCFS_ROOT");

	return r && *r ? r : "/proc";
}

int pmc_read_path(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, ret;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		n--;
	buf[n] = 0;
	return (int)n;
}

int pmc_read_file(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, rel) >= sizeof(path))
		return -ENAMETOOLONG;
	return pmc_read_path(path, buf, len);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int pmc_parse_u64(const char *s, size_t len, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i >= len)
		return -EINVAL;
	for (; i < len; i++) {
		int d = hexval(s[i]);

		if (d < 0 || (unsigned)d >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -ERANGE;
		v = v * base + (uint64_t)d;
	}
	*out = v;
	return 0;
}

void pmc_cpus_clear(struct pmc_cpus *s)
{
	memset(s, 0, sizeof(*s));
}

void pmc_cpus_set(struct pmc_cpus *s, int cpu)
{
	if (cpu >= 0 && cpu < PMC_MAX_CPUS)
		s->bits[cpu / 64] |= 1ULL << (cpu % 64);
}

bool pmc_cpus_has(const struct pmc_cpus *s, int cpu)
{
	return cpu >= 0 && cpu < PMC_MAX_CPUS && (s->bits[cpu / 64] >> (cpu % 64)) & 1;
}

int pmc_cpus_count(const struct pmc_cpus *s)
{
	int n = 0;

	for (size_t i = 0; i < PMC_MAX_CPUS / 64; i++)
		n += __builtin_popcountll(s->bits[i]);
	return n;
}

int pmc_cpus_next(const struct pmc_cpus *s, int from)
{
	if (from < 0)
		from = 0;
	for (int c = from; c < PMC_MAX_CPUS; c++) {
		uint64_t w = s->bits[c / 64] >> (c % 64);

		if (w)
			return c + __builtin_ctzll(w);
		c |= 63; /* skip the rest of an empty word */
	}
	return -1;
}

/* One decimal CPU number at s[*i]. */
static int cpu_number(const char *s, size_t len, size_t *i, int *out)
{
	long v = 0;
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
		v = v * 10 + (s[*i] - '0');
		if (v >= PMC_MAX_CPUS)
			return -ERANGE;
		(*i)++;
	}
	if (*i == start)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int pmc_cpus_parse(const char *s, size_t len, struct pmc_cpus *out)
{
	struct pmc_cpus set;
	size_t i = 0;
	int ret = 0;

	pmc_cpus_clear(&set);
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	while (i < len && !ret) {
		int a, b;

		ret = cpu_number(s, len, &i, &a);
		if (ret)
			break;
		b = a;
		if (i < len && s[i] == '-') {
			i++;
			ret = cpu_number(s, len, &i, &b);
			if (!ret && b < a)
				ret = -EINVAL;
		}
		for (int c = a; !ret && c <= b; c++)
			pmc_cpus_set(&set, c);
		if (!ret && i < len && s[i++] != ',')
			ret = -EINVAL;
		if (!ret && i == len && s[len - 1] == ',')
			ret = -EINVAL;
	}
	if (!ret)
		*out = set;
	return ret;
}

int pmc_cpus_format(const struct pmc_cpus *s, char *buf, size_t len)
{
	size_t used = 0;
	int c = pmc_cpus_next(s, 0);

	if (len)
		buf[0] = 0;
	while (c >= 0) {
		int end = c;
		int n;

		while (pmc_cpus_has(s, end + 1))
			end++;
		n = end > c ? snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
				       "%s%d-%d", used ? "," : "", c, end)
			    : snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
				       "%s%d", used ? "," : "", c);
		used += (size_t)n;
		c = pmc_cpus_next(s, end + 1);
	}
	return (int)used;
}
