// SPDX-License-Identifier: MIT
/* lib/metric/config.c: configuration files (configs/<name>.ini, configs/pcm/<group>.ini)
 * read with inih from a directory the caller names: keys, sections, defaults, the
 * messages of bad files, and the listing of a directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metric/metric.h"
#include "tmpdir.h"

static struct mtr_config cfg;

static int parse(const char *text, char *err, size_t errlen)
{
	return mtr_config_parse(text, strlen(text), &cfg, err, errlen);
}

static void keys_sections_and_defaults(void **state)
{
	static const char text[] =
		"[config]\nlabel = Branches\ndescription = d\ntitle = T\n"
		"user_only = 1\n[event.0]\nspec = RETIRED_INST\n"
		"[event.1]\nname = CYC\nspec = CYCLES_NOT_IN_HALT\noptional = 1\n"
		"[metric.0]\nname = IPC\nid = ipc\nformula = RETIRED_INST / CYC\n"
		"[later]\nwhatever = 1\n";
	char err[256];

	(void)state;
	assert_int_equal(parse(text, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(cfg.label, "Branches");
	assert_string_equal(cfg.description, "d");
	assert_string_equal(cfg.title, "T");
	assert_true(cfg.user_only);
	assert_true(cfg.timer_interval_ms == 1.0); /* the default */
	assert_int_equal(cfg.nevents, 2);
	assert_string_equal(cfg.events[0].spec, "RETIRED_INST");
	assert_string_equal(cfg.events[0].name, "");
	assert_false(cfg.events[0].optional);
	assert_string_equal(cfg.events[1].name, "CYC");
	assert_true(cfg.events[1].optional);
	assert_int_equal(cfg.nmetrics, 1);
	assert_string_equal(cfg.metrics[0].name, "IPC");
	assert_string_equal(cfg.metrics[0].id, "ipc");
	assert_string_equal(cfg.metrics[0].formula, "RETIRED_INST / CYC");
}

static void bad_files_say_what(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "[event.0]\nname = X\n", "[event.0] missing, or without spec" },
		{ "[event.1]\nspec = A\n", "[event.0] missing, or without spec" },
		{ "[metric.0]\nname = M\n", "[metric.0] missing, or without name/formula" },
		{ "[event.0]\nspec = A\nflavour = x\n",
		  "[event.0]: unknown key 'flavour' (spec, name, optional = 0|1) (config line 3)" },
		{ "[metric.48]\nname = M\n",
		  "[metric.48]: sections are numbered metric.0 .. metric.47 (config line 2)" },
		{ "[config]\ntimer_interval_ms = 0\n",
		  "bad timer_interval_ms '0' (config line 2)" },
		{ "[config]\nuser_only = yes\n",
		  "user_only must be 0 or 1, not 'yes' (config line 2)" },
		{ "[config\n", "syntax error (config line 1)" },
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].text, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, bad[i].err);
	}
	assert_int_equal(mtr_config_parse("a\0b", 3, &cfg, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "NUL byte in config");
	assert_int_equal(parse("[metric.0]\nname = M\nformula = (1 +\n", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(strncmp(err, "[metric.0] formula: ", 20), 0);
}

/* The shipped files, from the source tree's configs/ (tests run in the repository root). */
static void shipped_configs_load_from_a_named_dir(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(mtr_config_load("configs", "tbp", &cfg, err, sizeof(err)), 0);
	assert_string_equal(cfg.name, "tbp");
	assert_string_equal(cfg.label, "TBP");
	assert_true(cfg.timer_interval_ms == 1.0);
	assert_false(cfg.user_only);
	assert_int_equal(cfg.nevents, 0);
	assert_int_equal(mtr_config_load("configs", "no_such_config", &cfg, err, sizeof(err)),
			 -ENOENT);
	assert_int_equal(mtr_config_load("configs", "../configs/tbp", &cfg, err, sizeof(err)),
			 -ENOENT); /* names are [a-z0-9_-]: no way out of the directory */
	assert_int_equal(mtr_config_load_path("configs/pcm/ipc.ini", &cfg, err, sizeof(err)), 0);
	assert_string_equal(cfg.name, "ipc");
	assert_string_equal(cfg.label, "ipc"); /* no label: the name */
	assert_string_equal(cfg.title, "CORE METRICS");
	assert_int_equal(cfg.nevents, 9);
	assert_string_equal(cfg.events[6].name, "APERF");
	assert_string_equal(cfg.events[6].spec, "msr/aperf/");
	assert_true(cfg.events[6].optional);
	assert_int_equal(cfg.nmetrics, 12);
	assert_string_equal(cfg.metrics[1].name, "Eff Freq (MHz)");
	assert_string_equal(cfg.metrics[1].formula, "APERF / MPERF * P0_FREQ_MHZ");
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void list_names_the_ini_files_sorted(void **state)
{
	char dir[4096], names[4][64], path[4096];

	(void)state;
	test_tmp_path(dir, sizeof(dir), "uprof-config-XXXXXX");
	assert_non_null(mkdtemp(dir));
	put(dir, "zeta.ini", "[config]\nlabel = Z\n");
	put(dir, "alpha.ini", "[config]\n");
	put(dir, "notes.txt", "not a config\n");
	assert_int_equal(mtr_config_list(dir, names, 4), 2);
	assert_string_equal(names[0], "alpha");
	assert_string_equal(names[1], "zeta");
	assert_int_equal(mtr_config_list(dir, names, 1), 1);
	assert_int_equal(mtr_config_load(dir, "zeta", &cfg, path, sizeof(path)), 0);
	assert_string_equal(cfg.label, "Z");
	assert_int_equal(mtr_config_list("/nonexistent/uprof-configs", names, 4), 0);
	for (const char *n = "zeta.ini\0alpha.ini\0notes.txt\0"; *n; n += strlen(n) + 1) {
		snprintf(path, sizeof(path), "%s/%s", dir, n);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_sections_and_defaults),
		cmocka_unit_test(bad_files_say_what),
		cmocka_unit_test(shipped_configs_load_from_a_named_dir),
		cmocka_unit_test(list_names_the_ini_files_sorted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
