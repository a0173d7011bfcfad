// SPDX-License-Identifier: MIT
/*
 * lib/pmc/groups.c: pcm's metric groups against the fake machine of tests/fixtures/sysfs
 * (a Zen core PMU, amd_l3, amd_df, msr): which file a family reads, the events a group
 * adds to the shared evlist and its class, the formulas' values over given counter deltas
 * (units of CPUs, NCPUS, IDLE_NS, P0_FREQ_MHZ, missing optional events, earlier metrics'
 * ids), and the messages of bad groups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmc/pmc.h"
#include "tmpdir.h"

static struct pmc_pmus *pmus;
static struct pmc_groups gs;
static char dir[PATH_MAX]; /* a configs directory of this test's own groups */

static void put(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int add(const char *name, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (pmc_group_path(dir, -1, name, path, sizeof(path)))
		return -ENOENT;
	return pmc_groups_add(&gs, path, name, pmus, err, errlen);
}

static void family_file_first_then_the_common_one(void **state)
{
	char path[PATH_MAX], want[PATH_MAX];

	(void)state;
	assert_int_equal(pmc_group_path(dir, 0x19, "fam", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/pcm/0x19/fam.ini", dir);
	assert_string_equal(path, want);
	assert_int_equal(pmc_group_path(dir, 0x1a, "fam", path, sizeof(path)), 0);
	snprintf(want, sizeof(want), "%s/pcm/fam.ini", dir);
	assert_string_equal(path, want);
	assert_int_equal(pmc_group_path(dir, -1, "fam", path, sizeof(path)), 0);
	assert_string_equal(path, want);
	assert_int_equal(pmc_group_path(dir, 0x19, "nosuch", path, sizeof(path)), -ENOENT);
}

/* The shipped ipc and l3 groups: events shared, classes from the PMUs' scopes. */
static void shipped_groups_share_one_evlist(void **state)
{
	char path[PATH_MAX], err[1024], buf[128];

	(void)state;
	memset(&gs, 0, sizeof(gs));
	assert_int_equal(pmc_group_path("configs", -1, "ipc", path, sizeof(path)), 0);
	assert_string_equal(path, "configs/pcm/ipc.ini");
	assert_int_equal(pmc_groups_add(&gs, path, "ipc", pmus, err, sizeof(err)), 0);
	assert_int_equal(pmc_groups_add(&gs, path, "ipc2", pmus, err, sizeof(err)), 0);
	assert_int_equal(pmc_group_path("configs", -1, "l3", path, sizeof(path)), 0);
	assert_int_equal(pmc_groups_add(&gs, path, "l3", pmus, err, sizeof(err)), 0);
	assert_int_equal(gs.ngroups, 3);
	assert_string_equal(gs.groups[0].title, "CORE METRICS");
	assert_int_equal(gs.groups[0].cls, PMC_GROUP_CORE);
	assert_int_equal(gs.groups[0].nnames, 9);
	assert_int_equal(gs.groups[0].nmetrics, 12);
	assert_string_equal(gs.names[6].name, "APERF");
	/* nine distinct events: cycles and instructions with and without os=0, branches,
	 * three msr ones; the same file again adds none */
	assert_int_equal(gs.groups[1].first_name, 9);
	assert_int_equal(gs.names[9 + 4].event, gs.names[4].event);
	assert_string_equal(gs.groups[2].title, "L3 METRICS");
	assert_int_equal(gs.groups[2].cls, PMC_GROUP_L3);
	assert_int_equal(gs.groups[2].first_metric, 24);
	assert_int_equal(pmc_evlist_nevents(gs.evl), 9 + 4);
	assert_string_equal(pmc_groups_event_name(&gs, gs.names[1].event, buf, sizeof(buf)),
			    "ipc:INST");
	assert_string_equal(pmc_groups_event_name(&gs, 12, buf, sizeof(buf)), "l3:L3_MISS_REQ");
	assert_string_equal(pmc_groups_event_name(&gs, 13, buf, sizeof(buf)), "?");
	pmc_groups_release(&gs);
	pmc_groups_release(&gs);
	assert_null(gs.evl);
}

static const char grp[] = "[config]\ntitle = T\n"
			  "[event.0]\nname = CYC\nspec = CYCLES_NOT_IN_HALT\n"
			  "[event.1]\nname = INST\nspec = RETIRED_INST\n"
			  "[event.2]\nname = GONE\nspec = nosuchpmu/event=1/\noptional = 1\n"
			  "[metric.0]\nname = IPC\nid = ipc\nformula = INST / CYC\n"
			  "[metric.1]\nname = Twice\nformula = ipc * 2\n"
			  "[metric.2]\nname = N\nformula = NCPUS\n"
			  "[metric.3]\nname = Idle\nformula = IDLE_NS\n"
			  "[metric.4]\nname = Freq\nformula = P0_FREQ_MHZ + ELAPSED_NS\n"
			  "[metric.5]\nname = Gone\nformula = GONE + 1\n";

/* Counters of CYC and INST on CPUs 0 and 1, the unit being CPU 1 alone or both. */
static void values_over_counter_deltas(void **state)
{
	struct pmc_counter_info ci[4];
	/* CPU 1's INST ran half of its enabled time (multiplexed): scaled to 2 x 300 */
	const struct pmc_count delta[4] = {
		{ 1000, 1000, 1000 },
		{ 400, 1000, 1000 },
		{ 2000, 1000, 1000 },
		{ 300, 1000, 500 },
	};
	const uint64_t idle[2] = { 250, 5000 }; /* CPU 1's is capped at the interval */
	struct pmc_cpus one, both;
	struct pmc_group_input in = { .cinfo = ci,
				      .delta = delta,
				      .ncounters = 4,
				      .measured = &both,
				      .idle = idle,
				      .elapsed_ns = 1000 };
	char err[1024];

	(void)state;
	memset(&gs, 0, sizeof(gs));
	put("pcm/v.ini", grp);
	assert_int_equal(add("v", err, sizeof(err)), 0);
	assert_int_equal(gs.nnames, 3);
	assert_int_equal(gs.names[2].event, -1);
	for (int i = 0; i < 4; i++)
		ci[i] = (struct pmc_counter_info){ .event = gs.names[i % 2].event,
						   .cpu = i / 2,
						   .pid = -1 };
	pmc_cpus_clear(&one);
	pmc_cpus_set(&one, 1);
	pmc_cpus_clear(&both);
	pmc_cpus_set(&both, 0);
	pmc_cpus_set(&both, 1);
	in.cpus = &one;
	in.ncpus = 1;
	assert_true(pmc_groups_value(&gs, 0, 0, &in) == 0.3);
	assert_true(pmc_groups_value(&gs, 0, 1, &in) == 0.6);
	assert_true(pmc_groups_value(&gs, 0, 2, &in) == 1.0);
	assert_true(pmc_groups_value(&gs, 0, 3, &in) == 1000.0);
	assert_true(isnan(pmc_groups_value(&gs, 0, 4, &in))); /* P0 frequency unknown */
	assert_true(isnan(pmc_groups_value(&gs, 0, 5, &in))); /* the optional event is gone */
	in.cpus = &both;
	in.ncpus = 2;
	in.p0_mhz = 3000;
	assert_true(pmc_groups_value(&gs, 0, 0, &in) == 1000.0 / 3000.0);
	assert_true(pmc_groups_value(&gs, 0, 2, &in) == 2.0);
	assert_true(pmc_groups_value(&gs, 0, 3, &in) == 1250.0);
	assert_true(pmc_groups_value(&gs, 0, 4, &in) == 4000.0);
	in.idle = NULL; /* a task */
	assert_true(pmc_groups_value(&gs, 0, 3, &in) == 0.0);
	pmc_groups_release(&gs);
}

static const char counts_grp[] = "[config]\ntitle = C\n"
				 "[event.0]\nname = CS\nspec = context-switches\n"
				 "[event.1]\nname = TC\nspec = task-clock\n"
				 "[event.2]\nname = GONE\nspec = nosuchpmu/event=1/\noptional = 1\n"
				 "[metric.0]\nname = Context Switches\nformula =  CS \n"
				 "[metric.1]\nname = Per ms\nformula = CS * 1000000 / TC\n"
				 "[metric.2]\nname = Once\nformula = CS * 1\n"
				 "[metric.3]\nname = Gone\nformula = GONE\n"
				 "[metric.4]\nname = Elapsed\nformula = ELAPSED_NS\n";

/*
 * Counts as counted: two CPUs' context-switch counters, recorded as an -a row of 200 ms
 * read them. CPU 0's was read 1 ms late (enabled 201 ms), CPU 1's ran 3/4 of its enabled
 * time (multiplexed). The old value, each scaled to the row (pmc_count_over), was
 * 500 * 200/201 + 300 * 4/3 * 200/200 = 897.51; counted, it is 800, an integer, and the
 * scale stands apart: 4/3. A derived metric still uses the scaled estimates.
 */
static void counts_as_counted_scale_apart(void **state)
{
	struct pmc_counter_info ci[4];
	const struct pmc_count delta[4] = {
		{ 500, 201000000, 201000000 },	     /* CS, CPU 0 */
		{ 201000000, 201000000, 201000000 }, /* TC, CPU 0 */
		{ 300, 200000000, 150000000 },	     /* CS, CPU 1: multiplexed */
		{ 150000000, 200000000, 150000000 }, /* TC, CPU 1 */
	};
	struct pmc_cpus both;
	struct pmc_group_input in = { .cinfo = ci,
				      .delta = delta,
				      .ncounters = 4,
				      .cpus = &both,
				      .ncpus = 2,
				      .measured = &both,
				      .elapsed_ns = 200000000 };
	char err[1024];
	uint64_t n = 1;
	double scaled;

	(void)state;
	memset(&gs, 0, sizeof(gs));
	put("pcm/c.ini", counts_grp);
	assert_int_equal(add("c", err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++)
		ci[i] = (struct pmc_counter_info){ .event = gs.names[i % 2].event,
						   .cpu = i / 2,
						   .pid = -1 };
	pmc_cpus_clear(&both);
	pmc_cpus_set(&both, 0);
	pmc_cpus_set(&both, 1);
	/* which metrics are counts: the bare name (spaces around it), nothing else */
	assert_int_equal(gs.metrics[0].count_name, 0);
	assert_int_equal(gs.metrics[1].count_name, -1);
	assert_int_equal(gs.metrics[2].count_name, -1);
	assert_int_equal(gs.metrics[3].count_name, 2);
	assert_int_equal(gs.metrics[4].count_name, -1); /* a variable is no count */
	assert_int_equal(pmc_groups_count(&gs, 0, &in, &n), 0);
	assert_int_equal(n, 800);
	scaled = pmc_groups_value(&gs, 0, 0, &in);
	assert_true(fabs(scaled - (500.0 * 200 / 201 + 400.0)) < 1e-9); /* the old 897.51 */
	assert_true(fabs(pmc_groups_value(&gs, 0, 2, &in) - scaled) < 1e-9);
	assert_int_equal(pmc_groups_count(&gs, 1, &in, &n), -ENOENT);
	assert_int_equal(pmc_groups_count(&gs, 3, &in, &n), -ENODEV);
	assert_true(fabs(pmc_groups_mux_scale(&gs, 0, &in) - 4.0 / 3.0) < 1e-12);
	/* CPU 0 alone: counted 500, not multiplexed */
	pmc_cpus_clear(&both);
	pmc_cpus_set(&both, 0);
	assert_int_equal(pmc_groups_count(&gs, 0, &in, &n), 0);
	assert_int_equal(n, 500);
	assert_true(pmc_groups_mux_scale(&gs, 0, &in) == 1.0);
	/* a counter enabled but never on a counter: no count, the scale NaN */
	{
		struct pmc_count never[4];

		memcpy(never, delta, sizeof(never));
		never[2] = (struct pmc_count){ 0, 200000000, 0 };
		in.delta = never;
		pmc_cpus_set(&both, 1);
		assert_int_equal(pmc_groups_count(&gs, 0, &in, &n), -ENODATA);
		assert_true(isnan(pmc_groups_mux_scale(&gs, 0, &in)));
	}
	pmc_groups_release(&gs);
}

static void bad_groups_say_what(void **state)
{
	char err[1024], want[1024];

	(void)state;
	memset(&gs, 0, sizeof(gs));
	put("pcm/later.ini", "[event.0]\nname = A\nspec = RETIRED_INST\n"
			     "[metric.0]\nname = M\nformula = A / B\n");
	assert_int_equal(add("later", err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s/pcm/later.ini [metric.0] 'M' uses 'B': not an event, "
		 "an earlier metric id or a variable of the group",
		 dir);
	assert_string_equal(err, want);
	pmc_groups_release(&gs);
	put("pcm/nopmu.ini", "[event.0]\nspec = nosuchpmu/event=1/\n");
	assert_int_equal(add("nopmu", err, sizeof(err)), -ENODEV);
	assert_int_equal(gs.ngroups, 0);
	pmc_groups_release(&gs);
	put("pcm/syntax.ini", "[event.0\n");
	assert_int_equal(add("syntax", err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s/pcm/syntax.ini: syntax error (%s/pcm/syntax.ini line 1)",
		 dir, dir);
	assert_string_equal(err, want);
	pmc_groups_release(&gs);
	assert_int_equal(add("nosuch", err, sizeof(err)), -ENOENT);
}

static int setup(void **state)
{
	const char *src = getenv("UPROF_SRC") ? getenv("UPROF_SRC") : ".";
	char root[PATH_MAX], path[PATH_MAX + 32];

	(void)state;
	if (!realpath(src, root))
		return -1;
	snprintf(path, sizeof(path), "%s/tests/fixtures/sysfs", root);
	setenv("UPROF_SYSFS_ROOT", path, 1);
	snprintf(path, sizeof(path), "%s/tests/fixtures/procfs", root);
	setenv("UPROF_PROCFS_ROOT", path, 1);
	test_tmp_path(dir, sizeof(dir), "uprof-groups-XXXXXX");
	if (!mkdtemp(dir) || pmc_pmus_load(&pmus))
		return -1;
	snprintf(path, sizeof(path), "%s/pcm", dir);
	if (mkdir(path, 0700))
		return -1;
	snprintf(path, sizeof(path), "%s/pcm/0x19", dir);
	if (mkdir(path, 0700))
		return -1;
	put("pcm/fam.ini", "[event.0]\nspec = RETIRED_INST\n");
	put("pcm/0x19/fam.ini", "[event.0]\nspec = RETIRED_INST\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	pmc_pmus_free(pmus);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(family_file_first_then_the_common_one),
		cmocka_unit_test(shipped_groups_share_one_evlist),
		cmocka_unit_test(values_over_counter_deltas),
		cmocka_unit_test(counts_as_counted_scale_apart),
		cmocka_unit_test(bad_groups_say_what),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
