// SPDX-License-Identifier: MIT
/*
 * lib/pmc against a fake machine (tests/fixtures/sysfs and procfs, through
 * UPROF_SYSFS_ROOT / UPROF_PROCFS_ROOT): PMU discovery, format fields, CPU lists,
 * topology, uncore encodings, the evlist plan; opening, enabling and reading through the
 * kernel seam replaced with -Wl,--wrap (failures unwind); and a live count of software
 * events on this process (no PMU needed).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/internal.h"

static struct pmc_pmus *pmus;
static struct pmc_topo *topo;
static char fix[PATH_MAX];

/* ---- the kernel seam, replaced ---- */

static int fake_next_fd = 100, fake_fail_at = -1, fake_opened, fake_closed, fake_enabled;
static int fake_group_fd[64];
static bool fake = true; /* false: pass through to the kernel (the live test) */

int __real_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
				   int group_fd, unsigned long flags);
int __real_pmc_sys_ioctl(int fd, unsigned long req, unsigned long arg);
ssize_t __real_pmc_sys_read(int fd, void *buf, size_t len);
void __real_pmc_sys_close(int fd);

int __wrap_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				   unsigned long flags);
int __wrap_pmc_sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				   unsigned long flags)
{
	if (!fake)
		return __real_pmc_sys_perf_event_open(attr, pid, cpu, group_fd, flags);
	(void)attr, (void)pid, (void)cpu, (void)flags;
	if (fake_opened == fake_fail_at)
		return -EACCES;
	fake_group_fd[fake_opened % 64] = group_fd;
	fake_opened++;
	return fake_next_fd++;
}

int __wrap_pmc_sys_ioctl(int fd, unsigned long req, unsigned long arg);
int __wrap_pmc_sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (!fake)
		return __real_pmc_sys_ioctl(fd, req, arg);
	(void)fd, (void)arg;
	if (req == PERF_EVENT_IOC_ENABLE)
		fake_enabled++;
	return 0;
}

ssize_t __wrap_pmc_sys_read(int fd, void *buf, size_t len);
ssize_t __wrap_pmc_sys_read(int fd, void *buf, size_t len)
{
	uint64_t v[3] = { (uint64_t)fd * 10, 2000, 1000 };

	if (!fake)
		return __real_pmc_sys_read(fd, buf, len);
	memcpy(buf, v, len < sizeof(v) ? len : sizeof(v));
	return len < sizeof(v) ? (ssize_t)len : (ssize_t)sizeof(v);
}

void __wrap_pmc_sys_close(int fd);
void __wrap_pmc_sys_close(int fd)
{
	if (!fake)
		return __real_pmc_sys_close(fd);
	if (fd >= 100)
		fake_closed++;
}

static void fake_reset(void)
{
	fake_next_fd = 100;
	fake_fail_at = -1;
	fake_opened = fake_closed = fake_enabled = 0;
}

/* ---- PMUs ---- */

static void test_pmus(void **state)
{
	const struct pmc_pmu *cpu = pmc_pmus_find(pmus, "cpu"), *l3 = pmc_pmus_find(pmus, "amd_l3");
	const struct pmc_pmu *df = pmc_pmus_find(pmus, "amd_df"), *msr = pmc_pmus_find(pmus, "msr");
	char buf[64];

	(void)state;
	assert_int_equal(pmc_pmus_count(pmus), 5);
	assert_string_equal(pmc_pmu_name(pmc_pmus_at(pmus, 0)), "amd_df"); /* name order */
	assert_null(pmc_pmus_at(pmus, 5));
	assert_null(pmc_pmus_find(pmus, "ibs_op"));
	assert_non_null(cpu);
	assert_int_equal(pmc_pmu_type(cpu), 4);
	assert_int_equal(pmc_pmu_type(l3), 11);
	assert_int_equal(pmc_pmu_type(df), 12);
	assert_int_equal(pmc_pmu_counters(cpu), 6);
	assert_int_equal(pmc_pmu_counters(l3), 6);
	assert_int_equal(pmc_pmu_counters(df), 4);
	assert_int_equal(pmc_pmu_counters(msr), 0);
	assert_int_equal(pmc_pmu_scope(cpu), PMC_SCOPE_CPU);
	assert_int_equal(pmc_pmu_scope(l3), PMC_SCOPE_CCX);
	assert_int_equal(pmc_pmu_scope(df), PMC_SCOPE_PACKAGE);
	assert_int_equal(pmc_pmu_scope(msr), PMC_SCOPE_CPU);
	assert_null(pmc_pmu_cpumask(cpu));
	pmc_cpus_format(pmc_pmu_cpumask(l3), buf, sizeof(buf));
	assert_string_equal(buf, "0,4,8,12");
	pmc_cpus_format(pmc_pmu_cpumask(df), buf, sizeof(buf));
	assert_string_equal(buf, "0,8");
	assert_string_equal(pmc_pmu_alias(l3, "l3_accesses"), "event=0x04,umask=0xff");
	assert_null(pmc_pmu_alias(l3, "nope"));
	assert_non_null(pmc_pmu_format(l3, "threadmask"));
}

static void test_nmi_watchdog_takes_a_counter(void **state)
{
	char procfs[PATH_MAX], cmd[PATH_MAX * 2 + 64];
	struct pmc_pmus *p;

	(void)state;
	snprintf(procfs, sizeof(procfs), "/tmp/uprof-test-procfs.%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/kernel && echo 1 > %s/sys/kernel/nmi_watchdog",
		 procfs, procfs);
	assert_int_equal(system(cmd), 0);
	setenv("UPROF_PROCFS_ROOT", procfs, 1);
	assert_int_equal(pmc_pmus_load(&p), 0);
	assert_int_equal(pmc_pmu_counters(pmc_pmus_find(p, "cpu")), 5);
	pmc_pmus_free(p);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", procfs);
	assert_int_equal(system(cmd), 0);
	snprintf(procfs, sizeof(procfs), "%s/procfs", fix);
	setenv("UPROF_PROCFS_ROOT", procfs, 1);
}

static void test_missing_root_is_empty(void **state)
{
	struct pmc_pmus *p;

	(void)state;
	setenv("UPROF_SYSFS_ROOT", "/nonexistent/uprof", 1);
	assert_int_equal(pmc_pmus_load(&p), 0);
	assert_int_equal(pmc_pmus_count(p), 0);
	assert_null(pmc_pmus_find(p, "cpu"));
	pmc_pmus_free(p);
	pmc_pmus_free(NULL);
	{
		char sysfs[PATH_MAX];

		snprintf(sysfs, sizeof(sysfs), "%s/sysfs", fix);
		setenv("UPROF_SYSFS_ROOT", sysfs, 1);
	}
}

static void test_format_fields(void **state)
{
	struct perf_event_attr a;
	struct pmc_format f;

	(void)state;
	assert_int_equal(pmc_format_parse("config:0-7,32-35\n", 17, &f), 0);
	assert_int_equal(f.nranges, 2);
	memset(&a, 0, sizeof(a));
	assert_int_equal(pmc_format_apply(&f, 0x1c7, &a), 0);
	assert_int_equal(a.config, 0x1000000c7ULL);
	assert_int_equal(pmc_format_apply(&f, 0x1000, &a), -ERANGE); /* 12 bits only */
	assert_int_equal(pmc_format_parse("config2:56-63", 13, &f), 0);
	assert_int_equal(pmc_format_apply(&f, 0xff, &a), 0);
	assert_int_equal(a.config2, 0xff00000000000000ULL);
	assert_int_equal(pmc_format_parse("config1:3", 9, &f), 0);
	assert_int_equal(pmc_format_apply(&f, 1, &a), 0);
	assert_int_equal(a.config1, 8);
	assert_int_equal(pmc_format_parse("config:0-63", 11, &f), 0);
	assert_int_equal(pmc_format_apply(&f, ~0ULL, &a), 0);
	assert_int_equal(a.config, ~0ULL);
	assert_int_equal(pmc_format_parse("config:8-3", 10, &f), -EINVAL);
	assert_int_equal(pmc_format_parse("config:64", 9, &f), -EINVAL);
	assert_int_equal(pmc_format_parse("config3:1", 9, &f), -EINVAL);
	assert_int_equal(pmc_format_parse("config:1,", 9, &f), -EINVAL);
	assert_int_equal(pmc_format_parse("config:1,2,3,4,5", 16, &f), -EINVAL);
}

static void test_cpulists(void **state)
{
	struct pmc_cpus s;
	char buf[64];

	(void)state;
	assert_int_equal(pmc_cpus_parse("0-3,8,10-11\n", 12, &s), 0);
	assert_int_equal(pmc_cpus_count(&s), 7);
	pmc_cpus_format(&s, buf, sizeof(buf));
	assert_string_equal(buf, "0-3,8,10-11");
	assert_int_equal(pmc_cpus_next(&s, 4), 8);
	assert_int_equal(pmc_cpus_next(&s, 12), -1);
	assert_int_equal(pmc_cpus_parse("", 0, &s), 0);
	assert_int_equal(pmc_cpus_count(&s), 0);
	assert_int_equal(pmc_cpus_parse("4095", 4, &s), 0); /* PMC_MAX_CPUS - 1 */
	assert_true(pmc_cpus_has(&s, 4095));
	assert_int_equal(pmc_cpus_next(&s, 0), 4095);
	assert_int_equal(pmc_cpus_parse("4096", 4, &s), -ERANGE);
	assert_int_equal(pmc_cpus_parse("3-1", 3, &s), -EINVAL);
	assert_int_equal(pmc_cpus_parse("1,", 2, &s), -EINVAL);
	assert_int_equal(pmc_cpus_parse("a", 1, &s), -EINVAL);
	assert_int_equal(pmc_cpus_parse("1-", 2, &s), -EINVAL);
	assert_int_equal(pmc_cpus_format(&s, buf, 2), 4); /* failures leave s alone: "4095" */
	assert_string_equal(buf, "4");
}

static void test_topology(void **state)
{
	struct pmc_cpu_place pl;
	struct pmc_cpus u;
	char buf[64];

	(void)state;
	assert_int_equal(pmc_cpus_count(pmc_topo_online(topo)), 16);
	assert_int_equal(pmc_topo_packages(topo), 2);
	assert_int_equal(pmc_topo_ccxs(topo), 4);
	assert_int_equal(pmc_topo_cores(topo), 8);
	assert_int_equal(pmc_topo_units(topo, PMC_LEVEL_SYSTEM), 1);
	assert_int_equal(pmc_topo_units(topo, PMC_LEVEL_CPU), 16);
	assert_int_equal(pmc_topo_place(topo, 13, &pl), 0);
	assert_int_equal(pl.package, 1);
	assert_int_equal(pl.ccx, 3);
	assert_int_equal(pl.core, 6);
	assert_int_equal(pmc_topo_place(topo, 16, &pl), -ENOENT);
	assert_int_equal(pmc_topo_unit(topo, PMC_LEVEL_CCX, 2, &u), 0);
	pmc_cpus_format(&u, buf, sizeof(buf));
	assert_string_equal(buf, "8-11");
	assert_int_equal(pmc_topo_unit(topo, PMC_LEVEL_PACKAGE, 0, &u), 0);
	pmc_cpus_format(&u, buf, sizeof(buf));
	assert_string_equal(buf, "0-7");
	assert_int_equal(pmc_topo_unit(topo, PMC_LEVEL_CORE, 7, &u), 0);
	pmc_cpus_format(&u, buf, sizeof(buf));
	assert_string_equal(buf, "14-15");
	assert_int_equal(pmc_topo_unit(topo, PMC_LEVEL_CCX, 4, &u), -ENOENT);
}

static void test_cpuid_and_frequency(void **state)
{
	struct pmc_cpuid id;

	(void)state;
	assert_int_equal(pmc_cpuid_read(&id), 0);
	assert_string_equal(id.vendor, "AuthenticAMD");
	assert_int_equal(id.family, 25);
	assert_int_equal(id.model, 1);
	assert_int_equal(id.stepping, 1);
	assert_false(id.hypervisor);
	assert_string_equal(id.model_name, "AMD EPYC 7713 64-Core Processor");
	assert_true(pmc_cpu_nominal_mhz() == 2000.0);
}

static void test_procstat(void **state)
{
	char procfs[PATH_MAX], path[PATH_MAX + 16];
	uint64_t idle[4] = { 7, 7, 7, 7 };
	long tick = sysconf(_SC_CLK_TCK);
	FILE *f;

	(void)state;
	snprintf(procfs, sizeof(procfs), "/tmp/uprof-test-stat.%d", (int)getpid());
	mkdir(procfs, 0700);
	snprintf(path, sizeof(path), "%s/stat", procfs);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("cpu  10 0 10 300 20 0 0 0 0 0\ncpu0 5 0 5 100 10 0 0 0 0 0\n"
	      "cpu2 5 0 5 200 10 0 0 0 0 0\nintr 1 2 3\n", f);
	fclose(f);
	setenv("UPROF_PROCFS_ROOT", procfs, 1);
	assert_int_equal(pmc_procstat_idle(idle, 4), 3);
	assert_true(idle[0] == 110ULL * (1000000000ULL / (unsigned long long)tick));
	assert_true(idle[1] == 7); /* no line: untouched */
	assert_true(idle[2] == 210ULL * (1000000000ULL / (unsigned long long)tick));
	unlink(path);
	rmdir(procfs);
	assert_int_equal(pmc_procstat_idle(idle, 4), -ENOENT);
	snprintf(procfs, sizeof(procfs), "%s/procfs", fix);
	setenv("UPROF_PROCFS_ROOT", procfs, 1);
}

/* ---- uncore encodings on the fake machine ---- */

static void expect_enc(const char *spec, int ret, uint32_t type, uint64_t config, uint64_t config2)
{
	struct pmc_event ev;
	char err[256];
	int got = pmc_event_parse(spec, strlen(spec), pmus, &ev, err, sizeof(err));

	if (got != ret)
		fail_msg("'%s': %d, expected %d (%s)", spec, got, ret, err);
	if (!ret && (ev.attr.type != type || ev.attr.config != config || ev.attr.config2 != config2))
		fail_msg("'%s': type %u config %#llx config2 %#llx", spec, ev.attr.type,
			 (unsigned long long)ev.attr.config, (unsigned long long)ev.attr.config2);
}

static void test_uncore_encodings(void **state)
{
	(void)state;
	expect_enc("amd_l3/event=0x04,umask=0xff/", 0, 11, 0xff04, 0);
	expect_enc("amd_l3/l3_accesses/", 0, 11, 0xff04, 0);
	/* family 19h's amd_l3 format (the kernel's): threadmask config:56-57, enallcores
	 * config:47, all in config */
	expect_enc("amd_l3/event=0x9a,umask=0x3f,threadmask=0x3,enallcores/", 0, 11,
		   0x0300800000003f9aULL, 0);
	expect_enc("amd_l3/event=0x9a,threadmask=0x4/", -EINVAL, 0, 0, 0); /* 2 bits */
	expect_enc("amd_df/event=0x1c7,umask=0x38/", 0, 12, 0x1000038c7ULL, 0);
	expect_enc("event=0x107,umask=0x38,pmu=amd_df", 0, 12, 0x100003807ULL, 0);
	expect_enc("pmu=amd_df,event=pmcx47,umask=56", 0, 12, 0x3847, 0);
	expect_enc("pmu=amd_l3,event=l3_accesses", 0, 11, 0xff04, 0);
	expect_enc("msr/aperf/", 0, 13, 0x1, 0);
	expect_enc("cpu/event=0x76/", 0, 4, 0x76, 0);
	expect_enc("RETIRED_INST", 0, 4, 0xc0, 0); /* the cpu PMU's type from sysfs */
	expect_enc("amd_df/event=0x1000/", -EINVAL, 0, 0, 0); /* 12 bits */
	expect_enc("amd_l3/nope/", -ENOENT, 0, 0, 0);
	expect_enc("amd_l3/event=x/", -EINVAL, 0, 0, 0);
	expect_enc("amd_l3/event=0x4", -EINVAL, 0, 0, 0);
	expect_enc("amd_l3//", -EINVAL, 0, 0, 0);
	expect_enc("/event=4/", -EINVAL, 0, 0, 0);
	expect_enc("amd_l3/event=4/x/", -EINVAL, 0, 0, 0);
	expect_enc("amd_umc/event=4/", -ENODEV, 0, 0, 0);
	expect_enc("pmu=amd_l3,event=0x4,user=0", -EINVAL, 0, 0, 0);
	expect_enc("pmu=amd_l3,event=4", -EINVAL, 0, 0, 0);
}

static void test_require(void **state)
{
	struct pmc_event ev;
	char err[512];

	(void)state;
	assert_int_equal(pmc_event_parse("ibs-op", 6, pmus, &ev, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "'ibs_op'"));
	assert_non_null(strstr(err, "uprof info --system"));
	assert_int_equal(pmc_event_parse("RETIRED_INST", 12, NULL, &ev, err, sizeof(err)), 0);
	assert_int_equal(pmc_event_require(&ev, pmus, err, sizeof(err)), 0);
	assert_int_equal(pmc_event_require(&ev, NULL, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "core PMC PMU 'cpu' is not available"));
	assert_int_equal(pmc_event_parse("task-clock", 10, NULL, &ev, err, sizeof(err)), 0);
	assert_int_equal(pmc_event_require(&ev, NULL, err, sizeof(err)), 0);
}

/* ---- the event list ---- */

static struct pmc_evlist *evlist_of(const char *const *specs, int n)
{
	struct pmc_evlist *l = pmc_evlist_new();
	char err[256];

	assert_non_null(l);
	for (int i = 0; i < n; i++) {
		struct pmc_event ev;

		assert_int_equal(pmc_event_parse(specs[i], strlen(specs[i]), pmus, &ev, err, sizeof(err)), 0);
		assert_int_equal(pmc_evlist_add(l, &ev), i);
	}
	return l;
}

static void test_plan_groups(void **state)
{
	static const char *const specs[] = {
		"pmcx76", "pmcxc0", "pmcxc1", "pmcxc2", "pmcxc3", "pmcxc4", "pmcxc5", /* 7 core */
		"amd_l3/l3_accesses/", "task-clock", "page-faults",
	};
	struct pmc_target t = { 0 };
	struct pmc_evlist *l = evlist_of(specs, 10);
	struct pmc_counter_info ci;
	char err[256];

	(void)state;
	pmc_cpus_set(&t.cpus, 5);
	pmc_cpus_set(&t.cpus, 9);
	assert_int_equal(pmc_evlist_plan(l, pmus, topo, &t, err, sizeof(err)), 0);
	/* core: 2 groups (6 + 1) x 2 CPUs; L3: CPUs 4 and 8; software: 2 x 2 */
	assert_int_equal(pmc_evlist_ncounters(l), 14 + 2 + 4);
	assert_int_equal(pmc_evlist_counter(l, 0, &ci), 0);
	assert_true(ci.leader && ci.cpu == 5 && ci.event == 0 && ci.attr->disabled);
	assert_int_equal(pmc_evlist_counter(l, 5, &ci), 0);
	assert_true(!ci.leader && ci.cpu == 5 && ci.event == 5 && !ci.attr->disabled);
	assert_int_equal(pmc_evlist_counter(l, 6, &ci), 0); /* same group, next CPU */
	assert_true(ci.leader && ci.cpu == 9);
	assert_int_equal(pmc_evlist_counter(l, 12, &ci), 0); /* 7th event: its own group */
	assert_true(ci.leader && ci.event == 6 && ci.cpu == 5);
	assert_int_equal(pmc_evlist_counter(l, 14, &ci), 0);
	assert_true(ci.event == 7 && ci.cpu == 4 && ci.attr->type == 11);
	assert_int_equal(pmc_evlist_counter(l, 15, &ci), 0);
	assert_true(ci.event == 7 && ci.cpu == 8);
	assert_int_equal(pmc_evlist_counter(l, 20, &ci), -ERANGE);
	assert_int_equal(ci.attr->read_format,
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
	{
		struct pmc_event ev = { 0 };

		assert_int_equal(pmc_evlist_add(l, &ev), -EBUSY); /* planned */
	}
	pmc_evlist_free(l);
}

static void test_plan_task_and_missing(void **state)
{
	static const char *const specs[] = { "RETIRED_INST", "amd_df/event=0x7,umask=0x38/" };
	struct pmc_target t = { .pid = 4242, .inherit = true };
	struct pmc_evlist *l = evlist_of(specs, 2);
	struct pmc_counter_info ci;
	struct pmc_pmus *none;
	char err[256];

	(void)state;
	assert_int_equal(pmc_evlist_plan(l, pmus, topo, &t, err, sizeof(err)), 0);
	assert_int_equal(pmc_evlist_ncounters(l), 1 + 2); /* the task; DF on both packages */
	pmc_evlist_counter(l, 0, &ci);
	assert_true(ci.cpu == -1 && ci.pid == 4242 && ci.attr->inherit && ci.attr->enable_on_exec);
	pmc_evlist_counter(l, 1, &ci);
	assert_true(ci.cpu == 0 && ci.pid == -1 && !ci.attr->inherit && !ci.attr->enable_on_exec);
	setenv("UPROF_SYSFS_ROOT", "/nonexistent/uprof", 1);
	assert_int_equal(pmc_pmus_load(&none), 0);
	assert_int_equal(pmc_evlist_plan(l, none, topo, &t, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "'cpu'"));
	pmc_pmus_free(none);
	{
		char sysfs[PATH_MAX];

		snprintf(sysfs, sizeof(sysfs), "%s/sysfs", fix);
		setenv("UPROF_SYSFS_ROOT", sysfs, 1);
	}
	pmc_evlist_free(l);
}

static void test_open_read_close(void **state)
{
	static const char *const specs[] = { "pmcx76", "pmcxc0", "amd_l3/l3_accesses/" };
	struct pmc_target t = { 0 };
	struct pmc_evlist *l = evlist_of(specs, 3);
	struct pmc_count c[8];
	char err[256];
	int failed = -1;

	(void)state;
	pmc_cpus_set(&t.cpus, 1);
	assert_int_equal(pmc_evlist_plan(l, pmus, topo, &t, err, sizeof(err)), 0);
	assert_int_equal(pmc_evlist_ncounters(l), 3);
	fake_reset();
	assert_int_equal(pmc_evlist_read(l, c), -EINVAL); /* not open */
	assert_int_equal(pmc_evlist_open(l, &failed), 0);
	assert_int_equal(fake_opened, 3);
	assert_int_equal(fake_group_fd[0], -1);
	assert_int_equal(fake_group_fd[1], 100); /* sibling of the first */
	assert_int_equal(fake_group_fd[2], -1);
	assert_int_equal(pmc_evlist_enable(l), 0);
	assert_int_equal(fake_enabled, 2); /* the two leaders */
	assert_int_equal(pmc_evlist_read(l, c), 0);
	assert_int_equal(c[1].value, 1010);
	assert_int_equal(c[1].enabled, 2000);
	assert_true(pmc_count_scale(&c[1]) == 2020.0);
	pmc_evlist_close(l);
	assert_int_equal(fake_closed, 3);
	pmc_evlist_close(l); /* twice is fine */
	assert_int_equal(fake_closed, 3);

	fake_reset();
	fake_fail_at = 2;
	assert_int_equal(pmc_evlist_open(l, &failed), -EACCES);
	assert_int_equal(failed, 2);
	assert_int_equal(fake_closed, 2); /* nothing stays open */
	pmc_evlist_free(l);
}

static void test_attr_helpers(void **state)
{
	struct perf_event_attr a;
	struct pmc_event ev;
	char err[256], buf[512];

	(void)state;
	assert_int_equal(pmc_event_parse("event=RETIRED_INST,interval=500000,os=0", 39, pmus, &ev, err,
					 sizeof(err)), 0);
	pmc_event_sample_attr(&ev, false, &a);
	assert_int_equal(a.sample_period, 500000);
	assert_true(a.exclude_kernel && a.inherit && a.enable_on_exec && a.use_clockid);
	assert_int_equal(a.sample_type, PMC_SAMPLE_TYPE);
	assert_string_equal(pmc_attr_name(&a), "RETIRED_INST"); /* sysfs type 4 is PERF_TYPE_RAW */
	pmc_event_label(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "RETIRED_INST (PMCx0C0)");
	assert_int_equal(pmc_event_parse("RETIRED_INST,call-graph", 23, NULL, &ev, err, sizeof(err)), 0);
	pmc_event_sample_attr(&ev, true, &a);
	assert_int_equal(a.sample_period, PMC_DEFAULT_INTERVAL);
	assert_true(a.sample_type & PERF_SAMPLE_CALLCHAIN);
	assert_true(a.exclude_kernel);
	assert_string_equal(pmc_attr_name(&a), "RETIRED_INST");
	pmc_event_label(&ev, buf, sizeof(buf));
	assert_string_equal(buf, "RETIRED_INST (PMCx0C0)");
	assert_int_equal(pmc_event_parse("pmcxc4,frequency=1000", 21, NULL, &ev, err, sizeof(err)), 0);
	pmc_event_sample_attr(&ev, false, &a);
	assert_true(a.freq && a.sample_freq == 1000);
	assert_string_equal(pmc_attr_name(&a), "PMCx0C4");
	pmc_attr_format(&a, buf, sizeof(buf));
	assert_non_null(strstr(buf, "type=4,size="));
	assert_non_null(strstr(buf, ",config=0xc4,sample_freq=1000,"));
	assert_int_equal(pmc_attr_format(&a, buf, 4), (int)strlen(buf)); /* snprintf style */
	assert_int_equal(strlen(buf), 3);
}

/* ---- live: software events on this process, no PMU needed ---- */

static void test_live_software(void **state)
{
	static const char *const specs[] = { "task-clock", "page-faults" };
	struct pmc_target t = { .pid = getpid() };
	struct pmc_evlist *l = evlist_of(specs, 2);
	struct pmc_count c[2];
	volatile double x = 1;
	char err[256], *mem;
	int failed = -1, ret;

	(void)state;
	assert_int_equal(pmc_evlist_plan(l, pmus, topo, &t, err, sizeof(err)), 0);
	assert_int_equal(pmc_evlist_ncounters(l), 2);
	fake = false;
	ret = pmc_evlist_open(l, &failed);
	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS) {
		fake = true;
		pmc_evlist_free(l);
		skip();
	}
	assert_int_equal(ret, 0);
	assert_int_equal(pmc_evlist_enable(l), 0);
	mem = malloc(64 << 20);
	assert_non_null(mem);
	for (size_t i = 0; i < (64 << 20); i += 4096)
		mem[i] = 1; /* 16384 fresh pages */
	for (int i = 0; i < 20000000; i++)
		x = x * 1.0000001 + 1e-9;
	assert_int_equal(pmc_evlist_read(l, c), 0);
	free(mem);
	pmc_evlist_free(l);
	fake = true;
	assert_true(c[0].value > 5000000);	/* more than 5 ms of CPU */
	assert_true(c[0].running == c[0].enabled); /* software events never multiplex */
	assert_true(c[1].value >= 10000);	/* most of the pages faulted in */
}

static int setup(void **state)
{
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";
	char path[PATH_MAX];

	(void)state;
	if (!realpath(src, fix))
		return -1;
	snprintf(path, sizeof(path), "%s/tests/fixtures", fix);
	snprintf(fix, sizeof(fix), "%s", path);
	snprintf(path, sizeof(path), "%s/sysfs", fix);
	setenv("UPROF_SYSFS_ROOT", path, 1);
	snprintf(path, sizeof(path), "%s/procfs", fix);
	setenv("UPROF_PROCFS_ROOT", path, 1);
	if (pmc_pmus_load(&pmus) || pmc_topo_load(&topo))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pmc_pmus_free(pmus);
	pmc_topo_free(topo);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmus),
		cmocka_unit_test(test_nmi_watchdog_takes_a_counter),
		cmocka_unit_test(test_missing_root_is_empty),
		cmocka_unit_test(test_format_fields),
		cmocka_unit_test(test_cpulists),
		cmocka_unit_test(test_topology),
		cmocka_unit_test(test_cpuid_and_frequency),
		cmocka_unit_test(test_procstat),
		cmocka_unit_test(test_uncore_encodings),
		cmocka_unit_test(test_require),
		cmocka_unit_test(test_plan_groups),
		cmocka_unit_test(test_plan_task_and_missing),
		cmocka_unit_test(test_open_read_close),
		cmocka_unit_test(test_attr_helpers),
		cmocka_unit_test(test_live_software),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
